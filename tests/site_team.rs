#![cfg(not(target_arch = "wasm32"))]
//! `gpu-primer site DIST --catalog team.json`: a site built with a team's catalog (the sample
//! `docs/team-catalog.json`) lists the team's GPUs by name in the estimator's and the planner's
//! menus, marked as the team's in both languages, prices at the team's rate, and carries the
//! file in every page for the app; a bad file is refused with its problems named and no page
//! written.

use std::path::{Path, PathBuf};
use std::process::Command;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/team-catalog.json");

#[path = "support/app_stand_ins.rs"]
mod app_stand_ins;

/// A directory holding stand-ins of the app's files, as Trunk builds them.
fn dist(name: &str) -> PathBuf {
    app_stand_ins::dist_with_app(&format!("team-{name}"))
}

fn site(dir: &Path, catalog: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-primer"))
        .arg("site")
        .arg(dir)
        .args(["--catalog", catalog])
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn page(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `<select id=ID>`'s options as (value, label) pairs.
fn options(html: &str, id: &str) -> Vec<(String, String)> {
    let start = html.find(&format!("<select id=\"{id}\"")).unwrap_or_else(|| panic!("no select #{id}"));
    let select = &html[start..start + html[start..].find("</select>").unwrap()];
    select
        .split("<option value=\"")
        .skip(1)
        .map(|o| {
            let (value, rest) = o.split_once('"').unwrap();
            let label = rest.split_once('>').unwrap().1.split('<').next().unwrap();
            (value.to_owned(), label.replace("&#39;", "'").replace("&#x27;", "'"))
        })
        .collect()
}

#[test]
fn the_team_gpus_are_in_the_menus_by_name_and_the_file_in_every_page() {
    let dir = dist("ok");
    let (code, out, err) = site(&dir, SAMPLE);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("site: "), "{out}");
    for (lang, mark) in [("en", "your team's catalog"), ("zh", "团队目录")] {
        let estimator = options(&page(&dir, &format!("{lang}/estimate/index.html")), "gpu");
        let label = |id: &str| estimator.iter().find(|(v, _)| v == id).map(|(_, l)| l.clone());
        assert_eq!(
            label("lab-l40s-48gb").as_deref(),
            Some(format!("Lab L40S node (48 GB) · 48 GB · {mark}").as_str())
        );
        assert_eq!(
            label("lab-a800-80gb").as_deref(),
            Some(format!("Lab A800 80GB PCIe · 80 GB · {mark}").as_str())
        );
        // The standard catalog stays, unmarked.
        assert_eq!(label("h100-sxm").as_deref(), Some("H100 SXM5 80GB · 80 GB"));
        let planner = options(&page(&dir, &format!("{lang}/plan/index.html")), "plan-gpu");
        assert!(
            planner.contains(&("lab-a800-80gb".to_owned(), format!("Lab A800 80GB PCIe · {mark}"))),
            "{planner:?}"
        );
        assert!(planner.iter().any(|(v, l)| v == "h100-sxm" && !l.contains(mark)));
    }
    // The planner's default GPU is priced at the team's rate, with the team's source.
    let plan = page(&dir, "en/plan/index.html");
    assert!(plan.contains("$2.10"), "the team's H100 price");
    assert!(plan.contains("your team's catalog: Example Lab reserved H100 contract"), "the price's source");
    // Every page carries the file, first in its body, for the app to read at start.
    let sample: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(SAMPLE).unwrap()).unwrap();
    for path in [
        "index.html",
        "en/chapters/cuda/index.html",
        "zh/estimate/index.html",
        "en/embed/kv-cache/index.html",
        "404.html",
    ] {
        let html = page(&dir, path);
        let open = "<script type=\"application/json\" id=\"team-catalog\">";
        let at = html.find(open).unwrap_or_else(|| panic!("{path}: no team catalog"));
        let before = &html[..at];
        assert!(
            before.trim_end().ends_with('>') && before[before.rfind('<').unwrap()..].starts_with("<body"),
            "{path}"
        );
        let text = &html[at + open.len()..at + html[at..].find("</script>").unwrap()];
        assert_eq!(serde_json::from_str::<serde_json::Value>(text).unwrap(), sample, "{path}");
    }
    assert_eq!(page(&dir, "team-catalog.json"), std::fs::read_to_string(SAMPLE).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_team_catalog_is_refused_with_its_problems_named() {
    let dir = dist("bad");
    let file = dir.join("team.json");
    std::fs::write(
        &file,
        r#"{"source": "ours", "gpus": [{"id": "lab-x", "name": "X", "memory_bytes": "80 GB",
             "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 1e14}},
             {"id": "h100-sxm", "name": "Ours", "memory_bytes": 8e10, "memory_bandwidth_bytes_per_s": 0, "peak_flops": {"bf16": 1e14}}],
           "prices": [{"gpu": "lab-y", "usd_per_gpu_hour": 2}]}"#,
    )
    .unwrap();
    let (code, _, err) = site(&dir, file.to_str().unwrap());
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for named in [
        "team.json: 4 problems",
        "gpus[0] 'lab-x'.memory_bytes: expected",
        "gpus[1] 'h100-sxm'.id: is already a GPU of the standard catalog",
        "gpus[1] 'h100-sxm'.memory_bandwidth_bytes_per_s: must be a finite number",
        "prices[0].gpu: no GPU 'lab-y' in this file or the standard catalog",
    ] {
        assert!(err.contains(named), "'{named}' not in:\n{err}");
    }
    assert!(!dir.join("en/estimate/index.html").exists(), "no page written");
    let (code, _, err) = site(&dir, "/nonexistent/team.json");
    assert_eq!(code, 2);
    assert!(err.starts_with("gpu-primer: --catalog /nonexistent/team.json: "), "{err}");
    let missing = Command::new(env!("CARGO_BIN_EXE_gpu-primer"))
        .arg("site")
        .arg(&dir)
        .arg("--catalog")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--catalog needs a team catalog file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

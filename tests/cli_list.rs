//! `gpu-primer list gpus|models [--json]`: the catalog's ids with their memory and bandwidth or
//! their family and parameters, so a script or a reader finds an id without reading the source.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-primer")).args(args).output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("a JSON list")
}

#[test]
fn gpus_as_json_carry_every_catalog_gpu_with_memory_and_bandwidth() {
    let rows = json(&["list", "gpus", "--json"]);
    assert_eq!(rows.len(), gpu_primer::catalog::gpus::all().len());
    let find = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id}"));
    let h = find("h100-sxm");
    assert_eq!(h["memory_bytes"], 80_000_000_000u64);
    assert_eq!(h["memory_bandwidth_bytes_per_s"], 3.35e12);
    assert_eq!(h["memory_kind"], "discrete");
    let m = find("apple-m2-ultra-76c");
    assert_eq!(m["memory_kind"], "apple_unified");
    assert_eq!(m["memory_options_bytes"], serde_json::json!([64e9 as u64, 128e9 as u64, 192e9 as u64]));
    assert_eq!(m["memory_bandwidth_bytes_per_s"], 800e9);
    assert_eq!(find("dgx-spark")["memory_kind"], "unified");
    assert_eq!(find("ryzen-ai-max-395")["memory_kind"], "linux_gtt");
    assert_eq!(find("rtx-3090")["name"], "GeForce RTX 3090");
}

#[test]
fn gpus_as_a_table_one_line_each() {
    let (code, out, _) = run(&["list", "gpus"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), gpu_primer::catalog::gpus::all().len() + 1);
    assert!(lines[0].starts_with("id ") && lines[0].contains("bandwidth"));
    let rtx = lines.iter().find(|l| l.starts_with("rtx-4090 ")).expect("rtx-4090 listed");
    assert!(rtx.contains("GeForce RTX 4090") && rtx.contains("24 GB") && rtx.contains("1008 GB/s"), "{rtx}");
    let m1 = lines.iter().find(|l| l.starts_with("apple-m1-8c ")).expect("apple-m1-8c listed");
    assert!(m1.contains("16 GB unified") && m1.contains("68 GB/s"), "{m1}");
}

#[test]
fn models_as_json_with_computed_parameters_and_published_format() {
    let rows = json(&["list", "models", "--json"]);
    assert_eq!(rows.len(), gpu_primer::catalog::models::all().len());
    let find = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id}"));
    let l = find("llama-3.1-8b");
    assert_eq!(l["family"], "llama");
    assert_eq!(l["params_total"], 8_030_261_248u64);
    assert_eq!(l["params_active"], l["params_total"]);
    // The catalog's configs carry no torch_dtype; only a quantization_config names a format.
    assert_eq!(l["published_format"], serde_json::Value::Null);
    let g = find("gpt-oss-120b");
    assert_eq!(g["params_total"], 116_829_156_672u64);
    assert!(g["params_active"].as_u64().unwrap() < 6_000_000_000);
    assert_eq!(g["published_format"], "mxfp4");
}

#[test]
fn models_as_a_table() {
    let (code, out, _) = run(&["list", "models"]);
    assert_eq!(code, 0);
    let line = out.lines().find(|l| l.starts_with("mixtral-8x7b ")).expect("listed");
    assert!(line.contains("46.70 B (12.88 B active)"), "{line}");
}

#[test]
fn bad_list_arguments_exit_2_with_one_line() {
    for args in
        [&["list"][..], &["list", "cpus"], &["list", "gpus", "--yaml"], &["list", "gpus", "--json", "x"]]
    {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("list:"), "{err}");
    }
}

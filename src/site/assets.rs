//! The app's files as Trunk built them (index.html, Trunk.toml), and the module script a page
//! loads for its bundle: `boot-NAME-HASH.js`, which starts that bundle's wasm. A module resolves
//! its imports against its own address, so the same script serves a page at any depth (and the
//! site under any sub-path).
//!
//! A Trunk build names its files in the `index.html` it writes from ours (the glue it imports and
//! the wasm it instantiates, each named by a hash of its own content). Two layouts are read:
//! - the site as it ships (`scripts/env.sh build_site`): one Trunk build per bundle, each in
//!   `app/NAME/` (`index.html`, `gpu-primer-HASH.js`, `gpu-primer-HASH_bg.wasm`, `snippets/`), and
//!   Trunk's hashed stylesheet `style-HASH.css` at the root;
//! - one Trunk build at the root with every feature (`trunk serve`, a plain `trunk build`, whose
//!   post_build hook writes the pages): every page loads that bundle.

use super::SiteError;
use std::path::Path;

/// The app's bundles: what each page's live parts need (see `ui::pages::bundle_of`).
pub const BUNDLES: [&str; 5] = ["course", "estimator", "planner", "tools", "classroom"];

/// The file names the pages link, relative to the site root.
#[derive(Debug, Clone, PartialEq)]
pub struct Assets {
    pub css: String,
    /// (bundle, its boot script).
    pub boot: Vec<(&'static str, String)>,
}

/// One Trunk build's glue and wasm, relative to the site root.
#[derive(Debug, Clone, PartialEq)]
struct Build {
    glue: String,
    wasm: String,
}

/// Trunk's `index.html` of the bundle `bundle` as the shipped site has it (removed once the
/// pages are written: it is not a page of the site).
pub fn trunk_frame(bundle: &str) -> String {
    format!("app/{bundle}/index.html")
}

impl Assets {
    /// The boot script of `bundle`.
    pub fn boot(&self, bundle: &str) -> &str {
        self.boot.iter().find(|(b, _)| *b == bundle).map_or("", |(_, f)| f.as_str())
    }

    /// Finds the built files in `dist` and writes each bundle's boot script beside them.
    pub fn find(dist: &Path) -> Result<Assets, SiteError> {
        let top = names(dist)?;
        let css = top
            .iter()
            .find(|n| n.starts_with("style-") && n.ends_with(".css"))
            .cloned()
            .ok_or_else(|| SiteError::MissingAsset(format!("no style-*.css in {}", dist.display())))?;
        let whole = trunk_build(dist, "");
        let mut boot = Vec::new();
        for bundle in BUNDLES {
            let dir = format!("app/{bundle}/");
            let build = trunk_build(dist, &dir).or_else(|| whole.clone()).ok_or_else(|| {
                SiteError::MissingAsset(format!(
                    "no Trunk build of the {bundle} bundle in {} ({} or index.html naming its glue and _bg.wasm)",
                    dist.display(),
                    trunk_frame(bundle)
                ))
            })?;
            let script = boot_script(&build.glue, &build.wasm);
            let name = format!("boot-{bundle}-{:016x}.js", fnv1a(script.as_bytes()));
            let stale = format!("boot-{bundle}-");
            for old in top.iter().filter(|n| n.starts_with(&stale) && **n != name) {
                let _ = std::fs::remove_file(dist.join(old));
            }
            let path = dist.join(&name);
            std::fs::write(&path, script).map_err(|e| SiteError::Io(path.clone(), e))?;
            boot.push((bundle, name));
        }
        Ok(Assets { css, boot })
    }
}

/// The file names in `dir`.
fn names(dir: &Path) -> Result<Vec<String>, SiteError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|_| SiteError::MissingAsset(format!("no directory {}", dir.display())))?;
    let mut names: Vec<String> =
        entries.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())).collect();
    names.sort();
    Ok(names)
}

/// The glue and wasm that the Trunk build in `dist/dir` names in its `index.html` (Trunk's loader
/// imports `'/gpu-primer-HASH.js'` and instantiates `'/gpu-primer-HASH_bg.wasm'`), as paths from the
/// site root; None when there is no such build or a file it names is missing.
fn trunk_build(dist: &Path, dir: &str) -> Option<Build> {
    let html = std::fs::read_to_string(dist.join(dir).join("index.html")).ok()?;
    let wasm = quoted_ending(&html, "_bg.wasm")?;
    let glue = quoted_ending(&html, ".js")?;
    let exists = |name: &str| dist.join(dir).join(name).is_file();
    (exists(&glue) && exists(&wasm))
        .then(|| Build { glue: format!("{dir}{glue}"), wasm: format!("{dir}{wasm}") })
}

/// The first file name in quotes (' or ") in `html` that ends in `suffix` and lies beside the page
/// (no folder: not a snippet), without the `/` or `./` Trunk writes in front (its public URL).
fn quoted_ending(html: &str, suffix: &str) -> Option<String> {
    html.match_indices(suffix).find_map(|(at, _)| {
        let end = at + suffix.len();
        let quote = html.get(end..)?.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let start = html.get(..at)?.rfind(quote)? + 1;
        let text = html.get(start..end)?;
        let name = text.strip_prefix("./").or_else(|| text.strip_prefix('/')).unwrap_or(text);
        (!name.is_empty() && !name.contains(['/', ' ', '<', '>', '\n'])).then(|| name.to_string())
    })
}

/// The module that starts the app: it imports wasm-bindgen's glue, instantiates the wasm from
/// beside it and exposes the exports as `window.wasmBindings` (the bench calls one), as Trunk's
/// own loader does.
pub fn boot_script(glue: &str, wasm: &str) -> String {
    format!(
        "import init, * as bindings from './{glue}';\n\
         await init({{ module_or_path: new URL('./{wasm}', import.meta.url) }});\n\
         window.wasmBindings = bindings;\n"
    )
}

/// FNV-1a, 64 bits: a content hash for a file name (not for security).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gpu-primer-assets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn touch(dir: &Path, files: &[&str]) {
        for f in files {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
    }

    #[test]
    fn the_boot_script_imports_the_glue_beside_it() {
        let s = boot_script("app/course/gpu-primer-ab.js", "app/course/gpu-primer-ab_bg.wasm");
        assert!(s.starts_with("import init, * as bindings from './app/course/gpu-primer-ab.js';"));
        assert!(s.contains("new URL('./app/course/gpu-primer-ab_bg.wasm', import.meta.url)"));
        assert_ne!(fnv1a(b"a"), fnv1a(b"b"));
    }

    /// Trunk's index.html as it writes it (0.22), naming `glue` and `wasm` under `/`.
    fn frame(glue: &str, wasm: &str) -> String {
        format!(
            "<head><script type=\"module\">\nimport init, * as bindings from '/{glue}';\n\
             const wasm = await init({{ module_or_path: '/{wasm}' }});\n</script>\n\
             <link rel=\"stylesheet\" href=\"/style-1.css\"/><link rel=\"modulepreload\" href=\"/{glue}\">\
             <link rel=\"preload\" href=\"/{wasm}\" as=\"fetch\" type=\"application/wasm\"></head>"
        )
    }

    fn build(dir: &Path, folder: &str, glue: &str, wasm: &str) {
        touch(dir, &[&format!("{folder}{glue}"), &format!("{folder}{wasm}")]);
        std::fs::write(dir.join(folder).join("index.html"), frame(glue, wasm)).unwrap();
    }

    #[test]
    fn each_bundle_is_found_in_its_folder_and_the_boot_script_written() {
        let dir = dir("bundles");
        assert!(Assets::find(&dir).is_err(), "nothing built yet");
        touch(&dir, &["style-1.css", "boot-course-old.js"]);
        build(&dir, "app/course/", "gpu-primer-2.js", "gpu-primer-9_bg.wasm");
        let e = Assets::find(&dir).unwrap_err().to_string();
        assert!(e.contains("estimator bundle") && e.contains("app/estimator/index.html"), "{e}");
        build(&dir, "app/tools/", "gpu-primer-3.js", "gpu-primer-8_bg.wasm");
        build(&dir, "app/estimator/", "gpu-primer-4.js", "gpu-primer-7_bg.wasm");
        build(&dir, "app/classroom/", "gpu-primer-5.js", "gpu-primer-6_bg.wasm");
        let e = Assets::find(&dir).unwrap_err().to_string();
        assert!(e.contains("planner bundle") && e.contains("app/planner/index.html"), "{e}");
        build(&dir, "app/planner/", "gpu-primer-10.js", "gpu-primer-11_bg.wasm");
        let a = Assets::find(&dir).unwrap();
        assert_eq!(a.css, "style-1.css");
        assert!(BUNDLES.iter().all(|b| dir.join(a.boot(b)).exists()));
        let tools = std::fs::read_to_string(dir.join(a.boot("tools"))).unwrap();
        assert!(tools.contains("'./app/tools/gpu-primer-3.js'"), "{tools}");
        assert!(tools.contains("'./app/tools/gpu-primer-8_bg.wasm'"), "{tools}");
        assert!(!dir.join("boot-course-old.js").exists());
        std::fs::remove_file(dir.join("app/tools/gpu-primer-8_bg.wasm")).unwrap();
        assert!(Assets::find(&dir).is_err(), "a file the frame names is missing");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_build_at_the_root_serves_every_bundle() {
        let dir = dir("whole");
        touch(&dir, &["style-1.css"]);
        build(&dir, "", "gpu-primer-5.js", "gpu-primer-6_bg.wasm");
        let a = Assets::find(&dir).unwrap();
        for b in BUNDLES {
            let s = std::fs::read_to_string(dir.join(a.boot(b))).unwrap();
            assert!(s.contains("'./gpu-primer-5.js'") && s.contains("'./gpu-primer-6_bg.wasm'"), "{s}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_loader_names_are_read_from_trunks_frame() {
        let html =
            format!("<!-- Trunk's frame, isn't it -->{}", frame("gpu-primer-a1.js", "gpu-primer-b2_bg.wasm"));
        assert_eq!(quoted_ending(&html, ".js").as_deref(), Some("gpu-primer-a1.js"));
        assert_eq!(quoted_ending(&html, "_bg.wasm").as_deref(), Some("gpu-primer-b2_bg.wasm"));
        let snippet_first = "<link href=\"/snippets/x/driver.js\"><script>import a from './app.js';</script>";
        assert_eq!(quoted_ending(snippet_first, ".js").as_deref(), Some("app.js"));
        assert_eq!(quoted_ending("<p>no app.js here</p>", ".js"), None);
    }
}

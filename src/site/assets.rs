//! The app's files as `scripts/env.sh build_site` built them (`style-HASH.css`, and per bundle
//! `app-NAME-HASH.js` with its `_bg.wasm`), and the module script a page loads for its bundle:
//! `boot-NAME-HASH.js`, which starts that wasm. A module resolves its imports against its own
//! address, so the same script serves a page at any depth (and the site under any sub-path).

use super::SiteError;
use std::path::Path;

/// The app's bundles: what each page's live parts need (see `ui::pages::bundle_of`).
pub const BUNDLES: [&str; 3] = ["course", "estimator", "tools"];

/// The file names the pages link, relative to the site root.
#[derive(Debug, Clone, PartialEq)]
pub struct Assets {
    pub css: String,
    /// (bundle, its boot script).
    pub boot: Vec<(&'static str, String)>,
}

impl Assets {
    /// The boot script of `bundle`.
    pub fn boot(&self, bundle: &str) -> &str {
        self.boot.iter().find(|(b, _)| *b == bundle).map_or("", |(_, f)| f.as_str())
    }

    /// Finds the built files in `dist` and writes each bundle's boot script beside them.
    pub fn find(dist: &Path) -> Result<Assets, SiteError> {
        let names: Vec<String> = std::fs::read_dir(dist)
            .map_err(|_| SiteError::MissingAsset(format!("no directory {}", dist.display())))?
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        let pick = |what: &str, ok: &dyn Fn(&str) -> bool| {
            names
                .iter()
                .find(|n| ok(n))
                .cloned()
                .ok_or_else(|| SiteError::MissingAsset(format!("no {what} in {}", dist.display())))
        };
        let css = pick("style-*.css", &|n| n.starts_with("style-") && n.ends_with(".css"))?;
        let mut boot = Vec::new();
        for bundle in BUNDLES {
            let prefix = format!("app-{bundle}-");
            let glue = pick(&format!("{prefix}*.js"), &|n| n.starts_with(&prefix) && n.ends_with(".js"))?;
            let wasm =
                pick(&format!("{prefix}*_bg.wasm"), &|n| n.starts_with(&prefix) && n.ends_with("_bg.wasm"))?;
            let script = boot_script(&glue, &wasm);
            let name = format!("boot-{bundle}-{:016x}.js", fnv1a(script.as_bytes()));
            let stale = format!("boot-{bundle}-");
            for old in names.iter().filter(|n| n.starts_with(&stale) && **n != name) {
                let _ = std::fs::remove_file(dist.join(old));
            }
            let path = dist.join(&name);
            std::fs::write(&path, script).map_err(|e| SiteError::Io(path.clone(), e))?;
            boot.push((bundle, name));
        }
        Ok(Assets { css, boot })
    }
}

/// The module that starts the app: it imports wasm-bindgen's glue, instantiates the wasm from
/// beside it and exposes the exports as `window.wasmBindings` (the bench calls one).
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

    #[test]
    fn the_boot_script_imports_the_glue_beside_it() {
        let s = boot_script("app-course-ab.js", "app-course-ab_bg.wasm");
        assert!(s.starts_with("import init, * as bindings from './app-course-ab.js';"));
        assert!(s.contains("new URL('./app-course-ab_bg.wasm', import.meta.url)"));
        assert_ne!(fnv1a(b"a"), fnv1a(b"b"));
    }

    #[test]
    fn trunk_files_are_found_and_the_boot_script_written() {
        let dir = std::env::temp_dir().join(format!("gpu-primer-assets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(Assets::find(&dir).is_err(), "nothing built yet");
        for f in ["style-1.css", "app-course-2.js", "app-course-2_bg.wasm", "boot-course-old.js"] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        assert!(Assets::find(&dir).is_err(), "the estimator and tools bundles are missing");
        for f in ["app-tools-3.js", "app-tools-3_bg.wasm"] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        assert!(Assets::find(&dir).is_err(), "the estimator bundle is missing");
        for f in ["app-estimator-4.js", "app-estimator-4_bg.wasm"] {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        let a = Assets::find(&dir).unwrap();
        assert_eq!(a.css, "style-1.css");
        assert!(BUNDLES.iter().all(|b| dir.join(a.boot(b)).exists()));
        assert!(!dir.join("boot-course-old.js").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

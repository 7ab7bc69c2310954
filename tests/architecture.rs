//! The layering the compiler cannot see: `src/engine` imports nothing above it (no catalog, no
//! i18n, no UI). Unit tests inside the engine may use the catalog as fixtures, so only the code
//! before a file's first `#[cfg(test)]` is checked (and `proptests.rs`, a test-only module, not at all).

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/engine is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn engine_imports_nothing_above_it() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine"), &mut files);
    assert!(files.len() > 20, "found the engine's files");
    let mut offenders = Vec::new();
    for path in files.iter().filter(|p| !p.ends_with("proptests.rs")) {
        let text = std::fs::read_to_string(path).expect("readable source");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (i, line) in code.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                let after = &rest[at + "crate::".len()..];
                if !after.starts_with("engine") {
                    offenders.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                }
                rest = after;
            }
        }
    }
    assert!(offenders.is_empty(), "the engine must not import above itself:\n{}", offenders.join("\n"));
}

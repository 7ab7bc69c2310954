//! A directory holding stand-ins of the app's files as Trunk builds them, for the prerenderer's
//! native tests (tests/site.rs, tests/site_team.rs): the stylesheet, and each bundle's frame
//! naming its glue and its wasm (hashed apart, as Trunk names them by their content).

use std::path::PathBuf;

/// A fresh `gpu-primer-{name}-{pid}` directory under the system's temporary one, with the
/// stylesheet and the five bundles' glue, wasm and frame written as stand-ins.
pub fn dist_with_app(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-primer-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("style-0.css"), "/* stand-in */").unwrap();
    for (bundle, n) in [("course", 1), ("estimator", 3), ("planner", 5), ("tools", 2), ("classroom", 4)] {
        let app = dir.join("app").join(bundle);
        std::fs::create_dir_all(&app).unwrap();
        let (glue, wasm) = (format!("gpu-primer-{n}.js"), format!("gpu-primer-{n}{n}_bg.wasm"));
        std::fs::write(app.join(&glue), "/* stand-in */").unwrap();
        std::fs::write(app.join(&wasm), "/* stand-in */").unwrap();
        let frame = format!("<script type=\"module\">import init, * as bindings from '/{glue}';\nconst wasm = await init({{ module_or_path: '/{wasm}' }});</script>");
        std::fs::write(app.join("index.html"), frame).unwrap();
    }
    dir
}

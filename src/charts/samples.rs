//! Writes every chart, desktop and phone width, to `target/chart-samples/` for a human to look
//! at (`cargo test --lib charts::samples -- --ignored`), with an HTML page showing them all.

use std::fmt::Write as _;

#[test]
#[ignore = "writes files; run by hand to look at the charts"]
fn write_samples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/chart-samples");
    std::fs::create_dir_all(&dir).unwrap();
    type Chart = (&'static str, Box<dyn Fn(u32) -> String>);
    let charts: Vec<Chart> = vec![
        ("roofline", Box::new(|w| super::roofline_svg(&super::roofline::tests::sample(), w))),
        ("scaling", Box::new(|w| super::scaling_svg(&super::scaling::tests::sample(), w))),
        ("kv_growth", Box::new(|w| super::kv_growth_svg(&super::kv_growth::tests::sample(), w))),
        ("bound_bars", Box::new(|w| super::bound_bars_svg(&super::bound_bars::tests::sample(), w))),
        ("memory_bar", Box::new(|w| super::memory_bar_svg(&super::memory_bar::tests::sample(), w))),
    ];
    let mut html = String::from("<!doctype html><meta charset=utf-8><style>body{font-family:'Noto Sans CJK SC',sans-serif;margin:8px;background:#f4f5f7}svg text{font-family:'Noto Sans CJK SC',sans-serif}.row{display:flex;gap:12px;align-items:flex-start;margin-bottom:12px}.d{width:640px}.p{width:360px}</style>\n");
    for (name, f) in &charts {
        let (d, p) = (f(640), f(360));
        std::fs::write(dir.join(format!("{name}.svg")), &d).unwrap();
        std::fs::write(dir.join(format!("{name}-phone.svg")), &p).unwrap();
        writeln!(html, "<div class=row><div class=d>{d}</div><div class=p>{p}</div></div>").unwrap();
    }
    std::fs::write(dir.join("index.html"), html).unwrap();
}

//! No text a reader controls becomes markup: the estimator sets these SVGs as inner HTML, and a
//! pasted config's `_name_or_path`, an imported file or a custom GPU name can reach a label.
//! Every text field of every chart is filled with a hostile string here, and the SVG must carry
//! it only escaped.

use super::*;

const HOSTILE: &str = "<img src=x onerror=alert(1)>\"'&";

/// The hostile string never appears as markup: no raw `<img`, no attribute broken out of.
fn assert_escaped(svg: &str, chart: &str) {
    assert!(!svg.contains("<img"), "{chart}: raw markup in {svg}");
    assert!(!svg.contains("onerror=alert(1)>"), "{chart}: raw tag end");
    assert!(svg.contains("&lt;img"), "{chart}: the label is shown escaped");
    // Nothing but known SVG elements: every `<` opens one of the tags the charts draw.
    for tag in svg.split('<').skip(1) {
        let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '/').collect();
        let known = ["svg", "title", "text", "rect", "circle", "polyline", "path", "line", "g", "polygon"];
        assert!(known.contains(&name.trim_start_matches('/')), "{chart}: unexpected element <{name}");
    }
}

fn h() -> String {
    HOSTILE.to_owned()
}

#[test]
fn every_label_of_every_chart_is_escaped() {
    for width in [DESKTOP_WIDTH, PHONE_WIDTH] {
        let mut c = roofline::tests::sample();
        (
            c.title,
            c.x_label,
            c.y_label,
            c.memory_roof_label,
            c.compute_roof_label,
            c.ridge_label,
            c.sweep_label,
        ) = (h(), h(), h(), h(), h(), h(), h());
        c.expected.iter_mut().for_each(|e| e.label = h());
        c.points.iter_mut().chain(c.sweep.iter_mut()).for_each(|p| p.label = h());
        assert_escaped(&roofline_svg(&c, width), "roofline");

        let mut c = scaling::tests::sample();
        (c.title, c.x_label, c.y_label, c.efficiency_label, c.ideal_label, c.communication_label) =
            (h(), h(), h(), h(), h(), h());
        c.series.iter_mut().for_each(|s| s.label = h());
        assert_escaped(&scaling_svg(&c, width), "scaling");

        let mut c = kv_growth::tests::sample();
        (c.title, c.x_label, c.y_label) = (h(), h(), h());
        c.lines.iter_mut().for_each(|l| l.label = h());
        c.capacity.iter_mut().for_each(|k| k.label = h());
        assert_escaped(&kv_growth_svg(&c, width), "kv_growth");

        let mut c = bound_bars::tests::sample();
        (c.title, c.dominant_label, c.total_label) = (h(), h(), h());
        c.terms = TermLabels { compute: h(), memory: h(), communication: h(), overhead: h() };
        c.groups.iter_mut().for_each(|g| g.label = h());
        assert_escaped(&bound_bars_svg(&c, width), "bound_bars");

        let mut c = memory_bar::tests::sample();
        c.title = h();
        let l = &mut c.labels;
        (l.weights, l.kv_cache, l.activations, l.gradients, l.optimizer, l.overhead) =
            (h(), h(), h(), h(), h(), h());
        l.logits = h();
        (l.headroom, l.capacity, l.usable, l.overflow) = (h(), h(), h(), h());
        c.rows.iter_mut().for_each(|r| r.label = h());
        assert_escaped(&memory_bar_svg(&c, width), "memory_bar");
    }
}

#[test]
fn the_no_data_message_is_escaped_too() {
    let empty = || (h(), h());
    let (title, no_data) = empty();
    let svg = roofline_svg(&RooflineChart { title, no_data, ..Default::default() }, DESKTOP_WIDTH);
    assert_escaped(&svg, "roofline without data");
    let (title, no_data) = empty();
    let svg = scaling_svg(&ScalingChart { title, no_data, ..Default::default() }, DESKTOP_WIDTH);
    assert_escaped(&svg, "scaling without data");
    let (title, no_data) = empty();
    let svg = kv_growth_svg(&KvGrowthChart { title, no_data, ..Default::default() }, DESKTOP_WIDTH);
    assert_escaped(&svg, "kv without data");
    let (title, no_data) = empty();
    let svg = bound_bars_svg(&BoundBarsChart { title, no_data, ..Default::default() }, DESKTOP_WIDTH);
    assert_escaped(&svg, "bound bars without data");
    let (title, no_data) = empty();
    let svg = memory_bar_svg(&MemoryBarChart { title, no_data, ..Default::default() }, DESKTOP_WIDTH);
    assert_escaped(&svg, "memory bar without data");
}

//! The bottlenecks chapter as a decision path: one question per bottleneck, asked in order
//! (the cheapest check first); "yes" leads right to the bottleneck, "no" down to the next
//! question, and the end of the path is a GPU that is busy with useful arithmetic.

use super::draw::{tone, wrap, At, Svg, ACCENT, INK, MUTED};

/// A question and the bottleneck a "yes" points to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecisionStep {
    pub question: String,
    pub bottleneck: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecisionFigure {
    pub title: String,
    pub yes: String,
    pub no: String,
    pub steps: Vec<DecisionStep>,
    /// Where "no" to every question ends.
    pub otherwise: String,
}

const W: f64 = 440.0;
const QX: f64 = 10.0;
const QW: f64 = 262.0;
const AX: f64 = 306.0;
const AW: f64 = 124.0;
const FONT: f64 = 12.5;
const DROP: f64 = 26.0;

fn box_height(lines: usize) -> f64 {
    (lines as f64 * FONT * 1.25 + 14.0).max(40.0)
}

pub fn decision_path_svg(f: &DecisionFigure) -> String {
    let rows: Vec<(Vec<String>, Vec<String>)> = f
        .steps
        .iter()
        .map(|st| (wrap(&st.question, FONT, QW - 24.0), wrap(&st.bottleneck, FONT, AW - 16.0)))
        .collect();
    let end = wrap(&f.otherwise, FONT, QW - 24.0);
    let h = rows.iter().map(|(q, a)| box_height(q.len().max(a.len())) + DROP).sum::<f64>()
        + box_height(end.len())
        + 12.0;
    let mut s = Svg::new(W, h, &f.title);
    let mut y = 6.0;
    for (i, (q, a)) in rows.iter().enumerate() {
        let bh = box_height(q.len().max(a.len()));
        s.rect(QX, y, QW, bh, "fig-box", "");
        let top = |n: usize| y + bh / 2.0 - FONT * 1.25 * (n as f64 - 1.0) / 2.0 + FONT * 0.35;
        s.lines(QX + 8.0, top(q.len()), FONT, At::Start, INK, q);
        s.arrow(QX + QW, y + bh / 2.0, AX - 2.0, y + bh / 2.0);
        s.text((QX + QW + AX) / 2.0, y + bh / 2.0 - 5.0, 11.0, At::Middle, MUTED, &f.yes);
        s.rect(AX, y, AW, bh, tone(i), " fill-opacity=\".25\"");
        s.lines(AX + AW / 2.0, top(a.len()), FONT, At::Middle, INK, a);
        let x = QX + QW / 2.0;
        s.arrow(x, y + bh, x, y + bh + DROP - 2.0);
        s.text(x + 6.0, y + bh + DROP / 2.0 + 4.0, 11.0, At::Start, MUTED, &f.no);
        y += bh + DROP;
    }
    let bh = box_height(end.len());
    s.rect(QX, y, QW, bh, ACCENT, "");
    let first = y + bh / 2.0 - FONT * 1.25 * (end.len() as f64 - 1.0) / 2.0 + FONT * 0.35;
    s.lines(QX + 8.0, first, FONT, At::Start, INK, &end);
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_bottleneck_in_order() {
        let names = [
            "Memory capacity",
            "Serving path",
            "Data input",
            "Communication",
            "Idle compute",
            "Memory bandwidth",
        ];
        let f = DecisionFigure {
            title: "Which bottleneck?".into(),
            yes: "yes".into(),
            no: "no".into(),
            steps: names
                .iter()
                .map(|n| DecisionStep {
                    question: format!("Is it {n}? A long question that must wrap over lines"),
                    bottleneck: n.to_string(),
                })
                .collect(),
            otherwise: "The GPU is busy with useful arithmetic".into(),
        };
        let svg = decision_path_svg(&f);
        let pos: Vec<usize> = names.iter().map(|n| svg.find(&format!(">Is it {n}")).unwrap()).collect();
        assert!(pos.windows(2).all(|w| w[0] < w[1]), "in order");
        assert_eq!(svg.matches(">yes<").count(), 6);
        assert_eq!(svg.matches(">no<").count(), 6);
        assert!(svg.contains("The GPU is busy"), "the end of the path");
        assert_eq!(svg.matches("fig-head").count(), 12);
    }
}

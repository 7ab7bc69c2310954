//! Eight GPUs two ways. Above: each GPU has its own NVLink path into the NVSwitch fabric, so
//! any pair talks at the full per-GPU rate. Below: GPUs hang in pairs under PCIe switches, two
//! switches per CPU, so traffic between far GPUs crosses switches, both CPUs and the link
//! between them, and shares each hop with its neighbours.

use super::draw::{tone, wrap, At, Svg, ACCENT, BOX, INK, LINE, MUTED};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopologyFigure {
    pub title: String,
    /// Headings of the two halves.
    pub nvswitch_heading: String,
    pub pcie_heading: String,
    pub gpu: String,
    pub nvswitch: String,
    pub pcie_switch: String,
    pub cpu: String,
    /// Per-link rates as the caller words them (from the interconnect catalog).
    pub nvlink_rate: String,
    pub pcie_rate: String,
    /// What the far path crosses, e.g. "GPU 1 → GPU 8: 2 switches + 2 CPUs".
    pub far_path: String,
}

const W: f64 = 440.0;
const GPUS: usize = 8;

fn gpu_x(i: usize) -> f64 {
    12.0 + i as f64 * 53.0
}

fn gpus(s: &mut Svg, f: &TopologyFigure, y: f64) {
    for i in 0..GPUS {
        s.rect(gpu_x(i), y, 46.0, 30.0, tone(0), " fill-opacity=\".25\"");
        s.text(gpu_x(i) + 23.0, y + 13.0, 10.5, At::Middle, INK, &f.gpu);
        s.text(gpu_x(i) + 23.0, y + 25.0, 10.5, At::Middle, INK, &(i + 1).to_string());
    }
}

pub fn topology_svg(f: &TopologyFigure) -> String {
    let far = wrap(&f.far_path, 12.0, W - 20.0);
    let h = 400.0 + 15.0 * far.len() as f64;
    let mut s = Svg::new(W, h, &f.title);

    // NVSwitch: every GPU has its own link into the switch.
    s.text(10.0, 18.0, 13.0, At::Start, INK, &f.nvswitch_heading);
    gpus(&mut s, f, 30.0);
    s.rect(12.0, 112.0, 416.0, 30.0, ACCENT, "");
    s.text(W / 2.0, 132.0, 13.0, At::Middle, INK, &f.nvswitch);
    for i in 0..GPUS {
        s.line(gpu_x(i) + 23.0, 60.0, gpu_x(i) + 23.0, 112.0, "fig-line fig-thick");
    }
    s.plate(W / 2.0, 90.0, 12.0, INK, &f.nvlink_rate);

    // PCIe tree: CPU — CPU on top, two switches under each CPU, two GPUs under each switch.
    let top = 180.0;
    s.text(10.0, top, 13.0, At::Start, INK, &f.pcie_heading);
    let cpu_x = [66.0, 278.0];
    s.line(cpu_x[0] + 96.0, top + 30.0, cpu_x[1], top + 30.0, LINE);
    for (c, x) in cpu_x.iter().enumerate() {
        s.rect(*x, top + 14.0, 96.0, 32.0, BOX, "");
        s.text(x + 48.0, top + 35.0, 12.0, At::Middle, INK, &format!("{} {}", f.cpu, c + 1));
    }
    for k in 0..4 {
        let sx = gpu_x(2 * k) + 3.0;
        let cx = cpu_x.get(k / 2).copied().unwrap_or(0.0) + 48.0;
        s.line(cx, top + 46.0, sx + 46.0, top + 84.0, LINE);
        s.rect(sx, top + 84.0, 93.0, 30.0, BOX, "");
        s.boxed_text((sx, top + 84.0, 93.0, 30.0), 10.5, INK, &f.pcie_switch);
        for g in [2 * k, 2 * k + 1] {
            s.line(sx + 46.0, top + 114.0, gpu_x(g) + 23.0, top + 150.0, LINE);
        }
    }
    gpus(&mut s, f, top + 150.0);
    s.text(W / 2.0, top + 198.0, 12.0, At::Middle, INK, &f.pcie_rate);
    s.lines(10.0, top + 220.0, 12.0, At::Start, MUTED, &far);
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_halves_with_their_rates() {
        let f = TopologyFigure {
            title: "NVSwitch vs PCIe".into(),
            nvswitch_heading: "HGX H100: NVSwitch".into(),
            pcie_heading: "PCIe server".into(),
            gpu: "GPU".into(),
            nvswitch: "NVSwitch".into(),
            pcie_switch: "PCIe switch".into(),
            cpu: "CPU".into(),
            nvlink_rate: "450 GB/s per GPU, each direction".into(),
            pcie_rate: "64 GB/s per link, each direction".into(),
            far_path: "GPU 1 → GPU 8 crosses 2 switches and 2 CPUs".into(),
        };
        let svg = topology_svg(&f);
        assert!(svg.contains("450 GB/s per GPU") && svg.contains("64 GB/s per link"));
        assert_eq!(svg.matches(">CPU ").count(), 2);
        assert_eq!(svg.matches(">PCIe switch<").count(), 4);
        // Sixteen GPU boxes: eight per half.
        assert_eq!(svg.matches("fig-t0").count(), 16);
        assert!(svg.contains("GPU 1 → GPU 8"));
    }
}

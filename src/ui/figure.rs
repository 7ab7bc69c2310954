//! A diagram inside a chapter: `{{figure:NAME}}` in the markdown. Each figure's numbers come
//! from the catalog and the engine, its words from `i18n::figures`, and its SVG from a pure
//! function in `charts::figures` (every text escaped there), set as inner HTML.

use crate::catalog::mig::MigProfile;
use crate::catalog::{gpus, interconnects, mig, on_chip};
use crate::charts::figures::decision_path::{decision_path_svg, DecisionFigure, DecisionStep};
use crate::charts::figures::memory_hierarchy::{memory_hierarchy_svg, HierarchyLevel, MemoryHierarchyFigure};
use crate::charts::figures::mig_slices::{mig_slices_svg, MigFigure, MigInstance};
use crate::charts::figures::ring_allreduce::{self, ring_allreduce_svg, RingFigure};
use crate::charts::figures::roofline_kernels::{roofline_kernels_svg, Kernel};
use crate::charts::figures::thread_hierarchy::{
    thread_hierarchy_svg, warps_per_block, ThreadHierarchyFigure,
};
use crate::charts::figures::topology::{topology_svg, TopologyFigure};
use crate::charts::figures::{escape, fill};
use crate::charts::{format_bytes, format_rate, ByteUnit, RooflineChart};
use crate::engine::mig::{arrange, SliceGeometry, SliceProfile};
use crate::engine::perf::kernels::{elementwise_intensity, gemm_intensity};
use crate::engine::perf::on_chip::shared_memory_bandwidth;
use crate::engine::precision::compute::ComputeDtype;
use crate::i18n::Lang;
use leptos::prelude::*;

/// The GPU the chapters' examples use (H100 SXM): default of the memory figure, GPU of the
/// roofline, the NVSwitch board and the MIG layout.
const EXAMPLE_GPU: &str = "h100-sxm";
/// The MIG layout shown: one of each larger profile and two of the smallest (uses every slice).
const MIG_LAYOUT: [&str; 4] = ["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"];
const RING_GPUS: usize = 4;

/// The figure NAME (one of `content::render::FIGURES`) in `lang`.
#[component]
pub fn ChapterFigure(lang: Lang, name: String) -> impl IntoView {
    let f = lang.fig();
    // Without the course's bundle, only the figures of the chapters that hold a tool.
    if !cfg!(feature = "course") && !crate::content::TOOLS_BUNDLE_FIGURES.contains(&name.as_str()) {
        return ().into_any();
    }
    match name.as_str() {
        #[cfg(feature = "course")]
        "memory-hierarchy" => memory_figure(lang),
        #[cfg(feature = "course")]
        "ring-allreduce" => ring_figure(lang),
        #[cfg(feature = "course")]
        "thread-hierarchy" => still("thread-hierarchy", f.thr_caption, thread_svg(lang)),
        #[cfg(feature = "course")]
        "roofline-kernels" => still("roofline-kernels", f.roof_caption, roofline_svg(lang)),
        #[cfg(feature = "course")]
        "topology" => still("topology", f.topo_caption, topology_figure_svg(lang)),
        "mig-slices" => still("mig-slices", f.mig_caption, mig_svg(lang)),
        "bottlenecks" => still("bottlenecks", f.dec_caption, decision_svg(lang)),
        _ => ().into_any(),
    }
}

/// `<figure>` with fixed `controls` HTML above (buttons with `data-act`, a `<select>`), an SVG
/// that follows `svg`, a live `status` line and a caption. One view for every figure: a click
/// on a `data-act` button reaches `act` as the act's name, a changed select as its value.
fn frame(
    name: &'static str,
    caption: &'static str,
    controls: String,
    svg: Signal<String>,
    status: Signal<String>,
    act: Callback<String>,
) -> AnyView {
    use wasm_bindgen::JsCast;
    let on_click = move |ev: web_sys::MouseEvent| {
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if let Some(a) = target
            .and_then(|t| t.closest("[data-act]").ok().flatten())
            .and_then(|b| b.get_attribute("data-act"))
        {
            act.run(a);
        }
    };
    view! {
        <figure class="fig" data-figure=name on:click=on_click on:change=move |ev| { act.run(event_target_value(&ev)) }>
            <div class="fig-controls" inner_html=controls></div>
            <div class="fig-body" inner_html=svg></div>
            <p class="fig-step" aria-live="polite">{status}</p>
            <figcaption>{caption}</figcaption>
        </figure>
    }
    .into_any()
}

fn still(name: &'static str, caption: &'static str, svg: String) -> AnyView {
    let none = Signal::stored(String::new());
    frame(name, caption, String::new(), Signal::stored(svg), none, Callback::new(|_: String| {}))
}

fn memory_svg(lang: Lang, id: &str) -> String {
    let f = lang.fig();
    let (Some(g), Some(o)) = (gpus::find(id), on_chip::find(id)) else { return String::new() };
    let sms = g.sm_count.unwrap_or(0);
    let per_sm = |bytes: u64| {
        fill(
            f.per_sm_total,
            &[
                ("total", &format_bytes(bytes * u64::from(sms), ByteUnit::Gib)),
                ("per_sm", &format_bytes(bytes, ByteUnit::Gib)),
                ("sms", &sms.to_string()),
            ],
        )
    };
    let shared_bw = shared_memory_bandwidth(f64::from(sms), o.boost_clock_hz)
        .map(|b| fill(f.approx_bw, &[("bw", &format_rate(b, "B/s"))]))
        .unwrap_or_else(|_| f.not_published.to_string());
    let level = |name: String, size: String, bandwidth: String| HierarchyLevel { name, size, bandwidth };
    memory_hierarchy_svg(&MemoryHierarchyFigure {
        title: fill(f.mem_title, &[("gpu", &g.name)]),
        levels: vec![
            level(f.registers.into(), per_sm(o.register_file_bytes_per_sm), f.not_published.into()),
            level(f.shared_l1.into(), per_sm(o.l1_shared_bytes_per_sm), shared_bw),
            level(f.l2.into(), format_bytes(g.l2_bytes.unwrap_or(0), ByteUnit::Gib), f.not_published.into()),
            level(
                fill(f.dram, &[("type", &g.memory_type)]),
                format_bytes(g.memory_bytes, ByteUnit::Gb),
                fill(f.peak_bw, &[("bw", &format_rate(g.memory_bandwidth_bytes_per_s, "B/s"))]),
            ),
        ],
        faster: f.faster.into(),
        larger: f.larger.into(),
    })
}

/// The memory hierarchy with a picker of the GPUs that have sourced on-chip figures.
fn memory_figure(lang: Lang) -> AnyView {
    let f = lang.fig();
    let gpu = RwSignal::new(EXAMPLE_GPU.to_string());
    let options: String = on_chip::all()
        .iter()
        .filter_map(|o| gpus::find(o.gpu))
        .map(|g| {
            let selected = if g.id == EXAMPLE_GPU { " selected" } else { "" };
            format!("<option value=\"{}\"{selected}>{}</option>", escape(&g.id), escape(&g.name))
        })
        .collect();
    let controls = format!(
        "<label for=\"fig-memory-gpu\">{}</label><select id=\"fig-memory-gpu\">{options}</select><span class=\"fig-note\">{}</span>",
        escape(f.mem_gpu),
        escape(f.mem_gpu_note)
    );
    let svg = Signal::derive(move || memory_svg(lang, &gpu.get()));
    let pick = Callback::new(move |id: String| {
        if on_chip::find(&id).is_some() {
            gpu.set(id)
        }
    });
    frame("memory-hierarchy", f.mem_caption, controls, svg, Signal::stored(String::new()), pick)
}

fn thread_svg(lang: Lang) -> String {
    let f = lang.fig();
    let (blocks, threads, warp) = (8u32, 256u32, 32u32);
    let (t, w, s) = (threads.to_string(), warps_per_block(threads, warp).to_string(), warp.to_string());
    thread_hierarchy_svg(&ThreadHierarchyFigure {
        title: f.thr_title.into(),
        grid: fill(f.grid, &[("n", &blocks.to_string()), ("t", &t)]),
        block: f.block.into(),
        sm: f.sm.into(),
        warp: f.warp.into(),
        block_detail: fill(f.block_detail, &[("t", &t), ("w", &w), ("s", &s)]),
        blocks,
        sms: 4,
        threads_per_block: threads,
        warp_size: warp,
    })
}

fn roofline_svg(lang: Lang) -> String {
    let (f, e) = (lang.fig(), lang.est());
    let Some(g) = gpus::find(EXAMPLE_GPU) else { return String::new() };
    let peak = g.compute_path(ComputeDtype::Bf16).map_or(0.0, |p| p.peak_flops_per_s);
    // The chapter's kernels in 16-bit values (2 bytes): c = a + b, a 4096³ GEMM, and one
    // 4096 × 4096 weight matmul for 1 token (decode) and for 2048 tokens (prefill).
    let kernel =
        |label: &str, i: Result<f64, _>| Kernel { label: label.into(), intensity: i.unwrap_or(f64::NAN) };
    let kernels = [
        kernel(f.k_add, elementwise_intensity(1.0, 2.0, 1.0, 2.0)),
        kernel(f.k_decode, gemm_intensity(1.0, 4096.0, 4096.0, 2.0)),
        kernel(f.k_prefill, gemm_intensity(2048.0, 4096.0, 4096.0, 2.0)),
        kernel(f.k_gemm, gemm_intensity(4096.0, 4096.0, 4096.0, 2.0)),
    ];
    let chart = RooflineChart {
        title: fill(f.roof_title, &[("gpu", &g.name), ("dtype", "BF16")]),
        x_label: e.chart_roofline_x.into(),
        y_label: e.chart_roofline_y.into(),
        peak_flops_per_s: peak,
        bandwidth_bytes_per_s: g.memory_bandwidth_bytes_per_s,
        memory_roof_label: e.chart_memory_roof.into(),
        compute_roof_label: e.chart_compute_roof.into(),
        ridge_label: e.chart_ridge.into(),
        no_data: String::new(),
        ..Default::default()
    };
    format!(
        "<div class=\"chart\">{}</div>",
        roofline_kernels_svg(&chart, &kernels, crate::ui::browser::chart_width())
    )
}

fn ring_status(lang: Lang, step: usize) -> String {
    let f = lang.fig();
    let (n, last) = (RING_GPUS.to_string(), ring_allreduce::last_step(RING_GPUS));
    let (s, t) = (step.to_string(), last.to_string());
    match step {
        0 => fill(f.ring_start, &[("n", &n)]),
        _ if ring_allreduce::is_reduce_scatter(RING_GPUS, step) => fill(f.ring_rs, &[("s", &s), ("t", &t)]),
        _ if step < last => fill(f.ring_ag, &[("s", &s), ("t", &t)]),
        _ => format!("{} {}", fill(f.ring_ag, &[("s", &s), ("t", &t)]), fill(f.ring_done, &[("n", &n)])),
    }
}

/// Ring all-reduce with previous / next step buttons (a step past either end stays put).
fn ring_figure(lang: Lang) -> AnyView {
    let f = lang.fig();
    let step = RwSignal::new(0usize);
    let last = ring_allreduce::last_step(RING_GPUS);
    let controls = format!(
        "<button type=\"button\" class=\"fig-prev\" data-act=\"prev\">{}</button><button type=\"button\" class=\"fig-next\" data-act=\"next\">{}</button>",
        escape(f.prev),
        escape(f.next)
    );
    let svg = Signal::derive(move || {
        let n = RING_GPUS.to_string();
        ring_allreduce_svg(&RingFigure {
            title: fill(f.ring_title, &[("n", &n)]),
            gpu: "GPU".into(),
            status: ring_status(lang, step.get()),
            legend: f.ring_legend.into(),
            n: RING_GPUS,
            step: step.get(),
        })
    });
    let status = Signal::derive(move || format!("{} / {last}", step.get()));
    let act = Callback::new(move |a: String| match a.as_str() {
        "prev" => step.update(|s| *s = s.saturating_sub(1)),
        "next" => step.update(|s| *s = (*s + 1).min(last)),
        _ => {}
    });
    frame("ring-allreduce", f.ring_caption, controls, svg, status, act)
}

fn topology_figure_svg(lang: Lang) -> String {
    let f = lang.fig();
    let rate = |template: &str, id: &str, name_id: &str| match (
        interconnects::find(id),
        interconnects::find(name_id),
    ) {
        (Some(link), Some(named)) => fill(
            template,
            &[("bw", &format_rate(link.bytes_per_s_per_direction, "B/s")), ("name", named.name)],
        ),
        _ => String::new(),
    };
    topology_svg(&TopologyFigure {
        title: f.topo_title.into(),
        nvswitch_heading: f.topo_nvswitch.into(),
        pcie_heading: f.topo_pcie.into(),
        gpu: "GPU".into(),
        nvswitch: "NVSwitch".into(),
        pcie_switch: f.pcie_switch.into(),
        cpu: "CPU".into(),
        nvlink_rate: rate(f.nvlink_rate, "nvswitch-h100", "nvlink-4"),
        pcie_rate: rate(f.pcie_rate, "pcie-5", "pcie-5"),
        far_path: f.far_path.into(),
    })
}

fn mig_svg(lang: Lang) -> String {
    let f = lang.fig();
    let Some(g) = gpus::find(EXAMPLE_GPU) else { return String::new() };
    let Some(table) = g.mig.profiles.as_deref().and_then(mig::find) else { return String::new() };
    let geometry = SliceGeometry::SEVEN;
    let (compute, memory) = (u32::from(geometry.compute), u32::from(geometry.memory));
    let chosen: Vec<&MigProfile> =
        MIG_LAYOUT.iter().filter_map(|name| table.profiles.iter().find(|p| p.name == *name)).collect();
    let shapes: Vec<SliceProfile> = chosen
        .iter()
        .filter_map(|p| {
            let max = p.max_instances.and_then(|m| u8::try_from(m).ok()).unwrap_or(1);
            SliceProfile::from_fractions(
                geometry,
                p.memory_fraction,
                p.sm_fraction,
                max,
                p.name.ends_with("+me"),
            )
        })
        .collect();
    // Where the MIG User Guide lets these instances sit together (engine::mig), not left to right.
    let wanted: Vec<usize> = (0..shapes.len()).collect();
    let placements = arrange(geometry, &shapes, &wanted).unwrap_or_default();
    let instances: Vec<MigInstance> = placements
        .iter()
        .filter_map(|pl| Some((chosen.get(pl.profile)?, shapes.get(pl.profile)?, pl.start)))
        .map(|(p, shape, start)| MigInstance {
            name: p.name.clone(),
            compute_slices: u32::from(shape.compute),
            memory_slices: u32::from(shape.memory),
            memory: format_bytes((p.memory_fraction * g.memory_bytes as f64) as u64, ByteUnit::Gb),
            start: u32::from(start),
        })
        .collect();
    let layout = MIG_LAYOUT.join(" + ");
    mig_slices_svg(&MigFigure {
        title: fill(f.mig_title, &[("gpu", &g.name), ("layout", &layout)]),
        compute_label: fill(f.compute_slices, &[("n", &compute.to_string())]),
        memory_label: fill(
            f.memory_slices,
            &[
                ("n", &memory.to_string()),
                ("size", &format_bytes(g.memory_bytes / u64::from(memory), ByteUnit::Gb)),
            ],
        ),
        unused: f.unused.into(),
        compute_slices: compute,
        memory_slices: memory,
        instances,
    })
}

fn decision_svg(lang: Lang) -> String {
    let f = lang.fig();
    decision_path_svg(&DecisionFigure {
        title: f.dec_title.into(),
        yes: f.yes.into(),
        no: f.no.into(),
        steps: f
            .questions
            .iter()
            .zip(f.bottlenecks.iter())
            .map(|(q, b)| DecisionStep { question: (*q).into(), bottleneck: (*b).into() })
            .collect(),
        otherwise: f.otherwise.into(),
    })
}

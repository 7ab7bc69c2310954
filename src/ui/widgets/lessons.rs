//! The five lesson widgets: parameters, the chapter's example as defaults, and the HTML of
//! their numbers. Every number is an engine function's result; this file only formats it.
//! Each key number is `<dd data-k=KEY data-value=RAW>` so a test can read the engine's value.

use super::{escape, get, Input, Param, Values};
use crate::catalog::{self, gpus, interconnects, models};
use crate::charts::format::format_bytes_f64;
use crate::charts::format::group_digits;
use crate::charts::{self, format_percent, format_rate, format_seconds, ByteUnit};
use crate::engine::allreduce::{all_reduce, all_reduce_curve, message_sizes};
use crate::engine::efficiency::Efficiency;
use crate::engine::gpu::Gpu;
use crate::engine::hardware::GpuSpec;
use crate::engine::headroom::headroom;
use crate::engine::launch::{launch, LaunchInput};
use crate::engine::links::Topology;
use crate::engine::model::hybrid::per_sequence;
use crate::engine::peaks::{peak_rows, spec_point};
use crate::engine::precision::compute::ComputeDtype;
use crate::engine::precision::Dtype;
use crate::engine::{ModelSpec, Scenario};
use crate::i18n::{errors, Lang};

/// Bytes each element of the chapter's FP32 `add` kernel moves: reads x and y, writes out.
const ADD_BYTES_PER_ELEMENT: f64 = 12.0;
/// The ladder from a reader's own card to a datacenter GPU, with its tier (index into `tiers`).
const LADDER: [(&str, usize); 8] = [
    ("rtx-4090", 0),
    ("rtx-5090", 0),
    ("l4", 1),
    ("l40s", 1),
    ("a100-sxm-80gb", 2),
    ("h100-sxm", 2),
    ("h200-sxm", 2),
    ("b200", 2),
];
const PRECISIONS: [ComputeDtype; 7] = crate::engine::peaks::PATHS;
const WEIGHT_DTYPES: [Dtype; 4] = [Dtype::Bf16, Dtype::Fp8, Dtype::Int8, Dtype::Int4];
const RANKS: [u32; 10] = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/// The widget's title (every kind, estimators included: the embed code names it).
pub fn title(kind: &str, lang: Lang) -> &'static str {
    let (w, e) = (lang.wid(), lang.est());
    match kind {
        "cuda-grid" => w.cuda_title,
        "tensor-peaks" => w.tc_title,
        "spec-sheet" => w.spec_title,
        "gpu-ladder" => w.ladder_title,
        "state-vs-kv" => w.sk_title,
        "prefix-reuse" => w.pr_title,
        "disaggregation" => w.dg_title,
        "wide-ep" => w.wep_title,
        "kv-tiers" => w.kvt_title,
        "speculation" => w.sp_title,
        "all-reduce" => w.ar_title,
        "lab" => lang.lab().nav,
        "mig" => lang.tools().name(crate::route::Tool::Mig),
        "cloud" => lang.tools().name(crate::route::Tool::Cloud),
        "diagnose" => lang.tools().name(crate::route::Tool::Diagnose),
        "cluster" => lang.tools().name(crate::route::Tool::Cluster),
        "memory" => e.memory_per_gpu,
        "kv-cache" => e.chart_kv_title,
        "roofline" => e.chart_roofline_title,
        "bound" => e.chart_bound_title,
        _ => e.chart_scaling_title,
    }
}

fn gpu_options(filter: impl Fn(&Gpu) -> bool) -> Input {
    Input::Select(gpus::all().iter().filter(|g| filter(g)).map(|g| (g.id.clone(), g.name.clone())).collect())
}

fn precision_label(d: ComputeDtype) -> String {
    d.label().to_ascii_uppercase()
}

pub(super) fn params(kind: &str, lang: Lang) -> Vec<Param> {
    let (w, e) = (lang.wid(), lang.est());
    let gpu = |filter: fn(&Gpu) -> bool| Param { key: "gpu", label: e.gpu, input: gpu_options(filter) };
    let model = |filter: fn(&models::Entry) -> bool| Param {
        key: "model",
        label: e.model,
        input: Input::Select(
            models::all()
                .iter()
                .filter(|m| filter(m))
                .map(|m| (m.model.id.clone(), m.model.name.clone()))
                .collect(),
        ),
    };
    let weights = || Param {
        key: "w",
        label: e.weight_dtype,
        input: Input::Select(
            WEIGHT_DTYPES.iter().map(|d| (d.name().to_string(), d.name().to_ascii_uppercase())).collect(),
        ),
    };
    match kind {
        "cuda-grid" => vec![
            gpu(|g| g.sm_count.is_some()),
            Param::count("n", w.elements, 1.0, 1e12),
            Param::count("t", w.threads_per_block, 1.0, 1024.0),
        ],
        "tensor-peaks" => vec![gpu(|_| true)],
        "spec-sheet" => vec![
            gpu(|_| true),
            Param {
                key: "p",
                label: w.precision,
                input: Input::Select(
                    PRECISIONS.iter().map(|d| (d.label().to_string(), precision_label(*d))).collect(),
                ),
            },
            Param::amount("i", w.intensity, 0.0, 1e6),
        ],
        "gpu-ladder" => vec![model(|_| true), weights(), Param::count("ctx", e.context, 1.0, 1e7)],
        "state-vs-kv" => vec![
            model(|_| true),
            Param::count("ctx", e.context, 1.0, 1e7),
            Param::count("seqs", w.sequences, 1.0, 1e6),
        ],
        "prefix-reuse" => vec![
            model(|_| true),
            gpu(|_| true),
            Param::count("prompt", w.pr_prompt, 2.0, 1e6),
            Param::count("shared", e.prefix_shared, 0.0, 1e6),
            Param::amount("hit", w.pr_hit, 0.0, 100.0),
            Param::count("seqs", w.sequences, 1.0, 1e5),
        ],
        "disaggregation" => {
            let l = lang.load();
            vec![
                model(|_| true),
                gpu(|_| true),
                Param::count("gpus", e.gpus, 1.0, 64.0),
                Param::count("prompt", w.pr_prompt, 2.0, 1e6),
                Param::count("output", e.output_tokens, 2.0, 1e5),
                Param::amount("rate", w.dg_rate, 0.01, 1e4),
                Param::count("pw", l.prefill_workers_control, 1.0, 64.0),
                Param::count("ptp", l.prefill_tp_control, 1.0, 64.0),
            ]
        }
        "wide-ep" => vec![
            model(|m| m.architecture.moe.is_some()),
            weights(),
            gpu(|_| true),
            Param::count("seqs", w.wep_seqs, 1.0, 4096.0),
            Param::count("ctx", e.context, 2.0, 1e6),
            Param::choice(
                "comm",
                w.wep_comm,
                &[
                    ("deepep_low_latency", "DeepEP low-latency"),
                    ("deepep_normal", "DeepEP normal"),
                    ("nccl", "NCCL all-to-all"),
                ],
            ),
            Param::count("red", w.wep_redundant, 0.0, 1024.0),
        ],
        "kv-tiers" => vec![
            Param::count("n", w.kvt_sessions, 1.0, 1e6),
            Param::amount("cpu", w.kvt_cpu, 0.0, 1e5),
            Param::amount("ssd", w.kvt_ssd, 0.0, 1e6),
        ],
        "speculation" => vec![
            Param::count("gamma", w.sp_gamma, 1.0, 16.0),
            Param::amount("alpha", w.sp_alpha, 1.0, 99.0),
            Param::choice("stack", w.sp_stack, &[("vllm_v1", "vLLM"), ("sglang", "SGLang")]),
        ],
        _ => vec![
            Param {
                key: "ranks",
                label: e.gpus,
                input: Input::Select(RANKS.iter().map(|r| (r.to_string(), r.to_string())).collect()),
            },
            Param::amount("mb", w.message_size, 0.001, 100_000.0),
        ],
    }
}

/// The example each chapter works through.
pub(super) fn defaults(kind: &str) -> &'static [(&'static str, &'static str)] {
    match kind {
        // Chapter 4: `add` over 10 million elements in 256-thread blocks on a 132-SM H100.
        "cuda-grid" => &[("gpu", "h100-sxm"), ("n", "10000000"), ("t", "256")],
        // Chapter 5: A100, 19.5 TFLOPS FP32 against 312 dense BF16.
        "tensor-peaks" => &[("gpu", "a100-sxm-80gb")],
        // Chapter 6: the L40S in BF16, and a batch-1 decode at about 1 FLOP per byte.
        "spec-sheet" => &[("gpu", "l40s"), ("p", "bf16"), ("i", "1")],
        // Chapter 12: an 8B model in BF16 with a 4K context, from a gaming card upwards.
        "gpu-ladder" => &[("model", "llama-3.1-8b"), ("w", "bf16"), ("ctx", "4096")],
        // Chapter 2: Qwen3-Next-80B-A3B, 16 sequences of 128K tokens.
        "state-vs-kv" => &[("model", "qwen3-next-80b-a3b"), ("ctx", "131072"), ("seqs", "16")],
        // Chapter 13: Llama-3.1-8B on an H100, 4,096-token prompts whose first 2,048 tokens every
        // request shares, 32 at once.
        "prefix-reuse" => &[
            ("model", "llama-3.1-8b"),
            ("gpu", "h100-sxm"),
            ("prompt", "4096"),
            ("shared", "2048"),
            ("hit", "0"),
            ("seqs", "32"),
        ],
        // Chapter 14: Llama-3.1-70B on one 8-GPU H100 server, 4,096-token prompts and 512 output
        // tokens at 3 requests/s, against the same server as the decode pool beside one prefill
        // worker of 8 GPUs (the section's `gpu-clusters-disagg-agg` and `-1p1d` scenarios).
        "disaggregation" => &[
            ("model", "llama-3.1-70b"),
            ("gpu", "h100-sxm"),
            ("gpus", "8"),
            ("prompt", "4096"),
            ("output", "512"),
            ("rate", "3"),
            ("pw", "1"),
            ("ptp", "8"),
        ],
        // Chapter 14: DeepSeek-V3 in FP8 on H200s, 64 sequences of 4,096 tokens per GPU, DeepEP's
        // low-latency kernels, no redundant experts (the section's `gpu-clusters-wep-*` scenarios).
        "wide-ep" => &[
            ("model", "deepseek-v3"),
            ("w", "fp8"),
            ("gpu", "h200-sxm"),
            ("seqs", "64"),
            ("ctx", "4096"),
            ("comm", "deepep_low_latency"),
            ("red", "0"),
        ],
        // Chapter 13: the KV-tier section's agent sessions, 300 open, a 200 GB CPU tier and a 3.84
        // TB SSD tier per GPU (the section's `capacity-estimation-tiers-ssd` scenario).
        "kv-tiers" => &[("n", "300"), ("cpu", "200"), ("ssd", "3840")],
        // Chapter 3: EAGLE-3 on Llama-3.1-8B, 4 drafts a step, each accepted with probability 0.75,
        // under vLLM (the section's `memory-bandwidth-spec` scenario).
        "speculation" => &[("gamma", "4"), ("alpha", "75"), ("stack", "vllm_v1")],
        // Chapter 14: two 8-GPU nodes, a 1 GB gradient all-reduce.
        _ => &[("ranks", "16"), ("mb", "1000")],
    }
}

pub(super) fn body_html(kind: &str, lang: Lang, v: &Values) -> String {
    match kind {
        "cuda-grid" => cuda_grid(lang, v),
        "tensor-peaks" => tensor_peaks(lang, v),
        "spec-sheet" => spec_sheet(lang, v),
        "gpu-ladder" => gpu_ladder(lang, v),
        "state-vs-kv" => state_vs_kv(lang, v),
        "prefix-reuse" => prefix_reuse(lang, v),
        "disaggregation" => disaggregation(lang, v),
        "wide-ep" => wide_ep(lang, v),
        "kv-tiers" => kv_tiers_view(lang, v),
        "speculation" => speculation_view(lang, v),
        _ => all_reduce_view(lang, v),
    }
}

fn num(v: &Values, key: &str) -> f64 {
    get(v, key).trim().parse().unwrap_or(0.0)
}

fn sig(v: f64) -> String {
    charts::format::format_sig3(v)
}

fn row(key: &str, label: &str, shown: &str, raw: f64) -> String {
    format!(
        "<div><dt>{}</dt><dd data-k=\"{key}\" data-value=\"{raw}\">{}</dd></div>",
        escape(label),
        escape(shown)
    )
}

fn numbers(rows: &[String]) -> String {
    format!("<dl class=\"lesson-numbers\">{}</dl>", rows.concat())
}

fn math(lang: Lang, lines: &[String]) -> String {
    let body: String = lines.iter().map(|l| format!("<code>{}</code>", escape(l))).collect();
    format!("<p class=\"lesson-math\"><span>{}</span>{body}</p>", lang.wid().math)
}

fn note(text: &str) -> String {
    format!("<p class=\"hint\">{}</p>", escape(text))
}

fn gpu_of(v: &Values) -> Option<&'static Gpu> {
    gpus::find(get(v, "gpu"))
}

fn flops(v: f64, d: ComputeDtype) -> String {
    format_rate(v, if d == ComputeDtype::Int8 { "OP/s" } else { "FLOP/s" })
}

fn cuda_grid(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let Some(gpu) = gpu_of(v) else { return String::new() };
    let input = LaunchInput {
        elements: crate::engine::num::u64_from_f64(num(v, "n")),
        threads_per_block: crate::engine::num::u32_from_f64(num(v, "t")),
        sm_count: gpu.sm_count.unwrap_or(0),
        bytes_per_element: ADD_BYTES_PER_ELEMENT,
        bandwidth_bytes_per_s: gpu.memory_bandwidth_bytes_per_s,
        launch_s: Efficiency::default().kernel_launch_s,
    };
    let l = match launch(&input) {
        Ok(l) => l,
        Err(e) => return perf_error(lang, &e),
    };
    let (n, t) = (input.elements, input.threads_per_block);
    let rows = [
        row("blocks", w.blocks, &group_digits(l.blocks), l.blocks as f64),
        row(
            "warps-per-block",
            w.warps_per_block,
            &l.warps_per_block.to_string(),
            f64::from(l.warps_per_block),
        ),
        row("warps", w.warps, &group_digits(l.warps), l.warps as f64),
        row("idle-threads", w.idle_threads, &group_digits(l.idle_threads), l.idle_threads as f64),
        row("blocks-per-sm", w.blocks_per_sm, &sig(l.blocks_per_sm), l.blocks_per_sm),
        row("idle-sms", w.idle_sms, &format!("{} / {}", l.idle_sms, input.sm_count), f64::from(l.idle_sms)),
        row("memory-time", w.memory_time, &format_seconds(l.memory_s), l.memory_s),
        row("launch-share", w.launch_share, &format_percent(l.launch_share), l.launch_share),
    ];
    let lines = [
        format!("blocks = ⌈n / T⌉ = ⌈{} / {t}⌉ = {}", group_digits(n), group_digits(l.blocks)),
        format!("warps = {} × ⌈{t} / 32⌉ = {}", group_digits(l.blocks), group_digits(l.warps)),
        format!("{} / {} SM = {}", group_digits(l.blocks), input.sm_count, sig(l.blocks_per_sm)),
        format!(
            "t = n × 12 B / B = {} / {} = {}",
            format_bytes_f64(n as f64 * ADD_BYTES_PER_ELEMENT, ByteUnit::Gb),
            format_rate(gpu.memory_bandwidth_bytes_per_s, "B/s"),
            format_seconds(l.memory_s)
        ),
        format!(
            "{0} / ({0} + {1}) = {2}",
            format_seconds(input.launch_s),
            format_seconds(l.memory_s),
            format_percent(l.launch_share)
        ),
    ];
    [note(w.cuda_note), numbers(&rows), math(lang, &lines)].concat()
}

fn tensor_peaks(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let Some(gpu) = gpu_of(v) else { return String::new() };
    let rows = peak_rows(gpu);
    let top = rows.iter().filter_map(|r| r.dense).fold(0.0, f64::max);
    let body: String = rows
        .iter()
        .map(|r| {
            let name = match r.path {
                ComputeDtype::Fp32 => format!("FP32 · {}", w.cuda_cores),
                d => format!("{} · Tensor Core", precision_label(d)),
            };
            let dense = r.dense.map_or_else(|| w.none.to_string(), |d| flops(d, r.path));
            // Bar length in % of the largest dense peak (an SVG attribute, not a style).
            let bar = r
                .dense
                .filter(|_| top > 0.0)
                .map(|d| {
                    format!(
                        "<svg class=\"peak-bar\" viewBox=\"0 0 100 6\" preserveAspectRatio=\"none\" aria-hidden=\"true\"><rect width=\"{:.2}\" height=\"6\"/></svg>",
                        100.0 * d / top
                    )
                })
                .unwrap_or_default();
            let speedup = r.speedup_vs_fp32.map_or_else(|| "—".to_string(), |s| format!("{}×", sig(s)));
            let sparse = r.sparse_2_4.map_or_else(|| "—".to_string(), |s| flops(s, r.path));
            format!(
                "<tr data-path=\"{}\"><th scope=\"row\">{}</th><td data-k=\"dense\" data-value=\"{}\">{}{bar}</td><td data-k=\"speedup\" data-value=\"{}\">{}</td><td class=\"sparse\">{}</td></tr>",
                r.path.label(),
                escape(&name),
                r.dense.unwrap_or(0.0),
                escape(&dense),
                r.speedup_vs_fp32.unwrap_or(0.0),
                escape(&speedup),
                escape(&sparse)
            )
        })
        .collect();
    let table = format!(
        "<div class=\"table-scroll\"><table class=\"data-table lesson-table\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th class=\"sparse\">{}</th></tr></thead><tbody>{body}</tbody></table></div>",
        escape(w.col_path),
        escape(w.col_dense),
        escape(w.col_speedup),
        escape(w.col_sparse)
    );
    let pick =
        |d: ComputeDtype| rows.iter().find(|r| r.path == d).and_then(|r| r.dense.zip(r.speedup_vs_fp32));
    let fp32 = rows.iter().find(|r| r.path == ComputeDtype::Fp32).and_then(|r| r.dense);
    let lines: Vec<String> = [ComputeDtype::Tf32, ComputeDtype::Bf16]
        .iter()
        .filter_map(|&d| {
            let (dense, s) = pick(d)?;
            Some(format!(
                "{} / FP32 = {} / {} = {}×",
                precision_label(d),
                flops(dense, d),
                flops(fp32?, ComputeDtype::Fp32),
                sig(s)
            ))
        })
        .collect();
    [table, if lines.is_empty() { String::new() } else { math(lang, &lines) }, note(w.tc_note)].concat()
}

fn spec_sheet(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let Some(gpu) = gpu_of(v) else { return String::new() };
    let dtype = PRECISIONS.iter().copied().find(|d| d.label() == get(v, "p")).unwrap_or(ComputeDtype::Bf16);
    let intensity = num(v, "i");
    let Some(p) = spec_point(gpu, dtype, intensity) else {
        return format!("<p class=\"field-error\">{}</p>", escape(w.none));
    };
    let used = p.path.used;
    let sparse = gpu.sparse_as_quoted.get(used.label()).copied();
    let mut out = String::new();
    if used != dtype {
        let (a, b, c) = w.fallback;
        out.push_str(&note(&format!("{a}{}{b}{}{c}", precision_label(dtype), precision_label(used))));
    }
    let verdict = if p.memory_bound { w.left_of_ridge } else { w.right_of_ridge };
    let mut rows =
        vec![row("dense", w.dense_applies, &flops(p.path.peak_flops_per_s, used), p.path.peak_flops_per_s)];
    if let Some(s) = sparse {
        rows.push(format!(
            "<div class=\"sparse\"><dt>{}</dt><dd data-k=\"sparse\"><s>{}</s></dd></div>",
            escape(w.sparse_skip),
            escape(&flops(s, used))
        ));
    }
    rows.push(row(
        "bandwidth",
        w.bandwidth,
        &format_rate(gpu.memory_bandwidth_bytes_per_s, "B/s"),
        gpu.memory_bandwidth_bytes_per_s,
    ));
    rows.push(row("ridge", w.ridge, &format!("{} FLOP/B", sig(p.ridge)), p.ridge));
    rows.push(row("attainable", w.attainable, &flops(p.attainable, used), p.attainable));
    out.push_str(&numbers(&rows));
    out.push_str(&format!(
        "<p class=\"verdict {}\" data-k=\"side\"><strong>{}</strong> <span>I = {} FLOP/B · {} = {} FLOP/B</span></p>",
        if p.memory_bound { "bad" } else { "ok" },
        escape(verdict),
        sig(intensity),
        escape(w.ridge),
        sig(p.ridge)
    ));
    out.push_str(&ridge_svg(intensity, p.ridge));
    let f = flops(p.path.peak_flops_per_s, used);
    let b = format_rate(gpu.memory_bandwidth_bytes_per_s, "B/s");
    out.push_str(&math(
        lang,
        &[
            format!("F / B = {f} / {b} = {} FLOP/B", sig(p.ridge)),
            format!("min(F, I × B) = min({f}, {} × {b}) = {}", sig(intensity), flops(p.attainable, used)),
        ],
    ));
    out
}

/// A one-line log scale of intensity (0.1 to 10,000 FLOP/byte, x = 10 to 280 of a 300-wide box, so
/// the last tick label fits) with the ridge and the kernel.
fn ridge_svg(intensity: f64, ridge: f64) -> String {
    let x = |v: f64| {
        let v = v.clamp(0.1, 1e4);
        10.0 + (v.log10() + 1.0) / 5.0 * 270.0
    };
    let ticks: String = [0.1f64, 1.0, 10.0, 100.0, 1000.0, 10000.0]
        .iter()
        .map(|t| {
            format!(
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"18\" y2=\"24\"/><text x=\"{0:.1}\" y=\"36\" text-anchor=\"middle\">{1}</text>",
                x(*t),
                sig(*t)
            )
        })
        .collect();
    format!(
        "<svg class=\"ridge-line\" viewBox=\"0 0 300 44\" role=\"img\" aria-label=\"I = {i}, {r}\" font-family=\"sans-serif\" font-size=\"8\"><rect class=\"mem\" x=\"10\" y=\"14\" width=\"{mw:.1}\" height=\"6\"/><rect class=\"cmp\" x=\"{rx:.1}\" y=\"14\" width=\"{cw:.1}\" height=\"6\"/>{ticks}<line class=\"ridge\" x1=\"{rx:.1}\" x2=\"{rx:.1}\" y1=\"4\" y2=\"24\"/><circle class=\"kernel\" cx=\"{kx:.1}\" cy=\"17\" r=\"4\"/></svg>",
        i = sig(intensity),
        r = sig(ridge),
        mw = x(ridge) - 10.0,
        rx = x(ridge),
        cw = 280.0 - x(ridge),
        kx = x(intensity),
    )
}

fn gpu_ladder(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let dtype = WEIGHT_DTYPES.iter().copied().find(|d| d.name() == get(v, "w")).unwrap_or(Dtype::Bf16);
    let ctx = crate::engine::num::u64_from_f64(num(v, "ctx"));
    let mut first_fit: Option<String> = None;
    let body: String = LADDER
        .iter()
        .filter_map(|(id, tier)| Some((gpus::find(id)?, *tier)))
        .map(|(gpu, tier)| {
            let mut s = Scenario::new(ModelSpec::Id(get(v, "model").to_string()));
            s.gpu = GpuSpec::Id(gpu.id.clone());
            s.weight_dtype = Some(dtype);
            s.context_tokens = ctx;
            let tier_name = w.tiers.get(tier).copied().unwrap_or("");
            let head = format!(
                "<tr data-gpu=\"{}\"><th scope=\"row\">{}</th><td>{}</td>",
                escape(&gpu.id),
                escape(&gpu.name),
                escape(tier_name)
            );
            let fit = match catalog::memory_fit(&s) {
                Ok(f) => f,
                Err(e) => {
                    return format!(
                        "{head}<td colspan=\"3\" class=\"field-error\">{}</td></tr>",
                        escape(&errors::scenario_error(e.scenario_error(), lang))
                    )
                }
            };
            let price = catalog::default_price_per_gpu_hour(&gpu.id).map(|(p, _)| p);
            let h = headroom(&fit, price, 1);
            let room = format!(
                "{} ({})",
                format_bytes_f64(h.headroom_bytes, ByteUnit::Gb),
                format_percent(h.headroom_share)
            );
            if fit.fits && first_fit.is_none() {
                first_fit = Some(format!(
                    "{}: {} × (1 − 10%) − {} = {} − {} = {}",
                    gpu.name,
                    format_bytes_f64(gpu.memory_bytes as f64, ByteUnit::Gb),
                    format_bytes_f64(fit.total_bytes as f64, ByteUnit::Gb),
                    format_bytes_f64(fit.usable_bytes as f64, ByteUnit::Gb),
                    format_bytes_f64(fit.total_bytes as f64, ByteUnit::Gb),
                    format_bytes_f64(h.headroom_bytes, ByteUnit::Gb)
                ));
            }
            let cost = h
                .cost_per_hour
                .map_or_else(|| format!("<span class=\"hint\">{}</span>", escape(w.no_price)), |c| {
                    format!("${c:.2}{}", escape(w.per_hour))
                });
            format!(
                "{head}<td data-k=\"fits\" class=\"{}\">{}</td><td data-k=\"headroom\" data-value=\"{}\">{}</td><td data-k=\"cost\" data-value=\"{}\">{cost}</td></tr>",
                if fit.fits { "ok" } else { "bad" },
                if fit.fits { w.fits_yes } else { w.fits_no },
                h.headroom_bytes,
                escape(&room),
                h.cost_per_hour.unwrap_or(-1.0),
            )
        })
        .collect();
    let table = format!(
        "<div class=\"table-scroll\"><table class=\"data-table lesson-table\"><thead><tr><th>GPU</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{body}</tbody></table></div>",
        escape(w.tier),
        escape(w.fits),
        escape(w.headroom),
        escape(w.cost)
    );
    let lines: Vec<String> = first_fit.into_iter().collect();
    [table, if lines.is_empty() { String::new() } else { math(lang, &lines) }, note(w.ladder_note)].concat()
}

/// The three topologies of the chart, 8 GPUs per node, from the interconnect catalog.
fn topologies() -> Vec<Topology> {
    let link = |id: &str| interconnects::find(id).map(|i| i.link());
    [("nvswitch-h100", "ib-ndr"), ("nvswitch-h100", "efa-p5"), ("pcie-5", "ib-hdr")]
        .iter()
        .filter_map(|(intra, inter)| {
            Some(Topology { gpus_per_node: 8, intra_node: link(intra)?, inter_node: Some(link(inter)?) })
        })
        .collect()
}

fn all_reduce_view(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let ranks = crate::engine::num::u32_from_f64(num(v, "ranks"));
    let bytes = num(v, "mb") * 1e6;
    let eff = Efficiency::default();
    let sizes = message_sizes(1e3, 1e10, 4);
    let topos = topologies();
    let mut series = Vec::new();
    let mut rows = String::new();
    let mut lines = Vec::new();
    for (label, topo) in w.topologies.iter().zip(&topos) {
        let curve = match all_reduce_curve(&sizes, ranks, topo, &eff) {
            Ok(c) => c,
            Err(e) => return perf_error(lang, &e),
        };
        series.push(charts::AllReduceSeries {
            label: (*label).to_string(),
            points: curve.iter().map(|p| (p.bytes, p.time.expected_s)).collect(),
        });
        let p = match all_reduce(bytes, ranks, topo, &eff) {
            Ok(p) => p,
            Err(e) => return perf_error(lang, &e),
        };
        rows.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td data-k=\"expected\" data-value=\"{}\">{}</td><td data-k=\"bound\" data-value=\"{}\">{}</td><td data-k=\"busbw\" data-value=\"{}\">{}</td></tr>",
            escape(label),
            p.time.expected_s,
            format_seconds(p.time.expected_s),
            p.time.bound_s,
            format_seconds(p.time.bound_s),
            p.busbw,
            format_rate(p.busbw, "B/s")
        ));
        if lines.is_empty() {
            lines.push(format!(
                "S = {}, n = {ranks}: algbw = S / t = {} / {} = {}",
                format_bytes_f64(bytes, ByteUnit::Gb),
                format_bytes_f64(bytes, ByteUnit::Gb),
                format_seconds(p.time.expected_s),
                format_rate(p.algbw, "B/s")
            ));
            lines.push(format!(
                "busbw = algbw × 2(n−1)/n = {} × {} = {}",
                format_rate(p.algbw, "B/s"),
                sig(2.0 * f64::from(ranks.saturating_sub(1)) / f64::from(ranks.max(1))),
                format_rate(p.busbw, "B/s")
            ));
        }
    }
    let chart = charts::allreduce_svg(
        &charts::AllReduceChart {
            title: w.ar_title.to_string(),
            x_label: w.message_size.replace(" (MB)", ""),
            y_label: w.time.to_string(),
            series,
            marker_bytes: Some(bytes),
            no_data: w.none.to_string(),
            ..Default::default()
        },
        crate::ui::browser::chart_width(),
    );
    let table = format!(
        "<div class=\"table-scroll\"><table class=\"data-table lesson-table\"><thead><tr><td></td><th>{}</th><th>{}</th><th>busbw</th></tr></thead><tbody>{rows}</tbody></table></div>",
        escape(w.expected),
        escape(w.bound)
    );
    let one_node = if ranks <= 8 { note(w.one_node) } else { String::new() };
    [
        format!("<figure class=\"chart\">{chart}</figure>"),
        table,
        one_node,
        math(lang, &lines),
        note(w.ar_note),
    ]
    .concat()
}

fn perf_error(lang: Lang, e: &crate::engine::checked::PerfError) -> String {
    let err = crate::engine::checked::perf_error("", e.clone());
    format!("<p class=\"field-error\" role=\"alert\">{}</p>", escape(&errors::scenario_error(&err, lang)))
}

/// `KV = per token × context = KV`, or, when sliding windows keep fewer tokens than the context
/// in some layers, the product followed by the engine's own figure and why it is smaller.
fn kv_line(per_token: u128, ctx: u64, kv: u128, b: &dyn Fn(u128) -> String, window: &str) -> String {
    let all = per_token.saturating_mul(u128::from(ctx));
    if all == kv {
        format!("KV = {} × {} = {}", b(per_token), group_digits(ctx), b(kv))
    } else {
        format!("KV = {} × {} = {} → {} ({window})", b(per_token), group_digits(ctx), b(all), b(kv))
    }
}

/// Chapter 2: one sequence's KV cache against the fixed state of linear-attention / Mamba
/// layers (`engine::model::hybrid::per_sequence`), and all sequences together.
fn state_vs_kv(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let Some(m) = models::find(get(v, "model")) else { return String::new() };
    let ctx = crate::engine::num::u64_from_f64(num(v, "ctx"));
    let seqs = crate::engine::num::u64_from_f64(num(v, "seqs"));
    let p = per_sequence(&m.architecture, ctx, Dtype::Bf16, Dtype::Bf16);
    let b = |x: u128| format_bytes_f64(x as f64, ByteUnit::Gib);
    let all = p.total().saturating_mul(u128::from(seqs));
    let (a0, a1, a2, a3) = w.sk_layers;
    let mut rows = vec![
        row("kv-per-token", w.sk_kv_per_token, &b(p.kv_per_token), p.kv_per_token as f64),
        row("kv", w.sk_kv, &b(p.kv), p.kv as f64),
        row("state", w.sk_state, &b(p.state), p.state as f64),
        row("per-sequence", w.sk_per_sequence, &b(p.total()), p.total() as f64),
        row("all", w.sk_all, &b(all), all as f64),
    ];
    if p.state_layers > 0 {
        rows.push(row(
            "if-all-attention",
            w.sk_if_all_attention,
            &b(p.kv_if_all_attention),
            p.kv_if_all_attention as f64,
        ));
    }
    let lines = [
        format!("{a0}{}{a1}{}{a2}{}{a3}", p.attention_layers, p.state_layers, p.layers),
        kv_line(p.kv_per_token, ctx, p.kv, &b, w.sk_window),
        format!("({} + {}) × {} = {}", b(p.kv), b(p.state), group_digits(seqs), b(all)),
    ];
    [note(w.sk_note), numbers(&rows), math(lang, &lines)].concat()
}

/// Output tokens per request in the prefix-reuse widget (the chapter's example).
const PREFIX_OUTPUT_TOKENS: u64 = 256;

/// The prefix-reuse widget's scenario: `batch` requests of the reader's prompt (+ 256 output
/// tokens), a shared prefix and a hit rate (a fraction; `None`: none given).
fn prefix_scenario(v: &Values, batch: u64, shared: u64, hit: Option<f64>) -> Scenario {
    let prompt = crate::engine::num::u64_from_f64(num(v, "prompt"));
    let mut s = Scenario::new(ModelSpec::Id(get(v, "model").to_string()));
    s.gpu = GpuSpec::Id(get(v, "gpu").to_string());
    s.prompt_tokens = Some(prompt);
    s.output_tokens = Some(PREFIX_OUTPUT_TOKENS);
    s.context_tokens = prompt.saturating_add(PREFIX_OUTPUT_TOKENS);
    s.batch = batch;
    s.prefix_shared_tokens = shared;
    s.prefix_hit_rate = hit;
    s
}

/// Chapter 13: prefix reuse (`engine::memory::prefix`). One request's TTFT with and without
/// reuse and at several hit rates, and the KV cache and the requests that fit with and without
/// the shared prefix stored once, each the engine's report.
fn prefix_reuse(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let shared = crate::engine::num::u64_from_f64(num(v, "shared"));
    let seqs = crate::engine::num::u64_from_f64(num(v, "seqs")).max(1);
    let hit = (num(v, "hit") / 100.0).clamp(0.0, 1.0);
    let run =
        |batch: u64, shared: u64, hit: f64| catalog::evaluate(&prefix_scenario(v, batch, shared, Some(hit)));
    let (one, cold, all, all_cold) =
        match (run(1, shared, hit), run(1, 0, 0.0), run(seqs, shared, hit), run(seqs, 0, 0.0)) {
            (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
            (Err(e), ..) | (_, Err(e), ..) | (_, _, Err(e), _) | (.., Err(e)) => {
                return format!(
                    "<p class=\"field-error\" role=\"alert\">{}</p>",
                    escape(&errors::scenario_error(e.scenario_error(), lang))
                )
            }
        };
    let b = |x: u64| format_bytes_f64(x as f64, ByteUnit::Gb);
    let t = &one.performance.time;
    let fit = |r: &crate::engine::Report| r.solvers.max_batch.unwrap_or(0);
    let rows = [
        row("cached", w.pr_cached, &group_digits(t.prefix_cached_tokens), t.prefix_cached_tokens as f64),
        row("ttft", w.pr_ttft, &format_seconds(t.time_to_first_token_s), t.time_to_first_token_s),
        row(
            "ttft-cold",
            w.pr_ttft_cold,
            &format_seconds(cold.performance.time.time_to_first_token_s),
            cold.performance.time.time_to_first_token_s,
        ),
        row("kv", w.pr_kv, &b(all.memory_per_gpu_bytes.kv_cache), all.memory_per_gpu_bytes.kv_cache as f64),
        row(
            "kv-cold",
            w.pr_kv_cold,
            &b(all_cold.memory_per_gpu_bytes.kv_cache),
            all_cold.memory_per_gpu_bytes.kv_cache as f64,
        ),
        row("fit", w.pr_fit, &group_digits(fit(&one)), fit(&one) as f64),
        row("fit-cold", w.pr_fit_cold, &group_digits(fit(&cold)), fit(&cold) as f64),
    ];
    let curve: Vec<String> = [0.0, 0.25, 0.5, 0.75, 0.9, 1.0]
        .iter()
        .filter_map(|&h| run(1, shared, h).ok().map(|r| (h, r.performance.time.time_to_first_token_s)))
        .map(|(h, ttft)| format!("{} → {}", format_percent(h), format_seconds(ttft)))
        .collect();
    let prompt = crate::engine::num::u64_from_f64(num(v, "prompt"));
    let lines = [
        format!(
            "min({} − 1, max({}, {} × {})) = {}",
            group_digits(prompt),
            group_digits(shared),
            format_percent(hit),
            group_digits(prompt),
            group_digits(t.prefix_cached_tokens)
        ),
        format!("{} {}", w.pr_curve, curve.join(" · ")),
    ];
    [note(w.pr_note), numbers(&rows), math(lang, &lines)].concat()
}

/// Sequences each worker of the disaggregation widget runs at once (the chapter's example).
const DISAGG_BATCH: u64 = 256;

/// The disaggregation widget's scenario: the reader's model and GPU, `gpus` GPUs as one
/// tensor-parallel group, prompts and outputs arriving at the reader's rate; with
/// `prefill_workers` > 0 those GPUs are the decode pool, beside that many prefill workers of
/// `ptp` GPUs each (the KV cache over the engine's default link).
fn disagg_scenario(v: &Values, prefill_workers: u64) -> Scenario {
    let whole = |key: &str| crate::engine::num::u64_from_f64(num(v, key));
    let (prompt, output, gpus) = (whole("prompt"), whole("output"), whole("gpus"));
    let mut s = Scenario::new(ModelSpec::Id(get(v, "model").to_string()));
    s.gpu = GpuSpec::Id(get(v, "gpu").to_string());
    (s.gpus, s.tensor_parallel, s.batch) = (gpus, gpus, DISAGG_BATCH);
    s.prompt_tokens = Some(prompt);
    s.output_tokens = Some(output);
    s.context_tokens = prompt.saturating_add(output);
    s.arrival_rate_per_s = Some(num(v, "rate"));
    s.prefill_workers = prefill_workers;
    if prefill_workers > 0 {
        s.prefill_tensor_parallel = Some(whole("ptp"));
    }
    s
}

/// Chapter 14: disaggregated prefill and decode (`engine::perf::load::disagg`). The same load
/// on one pool and on two (the reader's GPUs as the decode pool beside the prefill workers):
/// GPUs, ITL, TPOT, TTFT and the sustainable rate side by side, then the KV transfer and the
/// pool that sets the rate, each the engine's report.
fn disaggregation(lang: Lang, v: &Values) -> String {
    let (w, l) = (lang.wid(), lang.load());
    let workers = crate::engine::num::u64_from_f64(num(v, "pw")).max(1);
    let run = |prefill_workers: u64| catalog::evaluate(&disagg_scenario(v, prefill_workers));
    let (one, two) = match (run(0), run(workers)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            return format!(
                "<p class=\"field-error\" role=\"alert\">{}</p>",
                escape(&errors::scenario_error(e.scenario_error(), lang))
            )
        }
    };
    let (Some(a), Some(b)) = (one.load.as_ref(), two.load.as_ref()) else {
        return format!("<p class=\"field-error\" role=\"alert\">{}</p>", escape(l.nothing_fits));
    };
    let Some(d) = b.disaggregated.as_ref() else { return String::new() };
    let req = |x: f64| format!("{} {}", sig(x), l.req_s);
    let cell = |key: &str, shown: String, raw: Option<f64>| {
        let raw = raw.map(|x| format!(" data-value=\"{x}\"")).unwrap_or_default();
        format!("<td data-k=\"{key}\"{raw}>{}</td>", escape(&shown))
    };
    // Null (an unstable queue, which the note below names): a dash, as the charts show it.
    let secs = |key: &str, x: Option<f64>| cell(key, format_seconds(x.unwrap_or(f64::NAN)), x);
    let line = |label: &str, one: String, two: String| {
        format!("<tr><th scope=\"row\">{}</th>{one}{two}</tr>", escape(label))
    };
    let rows = [
        line(
            w.dg_gpus,
            cell("one-gpus", group_digits(one.layout.gpus), Some(one.layout.gpus as f64)),
            cell(
                "two-gpus",
                format!("{} + {} = {}", d.prefill_gpus, d.decode_gpus, d.total_gpus),
                Some(d.total_gpus as f64),
            ),
        ),
        line(w.dg_itl_p50, secs("one-itl-p50", a.itl_p50_s), secs("two-itl-p50", b.itl_p50_s)),
        line(w.dg_itl_p99, secs("one-itl-p99", a.itl_p99_s), secs("two-itl-p99", b.itl_p99_s)),
        line(w.dg_tpot, secs("one-tpot", a.tpot_p50_s), secs("two-tpot", b.tpot_p50_s)),
        line(w.dg_ttft, secs("one-ttft", a.ttft_p50_s), secs("two-ttft", b.ttft_p50_s)),
        line(w.dg_ttft_p99, secs("one-ttft-p99", a.ttft_p99_s), secs("two-ttft-p99", b.ttft_p99_s)),
        line(
            l.sustainable,
            cell("one-rate", req(a.max_sustainable_rate_per_s), Some(a.max_sustainable_rate_per_s)),
            cell("two-rate", req(b.max_sustainable_rate_per_s), Some(b.max_sustainable_rate_per_s)),
        ),
    ];
    let table = format!(
        "<div class=\"table-scroll\"><table class=\"data-table lesson-table\"><thead><tr><td></td><th>{}</th><th>{}</th></tr></thead><tbody>{}</tbody></table></div>",
        escape(w.dg_one),
        escape(w.dg_two),
        rows.concat()
    );
    let [pre, dec] = l.disagg_pools;
    let limited =
        if d.limited_by == crate::engine::perf::load::disagg::LimitingPool::Prefill { pre } else { dec };
    let bytes = format_bytes_f64(d.transfer_bytes as f64, ByteUnit::Gb);
    let rate = d.link_bytes_per_s * d.link_efficiency;
    let body = if rate > 0.0 { d.transfer_bytes as f64 / rate } else { 0.0 };
    let numbers_dl = numbers(&[
        row(
            "transfer",
            l.disagg_transfer,
            &format!("{bytes} · {}", format_seconds(d.transfer_s)),
            d.transfer_bytes as f64,
        ),
        row("limited", l.disagg_limited, limited, b.max_sustainable_rate_per_s),
    ]);
    let lines = [
        format!(
            "{bytes} ÷ ({} × {}) + {} = {}",
            format_rate(d.link_bytes_per_s, "B/s"),
            sig(d.link_efficiency),
            format_seconds((d.transfer_s - body).max(0.0)),
            format_seconds(d.transfer_s)
        ),
        format!(
            "min(prefill {}, decode {}) = {}",
            req(d.prefill_max_rate_per_s),
            req(d.decode_max_rate_per_s),
            req(b.max_sustainable_rate_per_s)
        ),
    ];
    let unstable = if a.stable && b.stable { String::new() } else { note(l.unstable) };
    [note(w.dg_note), table, unstable, numbers_dl, math(lang, &lines)].concat()
}

/// The expert-parallel sizes the wide-EP widget compares (one server, then two, four, eight).
const WIDE_EP: [u64; 4] = [8, 16, 32, 64];

/// The wide-EP widget's scenario: the reader's MoE model, weight format and GPU, `ep` GPUs each
/// an attention replica (tensor parallelism 1) with `seqs` sequences of `ctx` tokens and
/// `ceil((E + red)/ep)` of the routed experts, under SGLang, the exchange the reader picked.
fn wide_ep_scenario(v: &Values, ep: u64, seqs: u64) -> Scenario {
    let whole = |key: &str| crate::engine::num::u64_from_f64(num(v, key));
    let mut s = Scenario::new(ModelSpec::Id(get(v, "model").to_string()));
    s.gpu = GpuSpec::Id(get(v, "gpu").to_string());
    s.weight_dtype = Dtype::parse(get(v, "w"));
    (s.gpus, s.tensor_parallel, s.expert_parallel, s.batch) = (ep, 1, ep, seqs.max(1));
    s.context_tokens = whole("ctx");
    s.redundant_experts = whole("red");
    s.serving_stack = crate::engine::stack::ServingStack::Sglang;
    s.ep_comm = crate::engine::stack::EpComm::ALL.into_iter().find(|c| c.key() == get(v, "comm"));
    s
}

/// Chapter 14: wide expert parallelism with data-parallel attention (`engine::perf::moe`). One
/// decode step at EP 8, 16, 32 and 64, each column the engine's report at the smaller of the
/// reader's sequences per GPU and those that fit: experts, weights and KV cache per GPU, the
/// step's grouped GEMM, dispatch + combine and the rest, the imbalance and tokens/s per GPU; then
/// the best column and the exchange's arithmetic at the first EP size that runs.
fn wide_ep(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let wanted = crate::engine::num::u64_from_f64(num(v, "seqs")).max(1);
    // Each size at the reader's sequences, then, if they do not fit, at the most that do.
    let run = |ep: u64| -> Result<Option<(u64, crate::engine::Report)>, crate::engine::EngineError> {
        let first = catalog::evaluate(&wide_ep_scenario(v, ep, wanted))?;
        if first.fits {
            return Ok(Some((wanted, first)));
        }
        match first.solvers.max_batch {
            Some(n) if n > 0 => {
                let r = catalog::evaluate(&wide_ep_scenario(v, ep, n))?;
                Ok(r.fits.then_some((n, r)))
            }
            _ => Ok(None),
        }
    };
    let mut cols = Vec::new();
    for ep in WIDE_EP {
        match run(ep) {
            Ok(c) => cols.push((ep, c)),
            Err(err) => {
                return format!(
                    "<p class=\"field-error\" role=\"alert\">{}</p>",
                    escape(&errors::scenario_error(err.scenario_error(), lang))
                )
            }
        }
    }
    let gb = |x: u64| format_bytes_f64(x as f64, ByteUnit::Gb);
    let rate = |r: &crate::engine::Report| {
        r.performance.throughput.decode_tokens_per_s / r.layout.gpus.max(1) as f64
    };
    let cell = |key: String, shown: String, raw: Option<f64>| {
        let raw = raw.map(|x| format!(" data-value=\"{x}\"")).unwrap_or_default();
        format!("<td data-k=\"{key}\"{raw}>{}</td>", escape(&shown))
    };
    let line = |label: &str, f: &dyn Fn(u64, u64, &crate::engine::Report) -> (String, f64), key: &str| {
        let tds: String = cols
            .iter()
            .map(|(ep, c)| match c {
                Some((n, r)) => {
                    let (shown, raw) = f(*ep, *n, r);
                    cell(format!("{key}-{ep}"), shown, Some(raw))
                }
                None => cell(format!("{key}-{ep}"), w.wep_none.to_string(), None),
            })
            .collect();
        format!("<tr><th scope=\"row\">{}</th>{tds}</tr>", escape(label))
    };
    let decode = |r: &crate::engine::Report| r.performance.phases.decode.clone();
    let gemm = |r: &crate::engine::Report| decode(r).moe.map_or(0.0, |m| m.grouped_gemm_s);
    let rows = [
        line(
            w.wep_experts,
            &|_, _, r| (group_digits(r.layout.experts_per_gpu), r.layout.experts_per_gpu as f64),
            "experts",
        ),
        line(
            w.wep_weights,
            &|_, _, r| (gb(r.memory_per_gpu_bytes.weights), r.memory_per_gpu_bytes.weights as f64),
            "weights",
        ),
        line(
            w.wep_fit,
            &|_, _, r| {
                let n = r.solvers.max_batch.unwrap_or(0);
                (group_digits(n), n as f64)
            },
            "fit",
        ),
        line(w.wep_run, &|_, n, _| (group_digits(n), n as f64), "run"),
        line(
            w.wep_kv,
            &|_, _, r| (gb(r.memory_per_gpu_bytes.kv_cache), r.memory_per_gpu_bytes.kv_cache as f64),
            "kv",
        ),
        line(w.wep_gemm, &|_, _, r| (format_seconds(gemm(r)), gemm(r)), "gemm"),
        line(
            w.wep_exchange,
            &|_, _, r| {
                let x = decode(r).expert_parallel_comm_s;
                (format_seconds(x), x)
            },
            "exchange",
        ),
        line(
            w.wep_rest,
            &|_, _, r| {
                let d = decode(r);
                let x = (d.time_s - gemm(r) - d.expert_parallel_comm_s).max(0.0);
                (format_seconds(x), x)
            },
            "rest",
        ),
        line(
            w.wep_step,
            &|_, _, r| {
                let x = decode(r).time_s;
                (format_seconds(x), x)
            },
            "step",
        ),
        line(
            w.wep_imbalance,
            &|_, _, r| {
                let x = decode(r).moe.map_or(1.0, |m| m.layer.imbalance);
                (format!("{x:.2}"), x)
            },
            "imbalance",
        ),
        line(
            w.wep_rate,
            &|_, _, r| (group_digits(crate::engine::num::u64_from_f64(rate(r).round())), rate(r)),
            "rate",
        ),
    ];
    let head: String = WIDE_EP.iter().map(|ep| format!("<th scope=\"col\">EP {ep}</th>")).collect();
    let table = format!(
        "<div class=\"table-scroll\"><table class=\"data-table lesson-table\"><thead><tr><th scope=\"col\">{}</th>{head}</tr></thead><tbody>{}</tbody></table></div>",
        escape(w.wep_ep),
        rows.concat()
    );
    let best = cols
        .iter()
        .filter_map(|(ep, c)| c.as_ref().map(|(_, r)| (*ep, rate(r))))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let Some((best_ep, best_rate)) = best else {
        return [note(w.wep_note), table].concat();
    };
    let numbers_dl = numbers(&[row(
        "best",
        w.wep_best,
        &format!("EP {best_ep} · {}", group_digits(crate::engine::num::u64_from_f64(best_rate.round()))),
        best_ep as f64,
    )]);
    // The exchange's arithmetic at the best size, from the engine's record of one layer: tokens ×
    // copies × the time of one copy (DeepEP), or one layer's two all-to-alls (NCCL).
    let mut lines: Vec<String> = cols
        .iter()
        .filter(|(ep, _)| *ep == best_ep)
        .filter_map(|(ep, c)| c.as_ref().map(|(_, r)| (*ep, r)))
        .filter_map(|(ep, r)| {
            let d = decode(r);
            let m = d.moe?;
            let x = m.exchange?;
            let tail = format!(
                "{} × {} = {}",
                sig(m.layers),
                sig(m.layer.imbalance),
                format_seconds(d.expert_parallel_comm_s)
            );
            Some(if x.tokens > 0.0 && x.destinations > 0.0 {
                format!(
                    "EP {ep}: T × D × t × L × I = {} × {} × {} × {tail}",
                    group_digits(crate::engine::num::u64_from_f64(x.tokens.round())),
                    sig(x.destinations),
                    format_seconds(x.per_layer_s / (x.tokens * x.destinations)),
                )
            } else {
                format!("EP {ep}: t_layer × L × I = {} × {tail}", format_seconds(x.per_layer_s))
            })
        })
        .collect();
    lines.push(w.wep_symbols.to_string());
    [note(w.wep_note), table, numbers_dl, math(lang, &lines)].concat()
}

/// The open sessions the KV-tier widget's chart compares (with the reader's own count).
const TIER_SESSIONS: [u64; 5] = [10, 30, 100, 1000, 3000];

/// The KV-tier widget's scenario: chapter 13's agent sessions (Llama-3.1-8B on an H100 SXM, one
/// request at a time, a 2,000-token system prompt, 16 turns of 1,000 tokens in and 500 out, a mean
/// prompt of 14,250 tokens), `sessions` open, tiers of `cpu` and `ssd` bytes per GPU.
fn tier_scenario(sessions: u64, cpu: u64, ssd: u64) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
    s.gpu = GpuSpec::Id("h100-sxm".into());
    (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(14_250), Some(500), 14_750);
    (s.session_turns, s.session_turn_tokens, s.prefix_shared_tokens) = (16, 1000, 2000);
    (s.prefix_open_sessions, s.kv_cpu_tier_bytes, s.kv_ssd_tier_bytes) = (sessions, cpu, ssd);
    s
}

/// Chapter 13: KV cache tiers (`engine::perf::kv_tiers`). The open sessions' histories over the
/// GPU's free KV pool, a CPU tier and an SSD tier: the shares and the TTFT at several session
/// counts (a bar each), then at the reader's count each place's share and time per history, the
/// working set and the TTFT with and without the tiers, each the engine's report.
fn kv_tiers_view(lang: Lang, v: &Values) -> String {
    let w = lang.wid();
    let n = crate::engine::num::u64_from_f64(num(v, "n")).max(1);
    let bytes = |key: &str| crate::engine::num::u64_from_f64(num(v, key) * 1e9);
    let (cpu, ssd) = (bytes("cpu"), bytes("ssd"));
    let run = |n: u64, cpu: u64, ssd: u64| catalog::evaluate(&tier_scenario(n, cpu, ssd));
    let (r, bare) = match (run(n, cpu, ssd), run(n, 0, 0)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            return format!(
                "<p class=\"field-error\" role=\"alert\">{}</p>",
                escape(&errors::scenario_error(e.scenario_error(), lang))
            )
        }
    };
    let Some(t) = r.performance.time.kv_tiers else { return String::new() };
    let used = |u: &Option<crate::engine::perf::kv_tiers::TierUse>| {
        u.filter(|u| u.restored).map_or(0.0, |u| u.share)
    };
    let ttft = |r: &crate::engine::Report| r.performance.time.time_to_first_token_s;
    // One bar per session count: GPU, CPU and SSD (where restored) and recomputed, with the TTFT.
    let mut counts: Vec<u64> = TIER_SESSIONS.into_iter().chain([n]).collect();
    counts.sort_unstable();
    counts.dedup();
    let rows = counts
        .iter()
        .filter_map(|&k| {
            let bar = |r: &crate::engine::Report| {
                let t = r.performance.time.kv_tiers?;
                Some(charts::cost_split::CostSplitRow {
                    label: format!("{} {}", group_digits(k), w.kvt_row),
                    parts: [t.gpu_share, used(&t.cpu), used(&t.ssd), t.recomputed_share],
                    total_text: format!("TTFT {}", format_seconds(ttft(r))),
                })
            };
            if k == n {
                bar(&r)
            } else {
                bar(&run(k, cpu, ssd).ok()?)
            }
        })
        .collect();
    let chart = charts::cost_split::cost_split_svg(
        &charts::cost_split::CostSplitChart {
            title: w.kvt_chart.to_string(),
            legend: w.kvt_places.map(str::to_string),
            rows,
            no_data: w.none.to_string(),
        },
        crate::ui::browser::chart_width(),
    );
    // Each place: its share of the histories and the time one history takes from it.
    let [p_gpu, p_cpu, p_ssd, p_re] = w.kvt_places;
    let cell = |key: &str, shown: String, raw: f64| {
        format!("<td data-k=\"{key}\" data-value=\"{raw}\">{}</td>", escape(&shown))
    };
    let tier_row = |key: &str, name: &str, u: &Option<crate::engine::perf::kv_tiers::TierUse>| {
        u.map(|u| {
            // A tier the tiers above already cover serves nothing: `restored` is false there
            // whatever its time, so it is not called slower than recomputing.
            let verdict = if u.share <= 0.0 {
                w.kvt_unused
            } else if u.restored {
                w.kvt_restored
            } else {
                w.kvt_slower
            };
            format!(
                "<tr><th scope=\"row\">{}</th>{}{}<td>{}</td></tr>",
                escape(name),
                cell(&format!("{key}-share"), format_percent(u.share), u.share),
                cell(&format!("{key}-time"), format_seconds(u.restore_s), u.restore_s),
                escape(verdict)
            )
        })
        .unwrap_or_default()
    };
    let table = format!(
        "<div class=\"table-scroll\"><table class=\"data-table lesson-table\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th><td></td></tr></thead><tbody><tr><th scope=\"row\">{}</th>{}<td>—</td><td></td></tr>{}{}<tr><th scope=\"row\">{}</th>{}{}<td></td></tr></tbody></table></div>",
        escape(w.kvt_where),
        escape(w.kvt_share),
        escape(w.kvt_time),
        escape(p_gpu),
        cell("gpu-share", format_percent(t.gpu_share), t.gpu_share),
        tier_row("cpu", p_cpu, &t.cpu),
        tier_row("ssd", p_ssd, &t.ssd),
        escape(p_re),
        cell("recomputed-share", format_percent(t.recomputed_share), t.recomputed_share),
        cell("recompute-time", format_seconds(t.recompute_s), t.recompute_s),
    );
    let gb = |x: f64| format_bytes_f64(x, ByteUnit::Gb);
    let numbers_dl = numbers(&[
        row("working-set", w.kvt_working_set, &gb(t.working_set_bytes), t.working_set_bytes),
        row("room", w.kvt_room, &gb(t.gpu_room_bytes), t.gpu_room_bytes),
        row("ttft", w.kvt_ttft, &format_seconds(ttft(&r)), ttft(&r)),
        row("ttft-bare", w.kvt_ttft_none, &format_seconds(ttft(&bare)), ttft(&bare)),
    ]);
    // The arithmetic, from the engine's record: the working set, each tier's reach, a restore.
    let per_session = t.working_set_bytes / n as f64;
    let mut lines = vec![
        format!("W = n × kv = {} × {} = {}", group_digits(n), gb(per_session), gb(t.working_set_bytes)),
        format!(
            "GPU: min(1, {} / {}) = {}",
            gb(t.gpu_room_bytes),
            gb(t.working_set_bytes),
            format_percent(t.gpu_share)
        ),
    ];
    let mut above = t.gpu_share;
    for (name, u) in [("CPU", &t.cpu), ("SSD", &t.ssd)] {
        let Some(u) = u else { continue };
        lines.push(format!(
            "{name}: max({}, min(1, {} / {})) − {} = {}",
            format_percent(above),
            gb(u.capacity_bytes),
            gb(t.working_set_bytes),
            format_percent(above),
            format_percent(u.share)
        ));
        above += u.share;
        let read = format!(
            "{} / ({} × {})",
            gb(t.history_bytes),
            format_rate(u.bytes_per_s, "B/s"),
            sig(u.read_share)
        );
        lines.push(if u.per_copy_s > 0.0 {
            format!(
                "{name}: ⌈h/B⌉ × t + kv(h) / (B_t × e) = {} × {} + {read} = {}",
                group_digits(crate::engine::num::u64_from_f64(t.copies)),
                format_seconds(u.per_copy_s),
                format_seconds(u.restore_s)
            )
        } else {
            format!("{name}: kv(h) / (B_t × e) = {read} = {}", format_seconds(u.restore_s))
        });
    }
    lines.push(w.kvt_symbols.to_string());
    [
        note(w.kvt_note),
        format!("<figure class=\"chart\">{chart}</figure>"),
        table,
        numbers_dl,
        math(lang, &lines),
    ]
    .concat()
}

/// The speculation widget's scenario: chapter 3's Llama-3.1-8B in BF16 on an H100 SXM (a short chat
/// turn: 128 tokens in, 256 out, batch 1) with an EAGLE-3 head drafting `gamma` tokens a step, each
/// accepted with probability `alpha`, under `stack`.
fn spec_scenario(gamma: u64, alpha: f64, stack: &str) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
    s.gpu = GpuSpec::Id("h100-sxm".into());
    (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(128), Some(256), 384);
    s.speculative_method = Some(crate::engine::workload::SpecMethod::Eagle3);
    (s.speculative_draft_tokens, s.speculative_acceptance_rate) = (Some(gamma), Some(alpha));
    s.serving_stack = match stack {
        "sglang" => crate::engine::stack::ServingStack::Sglang,
        _ => crate::engine::stack::ServingStack::VllmV1,
    };
    s
}

/// Chapter 3: speculative decoding (`engine::perf::speculative`). Tokens per second per user and
/// per GPU with and without the drafter from batch 1 to 512, where speculation stops paying, and
/// at batch 1 the step's parts and the arithmetic, each the engine's report.
fn speculation_view(lang: Lang, v: &Values) -> String {
    let (w, e) = (lang.wid(), lang.est());
    let gamma = crate::engine::num::u64_from_f64(num(v, "gamma")).max(1);
    let alpha = num(v, "alpha") / 100.0;
    let r = match catalog::evaluate(&spec_scenario(gamma, alpha, get(v, "stack"))) {
        Ok(r) => r,
        Err(err) => {
            return format!(
                "<p class=\"field-error\" role=\"alert\">{}</p>",
                escape(&errors::scenario_error(err.scenario_error(), lang))
            )
        }
    };
    let Some(sp) = r.performance.speculative.as_ref() else { return String::new() };
    let chart = crate::estimator::chart_inputs::speculation_chart(&r, e)
        .map(|c| charts::speculation_svg(&c, crate::ui::browser::chart_width()))
        .unwrap_or_default();
    let t = &sp.times;
    let ms = format_seconds;
    let crossover = sp.crossover_batch.map_or_else(|| w.sp_no_crossover.to_string(), group_digits);
    let numbers_dl = numbers(&[
        row("e", w.sp_e, &format!("{:.2}", sp.expected_tokens_per_step), sp.expected_tokens_per_step),
        row("verify", w.sp_verify, &ms(t.verify_s), t.verify_s),
        row("draft-gpu", w.sp_draft_gpu, &ms(t.draft_gpu_s), t.draft_gpu_s),
        row("draft-host", w.sp_draft_host, &ms(t.draft_host_s), t.draft_host_s),
        row("tpot", w.sp_tpot, &ms(sp.time_per_output_token_s), sp.time_per_output_token_s),
        row(
            "tpot-plain",
            w.sp_tpot_plain,
            &ms(sp.time_per_output_token_s_without),
            sp.time_per_output_token_s_without,
        ),
        row("speedup", w.sp_speedup, &format!("{:.2}×", sp.speedup), sp.speedup),
        row("crossover", w.sp_crossover, &crossover, sp.crossover_batch.map_or(0.0, |b| b as f64)),
    ]);
    let lines = vec![
        format!(
            "E = (1 − α^(γ+1)) / (1 − α) = (1 − {}^{}) / (1 − {}) = {:.2}",
            sig(alpha),
            gamma + 1,
            sig(alpha),
            sp.expected_tokens_per_step
        ),
        format!(
            "T_step = T_verify + γ × max(T_gpu, T_host) = {} + {} × max({}, {}) = {}",
            ms(t.verify_s),
            gamma,
            ms(t.draft_gpu_s),
            ms(t.draft_host_s),
            ms(sp.step_s)
        ),
        format!(
            "TPOT = T_step / E = {} / {:.2} = {}; {} / {} = {:.2}×",
            ms(sp.step_s),
            sp.expected_tokens_per_step,
            ms(sp.time_per_output_token_s),
            ms(sp.time_per_output_token_s_without),
            ms(sp.time_per_output_token_s),
            sp.speedup
        ),
    ];
    [note(w.sp_note), format!("<figure class=\"chart\">{chart}</figure>"), numbers_dl, math(lang, &lines)]
        .concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The KV line states the engine's figure: for a sliding-window model (gpt-oss) the
    /// per-token size × the context overstates what one sequence holds (issue 30, item 11).
    #[test]
    fn the_kv_line_is_the_engines_figure_under_sliding_windows() {
        let b = |x: u128| format_bytes_f64(x as f64, ByteUnit::Gb);
        let m = models::find("gpt-oss-120b").unwrap();
        let p = per_sequence(&m.architecture, 1280, Dtype::Bf16, Dtype::Bf16);
        // 18 full layers × 1,280 tokens + 18 sliding layers × 128, at 2,048 bytes per token
        // and layer: 51.9 MB, not 36 × 1,280 × 2,048 = 94.4 MB.
        assert_eq!(p.kv, 2048 * (18 * 1280 + 18 * 128));
        let line = kv_line(p.kv_per_token, 1280, p.kv, &b, "windows");
        assert!(line.ends_with(&format!("→ {} (windows)", b(p.kv))), "{line}");
        assert!(line.contains(&b(94_371_840)), "{line}");
        // Without sliding windows the product is the figure.
        let m = models::find("llama-3.1-8b").unwrap();
        let p = per_sequence(&m.architecture, 1280, Dtype::Bf16, Dtype::Bf16);
        assert_eq!(
            kv_line(p.kv_per_token, 1280, p.kv, &b, "windows"),
            format!("KV = {} × 1,280 = {}", b(p.kv_per_token), b(p.kv))
        );
    }

    /// The prefix-reuse widget shows the engine's numbers: with half the prompt shared, the
    /// cached tokens are the shared prefix, the TTFT is below the cold one, the shared blocks are
    /// stored once, and more requests fit.
    #[test]
    fn the_prefix_widget_shows_the_engines_reuse() {
        let v: Values = defaults("prefix-reuse").iter().map(|(k, d)| (*k, (*d).to_string())).collect();
        let html = prefix_reuse(Lang::En, &v);
        let value = |k: &str| widget_value(&html, k);
        let s = prefix_scenario(&v, 32, 2048, Some(0.0));
        let r = catalog::evaluate(&s).expect("the chapter's example evaluates");
        assert_eq!(value("cached"), 2048.0);
        assert_eq!(value("kv"), r.memory_per_gpu_bytes.kv_cache as f64);
        assert!(value("ttft") < value("ttft-cold"), "{html}");
        assert!(value("kv") < value("kv-cold") && value("fit") > value("fit-cold"), "{html}");
        // A shared prefix longer than the prompt is named, not computed.
        let mut bad = v.clone();
        bad.iter_mut().filter(|(k, _)| *k == "shared").for_each(|(_, x)| *x = "5000".into());
        assert!(prefix_reuse(Lang::En, &bad).contains("field-error"));
    }

    /// The disaggregation widget opens on chapter 14's example: its one pool and two pools are
    /// the section's `gpu-clusters-disagg-agg` and `-1p1d` scenarios, number for number; the two
    /// pools flatten the ITL tail; a layout the engine refuses is named, not computed.
    #[test]
    fn the_disaggregation_widget_shows_the_chapters_example() {
        let v: Values = defaults("disaggregation").iter().map(|(k, d)| (*k, (*d).to_string())).collect();
        let html = disaggregation(Lang::En, &v);
        let value = |k: &str| widget_value(&html, k);
        let load = |name: &str| {
            let json = crate::content::numbers::scenario(name).expect(name);
            let s = crate::exercises::parse_scenario(json).expect(name);
            catalog::evaluate(&s).expect(name).load.expect(name)
        };
        let (one, two) = (load("gpu-clusters-disagg-agg"), load("gpu-clusters-disagg-1p1d"));
        let d = two.disaggregated.as_ref().expect("two pools");
        assert_eq!(value("one-itl-p99"), one.itl_p99_s.unwrap());
        assert_eq!(value("two-itl-p99"), two.itl_p99_s.unwrap());
        assert_eq!(value("one-ttft"), one.ttft_p50_s.unwrap());
        assert_eq!(value("two-ttft"), two.ttft_p50_s.unwrap());
        assert_eq!(value("one-rate"), one.max_sustainable_rate_per_s);
        assert_eq!(value("two-rate"), two.max_sustainable_rate_per_s);
        assert_eq!(value("two-gpus"), d.total_gpus as f64);
        assert_eq!(value("transfer"), d.transfer_bytes as f64);
        assert!(value("two-itl-p99") < value("one-itl-p99") / 10.0, "{html}");
        // Three GPUs cannot split Llama-3.1-70B's heads: named, not computed.
        let mut bad = v.clone();
        bad.iter_mut().filter(|(k, _)| *k == "gpus").for_each(|(_, x)| *x = "3".into());
        assert!(disaggregation(Lang::En, &bad).contains("field-error"));
    }

    /// The number a widget's HTML shows under `data-k="k"` (its `data-value`).
    fn widget_value(html: &str, k: &str) -> f64 {
        let at = html.find(&format!("data-k=\"{k}\" data-value=\"")).expect(k);
        let rest = &html[at + k.len() + 22..];
        rest[..rest.find('"').expect("quote")].parse().expect("number")
    }

    /// The engine's report for one of the chapters' named scenarios.
    fn chapter_report(name: &str) -> crate::engine::Report {
        let json = crate::content::numbers::scenario(name).expect(name);
        let s = crate::exercises::parse_scenario(json).expect(name);
        catalog::evaluate(&s).expect(name)
    }

    /// The speculation widget opens on chapter 3's example: its E, step parts, TPOTs, speed-up and
    /// crossover are the section's `memory-bandwidth-spec` scenario, number for number; SGLang's
    /// drafts have no host floor and gain more; γ out of range is refused.
    #[test]
    fn the_speculation_widget_shows_the_chapters_example() {
        let mut v: Values = defaults("speculation").iter().map(|(k, d)| (*k, (*d).to_string())).collect();
        let html = speculation_view(Lang::En, &v);
        let r = chapter_report("memory-bandwidth-spec");
        let sp = r.performance.speculative.expect("speculative");
        assert_eq!(widget_value(&html, "e"), sp.expected_tokens_per_step);
        assert_eq!(widget_value(&html, "verify"), sp.times.verify_s);
        assert_eq!(widget_value(&html, "draft-gpu"), sp.times.draft_gpu_s);
        assert_eq!(widget_value(&html, "draft-host"), sp.times.draft_host_s);
        assert_eq!(widget_value(&html, "tpot"), sp.time_per_output_token_s);
        assert_eq!(widget_value(&html, "tpot-plain"), sp.time_per_output_token_s_without);
        assert_eq!(widget_value(&html, "speedup"), sp.speedup);
        assert_eq!(widget_value(&html, "crossover"), sp.crossover_batch.expect("a crossover") as f64);
        assert!(html.contains("<svg"), "{html}");
        v.retain(|(k, _)| *k != "stack");
        v.push(("stack", "sglang".to_string()));
        let sglang = speculation_view(Lang::En, &v);
        let s = chapter_report("memory-bandwidth-spec-sglang").performance.speculative.expect("sglang");
        assert_eq!(widget_value(&sglang, "draft-host"), 0.0);
        assert_eq!(widget_value(&sglang, "speedup"), s.speedup);
        assert!(s.speedup > sp.speedup);
        let p = params("speculation", Lang::En);
        assert!(!p.iter().find(|p| p.key == "gamma").expect("gamma").accepts("0"));
        assert!(!p.iter().find(|p| p.key == "alpha").expect("alpha").accepts("100"));
    }

    /// The KV-tier widget opens on chapter 13's example: its shares, times and TTFT are the
    /// section's `capacity-estimation-tiers-ssd` scenario, number for number, and its TTFT with
    /// the GPU alone is `capacity-estimation-tiers-gpu`'s; a session count out of range is named.
    #[test]
    fn the_kv_tier_widget_shows_the_chapters_example() {
        let v: Values = defaults("kv-tiers").iter().map(|(k, d)| (*k, (*d).to_string())).collect();
        let html = kv_tiers_view(Lang::En, &v);
        let value = |k: &str| widget_value(&html, k);
        let r = chapter_report("capacity-estimation-tiers-ssd");
        let t = r.performance.time.kv_tiers.expect("tiers");
        let (cpu, ssd) = (t.cpu.expect("cpu"), t.ssd.expect("ssd"));
        assert_eq!(value("gpu-share"), t.gpu_share);
        assert_eq!(value("cpu-share"), cpu.share);
        assert_eq!(value("ssd-share"), ssd.share);
        assert_eq!(value("cpu-time"), cpu.restore_s);
        assert_eq!(value("ssd-time"), ssd.restore_s);
        assert_eq!(value("recompute-time"), t.recompute_s);
        assert_eq!(value("working-set"), t.working_set_bytes);
        assert_eq!(value("ttft"), r.performance.time.time_to_first_token_s);
        let bare = chapter_report("capacity-estimation-tiers-gpu");
        assert_eq!(value("ttft-bare"), bare.performance.time.time_to_first_token_s);
        assert!(value("ttft") < value("ttft-bare"), "{html}");
        // One bar per session count, the reader's among them, each summing to the whole.
        assert_eq!(html.matches("sessions · TTFT").count(), TIER_SESSIONS.len() + 1, "{html}");
        let p = params("kv-tiers", Lang::En);
        assert!(!p.iter().find(|p| p.key == "n").expect("n").accepts("0"));
        // Twenty sessions fit the GPU: the tiers serve nothing, and their restores (faster than
        // recomputing) are not called slower.
        let few: Values =
            v.iter().map(|(k, d)| (*k, if *k == "n" { "20".into() } else { d.clone() })).collect();
        let html = kv_tiers_view(Lang::En, &few);
        assert!(
            !html.contains(Lang::En.wid().kvt_slower) && html.contains(Lang::En.wid().kvt_unused),
            "{html}"
        );
    }

    /// The wide-EP widget opens on chapter 14's table: its EP 8, 16, 32 and 64 columns are the
    /// section's `gpu-clusters-wep-*` scenarios, number for number; EP 16 is the best per GPU
    /// there; a size whose weights do not fit says so instead of a number.
    #[test]
    fn the_wide_ep_widget_shows_the_chapters_table() {
        let v: Values = defaults("wide-ep").iter().map(|(k, d)| (*k, (*d).to_string())).collect();
        let html = wide_ep(Lang::En, &v);
        let value = |k: &str| widget_value(&html, k);
        for ep in WIDE_EP {
            let r = chapter_report(&format!("gpu-clusters-wep-{ep}"));
            let d = &r.performance.phases.decode;
            assert_eq!(value(&format!("experts-{ep}")), r.layout.experts_per_gpu as f64);
            assert_eq!(value(&format!("exchange-{ep}")), d.expert_parallel_comm_s);
            assert_eq!(value(&format!("step-{ep}")), d.time_s);
            assert_eq!(value(&format!("fit-{ep}")), r.solvers.max_batch.unwrap() as f64);
            let per_gpu = r.performance.throughput.decode_tokens_per_s / ep as f64;
            assert_eq!(value(&format!("rate-{ep}")), per_gpu);
        }
        assert_eq!(value("best"), 16.0, "{html}");
        // On H100s (80 GB) DeepSeek-V3's FP8 weights do not fit 8 GPUs.
        let mut h100 = v.clone();
        h100.iter_mut().filter(|(k, _)| *k == "gpu").for_each(|(_, x)| *x = "h100-sxm".into());
        let html = wide_ep(Lang::En, &h100);
        assert!(html.contains("data-k=\"rate-8\">does not fit"), "{html}");
    }
}

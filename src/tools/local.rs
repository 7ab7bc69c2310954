//! "What runs on my machine": catalog models × llama.cpp file types on the reader's GPU (or
//! Apple chip) with the reader's system memory, each cell the engine's answer
//! ([`crate::engine::local`]): whole on the GPU, with `-ngl n` layers there, or too big; the
//! expected batch-1 decode rate; and per model the best file type that fits whole.
//!
//! The query is `gpu=ID|custom&vram=GB&bw=GB/s&mem=GB&ram=GB&ctx=N&kv=f16|q8_0|q4_0`
//! `[&os=windows|linux][&keep=GB]` (`vram`/`bw` for a custom device, e.g. the bandwidth the
//! WebGPU lab measured; `mem` the memory size of a unified-memory machine; `ram` the host's
//! memory; `os` the operating system of a PC with a discrete GPU; `keep` the memory the
//! operating system and other programs keep, when the reader sets it instead of the platform's
//! rule, [`reserve_rule`]); a value that does not parse is reset to its default and named, never
//! guessed.

use crate::catalog::{self, gpus, models};
use crate::charts::format::{format_bytes, format_rate, ByteUnit};
use crate::engine::gpu::{Gpu, PeakFlops};
use crate::engine::hardware::GpuSpec;
use crate::engine::local::{LocalFit, Verdict};
use crate::engine::precision::file_type::FileType;
use crate::engine::precision::Dtype;
use crate::engine::{ModelSpec, Scenario};
use crate::estimator::state::{encode, EstimatorState};
use crate::html::escape as esc;
use crate::i18n::Lang;
use std::fmt::Write;

/// The models of the table: what people run at home, smallest first (catalog ids; a test
/// checks each exists).
pub const MODELS: [&str; 21] = [
    "llama-3.2-3b",
    "phi-4-mini",
    "gemma-3-4b",
    "qwen3-8b",
    "llama-3.1-8b",
    "ministral-3-8b",
    "gemma-3-12b",
    "mistral-nemo-12b",
    "phi-4",
    "qwen2.5-14b",
    "gpt-oss-20b",
    "gemma-3-27b",
    "qwen3-30b-a3b",
    "qwen3-32b",
    "mixtral-8x7b",
    "llama-3.3-70b",
    "qwen2.5-72b",
    "qwen3-next-80b-a3b",
    "glm-4.5-air",
    "llama-4-scout",
    "gpt-oss-120b",
];

/// The file types of the table's columns, most bits first.
pub const FILE_TYPES: [FileType; 9] = FileType::LADDER;

/// llama.cpp's KV cache formats offered.
pub const KV: [&str; 3] = ["f16", "q8_0", "q4_0"];

/// The device when none (or an unknown one) is given.
pub const DEFAULT_GPU: &str = "rtx-4090";

/// The operating system of a PC with a discrete GPU (a Mac runs macOS; the unified-memory PCs of
/// the catalog, Ryzen AI Max and DGX Spark, run Linux).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Windows,
    Linux,
}

impl System {
    pub fn key(self) -> &'static str {
        match self {
            System::Windows => "windows",
            System::Linux => "linux",
        }
    }
}

/// The published rule for the memory the operating system and other programs keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReserveRule {
    /// macOS: what Metal's GPU working set leaves (`recommendedMaxWorkingSetSize`, Apple's
    /// "approximation of how much memory … this device can use with good performance"; 2/3 of
    /// the memory up to 36 GB and 3/4 above, as llama.cpp's Metal back end logs it:
    /// [`crate::engine::gpu::MemoryKind::gpu_budget`]). The model, on the GPU and in memory
    /// together, must fit the working set.
    MacWorkingSet,
    /// Windows 11 needs 4 GB of memory (Microsoft, "Windows 11 specifications and system
    /// requirements", https://www.microsoft.com/en-us/windows/windows-11-specifications).
    Windows,
    /// A Linux desktop: Ubuntu 26.04 LTS Desktop asks for 6 GB (its release notes' system
    /// requirements, up from 4 GB for 24.04; as reported at
    /// https://securityonline.info/ubuntu-26-04-lts-system-requirements-6gb-ram-upgrade/).
    LinuxDesktop,
}

/// Windows 11's minimum memory, GB as sold.
pub const WINDOWS_RESERVE_GB: u64 = 4;
/// Ubuntu 26.04 LTS Desktop's memory requirement, GB as sold.
pub const LINUX_DESKTOP_RESERVE_GB: u64 = 6;

/// Everything the page keeps in its URL.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalState {
    /// A catalog GPU id, or `custom`.
    pub gpu: String,
    /// A custom device's memory (GB) and bandwidth (GB/s).
    pub vram_gb: f64,
    pub bw_gbs: f64,
    /// A unified-memory machine's memory size (GB), one of its catalog options.
    pub mem_gb: Option<u64>,
    /// The host's memory (GB).
    pub ram_gb: u64,
    /// Tokens of context the cache holds.
    pub context: u64,
    /// KV cache format: `f16`, `q8_0`, `q4_0`.
    pub kv: &'static str,
    /// The operating system of a PC with a discrete GPU.
    pub system: System,
    /// Memory (GB as sold) the operating system and other programs keep, when the reader sets
    /// it; `None`: the platform's rule ([`reserve_rule`]).
    pub keep_gb: Option<f64>,
}

impl Default for LocalState {
    fn default() -> Self {
        LocalState {
            gpu: DEFAULT_GPU.into(),
            vram_gb: 16.0,
            bw_gbs: 400.0,
            mem_gb: None,
            ram_gb: 32,
            context: 8192,
            kv: "f16",
            system: System::Windows,
            keep_gb: None,
        }
    }
}

/// A query key whose value was refused (and reset to its default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field(pub String);

fn positive(v: &str) -> Option<f64> {
    v.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0)
}

/// The state a query describes, and the keys it had to reset.
pub fn parse(query: &str) -> (LocalState, Vec<Field>) {
    let mut s = LocalState::default();
    let mut bad = Vec::new();
    for (k, v) in query.split('&').filter_map(|p| p.split_once('=')) {
        let ok = match k {
            "gpu" if v == "custom" => {
                s.gpu = "custom".into();
                true
            }
            "gpu" => gpus::find(v).map(|g| s.gpu = g.id.clone()).is_some(),
            "vram" => positive(v).filter(|x| *x <= 4096.0).map(|x| s.vram_gb = x).is_some(),
            "bw" => positive(v).filter(|x| *x <= 100_000.0).map(|x| s.bw_gbs = x).is_some(),
            "mem" => {
                v.parse::<u64>().ok().filter(|x| (1..=4096).contains(x)).map(|x| s.mem_gb = Some(x)).is_some()
            }
            "ram" => {
                v.parse::<u64>().ok().filter(|x| (1..=65_536).contains(x)).map(|x| s.ram_gb = x).is_some()
            }
            "ctx" => v
                .parse::<u64>()
                .ok()
                .filter(|x| (256..=1_048_576).contains(x))
                .map(|x| s.context = x)
                .is_some(),
            "kv" => KV.iter().find(|x| **x == v).map(|x| s.kv = x).is_some(),
            "os" => [System::Windows, System::Linux]
                .into_iter()
                .find(|x| x.key() == v)
                .map(|x| s.system = x)
                .is_some(),
            "keep" if v.trim().is_empty() => {
                s.keep_gb = None;
                true
            }
            "keep" => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..=4096.0).contains(x))
                .map(|x| s.keep_gb = Some(x))
                .is_some(),
            _ => true,
        };
        if !ok {
            bad.push(Field(k.to_owned()));
        }
    }
    // A memory size the machine is not sold with falls back to its largest.
    if let Some(m) = s.mem_gb {
        if !memory_options_gb(&s).contains(&m) {
            s.mem_gb = None;
            bad.push(Field("mem".into()));
        }
    }
    (s, bad)
}

/// The canonical query of a state (what [`parse`] reads back unchanged).
pub fn encode_state(s: &LocalState) -> String {
    let mut q = format!("gpu={}", s.gpu);
    if s.gpu == "custom" {
        let _ = write!(q, "&vram={}&bw={}", plain(s.vram_gb), plain(s.bw_gbs));
    }
    if let Some(m) = s.mem_gb {
        let _ = write!(q, "&mem={m}");
    }
    let _ = write!(q, "&ram={}&ctx={}&kv={}", s.ram_gb, s.context, s.kv);
    if s.system != System::Windows {
        let _ = write!(q, "&os={}", s.system.key());
    }
    if let Some(k) = s.keep_gb {
        let _ = write!(q, "&keep={}", plain(k));
    }
    q
}

fn plain(x: f64) -> String {
    let t = format!("{x:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Applies one control's value (`key` as in the query); `false` when it is refused.
pub fn set(s: &mut LocalState, key: &str, value: &str) -> bool {
    let (next, bad) = parse(&format!("{}&{key}={value}", encode_state(s)));
    if !bad.is_empty() {
        return false;
    }
    let gpu_changed = next.gpu != s.gpu;
    *s = next;
    if gpu_changed {
        s.mem_gb = None;
        s.keep_gb = None;
    }
    true
}

/// The platform's rule for what the operating system keeps: macOS on Apple silicon, Linux on the
/// other unified-memory machines, else the PC's operating system.
pub fn reserve_rule(s: &LocalState) -> ReserveRule {
    use crate::engine::gpu::MemoryKind;
    match gpus::find(&s.gpu).map(|g| g.memory_kind) {
        Some(MemoryKind::AppleUnified) => ReserveRule::MacWorkingSet,
        Some(MemoryKind::LinuxGtt | MemoryKind::Unified) => ReserveRule::LinuxDesktop,
        _ => match s.system {
            System::Windows => ReserveRule::Windows,
            System::Linux => ReserveRule::LinuxDesktop,
        },
    }
}

/// The memory the platform's rule keeps for the operating system, in bytes: a Mac's memory less
/// its GPU working set, or the operating system's stated requirement (GB as sold).
pub fn rule_reserve_bytes(s: &LocalState) -> u64 {
    match reserve_rule(s) {
        ReserveRule::MacWorkingSet => {
            let (_, memory) = device(s);
            let m = memory.unwrap_or(0);
            m.saturating_sub(gpus::find(&s.gpu).map_or(m, |g| g.memory_kind.gpu_budget(m)))
        }
        ReserveRule::Windows => as_sold(WINDOWS_RESERVE_GB as f64),
        ReserveRule::LinuxDesktop => as_sold(LINUX_DESKTOP_RESERVE_GB as f64),
    }
}

/// The memory kept for the operating system and other programs: the reader's, else the rule's.
pub fn reserve_bytes(s: &LocalState) -> u64 {
    s.keep_gb.map_or_else(|| rule_reserve_bytes(s), as_sold)
}

/// The memory sizes (GB) the chosen machine is sold with (unified-memory machines).
pub fn memory_options_gb(s: &LocalState) -> Vec<u64> {
    gpus::find(&s.gpu)
        .map(|g| g.memory_options_bytes.iter().map(|b| b / 1_000_000_000).collect())
        .unwrap_or_default()
}

/// A memory size as sold, in bytes, at its binary size: "24 GB" of GDDR, HBM or LPDDR, like a
/// "32 GB" DIMM kit, is taken as 24 GiB (chips come in powers of two; an RTX 4090 reports
/// 24,564 MiB, a little less, RLinf/RLinf issue #255, 2025-11-12; a 16 GB Mac's Metal budget is
/// 2/3 of 16 GiB). This tool asks what runs on the reader's machine, so it takes this size,
/// close to what such a machine reports (not exactly: the driver and, on GDDR with ECC on, the
/// check bits take some); the catalog and the estimator keep the site's convention, the
/// vendor's figure in decimal (80 GB = 80×10⁹ B, chapter 2), and the method text names the
/// difference.
pub fn as_sold(gb: f64) -> u64 {
    (gb * GIB as f64) as u64
}

const GIB: u64 = 1 << 30;

/// What llama.cpp's `--fit` leaves free on the GPU (`--fit-target`, 1024 MiB by default,
/// tools/fit-params/README.md); the engine's runtime overhead (1 GiB: the CUDA or Metal context)
/// comes on top.
pub const FIT_MARGIN_BYTES: u64 = GIB;

/// The device as the engine takes it: a catalog id, or a custom GPU of the state's memory and
/// bandwidth (its compute peak, 100 FLOP per byte of bandwidth, matters little to decoding);
/// with its memory as sold ([`as_sold`]).
fn device(s: &LocalState) -> (GpuSpec, Option<u64>) {
    if s.gpu == "custom" {
        let bw = s.bw_gbs * 1e9;
        let g = Gpu {
            id: "custom".into(),
            name: "Custom GPU".into(),
            memory_bytes: as_sold(s.vram_gb),
            memory_bandwidth_bytes_per_s: bw,
            peak_flops: PeakFlops { fp16: Some(bw * 100.0), ..PeakFlops::default() },
            ..Gpu::default()
        };
        return (GpuSpec::Custom(Box::new(g)), None);
    }
    let catalog = gpus::find(&s.gpu).map(|g| g.memory_bytes / 1_000_000_000);
    (GpuSpec::Id(s.gpu.clone()), s.mem_gb.or(catalog).map(|m| as_sold(m as f64)))
}

/// The memory the GPU may use on the chosen device, as sold ([`as_sold`]) and shared as its kind
/// shares it.
fn gpu_budget(s: &LocalState) -> u64 {
    let (spec, memory) = device(s);
    match spec {
        GpuSpec::Custom(g) => g.memory_bytes,
        GpuSpec::Id(id) => {
            gpus::find(&id).map_or(0, |g| g.memory_kind.gpu_budget(memory.unwrap_or(g.memory_bytes)))
        }
    }
}

fn unified(s: &LocalState) -> bool {
    gpus::find(&s.gpu).is_some_and(|g| g.memory_kind.is_unified())
}

/// The scenario of one cell.
pub fn scenario(s: &LocalState, model: &str, ft: FileType) -> Scenario {
    let mut sc = Scenario::new(ModelSpec::Id(model.to_owned()));
    let (gpu, memory) = device(s);
    sc.gpu = gpu;
    sc.gpu_memory_bytes = memory;
    sc.weight_dtype = Some(Dtype::Gguf(ft));
    sc.kv_dtype = Dtype::parse(s.kv);
    sc.context_tokens = s.context;
    // llama.cpp's margin as a share of what the GPU may use (at most the scenario's 0.9).
    sc.safety_margin = (FIT_MARGIN_BYTES as f64 / gpu_budget(s).max(1) as f64).min(0.9);
    if !unified(s) {
        sc.host_memory_bytes = Some(as_sold(s.ram_gb as f64));
    }
    sc.host_reserve_bytes = reserve_bytes(s);
    sc
}

/// One row of the table: a model and its cells (`None`: the engine refused the scenario).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub model: &'static str,
    pub cells: Vec<Option<LocalFit>>,
}

impl Row {
    /// The file type with the most bits that fits whole on the GPU.
    pub fn best_whole(&self) -> Option<FileType> {
        FILE_TYPES
            .iter()
            .zip(&self.cells)
            .find(|(_, c)| c.is_some_and(|c| c.verdict == Verdict::Full))
            .map(|(t, _)| *t)
    }
}

/// Every row, computed.
pub fn rows(s: &LocalState) -> Vec<Row> {
    MODELS
        .iter()
        .map(|m| Row {
            model: m,
            cells: FILE_TYPES.iter().map(|t| catalog::local_fit(&scenario(s, m, *t)).ok()).collect(),
        })
        .collect()
}

/// The estimator's link for a cell: the scenario with the placement found.
pub fn estimator_href(lang: Lang, s: &LocalState, model: &str, ft: FileType, fit: &LocalFit) -> String {
    let mut sc = scenario(s, model, ft);
    if let Verdict::Offload { gpu_layers, of, n_cpu_moe } = fit.verdict {
        sc.gpu_layers = (gpu_layers < of).then_some(gpu_layers);
        sc.n_cpu_moe = n_cpu_moe;
    }
    let st = EstimatorState { scenario: sc, ..EstimatorState::default() };
    format!("#/{}/estimate/?{}", lang.code(), encode(&st))
}

/// The device, memory, context and cache controls (static HTML; events are delegated by
/// `data-k`), each label in one box with its control: the grid lays the boxes out, so a label
/// never lands over another field's control when the columns change with the width.
pub fn controls_html(lang: Lang, s: &LocalState, prefix: &str) -> String {
    let t = lang.local();
    let mut h = String::new();
    let _ = write!(
        h,
        "<div class=\"local-field\"><label for=\"{prefix}-gpu\">{}</label><select id=\"{prefix}-gpu\" data-k=\"gpu\">",
        esc(t.device)
    );
    for g in gpus::all().iter().filter(|g| g.memory_bytes <= 200_000_000_000 || g.memory_kind.is_unified()) {
        let sel = if g.id == s.gpu { " selected" } else { "" };
        let _ = write!(
            h,
            "<option value=\"{}\"{sel}>{} · {}</option>",
            esc(&g.id),
            esc(&g.name),
            format_bytes(g.memory_bytes, ByteUnit::Gb)
        );
    }
    let sel = if s.gpu == "custom" { " selected" } else { "" };
    let _ = write!(h, "<option value=\"custom\"{sel}>{}</option></select></div>", esc(t.custom));
    if s.gpu == "custom" {
        number(&mut h, prefix, "vram", t.vram, "GB", &plain(s.vram_gb));
        number(&mut h, prefix, "bw", t.bandwidth, "GB/s", &plain(s.bw_gbs));
    }
    let options = memory_options_gb(s);
    if !options.is_empty() {
        let current = s.mem_gb.unwrap_or(*options.last().unwrap_or(&0));
        let _ = write!(
            h,
            "<div class=\"local-field\"><label for=\"{prefix}-mem\">{}</label><select id=\"{prefix}-mem\" data-k=\"mem\">",
            esc(t.unified_memory)
        );
        for m in options {
            let sel = if m == current { " selected" } else { "" };
            let _ = write!(h, "<option value=\"{m}\"{sel}>{m} GB</option>");
        }
        h.push_str("</select></div>");
    } else {
        number(&mut h, prefix, "ram", t.ram, "GB", &s.ram_gb.to_string());
    }
    if !unified(s) {
        let _ = write!(
            h,
            "<div class=\"local-field\"><label for=\"{prefix}-os\">{}</label><select id=\"{prefix}-os\" data-k=\"os\">",
            esc(t.os)
        );
        for (sys, name) in [System::Windows, System::Linux].into_iter().zip(t.os_options) {
            let sel = if sys == s.system { " selected" } else { "" };
            let _ = write!(h, "<option value=\"{}\"{sel}>{}</option>", sys.key(), esc(name));
        }
        h.push_str("</select></div>");
    }
    let keep = s.keep_gb.unwrap_or_else(|| rule_reserve_bytes(s) as f64 / GIB as f64);
    number(&mut h, prefix, "keep", t.keep, "GB", &plain(keep));
    number(&mut h, prefix, "ctx", t.context, t.tokens, &s.context.to_string());
    let _ = write!(
        h,
        "<div class=\"local-field\"><label for=\"{prefix}-kv\">{}</label><select id=\"{prefix}-kv\" data-k=\"kv\">",
        esc(t.kv)
    );
    for k in KV {
        let sel = if k == s.kv { " selected" } else { "" };
        let _ = write!(h, "<option value=\"{k}\"{sel}>{}</option>", k.to_ascii_uppercase());
    }
    h.push_str("</select></div>");
    format!("<div class=\"local-controls\">{h}</div>")
}

fn number(h: &mut String, prefix: &str, key: &str, label: &str, unit: &str, value: &str) {
    let _ = write!(
        h,
        "<div class=\"local-field\"><label for=\"{prefix}-{key}\">{} ({})</label><input type=\"number\" id=\"{prefix}-{key}\" data-k=\"{key}\" min=\"0\" value=\"{}\"></div>",
        esc(label),
        esc(unit),
        esc(value)
    );
}

/// llama.cpp's flags for a partial placement: `--n-cpu-moe m/L` (every layer on the GPU, the
/// first `m` layers' experts in host memory), `-ngl n/N` (the first layers in host memory), with
/// `--cpu-moe` when every expert is there too.
pub fn flags(gpu_layers: u64, of: u64, n_cpu_moe: u64) -> String {
    let layers = of.saturating_sub(1);
    match (gpu_layers >= of, n_cpu_moe) {
        (true, m) => format!("--n-cpu-moe {m}/{layers}"),
        (false, 0) => format!("-ngl {gpu_layers}/{of}"),
        (false, m) if m >= layers => format!("-ngl {gpu_layers}/{of} --cpu-moe"),
        (false, m) => format!("-ngl {gpu_layers}/{of} --n-cpu-moe {m}"),
    }
}

/// One cell: the verdict and the rate, linked to the estimator.
fn cell_html(lang: Lang, s: &LocalState, model: &str, ft: FileType, fit: Option<&LocalFit>) -> String {
    let t = lang.local();
    let Some(f) = fit else { return format!("<td class=\"local-cell none\">{}</td>", esc(t.refused)) };
    let rate = format_rate(f.tokens_per_s, t.tok_s);
    let (class, text) = match f.verdict {
        Verdict::Full => ("full", format!("{} · {rate}", t.fits)),
        Verdict::Offload { gpu_layers, of, n_cpu_moe } => {
            ("partial", format!("{} · {rate}", flags(gpu_layers, of, n_cpu_moe)))
        }
        Verdict::TooBig => ("too-big", t.too_big.to_owned()),
    };
    let title = t
        .cell_title
        .replace("{size}", &format!("{:.2} GiB", f.model_bytes as f64 / f64::from(1u32 << 30)))
        .replace("{gpu}", &format_bytes(f.gpu_bytes, ByteUnit::Gib))
        .replace("{usable}", &format_bytes(f.usable_bytes, ByteUnit::Gib))
        .replace("{host}", &format_bytes(f.host_bytes, ByteUnit::Gib))
        .replace("{bound}", &format_rate(f.tokens_per_s_bound, t.tok_s));
    if f.verdict == Verdict::TooBig {
        return format!("<td class=\"local-cell {class}\" title=\"{}\">{}</td>", esc(&title), esc(&text));
    }
    let href = estimator_href(lang, s, model, ft, f);
    format!(
        "<td class=\"local-cell {class}\" title=\"{}\"><a href=\"{}\">{}</a></td>",
        esc(&title),
        esc(&href),
        esc(&text)
    )
}

/// The table: a row per model, a column per file type, and the best whole fit.
pub fn results_html(lang: Lang, s: &LocalState, rows: &[Row]) -> String {
    let t = lang.local();
    let mut h = String::from("<div class=\"table-scroll\"><table class=\"local-table\"><thead><tr>");
    let _ = write!(h, "<th scope=\"col\">{}</th><th scope=\"col\">{}</th>", esc(t.model), esc(t.best));
    for ft in FILE_TYPES {
        let _ = write!(h, "<th scope=\"col\">{}</th>", ft.name());
    }
    h.push_str("</tr></thead><tbody>");
    for r in rows {
        let name = models::find(r.model).map_or(r.model, |m| m.model.name.as_str());
        let best = r.best_whole().map_or_else(|| t.none_whole.to_owned(), |b| b.name().to_owned());
        let _ = write!(
            h,
            "<tr data-model=\"{}\"><th scope=\"row\">{}</th><td class=\"best\">{}</td>",
            esc(r.model),
            esc(name),
            esc(&best)
        );
        for (ft, c) in FILE_TYPES.iter().zip(&r.cells) {
            h.push_str(&cell_html(lang, s, r.model, *ft, c.as_ref()));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>");
    h
}

/// What the page states under its table: how the verdicts and the rates are found.
pub fn method_html(lang: Lang) -> String {
    let t = lang.local();
    format!("<p class=\"hint\">{}</p>", esc(t.method))
}

/// The rule the memory kept for the operating system follows on this platform, with its
/// source, and what it keeps here (or that the reader set it).
pub fn reserve_html(lang: Lang, s: &LocalState, prefix: &str) -> String {
    let t = lang.local();
    let gb = |b: u64| plain(b as f64 / GIB as f64);
    let rule = match reserve_rule(s) {
        ReserveRule::MacWorkingSet => {
            let (_, memory) = device(s);
            t.keep_mac
                .replace("{keep}", &gb(rule_reserve_bytes(s)))
                .replace("{memory}", &gb(memory.unwrap_or(0)))
        }
        ReserveRule::Windows => t.keep_windows.to_owned(),
        ReserveRule::LinuxDesktop => t.keep_linux.to_owned(),
    };
    let set = s.keep_gb.map_or_else(String::new, |k| t.keep_set.replace("{keep}", &plain(k)));
    format!("<p class=\"hint\" id=\"{prefix}-keep-rule\">{}{}</p>", esc(&rule), esc(&set))
}

/// The notice for refused query keys.
pub fn notice_html(lang: Lang, bad: &[Field]) -> String {
    if bad.is_empty() {
        return String::new();
    }
    let t = lang.local();
    let keys: Vec<String> = bad.iter().map(|f| format!("<code>{}</code>", esc(&f.0))).collect();
    format!("<div class=\"banner warn\" role=\"status\">{} {}</div>", esc(t.repaired), keys.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_is_in_the_catalog_and_the_query_round_trips() {
        for m in MODELS {
            assert!(models::find(m).is_some(), "{m}");
        }
        let s = LocalState { ram_gb: 64, context: 16384, kv: "q8_0", ..LocalState::default() };
        assert_eq!(parse(&encode_state(&s)), (s.clone(), vec![]));
        let custom = LocalState { gpu: "custom".into(), vram_gb: 12.0, bw_gbs: 360.5, ..s };
        assert_eq!(parse(&encode_state(&custom)).0, custom);
        let (d, bad) = parse("gpu=nope&ctx=3&kv=q9&ram=64");
        assert_eq!((d.gpu.as_str(), d.context, d.kv, d.ram_gb), (DEFAULT_GPU, 8192, "f16", 64));
        assert_eq!(bad, vec![Field("gpu".into()), Field("ctx".into()), Field("kv".into())]);
    }

    /// Every platform keeps a published reserve for the operating system (issue 30, item 10):
    /// a 64 GB Mac ran gpt-oss-120b at 50 tokens/s with 60.8 of its 64 GiB used.
    #[test]
    fn the_operating_system_keeps_its_memory_on_every_platform() {
        let col = |ft: FileType| FILE_TYPES.iter().position(|t| *t == ft).unwrap();
        let cell =
            |s: &LocalState, model: &str, ft: FileType| catalog::local_fit(&scenario(s, model, ft)).unwrap();
        // A 64 GB M4 Max: macOS keeps what the GPU's working set (3/4) leaves, 16 GiB.
        let mac = LocalState { gpu: "apple-m4-max-40c".into(), mem_gb: Some(64), ..LocalState::default() };
        assert_eq!(reserve_rule(&mac), ReserveRule::MacWorkingSet);
        assert_eq!(reserve_bytes(&mac), 16 * GIB);
        let oss = cell(&mac, "gpt-oss-120b", FileType::LADDER[col(FileType::Q8_0)]);
        assert_eq!(oss.verdict, Verdict::TooBig, "{oss:?}");
        // Asking the Mac to keep only 2 GB lets it run again, partly outside the working set
        // (61 GiB of its 64).
        let lean = LocalState { keep_gb: Some(2.0), ..mac.clone() };
        assert_eq!(parse(&encode_state(&lean)).0, lean);
        let oss = cell(&lean, "gpt-oss-120b", FileType::LADDER[col(FileType::Q8_0)]);
        assert!(matches!(oss.verdict, Verdict::Offload { .. }), "{oss:?}");
        // A 36 GB Mac keeps a third, 12 GiB.
        let small = LocalState { gpu: "apple-m3-pro-18c".into(), mem_gb: Some(36), ..LocalState::default() };
        assert_eq!(reserve_bytes(&small), 12 * GIB);
        // A PC: Windows 11's 4 GB, a Linux desktop's 6 GB, taken from its system memory.
        let pc = LocalState::default();
        assert_eq!((reserve_rule(&pc), reserve_bytes(&pc)), (ReserveRule::Windows, 4 * GIB));
        let linux = LocalState { system: System::Linux, ..pc.clone() };
        assert_eq!(parse(&encode_state(&linux)).0, linux);
        assert_eq!(reserve_bytes(&linux), 6 * GIB);
        assert_eq!(scenario(&linux, "llama-3.3-70b", FileType::Q4_K_M).host_reserve_bytes, 6 * GIB);
        // A 70B at Q4_K_M on a 24 GB card leaves about 19 GiB in host memory: with 24 GB of
        // RAM it runs under no reserve, not once Windows keeps its 4 GB.
        let tight = LocalState { ram_gb: 24, keep_gb: Some(0.0), ..pc.clone() };
        let ok = cell(&tight, "llama-3.3-70b", FileType::Q4_K_M);
        assert!(matches!(ok.verdict, Verdict::Offload { .. }) && ok.host_bytes > 18 * GIB, "{ok:?}");
        let kept = LocalState { keep_gb: None, ..tight };
        assert_eq!(cell(&kept, "llama-3.3-70b", FileType::Q4_K_M).verdict, Verdict::TooBig);
        // The Ryzen AI Max+ 395 runs Linux.
        let strix = LocalState { gpu: "ryzen-ai-max-395".into(), ..LocalState::default() };
        assert_eq!(reserve_rule(&strix), ReserveRule::LinuxDesktop);
        // The rule is stated with its source in both languages; a reader's figure says so.
        for lang in [Lang::En, Lang::Zh] {
            let html = reserve_html(lang, &mac, "local");
            assert!(html.contains("recommendedMaxWorkingSetSize") && html.contains("16"), "{html}");
            assert!(reserve_html(lang, &pc, "local").contains("Windows 11"));
            assert!(reserve_html(lang, &lean, "local").contains("2 GB"));
            let controls = controls_html(lang, &pc, "local");
            assert!(controls.contains("data-k=\"keep\"") && controls.contains("data-k=\"os\""));
            assert!(!controls_html(lang, &mac, "local").contains("data-k=\"os\""), "a Mac runs macOS");
        }
    }

    #[test]
    fn an_8b_model_fits_a_4090_whole_and_a_70b_needs_offload() {
        let s = LocalState::default();
        let r = rows(&s);
        let row = |m: &str| r.iter().find(|x| x.model == m).unwrap();
        assert_eq!(row("llama-3.1-8b").best_whole(), Some(FileType::Q8_0));
        let big = row("llama-3.3-70b");
        let q4 = big.cells[3].unwrap();
        assert!(matches!(q4.verdict, Verdict::Offload { .. }), "{q4:?}");
        assert!(q4.tokens_per_s > 0.5 && q4.tokens_per_s < 10.0);
        // The most bits fitting whole means every file type does; the fewest not fitting, none.
        for row in &r {
            let whole: Vec<bool> =
                row.cells.iter().map(|c| c.is_some_and(|c| c.verdict == Verdict::Full)).collect();
            if whole[0] {
                assert!(whole.iter().all(|w| *w), "{}: {whole:?}", row.model);
            }
            if !whole[whole.len() - 1] {
                assert!(!whole.iter().any(|w| *w), "{}: {whole:?}", row.model);
            }
        }
        let html = results_html(Lang::En, &s, &r);
        assert!(html.contains("-ngl ") && html.contains("/estimate/?v=1"));
    }
}

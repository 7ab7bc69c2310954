//! The planner's state in the URL and its repair.
//!
//! The query is `m=MODEL&w=DTYPE&kv=DTYPE&gpu=GPU&rate=REQ_PER_S&in=TOKENS&out=TOKENS&
//! ttft=S&tpot=MS&head=PERCENT&seqs=N[&ttftp=50|90|95|99][&tpotp=50|90|95|99][&net=ib|efa]
//! [&pre=TOKENS][&hit=PERCENT][&ses=N][&cpu=GB][&ssd=GB][&gpc=off][&pd=off|P:D][&cfg=BASE64URL]`
//! (`pre`: a shared prefix, at most the prompt; `hit`: the prefix cache's hit rate, both absent
//! when 0; `ses`, `cpu`, `ssd`, `gpc`: KV cache tiers, open sessions per replica, a CPU and an SSD
//! tier per GPU in GB, GPU prefix caching off, each absent at its default; `pd`: the disaggregated
//! comparison off, or at one prefill:decode ratio, absent when it searches the ratios
//! ([`Pd::Auto`]), as every link before it meant); a link without `ttftp`/`tpotp` (every link before they existed) means p95,
//! the planner's only percentile then. A value that does not parse or is out of
//! range is reset to its default and named (`Field`), never guessed. `cfg` is a pasted
//! Hugging Face `config.json` (its JSON, base64url without padding), used instead of `m`.

use crate::catalog::{self, gpus};
use crate::engine::model::config::parse_config;
use crate::engine::precision::Dtype;
use crate::engine::ScenarioError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::Value;

/// Weight formats offered besides "as published" (what a serving engine loads: 16-bit, FP8,
/// 8- and 4-bit checkpoints, block-scaled FP4).
pub const WEIGHTS: [Dtype; 6] =
    [Dtype::Bf16, Dtype::Fp8, Dtype::Int8, Dtype::Int4, Dtype::Mxfp4, Dtype::Nvfp4];
/// KV cache formats offered (vLLM `--kv-cache-dtype auto|fp8`).
pub const KV: [Dtype; 2] = [Dtype::Bf16, Dtype::Fp8];
/// Tensor-parallel degrees tried, within one 8-GPU node.
pub const TP_DEGREES: [u64; 4] = [1, 2, 4, 8];
/// GPUs per node of a plan across nodes (the 8-GPU servers of the catalog's instances).
pub const GPUS_PER_NODE: u64 = 8;
/// Nodes a plan may span when one node cannot hold the model.
pub const NODES: [u64; 2] = [2, 4];

/// The network joining the nodes of a plan across nodes (a GPU with NVLink inside its node;
/// a PCIe card's nodes are joined by InfiniBand HDR whichever is chosen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Net {
    /// InfiniBand NDR, one 400 Gbit/s port per GPU (Azure ND H100/H200 v5).
    Ib,
    /// AWS EFA as on p5 (3,200 Gbit/s per 8 GPUs).
    Efa,
}

impl Net {
    pub fn key(self) -> &'static str {
        match self {
            Net::Ib => "ib",
            Net::Efa => "efa",
        }
    }
}

/// Prefill:decode ratios of a disaggregated unit, prefill workers first (see
/// [`super::disagg::RATIOS`] for why these).
pub use super::disagg::RATIOS;

/// The comparison with a disaggregated prefill/decode deployment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pd {
    /// Compared, at the ratio the search finds best.
    Auto,
    /// Not compared (the plan alone, as before the comparison existed; less work).
    Off,
    /// Compared at this ratio only: (prefill workers, decode workers) of a unit.
    Ratio(u64, u64),
}

impl Pd {
    /// As in the URL and the menu: `auto`, `off`, `P:D`.
    pub fn key(self) -> String {
        match self {
            Pd::Auto => "auto".into(),
            Pd::Off => "off".into(),
            Pd::Ratio(p, d) => format!("{p}:{d}"),
        }
    }
    fn of(v: &str) -> Option<Pd> {
        match v.trim() {
            "auto" => Some(Pd::Auto),
            "off" => Some(Pd::Off),
            v => {
                let (p, d) = v.split_once(':')?;
                let r = (p.trim().parse().ok()?, d.trim().parse().ok()?);
                RATIOS.contains(&r).then_some(Pd::Ratio(r.0, r.1))
            }
        }
    }
}

/// The percentile a latency target is met at (over the requests of the load simulation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pct {
    P50,
    P90,
    P95,
    P99,
}

impl Pct {
    pub const ALL: [Pct; 4] = [Pct::P50, Pct::P90, Pct::P95, Pct::P99];
    /// Its number, as in the URL and as printed after "p".
    pub fn key(self) -> &'static str {
        match self {
            Pct::P50 => "50",
            Pct::P90 => "90",
            Pct::P95 => "95",
            Pct::P99 => "99",
        }
    }
    fn of(v: &str) -> Option<Pct> {
        Pct::ALL.into_iter().find(|p| p.key() == v.trim().trim_start_matches(['p', 'P']))
    }
}

/// What the reader plans for.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanState {
    pub model: String,
    /// `None`: as the checkpoint ships (its `quantization_config`, else 16-bit).
    pub weights: Option<Dtype>,
    pub kv: Dtype,
    pub gpu: String,
    /// Peak arrivals, requests per second, over the whole service.
    pub peak_rate: f64,
    /// Peak concurrent users over the whole service, each sending its next request when the
    /// last completes (a closed loop). When set, the plan is sized for them, not `peak_rate`.
    pub peak_users: Option<u64>,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// Time to first token target, seconds, at percentile `ttft_pct`.
    pub ttft_s: f64,
    /// Time per output token target, milliseconds, at percentile `tpot_pct`.
    pub tpot_ms: f64,
    pub ttft_pct: Pct,
    pub tpot_pct: Pct,
    /// Tokens of a shared prefix every request starts with (at most the prompt).
    pub prefix_shared: u64,
    /// The prefix cache's hit rate, percent.
    pub hit_pct: f64,
    /// Open sessions per replica whose histories are kept for reuse (0: not counted).
    pub sessions: u64,
    /// A CPU-memory and an SSD tier of the KV cache per GPU, decimal GB (0: none).
    pub cpu_tier_gb: f64,
    pub ssd_tier_gb: f64,
    /// Whether finished sequences' prefixes stay in the GPU's free KV memory (vLLM's default).
    pub gpu_cache: bool,
    /// The share of each replica's capacity kept free at peak, percent: a replica runs at no
    /// more than (1 − headroom) of the load its targets allow (below 100).
    pub headroom_pct: f64,
    /// The scheduler's most concurrent sequences per replica (vLLM `--max-num-seqs`), before the
    /// KV cache bounds it.
    pub max_seqs: u64,
    /// A pasted `config.json` (a JSON object the engine reads), used instead of `model`.
    pub config: Option<Value>,
    /// The network between nodes, when one node is not enough.
    pub net: Net,
    /// The disaggregated comparison: searched, off, or at one ratio.
    pub pd: Pd,
}

impl Default for PlanState {
    fn default() -> Self {
        PlanState {
            model: "llama-3.1-8b".into(),
            weights: None,
            kv: Dtype::Bf16,
            gpu: "h100-sxm".into(),
            peak_rate: 20.0,
            peak_users: None,
            prompt_tokens: 1024,
            output_tokens: 256,
            ttft_s: 1.0,
            tpot_ms: 50.0,
            ttft_pct: Pct::P95,
            tpot_pct: Pct::P95,
            prefix_shared: 0,
            hit_pct: 0.0,
            sessions: 0,
            cpu_tier_gb: 0.0,
            ssd_tier_gb: 0.0,
            gpu_cache: true,
            headroom_pct: 20.0,
            max_seqs: 256,
            config: None,
            net: Net::Ib,
            pd: Pd::Auto,
        }
    }
}

/// A field of the query that was reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Model,
    Weights,
    Kv,
    Gpu,
    Rate,
    Prompt,
    Output,
    Ttft,
    Tpot,
    TtftPct,
    TpotPct,
    Prefix,
    HitRate,
    Headroom,
    MaxSeqs,
    Config,
    Users,
    Network,
    Disagg,
    Sessions,
    CpuTier,
    SsdTier,
    GpuCache,
}

/// Ranges each number may take (inclusive).
pub const RATE: (f64, f64) = (0.01, 100_000.0);
pub const USERS: (u64, u64) = (1, 1_000_000);
pub const PROMPT: (u64, u64) = (1, 1_048_576);
pub const OUTPUT: (u64, u64) = (1, 65_536);
pub const TTFT: (f64, f64) = (0.01, 600.0);
pub const TPOT: (f64, f64) = (1.0, 10_000.0);
pub const HEADROOM: (f64, f64) = (0.0, 90.0);
pub const HIT: (f64, f64) = (0.0, 100.0);
pub const SEQS: (u64, u64) = (1, 4096);
/// The engine's ranges of the KV tiers: sessions, and the tiers in GB (2^50 and 2^55 bytes).
pub const SESSIONS: (u64, u64) = (0, 100_000_000);
pub const CPU_TIER_GB: (f64, f64) = (0.0, 1_000_000.0);
pub const SSD_TIER_GB: (f64, f64) = (0.0, 30_000_000.0);

fn in_f64(v: &str, (lo, hi): (f64, f64)) -> Option<f64> {
    v.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= lo && *x <= hi)
}

fn in_u64(v: &str, (lo, hi): (u64, u64)) -> Option<u64> {
    v.trim().parse::<u64>().ok().filter(|x| (lo..=hi).contains(x))
}

fn dtype(v: &str, offered: &[Dtype]) -> Option<Dtype> {
    offered.iter().copied().find(|d| d.name() == v)
}

/// Sets one field from the text a reader typed or a query holds; false (and nothing changed)
/// when the text is not a value the field takes.
pub fn set(s: &mut PlanState, key: &str, v: &str) -> bool {
    match key {
        "m" => catalog::models::find(v).map(|_| s.model = v.to_owned()).is_some(),
        "w" if v == "auto" => {
            s.weights = None;
            true
        }
        "w" => dtype(v, &WEIGHTS).map(|d| s.weights = Some(d)).is_some(),
        "kv" => dtype(v, &KV).map(|d| s.kv = d).is_some(),
        "gpu" => gpus::find(v).map(|_| s.gpu = v.to_owned()).is_some(),
        "rate" => in_f64(v, RATE).map(|x| s.peak_rate = x).is_some(),
        // Empty or 0: plan for the request rate.
        "users" if matches!(v.trim(), "" | "0") => {
            s.peak_users = None;
            true
        }
        "users" => in_u64(v, USERS).map(|x| s.peak_users = Some(x)).is_some(),
        "in" => in_u64(v, PROMPT)
            .map(|x| {
                s.prompt_tokens = x;
                s.prefix_shared = s.prefix_shared.min(x);
            })
            .is_some(),
        // A shared prefix longer than the prompt is refused.
        "pre" => in_u64(v, (0, s.prompt_tokens)).map(|x| s.prefix_shared = x).is_some(),
        "hit" => in_f64(v, HIT).map(|x| s.hit_pct = x).is_some(),
        "ses" => in_u64(v, SESSIONS).map(|x| s.sessions = x).is_some(),
        "cpu" => in_f64(v, CPU_TIER_GB).map(|x| s.cpu_tier_gb = x).is_some(),
        "ssd" => in_f64(v, SSD_TIER_GB).map(|x| s.ssd_tier_gb = x).is_some(),
        "gpc" => match v.trim() {
            "on" => Some(true),
            "off" => Some(false),
            _ => None,
        }
        .map(|on| s.gpu_cache = on)
        .is_some(),
        "out" => in_u64(v, OUTPUT).map(|x| s.output_tokens = x).is_some(),
        "ttft" => in_f64(v, TTFT).map(|x| s.ttft_s = x).is_some(),
        "tpot" => in_f64(v, TPOT).map(|x| s.tpot_ms = x).is_some(),
        "ttftp" => Pct::of(v).map(|p| s.ttft_pct = p).is_some(),
        "tpotp" => Pct::of(v).map(|p| s.tpot_pct = p).is_some(),
        "head" => in_f64(v, HEADROOM).map(|x| s.headroom_pct = x).is_some(),
        "seqs" => in_u64(v, SEQS).map(|x| s.max_seqs = x).is_some(),
        "net" => [Net::Ib, Net::Efa].into_iter().find(|n| n.key() == v).map(|n| s.net = n).is_some(),
        "pd" => Pd::of(v).map(|p| s.pd = p).is_some(),
        "cfg" => URL_SAFE_NO_PAD
            .decode(v.trim())
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .is_some_and(|c| set_config(s, c).is_ok()),
        _ => false,
    }
}

fn field_of(key: &str) -> Option<Field> {
    Some(match key {
        "m" => Field::Model,
        "w" => Field::Weights,
        "kv" => Field::Kv,
        "gpu" => Field::Gpu,
        "rate" => Field::Rate,
        "in" => Field::Prompt,
        "out" => Field::Output,
        "ttft" => Field::Ttft,
        "tpot" => Field::Tpot,
        "ttftp" => Field::TtftPct,
        "tpotp" => Field::TpotPct,
        "pre" => Field::Prefix,
        "hit" => Field::HitRate,
        "head" => Field::Headroom,
        "seqs" => Field::MaxSeqs,
        "cfg" => Field::Config,
        "users" => Field::Users,
        "net" => Field::Network,
        "pd" => Field::Disagg,
        "ses" => Field::Sessions,
        "cpu" => Field::CpuTier,
        "ssd" => Field::SsdTier,
        "gpc" => Field::GpuCache,
        _ => return None,
    })
}

/// Why a pasted config cannot be used.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigProblem {
    /// Not JSON (serde_json's line and column, 1-based).
    NotJson { line: usize, column: usize },
    /// JSON, but not an object.
    NotObject,
    /// The engine cannot read it (the error names the field).
    Model(ScenarioError),
}

/// Uses a pasted config (already JSON) instead of the catalog model, when the engine reads it.
pub fn set_config(s: &mut PlanState, config: Value) -> Result<(), ConfigProblem> {
    if !config.is_object() {
        return Err(ConfigProblem::NotObject);
    }
    parse_config(&config).map_err(ConfigProblem::Model)?;
    s.config = Some(config);
    Ok(())
}

/// Uses the config pasted as text.
pub fn paste_config(s: &mut PlanState, text: &str) -> Result<(), ConfigProblem> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ConfigProblem::NotJson { line: e.line(), column: e.column() })?;
    set_config(s, value)
}

/// Decodes `%XX` escapes and `+` (a pasted or hand-edited URL); invalid escapes stay as typed.
fn unescape(v: &str) -> String {
    let bytes = v.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (b, hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(x)) => {
                out.push(x);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The state a query gives, with the fields that were reset (unknown keys are ignored).
pub fn parse(query: &str) -> (PlanState, Vec<Field>) {
    let mut s = PlanState::default();
    let mut bad = Vec::new();
    for (k, v) in query.split('&').filter_map(|p| p.split_once('=')) {
        let Some(field) = field_of(k) else { continue };
        if !set(&mut s, k, &unescape(v)) && !bad.contains(&field) {
            bad.push(field);
        }
    }
    (s, bad)
}

/// A number as typed: no trailing `.0`.
pub(crate) fn plain(v: f64) -> String {
    let t = format!("{v}");
    t.strip_suffix(".0").map(str::to_owned).unwrap_or(t)
}

/// The query for a state (`parse(&encode(s)) == (s, [])`).
pub fn encode(s: &PlanState) -> String {
    let cfg = s
        .config
        .as_ref()
        .map(|c| format!("&cfg={}", URL_SAFE_NO_PAD.encode(c.to_string())))
        .unwrap_or_default();
    let mut reuse = String::new();
    if s.prefix_shared > 0 {
        reuse.push_str(&format!("&pre={}", s.prefix_shared));
    }
    if s.hit_pct > 0.0 {
        reuse.push_str(&format!("&hit={}", plain(s.hit_pct)));
    }
    if s.sessions > 0 {
        reuse.push_str(&format!("&ses={}", s.sessions));
    }
    for (key, gb) in [("cpu", s.cpu_tier_gb), ("ssd", s.ssd_tier_gb)] {
        if gb > 0.0 {
            reuse.push_str(&format!("&{key}={}", plain(gb)));
        }
    }
    if !s.gpu_cache {
        reuse.push_str("&gpc=off");
    }
    let pd = if s.pd == Pd::Auto { String::new() } else { format!("&pd={}", s.pd.key()) };
    format!(
        "m={}&w={}&kv={}&gpu={}&rate={}{}&in={}&out={}{reuse}&ttft={}&tpot={}&ttftp={}&tpotp={}&head={}&seqs={}{}{pd}{cfg}",
        s.model,
        s.weights.map_or("auto", Dtype::name),
        s.kv.name(),
        s.gpu,
        plain(s.peak_rate),
        s.peak_users.map(|u| format!("&users={u}")).unwrap_or_default(),
        s.prompt_tokens,
        s.output_tokens,
        plain(s.ttft_s),
        plain(s.tpot_ms),
        s.ttft_pct.key(),
        s.tpot_pct.key(),
        plain(s.headroom_pct),
        s.max_seqs,
        if s.net == Net::Ib { String::new() } else { format!("&net={}", s.net.key()) }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_survives_its_url() {
        let mut s = PlanState::default();
        assert!(set(&mut s, "m", "qwen2.5-7b") && set(&mut s, "rate", "3.5") && set(&mut s, "kv", "fp8"));
        assert!(set(&mut s, "tpot", "35") && set(&mut s, "head", "0") && set(&mut s, "seqs", "64"));
        assert_eq!(parse(&encode(&s)), (s.clone(), vec![]));
        assert_eq!(parse(""), (PlanState::default(), vec![]));
        // A pasted config survives the URL too.
        let cfg = r#"{"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192,
            "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}"#;
        paste_config(&mut s, cfg).unwrap();
        assert!(encode(&s).contains("&cfg="));
        assert_eq!(parse(&encode(&s)), (s, vec![]));
    }

    #[test]
    fn a_bad_paste_is_named_and_changes_nothing() {
        let mut s = PlanState::default();
        assert_eq!(
            paste_config(&mut s, "{\n  \"model_type\": "),
            Err(ConfigProblem::NotJson { line: 2, column: 16 })
        );
        assert_eq!(paste_config(&mut s, "[1, 2]"), Err(ConfigProblem::NotObject));
        let Err(ConfigProblem::Model(e)) =
            paste_config(&mut s, r#"{"model_type": "llama", "hidden_size": 0}"#)
        else {
            panic!()
        };
        assert!(e.field.starts_with("model."), "{}", e.field);
        assert_eq!(s, PlanState::default());
        // In a link: reset and named.
        assert_eq!(parse("cfg=bm90LWpzb24").1, [Field::Config]);
    }

    #[test]
    fn a_mangled_query_is_repaired_field_by_field() {
        let (s, bad) = parse(
            "m=nope&rate=NaN&in=-5&out=0&ttft=inf&tpot=abc&head=-1&seqs=99999&w=int3&kv=int4&gpu=x&zzz=1",
        );
        assert_eq!(s, PlanState::default());
        assert_eq!(
            bad,
            [
                Field::Model,
                Field::Rate,
                Field::Prompt,
                Field::Output,
                Field::Ttft,
                Field::Tpot,
                Field::Headroom,
                Field::MaxSeqs,
                Field::Weights,
                Field::Kv,
                Field::Gpu
            ]
        );
        // The good fields of a partly bad query are kept.
        let (s, bad) = parse("rate=7&in=abc&gpu=a100-sxm-80gb");
        assert_eq!((s.peak_rate, s.prompt_tokens, s.gpu.as_str()), (7.0, 1024, "a100-sxm-80gb"));
        assert_eq!(bad, [Field::Prompt]);
        // Escapes from a pasted URL.
        assert_eq!(parse("rate=%31%32").0.peak_rate, 12.0);
    }

    #[test]
    fn a_targets_percentile_is_read_and_an_old_link_means_p95() {
        // A link from before the percentiles: both targets at p95, as the planner then meant.
        let (s, bad) = parse("ttft=2&tpot=40");
        assert_eq!((s.ttft_pct, s.tpot_pct, bad), (Pct::P95, Pct::P95, vec![]));
        let (s, bad) = parse("ttftp=99&tpotp=p50");
        assert_eq!((s.ttft_pct, s.tpot_pct, bad), (Pct::P99, Pct::P50, vec![]));
        assert_eq!(parse(&encode(&s)), (s, vec![]));
        // Prefix reuse: kept in the link, a prefix longer than the prompt or a rate past 100%
        // named; a shorter prompt shortens the prefix.
        let (mut s, bad) = parse("in=2000&pre=1500&hit=40");
        assert_eq!((s.prefix_shared, s.hit_pct, bad), (1500, 40.0, vec![]));
        assert_eq!(parse(&encode(&s)), (s.clone(), vec![]));
        assert!(set(&mut s, "in", "1000") && s.prefix_shared == 1000);
        let (s, bad) = parse("in=1000&pre=1500&hit=140");
        assert_eq!((s.prefix_shared, s.hit_pct, bad), (0, 0.0, vec![Field::Prefix, Field::HitRate]));
        // KV tiers: kept in the link; sessions or tiers past the engine's ranges, negative or not
        // numbers, and a switch neither on nor off, named and reset, the rest kept.
        let (s, bad) = parse("in=2000&hit=80&ses=5000&cpu=256&ssd=3840.5&gpc=off");
        assert_eq!(
            (s.sessions, s.cpu_tier_gb, s.ssd_tier_gb, s.gpu_cache, bad),
            (5000, 256.0, 3840.5, false, vec![])
        );
        assert_eq!(parse(&encode(&s)), (s, vec![]));
        assert!(!encode(&PlanState::default()).contains("ses="));
        let (s, bad) = parse("ses=200000000&cpu=-1&ssd=lots&gpc=maybe&hit=50");
        assert_eq!(
            (s.sessions, s.cpu_tier_gb, s.ssd_tier_gb, s.gpu_cache, s.hit_pct),
            (0, 0.0, 0.0, true, 50.0)
        );
        assert_eq!(bad, [Field::Sessions, Field::CpuTier, Field::SsdTier, Field::GpuCache]);
        // A percentile not offered is reset and named.
        let (s, bad) = parse("ttftp=97&tpotp=x");
        assert_eq!((s.ttft_pct, s.tpot_pct, bad), (Pct::P95, Pct::P95, vec![Field::TtftPct, Field::TpotPct]));
    }

    #[test]
    fn the_disaggregated_comparison_is_kept_in_the_link() {
        // Absent (every older link): compared at the best ratio, and not written.
        assert_eq!(parse("rate=3").0.pd, Pd::Auto);
        assert!(!encode(&PlanState::default()).contains("pd="));
        for (v, pd) in
            [("off", Pd::Off), ("2:1", Pd::Ratio(2, 1)), ("1%3A4", Pd::Ratio(1, 4)), ("auto", Pd::Auto)]
        {
            let (s, bad) = parse(&format!("rate=3&pd={v}"));
            assert_eq!((s.pd, bad), (pd, vec![]), "{v}");
            assert_eq!(parse(&encode(&s)), (s, vec![]));
        }
        // A ratio not offered, or not a ratio, is reset and named; the rest is kept.
        for v in ["3:3", "2:4", "5:1", "0:1", "x", "1:", ""] {
            let (s, bad) = parse(&format!("rate=7&pd={v}&in=300"));
            assert_eq!(
                (s.pd, s.peak_rate, s.prompt_tokens, bad),
                (Pd::Auto, 7.0, 300, vec![Field::Disagg]),
                "{v}"
            );
        }
    }
}

//! The weight format a checkpoint ships in, read from its `config.json`'s `quantization_config`.
//!
//! A quantised checkpoint stores some modules' matrices in a narrow format (values plus scales,
//! and zero points for integer formats) and keeps the rest in 16 bits. This module reads which
//! format, with what group size, applies to which class of module ([`ModuleClass`]), following
//! the loaders that read these configs:
//!
//! - `mxfp4` (gpt-oss): only the MoE experts are converted (transformers
//!   `integrations/mxfp4.py` replaces the experts module only; vLLM's `Mxfp4Config` quantises
//!   `FusedMoE` and leaves linear layers unquantised); MXFP4 is E2M1 values with one E8M0 scale
//!   per 32 (OCP Microscaling Formats (MX) Specification v1.0, §5). `modules_to_not_convert`.
//! - `fp8` (DeepSeek-V3 style, transformers `FineGrainedFP8Config`, vLLM `Fp8Config`): every
//!   linear layer of attention and MLP/experts in FP8 E4M3; with `weight_block_size [a, b]`
//!   one FP32 scale per a×b block (DeepSeek-V3 Technical Report §3.3.2: 128×128 blocks, the
//!   checkpoint's `weight_scale_inv`); without it one scale per tensor (not counted).
//!   `modules_to_not_convert` / `ignored_layers`.
//! - `compressed-tensors` (llm-compressor / vLLM `CompressedTensorsConfig`): each entry of
//!   `config_groups` gives `targets` and `weights` (`num_bits`, `type`, `strategy`, `group_size`,
//!   `block_structure`, `symmetric`); `targets: ["Linear"]` means every linear layer including
//!   the router and `lm_head`; `ignore` lists what stays in 16 bits. NVFP4 (`type float`,
//!   4 bits, `tensor_group`, group 16): an FP8 E4M3 scale per 16 plus an FP32 scale per tensor
//!   (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference", 2025).
//!   Scales of the other strategies are stored in the checkpoint's 16-bit dtype unless
//!   `scale_dtype` says otherwise (compressed-tensors `QuantizationArgs`).
//! - `awq` (AutoAWQ GEMM format): `bits` 4-bit values, an fp16 scale and a packed `bits`-bit
//!   zero point per `group_size` inputs of each output (Lin et al. 2023); no zero point with
//!   `zero_point: false`. Attention and MLP/experts; router and `lm_head` stay 16-bit.
//! - `gptq` (AutoGPTQ format): `bits` values, an fp16 scale and a packed `bits`-bit zero point
//!   per group (qzeros are stored even when `sym`; Frantar et al. 2022); `group_size: -1` is one
//!   group per input row; `lm_head: true` quantises the head too. GPTQ's `g_idx` (one int32 per
//!   input row of each matrix, under 0.01 bit a weight) is not counted.
//! - `bitsandbytes`: 4-bit (`nf4` or `fp4`) in blocks of 64 with an FP32 absmax per block, or
//!   with double quantisation an 8-bit absmax and one FP32 scale per 256 blocks (Dettmers et al.
//!   2023, QLoRA §3; bitsandbytes `Params4bit` blocksize 64); 8-bit LLM.int8() with one FP32
//!   scale per output row (Dettmers et al. 2022). Every `nn.Linear` is replaced, the MoE router
//!   included, except `lm_head` and `llm_int8_skip_modules` (transformers `bitsandbytes`
//!   integration).
//!
//! Entries of a not-converted list are matched to module classes by name (`lm_head`,
//! `embed_tokens`, `self_attn`, `mlp.gate`/`router`, `experts`, `shared_expert`, `mlp`); an
//! entry naming one layer (`model.layers.3.mlp`) keeps that layer's class in 16 bits only; an
//! entry naming one projection (`mlp.down_proj`) keeps its whole block in 16 bits (an upper
//! bound); entries outside the language model (vision towers) change nothing; entries that
//! match no class are reported as not understood.
//!
//! Scale counts per matrix are the element count over the group size: exact when a matrix's
//! dimensions are multiples of the block (as the usual widths are); "per input row" scales
//! take the hidden size as the row length.

use crate::engine::error::{ErrorKind, Expected, ScenarioError};
use crate::engine::precision::{BitsPerElement, Dtype};
use serde::Serialize;
use serde_json::{Map, Value};

/// The `quant_method`s this engine reads (in the order `read` matches them).
pub const METHODS: [&str; 6] = ["mxfp4", "fp8", "compressed-tensors", "awq", "gptq", "bitsandbytes"];

/// Largest group or block a config may state (elements per scale).
const MAX_GROUP: u64 = 1 << 24;

/// Classes of weight a quantisation config treats differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModuleClass {
    /// Token embedding (`embed_tokens`).
    Embedding,
    /// Output head (`lm_head`).
    LmHead,
    /// Attention projections (q, k, v, o; MLA's low-rank projections).
    Attention,
    /// Dense MLP and shared-expert projections.
    Mlp,
    /// Routed experts' projections.
    Experts,
    /// The MoE router's weight (`mlp.gate`, `router`).
    Router,
}

/// Every class, in the order reports list them.
pub const CLASSES: [ModuleClass; 6] = [
    ModuleClass::Experts,
    ModuleClass::Attention,
    ModuleClass::Mlp,
    ModuleClass::Router,
    ModuleClass::Embedding,
    ModuleClass::LmHead,
];

/// Which `quant_method` the config names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum QuantMethod {
    #[serde(rename = "mxfp4")]
    Mxfp4,
    #[serde(rename = "fp8")]
    Fp8,
    #[serde(rename = "compressed-tensors")]
    CompressedTensors,
    #[serde(rename = "awq")]
    Awq,
    #[serde(rename = "gptq")]
    Gptq,
    #[serde(rename = "bitsandbytes")]
    Bitsandbytes,
}

impl QuantMethod {
    /// The name as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            QuantMethod::Mxfp4 => "mxfp4",
            QuantMethod::Fp8 => "fp8",
            QuantMethod::CompressedTensors => "compressed-tensors",
            QuantMethod::Awq => "awq",
            QuantMethod::Gptq => "gptq",
            QuantMethod::Bitsandbytes => "bitsandbytes",
        }
    }
}

/// The kind of a stored element, for its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatKind {
    /// A 16- or 32-bit float (no scales).
    Float,
    /// OCP MXFP4.
    Mxfp4,
    /// NVIDIA NVFP4.
    Nvfp4,
    /// E2M1 4-bit floats with another block size.
    Fp4,
    /// FP8 E4M3.
    Fp8,
    /// Integers of `value_bits` bits.
    Int,
    /// bitsandbytes 4-bit NormalFloat.
    Nf4,
    /// bitsandbytes 4-bit float.
    BnbFp4,
}

/// How one weight is stored: `value_bits`, plus `scale_bits + zero_bits` shared by `group`
/// weights (0: one per input row, the hidden size), plus `second_scale_bits` shared by
/// `second_group` first-level scales (double quantisation; 0 bits: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ElementFormat {
    pub kind: FormatKind,
    pub value_bits: u64,
    pub scale_bits: u64,
    pub zero_bits: u64,
    pub group: u64,
    pub second_scale_bits: u64,
    pub second_group: u64,
}

impl ElementFormat {
    const fn new(kind: FormatKind, value_bits: u64, scale_bits: u64, zero_bits: u64, group: u64) -> Self {
        ElementFormat {
            kind,
            value_bits,
            scale_bits,
            zero_bits,
            group,
            second_scale_bits: 0,
            second_group: 0,
        }
    }

    /// 16-bit floats.
    pub const BF16: ElementFormat = ElementFormat::new(FormatKind::Float, 16, 0, 0, 1);
    /// OCP MXFP4: 4-bit E2M1, one 8-bit E8M0 scale per 32.
    pub const MXFP4: ElementFormat = ElementFormat::new(FormatKind::Mxfp4, 4, 8, 0, 32);
    /// NVFP4: 4-bit E2M1, one FP8 E4M3 scale per 16 (the FP32 tensor scale is not counted).
    pub const NVFP4: ElementFormat = ElementFormat::new(FormatKind::Nvfp4, 4, 8, 0, 16);

    /// The format a plain dtype stands for (`group` is the int4 group size).
    pub fn of_dtype(d: Dtype, group: u64) -> ElementFormat {
        let g = group.max(1);
        match d {
            Dtype::Fp32 => ElementFormat::new(FormatKind::Float, 32, 0, 0, 1),
            Dtype::Bf16 | Dtype::Fp16 => ElementFormat::BF16,
            Dtype::Fp8 => ElementFormat::new(FormatKind::Fp8, 8, 0, 0, 1),
            Dtype::Int8 => ElementFormat::new(FormatKind::Int, 8, 0, 0, 1),
            Dtype::Int4 => ElementFormat::new(FormatKind::Int, 4, 16, 4, g),
            Dtype::Nf4 => ElementFormat {
                second_scale_bits: 32,
                second_group: 256,
                ..ElementFormat::new(FormatKind::Nf4, 4, 8, 0, 64)
            },
            Dtype::Mxfp4 => ElementFormat::MXFP4,
            Dtype::Nvfp4 => ElementFormat::NVFP4,
            // A llama.cpp file type as its main block type: whole value bits, the rest of the
            // block's bits as its scales (Q4_K: 4 bits + 128 bits per 256).
            Dtype::Gguf(t) => {
                let m = t.main_type();
                let (elems, bits) = (u64::from(m.block_elements()), u64::from(m.block_bytes()) * 8);
                let value = bits / elems.max(1);
                ElementFormat::new(FormatKind::Int, value, bits - value * elems, 0, elems)
            }
        }
    }

    /// Weights per first-level scale, with "per input row" resolved to `row`.
    pub fn group_for(&self, row: u64) -> u64 {
        if self.group == 0 {
            row.max(1)
        } else {
            self.group
        }
    }

    /// Bits per weight, scales included, as an exact fraction
    /// `value + (scale + zero)/g + second/(g·g2)`.
    pub fn bits(&self, row: u64) -> BitsPerElement {
        let g = u128::from(self.group_for(row));
        let g2 = if self.second_scale_bits > 0 { u128::from(self.second_group.max(1)) } else { 1 };
        let per_group = u128::from(self.scale_bits) + u128::from(self.zero_bits);
        BitsPerElement {
            numerator: u128::from(self.value_bits) * g * g2
                + per_group * g2
                + u128::from(self.second_scale_bits),
            denominator: g * g2,
        }
    }

    /// Bits per weight as a number (for labels and the report).
    pub fn bits_f64(&self, row: u64) -> f64 {
        let b = self.bits(row);
        b.numerator as f64 / b.denominator.max(1) as f64
    }

    /// Bytes for `elements` weights, rounded up to a whole byte.
    pub fn bytes_for(&self, elements: u128, row: u64) -> u128 {
        let b = self.bits(row);
        elements.saturating_mul(b.numerator).div_ceil(b.denominator.saturating_mul(8).max(1))
    }

    /// A short label: `mxfp4`, `nvfp4`, `fp8 128×128`, `int4 g128`, `nf4 dq`, `bf16`.
    pub fn label(&self) -> String {
        // A square block (fp8 128×128) reads as its sides.
        let side = (1..=4096u64).find(|s| s * s >= self.group).filter(|s| s * s == self.group && *s >= 16);
        let g = match (self.group, side) {
            (0, _) => "row".to_owned(),
            (_, Some(s)) => format!("{s}×{s}"),
            (g, None) => format!("g{g}"),
        };
        match self.kind {
            FormatKind::Float => format!("bf{}", self.value_bits),
            FormatKind::Mxfp4 => "mxfp4".to_owned(),
            FormatKind::Nvfp4 => "nvfp4".to_owned(),
            FormatKind::Fp4 => format!("fp4 {g}"),
            FormatKind::Fp8 if self.scale_bits == 0 => "fp8".to_owned(),
            FormatKind::Fp8 => format!("fp8 {g}"),
            FormatKind::Int if self.scale_bits == 0 => format!("int{}", self.value_bits),
            FormatKind::Int => format!("int{} {g}", self.value_bits),
            FormatKind::Nf4 | FormatKind::BnbFp4 => {
                let name = if self.kind == FormatKind::Nf4 { "nf4" } else { "fp4" };
                if self.second_scale_bits > 0 {
                    format!("{name} g{} dq", self.group)
                } else {
                    format!("{name} g{}", self.group)
                }
            }
        }
    }
}

/// One value per module class (a format, a parameter count), read by class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PerClass<T> {
    pub embedding: T,
    pub lm_head: T,
    pub attention: T,
    pub mlp: T,
    pub experts: T,
    pub router: T,
}

impl<T: Copy> PerClass<T> {
    pub fn get(&self, c: ModuleClass) -> T {
        match c {
            ModuleClass::Embedding => self.embedding,
            ModuleClass::LmHead => self.lm_head,
            ModuleClass::Attention => self.attention,
            ModuleClass::Mlp => self.mlp,
            ModuleClass::Experts => self.experts,
            ModuleClass::Router => self.router,
        }
    }

    pub fn slot(&mut self, c: ModuleClass) -> &mut T {
        match c {
            ModuleClass::Embedding => &mut self.embedding,
            ModuleClass::LmHead => &mut self.lm_head,
            ModuleClass::Attention => &mut self.attention,
            ModuleClass::Mlp => &mut self.mlp,
            ModuleClass::Experts => &mut self.experts,
            ModuleClass::Router => &mut self.router,
        }
    }
}

/// A format per module class; `None` is the checkpoint's 16-bit dtype.
pub type ClassFormats = PerClass<Option<ElementFormat>>;

/// What a checkpoint's `quantization_config` says about its weights.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Quantization {
    pub method: QuantMethod,
    /// The format of each class in every layer (before `kept_layers`).
    pub formats: ClassFormats,
    /// The config's not-converted / ignore list, as written.
    pub not_converted: Vec<String>,
    /// Entries of that list that name no module class this engine knows.
    pub unmatched: Vec<String>,
    /// `(layer, class)` pairs a per-layer entry keeps in 16 bits.
    pub kept_layers: Vec<(u64, ModuleClass)>,
}

impl Quantization {
    /// The format of `class` in decoder layer `layer`.
    pub fn format(&self, class: ModuleClass, layer: u64) -> Option<ElementFormat> {
        if self.kept_layers.iter().any(|(l, c)| *l == layer && *c == class) {
            None
        } else {
            self.formats.get(class)
        }
    }

    /// The format most of the weights take: the experts', else attention's, else any.
    pub fn main_format(&self) -> Option<ElementFormat> {
        CLASSES.iter().find_map(|c| self.formats.get(*c))
    }

    /// Whether serving engines multiply this checkpoint's matrices in FP8: `quant_method: fp8`
    /// (DeepSeek-V3's block FP8, transformers `FineGrainedFP8Config`, vLLM `Fp8Config`) stores
    /// FP8 E4M3 weights and quantises the activations to FP8 as they run (`activation_scheme:
    /// dynamic`, one scale per token and 128 channels), so its GEMMs are FP8 × FP8 (vLLM's
    /// CUTLASS / DeepGEMM block-FP8 kernels, SGLang's likewise).
    pub fn runs_fp8_gemms(&self) -> bool {
        self.method == QuantMethod::Fp8 && self.main_format().is_some_and(|f| f.kind == FormatKind::Fp8)
    }

    /// Classes stored quantised, and classes kept in 16 bits, in [`CLASSES`] order.
    pub fn split_classes(&self) -> (Vec<ModuleClass>, Vec<ModuleClass>) {
        CLASSES.iter().partition(|c| self.formats.get(**c).is_some())
    }
}

/// What a not-converted entry or a target names.
#[derive(Debug, Default, PartialEq, Eq)]
struct Named {
    classes: Vec<ModuleClass>,
    layer: Option<u64>,
    /// Understood as something outside the classes (vision tower, norms): changes nothing.
    outside: bool,
}

/// The layer index in `model.layers.12.mlp`, when the entry names one layer.
fn layer_index(p: &str) -> Option<u64> {
    let rest = p.split("layers.").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = rest.chars().nth(digits.len());
    if digits.is_empty() || !matches!(after, None | Some('.')) {
        return None;
    }
    digits.parse().ok()
}

/// The classes a module name or pattern (`re:` regexes read as text) names.
fn classes_of(entry: &str) -> Named {
    use ModuleClass::*;
    let p = entry.trim().trim_start_matches("re:").to_ascii_lowercase();
    // The entry without a regex end, `.weight` or a trailing wildcard (suffix by suffix).
    let mut tail = p.as_str();
    for suffix in ["$", ".weight", ".*", "*", "."] {
        tail = tail.strip_suffix(suffix).unwrap_or(tail);
    }
    let layer = layer_index(&p);
    let named = |classes: Vec<ModuleClass>| Named { classes, layer, outside: false };
    let has = |words: &[&str]| words.iter().any(|w| p.contains(w));
    if has(&["lm_head", "output_layer"]) {
        return named(vec![LmHead]);
    }
    if has(&["embed", "wte"]) {
        return named(vec![Embedding]);
    }
    if has(&["vision", "visual", "vit.", "multi_modal", "mm_projector", "audio", "image", "norm"]) {
        return Named { outside: true, ..Named::default() };
    }
    let projection =
        has(&["gate_proj", "up_proj", "down_proj", "gate_up", ".w1", ".w2", ".w3", "fc1", "fc2"]);
    if has(&["router"]) || (tail.ends_with("gate") && !projection) {
        return named(vec![Router]);
    }
    if has(&[
        "attn",
        "attention",
        "q_proj",
        "k_proj",
        "v_proj",
        "o_proj",
        "qkv",
        "q_a_proj",
        "q_b_proj",
        "kv_a_proj",
        "kv_b_proj",
    ]) {
        return named(vec![Attention]);
    }
    if has(&["shared_expert"]) {
        return named(vec![Mlp]);
    }
    if has(&["experts"]) {
        return named(vec![Experts]);
    }
    if projection {
        return named(vec![Mlp]);
    }
    if has(&["mlp", "feed_forward", "block_sparse_moe", "ffn", "moe"]) {
        return named(vec![Mlp, Experts, Router]);
    }
    if tail.ends_with("layers") || (layer.is_some() && tail.ends_with(|c: char| c.is_ascii_digit())) {
        return named(vec![Attention, Mlp, Experts, Router]);
    }
    Named::default()
}

/// One object of the config, with its path for errors. Every reader is one function (not
/// inlined), so the many fields of the six methods share them.
struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Obj<'a> {
    #[inline(never)]
    fn fail(&self, key: &str, kind: ErrorKind) -> ScenarioError {
        let field = if key.is_empty() { self.path.clone() } else { format!("{}.{key}", self.path) };
        ScenarioError::new(field, kind)
    }

    /// The value at `key` when present and not null.
    #[inline(never)]
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// The first of `keys` present (aliases), else the first.
    fn first<'k>(&self, keys: &[&'k str]) -> &'k str {
        keys.iter().copied().find(|k| self.get(k).is_some()).or(keys.first().copied()).unwrap_or("")
    }

    #[inline(never)]
    fn wrong(&self, key: &str, expected: Expected) -> ScenarioError {
        let got = self.get(key).map(Value::to_string).unwrap_or_default();
        self.fail(key, ErrorKind::WrongType { expected, got })
    }

    /// An integer between `min` and `max`, when present.
    #[inline(never)]
    fn int(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, ScenarioError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_u64().filter(|n| *n >= min && *n <= max) {
                Some(n) => Ok(Some(n)),
                None => Err(self.fail(key, ErrorKind::IntegerOutOfRange { min, max, got: v.to_string() })),
            },
        }
    }

    #[inline(never)]
    fn flag(&self, key: &str, default: bool) -> Result<bool, ScenarioError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.wrong(key, Expected::TrueFalse)),
        }
    }

    /// Which of `allowed` the string at `key` is (None when absent).
    #[inline(never)]
    fn choice(&self, key: &str, allowed: &[&str]) -> Result<Option<usize>, ScenarioError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        match v.as_str().and_then(|s| allowed.iter().position(|a| *a == s)) {
            Some(i) => Ok(Some(i)),
            None => Err(self.wrong(key, Expected::OneOf(allowed.iter().map(|a| (*a).to_owned()).collect()))),
        }
    }

    /// A list of module names (absent: empty).
    #[inline(never)]
    fn names(&self, key: &str) -> Result<Vec<String>, ScenarioError> {
        let Some(v) = self.get(key) else { return Ok(Vec::new()) };
        v.as_array()
            .and_then(|a| a.iter().map(|n| n.as_str().map(str::to_owned)).collect())
            .ok_or_else(|| self.wrong(key, Expected::List))
    }

    /// The object at `key` (absent: None).
    #[inline(never)]
    fn object(&self, key: &str) -> Result<Option<Obj<'a>>, ScenarioError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(Obj { map, path: format!("{}.{key}", self.path) })),
            Some(_) => Err(self.wrong(key, Expected::Object)),
        }
    }

    /// A group size where `-1` means one group per input row (0); `default` when absent.
    #[inline(never)]
    fn group(&self, key: &str, default: u64) -> Result<u64, ScenarioError> {
        if self.get(key).and_then(Value::as_i64) == Some(-1) {
            return Ok(0);
        }
        Ok(self.int(key, 1, MAX_GROUP)?.unwrap_or(default))
    }

    /// A block `[rows, columns]`: weights per block.
    #[inline(never)]
    fn block(&self, key: &str) -> Result<Option<u64>, ScenarioError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let Some(sides) = v.as_array().filter(|a| a.len() == 2) else {
            return Err(self.wrong(key, Expected::List));
        };
        let mut g = 1u64;
        for (i, side) in sides.iter().enumerate() {
            match side.as_u64().filter(|n| (1..=4096).contains(n)) {
                Some(n) => g = g.saturating_mul(n),
                None => {
                    let got = side.to_string();
                    return Err(self.fail(
                        &format!("{key}[{i}]"),
                        ErrorKind::IntegerOutOfRange { min: 1, max: 4096, got },
                    ));
                }
            }
        }
        Ok(Some(g))
    }
}

/// Reads `quantization_config` from a config's top level (or `None` when it has none).
pub fn read(top: &Map<String, Value>) -> Result<Option<Quantization>, ScenarioError> {
    let outer = Obj { map: top, path: "model".to_owned() };
    let Some(q) = outer.object("quantization_config")? else { return Ok(None) };
    // transformers writes bitsandbytes configs with quant_method; older ones only the flags.
    let bnb_flags = q.get("load_in_4bit").is_some() || q.get("load_in_8bit").is_some();
    let method = match q.choice("quant_method", &METHODS)? {
        Some(i) => i,
        None if bnb_flags => 5,
        None => return Err(q.fail("quant_method", ErrorKind::MissingFromConfig)),
    };
    let (method, formats, list) = match method {
        0 => (
            QuantMethod::Mxfp4,
            ClassFormats { experts: Some(ElementFormat::MXFP4), ..ClassFormats::default() },
            "modules_to_not_convert",
        ),
        1 => (QuantMethod::Fp8, fp8(&q)?, "modules_to_not_convert"),
        2 => (QuantMethod::CompressedTensors, compressed_tensors(&q)?, "ignore"),
        3 => (QuantMethod::Awq, awq(&q)?, "modules_to_not_convert"),
        4 => (QuantMethod::Gptq, gptq(&q)?, "modules_to_not_convert"),
        _ => (QuantMethod::Bitsandbytes, bitsandbytes(&q)?, "llm_int8_skip_modules"),
    };
    let mut not_converted = q.names(list)?;
    // SGLang / vLLM FP8 configs name theirs `ignored_layers`.
    not_converted.extend(q.names("ignored_layers")?);
    let mut out =
        Quantization { method, formats, not_converted, unmatched: Vec::new(), kept_layers: Vec::new() };
    for entry in out.not_converted.clone() {
        let named = classes_of(&entry);
        if named.classes.is_empty() && !named.outside {
            out.unmatched.push(entry);
            continue;
        }
        for c in named.classes {
            match named.layer {
                Some(l) => out.kept_layers.push((l, c)),
                None => *out.formats.slot(c) = None,
            }
        }
    }
    Ok(Some(out))
}

/// Attention, MLP and experts in one format (the linear layers the HF loaders convert).
fn linear_layers(f: ElementFormat) -> ClassFormats {
    ClassFormats { attention: Some(f), mlp: Some(f), experts: Some(f), ..ClassFormats::default() }
}

fn fp8(q: &Obj) -> Result<ClassFormats, ScenarioError> {
    Ok(linear_layers(match q.block("weight_block_size")? {
        // One FP32 scale (weight_scale_inv) per block.
        Some(g) => ElementFormat::new(FormatKind::Fp8, 8, 32, 0, g),
        None => ElementFormat::new(FormatKind::Fp8, 8, 0, 0, 1),
    }))
}

/// `bits` (or its alias) between 2 and 8.
fn bits(q: &Obj, keys: &[&str], default: Option<u64>) -> Result<u64, ScenarioError> {
    let key = q.first(keys);
    match (q.int(key, 2, 8)?, default) {
        (Some(b), _) | (None, Some(b)) => Ok(b),
        (None, None) => Err(q.fail(key, ErrorKind::MissingFromConfig)),
    }
}

fn awq(q: &Obj) -> Result<ClassFormats, ScenarioError> {
    let bits = bits(q, &["bits", "w_bit"], Some(4))?;
    let group = q.group(q.first(&["group_size", "q_group_size"]), 128)?;
    let zero = if q.flag("zero_point", true)? { bits } else { 0 };
    Ok(linear_layers(ElementFormat::new(FormatKind::Int, bits, 16, zero, group)))
}

fn gptq(q: &Obj) -> Result<ClassFormats, ScenarioError> {
    let bits = bits(q, &["bits"], None)?;
    let f = ElementFormat::new(FormatKind::Int, bits, 16, bits, q.group("group_size", 128)?);
    let head = q.flag("lm_head", false)?.then_some(f);
    Ok(ClassFormats { lm_head: head, ..linear_layers(f) })
}

fn bitsandbytes(q: &Obj) -> Result<ClassFormats, ScenarioError> {
    let four = q.flag("load_in_4bit", false)? || q.flag("_load_in_4bit", false)?;
    let eight = q.flag("load_in_8bit", false)? || q.flag("_load_in_8bit", false)?;
    let f = if four {
        // BitsAndBytesConfig's default quant type is fp4.
        let kind = match q.choice("bnb_4bit_quant_type", &["fp4", "nf4"])? {
            Some(1) => FormatKind::Nf4,
            _ => FormatKind::BnbFp4,
        };
        if q.flag("bnb_4bit_use_double_quant", false)? {
            // 8-bit absmax per 64 weights, one FP32 scale per 256 absmax values.
            ElementFormat {
                second_scale_bits: 32,
                second_group: 256,
                ..ElementFormat::new(kind, 4, 8, 0, 64)
            }
        } else {
            // FP32 absmax per 64 weights.
            ElementFormat::new(kind, 4, 32, 0, 64)
        }
    } else if eight {
        // LLM.int8(): int8 weights, one FP32 scale (SCB) per output row.
        ElementFormat::new(FormatKind::Int, 8, 32, 0, 0)
    } else {
        return Err(q.fail("load_in_4bit", ErrorKind::MissingFromConfig));
    };
    Ok(ClassFormats { router: Some(f), ..linear_layers(f) })
}

/// Bits of a `scale_dtype` string (`torch.float8_e4m3fn`, `torch.float32`), else 16.
fn scale_bits(w: &Obj) -> u64 {
    match w.get("scale_dtype").and_then(Value::as_str) {
        Some(s) if s.contains("float8") || s.contains("uint8") => 8,
        Some(s) if s.contains("float32") => 32,
        _ => 16,
    }
}

/// The strategies compressed-tensors knows, in the order [`group_format`] matches them.
const STRATEGIES: [&str; 6] = ["tensor", "token", "channel", "group", "tensor_group", "block"];

/// One config group's `weights` as a storage format.
fn group_format(w: &Obj, nvfp4_format: bool) -> Result<ElementFormat, ScenarioError> {
    let bits = w.int("num_bits", 2, 8)?.ok_or_else(|| w.fail("num_bits", ErrorKind::MissingFromConfig))?;
    let float = w.choice("type", &["int", "float"])? == Some(1);
    let group = match w.choice("strategy", &STRATEGIES)?.unwrap_or(0) {
        0 | 1 => 1,
        2 => 0,
        3 | 4 => w
            .int("group_size", 1, MAX_GROUP)?
            .ok_or_else(|| w.fail("group_size", ErrorKind::MissingFromConfig))?,
        _ => w
            .block("block_structure")?
            .ok_or_else(|| w.fail("block_structure", ErrorKind::MissingFromConfig))?,
    };
    let zero = if w.flag("symmetric", true)? { 0 } else { bits };
    let scale = if group == 1 { 0 } else { scale_bits(w) };
    Ok(match (float, bits) {
        // NVFP4: FP8 E4M3 scale per 16 (plus an FP32 tensor scale, not counted).
        (true, 4) if group == 16 || nvfp4_format => ElementFormat::NVFP4,
        // MXFP4: E8M0 scale per 32.
        (true, 4) if group == 32 => ElementFormat::MXFP4,
        (true, 4) => ElementFormat::new(FormatKind::Fp4, 4, 8, 0, group),
        (true, 8) => ElementFormat::new(FormatKind::Fp8, 8, scale, 0, group),
        (true, _) => return Err(w.wrong("num_bits", Expected::OneOf(vec!["4".into(), "8".into()]))),
        (false, b) => ElementFormat::new(FormatKind::Int, b, scale, if scale == 0 { 0 } else { zero }, group),
    })
}

fn compressed_tensors(q: &Obj) -> Result<ClassFormats, ScenarioError> {
    let groups =
        q.object("config_groups")?.ok_or_else(|| q.fail("config_groups", ErrorKind::MissingFromConfig))?;
    let nvfp4 = q.get("format").and_then(Value::as_str) == Some("nvfp4-pack-quantized");
    let mut formats = ClassFormats::default();
    for name in groups.map.keys() {
        let Some(g) = groups.object(name)? else { continue };
        // A group that quantises only activations leaves the weights alone.
        let Some(w) = g.object("weights")? else { continue };
        let f = group_format(&w, nvfp4)?;
        for target in g.names("targets")? {
            let classes = if target == "Linear" {
                vec![
                    ModuleClass::Attention,
                    ModuleClass::Mlp,
                    ModuleClass::Experts,
                    ModuleClass::Router,
                    ModuleClass::LmHead,
                ]
            } else {
                classes_of(&target).classes
            };
            for c in classes {
                let slot = formats.slot(c);
                if slot.is_none() {
                    *slot = Some(f);
                }
            }
        }
    }
    Ok(formats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_name_their_classes() {
        use ModuleClass::*;
        assert_eq!(classes_of("lm_head").classes, [LmHead]);
        assert_eq!(classes_of("model.embed_tokens").classes, [Embedding]);
        assert_eq!(classes_of("model.layers.*.self_attn").classes, [Attention]);
        assert_eq!(classes_of("model.layers.*.mlp.router").classes, [Router]);
        assert_eq!(classes_of("re:.*mlp.gate$").classes, [Router]);
        assert_eq!(classes_of("gate").classes, [Router]);
        assert_eq!(classes_of("re:.*shared_expert.*").classes, [Mlp]);
        assert_eq!(classes_of("model.layers.0.mlp").classes, [Mlp, Experts, Router]);
        assert_eq!(classes_of("model.layers.0.mlp").layer, Some(0));
        assert_eq!(classes_of("model.layers.12.mlp.down_proj").classes, [Mlp]);
        assert_eq!(classes_of("model.layers.12.mlp.down_proj").layer, Some(12));
        assert!(classes_of("model.vision_tower").outside);
        assert_eq!(classes_of("something_else"), Named::default());
    }

    #[test]
    fn a_bad_group_size_names_its_field() {
        let cfg = json!({"quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 0}});
        let e = read(cfg.as_object().unwrap()).unwrap_err();
        assert_eq!(e.field, "model.quantization_config.group_size");
    }
}

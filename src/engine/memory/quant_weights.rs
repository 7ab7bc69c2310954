//! Weight bytes when the checkpoint's own `quantization_config` sets the format
//! ([`crate::engine::model::quant`]): bytes = Σ over module classes of params × bits/8 (scales
//! and zero points included in the bits), the classes left unconverted, norms, biases and
//! position embeddings in 16 bits (the checkpoint's bf16).
//!
//! The config's format applies when the reader has not chosen a weight dtype and the run is
//! inference: full training and LoRA load the weights in their own format (QLoRA quantises to
//! nf4 itself; training dequantises). Tensor parallelism splits the matrices as in
//! [`super::weights`]; the router is replicated.

use super::expert_parallel::ExpertLayout;
use super::weights::StageWeights;
use super::Inputs;
use crate::engine::derivation::{Formula, Source, Val};
use crate::engine::model::params::{layer_params, outer_params};
use crate::engine::model::quant::{ElementFormat, ModuleClass, Quantization, CLASSES};
use crate::engine::model::Architecture;
use crate::engine::precision::Dtype;
use crate::engine::workload::Mode;
use serde::Serialize;

/// The config's quantisation, when it sets the weight format of this run.
pub fn active<'a>(a: &'a Architecture, x: &Inputs) -> Option<&'a Quantization> {
    if x.weight_chosen || x.mode != Mode::Inference {
        return None;
    }
    a.quantization.as_ref()
}

/// Parameters per class.
pub type ClassCounts = crate::engine::model::quant::PerClass<u128>;

/// The parameters one GPU holds, split by class and by whether they are stored quantised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MixedParams {
    /// Parameters stored in their class's quantised format.
    pub quantised: ClassCounts,
    /// Parameters of each class kept in 16 bits (not converted, or kept in that layer).
    pub kept: ClassCounts,
    /// Norms, biases, position embeddings and router biases: always 16 bits.
    pub small: u128,
}

impl MixedParams {
    fn add(&mut self, q: &Quantization, class: ModuleClass, layer: Option<u64>, params: u128) {
        let format = match layer {
            Some(l) => q.format(class, l),
            None => q.formats.get(class),
        };
        if format.is_some() {
            *self.quantised.slot(class) += params;
        } else {
            *self.kept.slot(class) += params;
        }
    }

    /// Every parameter counted.
    pub fn total(&self) -> u128 {
        self.small + CLASSES.iter().map(|c| self.quantised.get(*c) + self.kept.get(*c)).sum::<u128>()
    }

    /// Bytes of one class: its quantised parameters in its format, the rest in 16 bits.
    pub fn class_bytes(&self, q: &Quantization, c: ModuleClass, hidden: u64) -> u128 {
        let quantised =
            q.formats.get(c).unwrap_or(ElementFormat::BF16).bytes_for(self.quantised.get(c), hidden);
        quantised + Dtype::Bf16.bytes_for(self.kept.get(c), 1)
    }

    /// All 16-bit parameters (kept classes and the small tensors).
    pub fn sixteen_bit(&self) -> u128 {
        self.small + CLASSES.iter().map(|c| self.kept.get(*c)).sum::<u128>()
    }

    /// Bytes: Σ classes quantised params × bits/8 + 16-bit params × 2.
    pub fn bytes(&self, q: &Quantization, hidden: u64) -> u128 {
        let quantised: u128 = CLASSES
            .iter()
            .map(|c| q.formats.get(*c).map_or(0, |f| f.bytes_for(self.quantised.get(*c), hidden)))
            .sum();
        quantised + Dtype::Bf16.bytes_for(self.sixteen_bit(), 1)
    }
}

/// What one GPU of a stage holding `layers` stores, by class (`tp` splits the matrices, the
/// routed experts are held as `experts` lays them out, [`super::expert_parallel`]).
pub fn stage_params(
    a: &Architecture,
    q: &Quantization,
    tp: u64,
    experts: &ExpertLayout,
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
) -> (MixedParams, u128) {
    let tp = u128::from(tp.max(1));
    let h = u128::from(a.hidden);
    let (embedding, lm_head, positions, final_norm) = outer_params(a);
    let mut p = MixedParams::default();
    let mut largest = 0u128;
    // One layer's parameters, `count` times over (the same format in each: no kept layers).
    let mut add_layer = |p: &mut MixedParams, i: usize, layer: Option<u64>, count: u128| {
        let l = layer_params(a, i);
        let router = match &a.moe {
            Some(m) if a.is_moe_layer(i) => h * u128::from(m.routed_experts),
            _ => 0,
        };
        let (att, mlp, exp) = (
            l.attention_matrices.div_ceil(tp),
            l.mlp_matrices.div_ceil(tp),
            experts.share(l.expert_matrices),
        );
        p.add(q, ModuleClass::Attention, layer, count * att);
        p.add(q, ModuleClass::Mlp, layer, count * mlp);
        p.add(q, ModuleClass::Experts, layer, count * exp);
        p.add(q, ModuleClass::Router, layer, count * router);
        p.small += count * l.small.saturating_sub(router);
        largest = largest.max(att + mlp + exp + l.small);
    };
    // Without per-layer formats, a layer's parameters depend only on whether it is an MoE layer
    // (as `super::weights::stage_weights` counts them): each kind is counted once. Gemma 4's and
    // the hybrid models' layers differ in more than that: counted one by one.
    if q.kept_layers.is_empty() && a.gemma4.is_none() && a.hybrid.is_none() {
        let moe = layers.clone().filter(|i| a.is_moe_layer(*i)).count() as u128;
        let dense = layers.len() as u128 - moe;
        for (count, probe) in [
            (dense, layers.clone().find(|i| !a.is_moe_layer(*i))),
            (moe, layers.clone().find(|i| a.is_moe_layer(*i))),
        ] {
            if let Some(i) = probe {
                add_layer(&mut p, i, None, count);
            }
        }
    } else {
        for i in layers {
            add_layer(&mut p, i, Some(u64::try_from(i).unwrap_or(u64::MAX)), 1);
        }
    }
    if first {
        p.add(q, ModuleClass::Embedding, None, embedding.div_ceil(tp));
        p.small += positions;
        largest = largest.max(embedding.div_ceil(tp));
    }
    if last {
        p.small += final_norm;
        if a.tied_embeddings {
            // A tied head is the embedding (stored again on the last stage when pp > 1).
            if !first {
                p.add(q, ModuleClass::Embedding, None, embedding.div_ceil(tp));
            }
        } else {
            p.add(q, ModuleClass::LmHead, None, lm_head.div_ceil(tp));
        }
        largest = largest.max(if a.tied_embeddings { embedding } else { lm_head }.div_ceil(tp));
    }
    (p, largest)
}

/// [`super::weights::stage_weights`] under the config's quantisation.
pub fn stage_weights_mixed(
    a: &Architecture,
    q: &Quantization,
    x: &Inputs,
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
) -> StageWeights {
    let (p, largest) = stage_params(a, q, x.tp, &x.experts(a), layers, first, last);
    let c = |k| p.quantised.get(k) + p.kept.get(k);
    StageWeights {
        params: p.total(),
        matrix_params: c(ModuleClass::Attention) + c(ModuleClass::Mlp) + c(ModuleClass::Experts),
        bytes: p.bytes(q, a.hidden),
        largest_layer_params: largest,
        expert_params: c(ModuleClass::Experts),
        expert_bytes: p.class_bytes(q, ModuleClass::Experts, a.hidden),
    }
}

/// The whole model on one GPU (tp 1, every layer): for the time model and the report.
pub fn whole_model(a: &Architecture, q: &Quantization) -> MixedParams {
    let layers = usize::try_from(a.layers).unwrap_or(usize::MAX);
    stage_params(a, q, 1, &ExpertLayout::of_model(a, 1, 1, 0), 0..layers, true, true).0
}

/// The report's account of a config's quantisation (`model.quantization`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuantInfo {
    /// `quant_method` as the config names it.
    pub method: &'static str,
    /// The main format's label (`mxfp4`, `nvfp4`, `fp8 g16384`, `int4 g128`, `nf4 g64 dq`).
    pub format: String,
    /// Bits per weight of the main format, scales and zero points included.
    pub bits_per_weight: f64,
    /// Weights per scale of the main format (0: one scale per input row).
    pub group_size: u64,
    /// Classes stored quantised.
    pub quantized: Vec<ModuleClass>,
    /// Classes kept in 16 bits.
    pub sixteen_bit: Vec<ModuleClass>,
    /// `(layer, class)` pairs kept in 16 bits by per-layer entries.
    pub kept_layers: Vec<(u64, ModuleClass)>,
    /// The config's not-converted list, as written.
    pub not_converted: Vec<String>,
    /// Entries of that list this engine could not place.
    pub unmatched: Vec<String>,
    /// Whether the format sets this run's weight bytes.
    pub applied: bool,
    /// The reader's own weight dtype, when it overrides the config.
    pub chosen_dtype: Option<Dtype>,
    /// Set when the run trains (the weights are then loaded in the training formats).
    pub training: bool,
    /// Weight bytes of the whole model in the config's format.
    pub bytes: u64,
}

/// The report's `model.quantization`, or `None` when the config has no quantisation.
pub fn quant_info(a: &Architecture, x: &Inputs, chosen: Option<Dtype>) -> Option<QuantInfo> {
    let q = a.quantization.as_ref()?;
    let p = whole_model(a, q);
    // Only the classes this model has (no dense MLP in Mixtral, no router in a dense model).
    let (mut quantized, mut sixteen_bit) = q.split_classes();
    let present = |c: &ModuleClass| p.quantised.get(*c) + p.kept.get(*c) > 0;
    quantized.retain(present);
    sixteen_bit.retain(present);
    let main = q.main_format().unwrap_or(ElementFormat::BF16);
    let bytes = p.bytes(q, a.hidden);
    Some(QuantInfo {
        method: q.method.name(),
        format: main.label(),
        bits_per_weight: main.bits_f64(a.hidden),
        group_size: main.group,
        quantized,
        sixteen_bit,
        kept_layers: q.kept_layers.clone(),
        not_converted: q.not_converted.clone(),
        unmatched: q.unmatched.clone(),
        applied: active(a, x).is_some(),
        chosen_dtype: chosen,
        training: x.mode != Mode::Inference,
        bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
    })
}

/// The matrices' storage format for this run: the config's main format when it sets the
/// weights, else the chosen (or default) dtype's.
pub fn matrix_format(a: &Architecture, x: &Inputs) -> ElementFormat {
    match active(a, x) {
        Some(q) => q.main_format().unwrap_or(ElementFormat::BF16),
        None => ElementFormat::of_dtype(x.weight, x.group),
    }
}

/// Where a quantisation method's storage layout is documented.
fn method_source(q: &Quantization) -> &'static str {
    use crate::engine::model::quant::QuantMethod as M;
    match q.method {
        M::Mxfp4 => "OCP Microscaling Formats (MX) Specification v1.0 §5; transformers integrations/mxfp4.py",
        M::Fp8 => "DeepSeek-V3 Technical Report §3.3.2; transformers FineGrainedFP8Config",
        M::CompressedTensors => {
            "compressed-tensors QuantizationArgs; NVIDIA Technical Blog, Introducing NVFP4 (2025)"
        }
        M::Awq => "Lin et al. 2023 (AWQ); AutoAWQ",
        M::Gptq => "Frantar et al. 2022 (GPTQ); AutoGPTQ",
        M::Bitsandbytes => "Dettmers et al. 2023 (QLoRA) §3; Dettmers et al. 2022 (LLM.int8())",
    }
}

/// The derivation of `memory_per_gpu_bytes.weights` under the config's format: the stage's
/// parameters of each class × its bits, the 16-bit rest, the bytes.
pub fn mixed_weights_derivation(
    a: &Architecture,
    q: &Quantization,
    x: &Inputs,
    stage: u64,
    bytes: u128,
) -> (Formula, Vec<Val>, Source) {
    let layers = super::stage_layers(a.layers, x.pp, stage);
    let last = stage + 1 >= x.pp.min(a.layers.max(1));
    let (p, _) = stage_params(a, q, x.tp, &x.experts(a), layers, stage == 0, last);
    let mut values =
        vec![Val::int(stage), Val::int(x.pp), Val::int(x.tp), Val::Id(q.method.name().to_owned())];
    for c in CLASSES {
        let bits = q.formats.get(c).map_or(16.0, |f| f.bits_f64(a.hidden));
        values.push(Val::Count(p.quantised.get(c)));
        values.push(Val::Fixed(bits, 3));
    }
    values.push(Val::Count(p.sixteen_bit()));
    values.push(Val::Bytes(bytes));
    (Formula::WeightsMixed, values, Source::cited(method_source(q)))
}

/// The derivation of `weight_bits_per_element`: value bits + (scale + zero) bits per group +
/// second-level scale bits per group of groups.
pub fn bits_derivation(f: &ElementFormat, hidden: u64) -> (Formula, Vec<Val>, Source) {
    use crate::engine::model::quant::FormatKind as K;
    let g = f.group_for(hidden);
    let values = vec![
        Val::Id(f.label()),
        Val::int(f.value_bits),
        Val::int(f.scale_bits + f.zero_bits),
        Val::int(g),
        Val::int(f.second_scale_bits),
        Val::int(g),
        Val::int(f.second_group.max(1)),
        Val::Fixed(f.bits_f64(hidden), 3),
    ];
    let source = match f.kind {
        K::Float => Source::Definition,
        K::Mxfp4 => Source::cited(
            "OCP Microscaling Formats (MX) Specification v1.0 §5",
        ),
        K::Nvfp4 => Source::cited(
            "NVIDIA Technical Blog, Introducing NVFP4 for Efficient and Accurate Low-Precision Inference (2025)",
        ),
        K::Fp4 => Source::cited("OCP Microscaling Formats (MX) Specification v1.0; compressed-tensors QuantizationArgs"),
        K::Fp8 => Source::cited("Micikevicius et al. 2022, FP8 Formats for Deep Learning; DeepSeek-V3 Technical Report §3.3.2"),
        K::Int => Source::cited("Frantar et al. 2022 (GPTQ); Lin et al. 2023 (AWQ); Dettmers et al. 2022 (LLM.int8())"),
        K::Nf4 | K::BnbFp4 => Source::cited("Dettmers et al. 2023 (QLoRA) §3"),
    };
    (Formula::WeightBits, values, source)
}

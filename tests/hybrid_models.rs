//! Hybrid models (Qwen3-Next, Nemotron-H): the fixed-size state per sequence is its own memory
//! line, independent of the context; the KV cache counts only the attention layers; the
//! longest-context solver and the KV-growth chart see the state as a constant. The configs are
//! the real ones in `tests/fixtures/configs` (sources in `expected.json`).

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::workload::Mode;
use gpu_primer::engine::{ModelSpec, Report, Scenario};
use gpu_primer::estimator::kv_growth::{kv_growth, room_for_kv};
use serde_json::Value;
use std::path::Path;

fn load(name: &str) -> Value {
    let p = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/configs"))
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn scenario(name: &str, context: u64, batch: u64) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Config(load(name)));
    s.context_tokens = context;
    s.batch = batch;
    s
}

fn report(s: &Scenario) -> Report {
    evaluate(s).unwrap_or_else(|e| panic!("{e}"))
}

/// Qwen3-Next-80B-A3B, by hand: 36 Gated DeltaNet layers (3 of every 4), each with
/// conv state (2·16·128 + 32·128 = 8192 channels) × (4 − 1) taps in bf16 = 49,152 B and
/// recurrent state 32 heads × 128 × 128 in bf16 (the config names no SSM dtype) = 1,048,576 B.
const QWEN3_NEXT_STATE: u64 = 36 * (8192 * 3 * 2 + 32 * 128 * 128 * 2);

/// Nemotron 3 Nano 30B-A3B, by hand: 23 Mamba-2 layers (`M` in the pattern), each with conv
/// state (64·64 + 2·8·128 = 6144 channels) × 3 taps in bf16 = 36,864 B and SSM state
/// 64 heads × 64 × 128 in float32 (`mamba_ssm_cache_dtype`) = 2,097,152 B.
const NEMOTRON_STATE: u64 = 23 * (6144 * 3 * 2 + 64 * 64 * 128 * 4);

#[test]
fn state_per_sequence_matches_the_hand_derivation() {
    assert_eq!(QWEN3_NEXT_STATE, 39_518_208);
    assert_eq!(NEMOTRON_STATE, 49_082_368);
    let q = report(&scenario("qwen3-next-80b-a3b-instruct", 4096, 1));
    assert_eq!(q.recurrent_state_bytes_per_sequence, QWEN3_NEXT_STATE);
    let n = report(&scenario("nemotron-3-nano-30b-a3b", 4096, 1));
    assert_eq!(n.recurrent_state_bytes_per_sequence, NEMOTRON_STATE);
    // A dense model keeps no such state.
    let mut dense = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
    dense.batch = 4;
    let d = report(&dense);
    assert_eq!((d.recurrent_state_bytes_per_sequence, d.memory_per_gpu_bytes.recurrent_state), (0, 0));
}

#[test]
fn the_state_line_is_independent_of_context_and_scales_with_sequences() {
    for (name, per_seq) in
        [("qwen3-next-80b-a3b-instruct", QWEN3_NEXT_STATE), ("nemotron-3-nano-30b-a3b", NEMOTRON_STATE)]
    {
        let short = report(&scenario(name, 4096, 8));
        let long = report(&scenario(name, 131_072, 8));
        assert_eq!(short.memory_per_gpu_bytes.recurrent_state, 8 * per_seq, "{name}");
        assert_eq!(long.memory_per_gpu_bytes.recurrent_state, 8 * per_seq, "{name}");
        assert!(long.memory_per_gpu_bytes.kv_cache > short.memory_per_gpu_bytes.kv_cache);
        let m = &long.memory_per_gpu_bytes;
        assert_eq!(
            m.total,
            m.weights
                + m.kv_cache
                + m.activations
                + m.logits
                + m.gradients
                + m.optimizer
                + m.overhead
                + m.recurrent_state
        );
        assert!(long.derivation("memory_per_gpu_bytes.recurrent_state").is_some());
    }
}

#[test]
fn kv_cache_counts_only_the_attention_layers() {
    // Qwen3-Next: 12 full-attention layers × 2 KV heads × (256 + 256) × 2 bytes = 24,576 B/token
    // (all 48 layers would be 98,304). 32,768 tokens fill whole 16-token pages.
    let q = report(&scenario("qwen3-next-80b-a3b-instruct", 32_768, 1));
    assert_eq!(q.kv_cache_bytes_per_token, 12 * 2 * 512 * 2);
    // The show-the-math substitutes the 12 attention layers, not all 48.
    let d = q.derivation("kv_cache_bytes_per_token").unwrap();
    assert_eq!(d.values.first(), Some(&gpu_primer::engine::Val::Int(12)));
    // The state's derivation: 36 layers, 36 × 8192 × 3 conv and 36 × 32 × 128 × 128 state elements.
    let st = q.derivation("memory_per_gpu_bytes.recurrent_state").unwrap();
    assert_eq!(
        &st.values[..2],
        &[gpu_primer::engine::Val::Int(36), gpu_primer::engine::Val::Count(36 * 8192 * 3)]
    );
    assert_eq!(q.memory_per_gpu_bytes.kv_cache, 24_576 * 32_768);
    // Nemotron 3 Nano: 6 attention layers × 2 × 256 × 2 = 6,144 B/token.
    let n = report(&scenario("nemotron-3-nano-30b-a3b", 32_768, 1));
    assert_eq!(n.kv_cache_bytes_per_token, 6 * 2 * 256 * 2);
    assert_eq!(n.memory_per_gpu_bytes.kv_cache, 6_144 * 32_768);
}

#[test]
fn tensor_parallelism_splits_the_state_heads_and_channels() {
    let mut s = scenario("qwen3-next-80b-a3b-instruct", 4096, 1);
    s.gpus = 2;
    s.tensor_parallel = 2;
    // 8192/2 channels × 3 and 16 heads × 128 × 128, bf16, × 36 layers: exactly half.
    assert_eq!(report(&s).memory_per_gpu_bytes.recurrent_state, QWEN3_NEXT_STATE / 2);
    let mut s = scenario("nemotron-3-nano-30b-a3b", 4096, 1);
    s.gpus = 4;
    s.tensor_parallel = 4;
    // 8 groups split 4 ways: (4096 + 2·8·128)/4 channels, 64/4 heads.
    assert_eq!(report(&s).memory_per_gpu_bytes.recurrent_state, NEMOTRON_STATE / 4);
}

#[test]
fn training_keeps_no_inference_state() {
    let mut s = scenario("nemotron-3-nano-30b-a3b", 4096, 1);
    s.mode = Mode::Training;
    assert_eq!(report(&s).memory_per_gpu_bytes.recurrent_state, 0);
}

#[test]
fn the_longest_context_and_the_kv_chart_treat_the_state_as_constant() {
    let mut s = scenario("qwen3-next-80b-a3b-instruct", 8192, 16);
    s.gpus = 4;
    s.tensor_parallel = 4;
    s.gpu = "h100-sxm".into();
    let r = report(&s);
    let m = &r.memory_per_gpu_bytes;
    let max = r.solvers.max_context_tokens.expect("fits at some context");
    // At the longest context the KV cache takes the room the rest leaves; the state is in "the
    // rest", the same at every context.
    let mut at = s.clone();
    at.context_tokens = max;
    let edge = report(&at);
    assert_eq!(edge.memory_per_gpu_bytes.recurrent_state, m.recurrent_state);
    assert!(edge.memory_per_gpu_bytes.total <= edge.usable_gpu_memory_bytes);
    // The chart's curve is KV only (state excluded), and its room excludes the state.
    let g = kv_growth(&s, &[8192, 1 << 20], &[16]);
    assert_eq!(g[0].1[0].1, m.kv_cache);
    assert_eq!(room_for_kv(&r), r.usable_gpu_memory_bytes - (m.total - m.kv_cache));
    assert!(m.total - m.kv_cache >= m.recurrent_state);
}

#[test]
fn the_mtp_layer_is_what_the_checkpoint_has_beyond_the_count() {
    // Checkpoint: 81,324,862,720 parameters (tensor listing, see expected.json). Its mtp.* layer,
    // not loaded by transformers and not counted: fc 2048·4096; gated attention q 2048·8192,
    // k,v 2048·512 each, o 4096·2048, q/k norms 2·256; MoE 512·3·512·2048 + router 512·2048 +
    // shared 3·512·2048 + shared gate 2048; norms: layer 2, mtp.norm, 2 pre-fc → 5·2048.
    let mtp: u64 = 2048 * 4096
        + (2048 * 8192 + 2 * 2048 * 512 + 4096 * 2048 + 2 * 256)
        + (512 * 3 * 512 * 2048 + 512 * 2048 + 3 * 512 * 2048 + 2048)
        + 5 * 2048;
    let q = report(&scenario("qwen3-next-80b-a3b-instruct", 4096, 1));
    assert_eq!(q.params.total + mtp, 81_324_862_720);
}

#[test]
fn catalog_entries_count_like_their_published_configs() {
    for (id, fixture) in [
        ("qwen3-next-80b-a3b", "qwen3-next-80b-a3b-instruct"),
        ("nemotron-3-nano-30b-a3b", "nemotron-3-nano-30b-a3b"),
        ("falcon-h1-7b", "falcon-h1-7b"),
        ("granite-4.0-h-tiny", "granite-4.0-h-tiny"),
        ("qwen3.6-35b-a3b", "qwen3.6-35b-a3b"),
        ("lfm2-8b-a1b", "lfm2-8b-a1b"),
    ] {
        let mut s = scenario(fixture, 4096, 1);
        let from_config = report(&s);
        s.model = ModelSpec::Id(id.into());
        let from_catalog = report(&s);
        assert_eq!(from_catalog.params, from_config.params, "{id}");
        assert_eq!(from_catalog.kv_cache_bytes_per_token, from_config.kv_cache_bytes_per_token, "{id}");
        assert_eq!(
            from_catalog.recurrent_state_bytes_per_sequence, from_config.recurrent_state_bytes_per_sequence,
            "{id}"
        );
        assert!(from_catalog.model.source.is_some());
    }
}

#[test]
fn lora_adapters_sit_only_on_the_layers_that_have_the_targets() {
    // Nemotron 3 Nano, rank 8 on q_proj and v_proj: only its 6 attention layers have them:
    // 6 × 8 × ((2688 + 32·128) + (2688 + 2·128)).
    let mut s = scenario("nemotron-3-nano-30b-a3b", 2048, 1);
    s.mode = Mode::Lora;
    s.lora_rank = 8;
    s.lora_targets = vec!["q_proj".into(), "v_proj".into()];
    assert_eq!(report(&s).params.trainable, 6 * 8 * ((2688 + 4096) + (2688 + 256)));
}

/// Falcon-H1 7B, by hand: all 44 layers keep a KV cache *and* a Mamba-2 state (attention and the
/// mixer run side by side). Per layer: conv state (3072 + 2·1·256 = 3584 channels) × (4 − 1)
/// taps in bf16 = 21,504 B and SSM state 24 heads × 128 × 256 in bf16 = 1,572,864 B.
const FALCON_H1_STATE: u64 = 44 * (3584 * 3 * 2 + 24 * 128 * 256 * 2);

/// LFM2.5-2.6B, by hand: 22 short-convolution layers, each keeping 2048 channels × (3 − 1)
/// inputs in bf16 = 8,192 B; no recurrent state.
const LFM2_STATE: u64 = 22 * 2048 * 2 * 2;

#[test]
fn falcon_h1_and_lfm2_state_and_kv_match_the_hand_derivation() {
    assert_eq!(FALCON_H1_STATE, 70_152_192);
    assert_eq!(LFM2_STATE, 180_224);
    let f = report(&scenario("falcon-h1-7b", 32_768, 4));
    assert_eq!(f.recurrent_state_bytes_per_sequence, FALCON_H1_STATE);
    assert_eq!(f.memory_per_gpu_bytes.recurrent_state, 4 * FALCON_H1_STATE);
    // Every layer is also attention: 44 × 2 KV heads × (128 + 128) × 2 B per token.
    assert_eq!(f.kv_cache_bytes_per_token, 44 * 2 * 256 * 2);
    assert_eq!(f.memory_per_gpu_bytes.kv_cache, 4 * 32_768 * 45_056);
    let st = f.derivation("memory_per_gpu_bytes.recurrent_state").unwrap();
    assert_eq!(
        &st.values[..2],
        &[gpu_primer::engine::Val::Int(44), gpu_primer::engine::Val::Count(44 * 3584 * 3)]
    );
    let l = report(&scenario("lfm2.5-2.6b", 32_768, 4));
    assert_eq!(l.recurrent_state_bytes_per_sequence, LFM2_STATE);
    // 8 attention layers × 8 KV heads × (64 + 64) × 2 B.
    assert_eq!(l.kv_cache_bytes_per_token, 8 * 8 * 128 * 2);
    assert_eq!(l.memory_per_gpu_bytes.kv_cache, 4 * 32_768 * 16_384);
    let st = l.derivation("memory_per_gpu_bytes.recurrent_state").unwrap();
    assert_eq!(
        &st.values[..4],
        &[
            gpu_primer::engine::Val::Int(22),
            gpu_primer::engine::Val::Count(22 * 2048 * 2),
            gpu_primer::engine::Val::Dtype(gpu_primer::engine::precision::Dtype::Bf16),
            gpu_primer::engine::Val::Count(0),
        ]
    );
}

#[test]
fn falcon_h1_and_lfm2_states_split_over_tensor_parallelism() {
    // Falcon-H1: 1 group replicated to 2, (3072 + 2·2·256)/2 channels × 3, 12 heads × 128 × 256.
    let mut s = scenario("falcon-h1-7b", 4096, 1);
    s.gpus = 2;
    s.tensor_parallel = 2;
    assert_eq!(report(&s).memory_per_gpu_bytes.recurrent_state, 44 * (2048 * 3 * 2 + 12 * 128 * 256 * 2));
    // LFM2: 1024 channels × 2 per conv layer.
    let mut s = scenario("lfm2.5-2.6b", 4096, 1);
    s.gpus = 2;
    s.tensor_parallel = 2;
    assert_eq!(report(&s).memory_per_gpu_bytes.recurrent_state, LFM2_STATE / 2);
}

#[test]
fn lora_on_lfm2_reaches_only_the_attention_layers() {
    // Rank 8 on q_proj and v_proj: the 8 attention layers only, 8 × 8 × ((2048 + 2048) + (2048 + 512)).
    let mut s = scenario("lfm2.5-2.6b", 2048, 1);
    s.mode = Mode::Lora;
    s.lora_rank = 8;
    s.lora_targets = vec!["q_proj".into(), "v_proj".into()];
    assert_eq!(report(&s).params.trainable, 8 * 8 * (4096 + 2560));
}

/// Granite 4.0 H Tiny, by hand: 36 Mamba-2 layers, each with conv state
/// (3072 + 2·1·128 = 3328 channels) × 3 taps and SSM state 48 heads × 64 × 128, both in bf16
/// (the config names no SSM dtype).
const GRANITE_STATE: u64 = 36 * (3328 * 3 * 2 + 48 * 64 * 128 * 2);

#[test]
fn granite_hybrid_state_kv_and_experts_match_the_hand_derivation() {
    assert_eq!(GRANITE_STATE, 29_030_400);
    let g = report(&scenario("granite-4.0-h-tiny", 8192, 2));
    assert_eq!(g.recurrent_state_bytes_per_sequence, GRANITE_STATE);
    assert_eq!(g.memory_per_gpu_bytes.recurrent_state, 2 * GRANITE_STATE);
    // 4 attention layers × 4 KV heads × (128 + 128) × 2 B.
    assert_eq!(g.kv_cache_bytes_per_token, 4 * 4 * 256 * 2);
    // Active: 58 of the 64 experts (3·1536·512 each) in 40 layers sit idle per token.
    assert_eq!(g.params.total - g.params.active, 40 * 58 * 3 * 1536 * 512);
}

/// Qwen3.6 35B-A3B (qwen3_5_moe), by hand: 30 Gated DeltaNet layers, each with conv state
/// (2·16·128 + 32·128 = 8192 channels) × 3 taps in bf16 = 49,152 B and recurrent state
/// 32 heads × 128 × 128 in float32 (`mamba_ssm_dtype`) = 2,097,152 B.
const QWEN36_STATE: u64 = 30 * (8192 * 3 * 2 + 32 * 128 * 128 * 4);

#[test]
fn qwen3_6_is_counted_from_its_text_config_within_the_published_rounding() {
    assert_eq!(QWEN36_STATE, 64_389_120);
    let q = report(&scenario("qwen3.6-35b-a3b", 4096, 1));
    assert_eq!(q.recurrent_state_bytes_per_sequence, QWEN36_STATE);
    // 10 gated attention layers × 2 KV heads × (256 + 256) × 2 B.
    assert_eq!(q.kv_cache_bytes_per_token, 10 * 2 * 512 * 2);
    // Qwen's "35B-A3B": the text model is 34.66B (the vision tower adds the rest), and one
    // token passes 2.95B parameters besides the input embedding (248,320 × 2048).
    let (total, active) = (q.params.total as f64, q.params.active as f64);
    assert!((total / 1e9 - 34.66).abs() < 0.005, "{total}");
    assert!(((active - 248_320.0 * 2048.0) / 1e9 - 2.95).abs() < 0.005, "{active}");
}

#[test]
fn lfm2_moe_state_is_the_conv_cache_of_its_18_conv_layers() {
    // 18 conv layers × 2048 channels × (3 − 1) × 2 B; 6 attention layers × 8 × 128 × 2 B per token.
    let l = report(&scenario("lfm2-8b-a1b", 4096, 1));
    assert_eq!(l.recurrent_state_bytes_per_sequence, 18 * 2048 * 2 * 2);
    assert_eq!(l.kv_cache_bytes_per_token, 6 * 8 * 128 * 2);
    // 28 of the 32 experts (3·2048·1792 each) in 22 MoE layers sit idle per token.
    assert_eq!(l.params.total - l.params.active, 22 * 28 * 3 * 2048 * 1792);
}

/// The weights held are every layer's own parameters: Qwen3-Next's 12 gated-attention layers
/// are not counted as Gated DeltaNet layers (the stage sum once took layer 0 for every layer,
/// 77,459,712 parameters too many), nor Nemotron-H's attention layers as Mamba-2 ones. In bf16 on
/// one GPU the weights are 2 bytes for each parameter the count gives.
#[test]
fn weights_sum_every_layer_of_a_hybrid() {
    for id in [
        "qwen3-next-80b-a3b",
        "nemotron-3-nano-30b-a3b",
        "falcon-h1-7b",
        "lfm2-2.6b",
        "lfm2-8b-a1b",
        "granite-4.0-h-tiny",
        "qwen3.6-35b-a3b",
    ] {
        let r = report(&Scenario::new(ModelSpec::Id(id.into())));
        assert_eq!(r.memory_per_gpu_bytes.weights, 2 * r.params.total, "{id}");
    }
}

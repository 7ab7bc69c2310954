//! A pasted config.json's `quantization_config` sets the weight format (issue 13, "Quantisation
//! read from the file"): every method on a real `quantization_config`, with the weight bytes
//! derived by hand in each test; the reader's explicit dtype wins; malformed configs give an
//! error naming the field in both languages.
//!
//! The `quantization_config` blocks are the ones these checkpoints publish on Hugging Face:
//! openai/gpt-oss-120b and gpt-oss-20b (mxfp4), deepseek-ai/DeepSeek-V3 (fp8, 128×128 blocks),
//! an llm-compressor NVFP4 export (compressed-tensors `nvfp4-pack-quantized`, as
//! RedHatAI/…-NVFP4 checkpoints ship), TheBloke/Llama-2-7B-AWQ, TheBloke/Llama-2-7B-Chat-GPTQ,
//! TheBloke/Mixtral-8x7B-v0.1-AWQ (`modules_to_not_convert: ["gate"]`), and a bitsandbytes
//! 4-bit config as transformers saves it (unsloth/…-bnb-4bit).

mod common;

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::memory::quant_weights::whole_model;
use gpu_primer::engine::model::config::parse_config;
use gpu_primer::engine::model::quant::ModuleClass;
use gpu_primer::engine::precision::Dtype;
use gpu_primer::engine::{ModelSpec, Report, Scenario};
use gpu_primer::i18n::{errors, Lang};
use serde_json::{json, Value};

fn llama_2_7b() -> Value {
    json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32000, "torch_dtype": "float16"})
}

fn llama_3_1_8b() -> Value {
    json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "torch_dtype": "bfloat16"})
}

fn mixtral_8x7b() -> Value {
    json!({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "num_local_experts": 8, "num_experts_per_tok": 2,
        "vocab_size": 32000, "sliding_window": null})
}

/// deepseek-ai/DeepSeek-V3 config.json (shape keys).
fn deepseek_v3() -> Value {
    json!({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
        "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128, "n_routed_experts": 256,
        "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
        "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128,
        "topk_method": "noaux_tc", "vocab_size": 129280, "tie_word_embeddings": false,
        "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
            "weight_block_size": [128, 128]}})
}

fn with_quant(mut cfg: Value, q: Value) -> Value {
    cfg["quantization_config"] = q;
    cfg
}

fn gpt_oss_quant() -> Value {
    json!({"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
        "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"})
}

fn report_with(cfg: Value, extra: Value) -> Report {
    let mut s = json!({"model": cfg, "context_tokens": 4096, "gpu": "h200-sxm"});
    if let (Some(o), Value::Object(e)) = (s.as_object_mut(), extra) {
        o.extend(e);
    }
    let s = Scenario::from_json(&s).unwrap_or_else(|e| panic!("{e}"));
    evaluate(&s).unwrap_or_else(|e| panic!("{e}"))
}

fn report(cfg: Value) -> Report {
    report_with(cfg, json!({}))
}

fn weights(r: &Report) -> u64 {
    r.memory_per_gpu_bytes.weights
}

#[test]
fn mxfp4_keeps_experts_in_4_25_bits_and_the_rest_in_bf16() {
    // Mixtral 8x7B with gpt-oss's quantization_config. Per layer: attention 4096·(4096+2·1024)
    // + 4096·4096 = 41,943,040; experts 8·3·4096·14336 = 1,409,286,144; router 4096·8 and
    // norms 2·4096. Experts over 32 layers: 45,097,156,608 × 17/32 (4 + 8/32 bits) / 1 byte
    // = 23,957,864,448 bytes; the other 1,605,636,096 parameters × 2 = 3,211,272,192 bytes.
    let r = report(with_quant(mixtral_8x7b(), gpt_oss_quant()));
    assert_eq!(r.params.total, 46_702_792_704);
    assert_eq!(weights(&r), 23_957_864_448 + 3_211_272_192);
    let q = r.model.quantization.as_ref().expect("quantization reported");
    assert_eq!((q.method, q.format.as_str(), q.group_size, q.applied), ("mxfp4", "mxfp4", 32, true));
    assert!((q.bits_per_weight - 4.25).abs() < 1e-12);
    assert_eq!(q.quantized, [ModuleClass::Experts]);
    assert!(q.sixteen_bit.contains(&ModuleClass::Attention) && q.sixteen_bit.contains(&ModuleClass::LmHead));
    assert!(q.unmatched.is_empty(), "{:?}", q.unmatched);
    assert!((r.weight_bits_per_element - 4.25).abs() < 1e-12);
    // The show-the-math says which format and source.
    let d = r.derivation("memory_per_gpu_bytes.weights").unwrap();
    assert_eq!(format!("{:?}", d.formula), "WeightsMixed");
    let d = r.derivation("weight_bits_per_element").unwrap();
    assert!(format!("{:?}", d.source).contains("OCP Microscaling"), "{:?}", d.source);
    // Decode reads the experts in MXFP4 too: fewer bytes than the same model in bf16.
    let bf16 = report_with(with_quant(mixtral_8x7b(), gpt_oss_quant()), json!({"weight_dtype": "bf16"}));
    assert!(r.performance.phases.decode.bytes < bf16.performance.phases.decode.bytes * 0.6);
}

#[test]
fn a_gpt_oss_config_has_its_experts_in_mxfp4() {
    // openai/gpt-oss-20b's shape keys: 24 layers × 32 experts × 3 · 2880 · 2880 = 19,110,297,600
    // expert parameters × 17/32 = 10,152,345,600 bytes.
    let cfg = json!({"model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880,
        "num_hidden_layers": 24, "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64,
        "num_local_experts": 32, "num_experts_per_tok": 4, "vocab_size": 201088, "tie_word_embeddings": false,
        "sliding_window": 128, "quantization_config": gpt_oss_quant()});
    let a = parse_config(&cfg).unwrap();
    let q = a.quantization.as_ref().unwrap();
    let p = whole_model(&a, q);
    assert_eq!(p.quantised.experts, 19_110_297_600);
    assert_eq!(p.class_bytes(q, ModuleClass::Experts, a.hidden), 10_152_345_600);
    assert_eq!(p.quantised.attention + p.quantised.embedding + p.quantised.lm_head + p.quantised.router, 0);
    // The generic count (an unknown family with the same keys) does not list
    // quantization_config among the keys it ignored.
    let mut generic = cfg.clone();
    generic["model_type"] = json!("made_up_family");
    let keys = parse_config(&generic).unwrap().inferred.unwrap();
    assert!(!keys.ignored.iter().any(|k| k.contains("quantization")), "{:?}", keys.ignored);
}

#[test]
fn deepseek_v3_fp8_has_one_fp32_scale_per_128x128_block() {
    // Attention (MLA) per layer: 7168·1536 + 1536·128·192 + 7168·576 + 512·128·256 + 128·128·7168
    // = 187,105,280; × 61 = 11,413,422,080. Dense MLP 3 × 3·7168·18432 + shared expert
    // 58 × 3·7168·2048 = 3,743,416,320. Routed experts 58 × 256 × 3·7168·2048 = 653,908,770,816.
    // FP8 + 32/16384 bits: each class × (1 + 1/4096) bytes. 16-bit: embedding and head
    // 2 × 129280·7168, routers 58 × 7168·256, norms and router biases 1,021,440.
    let r = report(deepseek_v3());
    assert_eq!(r.params.total, 671_026_419_200);
    let attention = 11_413_422_080 + 11_413_422_080 / 4096;
    let mlp = 3_743_416_320 + 3_743_416_320 / 4096;
    let experts = 653_908_770_816 + 653_908_770_816 / 4096;
    let sixteen = 2 * (1_853_358_080 + 106_430_464 + 1_021_440);
    assert_eq!(weights(&r), attention + mlp + experts + sixteen);
    assert_eq!(weights(&r), 673_150_575_280);
    let q = r.model.quantization.as_ref().unwrap();
    assert_eq!((q.method, q.format.as_str()), ("fp8", "fp8 128×128"));
    assert!(q.sixteen_bit.contains(&ModuleClass::Router) && q.sixteen_bit.contains(&ModuleClass::LmHead));
}

fn nvfp4_quant(ignore: Value) -> Value {
    json!({"config_groups": {"group_0": {
            "input_activations": {"actorder": null, "block_structure": null, "dynamic": "local", "group_size": 16,
                "num_bits": 4, "observer": "minmax", "observer_kwargs": {}, "strategy": "tensor_group",
                "symmetric": true, "type": "float"},
            "output_activations": null, "targets": ["Linear"],
            "weights": {"actorder": null, "block_structure": null, "dynamic": false, "group_size": 16, "num_bits": 4,
                "observer": "minmax", "observer_kwargs": {}, "strategy": "tensor_group", "symmetric": true,
                "type": "float"}}},
        "format": "nvfp4-pack-quantized", "global_compression_ratio": null, "ignore": ignore,
        "kv_cache_scheme": null, "quant_method": "compressed-tensors", "quantization_status": "compressed"})
}

#[test]
fn compressed_tensors_nvfp4_is_4_5_bits_and_follows_its_ignore_list() {
    // Llama 3.1 8B: 6,979,321,856 matrix parameters × 9/16 bytes (4 + 8/16 bits)
    // = 3,925,868,544; embedding, head and norms 1,050,939,392 × 2 = 2,101,878,784.
    let r = report(with_quant(llama_3_1_8b(), nvfp4_quant(json!(["lm_head"]))));
    assert_eq!(weights(&r), 3_925_868_544 + 2_101_878_784);
    let q = r.model.quantization.as_ref().unwrap();
    assert_eq!((q.method, q.format.as_str(), q.group_size), ("compressed-tensors", "nvfp4", 16));
    assert!((r.weight_bits_per_element - 4.5).abs() < 1e-12);
    // Without lm_head in `ignore`, "Linear" targets the head too: 525,336,576 more parameters
    // at 9/16 bytes instead of 2.
    let r = report(with_quant(llama_3_1_8b(), nvfp4_quant(json!([]))));
    assert_eq!(weights(&r), 3_925_868_544 + 2_101_878_784 - 2 * 525_336_576 + 525_336_576 / 16 * 9);
}

#[test]
fn compressed_tensors_ignore_keeps_the_moe_router_in_16_bits() {
    // Mixtral in NVFP4 with the router ignored (`re:.*mlp.gate$`, as MoE exports list it):
    // attention + experts 46,439,333,888 × 9/16 = 26,122,125,312 bytes; the rest × 2.
    let ignore = json!(["lm_head", "re:.*block_sparse_moe.gate$"]);
    let r = report(with_quant(mixtral_8x7b(), nvfp4_quant(ignore)));
    assert_eq!(weights(&r), 26_122_125_312 + 2 * (46_702_792_704 - 46_439_333_888));
    // Not ignored, "Linear" converts the router too (32 layers × 4096·8 parameters).
    let r = report(with_quant(mixtral_8x7b(), nvfp4_quant(json!(["lm_head"]))));
    let router = 32 * 4096 * 8;
    assert_eq!(
        weights(&r),
        (46_439_333_888 + router) / 16 * 9 + 2 * (46_702_792_704 - 46_439_333_888 - router)
    );
}

#[test]
fn awq_and_gptq_store_a_16_bit_scale_and_a_4_bit_zero_per_128() {
    // Llama 2 7B: 6,476,005,376 matrix parameters × (4 + 20/128) bits = × 532/1024 bytes
    // = 3,364,487,168; embedding, head and norms 262,410,240 × 2 = 524,820,480.
    let awq =
        json!({"bits": 4, "group_size": 128, "quant_method": "awq", "version": "gemm", "zero_point": true});
    assert_eq!(weights(&report(with_quant(llama_2_7b(), awq))), 3_364_487_168 + 524_820_480);
    let gptq = json!({"bits": 4, "group_size": 128, "damp_percent": 0.01, "desc_act": true, "sym": true,
        "true_sequential": true, "model_name_or_path": null, "model_file_base_name": "model", "quant_method": "gptq"});
    let r = report(with_quant(llama_2_7b(), gptq));
    assert_eq!(weights(&r), 3_364_487_168 + 524_820_480);
    assert_eq!(r.model.quantization.as_ref().unwrap().format, "int4 g128");
    // group_size -1: one scale and zero per input row (4096): 4 + 20/4096 bits.
    let per_row =
        json!({"bits": 4, "group_size": -1, "desc_act": false, "sym": true, "quant_method": "gptq"});
    assert_eq!(weights(&report(with_quant(llama_2_7b(), per_row))), 3_241_955_328 + 524_820_480);
    // AWQ without zero points: 4 + 16/128 bits.
    let sym = json!({"bits": 4, "group_size": 128, "quant_method": "awq", "zero_point": false});
    assert_eq!(weights(&report(with_quant(llama_2_7b(), sym))), 6_476_005_376 / 1024 * 528 + 524_820_480);
}

#[test]
fn awq_mixtral_keeps_the_gate_it_names() {
    // TheBloke/Mixtral-8x7B-v0.1-AWQ: modules_to_not_convert ["gate"] (the router).
    // Attention + experts 46,439,333,888 × 532/1024 = 24,126,685,184; the rest × 2.
    let q = json!({"bits": 4, "group_size": 128, "modules_to_not_convert": ["gate"], "quant_method": "awq",
        "version": "gemm", "zero_point": true});
    let r = report(with_quant(mixtral_8x7b(), q));
    assert_eq!(weights(&r), 24_126_685_184 + 526_917_632);
    // A per-layer entry keeps only that layer's block in 16 bits: layer 0's experts
    // (1,409,286,144 parameters) move from 532/1024 to 2 bytes each.
    let q = json!({"bits": 4, "group_size": 128, "modules_to_not_convert": ["model.layers.0.block_sparse_moe"],
        "quant_method": "awq", "zero_point": true});
    let r = report(with_quant(mixtral_8x7b(), q));
    let quantised = 46_439_333_888 - 1_409_286_144;
    assert_eq!(weights(&r), quantised / 1024 * 532 + 2 * (46_702_792_704 - quantised));
    assert_eq!(r.model.quantization.as_ref().unwrap().kept_layers.len(), 3);
}

#[test]
fn bitsandbytes_4_bit_and_8_bit() {
    // nf4 with double quantisation: 4 + 8/64 + 32/(64·256) bits = × 67,616/131,072 bytes.
    let nf4 = json!({"_load_in_4bit": true, "_load_in_8bit": false, "bnb_4bit_compute_dtype": "bfloat16",
        "bnb_4bit_quant_storage": "uint8", "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": true,
        "llm_int8_enable_fp32_cpu_offload": false, "llm_int8_has_fp16_weight": false, "llm_int8_skip_modules": null,
        "llm_int8_threshold": 6.0, "load_in_4bit": true, "load_in_8bit": false, "quant_method": "bitsandbytes"});
    let r = report(with_quant(llama_2_7b(), nf4));
    assert_eq!(weights(&r), 3_340_771_328 + 524_820_480);
    assert_eq!(r.model.quantization.as_ref().unwrap().format, "nf4 g64 dq");
    // fp4 without double quantisation: an FP32 absmax per 64 = 4.5 bits.
    let fp4 = json!({"load_in_4bit": true, "bnb_4bit_quant_type": "fp4", "quant_method": "bitsandbytes"});
    assert_eq!(weights(&report(with_quant(llama_2_7b(), fp4))), 6_476_005_376 / 16 * 9 + 524_820_480);
    // LLM.int8(): one FP32 scale per output row of 4096 inputs: 8 + 32/4096 bits.
    let int8 =
        json!({"load_in_8bit": true, "quant_method": "bitsandbytes", "llm_int8_skip_modules": ["lm_head"]});
    assert_eq!(weights(&report(with_quant(llama_2_7b(), int8))), 6_482_329_600 + 524_820_480);
}

#[test]
fn the_readers_dtype_wins_and_training_ignores_the_config() {
    let cfg = with_quant(mixtral_8x7b(), gpt_oss_quant());
    let r = report_with(cfg.clone(), json!({"weight_dtype": "bf16"}));
    assert_eq!(weights(&r), 2 * 46_702_792_704);
    let q = r.model.quantization.as_ref().unwrap();
    assert_eq!((q.applied, q.chosen_dtype), (false, Some(Dtype::Bf16)));
    // An explicit mxfp4 converts every matrix (attention too), unlike the config.
    let r = report_with(cfg.clone(), json!({"weight_dtype": "mxfp4"}));
    assert_eq!(weights(&r), (46_439_333_888 / 32) * 17 + 2 * (46_702_792_704 - 46_439_333_888));
    let r = report_with(cfg, json!({"mode": "lora"}));
    let q = r.model.quantization.as_ref().unwrap();
    assert!(!q.applied && q.training && q.chosen_dtype.is_none());
}

#[test]
fn mxfp4_and_nvfp4_are_weight_dtypes_of_the_scenario() {
    // Llama 2 7B without a quantization_config: matrices × 17/32 (MXFP4) or × 9/16 (NVFP4).
    let r = report_with(llama_2_7b(), json!({"weight_dtype": "mxfp4"}));
    assert_eq!(weights(&r), 3_440_377_856 + 524_820_480);
    assert!(r.model.quantization.is_none());
    let d = r.derivation("weight_bits_per_element").unwrap();
    assert!(format!("{:?}", d.values).contains("mxfp4"), "{:?}", d.values);
    let r = report_with(llama_2_7b(), json!({"weight_dtype": "nvfp4"}));
    assert_eq!(weights(&r), 6_476_005_376 / 16 * 9 + 524_820_480);
    assert!(format!("{:?}", r.derivation("weight_bits_per_element").unwrap().source).contains("NVFP4"));
}

fn field_of(q: Value) -> (String, String, String) {
    let cfg = with_quant(llama_2_7b(), q);
    let e = evaluate(&Scenario::new(ModelSpec::Config(cfg))).unwrap_err();
    let e = e.scenario_error().clone();
    (e.field.clone(), errors::scenario_error(&e, Lang::Zh), errors::scenario_error(&e, Lang::En))
}

#[test]
fn a_malformed_quantization_config_names_the_field_in_both_languages() {
    let cases = [
        (json!("fp8"), "model.quantization_config"),
        (json!({"bits": 4}), "model.quantization_config.quant_method"),
        (json!({"quant_method": "magic"}), "model.quantization_config.quant_method"),
        (
            json!({"quant_method": "fp8", "weight_block_size": [128]}),
            "model.quantization_config.weight_block_size",
        ),
        (
            json!({"quant_method": "fp8", "weight_block_size": [128, 0]}),
            "model.quantization_config.weight_block_size[1]",
        ),
        (json!({"quant_method": "gptq", "bits": 16, "group_size": 128}), "model.quantization_config.bits"),
        (json!({"quant_method": "gptq", "group_size": 128}), "model.quantization_config.bits"),
        (
            json!({"quant_method": "awq", "bits": 4, "group_size": "big"}),
            "model.quantization_config.group_size",
        ),
        (
            json!({"quant_method": "bitsandbytes", "load_in_4bit": false}),
            "model.quantization_config.load_in_4bit",
        ),
        (
            json!({"quant_method": "bitsandbytes", "load_in_4bit": true, "bnb_4bit_quant_type": "nf3"}),
            "model.quantization_config.bnb_4bit_quant_type",
        ),
        (json!({"quant_method": "compressed-tensors"}), "model.quantization_config.config_groups"),
        (
            json!({"quant_method": "compressed-tensors", "config_groups": {"group_0": {"targets": ["Linear"],
                "weights": {"type": "float", "strategy": "tensor_group", "group_size": 16}}}}),
            "model.quantization_config.config_groups.group_0.weights.num_bits",
        ),
        (
            json!({"quant_method": "mxfp4", "modules_to_not_convert": "lm_head"}),
            "model.quantization_config.modules_to_not_convert",
        ),
    ];
    for (q, field) in cases {
        let (got, zh, en) = field_of(q.clone());
        assert_eq!(got, field, "{q}");
        assert!(zh.contains(field) && en.contains(field), "{zh} / {en}");
        assert!(zh != en, "{zh}");
    }
}

#[test]
fn the_command_line_reads_the_new_dtypes_and_the_configs_format() {
    // `gpu-primer estimate -` with a pasted config and its quantization_config.
    let input = json!({"model": with_quant(mixtral_8x7b(), gpt_oss_quant())}).to_string();
    let (code, stdout, stderr) = common::estimate(&input);
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["memory_per_gpu_bytes"]["weights"], json!(23_957_864_448_u64 + 3_211_272_192));
    assert_eq!(v["model"]["quantization"]["method"], json!("mxfp4"));
    assert_eq!(v["model"]["quantization"]["quantized"], json!(["experts"]));
    assert_eq!(v["weight_bits_per_element"], json!(4.25));
    let input = json!({"model": llama_2_7b(), "weight_dtype": "nvfp4"}).to_string();
    let (code, stdout, _) = common::estimate(&input);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["memory_per_gpu_bytes"]["weights"], json!(6_476_005_376_u64 / 16 * 9 + 524_820_480));
    assert!(v["model"]["quantization"].is_null());
    // A bad quantization_config: exit 2, one line naming the field.
    let input =
        json!({"model": with_quant(llama_2_7b(), json!({"quant_method": "gptq", "bits": 16}))}).to_string();
    let (code, _, stderr) = common::estimate(&input);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("model.quantization_config.bits"), "{stderr}");
}

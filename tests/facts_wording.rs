//! Every derivation and assumption of a wide set of scenarios, worded in both languages: the
//! placeholders match the values, no Rust `Debug` text appears, and the Chinese wording has no
//! English word outside an allow-list (units, symbols, identifiers, proper names; cited titles
//! and identifiers such as GPU ids are exempt).

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::derivation::{Formula, Source, Val};
use gpu_primer::engine::{ModelSpec, Report, Scenario};
use gpu_primer::i18n::facts::{assumption, derivation, values_template};
use gpu_primer::i18n::Lang;
use serde_json::json;

fn scenario(v: serde_json::Value) -> Scenario {
    Scenario::from_json(&v).expect("test scenario parses")
}

fn reports() -> Vec<(String, Report)> {
    let cases = [
        json!({"model": "llama-3.1-8b"}),
        json!({"model": "llama-3.1-8b", "mode": "training", "recompute": "full", "zero_stage": 2, "gpus": 8}),
        json!({"model": "llama-3.1-8b", "mode": "lora", "optimizer": "adam8bit"}),
        json!({"model": "llama-3.1-70b", "mode": "qlora", "gpu": "a100-sxm-80gb"}),
        json!({"model": "mixtral-8x7b", "gpus": 2, "tensor_parallel": 2, "expert_parallel": 2}),
        json!({"model": "deepseek-v3", "gpus": 16, "tensor_parallel": 8, "pipeline_parallel": 2, "weight_dtype": "fp8"}),
        json!({"model": "llama-2-70b", "gpus": 16, "tensor_parallel": 8, "pipeline_parallel": 2, "topology": "pcie"}),
        json!({"model": "gpt2", "gpu": "t4", "compute_dtype": "bf16"}),
        json!({"model": "llama-3.1-8b", "price_per_gpu_hour": 2.5, "context_tokens": 200000}),
        json!({"model": "llama-3.1-8b", "gpu": {"memory_bytes": 24000000000u64, "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 1e14}}}),
        json!({"model": "llama-3.1-405b", "weight_dtype": "int4", "kv_dtype": "fp8", "batch": 64}),
        json!({"model": "gemma-4-e2b", "gpus": 2, "pipeline_parallel": 2, "context_tokens": 131072}),
        json!({"model": "gemma-4-26b-a4b", "gpus": 2, "tensor_parallel": 2}),
        json!({"model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090", "gpu_layers": 30, "host_memory_bytes": 64e9}),
        json!({"model": "qwen3-30b-a3b", "weight_dtype": "iq4_xs", "gpu": "rtx-4090", "n_cpu_moe": 12, "kv_dtype": "q8_0", "batch": 64}),
    ];
    cases
        .into_iter()
        .map(|c| {
            let label = c.to_string();
            let r = evaluate(&scenario(c)).unwrap_or_else(|e| panic!("{label}: {e}"));
            (label, r)
        })
        .collect()
}

/// English words a Chinese reader may see: units, symbols, identifiers, proper names.
const ALLOWED: &[&str] = &[
    // Byte units (show-the-math writes memory as `18.0 GB`): units read the same in both.
    "B",
    "KB",
    "MB",
    "GB",
    "TB",
    "PB",
    // Binary sizes beside an exact byte count (`131,072 B (128 KiB)`), FLOP counts and rates
    // with SI prefixes (`17.1 GFLOP`, `989.5 TFLOP/s`, `450 GB/s`): units read the same in both.
    "KiB",
    "MiB",
    "GiB",
    "kFLOP",
    "MFLOP",
    "GFLOP",
    "TFLOP",
    "PFLOP",
    "EFLOP",
    "kB",
    "V",
    "h",
    "lm_head",
    "MLP",
    "LoRA",
    "QLoRA",
    "r",
    "in",
    "out",
    "k",
    "top",
    "kv_heads",
    // Gemma 4's per-kind shapes (config keys head_dim, global_head_dim; global KV heads).
    "head_dim",
    "global_head_dim",
    "global_kv_heads",
    "head_dim_k",
    "head_dim_v",
    "kv_lora_rank",
    "qk_rope_head_dim",
    "MLA",
    "tp",
    // Expert parallelism's symbols (the MoE derivations): ep, moe_tp, the EP group, the
    // redundant experts R, the tokens T_moe, the experts touched X, the padding block BM, one
    // expert's parameters P_e, the fixed cost t0, a time t, η_c.
    "ep",
    "EP",
    "moe_tp",
    "R",
    "T_moe",
    "X",
    "BM",
    "P_e",
    "t0",
    "t",
    "c",
    // Training's dispatch and combine: the distinct GPUs D a token's experts are on, the layer's
    // compute time t_compute, and DeepEP, the kernels' project name.
    "D",
    "t_compute",
    "DeepEP",
    "ZeRO",
    "dp",
    "pp",
    "batch",
    // The zh chapters and UI say "token" (not 词元), "KV cache" and "kernel" (not KV 缓存 or
    // 内核: content/terminology.json); the derivations follow them.
    "token",
    "cache",
    "kernel",
    // Interconnect names (the topology picker's words, used by the scaling assumption).
    "NVLink",
    "NVSwitch",
    "InfiniBand",
    "AWS",
    "EFA",
    "PCIe",
    "ceil",
    "min",
    "max",
    "d_k",
    "d_v",
    "Q",
    "K",
    "O",
    "H",
    "s",
    "logits",
    // The engine's formats (fp32, bf16, q4_k_m…) are allowed by `Dtype::parse` in `allowed`.
    "tf32",
    "fp64",
    "fp4",
    "QKV",
    "CUDA",
    "NCCL",
    "cuBLAS",
    "gpu_memory_bytes",
    "safety_margin",
    "gpus",
    "M",
    "max_position_embeddings",
    "compute_dtype",
    "Tensor",
    "Core",
    "gpus_per_node",
    "I",
    "F",
    "B",
    "FLOP",
    "P",
    "P_o",
    "prompt",
    "L",
    "d_attn",
    "KV",
    "C_floor",
    "W",
    "F_eff",
    "B_eff",
    "C_exposed",
    "T_launch",
    "m",
    "p",
    "prefill_s",
    "output_tokens",
    "decode_step_s",
    "decode_step_s_bound",
    "data_parallel",
    "output",
    "generation_s",
    "phases",
    "training",
    "time_s",
    "micro_batches",
    "step_s",
    "price_per_gpu_hour",
    "e",
    "USD",
    "ms",
    "µs",
    "GiB",
    "vLLM",
    "PagedAttention",
    "Kwon",
    "et",
    "al",
    "torch",
    "Hugging",
    "Face",
    "transformers",
    "catalog",
    "data",
    "gpus",
    "json",
    "interconnects",
    "rs",
    "FlashAttention",
    "Williams",
    "T",
    "T_overhead",
    "C",
    "N",
    "roofline",
    "gptSessionBenchmark",
    "AdamW",
    "Adam",
    "SGD",
    "dropout",
    "F1B",
    "PEFT",
    "autocast_adapter_dtype",
    "context_tokens",
    "µs",
    "E",
    "x",
    "nvswitch",
    "nvswitch_efa",
    "pcie",
    "w",
    "b",
    "GPU",
    "CPU",
    "llama",
    "cpp",
    "ggml",
    "GGUF",
    "ngl",
    "fit",
    "ctk",
    "ctv",
    "macOS",
    "Metal",
    // llama.cpp's flags, tools and functions (--n-cpu-moe, llama-quantize, ggml_nbytes) and the
    // host part's symbols.
    "cpu",
    "moe",
    "quantize",
    "ggml_nbytes",
    "B_host",
    "e_host",
    "d",
    "n",
    // Training: context parallelism, frameworks, GPU generations and recipes (proper names).
    "cp",
    "FSDP",
    "Megatron",
    "PyTorch",
    "log",
    "softmax",
    "Hopper",
    "Blackwell",
    "MXFP8",
    "NVFP4",
    "MoE",
    // Collectives as NCCL names them (all-reduce, all-gather, reduce-scatter, all-to-all), as
    // the zh chapters write them.
    "all",
    "reduce",
    "gather",
    "scatter",
    "to",
    // The training step's symbols and the values a reader types (FLOP conventions, losses).
    "AG",
    "RS",
    // A GEMM's seconds in the tensor-parallel overlap (G_列, G_行).
    "G",
    "C_gather",
    "C_sync",
    "L_s",
    "P_local",
    "S",
    "a",
    "c",
    "e_bw",
    "ep",
    "o",
    "q",
    "g",
    "r_bwd",
    "r_fwd",
    "t_bwd",
    "t_fwd",
    "t_mb",
    "v",
    "logit",
    // The serving stacks whose kernels a derivation cites by name, and a pull request (PR #2904).
    "SGLang",
    "PR",
    // The tensor-parallel all-reduce's kernel keys, as its values name them.
    "vllm_custom",
    "trtllm_custom",
    "nccl_ring",
    // The all-reduce's derivation names TensorRT-LLM's kernels, the efficiency factors its
    // shares come from, and the report's key of the phase's all-reduce time.
    "TensorRT",
    "LLM",
    "intra_node_bus_bandwidth",
    "inter_node_bus_bandwidth",
    "tensor_parallel_comm_s",
    "palm",
    "with_embedding",
    "megatron_causal",
    "upcast",
    "vocab_parallel",
    "fused",
    "fused_linear",
];

/// A word a Chinese page may show: an allowed word, or a number format's name (`q4_k_m`, `bf16`:
/// identifiers, the same in every language).
fn allowed(w: &str) -> bool {
    ALLOWED.contains(&w) || gpu_primer::engine::precision::Dtype::parse(w).is_some()
}

fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        // Numbers (`1.0178e14` splits into `1` and `0178e14`) start with a digit.
        .map(|w| w.trim_matches('_'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
        .map(str::to_owned)
        .collect()
}

fn debug_text(text: &str, lang: Lang) -> Option<&'static str> {
    let mut bad = vec!["Some(", "None", "{:", "{}"];
    if lang == Lang::Zh {
        bad.extend(["true", "false"]);
    }
    bad.into_iter().find(|b| text.contains(b))
}

#[test]
fn every_template_has_one_placeholder_per_value() {
    for (label, r) in reports() {
        for (key, d) in &r.derivations {
            for lang in Lang::ALL {
                let holes = values_template(d.formula, lang).matches("{}").count();
                assert_eq!(holes, d.values.len(), "{} ({lang:?}) in {label}: template vs values", key.path());
            }
        }
    }
    // Every formula has a template in both languages with the same number of holes.
    for f in Formula::ALL {
        let (zh, en) = (values_template(f, Lang::Zh), values_template(f, Lang::En));
        assert_eq!(zh.matches("{}").count(), en.matches("{}").count(), "{f:?}");
    }
}

#[test]
fn no_debug_text_and_chinese_pages_speak_chinese() {
    let mut failures = Vec::new();
    for (label, r) in reports() {
        for (key, d) in &r.derivations {
            let ids: Vec<String> = d
                .values
                .iter()
                .filter_map(|v| match v {
                    Val::Id(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            for lang in Lang::ALL {
                let t = derivation(d, lang);
                let mut texts = vec![t.formula.clone(), t.values.clone()];
                if !matches!(d.source, Source::Cited(_)) {
                    texts.push(t.source.clone());
                }
                for text in texts {
                    if let Some(b) = debug_text(&text, lang) {
                        failures.push(format!("{} ({lang:?}): `{b}` in '{text}' [{label}]", key.path()));
                    }
                    if lang == Lang::Zh && text.contains("词元") {
                        failures.push(format!("{}: '词元' in '{text}' (the zh pages say token)", key.path()));
                    }
                    if lang == Lang::Zh {
                        let mut text = text.clone();
                        for id in &ids {
                            text = text.replace(id.as_str(), " ");
                        }
                        for w in english_words(&text) {
                            if !allowed(&w) {
                                failures.push(format!("{}: English word '{w}' in '{text}'", key.path()));
                            }
                        }
                    }
                }
            }
        }
        for a in &r.assumptions {
            for lang in Lang::ALL {
                let text = assumption(a, lang);
                if let Some(b) = debug_text(&text, lang) {
                    failures.push(format!("assumption {a:?} ({lang:?}): `{b}` in '{text}'"));
                }
                if lang == Lang::Zh && text.contains("词元") {
                    failures.push(format!("assumption: '词元' in '{text}' (the zh pages say token)"));
                }
                if lang == Lang::Zh {
                    for w in english_words(&text) {
                        if !allowed(&w) {
                            failures.push(format!("assumption: English word '{w}' in '{text}'"));
                        }
                    }
                }
            }
        }
    }
    failures.sort();
    failures.dedup();
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn worked_kv_per_token_for_llama_3_1_8b() {
    let r = evaluate(&Scenario::new(ModelSpec::Id("llama-3.1-8b".into()))).expect("evaluates");
    let d = r.derivation("kv_cache_bytes_per_token").expect("derived");
    let zh = derivation(d, Lang::Zh);
    assert_eq!(zh.values, "32 × 8 × (128 + 128) × 16 位/8 = 131,072 B (128 KiB)");
    assert_eq!(zh.formula, "层数 × kv_heads × (head_dim_k + head_dim_v) × 字节");
    let en = derivation(d, Lang::En);
    assert_eq!(en.values, "32 × 8 × (128 + 128) × 16 bits/8 = 131,072 B (128 KiB)");
    let act = derivation(r.derivation("memory_per_gpu_bytes.activations").expect("derived"), Lang::Zh);
    assert!(
        act.values.starts_with("上下文 4,096，batch 1，重算 不重算，FlashAttention 是，序列并行 否 → "),
        "{}",
        act.values
    );
    let topo = derivation(r.derivation("hardware.topology").expect("derived"), Lang::Zh);
    assert_eq!(topo.values, "nvswitch：每节点 8 块 GPU，节点内 450 GB/s，节点间 50 GB/s");
}

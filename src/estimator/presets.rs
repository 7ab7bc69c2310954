//! The article's worked examples as ready-made scenarios (each opens the estimator set to it).

use crate::engine::Scenario;
use crate::i18n::Lang;

/// A named scenario with a title and a one-line explanation in both languages.
#[derive(Debug)]
pub struct Preset {
    pub id: &'static str,
    pub title_zh: &'static str,
    pub title_en: &'static str,
    pub note_zh: &'static str,
    pub note_en: &'static str,
    /// Scenario JSON (only the fields that differ from the defaults).
    pub scenario: &'static str,
    /// Run on a MIG slice: (catalog GPU id, profile name).
    pub mig: Option<(&'static str, &'static str)>,
}

impl Preset {
    pub fn title(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.title_zh,
            Lang::En => self.title_en,
        }
    }

    pub fn note(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.note_zh,
            Lang::En => self.note_en,
        }
    }

    /// The preset's scenario. Presets are checked by a test, so this cannot fail at run time;
    /// should it ever, the default scenario is returned rather than panicking.
    pub fn scenario(&self) -> Scenario {
        let mut s = serde_json::from_str(self.scenario)
            .ok()
            .and_then(|v| Scenario::from_json(&v).ok())
            .unwrap_or_else(super::state::default_scenario);
        if let Some((gpu_id, profile)) = self.mig {
            let slice = crate::catalog::gpus::find(gpu_id).and_then(|g| {
                super::mig_slice::profiles(g)
                    .iter()
                    .find(|p| p.name == profile)
                    .map(|p| super::mig_slice::mig_slice(g, p))
            });
            if let Some(g) = slice {
                s.gpu = crate::engine::hardware::GpuSpec::Custom(Box::new(g));
            }
        }
        s
    }
}

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "70b-fp16",
        title_zh: "70B 模型 FP16 放进一张 80 GB GPU？",
        title_en: "A 70B model in FP16 on one 80 GB GPU?",
        note_zh: "权重约 141 GB，单卡装不下：看看需要几张卡，或者降到什么精度。",
        note_en: "About 141 GB of weights: it cannot fit. See how many GPUs, or which precision, would do.",
        scenario: r#"{"model": "llama-3.1-70b", "weight_dtype": "fp16", "gpu": "h100-sxm"}"#,
        mig: None,
    },
    Preset {
        id: "7b-int4-mig",
        title_zh: "7B 量化模型跑在一个 MIG 切片上",
        title_en: "A quantized 7B model on a MIG slice",
        note_zh: "INT4 权重约 4 GB，A100 80GB 的 1g.10gb 切片约 10 GB 显存（带宽与算力约为整卡的 1/7～1/8）。",
        note_en: "INT4 weights take about 4 GB; an A100 80GB 1g.10gb slice has about 10 GB (and roughly 1/7-1/8 of the card's bandwidth and compute).",
        scenario: r#"{"model": "llama-2-7b", "weight_dtype": "int4", "context_tokens": 2048, "batch": 3}"#,
        mig: Some(("a100-sxm-80gb", "1g.10gb")),
    },
    Preset {
        id: "long-context-chat",
        title_zh: "长上下文对话服务的高峰并发",
        title_en: "A long-context chat service at peak concurrency",
        note_zh: "8B 模型、32K 上下文、32 个并发请求：KV cache 比权重大得多。",
        note_en: "An 8B model, 32K context, 32 concurrent requests: the KV cache dwarfs the weights.",
        scenario: r#"{"model": "llama-3.1-8b", "context_tokens": 32768, "batch": 32, "gpu": "h100-sxm"}"#,
        mig: None,
    },
    Preset {
        id: "70b-32x8k-tp4",
        title_zh: "四张 H100 上的 70B：32 个 8K 请求",
        title_en: "A 70B model for 32 requests of 8K on four H100s",
        note_zh: "第 13 章的估算示例：BF16 权重与 KV cache，4 卡张量并行，每卡留出 10% 空闲。",
        note_en: "Chapter 13's worked estimate: BF16 weights and KV cache, tensor parallel over 4 GPUs, 10% of each kept free.",
        scenario: r#"{"model": "llama-3.1-70b", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm", "gpus": 4, "tensor_parallel": 4}"#,
        mig: None,
    },
    Preset {
        id: "lora-l4",
        title_zh: "在一张 L4 上做 LoRA 微调",
        title_en: "A LoRA fine-tune on one L4",
        note_zh: "24 GB 的 L4 上微调 8B 模型：BF16 底座约 16 GB，再加适配器（秩 16，挂在四个注意力投影上）、优化器状态和激活（开启完整重计算），余量很小。",
        note_en: "An 8B model on a 24 GB L4: the BF16 base takes about 16 GB; adapters (rank 16 on the four attention projections), optimizer states and activations (with full recomputation) leave little room.",
        scenario: r#"{"model": "llama-3.1-8b", "mode": "lora", "gpu": "l4", "context_tokens": 2048, "batch": 1, "lora_rank": 16, "lora_targets": ["q_proj", "k_proj", "v_proj", "o_proj"], "recompute": "full"}"#,
        mig: None,
    },
    Preset {
        id: "hybrid-128k",
        title_zh: "混合模型的长上下文：16 个 128K 序列",
        title_en: "A hybrid model at long context: 16 sequences of 128K",
        note_zh: "Qwen3-Next-80B-A3B：48 层里只有 12 层注意力层保留随上下文增长的 KV cache，其余 36 层 Gated DeltaNet 每序列只有约 38 MiB 的固定状态。",
        note_en: "Qwen3-Next-80B-A3B: only 12 of its 48 layers are attention with a KV cache that grows with the context; the 36 Gated DeltaNet layers keep a fixed state of about 38 MiB per sequence.",
        scenario: r#"{"model": "qwen3-next-80b-a3b", "context_tokens": 131072, "batch": 16, "gpu": "h200-sxm", "gpus": 2, "tensor_parallel": 2}"#,
        mig: None,
    },
    Preset {
        id: "phases-8b",
        title_zh: "prefill 与 decode：同一个模型的两个阶段",
        title_en: "Prefill and decode: two phases of one model",
        note_zh: "Llama-3.1-8B（BF16）在 H100 SXM 上：2,048 个 token 的提示，再生成 256 个。prefill 受算力限制，决定 TTFT；decode 受带宽限制，决定 TPOT。拖动 batch，看哪一个变了。",
        note_en: "Llama-3.1-8B (BF16) on an H100 SXM: a 2,048-token prompt, then 256 generated tokens. Prefill is compute-bound and sets the TTFT; decode is memory-bound and sets the TPOT. Move the batch and see which one changes.",
        scenario: r#"{"model": "llama-3.1-8b", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 1, "gpu": "h100-sxm"}"#,
        mig: None,
    },
];

pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::evaluate;

    #[test]
    fn every_preset_is_a_valid_scenario() {
        for p in PRESETS {
            let v: serde_json::Value = serde_json::from_str(p.scenario).unwrap();
            Scenario::from_json(&v).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            evaluate(&p.scenario()).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        }
    }

    #[test]
    fn presets_tell_the_articles_stories() {
        let r = evaluate(&find("70b-fp16").unwrap().scenario()).unwrap();
        assert!(!r.fits, "70B in FP16 does not fit one 80 GB GPU");
        assert!(r.memory_per_gpu_bytes.weights > 140_000_000_000);
        let r = evaluate(&find("long-context-chat").unwrap().scenario()).unwrap();
        assert!(r.memory_per_gpu_bytes.kv_cache > 4 * r.memory_per_gpu_bytes.weights);
        let r = evaluate(&find("7b-int4-mig").unwrap().scenario()).unwrap();
        assert!(r.fits, "a 4-bit 7B fits a 10 GB slice");
        assert_eq!(r.gpu_memory_bytes, 10_000_000_000);
    }
}

#[cfg(test)]
mod chapter_widgets {
    use crate::content::{chapters, Segment};
    use crate::route::Tool;

    /// Every `{{widget:KIND:PRESET}}` in a chapter names an existing preset, and a chapter holds
    /// at most one calculator (their controls share element ids; the WebGPU lab's are its own).
    #[test]
    fn chapter_widgets_name_existing_presets() {
        let mut seen = 0;
        for c in chapters() {
            for page in [&c.zh, &c.en] {
                let widgets: Vec<&str> = page
                    .segments
                    .iter()
                    .filter_map(|s| if let Segment::Widget(w) = s { Some(*w) } else { None })
                    .filter(|w| *w != "lab")
                    .collect();
                let mut calculators = 0;
                for w in widgets {
                    let (kind, preset) = w.split_once(':').map_or((w, None), |(k, p)| (k, Some(p)));
                    let Some(preset) = preset else {
                        // Lesson widgets (`content::LESSON_WIDGETS`) have their own element ids.
                        let lesson = crate::content::LESSON_WIDGETS;
                        // A decision tool has its own element ids too.
                        if !lesson.contains(&kind) && Tool::from_slug(kind).is_none() {
                            calculators += 1;
                        }
                        continue;
                    };
                    // A decision tool has its own ids and presets; the estimator's widgets share
                    // ids, so a chapter holds at most one of them.
                    let known = match Tool::from_slug(kind) {
                        Some(Tool::Mig) => {
                            crate::tools::mig::state::PRESETS.iter().any(|(n, _)| *n == preset)
                        }
                        Some(Tool::Diagnose) => {
                            crate::tools::diagnose::PRESETS.iter().any(|(n, _)| *n == preset)
                        }
                        Some(Tool::Cloud) => crate::tools::cloud::preset(preset).is_some(),
                        // Its presets are worded per language; `tools::cluster`'s tests check the slots.
                        Some(Tool::Cluster) => true,
                        // It reads no presets: its widget opens on the default machine.
                        Some(Tool::Local) => false,
                        None => {
                            calculators += 1;
                            super::find(preset).is_some()
                        }
                    };
                    assert!(known, "{}: unknown preset {w}", c.slug);
                    seen += 1;
                }
                assert!(calculators <= 1, "{}: one calculator per chapter", c.slug);
            }
        }
        assert!(seen >= 10, "chapters carry calculators in both languages ({seen})");
    }
}

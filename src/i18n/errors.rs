//! Errors and notices in words: every [`ErrorKind`] and [`NoticeKind`] in Chinese and English,
//! with exhaustive matches. English errors read as the engine's `Display` (the CLI's wording);
//! serde's own text never reaches a reader (it is classified first, see
//! `engine::error::classify_serde`).

use super::Lang;
use crate::engine::error::{Catalogue, ErrorKind, Expected, ScenarioError};
use crate::estimator::hand_model::{HandErrorKind, HandModelError};
use crate::estimator::state::{Kept, Notice, NoticeKind};

/// `field: message` in `lang`.
pub fn scenario_error(e: &ScenarioError, lang: Lang) -> String {
    let sep = if lang == Lang::Zh { "：" } else { ": " };
    format!("{}{sep}{}", e.field, error_kind(&e.kind, lang))
}

/// A hand-made model's error, `field: message`, in `lang`.
pub fn hand_model_error(e: &HandModelError, lang: Lang) -> String {
    use HandErrorKind as H;
    let text = match (&e.kind, lang) {
        (H::Layers { got }, Lang::En) => format!("must be between 1 and 1000, got {got}"),
        (H::Layers { got }, Lang::Zh) => format!("应在 1 到 1000 之间，实际为 {got}"),
        (H::Hidden { got }, Lang::En) => format!("must be a multiple of 64 between 64 and 65536, got {got}"),
        (H::Hidden { got }, Lang::Zh) => format!("应为 64 到 65536 之间 64 的倍数，实际为 {got}"),
        (H::KvHeads { heads, hidden, head_dim, got }, Lang::En) => format!(
            "must divide the {heads} attention heads (hidden {hidden} / head_dim {head_dim}), got {got}"
        ),
        (H::KvHeads { heads, hidden, head_dim, got }, Lang::Zh) => {
            format!("应整除 {heads} 个注意力头（hidden {hidden} / head_dim {head_dim}），实际为 {got}")
        }
        (H::TooFewParams { params, layers, hidden, needed }, Lang::En) => format!(
            "{params} is too few for {layers} layers of hidden size {hidden} (embeddings and attention alone need {needed})"
        ),
        (H::TooFewParams { params, layers, hidden, needed }, Lang::Zh) => format!(
            "{params} 个参数不够 {layers} 层、hidden 为 {hidden} 的模型（仅嵌入和注意力就需要 {needed}）"
        ),
        (H::MlpTooWide { params, ffn }, Lang::En) => {
            format!("{params} needs an MLP {ffn} wide for these sizes: add layers or hidden size")
        }
        (H::MlpTooWide { params, ffn }, Lang::Zh) => {
            format!("按这些尺寸，{params} 个参数需要 {ffn} 宽的 MLP：请增加层数或 hidden")
        }
    };
    let sep = if lang == Lang::Zh { "：" } else { ": " };
    format!("{}{sep}{text}", e.field)
}

fn expected_zh(e: &Expected) -> String {
    match e {
        Expected::WholeNumber => "非负整数".into(),
        Expected::Number => "数字".into(),
        Expected::Text => "文本".into(),
        Expected::TrueFalse => "true 或 false".into(),
        Expected::OneOf(v) => format!("以下之一：{}", v.join("、")),
        Expected::Object => "JSON 对象".into(),
        Expected::List => "列表".into(),
        Expected::GpuIdOrObject => {
            "GPU 目录 id，或含 memory_bytes、memory_bandwidth_bytes_per_s 和 peak_flops 的对象".into()
        }
        Expected::ModelIdOrConfig => "模型目录 id 字符串，或 config.json 对象".into(),
    }
}

/// What is wrong, in `lang` (without the field).
pub fn error_kind(k: &ErrorKind, lang: Lang) -> String {
    if lang == Lang::En {
        return k.to_string();
    }
    use ErrorKind as K;
    match k {
        K::OutOfRange { min, max, got } => format!("应在 {min} 到 {max} 之间，实际为 {got}"),
        K::IntegerOutOfRange { min, max, got } => format!("应为 {min} 到 {max} 之间的整数，实际为 {got}"),
        K::NotPositive { got } => format!("应大于 0，实际为 {got}"),
        K::Negative { got } => format!("应不小于 0，实际为 {got}"),
        K::RateOutOfRange { max, got } => format!("应为 (0, {max:e}] 之间的每秒速率，实际为 {got}"),
        K::TooLarge => "数值过大，无法表示".into(),
        K::Empty => "不能为空".into(),
        K::NotAnObject => "应为 JSON 对象".into(),
        K::Missing => "缺少此项".into(),
        K::ModelRequired => "必须给出（模型目录 id 或 config.json 对象）".into(),
        K::MissingFromConfig => "模型配置中缺少此项".into(),
        K::WrongType { expected, got } if got.is_empty() => format!("应为{}", expected_zh(expected)),
        K::WrongType { expected, got } => format!("应为{}，实际为 {got}", expected_zh(expected)),
        K::UnknownKey { key, known } => format!("未知字段“{key}”（可用：{}）", known.join("、")),
        K::InvalidJson { line, column } => format!("不是有效的 JSON（第 {line} 行第 {column} 列）"),
        K::UnknownId { catalogue: Catalogue::Model, id, known } if known.is_empty() => {
            format!("目录中没有名为“{id}”的模型")
        }
        K::UnknownId { catalogue: Catalogue::Model, id, known } => {
            format!("目录中没有模型“{id}”（最接近的：{}）", known.join("、"))
        }
        K::UnknownId { catalogue: Catalogue::Gpu, id, known } => {
            format!("目录中没有 GPU“{id}”（最接近的：{}，或内联对象）", known.join("、"))
        }
        K::UnknownFamily { family, supported, missing } => format!(
            "不认识的模型族“{family}”（支持：{supported}）；按通用解码器计数还需要配置中的 {}",
            missing.join("、")
        ),
        K::MissingFamily { supported } => format!("缺少此项（支持：{supported}）"),
        K::TensorParallelSplit { heads, kv_heads, got } => format!(
            "应整除 num_attention_heads（{heads}），并整除 num_key_value_heads（{kv_heads}）或为其倍数，实际为 {got}"
        ),
        K::MoreStagesThanLayers { layers, got } => format!("应在 1 到层数（{layers}）之间，实际为 {got}"),
        K::PromptPlusOutput { context, prompt, output } => format!(
            "prompt_tokens + output_tokens 不能超过 context_tokens（{context}），实际为 {prompt} + {output}"
        ),
        K::NotMultipleOfGroup { group, got } => {
            format!("应为 tensor_parallel × pipeline_parallel（{group}）的倍数，实际为 {got}")
        }
        K::LayoutMismatch { gpus, group, dp } => format!(
            "tensor_parallel × pipeline_parallel × data_parallel 应等于 gpus（{gpus}），实际为 {group} × {dp}"
        ),
        K::MoreThanGpus { gpus, got } => format!("不能超过 gpus（{gpus}），实际为 {got}"),
        K::ExpertParallelSplit { stage_gpus, tp, got } => format!(
            "应整除一个流水线阶段的 GPU 数 tensor_parallel × data_parallel（{stage_gpus}），并整除 tensor_parallel（{tp}）或为其倍数，实际为 {got}"
        ),
        K::MoreThanExperts { experts, got } => format!(
            "应在 1 到路由专家数加 redundant_experts（{experts}；稠密模型没有可分布的专家：1）之间，实际为 {got}"
        ),
        K::ExpertsNotDivisible { experts, allowed, got } => format!(
            "使用 SGLang 或训练时应整除路由专家数加 redundant_experts（{experts}；只有 vLLM 会把余数分给部分 GPU）：可取 {}，实际为 {got}",
            crate::engine::error::join_u64(allowed, "、")
        ),
        K::NotALoraTarget { allowed, got } => {
            format!("应为 {} 或 all-linear 之一，实际为“{got}”", allowed.join("、"))
        }
        K::TrainingNeedsFloat { got } => format!("全量训练需要 fp32、bf16 或 fp16 权重，实际为 {}", got.name()),
        K::QloraNeedsQuantised { got } => {
            format!("QLoRA 需要量化的基座（nf4、int4 或 int8），实际为 {}", got.name())
        }
        K::NoUsablePeak => "没有可用的峰值算力".into(),
        K::NoPeakGiven => "请至少给出一个稠密峰值（如 bf16 或 fp32），单位 FLOP/s".into(),
        K::MustDivide { what, value, got } => format!("应整除 {what}（{value}），实际为 {got}"),
        K::OnePerLayer { layers, got } => format!("应每层一项（{layers} 项），实际为 {got} 项"),
        K::BadTensorRun { index } => {
            format!("第 {index} 项不是［角色，首层，末层，行长，元素数，ggml 类型］")
        }
        K::KvCacheFormat { got } => format!(
            "llama.cpp 的 KV cache 只接受 f32、f16、bf16、q8_0、q4_0、q4_1、iq4_nl、q5_0 或 q5_1，实际为 {}",
            got.name()
        ),
        K::QuantizedCacheNeedsFlashAttention { got } => format!(
            "{} 格式的 V cache 需要开启 FlashAttention（llama.cpp 会报错 “V cache quantization requires flash_attn”）；请打开 flash_attention",
            got.name()
        ),
        K::OffloadNeedsOneGpu { tp, pp } => format!(
            "把部分层放在主机内存时，模型须在单块 GPU 上（tensor_parallel 1、pipeline_parallel 1），实际为 {tp} × {pp}"
        ),
        K::NotMultipleOf { of, value, got } => format!("应为 {of}（{value}）的倍数，实际为 {got}"),
        K::ContextLayoutMismatch { gpus, group, dp } => format!(
            "tensor_parallel × pipeline_parallel × context_parallel × data_parallel 应等于 gpus（{gpus}），实际为 {group} × {dp}"
        ),
        K::NeedsTraining => "只用于训练（mode 为 training、lora 或 qlora）".into(),
        K::NeedsPipeline { pp } => format!("交错调度需要 pipeline_parallel 至少为 2，实际为 {pp}"),
        K::EpOverlapWithFullRecompute => "完全重算时不能重叠（Megatron 不允许）".into(),
        K::EpOverlapNeedsVirtualStages { pp } => format!(
            "pipeline_parallel 为 {pp} 时需要 virtual_pipeline_stages 至少为 2"
        ),
        K::RecipeNeedsPath { recipe, needs: "fp4" } => {
            format!("{recipe} 需要带 Blackwell 块缩放 Tensor Core 的 GPU（目录中的 fp4 路径）")
        }
        K::RecipeNeedsPath { recipe, needs } => format!("{recipe} 需要带 {needs} Tensor Core 路径的 GPU（Ada 及之后）"),
        K::KernelNeedsArchitecture { kernel, needs, architecture } => {
            let needs = needs.replace(" or ", " 或 ");
            format!("{kernel} 只在 {needs} GPU 上运行，不能用于 {architecture}")
        }
        K::OpenFraction { got } => format!("应在 0 到 1 之间（不含 0 和 1），实际为 {got}"),
        K::AcceptancePerDraftToken { draft_tokens, got } => {
            format!("每个草稿 token 需要一个接受率（共 {draft_tokens} 个），实际为 {got} 个")
        }
        K::AcceptanceRises { position } => format!(
            "累计接受率不能随位置上升，但位置 {position} 高于位置 {}",
            position.saturating_sub(1)
        ),
        K::NoPublishedAcceptance { method, draft_tokens } => format!(
            "必须给出：{} 在 {draft_tokens} 个草稿 token 时没有公开的接受率（请给出 (0, 1) 内的接受率、逐位置接受率或接受长度）",
            method.key()
        ),
        K::MoreThanMtpModules { modules: 0, .. } => "该模型没有多 token 预测（MTP）模块，mtp 需要至少一个".into(),
        K::MoreThanMtpModules { modules, got } => {
            format!(
                "不能超过检查点自带的多 token 预测模块数（{modules}），实际为 {got}：本估算器每个模块最多只算一个草稿 token；推理引擎可以让一个模块连续起草多步（SGLang 的 “--speculative-num-steps”），靠后位置的接受率更低"
            )
        }
        K::DraftLargerThanTarget { draft, target } => {
            format!("草稿模型必须比目标模型小：{draft} 个参数，目标模型 {target} 个")
        }
        K::NeedsInference => "只用于推理服务（mode 为 inference）".into(),
        K::DecodePoolHoldsNoSequence { tokens } => format!(
            "decode 节点在权重之外放不下一条 {tokens} 个 token（提示加输出）的序列：给它更多 GPU（tensor_parallel），或减少 token"
        ),
        K::PrefillWorkerHoldsNoPrompt { tokens } => {
            format!("prefill 节点在权重之外放不下一条 {tokens} 个 token 的提示：给它更多 GPU（prefill_tensor_parallel）")
        }
        K::NoNvlink => "这张 GPU 没有 NVLink：请选 pcie 或网络（infiniband、roce、efa）".into(),
        K::Invalid { .. } => "取值无效".into(),
    }
}

fn kept(k: &Kept, lang: Lang) -> String {
    match (k, lang) {
        (Kept::Value(v), _) => v.clone(),
        (Kept::Default, Lang::Zh) => "默认值".into(),
        (Kept::Default, Lang::En) => "the default".into(),
    }
}

/// The field a notice names, as shown: the banner's routing prefixes (`import:`,
/// `file-error:`) dropped, and a notice about the saved state (`saved:` prefix) labelled in `lang`.
pub fn notice_field(field: &str, lang: Lang) -> String {
    // The banner's own entries about the imported file are not scenario fields: word them.
    match (field, lang) {
        ("file-error", Lang::Zh) => return "导入的文件".into(),
        ("file-error", Lang::En) => return "imported file".into(),
        ("file-error:file", Lang::Zh) => return "文件内容".into(),
        ("file-error:file", Lang::En) => return "file contents".into(),
        _ => {}
    }
    let field = field.trim_start_matches("import:").trim_start_matches("file-error:");
    match (field.strip_prefix("saved:"), lang) {
        (Some(rest), Lang::Zh) => format!("已保存的状态 · {rest}"),
        (Some(rest), Lang::En) => format!("saved state · {rest}"),
        (None, _) => field.to_owned(),
    }
}

/// A scenario field in the reader's words (the estimator's label for it), when it has one:
/// `context_tokens` is "Context length" / "上下文长度". Nested fields are labelled by their
/// group (`efficiency.memory_bandwidth`: "Efficiency …"), a compare scenario's by its own.
pub fn field_label(field: &str, lang: Lang) -> Option<&'static str> {
    let e = lang.est();
    let l = lang.load();
    let top = field.strip_prefix("compare.").unwrap_or(field);
    let top = top.split('.').next().unwrap_or(top);
    Some(match top {
        "model" => e.model,
        "mode" => e.mode,
        "weight_dtype" => e.weight_dtype,
        "kv_dtype" => e.kv_dtype,
        "activation_dtype" => e.activation_dtype,
        "context_tokens" => e.context,
        "batch" => e.batch_inference,
        "gpu" => e.gpu,
        "gpus" => e.gpus,
        "tensor_parallel" => e.tensor_parallel,
        "pipeline_parallel" => e.pipeline_parallel,
        "data_parallel" => e.data_parallel,
        "topology" => e.topology,
        "price_per_gpu_hour" => e.price,
        "output_tokens" => e.output_tokens,
        "optimizer" => e.optimizer,
        "zero_stage" => e.zero_stage,
        "recompute" => e.recompute,
        "lora_rank" => e.lora_rank,
        "flash_attention" => e.flash_attention,
        "training_precision" => e.training_precision,
        "optimizer_in_backward" => e.optimizer_in_backward,
        "activation_offload" => e.activation_offload,
        "loss_chunks" => e.loss_chunks,
        "safety_margin" => e.safety_margin,
        "runtime_overhead_bytes" => e.overhead,
        "int4_group_size" => e.int4_group,
        "kv_block_tokens" => e.kv_block,
        "efficiency" => e.efficiency,
        "arrival_rate_per_s" => l.arrival_rate,
        "concurrent_users" => l.users,
        "prefix_shared_tokens" => e.prefix_shared,
        "prefix_hit_rate" => e.prefix_hit,
        "prefix_open_sessions" => e.kv_sessions,
        "kv_gpu_cache_bytes" => e.kv_gpu_cache_off,
        "kv_cpu_tier_bytes" => e.kv_cpu_tier,
        "kv_cpu_tier_bytes_per_s" => e.kv_cpu_rate,
        "kv_ssd_tier_bytes" => e.kv_ssd_tier,
        "kv_ssd_tier_bytes_per_s" => e.kv_ssd_rate,
        _ => return None,
    })
}

/// A notice as a list item of the estimator's banner (HTML, every text escaped: field names
/// come from the link or file): the field in the reader's words with its key after it
/// (`Context length (context_tokens)`), the imported file worded, then what happened.
pub fn notice_item_html(n: &Notice, lang: Lang) -> String {
    use crate::html::escape;
    let shown = notice_field(&n.field, lang);
    let text = escape(&notice(n, lang));
    let sep = if lang == Lang::Zh { "：" } else { ": " };
    if n.field == "file-error" || n.field == "file-error:file" {
        return format!("<li><span class=\"field\">{}</span>{sep}{text}</li>", escape(&shown));
    }
    let bare = n.field.trim_start_matches("import:").trim_start_matches("file-error:");
    let bare = bare.strip_prefix("saved:").unwrap_or(bare);
    let name = match (field_label(bare, lang), lang) {
        (Some(label), Lang::Zh) => {
            format!("<span class=\"field\">{}</span>（<code>{}</code>）", escape(label), escape(&shown))
        }
        (Some(label), Lang::En) => {
            format!("<span class=\"field\">{}</span> (<code>{}</code>)", escape(label), escape(&shown))
        }
        (None, _) => format!("<code>{}</code>", escape(&shown)),
    };
    format!("<li>{name}{sep}{text}</li>")
}

/// A notice in `lang` (without the field).
pub fn notice(n: &Notice, lang: Lang) -> String {
    notice_kind(&n.kind, lang)
}

/// A notice's reason in `lang`.
pub fn notice_kind(k: &NoticeKind, lang: Lang) -> String {
    use NoticeKind as N;
    let e = |k: &ErrorKind| error_kind(k, lang);
    match lang {
        Lang::En => match k {
            N::Rejected(err) => e(err),
            N::RejectedKept { error, kept: v } => format!("{}; kept {}", e(error), kept(v, lang)),
            N::Conflicts { with, error, kept: v } => {
                format!("conflicts with {with}: {}; kept {}", e(error), kept(v, lang))
            }
            N::NotApplied { kept: v } => format!("could not be applied; kept {}", kept(v, lang)),
            N::UnknownPart { part } => format!("ignored unknown part '{part}'"),
            N::UnknownUnit { unit } => format!("unknown unit '{unit}' (gb or gib); showing GB"),
            N::OtherVersion { found, current } => format!(
                "made by another version of this page (v={found}, this is v={current}); opened the nearest state it describes"
            ),
            N::NoVersion { current } => format!("has no version (v=…); read as v={current}"),
            N::NotBase64 => "the scenario is damaged (not base64url); opened the defaults".into(),
            N::Damaged(err) => format!("the scenario is damaged: {}; opened the defaults", e(err)),
            N::NotAnObject => "must be a JSON object; opened the defaults".into(),
            N::MissingModel { default } => format!("is missing; using {default}"),
            N::FileNotJson(err) => e(err),
            N::FileNotAnObject => "must contain a JSON object (a scenario), not an array or a value".into(),
            N::FileMissingModel => {
                "is missing: a scenario names a catalog model id or holds a config.json object".into()
            }
            N::FileName { name } => name.clone(),
            N::FileEmpty => "the file is empty: export a scenario from this page to see what a file holds".into(),
            N::Clamped { error, to } => format!("{}; set to the nearest allowed value, {to}", e(error)),
        },
        Lang::Zh => match k {
            N::Rejected(err) => e(err),
            N::RejectedKept { error, kept: v } => format!("{}；保留 {}", e(error), kept(v, lang)),
            N::Conflicts { with, error, kept: v } => {
                format!("与 {with} 冲突：{}；保留 {}", e(error), kept(v, lang))
            }
            N::NotApplied { kept: v } => format!("无法应用；保留 {}", kept(v, lang)),
            N::UnknownPart { part } => format!("忽略了无法识别的部分“{part}”"),
            N::UnknownUnit { unit } => format!("未知单位“{unit}”（应为 gb 或 gib）；按 GB 显示"),
            N::OtherVersion { found, current } => {
                format!("由本页的其他版本生成（v={found}，当前为 v={current}）；已打开最接近的状态")
            }
            N::NoVersion { current } => format!("没有版本号（v=…）；按 v={current} 读取"),
            N::NotBase64 => "场景数据已损坏（不是 base64url）；已打开默认设置".into(),
            N::Damaged(err) => format!("场景数据已损坏（{}）；已打开默认设置", e(err)),
            N::NotAnObject => "应为 JSON 对象；已打开默认设置".into(),
            N::MissingModel { default } => format!("缺少此项；使用 {default}"),
            N::FileNotJson(err) => e(err),
            N::FileNotAnObject => "应包含一个 JSON 对象（场景），而不是数组或单个值".into(),
            N::FileMissingModel => "缺少此项：场景应给出模型目录 id 或 config.json 对象".into(),
            N::FileName { name } => name.clone(),
            N::FileEmpty => "文件是空的：可以先在本页导出一个场景，看看文件里应有什么".into(),
            N::Clamped { error, to } => format!("{}；已改为最接近的允许值 {to}", e(error)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimator::state::{decode, import_json};

    /// Serde's words (`invalid type`, `expected u64`) and Debug text never reach a reader.
    fn assert_worded(text: &str, lang: Lang) {
        for bad in ["invalid type", "invalid value", "expected u64", "expected f64", "Some(", "None"] {
            assert!(!text.contains(bad), "{lang:?}: '{bad}' in '{text}'");
        }
        if lang == Lang::Zh {
            for bad in ["must", "got", "kept", "expected", "default"] {
                assert!(!text.contains(bad), "zh: '{bad}' in '{text}'");
            }
        }
    }

    /// A recipe or kernel refused on a GPU says which GPUs run it, in the reader's words (the
    /// engine's "Hopper or Blackwell" is "Hopper 或 Blackwell" in Chinese).
    #[test]
    fn a_recipe_refused_on_a_gpu_names_the_gpus_that_run_it() {
        let k = ErrorKind::KernelNeedsArchitecture {
            kernel: "fp8_blockwise",
            needs: "Hopper or Blackwell",
            architecture: "Ada Lovelace (AD102)".into(),
        };
        let zh = error_kind(&k, Lang::Zh);
        assert_eq!(zh, "fp8_blockwise 只在 Hopper 或 Blackwell GPU 上运行，不能用于 Ada Lovelace (AD102)");
        assert_worded(&zh, Lang::Zh);
        let mx = ErrorKind::RecipeNeedsPath { recipe: "mxfp8", needs: "fp4" };
        assert!(error_kind(&mx, Lang::Zh).contains("Blackwell 块缩放 Tensor Core"));
        assert!(error_kind(&mx, Lang::En).contains("Blackwell's block-scaled Tensor Cores"));
    }

    #[test]
    fn an_out_of_range_value_in_a_file_is_clamped_and_fields_are_named_in_the_readers_words() {
        let (s, notices) = import_json(
            r#"{"model": "llama-3.1-8b", "context_tokens": 20000000, "safety_margin": 2, "batch": 4}"#,
        )
        .unwrap();
        assert_eq!((s.context_tokens, s.batch), (10_000_000, 4));
        assert!(s.safety_margin < 1.0);
        let ctx = notices.iter().find(|n| n.field == "context_tokens").expect("named");
        assert!(matches!(&ctx.kind, NoticeKind::Clamped { to, .. } if to == "10000000"), "{ctx:?}");
        assert!(
            notice(ctx, Lang::En).ends_with("set to the nearest allowed value, 10000000"),
            "{}",
            notice(ctx, Lang::En)
        );
        assert!(notice(ctx, Lang::Zh).ends_with("已改为最接近的允许值 10000000"));
        let item =
            notice_item_html(&Notice { field: "import:context_tokens".into(), ..ctx.clone() }, Lang::Zh);
        assert!(
            item.starts_with("<li><span class=\"field\">上下文长度</span>（<code>context_tokens</code>）："),
            "{item}"
        );
        let item = notice_item_html(ctx, Lang::En);
        assert!(item.contains(">Context length</span> (<code>context_tokens</code>): "), "{item}");
        // A link keeps its repair as before: the default, not the nearest value.
        let (s, _) = crate::estimator::state::repair(
            &serde_json::json!({"model": "llama-3.1-8b", "context_tokens": 20000000}),
        );
        assert_eq!(s.context_tokens, 4096);
    }

    #[test]
    fn an_unknown_model_suggests_the_closest_ids_not_all_of_them() {
        let (_, notices) = import_json(r#"{"model": "llama-3-70b"}"#).unwrap();
        let text = notice(&notices[0], Lang::En);
        assert!(text.contains("closest: ") && text.contains("llama-3.1-70b"), "{text}");
        assert!(!text.contains("gpt2") && text.matches(", ").count() <= 5, "{text}");
        assert!(notice(&notices[0], Lang::Zh).contains("最接近的："));
    }

    #[test]
    fn a_damaged_link_is_explained_in_both_languages() {
        use base64::Engine as _;
        let json = r#"{"model":"llama-3.1-8b","context_tokens":"NaN","batch":0,"gpu":"voodoo2","weight_dtype":"fp12"}"#;
        let q = format!("v=1&s={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json));
        let (_, notices) = decode(&q);
        assert_eq!(notices.len(), 4, "{notices:?}");
        let ctx = notices.iter().find(|n| n.field == "context_tokens").expect("context notice");
        assert_eq!(notice(ctx, Lang::Zh), "应为非负整数，实际为 \"NaN\"；保留 4096");
        assert_eq!(notice(ctx, Lang::En), "expected a whole number, got \"NaN\"; kept 4096");
        for n in &notices {
            for lang in Lang::ALL {
                assert_worded(&notice(n, lang), lang);
            }
        }
        let (_, notices) = decode("v=1&s=eyJub3QganNvbg");
        for lang in Lang::ALL {
            assert_worded(&notice(&notices[0], lang), lang);
        }
    }

    #[test]
    fn import_errors_name_the_field_in_both_languages() {
        let err = import_json("{not json").expect_err("not JSON");
        assert_eq!(notice(&err, Lang::Zh), "不是有效的 JSON（第 1 行第 2 列）");
        // One bad field does not refuse the file: it is repaired as in a link, and named.
        let (s, notices) = import_json(r#"{"model": "llama-3.1-8b", "batch": "four", "gpus": 2}"#).unwrap();
        assert_eq!((s.batch, s.gpus), (1, 2));
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].field, "batch");
        assert_eq!(notice(&notices[0], Lang::Zh), "应为非负整数，实际为 \"four\"；保留 1");
        // An empty file says so.
        for empty in ["", "  \n"] {
            let err = import_json(empty).expect_err("empty");
            assert_eq!(err.kind, NoticeKind::FileEmpty);
            assert!(notice(&err, Lang::En).starts_with("the file is empty"));
            assert!(notice(&err, Lang::Zh).starts_with("文件是空的"));
        }
        let err = import_json(r#"{"model": {"model_type": "llama", "hidden_size": 4096}}"#);
        let notices = err.map(|(_, n)| n).unwrap_or_else(|n| vec![n]);
        for n in &notices {
            assert_worded(&notice(n, Lang::Zh), Lang::Zh);
        }
    }
}

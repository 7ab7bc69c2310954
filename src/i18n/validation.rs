//! The validation table's typed facts in words (conditions, units, reasons), and the table as
//! markdown for the CLI and the README.

use super::facts::{mode, recompute};
use super::Lang;
use crate::validation::{Conditions, Note, Reason, RowUnit, ValidationTable};

/// The conditions of a row in `lang`.
pub fn conditions(c: &Conditions, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = if zh {
        format!(
            "{} 权重，{} × {}，tp {} pp {} dp {}，batch {}，上下文 {}",
            c.weight_dtype.name(),
            c.gpus,
            c.gpu,
            c.tensor_parallel,
            c.pipeline_parallel,
            c.data_parallel,
            c.batch,
            c.context_tokens
        )
    } else {
        format!(
            "{} {}×{}, tp {} pp {} dp {}, batch {}, context {}",
            c.weight_dtype.name(),
            c.gpus,
            c.gpu,
            c.tensor_parallel,
            c.pipeline_parallel,
            c.data_parallel,
            c.batch,
            c.context_tokens
        )
    };
    if c.mode != crate::engine::scenario::Mode::Inference {
        out += &if zh {
            format!("，{}，{} 个微批", mode(c.mode, lang), c.micro_batches)
        } else {
            format!(", {}, {} micro-batches", mode(c.mode, lang), c.micro_batches)
        };
    }
    let note = note(&c.note, lang);
    if !note.is_empty() {
        out += if zh { "；" } else { "; " };
        out += &note;
    }
    out
}

fn yes_no(b: bool, lang: Lang) -> &'static str {
    match (b, lang) {
        (true, Lang::Zh) => "是",
        (false, Lang::Zh) => "否",
        (true, Lang::En) => "yes",
        (false, Lang::En) => "no",
    }
}

/// The model a row was evaluated with: its catalog id, or a GPT-style config from the conditions.
pub fn model(c: &Conditions, lang: Lang) -> String {
    match (&c.model, lang) {
        (Some(id), _) => id.clone(),
        (None, Lang::Zh) => "按条件构造的 GPT 式结构".into(),
        (None, Lang::En) => "GPT-style config from the conditions".into(),
    }
}

/// What else a row assumes, in `lang` (empty for none).
pub fn note(n: &Note, lang: Lang) -> String {
    match (n, lang) {
        (Note::None, _) => String::new(),
        (Note::PromptOutput { prompt, output, output_assumed }, Lang::En) => {
            format!("prompt {prompt}, output {output}{}", if *output_assumed { " (assumed)" } else { "" })
        }
        (Note::PromptOutput { prompt, output, output_assumed }, Lang::Zh) => {
            format!("提示 {prompt}，输出 {output}{}", if *output_assumed { "（假设值）" } else { "" })
        }
        (Note::Recompute { recompute: r, sequence_parallel }, Lang::En) => format!(
            "{} recompute, sequence parallel {}",
            recompute(*r, lang),
            yes_no(*sequence_parallel, lang)
        ),
        (Note::Recompute { recompute: r, sequence_parallel }, Lang::Zh) => {
            format!("{}，序列并行 {}", recompute(*r, lang), yes_no(*sequence_parallel, lang))
        }
        (Note::SequencesPerReplica { sequences }, Lang::En) => format!("{sequences} sequences per replica"),
        (Note::SequencesPerReplica { sequences }, Lang::Zh) => format!("每副本 {sequences} 条序列"),
        (Note::ThroughputOnly { method }, Lang::En) => {
            format!("{method}; throughput only (peak memory not compared)")
        }
        (Note::ThroughputOnly { method }, Lang::Zh) => format!("{method}；只比吞吐（不比峰值显存）"),
    }
}

/// A row's unit in `lang`.
pub fn unit(u: RowUnit, lang: Lang) -> &'static str {
    match (u, lang) {
        (RowUnit::MsPerBatch, Lang::En) => "ms per batch",
        (RowUnit::MsPerBatch, Lang::Zh) => "ms/批",
        (RowUnit::OutputTokensPerSPerGpu, Lang::En) => "output tokens/s per GPU",
        (RowUnit::OutputTokensPerSPerGpu, Lang::Zh) => "输出 token/秒/GPU",
        (RowUnit::OutputTokensPerS, Lang::En) => "output tokens/s",
        (RowUnit::OutputTokensPerS, Lang::Zh) => "输出 token/秒",
        (RowUnit::GibWeightsPerGpu, Lang::En) => "GiB weights per GPU",
        (RowUnit::GibWeightsPerGpu, Lang::Zh) => "GiB 权重/GPU",
        (RowUnit::BytesPerToken, Lang::En) => "bytes per token (kv_cache_GiB / kv_tokens)",
        (RowUnit::BytesPerToken, Lang::Zh) => "字节/token（kv_cache_GiB / kv_tokens）",
        (RowUnit::SPerIteration, Lang::En) => "s per iteration",
        (RowUnit::SPerIteration, Lang::Zh) => "s/迭代",
        (RowUnit::ModelTflopsPerGpu, Lang::En) => "model TFLOP/s per GPU",
        (RowUnit::ModelTflopsPerGpu, Lang::Zh) => "模型 TFLOP/s/GPU",
        (RowUnit::TokensPerSReported, Lang::En) => "tokens/s (as reported)",
        (RowUnit::TokensPerSReported, Lang::Zh) => "token/秒（按原文口径）",
    }
}

/// Why a measurement cannot be expressed, in `lang`.
pub fn reason(r: &Reason, lang: Lang) -> String {
    match (r, lang) {
        (Reason::SpeculativeDecoding, Lang::En) => "speculative decoding is not modelled".into(),
        (Reason::SpeculativeDecoding, Lang::Zh) => "未建模投机解码".into(),
        (Reason::NoArchitecture, Lang::En) => {
            "model not in the catalog and no architecture in the conditions".into()
        }
        (Reason::NoArchitecture, Lang::Zh) => "模型不在目录中，条件里也没有给出结构".into(),
        (Reason::GpuNotInCatalog { gpu }, Lang::En) => format!("GPU '{gpu}' is not in the catalog"),
        (Reason::GpuNotInCatalog { gpu }, Lang::Zh) => format!("GPU“{gpu}”不在目录中"),
        (Reason::ContextParallelism, Lang::En) => "context parallelism is not modelled".into(),
        (Reason::ContextParallelism, Lang::Zh) => "未建模上下文并行".into(),
        (Reason::NoBatchOrValue, Lang::En) => "no batch size or value".into(),
        (Reason::NoBatchOrValue, Lang::Zh) => "缺少 batch 或测量值".into(),
        (Reason::NoWeightsGib, Lang::En) => "no weights figure in GiB".into(),
        (Reason::NoWeightsGib, Lang::Zh) => "没有以 GiB 计的权重数字".into(),
        (Reason::NoBatchOrSequenceLength, Lang::En) => "no batch or sequence length".into(),
        (Reason::NoBatchOrSequenceLength, Lang::Zh) => "缺少 batch 或序列长度".into(),
        (Reason::PeakTrainingMemory, Lang::En) => "peak training memory depends on framework details (optimizer in backward, offload) not in the scenario".into(),
        (Reason::PeakTrainingMemory, Lang::Zh) => "训练峰值显存取决于框架细节（反向中更新优化器、卸载），场景中没有这些信息".into(),
        (Reason::UnsupportedKind { kind }, Lang::En) => {
            format!("kind '{kind}' is not a time or inference-memory measurement the scenario can express")
        }
        (Reason::UnsupportedKind { kind }, Lang::Zh) => {
            format!("类别“{kind}”不是场景能表达的时间或推理显存测量")
        }
        (Reason::Rejected { field, kind }, Lang::En) => format!("scenario rejected: {field}: {kind}"),
        (Reason::Rejected { field, kind }, Lang::Zh) => {
            format!("场景被拒绝：{field}：{}", super::errors::error_kind(kind, lang))
        }
    }
}

/// The table as markdown in `lang` (the CLI and the README use English).
pub fn to_markdown(t: &ValidationTable, lang: Lang) -> String {
    let mut out = String::from("| # | kind | model | GPU | conditions | measured | expected | bound | error | bound holds |\n|---|---|---|---|---|---|---|---|---|---|\n");
    let f = |v: f64| if v.abs() >= 100.0 { format!("{v:.0}") } else { format!("{v:.3}") };
    for r in &t.rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} {} | {} | {} | {:+.1}% | {} |\n",
            r.index,
            r.kind,
            r.model.trim(),
            r.gpu,
            conditions(&r.conditions, lang),
            f(r.measured),
            unit(r.unit, lang),
            f(r.expected),
            r.bound.map_or("–".into(), f),
            r.error_pct,
            match r.bound_holds {
                Some(true) => "yes",
                Some(false) => "**NO**",
                None => "–",
            }
        );
    }
    out += "\n| kind | rows | median abs error | bound violations |\n|---|---|---|---|\n";
    for s in &t.summary {
        out += &format!(
            "| {} | {} | {:.1}% | {} |\n",
            s.kind, s.rows, s.median_abs_error_pct, s.bound_violations
        );
    }
    out += "\nNot expressed:\n\n";
    for n in &t.not_expressed {
        out += &format!("- #{} {} ({}): {}\n", n.index, n.kind, n.model.trim(), reason(&n.reason, lang));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::validation_table;

    #[test]
    fn every_row_and_reason_is_worded_in_chinese() {
        let t = validation_table();
        assert!(!t.rows.is_empty());
        for r in &t.rows {
            let c = conditions(&r.conditions, Lang::Zh);
            for bad in ["context", "micro-batches", "recompute", "Some(", "true", "false", "Training"] {
                assert!(!c.contains(bad), "'{bad}' in '{c}'");
            }
        }
        for n in &t.not_expressed {
            let text = reason(&n.reason, Lang::Zh);
            assert!(!text.contains("not") && !text.contains("must"), "{text}");
        }
        let md = to_markdown(&t, Lang::En);
        assert!(md.contains("| # | kind |"));
    }
}

//! The estimator's notice about a config's `quantization_config`, in both languages, as one
//! escaped HTML string.

use super::Lang;
use crate::engine::memory::quant_weights::QuantInfo;
use crate::engine::model::quant::ModuleClass;
use crate::html::escape;

fn class(c: ModuleClass, lang: Lang) -> &'static str {
    let zh = lang == Lang::Zh;
    match c {
        ModuleClass::Embedding if zh => "嵌入",
        ModuleClass::Embedding => "embedding",
        ModuleClass::LmHead => "lm_head",
        ModuleClass::Attention if zh => "注意力",
        ModuleClass::Attention => "attention",
        ModuleClass::Mlp if zh => "稠密 MLP 与共享专家",
        ModuleClass::Mlp => "dense MLP and shared experts",
        ModuleClass::Experts if zh => "路由专家",
        ModuleClass::Experts => "routed experts",
        ModuleClass::Router if zh => "路由器",
        ModuleClass::Router => "router",
    }
}

fn list(classes: &[ModuleClass], lang: Lang) -> String {
    let (sep, none) = if lang == Lang::Zh { ("、", "无") } else { (", ", "none") };
    if classes.is_empty() {
        return none.to_owned();
    }
    let name = |c: &ModuleClass| match c {
        ModuleClass::LmHead => "<code>lm_head</code>".to_owned(),
        _ => class(*c, lang).to_owned(),
    };
    classes.iter().map(name).collect::<Vec<_>>().join(sep)
}

/// Bits as short as they read (4.25, 4.5, 8.002).
fn bits(b: f64) -> String {
    format!("{}", (b * 1000.0).round() / 1000.0)
}

/// The notice: which format the config sets, which modules stay in 16 bits, and whether the
/// reader's own choice or a training mode overrides it. `weights` is the formatted weight total.
pub fn quant_notice_html(lang: Lang, q: &QuantInfo, weights: &str) -> String {
    let zh = lang == Lang::Zh;
    let format = escape(&q.format.to_ascii_uppercase());
    let method = escape(q.method);
    let b = bits(q.bits_per_weight);
    let quantised = list(&q.quantized, lang);
    let kept = list(&q.sixteen_bit, lang);
    let weights = escape(weights);
    let mut html = if zh {
        format!(
            "<strong>检查点自带量化</strong>：<code>config.json</code> 的 <code>quantization_config</code>（<code>{method}</code>）把{quantised}\
             存为 {format}（每个权重 {b} 位，含缩放因子）；{kept}保持 BF16。"
        )
    } else {
        format!(
            "<strong>Quantised checkpoint</strong>: the config's <code>quantization_config</code> (<code>{method}</code>) stores \
             the {quantised} in {format} ({b} bits per weight, scales included); {kept} stay in BF16."
        )
    };
    html.push_str("<br>");
    match (q.applied, q.chosen_dtype, q.training) {
        (true, _, _) if zh => html.push_str(&format!("权重按此格式计算：共 {weights}（每块 GPU 的份额见显存分解）。在下方“工作负载”中选择权重格式可改用其他格式。")),
        (true, _, _) => html.push_str(&format!(
            "Weights are sized in this format: {weights} in all (each GPU's share is in the memory breakdown). \
             Choose a weight format under Workload below to size another."
        )),
        (false, Some(d), _) if zh => html.push_str(&format!(
            "你选择的权重格式 {} 优先：权重按 {} 计算，而不是配置中的格式。",
            d.name().to_ascii_uppercase(),
            d.name().to_ascii_uppercase()
        )),
        (false, Some(d), _) => html.push_str(&format!(
            "Your choice of weight format, {}, wins: the weights are sized in {}, not in the config's format.",
            d.name().to_ascii_uppercase(),
            d.name().to_ascii_uppercase()
        )),
        (false, None, _) if zh => html.push_str("训练与 LoRA 按训练所用的格式加载权重，因此这里不按配置中的格式计算。"),
        (false, None, _) => html.push_str(
            "Training and LoRA load the weights in the training formats, so the config's format is not used here.",
        ),
    }
    if !q.kept_layers.is_empty() {
        let layers: Vec<String> = q
            .kept_layers
            .iter()
            .map(|(l, c)| {
                if zh {
                    format!("第 {l} 层{}", class(*c, lang))
                } else {
                    format!("layer {l} {}", class(*c, lang))
                }
            })
            .collect();
        html.push_str(if zh { "<br>按层保持 BF16：" } else { "<br>Kept in BF16 layer by layer: " });
        html.push_str(&escape(&layers.join(if zh { "、" } else { ", " })));
    }
    if !q.unmatched.is_empty() {
        let codes: Vec<String> = q.unmatched.iter().map(|u| format!("<code>{}</code>", escape(u))).collect();
        html.push_str(if zh {
            "<br>未能识别的不转换条目（按已转换计算）："
        } else {
            "<br>Not-converted entries this engine could not place (counted as converted): "
        });
        html.push_str(&codes.join(if zh { "、" } else { ", " }));
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::precision::Dtype;

    fn info() -> QuantInfo {
        QuantInfo {
            method: "mxfp4",
            format: "mxfp4".into(),
            bits_per_weight: 4.25,
            group_size: 32,
            quantized: vec![ModuleClass::Experts],
            sixteen_bit: vec![ModuleClass::Attention, ModuleClass::LmHead],
            kept_layers: vec![],
            not_converted: vec![],
            unmatched: vec!["<odd>".into()],
            applied: true,
            chosen_dtype: None,
            training: false,
            bytes: 1,
        }
    }

    #[test]
    fn the_notice_names_format_and_16_bit_modules_and_escapes() {
        let en = quant_notice_html(Lang::En, &info(), "12 GB");
        assert!(
            en.contains("MXFP4 (4.25 bits per weight")
                && en.contains("attention, <code>lm_head</code> stay in BF16"),
            "{en}"
        );
        assert!(en.contains("<code>&lt;odd&gt;</code>") && !en.contains("<odd>"), "{en}");
        let zh = quant_notice_html(
            Lang::Zh,
            &QuantInfo { applied: false, chosen_dtype: Some(Dtype::Int4), ..info() },
            "",
        );
        assert!(zh.contains("INT4 优先") && zh.contains("注意力、<code>lm_head</code>保持 BF16"), "{zh}");
    }
}

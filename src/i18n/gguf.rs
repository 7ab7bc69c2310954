//! llama.cpp files in words: why a GGUF file cannot be the model, and what a llama.cpp model is
//! made of (its tensors by ggml type), in both languages.

use super::Lang;
use crate::engine::gguf::read::GgufError;
use crate::engine::report::GgufInfo;
use crate::estimator::gguf_file::GgufLoadError;
use crate::html::escape;

/// Bytes as GiB with two decimals, as llama.cpp prints sizes.
fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// Bytes as whole MiB (the header reader's limit is 64 MiB).
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

/// Why the file cannot be used, in `lang` (plain text).
pub fn gguf_error(e: &GgufLoadError, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match e {
        GgufLoadError::File(f) => file_error(f, zh),
        GgufLoadError::Metadata(m) if zh => {
            format!("文件的元数据缺少 {}，无法据此确定模型结构", m.0)
        }
        GgufLoadError::Metadata(m) => {
            format!("the file's metadata has no {}, which the model's shape needs", m.0)
        }
        GgufLoadError::HeaderTooLarge { read } if zh => {
            format!("读了 {} 仍未读完文件头：文件头异常大，可能已损坏", mib(*read))
        }
        GgufLoadError::HeaderTooLarge { read } => {
            format!(
                "the header did not end within the first {}: it is unusually large, or damaged",
                mib(*read)
            )
        }
        GgufLoadError::Unreadable if zh => "浏览器无法读取这个文件".into(),
        GgufLoadError::Unreadable => "the file could not be read".into(),
    }
}

fn file_error(e: &GgufError, zh: bool) -> String {
    match e {
        GgufError::NotGguf { start } if start.is_empty() && zh => "文件是空的，或短于 4 字节：不是 GGUF 文件".into(),
        GgufError::NotGguf { start } if start.is_empty() => "the file is empty or shorter than 4 bytes: not a GGUF file".into(),
        GgufError::NotGguf { start } if zh => format!("不是 GGUF 文件：开头是 “{start}”，而不是 “GGUF”"),
        GgufError::NotGguf { start } => format!("not a GGUF file: it starts with “{start}”, not “GGUF”"),
        GgufError::UnsupportedVersion { version } if zh => format!(
            "GGUF 版本 {version} 无法读取（支持 2 和 3；很大的数字说明是大端序文件）"
        ),
        GgufError::UnsupportedVersion { version } => format!(
            "GGUF version {version} is not read here (2 and 3 are; a huge number means a big-endian file)"
        ),
        GgufError::TruncatedHeader { size, needed } if zh => {
            format!("文件在文件头中途结束（共 {size} 字节，文件头至少需要 {needed} 字节）：下载可能不完整")
        }
        GgufError::TruncatedHeader { size, needed } => format!(
            "the file ends inside its header ({size} bytes, the header needs at least {needed}): the download may be incomplete"
        ),
        GgufError::TruncatedData { size, needed, tensor } if zh => format!(
            "文件被截断：张量 {tensor} 的数据应到第 {needed} 字节，文件只有 {size} 字节：下载可能不完整"
        ),
        GgufError::TruncatedData { size, needed, tensor } => format!(
            "the file is cut short: tensor {tensor} ends at byte {needed}, the file has {size}: the download may be incomplete"
        ),
        GgufError::Corrupt { at, what } if zh => format!("文件头第 {at} 字节处的{}不可能成立：文件已损坏", corrupt_zh(what)),
        GgufError::Corrupt { at, what } => format!("the header's {what} at byte {at} cannot be right: the file is damaged"),
        GgufError::BadValueType { at, value_type } if zh => {
            format!("文件头第 {at} 字节处有未定义的元数据类型 {value_type}：文件已损坏或格式更新")
        }
        GgufError::BadValueType { at, value_type } => format!(
            "undefined metadata value type {value_type} at byte {at}: the file is damaged or of a newer format"
        ),
        GgufError::UnknownTensorType { tensor, type_id } if zh => format!(
            "张量 {tensor} 的类型编号 {type_id} 不是 ggml 定义的类型（或已被移除的类型）"
        ),
        GgufError::UnknownTensorType { tensor, type_id } => {
            format!("tensor {tensor} has type number {type_id}, which ggml does not define (or no longer supports)")
        }
        GgufError::BadShape { tensor } if zh => format!("张量 {tensor} 的形状不成立（0 维、超过 4 维或某维为 0）"),
        GgufError::BadShape { tensor } => format!("tensor {tensor} has an impossible shape (no dimension, more than 4, or a zero)"),
        GgufError::RowNotWholeBlocks { tensor, row, block } if zh => {
            format!("张量 {tensor} 的行长 {row} 不是其类型块大小 {block} 的整数倍")
        }
        GgufError::RowNotWholeBlocks { tensor, row, block } => {
            format!("tensor {tensor} has rows of {row}, not a whole number of its type's {block}-element blocks")
        }
        GgufError::Split { part, count } if zh => format!(
            "这是分卷 GGUF 文件（共 {count} 卷）的第 {part} 卷：文件头只列出本卷的张量，模型会显得太小。请先用 llama-gguf-split --merge 合并各卷，再打开合并后的文件；llama.cpp 本身可以直接加载分卷"
        ),
        GgufError::Split { part, count } => format!(
            "this is part {part} of {count} of a split GGUF file: its header lists only this part's tensors, so the model would come out too small. Merge the parts first (llama-gguf-split --merge) and open the merged file; llama.cpp itself loads the parts as they are"
        ),
        GgufError::NoTensors if zh => "文件里没有张量".into(),
        GgufError::NoTensors => "the file holds no tensors".into(),
        GgufError::NeedMore { .. } if zh => "文件头没有读完".into(),
        GgufError::NeedMore { .. } => "the header was not read to its end".into(),
    }
}

fn corrupt_zh(what: &str) -> &'static str {
    match what {
        "tensor count" => "张量数",
        "metadata count" | "entry count" => "元数据条目数",
        "string length" => "字符串长度",
        "array length" => "数组长度",
        "array of arrays" => "嵌套数组",
        "text (not UTF-8)" => "文本（非 UTF-8）",
        _ => "长度",
    }
}

/// The notice about a llama.cpp model: its file type, size and tensors by type (escaped HTML).
pub fn gguf_notice_html(lang: Lang, g: &GgufInfo) -> String {
    let zh = lang == Lang::Zh;
    let types = g
        .types
        .iter()
        .map(|t| format!("{} × {}", escape(&t.ty), t.tensors))
        .collect::<Vec<_>>()
        .join(if zh { "、" } else { ", " });
    let ft = escape(&g.file_type.clone().unwrap_or_else(|| "?".into()).to_ascii_uppercase());
    let (size, bpw, params) =
        (gib(g.bytes), format!("{:.2}", g.bits_per_weight), format!("{:.2}", g.elements as f64 / 1e9));
    match (g.from_file, zh) {
        (true, true) => format!(
            "<strong>GGUF 文件</strong>：{ft}，{size}（每个权重 {bpw} bit，{params}B 参数）；张量按类型：{types}。只读取了文件头，文件没有上传。"
        ),
        (true, false) => format!(
            "<strong>GGUF file</strong>: {ft}, {size} ({bpw} bits per weight, {params}B parameters); tensors by type: {types}. Only the header was read; nothing was uploaded."
        ),
        (false, true) => format!(
            "<strong>llama.cpp 文件类型 {ft}</strong>：按 llama-quantize 的规则混合各张量类型，共 {size}（每个权重 {bpw} bit）；张量按类型：{types}。"
        ),
        (false, false) => format!(
            "<strong>llama.cpp file type {ft}</strong>: the tensors mixed as llama-quantize mixes them, {size} in all ({bpw} bits per weight); tensors by type: {types}."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_words_in_both_languages() {
        let errors = [
            GgufLoadError::File(GgufError::NotGguf { start: String::new() }),
            GgufLoadError::File(GgufError::NotGguf { start: "PK".into() }),
            GgufLoadError::File(GgufError::UnsupportedVersion { version: 1 }),
            GgufLoadError::File(GgufError::TruncatedData {
                size: 10,
                needed: 20,
                tensor: "output.weight".into(),
            }),
            GgufLoadError::File(GgufError::Corrupt { at: 16, what: "tensor count" }),
            GgufLoadError::Metadata(crate::engine::gguf::model::MissingKey("llama.block_count".into())),
            GgufLoadError::HeaderTooLarge { read: 64 << 20 },
            GgufLoadError::File(GgufError::Split { part: 1, count: 3 }),
            GgufLoadError::Unreadable,
        ];
        for e in &errors {
            let (zh, en) = (gguf_error(e, Lang::Zh), gguf_error(e, Lang::En));
            assert!(!zh.is_empty() && !en.is_empty() && zh != en);
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
        }
        assert!(gguf_error(&errors[3], Lang::En).contains("output.weight"));
        assert!(gguf_error(&errors[6], Lang::En).contains("64 MiB"), "{}", gguf_error(&errors[6], Lang::En));
        assert!(gguf_error(&errors[7], Lang::Zh).contains("共 3 卷"));
    }
}

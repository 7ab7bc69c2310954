//! Name matching: a measurement's free-text model, GPU and precision as catalog ids and dtypes.

use crate::engine::precision::Dtype;

/// Catalog model id inside a free-text model name: the longest catalog id that occurs as a
/// whole token (Llama-3 70B shares Llama-3.1 70B's architecture and maps to it).
pub fn model_id(name: &str) -> Option<String> {
    let n = name.to_ascii_lowercase().replace(' ', "-");
    let n = n.replace("llama-3-70b", "llama-3.1-70b");
    let ids = crate::catalog::models::ids();
    ids.iter()
        .filter(|id| {
            n.match_indices(**id).any(|(i, _)| {
                let before = n[..i].chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '.');
                let after = n[i + id.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '.');
                before && after
            })
        })
        .max_by_key(|id| id.len())
        .map(|id| id.to_string())
}

/// Catalog GPU id and count from a free-text GPU description (`8x NVIDIA H100 80GB`).
pub fn gpu_id(desc: &str) -> (Option<&'static str>, Option<u64>) {
    let d = desc.to_ascii_lowercase();
    let count = d.split_whitespace().next().and_then(|w| w.strip_suffix('x')).and_then(|n| n.parse().ok());
    let has = |s: &str| d.contains(s);
    let id = if has("gb200") {
        Some("gb200")
    } else if has("b200") {
        Some("b200")
    } else if has("h200") {
        Some(if has("nvl") { "h200-nvl" } else { "h200-sxm" })
    } else if has("h100") {
        Some(if has("nvl") {
            "h100-nvl"
        } else if has("pcie") {
            "h100-pcie"
        } else {
            "h100-sxm"
        })
    } else if has("a100") {
        Some(match (has("40gb"), has("pcie")) {
            (true, true) => "a100-pcie-40gb",
            (true, false) => "a100-sxm-40gb",
            (false, true) => "a100-pcie-80gb",
            (false, false) => "a100-sxm-80gb",
        })
    } else if has("v100") {
        Some(if has("16gb") { "v100-sxm-16gb" } else { "v100-sxm-32gb" })
    } else if has("mi300x") {
        Some("mi300x")
    } else if has("mi325x") {
        Some("mi325x")
    } else if has("l40s") {
        Some("l40s")
    } else if has("a10g") {
        Some("a10g")
    } else if has("a10 ") || has("a10)") || has("a10 on") {
        Some("a10")
    } else if has("rtx 4090") || has("4090") {
        Some("rtx-4090")
    } else if has("5090") {
        Some("rtx-5090")
    } else if has(" l4") || d.starts_with("l4") {
        Some("l4")
    } else if has("t4") {
        Some("t4")
    } else {
        None
    };
    (id, count)
}

/// (weight dtype, kv dtype, int4 group size) from a precision text.
pub(super) fn precision(p: &str) -> (Dtype, Option<Dtype>, Option<u64>) {
    let p = p.to_ascii_lowercase();
    let group = p
        .split("g=")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|g| g.parse().ok());
    if p.contains("fp8") {
        (Dtype::Fp8, p.contains("kv").then_some(Dtype::Fp8), None)
    } else if p.contains("int8") {
        (Dtype::Int8, None, None)
    } else if p.contains("int4") {
        (Dtype::Int4, None, group)
    } else if p.contains("nf4") {
        (Dtype::Nf4, None, None)
    } else if p.contains("fp16") || p.contains("float16") && !p.contains("bfloat16") {
        (Dtype::Fp16, None, None)
    } else {
        (Dtype::Bf16, None, None)
    }
}

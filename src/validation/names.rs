//! Name matching: a measurement's free-text model, GPU and precision as catalog ids and dtypes.

use crate::engine::precision::Dtype;

/// Names of models whose architecture (every shape the engine reads) is a catalog model's:
/// (name as written, with spaces as dashes; the catalog id).
const SAME_ARCHITECTURE: [(&str, &str); 6] = [
    // Llama 3 70B is Llama 3.1 70B's architecture.
    ("llama-3-70b", "llama-3.1-70b"),
    // "LLaMA 7B v2" (llama.cpp's Apple table) is Llama 2 7B; llama-bench's "llama 7B" (LLaMA 1
    // or 2) has the same shapes: 32 layers of 4096, FFN 11008, 32 heads, vocabulary 32000.
    ("llama-7b-v2", "llama-2-7b"),
    ("llama-7b", "llama-2-7b"),
    // The coder and distilled variants keep their base model's config.
    ("qwen2.5-coder-7b", "qwen2.5-7b"),
    ("qwen3-coder-30b-a3b", "qwen3-30b-a3b"),
    ("deepseek-r1-distill-qwen-14b", "qwen2.5-14b"),
];

/// Catalog model id inside a free-text model name: the longest catalog id that occurs as a
/// whole token, after [`SAME_ARCHITECTURE`]'s names are replaced by their catalog ids.
pub fn model_id(name: &str) -> Option<String> {
    let mut n = name.to_ascii_lowercase().replace(' ', "-");
    for (alias, id) in SAME_ARCHITECTURE {
        n = n.replace(alias, id);
    }
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

/// Names that fit more than one catalog GPU: (phrase, the GPUs it may be). A bare "A6000" is
/// the RTX A6000 or the RTX 6000 Ada (sold as "A6000 Ada"); "4060 Ti" without its memory is
/// either RTX 4060 Ti. Checked after [`LOCAL_DEVICES`], whose longer phrases come first.
const AMBIGUOUS: [(&str, &[&str]); 2] =
    [("a6000", &["rtx-a6000", "rtx-6000-ada"]), ("4060 ti", &["rtx-4060-ti-8gb", "rtx-4060-ti-16gb"])];

/// The catalog GPUs a description may mean when it names no single one (see [`AMBIGUOUS`]).
pub fn ambiguous_gpu(desc: &str) -> Option<&'static [&'static str]> {
    let d = desc.to_ascii_lowercase();
    if gpu_id(&d).0.is_some() {
        return None;
    }
    AMBIGUOUS.iter().find(|(phrase, _)| d.contains(phrase)).map(|(_, ids)| *ids)
}

/// The devices people run llama.cpp on, by a phrase of their name: (phrase, catalog id), the
/// longer phrase of a family first; `None` for a device that is not in the catalog though a
/// shorter phrase would match it (the RTX 4090 D is not an RTX 4090), or for a phrase that
/// fits several ([`AMBIGUOUS`]).
const LOCAL_DEVICES: [(&str, Option<&str>); 43] = [
    ("rtx pro 6000", Some("rtx-pro-6000-blackwell")),
    ("6000 ada", Some("rtx-6000-ada")),
    ("a6000 ada", Some("rtx-6000-ada")),
    ("rtx a6000", Some("rtx-a6000")),
    ("a6000", None),
    ("a4000", Some("rtx-a4000")),
    ("dgx spark", Some("dgx-spark")),
    ("gb10 ", Some("dgx-spark")),
    ("8060s", Some("ryzen-ai-max-395")),
    ("ryzen ai max", Some("ryzen-ai-max-395")),
    ("mi250x", Some("mi250x")),
    ("mi210", Some("mi210")),
    ("w7900", Some("radeon-pro-w7900")),
    ("7900 xtx", Some("radeon-rx-7900-xtx")),
    ("7900 xt", Some("radeon-rx-7900-xt")),
    ("9070 xt", Some("radeon-rx-9070-xt")),
    ("p40", Some("tesla-p40")),
    ("4090 d", None),
    ("5090", Some("rtx-5090")),
    ("5080", Some("rtx-5080")),
    ("5070 ti", Some("rtx-5070-ti")),
    ("5070", Some("rtx-5070")),
    ("5060 ti 16", Some("rtx-5060-ti-16gb")),
    ("4090", Some("rtx-4090")),
    ("4080 super", Some("rtx-4080-super")),
    ("4080", Some("rtx-4080")),
    ("4070 ti super", Some("rtx-4070-ti-super")),
    ("4070 ti", Some("rtx-4070-ti")),
    ("4070 super", Some("rtx-4070-super")),
    ("4070", Some("rtx-4070")),
    ("4060 ti 16", Some("rtx-4060-ti-16gb")),
    ("4060 ti 8", Some("rtx-4060-ti-8gb")),
    ("4060 ti", None),
    ("4060", Some("rtx-4060")),
    ("3090 ti", Some("rtx-3090-ti")),
    ("3090", Some("rtx-3090")),
    ("3080 ti", None),
    ("3080 12", Some("rtx-3080-12gb")),
    ("3080", Some("rtx-3080-10gb")),
    ("3070", Some("rtx-3070")),
    ("3060 ti", Some("rtx-3060-ti")),
    ("3060 8", None),
    ("3060", Some("rtx-3060-12gb")),
];

/// An Apple chip's catalog id from its name and GPU cores (`Apple M2 Ultra (76-core GPU)` →
/// `apple-m2-ultra-76c`), when the catalog has that chip with that many cores.
fn apple_id(d: &str) -> Option<&'static str> {
    let rest = d.split("apple ").nth(1)?;
    let (chip, tail) = rest.split_once('(')?;
    let cores = tail.split("-core gpu").next()?.trim();
    let id = format!("apple-{}-{cores}c", chip.trim().replace(' ', "-"));
    crate::catalog::gpus::find(&id).map(|g| g.id.as_str())
}

/// Catalog GPU id and count from a free-text GPU description (`8x NVIDIA H100 80GB`).
pub fn gpu_id(desc: &str) -> (Option<&'static str>, Option<u64>) {
    let d = desc.to_ascii_lowercase();
    let count = d.split_whitespace().next().and_then(|w| w.strip_suffix('x')).and_then(|n| n.parse().ok());
    let has = |s: &str| d.contains(s);
    if d.contains("apple m") {
        return (apple_id(&d), count);
    }
    if let Some((_, id)) = LOCAL_DEVICES.iter().find(|(phrase, _)| has(phrase)) {
        return (*id, count);
    }
    let id = if has("gb300") {
        Some("gb300")
    } else if has("b300") {
        Some("b300")
    } else if has("gb200") {
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
    } else if has("mi355x") {
        Some("mi355x")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The llama.cpp sources' names: Llama 2 7B by its llama.cpp names, the coder and distilled
    /// variants by their base model, and the longest catalog id otherwise.
    #[test]
    fn model_names_of_the_llama_cpp_sources() {
        for (name, id) in [
            ("LLaMA 7B v2", "llama-2-7b"),
            ("LLaMA 7B (v1 or v2 not stated; both have Llama 2 7B's shapes)", "llama-2-7b"),
            ("Llama 2 7B (llama-2-7b.Q4_0.gguf)", "llama-2-7b"),
            ("Qwen2.5-Coder-7B (qwen2 7B)", "qwen2.5-7b"),
            ("Qwen3-Coder-30B-A3B-Instruct (qwen3moe 30B.A3B)", "qwen3-30b-a3b"),
            ("Qwen2.5 14B (DeepSeek-R1-Distill-Qwen-14B, the same architecture)", "qwen2.5-14b"),
            ("gemma-3-4b-it-qat (gemma3 4B)", "gemma-3-4b"),
            ("Shisa V2 Llama 3.3 70B (i1-Q4_K_M; Llama 3.3 70B fine-tune)", "llama-3.3-70b"),
            ("Llama-3-70B", "llama-3.1-70b"),
        ] {
            assert_eq!(model_id(name).as_deref(), Some(id), "{name}");
        }
        // CodeLlama 7B (vocabulary 32016) is not in the catalog.
        assert_eq!(model_id("CodeLlama 7B"), None);
        assert_eq!(model_id("OPT-13B"), None);
    }

    /// Local devices by their names in llama-bench's tables; a GPU core count that is not the
    /// catalog's, the RTX 4090 D and a bare "A6000" are not matched.
    #[test]
    fn gpu_names_of_the_llama_cpp_sources() {
        for (name, id) in [
            ("NVIDIA GeForce RTX 4090", Some("rtx-4090")),
            ("NVIDIA GeForce RTX 4090 D", None),
            ("NVIDIA GeForce RTX 4070 Ti SUPER", Some("rtx-4070-ti-super")),
            ("NVIDIA GeForce RTX 4070 Ti", Some("rtx-4070-ti")),
            ("NVIDIA GeForce RTX 5060 Ti 16GB", Some("rtx-5060-ti-16gb")),
            ("NVIDIA GeForce RTX 3090 Ti", Some("rtx-3090-ti")),
            ("NVIDIA RTX PRO 6000 Blackwell (edition not stated)", Some("rtx-pro-6000-blackwell")),
            ("NVIDIA RTX 6000 Ada Generation", Some("rtx-6000-ada")),
            ("NVIDIA RTX A6000", Some("rtx-a6000")),
            ("1x A6000", None),
            ("NVIDIA Tesla P40", Some("tesla-p40")),
            ("NVIDIA DGX Spark (GB10)", Some("dgx-spark")),
            ("AMD Radeon RX 7900 XTX", Some("radeon-rx-7900-xtx")),
            ("AMD Radeon RX 7900 XT", Some("radeon-rx-7900-xt")),
            ("AMD Radeon PRO W7900 48GB", Some("radeon-pro-w7900")),
            ("AMD Instinct MI210", Some("mi210")),
            ("AMD Radeon 8060S (Ryzen AI Max+ 395, Strix Halo)", Some("ryzen-ai-max-395")),
            ("Apple M2 Ultra (76-core GPU)", Some("apple-m2-ultra-76c")),
            ("Apple M2 Ultra (60-core GPU)", None),
            ("Apple M4 Max (32-core GPU)", Some("apple-m4-max-32c")),
            ("Apple M1 (8-core GPU)", Some("apple-m1-8c")),
            ("8x NVIDIA H100 80GB", Some("h100-sxm")),
            ("1x RTX 4090", Some("rtx-4090")),
        ] {
            assert_eq!(gpu_id(name).0, id, "{name}");
        }
        assert_eq!(ambiguous_gpu("1x A6000"), Some(&["rtx-a6000", "rtx-6000-ada"][..]));
        assert_eq!(ambiguous_gpu("NVIDIA RTX A6000"), None);
        assert_eq!(
            ambiguous_gpu("NVIDIA GeForce RTX 4060 Ti"),
            Some(&["rtx-4060-ti-8gb", "rtx-4060-ti-16gb"][..])
        );
    }
}

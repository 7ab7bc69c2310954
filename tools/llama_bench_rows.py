#!/usr/bin/env python3
"""Add published llama-bench results and llama.cpp model sizes to src/catalog/data/measurements.json.

Usage:
    python3 tools/llama_bench_rows.py ../research/llamabench.json ../research/gguf-sizes.json

Rewrites the file's `llama_bench` and `gguf_model_size` rows (the other rows stay as they are),
in the shared schema: kind, model, gpu, conditions, value, unit, source.

Which llama-bench rows (the research file holds 376; its notes say how each was read):
  * rows read at their primary source: llama.cpp PRs #4766 and #4812, tools/llama-bench/README.md,
    benches/dgx-spark.md, and lhl/strix-halo-testing (the author's own tables);
  * transcribed rows only where two independently compiled copies agree: the Apple table of
    discussion #4167 for the chips with a second copy, the CUDA scoreboard (#15013) rows with a
    second copy, and three ROCm scoreboard (#15021) rows (RX 7900 XTX, MI210, PRO W7900) that an
    AMD hackathon research log also transcribes, with the same mean and standard deviation;
  * only devices and models in the catalog (by the validation's name rules), full offload
    (`-ngl 99`), plain tests (tgN, ppN; no `@ dN` depth);
  * never the calibration rows of the Metal profile (llama.cpp PR #2917) or other M2 Ultra rows
    of that time (PR #3648), and no run with the KV cache in host memory (`-nkvo 1`), a driver
    spill past the VRAM, or an unnamed GPU.
Model sizes: every published llama.cpp size of a catalog model in a llama.cpp file type, one
row per (model, file type) and source, except the ones the research marks as rounded or as not
a plain llama-quantize file (listed in SKIP_SIZES).
"""
import json, os, re, sys

HERE = os.path.dirname(__file__)
PATH = os.path.join(HERE, "..", "src", "catalog", "data", "measurements.json")
bench = json.load(open(sys.argv[1]))
sizes = json.load(open(sys.argv[2]))

APPLE_CROSS_CHECKED = {  # #4167 rows with a second copy, for chips in the catalog
    "Apple M1 (8-core GPU)", "Apple M1 Pro (16-core GPU)", "Apple M1 Max (32-core GPU)",
    "Apple M2 Ultra (76-core GPU)", "Apple M3 Max (40-core GPU)", "Apple M4 Max (40-core GPU)",
}
ROCM_CROSS_CHECKED = {"AMD Radeon RX 7900 XTX", "AMD Instinct MI210", "AMD Radeon PRO W7900 48GB"}
CATALOG_DEVICES = {
    "NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 5080",
    "NVIDIA GeForce RTX 5070 Ti", "NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 5060 Ti 16GB",
    "NVIDIA DGX Spark (GB10)", "NVIDIA GeForce RTX 5070", "NVIDIA GeForce RTX 4070 Ti SUPER",
    "NVIDIA RTX PRO 6000 Blackwell (edition not stated)", "NVIDIA Tesla P40",
    "NVIDIA GeForce RTX 3090 Ti", "NVIDIA GeForce RTX 4080",
    "AMD Radeon 8060S (Ryzen AI Max+ 395, Strix Halo)",
} | APPLE_CROSS_CHECKED | ROCM_CROSS_CHECKED

APPLE_SOURCE = (
    "https://github.com/ggml-org/llama.cpp/discussions/4167, first-post table 'Performance of "
    "llama.cpp on Apple Silicon M-series' (llama-bench, LLaMA 7B v2, -ngl 99, pp512 and tg128; "
    "table started on build 8e672ef, 2023-11-21, later chips measured on later builds), as "
    "transcribed in two public copies that agree (research notes 'Local AI Advisor - Source "
    "Research Findings', 2026-09-30, and a second, partial copy of the table)")
SCOREBOARD = {
    "15013": "Performance of llama.cpp with CUDA",
    "15021": "Performance of llama.cpp with ROCm",
}


def scoreboard_source(num, build, second):
    known = " " not in build.strip()
    what = f"submission on build {build}" if known else "submission (build not given)"
    agree = "mean, standard deviation and build" if known else "mean and standard deviation"
    return (f"https://github.com/ggml-org/llama.cpp/discussions/{num} ('{SCOREBOARD[num]}' scoreboard: "
            f"llama-bench -ngl 99 -fa 0 on llama-2-7b.Q4_0.gguf, pp512 and tg128), {what}, as transcribed in two "
            f"independently compiled public copies that agree on {agree}: a GPU catalog data file (accessed "
            f"2026-08-12) and {second}")


def keep(r):
    c, src, gpu = r["conditions"], r["source"], r["gpu"]
    if gpu not in CATALOG_DEVICES or c.get("no_kv_offload") or c.get("ngl") != 99:
        return False
    if "@" in c["test"] or "pull/2917" in src or "pull/3648" in src or "pull/15952" in src:
        return False
    if "discussions/4167" in src:
        return gpu in APPLE_CROSS_CHECKED and "Cross-checked" in src
    if "discussions/15013" in src:
        return "Same pp512/tg128/commit also appear" in src or "Also given (same values" in src
    if "discussions/15021" in src:
        return gpu in ROCM_CROSS_CHECKED
    if "discussions/" in src:
        return False  # single transcriptions (Vulkan scoreboard, gpt-oss guide, FA-on tables)
    if "pull/4766" in src:
        return not r["model"].startswith("CodeLlama")  # CodeLlama 7B is not in the catalog
    if "UD-Q4_K_XL" in r["model"] or "UD-Q4_K_XL" in c.get("file_type", ""):
        return False  # Unsloth's dynamic mix is not a llama.cpp file type
    return True


FILE_TYPES = {"MXFP4": "MXFP4_MOE"}


def model_name(r):
    m = r["model"]
    if "discussions/4167" in r["source"]:
        return "LLaMA 7B v2"
    if m.startswith("llama 7B"):
        return "LLaMA 7B (v1 or v2 not stated; both have Llama 2 7B's shapes)"
    if "TheBloke" in m or m.startswith("Llama 2 7B"):
        return "Llama 2 7B (llama-2-7b.Q4_0.gguf)"
    return m


def source(r):
    s, c = r["source"], r["conditions"]
    if "discussions/4167" in s:
        return APPLE_SOURCE
    if "discussions/15013" in s:
        build = c["engine"].replace("llama.cpp ", "")
        if "edition not stated" in r["gpu"]:
            return (f"https://github.com/ggml-org/llama.cpp/discussions/15013 ('{SCOREBOARD['15013']}' scoreboard: "
                    f"llama-bench -ngl 99 -fa 0 on llama-2-7b.Q4_0.gguf), submission on build {build}, as transcribed "
                    "in two public copies that agree (research notes of 2026-09-30 and a GPU catalog data file that "
                    "notes the submission does not name the Workstation, Max-Q or Server edition)")
        return scoreboard_source("15013", build, "research notes of 2026-09-30")
    if "discussions/15021" in s:
        return scoreboard_source("15021", c["engine"].replace("llama.cpp ", ""), "an AMD hackathon research log")
    return (s.replace(" (thread turn 56, Jan 2024)", " (January 2024)")
             .replace(" Build commit not shown in the excerpt.", " Build commit not stated."))


def conditions(r):
    c = r["conditions"]
    out = {
        "test": c["test"],
        "backend": c["backend"],
        "file_type": FILE_TYPES.get(c["file_type"], c["file_type"]),
        "ngl": c["ngl"],
        "flash_attn": c.get("flash_attn"),
        "engine": (c.get("engine") or "").replace("(commit not shown for this entry)", "(build not given)")
        .replace("(commit not captured)", "(build not given)")
        .replace("per-row build of later additions not captured", "later rows on later builds, not given per row")
        or None,
    }
    for k in ("std_dev", "n_ubatch", "gpu_cores", "threads", "cpu", "ram", "model_size_GiB", "params_B"):
        if c.get(k) is not None:
            out[k] = c[k]
    if "hipBLASLt" in (c.get("engine") or ""):
        out["hipblaslt"] = True
    if "rounded to 0.1" in r["source"]:
        out["note"] = "values rounded to 0.1 in the source's summary"
    return out


rows = []
for r in bench:
    if keep(r):
        rows.append({
            "kind": "llama_bench",
            "model": model_name(r),
            "gpu": r["gpu"],
            "conditions": conditions(r),
            "value": r["value"],
            "unit": "tokens/s",
            "source": source(r),
        })

# Model sizes ---------------------------------------------------------------------------------
SKIP_SIZES = [
    ("Mistral 7B", "F16"),          # the quantizer's help text rounds it (14.00G for 13.49 GiB)
    ("gpt-oss-20b", "F16"),         # its experts stay MXFP4: not a plain F16 file
]
MODEL_NAMES = {
    "Mistral 7B": "Mistral 7B v0.1 (mistral-7b-v0.1.Q4_0)",
    "Qwen2.5 14B": "Qwen2.5 14B (DeepSeek-R1-Distill-Qwen-14B, the same architecture)",
    "DeepSeek-V3": "DeepSeek-R1 (unsloth Q4_K_M; DeepSeek-V3's architecture)",
    "Qwen2.5 7B": "Qwen2.5 7B",
}
# The research's pointers into its search tools, as citations of what the sources are.
SIZE_SOURCE_PHRASES = [
    (re.compile(r"llama-bench output for /models/gguf/llama-2-7b \(ROCm, build 4d74393bc \(6327\)\), code-index file id \d+"),
     "a published llama-bench output for llama-2-7b (ROCm, build 4d74393bc (6327)) in a public GitHub file"),
    (re.compile(r"same file as above \(code-index file id \d+\)"),
     "a published llama-bench output for llama-2-7b (ROCm, build 4d74393bc (6327)) in a public GitHub file"),
    (re.compile(r"llama-bench outputs? in the code index \(file ids? [\d, ]+\)"),
     "published llama-bench outputs in public GitHub files that agree"),
    (re.compile(r"ollama log in the code index \(find_string '(.*?)', file id \d+\)"),
     r"an ollama log in a public GitHub file: '\1'"),
    (re.compile(r" \(code-index file id \d+; repository not reported by the index\)"), ""),
    (re.compile(r"; same value in many other outputs \(code-index file ids [\d, ]+\)"),
     "; the same value in other published llama-bench outputs"),
    (re.compile(r"; same value in many llama\.cpp outputs in the code index"),
     "; the same value in other published llama-bench outputs"),
]


def size_source(text):
    for pattern, repl in SIZE_SOURCE_PHRASES:
        text = pattern.sub(repl, text)
    assert "code index" not in text and "code-index" not in text and "find_string" not in text, text
    return text


seen = set()
for s in sizes:
    key = (s["model"], s["ftype"])
    if key in SKIP_SIZES or s["what"] == "quantize README disk size":
        continue
    if s["model"] == "Qwen3 30B-A3B" and s["size"] != 17.28:
        continue  # other publishers' and builds' Q4_K_M files of the model; the common value kept
    if (key, s["what"]) in seen:
        continue  # the same value again in another copy
    seen.add((key, s["what"]))
    value, unit = s["size"], s["unit"]
    if unit == "bytes":
        value, unit = s["size"], "bytes"
    reported = {"quantize description": "llama-quantize's help text",
                "loader 'file size' line": "the loader's 'file size' line"}.get(s["what"], "llama-bench's size column")
    rows.append({
        "kind": "gguf_model_size",
        "model": MODEL_NAMES.get(s["model"], s["model"]),
        "gpu": "",
        "conditions": {"file_type": s["ftype"], "reported_by": reported},
        "value": value,
        "unit": unit,
        "source": size_source(s["source"]),
    })

# Sizes printed beside the DGX Spark runs (benches/dgx-spark.md, llama-bench's size column).
# Not gemma-3-4b-it-qat Q4_0 (2.35 GiB): Google's QAT release is not a llama-quantize file (its
# embedding is Q8_0, not the Q4_0 mix's Q6_K; the engine's Q4_0 mix with that change gives
# 2.35 GiB), as the research leaves out gpt-oss-20b "F16" with its MXFP4 experts.
DGX = "ggml-org/llama.cpp benches/dgx-spark.md@4c7e9893c4ca8eec35d032726d14b74fae76cff8, llama-bench size column (build 2f68ce7cf, 2025-11-02)"
for model, ft, gib in [
    ("Qwen3-Coder-30B-A3B-Instruct (qwen3moe 30B.A3B, 30.53 B)", "Q8_0", 30.25),
    ("Qwen2.5-Coder-7B (qwen2 7B, 7.62 B)", "Q8_0", 7.54),
]:
    rows.append({"kind": "gguf_model_size", "model": model, "gpu": "",
                 "conditions": {"file_type": ft, "reported_by": "llama-bench's size column"},
                 "value": gib, "unit": "GiB", "source": DGX})

# Written one row per line after the file's other rows, which keep their text as it is.
text = open(PATH).read()
mine = ('{"kind": "llama_bench"', '{"kind": "gguf_model_size"')
lines = [l for l in text.rstrip().split("\n") if not l.strip().startswith(mine)]
assert lines[-2:] == [" ]", "}"], lines[-2:]
body = lines[:-2]
body[-1] = body[-1].rstrip().rstrip(",") + ","
body += ["  " + json.dumps(r, ensure_ascii=False) + "," for r in rows]
body[-1] = body[-1].rstrip(",")
open(PATH, "w").write("\n".join(body + lines[-2:]) + "\n")
json.load(open(PATH))
print(f"{sum(r['kind'] == 'llama_bench' for r in rows)} llama_bench rows, "
      f"{sum(r['kind'] == 'gguf_model_size' for r in rows)} gguf_model_size rows")

#!/usr/bin/env python3
"""Add the devices people run llama.cpp on to src/catalog/data/gpus.json (and mig.json).

Usage, after tools/derive_catalog.py (which writes the data-centre entries from the shared
reference):

    python3 tools/derive_local_devices.py ../research/devices.json

The research file holds GeForce RTX 30/40/50, RTX workstation cards, the Tesla P40, AMD Radeon
and Instinct cards, Apple M1-M5 chips, DGX Spark and Ryzen AI Max in the catalog's shape, each
with its sources. This step
  * gives them the catalog's ids and groups (data centre, workstation, GeForce, AMD Radeon,
    Apple, unified-memory machines) and writes them in that order, existing ids unchanged;
  * turns the research's `kind` into `memory_kind` (Apple chips `apple_unified`, DGX Spark
    `unified`, Ryzen AI Max `linux_gtt`: Linux lets its GPU map half by default), keeps
    `memory_options_bytes`;
  * writes each source as a citation (what, where, date) and each note as a fact, without the
    research's working remarks (what was or was not read where): the `uncertain` list says
    which fields rest on one or third-party copies;
  * fills the peaks the research left open with published derivations, flagged uncertain:
    INT8 on RTX 50 cards (the RTX Blackwell whitepaper's 838 dense TOPS on the RTX 5090 is
    2048 ops per SM per clock), DGX Spark's BF16/FP16/FP8/INT8/FP32 (the RTX 5090's ratios to
    its FP4 peak applied to GB10's published 500 dense FP4 TFLOPS) and the M5 GPUs' FP16
    ("over 4x the peak GPU compute for AI of M4");
  * gives the Apple chips the Metal efficiency profile (see METAL below);
  * adds a MIG entry for the RTX PRO 6000 Blackwell (supported, profile table not read, as the
    catalog does for GB200);
  * removes working remarks from the existing entries' texts as well.
"""
import json, os, re, sys

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "..", "src", "catalog", "data")
research = json.load(open(sys.argv[1]))
existing = json.load(open(os.path.join(DATA, "gpus.json")))

# ---------------------------------------------------------------------------------------------
# Text: citations and notes as a reader sees them.

# Phrases of the research process, replaced in every source and note (old entries included).
PHRASES = [
    (r" - quoted in a secondary copy", " (as reproduced by a third party)"),
    (r" \(copies: a secondary copy \)", ""),
    (r", a secondary copy \)", ")"),
    (r" - read as a verbatim transcription in a blog post \(secondary copy\);", ", as reproduced in a blog post;"),
    (r" - read as a verbatim transcription \(secondary copy\)", " (as reproduced by a third party)"),
    (r"\(scraped ~Apr 2026\)", "(as of about April 2026)"),
    (r" \| \[UNVERIFIED\] not found in any source read during this research; value left null or flagged", ""),
    (r" - read via awesomeagents reproduction", " (as reproduced by awesomeagents)"),
    (r"read only in secondary sources", "taken from third-party copies"),
    (r"every number is SECONDARY", "every number comes from third-party sources"),
    (r"some secondary sources", "some third-party sources"),
    (r"Beware secondary sites that list", "Some sites list"),
    (r"in some secondary sources", "by some third-party sources"),
    (r" \(its 900 GB/s figure not verified in sources read\)", ""),
    (r" - not retrieved as a copy here; ", "; "),
    (r"not verified", "not confirmed by a primary source"),
    (r"treat as unverified", "treat as uncertain"),
]


def clean(text):
    for a, b in PHRASES:
        text = re.sub(a, b, text)
    return text


# One citation per research source id: what the source is, where, and its date.
SOURCES = {
    "NV-GA102-WP": "NVIDIA Ampere GA102 GPU Architecture whitepaper (2020-09), Appendix A: RTX 3090 FP16 tensor 142/284 TFLOPS with FP16 accumulate, 71/142 with FP32 accumulate (dense/sparse), https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf, as quoted by Tom's Hardware",
    "NV-ADA-WP": "NVIDIA Ada GPU Architecture whitepaper, Appendix A: GeForce RTX 4090, 128 SMs at 2.52 GHz, FP16/BF16 tensor 165.2 TFLOPS with FP32 accumulate (dense)",
    "NV-RTXBW-WP": "NVIDIA RTX Blackwell GPU Architecture whitepaper (2025-01), GeForce RTX 5090: FP16/BF16 209.5 and FP8 419 TFLOPS with FP32 accumulate, INT8 838 TOPS, FP4 1,676 TFLOPS (dense), https://images.nvidia.com/aem-dam/Solutions/geforce/blackwell/nvidia-rtx-blackwell-gpu-architecture.pdf, the INT8 figure as tabulated in a GPU notes page (2025-02-17)",
    "NV-ADA-AITOPS": "NVIDIA RTX 40 'AI TOPS' figures (FP8/INT8 with sparsity, 2022-09), as tabulated in Tom's Hardware's RTX 4080 review (2022-11-15) https://www.tomshardware.com/reviews/nvidia-geforce-rtx-4080-review",
    "NV-RTX50-CES": "NVIDIA RTX 50 series announcement (CES, 2025-01-07), as reported by TweakTown https://www.tweaktown.com/news/102469/nvidia-geforce-rtx-50-series-specs-pricing-and-performance-plan-that-upgrade-today/index.html",
    "SEC-TOMS-4080": "Tom's Hardware RTX 4080 review, specification table (2022-11-15) https://www.tomshardware.com/reviews/nvidia-geforce-rtx-4080-review",
    "SEC-FUDZILLA-RTX30": "Fudzilla, 'Nvidia RTX 30 series specifications are now official' (2020-09) https://fudzilla.net/news/graphics/51457-nvidia-rtx-30-series-specifications-are-now-official",
    "SEC-3060": "wccftech, RTX 3060 12 GB announcement (2021-01-12) https://wccftech.com/nvidia-geforce-rtx-3060-12-gb-gddr6-graphics-card-official-ampere-ga106-gpu-launching-in-february-for-329-us/; pcpartdb.com RTX 3060 listing (boost clock, 170 W)",
    "SEC-3060TI": "wccftech, RTX 3060 Ti specifications (2020-09-11) https://wccftech.com/nvidia-geforce-rtx-3060-ti-specifications-leak-4864-cores-8-gb-gddr6-memory/; Guru3D RTX 40/30 table (2023) https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/",
    "SEC-3080-12": "wccftech, RTX 3080 12 GB specifications (2021-12-15) https://wccftech.com/nvidia-geforce-rtx-3080-12-gb-graphics-card-specs-leak-out-8960-cores-384-bit-bus-20-faster-than-3080-in-mining/",
    "SEC-GURU3D-4060": "Guru3D, RTX 4060 Ti and RTX 40/30 table (2023-04) https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/",
    "SEC-4060": "RTX 4060 specification listings (fpsbench.com, itcreations.com), undated",
    "SEC-4060TI": "TheFPSReview, RTX 4060 Ti review (2023-05-24) https://www.thefpsreview.com/?p=133840",
    "SEC-4070": "Club386, 'Complete GeForce RTX 4070 specifications' (2023-04) https://www.club386.com/complete-geforce-rtx-4070-specifications-reveal-a-frugal-599-gpu/; TheFPSReview RTX 4070 family page",
    "SEC-SUPER": "svethardware.cz, RTX 40 SUPER announcement (2024-01) https://www.svethardware.cz/nvidia-geforce-rtx-4000-super-prichazi-vice-jader-vice-pameti-nebo-nizsi-cena/60300",
    "SEC-5060TI": "RTX 5060 Ti 16 GB specifications from Ars Technica's and TechPowerUp's reviews (2025-04)",
    "SEC-RTX50-TABLE": "RTX 50 specification tables in KitGuru's, Tom's Hardware's and TechPowerUp's reviews (2025-01 to 2025-04)",
    "NV-A6000-DS": "NVIDIA RTX A6000 datasheet figures, as tabulated by ServeTheHome (2020-10) https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation",
    "MICROWAY-AMPERE": "Microway, NVIDIA Ampere GPU comparison (dense tensor figures), undated",
    "NV-A40-DS": "NVIDIA A40 datasheet: BF16 tensor with FP32 accumulate 149.7 TFLOPS, equal to FP16's (professional Ampere runs FP32 accumulate at full rate), undated copy",
    "NV-6000ADA": "heise, 'Nvidia RTX 6000' (2022-12) https://www.heise.de/news/Nvidia-RTX-6000-Die-schnellere-GeForce-RTX-4090-mit-doppelt-Speicher-7363725.html; NVIDIA's '1,457 AI TFLOPS' (FP8 with sparsity)",
    "NV-PRO6000": "NVIDIA RTX PRO 6000 Blackwell announcement (2025-03-18): 96 GB GDDR7, 1,792 GB/s, 600 W, 125 TFLOPS FP32, 4,000 AI TOPS (FP4 with sparsity), as reported by VideoCardz and hardware-corner https://hardware-corner.net/rtx-5090-vs-rtx-pro-6000-spec-comparison-20250321",
    "SEC-PRO6000-PEAKS": "hmc-tech.com GPU database, RTX PRO 6000 Blackwell dense tensor peaks at 2,617 MHz, undated",
    "NV-A4000-DS": "NVIDIA RTX A4000 datasheet (16 GB GDDR6, 448 GB/s, 19.2 TFLOPS FP32, 153.4 tensor TFLOPS with sparsity, 140 W), undated copy",
    "NV-P40-DS": "NVIDIA Tesla P40 datasheet (2016): 3,840 CUDA cores, 24 GB GDDR5, 346 GB/s, 12 TFLOPS FP32, 47 TOPS INT8, 250 W",
    "P40-FP16": "turboderp in exllama issue #27 (2023-06-04): 'FP16 performance is 1/64 of its FP32' on Pascal GP102 https://github.com/turboderp/exllama/issues/27",
    "NV-SPARK": "NVIDIA DGX Spark product page and hardware guide (128 GB LPDDR5X unified, 273 GB/s, 6,144 CUDA cores, 1 PFLOP FP4 with sparsity, 140 W GB10), as listed at https://ai-infrastructure.net/dgx-spark/ (2026-06)",
    "AMD-RDNA3": "AMD Radeon RX 7900 XTX / XT specifications (2022-11), as tabulated by Guru3D https://www.guru3d.com/review/powercolor-radeon-rx-7900-xtx-hellhound-spectral-white-review/page-4/ and Tom's Hardware",
    "RDNA-WMMA-SEC": "per-CU WMMA rates of RDNA 3 and RDNA 4 (FP16/BF16/INT8, FP8 on RDNA 4), from an instruction-set analysis on r/hardware, undated",
    "AMD-9070XT": "AMD Radeon RX 9070 XT specifications (2025-02), as reported by multiplayer.it https://multiplayer.it/notizie/amd-radeon-rx-9070-xt-rx-9070-specifiche.html and purepc.pl (779 INT8 TOPS with sparsity)",
    "AMD-W7900": "AMD Radeon PRO W7900 specifications, itcreations.com listing https://www.itcreations.com/amd-gpu/amd-radeon-pro-w7900-gpu, undated",
    "AMD-MI200": "AnandTech, 'AMD Releases Instinct MI210' (2022-03-22) https://www.anandtech.com/show/17326/amd-releases-instinct-mi210-accelerator-cdna-2-on-a-pcie-card",
    "AMD-MI250X": "AMD Instinct MI250X specifications (2021-11), as reported by zexron https://zexron.com/amd-mi250-x-aldebaran-as-mcm-with-up-to-479-teraflop-s-and-560-watt-tdp",
    "AMD-STRIX": "AMD Ryzen AI Max (Strix Halo) announcement (2025-01), as reported by svethardware.cz https://www.svethardware.cz/amd-predstavuje-ryzen-ai-max-strix-halo-s-az-16-jadry-a-gpu-se-40-cu/61477; computerbase.de (up to 96 GB as graphics memory under Windows)",
    "APPLE-M1": "Apple M1 announcement (2020-11-10: 8-core GPU, '2.6 teraflops'), as reported by MacRumors https://www.macrumors.com/2020/11/10/apple-announces-m1-chip-for-the-mac/",
    "APPLE-M1PROMAX": "Apple M1 Pro and M1 Max announcement (2021-10-18: 200 and 400 GB/s, 5.2 and 10.4 TFLOPS), as reported by 9to5Mac https://9to5mac.com/2021/10/18/apple-unveils-next-generation-m1-pro-and-m1-max-chips-for-new-macs/",
    "APPLE-M1ULTRA": "Apple M1 Ultra announcement (2022-03-08: 64-core GPU, 800 GB/s, up to 128 GB), as reported by iDownloadBlog https://www.idownloadblog.com/2022/03/08/apple-m1-ultra-initial-features/",
    "APPLE-M2": "Apple M2 announcement (2022-06-06: 100 GB/s, up to 24 GB), as reported by MacRumors https://www.macrumors.com/2022/06/06/apple-announces-m2-chip-with-support-for-up-to-24gb-memory/",
    "APPLE-M2PROMAX": "Apple M2 Pro and M2 Max announcement (2023-01-17: 200 and 400 GB/s, up to 32 and 96 GB), as reported by MacRumors https://www.macrumors.com/2023/01/17/apple-announces-m2-pro-macbook-pro/",
    "APPLE-M2ULTRA": "Apple M2 Ultra announcement (2023-06-05: 76-core GPU, 800 GB/s, up to 192 GB), as reported by ProPakistani and Fierce Electronics",
    "APPLE-M3": "Apple M3 family announcement (2023-10-31: M3 Pro 150 GB/s, M3 Max 300 or 400 GB/s by GPU bin), as reported by MacRumors https://www.macrumors.com/2023/10/31/apple-m3-pro-less-memory-bandwidth/",
    "APPLE-M3ULTRA": "Apple M3 Ultra announcement (2025-03-05: 80-core GPU, 'over 800GB/s', up to 512 GB), as reported by BGR https://bgr.com/tech/inside-apples-new-m3-ultra-processor/; 819 GB/s per TechPowerUp",
    "APPLE-M4": "Apple M4 Pro and M4 Max announcement (2024-10-30: 273 GB/s; M4 Max 410 or 546 GB/s by GPU bin), as reported by How-To Geek https://www.howtogeek.com/apple-m4-pro-m4-max-reveal/ and Ars Technica",
    "APPLE-M5": "Apple M5 announcement (2025-10-15: 153 GB/s, a Neural Accelerator in each GPU core, 'over 4x the peak GPU compute for AI' of M4), as reported by Tom's Hardware https://www.tomshardware.com/pc-components/cpus/apple-unveils-m5-chip-with-10-core-cpu-and-10-core-gpu-company-says-3nm-chip-offers-4x-peak-gpu-performance-over-m4-for-ai-45-percent-graphics-uplift",
    "APPLE-M5PROMAX": "Apple Newsroom (2026-03-03): M5 Pro up to 64 GB at 307 GB/s, M5 Max up to 128 GB at 614 GB/s, as reported by Gadgets360 and others",
    "APPLE-OPTIONS-SEC": "memory configurations and approximate GPU FP32 TFLOPS per Apple chip, from a hardware table compiled from Apple's specification pages (2026-09-30)",
    # Data-centre GPUs entered by hand in gpus.json on 2026-12-05 (B300, GB300, MI355X); the
    # older data-centre ids (NV-PRODPAGES, AMD-DS, ROCM-SPECS, MIG-GUIDE, ...) are defined in the
    # shared reference hardware.json's "sources" map.
    "NV-BWU-BLOG": "NVIDIA Technical Blog, 'Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory Era' (2025-08-22): 160 SMs in the full GPU, 15 PFLOPS dense NVFP4, 288 GB HBM3e (8 stacks, 12-high), 8 TB/s, NVLink 5 1.8 TB/s, NVLink-C2C to Grace, up to 1,400 W, https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era/",
    "NV-NVFP4-BLOG": "NVIDIA Technical Blog, 'Introducing NVFP4 for Efficient and Accurate Low-Precision Inference' (2025-06-24): FP4 dense/sparse B200 9/18, GB200 10/20, B300 13/18, GB300 15/20 PFLOPS, https://developer.nvidia.com/blog/introducing-nvfp4-for-efficient-and-accurate-low-precision-inference/",
    "NV-HGX-B300": "NVIDIA HGX platform page, HGX B300 column (2025): FP4 144 PF sparse / 105 PF dense, FP8/FP6 72 PF, INT8 2 POPS, FP16/BF16 36 PF, TF32 18 PF (with sparsity), FP32 600 TF, FP64 10 TF, up to 2.3 TB, per 8 GPUs, https://www.nvidia.com/en-us/data-center/hgx/, as transcribed by FiberMall https://www.fibermall.com/blog/nvidia-hgx-b300-overview.htm and Glenn K. Lockwood https://glennklockwood.com/garden/processors/B300 (2025)",
    "NV-GB300-NVL72": "NVIDIA GB300 NVL72 product page (2025): 72 Blackwell Ultra GPUs, 1.1 EF dense FP4, 360 PF FP8, 20 TB HBM3e at 576 TB/s, 130 TB/s NVLink, https://www.nvidia.com/en-us/data-center/gb300-nvl72/, as summarised by Glenn K. Lockwood https://glennklockwood.com/garden/processors/B300",
    "SEC-VERDA-BWU": "Verda (formerly DataCrunch), 'NVIDIA GB300 NVL72: GPU Architecture & Performance' (2025), per-GPU table of GB300, GB200, B300 and B200 dense peaks, memory and power, https://verda.com/blog/gb300-nvl72-architecture",
    "AMD-MI355X": "AMD Instinct MI355X product page and MI350 Series announcement (2025-06-12): 288 GB HBM3E, 8 TB/s, 1,400 W, FP32 157.3 TF, INT8 5 / 10.1 POPS, FP6/FP4 20.1 PF with sparsity, https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html, as reported by Tom's Hardware https://www.tomshardware.com/pc-components/gpus/amds-instinct-mi355x-accelerator-will-consume-1-400-watts and svethardware.cz https://www.svethardware.cz/amd-uvadi-akceleratory-instinct-mi350x-a-mi355x-s-288gb-pameti-hbm3e/61870",
    "AMD-ISSCC-MI355X": "AMD at ISSCC 2026 (2026-02-16) on the MI355X: 32 CUs per XCD, 8,192 FP8 FLOP per CU per clock, 5 PFLOPS FP8, as reported by World Today News https://www.world-today-news.com/?p=7253162",
    "MLPERF-MI355X": "MLCommons MLPerf Inference v6.0, AMD MI355X system description (2026): 288 GB HBM3e, PCIe Gen 5 x16 host link, XGMI, https://raw.githubusercontent.com/mlcommons/inference_results_v6.0/main/closed/AMD/results/87xMI355X_22xEPYC_9575F/summary.html",
    "AWS-HYPERPOD-403": "aws/sagemaker-hyperpod-cli pull request #403: P6-B300 MIG profiles 1g.34gb to 7g.269gb, https://github.com/aws/sagemaker-hyperpod-cli/pull/403/files",
    "DERIVED": "computed from the cited figures (formula in the notes)",
}


def citation(ids):
    return " | ".join(f"[{i}] {SOURCES[i]}" for i in ids)


# Research notes that record the research itself (or repeat the validation's measurements,
# which the validation page shows with their sources) rather than a fact about the device.
DROP_NOTE = [
    "Measured llama.cpp",
    "Measured: llama.cpp",
    "CAUTION for the estimator",
    "GPU-usable share of unified memory is capped by macOS",
    "Optional entry",
    "Measured (lhl/strix-halo-testing)",
    "INT8/TF32 left null",
    "Secondary: hmc-tech",
]
NOTE_PHRASES = [
    (r" Whether a given llama\.cpp kernel accumulates in FP16 or FP32 was not verified here\.", ""),
    (r" left null as for the existing GeForce entries", " left null"),
    (r" \(not read in an NVIDIA source, so not put in sparse_as_quoted\)", " (not an NVIDIA figure, so not in sparse_as_quoted)"),
    (r"L2 \(commonly 32 MB\) not verified - null\.", "L2 left null (commonly quoted as 32 MB)."),
    (r" L2 not verified\.", " L2 left null."),
    (r"per scan\.co\.uk TekSpek table read earlier", "per scan.co.uk's TekSpek table"),
    (r"; not read for the 3070 itself", " (not published for the 3070 itself)"),
    (r"exists on the 3090 but was not re-verified in this research - nvlink left null", "exists on the 3090; nvlink left null (no primary figure)"),
    (r" per TechPowerUp-derived copies", " per TechPowerUp's database"),
    (r" \(TechPowerUp-derived\)", ""),
    (r" \(not read for the A6000\)", ""),
    (r"Dense tensor peaks are NOT from NVIDIA: secondary \(hmc-tech\)", "Dense tensor peaks are not NVIDIA's: hmc-tech's"),
    (r" All flagged uncertain; the RTX Blackwell whitepaper table for this card was not found in the corpus\.", " All flagged uncertain."),
    (r"per pausehardware\.com \(secondary\); profiles not mapped to the project's MIG tables - flagged\.",
     "per pausehardware.com; the catalog has no profile table for it, so the MIG planner does not offer it."),
    (r"TF32/INT8 not in the datasheet copy read - null\.", "TF32/INT8 left null (not in the datasheet)."),
    (r", not read in this research - flagged", " (flagged)"),
    (r" per gpu\.blog \(secondary\)", " per gpu.blog"),
    (r" Boost 2\.495 GHz not read in a source \(AMD lists ~61\.3 TF FP32, consistent with ~2\.5 GHz\) - peaks flagged\.",
     " Boost clock 2.495 GHz inferred from AMD's ~61.3 TF FP32; peaks flagged."),
    (r"Boost 2\.495 GHz not read in a source \(AMD lists ~61\.3 TF FP32, consistent with ~2\.5 GHz\) - peaks flagged\.",
     "Boost clock 2.495 GHz inferred from AMD's ~61.3 TF FP32; peaks flagged."),
    (r" \(secondary, approximate: cores x per-core rate\)", " (approximate: cores × per-core rate)"),
    (r" \(secondary\) - kept in memory_options as it was sold", ", kept in memory_options_bytes as it was sold"),
    (r"from secondary tables", "from third-party tables"),
    (r" from secondary listings only", " from third-party listings"),
    (r" from leak/secondary listings", " from third-party listings"),
    (r" - superseded\)", ", superseded)"),
    (r" \(DERIVED; llama\.cpp #4167 lists 68\)", " (derived)"),
    (r", so the estimator falls back to FP32", "; the estimator uses the FP32 peak"),
    (r"\(community reports: modelfit/CraftRigs\)", "(community reports)"),
]


def note(text):
    for a, b in NOTE_PHRASES:
        text = re.sub(a, b, text)
    return clean(text)


# ---------------------------------------------------------------------------------------------
# Ids, groups and the values the research left open.

IDS = {
    "rx-7900-xtx": "radeon-rx-7900-xtx",
    "rx-7900-xt": "radeon-rx-7900-xt",
    "rx-9070-xt": "radeon-rx-9070-xt",
    "apple-m1": "apple-m1-8c",
    "apple-m1-pro": "apple-m1-pro-16c",
    "apple-m1-max": "apple-m1-max-32c",
    "apple-m1-ultra": "apple-m1-ultra-64c",
    "apple-m2": "apple-m2-10c",
    "apple-m2-pro": "apple-m2-pro-19c",
    "apple-m2-max": "apple-m2-max-38c",
    "apple-m2-ultra": "apple-m2-ultra-76c",
    "apple-m3": "apple-m3-10c",
    "apple-m3-pro": "apple-m3-pro-18c",
    "apple-m3-ultra": "apple-m3-ultra-80c",
    "apple-m4": "apple-m4-10c",
    "apple-m4-pro": "apple-m4-pro-20c",
    "apple-m5": "apple-m5-10c",
    "apple-m5-pro": "apple-m5-pro-20c",
}

# Reader-facing names where the research's name says more than the device.
NAMES = {
    "mi250x": "AMD Instinct MI250X (one GCD)",
    "dgx-spark": "NVIDIA DGX Spark (GB10)",
    "ryzen-ai-max-395": "AMD Ryzen AI Max+ 395 (Radeon 8060S)",
    "apple-m3-max-30c": "Apple M3 Max (30-core GPU)",
    "apple-m3-max-40c": "Apple M3 Max (40-core GPU)",
    "apple-m4-max-32c": "Apple M4 Max (32-core GPU)",
    "apple-m4-max-40c": "Apple M4 Max (40-core GPU)",
}

# Menu order: data centre (NVIDIA, AMD), workstation, GeForce, AMD Radeon, Apple, unified.
ORDER = [
    "v100-sxm-16gb", "v100-sxm-32gb", "tesla-p40", "t4", "a10", "a10g", "a30",
    "a100-sxm-40gb", "a100-pcie-40gb", "a100-sxm-80gb", "a100-pcie-80gb", "l4", "l40s",
    "h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "h200-nvl", "b200", "gb200",
    "mi210", "mi250x", "mi300x", "mi325x",
    "rtx-a4000", "rtx-a6000", "rtx-6000-ada", "rtx-pro-6000-blackwell", "radeon-pro-w7900",
    "rtx-3060-12gb", "rtx-3060-ti", "rtx-3070", "rtx-3080-10gb", "rtx-3080-12gb", "rtx-3090",
    "rtx-3090-ti", "rtx-4060", "rtx-4060-ti-8gb", "rtx-4060-ti-16gb", "rtx-4070",
    "rtx-4070-super", "rtx-4070-ti", "rtx-4070-ti-super", "rtx-4080", "rtx-4080-super",
    "rtx-4090", "rtx-5060-ti-16gb", "rtx-5070", "rtx-5070-ti", "rtx-5080", "rtx-5090",
    "radeon-rx-7900-xt", "radeon-rx-7900-xtx", "radeon-rx-9070-xt",
    "apple-m1-8c", "apple-m1-pro-16c", "apple-m1-max-32c", "apple-m1-ultra-64c",
    "apple-m2-10c", "apple-m2-pro-19c", "apple-m2-max-38c", "apple-m2-ultra-76c",
    "apple-m3-10c", "apple-m3-pro-18c", "apple-m3-max-30c", "apple-m3-max-40c",
    "apple-m3-ultra-80c", "apple-m4-10c", "apple-m4-pro-20c", "apple-m4-max-32c",
    "apple-m4-max-40c", "apple-m5-10c", "apple-m5-pro-20c", "apple-m5-max-32c",
    "apple-m5-max-40c",
    "dgx-spark", "ryzen-ai-max-395",
]

# Metal on Apple silicon: llama.cpp's achieved fraction of the memory bandwidth and its fixed
# cost per kernel, from ONE published pair of measurements that the validation does not use:
# ggerganov's M2 Ultra (800 GB/s) llama-bench rows in llama.cpp PR #2917 (2023-08-30), LLaMA
# 7B Q8_0 tg128 62.05 and Q4_0 88.54 tokens/s. With the engine's bytes per token (weights
# without the embedding table, KV cache, activations: 7.0641 GB for Q8_0, 3.7944 GB for Q4_0),
# t = bytes / (e · 800 GB/s) + 32 layers × 10 kernels × k gives e = 0.848 and k = 17.8 µs.
# tests/validation_llama.rs solves the same two equations from the engine and checks them.
METAL = {"memory_bandwidth": 0.848, "kernel_launch_s": 17.8e-6}
METAL_SOURCE = (
    "Metal back end of llama.cpp, calibrated on one published pair of llama-bench rows: "
    "ggerganov's M2 Ultra (800 GB/s) in llama.cpp PR #2917 (2023-08-30, "
    "https://github.com/ggml-org/llama.cpp/pull/2917), LLaMA 7B Q8_0 62.05 and Q4_0 88.54 "
    "tokens/s (tg128). With the engine's bytes per token (7.064 GB and 3.794 GB), "
    "t = bytes / (e · B) + 32 layers × 10 kernels × k gives e = 0.848 of the bandwidth and "
    "k = 17.8 µs per kernel. The validation's Apple rows come from another source "
    "(discussion #4167)."
)

# RTX 50: INT8 = SMs × boost clock × 2048 (the RTX 5090's 838 dense TOPS: 170 × 2.407 GHz × 2048).
RTX50_INT8 = {"rtx-5060-ti-16gb": (36, 2.572), "rtx-5070": (48, 2.512), "rtx-5070-ti": (70, 2.452),
              "rtx-5080": (84, 2.617)}


def fix(g):
    """Values and notes the research left open, per entry."""
    i = g["id"]
    pf = g["peak_flops"]
    if i in RTX50_INT8:
        sm, clk = RTX50_INT8[i]
        pf["int8"] = round(sm * clk * 2048 * 1e9, -9)
        g["uncertain"].append("peak_flops.int8")
        g["notes"].append(
            f"INT8 {pf['int8'] / 1e12:.1f} TOPS dense = {sm} SMs × {clk} GHz × 2048 ops per SM per clock, "
            "the rate of the RTX Blackwell whitepaper's RTX 5090 figure (838 TOPS = 170 × 2.407 GHz × 2048); "
            "NVIDIA publishes no INT8 figure for this card. TF32 left null.")
    if i == "rtx-5090":
        pf["int8"] = 838e12
        g["notes"] = [n.replace(" and INT8 not confirmed by a primary source", " not confirmed by a primary source")
                      for n in g["notes"]]
        g["notes"].append("INT8 838 TOPS dense (1,676 with sparsity) per the RTX Blackwell whitepaper's RTX 5090 table.")
        if "NV-RTXBW-WP" not in g["source"]:
            g["source"] += " | [NV-RTXBW-WP] " + SOURCES["NV-RTXBW-WP"]
        else:
            g["source"] = g["source"].replace(
                "Table 3 (GeForce RTX 5090) (as reproduced by a third party)",
                "Table 3 (GeForce RTX 5090) (as reproduced by a third party); INT8 838 TOPS dense as tabulated in a GPU notes page (2025-02-17)")
    if i == "dgx-spark":
        # GB10's published 500 dense FP4 TFLOPS, with the RTX 5090's ratios to its FP4 peak:
        # FP32 1/16, FP16/BF16 (FP32 accumulate) 1/8, FP8 1/4, INT8 1/2.
        fp4 = pf["fp4"]
        pf.update({"fp32": fp4 / 16, "fp16": fp4 / 8, "bf16": fp4 / 8, "fp8": fp4 / 4, "int8": fp4 / 2})
        g["uncertain"] += ["peak_flops.fp32", "peak_flops.fp16", "peak_flops.bf16", "peak_flops.fp8",
                           "peak_flops.int8"]
        g["notes"] = [
            "NVIDIA quotes only '1 PFLOP FP4 with sparsity': 500 TFLOPS dense FP4.",
            "NVIDIA publishes no BF16, FP16, FP8, INT8 or FP32 peak for GB10. These are derived from the dense FP4 peak "
            "with the RTX 5090's ratios (RTX Blackwell whitepaper: FP4 1,676, INT8 838, FP8 419 and BF16 209.5 with "
            "FP32 accumulate, FP32 104.8): BF16/FP16 62.5, FP8 125, INT8 250, FP32 31.25 TFLOPS. All flagged uncertain.",
            "sm_count 48 = 6,144 CUDA cores / 128. tdp_w 140 = the GB10 SoC (system power supply 240 W).",
            "One 128 GB pool shared by the Arm CPU and the GPU (NVLink-C2C between them); 2 × ConnectX-7 200 GbE to "
            "join two units.",
        ]
        g["source_ids"] = ["NV-SPARK", "NV-RTXBW-WP", "DERIVED"]
    if i.startswith("apple-m5"):
        cores = g["sm_count"]
        pf["fp16"] = round(cores * 4 * 4.3e12 / 10, -9)
        g["uncertain"].append("peak_flops.fp16")
        g["notes"] = [n.replace("fp16/bf16 null - Apple publishes no FP16/matrix peak for the GPU; the estimator uses the FP32 peak.",
                                "bf16 null: the estimator uses the FP32 peak for it.")
                      for n in g["notes"] if "Neural Accelerator" not in n]
        g["notes"].append(
            f"fp16 {pf['fp16'] / 1e12:.1f} TFLOPS derived from Apple's relative claim for the M5's GPU Neural "
            "Accelerators ('over 4x the peak GPU compute for AI' of M4): 4 × the M4 10-core GPU's 4.3 TFLOPS, "
            f"per core × {cores} cores. A lower estimate ('over'); flagged uncertain. bf16 uses the FP32 peak.")
    if i.startswith("apple-"):
        g["notes"].append(
            "macOS lets the GPU wire about 2/3 of unified memory up to 36 GB and 3/4 above "
            "(recommendedMaxWorkingSetSize); the estimator's GPU budget follows that rule. "
            "sudo sysctl iogpu.wired_limit_mb=<MB> raises it until the next reboot.")
        g["efficiency"] = dict(METAL)
        g["efficiency_source"] = METAL_SOURCE
    if i == "mi250x":
        # Software sees each of the package's two GCDs as one GPU (ROCm, PyTorch, llama.cpp):
        # the entry is one GCD, half the package's figures.
        g["memory_bytes"] //= 2
        g["memory_bandwidth_bytes_per_s"] /= 2
        for k, v in list(pf.items()):
            if v:
                pf[k] = v / 2
        g["sm_count"] //= 2
        g["tdp_w"] = g["tdp_w"] / 2 if g["tdp_w"] else None
        g["notes"] = [
            "One of the package's two GCDs, as ROCm, PyTorch and llama.cpp see it: 64 GB HBM2e, 1.6 TB/s, 110 CUs, "
            "half of every package figure (128 GB, 3.2 TB/s, FP16 383 TFLOPS dense, 560 W peak).",
            "fp64 = vector 23.95 per GCD (matrix 47.9); fp32 = matrix/packed 47.85 (vector 23.95).",
            "Up to 8 Infinity Fabric links per package (bandwidth not captured; nvlink left null). Host link PCIe 4.0 per gpu.blog.",
        ]
    if i == "rtx-pro-6000-blackwell":
        g["mig"]["profiles"] = "rtx-pro-6000-96gb"
    return g


def convert(r):
    g = {k: v for k, v in r.items() if k not in ("kind",)}
    g["id"] = IDS.get(r["id"], r["id"])
    g["name"] = NAMES.get(g["id"], r["name"])
    kind = r.get("kind", "discrete")
    g["memory_kind"] = (
        "apple_unified" if g["id"].startswith("apple-")
        else "linux_gtt" if g["id"] == "ryzen-ai-max-395"
        else "unified" if kind == "unified" else "discrete")
    g["memory_options_bytes"] = sorted(r.get("memory_options_bytes") or [])
    g["source_ids"] = [s for s in r["source_ids"] if s != "LLAMA-4167"]
    g["notes"] = [note(n) for n in r["notes"] if not any(d in n for d in DROP_NOTE)]
    g["uncertain"] = list(r["uncertain"])
    g["efficiency"] = {}
    g["efficiency_source"] = ""
    g = fix(g)
    g["source"] = citation(g["source_ids"])
    g["uncertain"] = sorted(set(g["uncertain"]))
    return g


KEYS = ["id", "name", "vendor", "architecture", "form_factor", "memory_type", "memory_bytes",
        "memory_bandwidth_bytes_per_s", "peak_flops", "sparse_as_quoted", "l2_bytes", "sm_count",
        "tdp_w", "nvlink", "pcie", "mig", "source", "source_ids", "retrieved", "uncertain", "notes",
        "memory_kind", "memory_options_bytes", "efficiency", "efficiency_source"]

out = {}
for g in existing:
    g = dict(g)
    g["source"] = clean(g["source"])
    g["source_ids"] = [s for s in g["source_ids"] if s != "UNVERIFIED"]
    g["notes"] = [clean(n) for n in g["notes"]]
    g.setdefault("memory_kind", "discrete")
    g.setdefault("memory_options_bytes", [])
    g.setdefault("efficiency", {})
    g.setdefault("efficiency_source", "")
    if g["id"] == "rtx-5090":
        g = fix(g)
    out[g["id"]] = g
for r in research:
    g = convert(r)
    out[g["id"]] = g
assert sorted(out) == sorted(ORDER), set(out) ^ set(ORDER)
gpus = [{k: out[i][k] for k in KEYS} for i in ORDER]
json.dump(gpus, open(os.path.join(DATA, "gpus.json"), "w"), indent=1, ensure_ascii=False)
print(f"wrote {len(gpus)} gpus")

mig_path = os.path.join(DATA, "mig.json")
mig = json.load(open(mig_path))
if not any(t["key"] == "rtx-pro-6000-96gb" for t in mig):
    mig.append({
        "key": "rtx-pro-6000-96gb",
        "name": "RTX PRO 6000 Blackwell (96 GB)",
        "profiles": [],
        "notes": ["RTX PRO 6000 Blackwell supports MIG with up to 4 instances (4 × 24 GB, 2 × 48 GB or 1 × 96 GB per "
                  "pausehardware.com). Profile table not read, so the MIG planner does not offer it."],
        "source": "pausehardware.com RTX PRO 6000 Blackwell MIG listing (2025-03)",
        "retrieved": "2026-12-04",
    })
    json.dump(mig, open(mig_path, "w"), indent=1, ensure_ascii=False)

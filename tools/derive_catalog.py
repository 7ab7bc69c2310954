#!/usr/bin/env python3
"""Derive src/catalog/data/*.json from the shared reference hardware.json.

Usage: python3 tools/derive_catalog.py ../shared/reference/hardware.json
Then: python3 tools/derive_local_devices.py ../research/devices.json (adds the consumer,
workstation, Apple and unified-memory devices, orders the list by group and words the texts).
Units are converted to the engine's: bytes (u64), bytes/s and FLOP/s (f64).
Vendor GB are decimal (x 1e9); L2 "MB" are binary (MiB, as the caches are sized).
Per-GPU `uncertain` field lists are transcribed by hand from hardware.json's
meta.uncertainties, field_sources marked UNVERIFIED/secondary, and notes.
"""
import json, sys, os

src = json.load(open(sys.argv[1]))
RETRIEVED = src["meta"]["generated"]
OUT = os.path.join(os.path.dirname(__file__), "..", "src", "catalog", "data")

IDS = {
    "V100 SXM2 16GB": "v100-sxm-16gb", "V100 SXM2 32GB": "v100-sxm-32gb", "T4": "t4",
    "A10": "a10", "A10G": "a10g", "A100 40GB SXM4": "a100-sxm-40gb",
    "A100 40GB PCIe": "a100-pcie-40gb", "A100 80GB SXM4": "a100-sxm-80gb",
    "A100 80GB PCIe": "a100-pcie-80gb", "L4": "l4", "L40S": "l40s",
    "H100 SXM5 80GB": "h100-sxm", "H100 PCIe 80GB": "h100-pcie", "H100 NVL 94GB": "h100-nvl",
    "H200 SXM 141GB": "h200-sxm", "H200 NVL 141GB": "h200-nvl",
    "B200 (HGX B200, per GPU)": "b200", "GB200 (per Blackwell GPU in GB200 NVL72)": "gb200",
    "GeForce RTX 4090": "rtx-4090", "GeForce RTX 5090": "rtx-5090",
    "AMD Instinct MI300X": "mi300x", "AMD Instinct MI325X": "mi325x",
}
MIG_KEYS = {
    "A100-40GB": "a100-40gb", "A100-80GB": "a100-80gb", "H100-80GB": "h100-80gb",
    "H100-94GB (H100 NVL / 94GB)": "h100-94gb", "H200-141GB": "h200-141gb",
    "B200-180GB": "b200-180gb", "A30-24GB": "a30-24gb", "GB200": "gb200",
}
GPU_MIG = {
    "a100-sxm-40gb": "a100-40gb", "a100-pcie-40gb": "a100-40gb", "a100-sxm-80gb": "a100-80gb",
    "a100-pcie-80gb": "a100-80gb", "h100-sxm": "h100-80gb", "h100-pcie": "h100-80gb",
    "h100-nvl": "h100-94gb", "h200-sxm": "h200-141gb", "h200-nvl": "h200-141gb",
    "b200": "b200-180gb", "gb200": "gb200", "a30": "a30-24gb",
}
NO_BF16 = {"v100-sxm-16gb", "v100-sxm-32gb", "t4"}
UNCERTAIN = {
    "v100-sxm-16gb": ["memory_bandwidth_bytes_per_s", "nvlink"],
    "v100-sxm-32gb": ["memory_bandwidth_bytes_per_s", "nvlink"],
    "t4": ["memory_bandwidth_bytes_per_s", "peak_flops"],
    "a10g": ["memory_bytes", "memory_bandwidth_bytes_per_s", "peak_flops", "sm_count",
             "l2_bytes", "pcie", "tdp_w"],
    "l4": ["peak_flops", "sm_count", "l2_bytes"],
    "l40s": ["l2_bytes", "peak_flops.int8", "peak_flops.fp16", "peak_flops.bf16"],
    "h100-pcie": ["tdp_w", "l2_bytes"],
    "h100-nvl": ["sm_count", "l2_bytes", "tdp_w"],
    "b200": ["memory_bytes", "memory_bandwidth_bytes_per_s", "peak_flops.fp64", "pcie"],
    "gb200": ["peak_flops", "peak_flops.fp64", "tdp_w", "sm_count", "l2_bytes", "pcie"],
    "rtx-4090": ["tdp_w", "l2_bytes", "peak_flops.int8"],
    "rtx-5090": ["tdp_w", "l2_bytes", "peak_flops.int8", "pcie"],
    "mi300x": ["peak_flops", "nvlink"],
    "mi325x": ["peak_flops", "nvlink"],
    "a30": ["memory_bandwidth_bytes_per_s", "peak_flops", "sm_count", "l2_bytes", "nvlink", "pcie"],
}
EXTRA_NOTES = {
    "l40s": ["Datasheet dense FP16/BF16 362.05 TF is 1.2% below its sparse 733/2; the vendor dense figure is kept."],
}


# Shorter display names where the reference's name describes the board rather than the GPU.
DISPLAY_NAMES = {
    "B200 (HGX B200, per GPU)": "B200 (HGX B200, 1 GPU)",
    "GB200 (per Blackwell GPU in GB200 NVL72)": "GB200 NVL72 (1 Blackwell GPU)",
}


def num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def peaks(d, no_bf16):
    t = lambda k: None if num(d.get(k)) is None else num(d.get(k)) * 1e12
    fp16 = t("fp16_bf16_tensor")
    return {
        "fp64": t("fp64"), "fp32": t("fp32"), "tf32": t("tf32_tensor"),
        "fp16": fp16, "bf16": None if no_bf16 else fp16,
        "fp8": t("fp8_tensor"), "int8": t("int8_tensor_tops"), "fp4": t("fp4_tensor"),
    }


# GPUs the reference lacks, entered by hand in its format. The A30 is here for the MIG planner
# (its profiles and placements are in the reference's MIG section). Its datasheet was not
# retrieved as a copy in this offline workplace: the figures are the datasheet's as NVIDIA
# publishes them, corroborated only in part (24 GB, 165 W, FP32 10.3 TF on the Hugging Face
# hardware page), so every other field is listed as uncertain and shows so on screen.
EXTRA_GPUS = [{
    "name": "A30", "vendor": "NVIDIA", "architecture": "Ampere (GA100)",
    "form_factor": "PCIe dual-slot", "memory_gb": 24, "memory_type": "HBM2",
    "memory_bandwidth_gbs": 933,
    "dense_tflops": {"fp64": 5.2, "fp32": 10.3, "tf32_tensor": 82, "fp16_bf16_tensor": 165,
                     "fp8_tensor": "n/a", "int8_tensor_tops": 330, "fp4_tensor": "n/a"},
    "sparse_as_quoted": {"tf32_tensor": 165, "fp16_bf16_tensor": 330, "int8_tensor_tops": 661},
    "nvlink": {"generation": 3, "links": 4, "total_bidirectional_gbs": 200},
    "pcie": {"generation": 4, "x16_bidirectional_gbs": 64},
    "tdp_w": 165, "mig": {"supported": True, "max_instances": 4},
    "l2_cache_mb": 24, "sm_count": 56,
    "notes": ["NVLink only via a bridge between 2 GPUs (200 GB/s per the datasheet).",
              "MIG: 4 instances of 1g.6gb, 2 of 2g.12gb or one 4g.24gb (MIG User Guide)."],
    "source": "[NV-A30-DS] NVIDIA A30 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/products/a30-gpu/ - not retrieved as a copy here; 24 GB, 165 W and FP32 10.3 TF corroborated by https://huggingface.co/hardware/a30 | [MIG-GUIDE] NVIDIA Multi-Instance GPU User Guide 'Supported MIG Profiles' (A30-24GB table) https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html",
    "source_ids": ["NV-A30-DS", "MIG-GUIDE"],
    "retrieved": "2026-12-01",
}]
IDS["A30"] = "a30"

gpus = []
for g in src["gpus"] + EXTRA_GPUS:
    gid = IDS[g["name"]]
    nv = g["nvlink"]
    nvlink = None
    if num(nv.get("total_bidirectional_gbs")):
        gen = nv["generation"]
        nvlink = {
            "generation": f"NVLink {gen}" if isinstance(gen, int) else str(gen),
            "links": nv.get("links"),
            "bidirectional_bytes_per_s": nv["total_bidirectional_gbs"] * 1e9,
        }
    pc = g["pcie"]
    pcie = None
    if pc.get("generation") is not None or num(pc.get("x16_bidirectional_gbs")):
        pcie = {
            "generation": pc.get("generation"),
            "bidirectional_bytes_per_s": None if num(pc.get("x16_bidirectional_gbs")) is None
            else pc["x16_bidirectional_gbs"] * 1e9,
        }
    l2 = num(g.get("l2_cache_mb"))
    gpus.append({
        "id": gid,
        "name": DISPLAY_NAMES.get(g["name"], g["name"]),
        "vendor": g["vendor"],
        "architecture": g["architecture"],
        "form_factor": g["form_factor"],
        "memory_type": g["memory_type"],
        "memory_bytes": int(round(g["memory_gb"] * 1e9)),
        "memory_bandwidth_bytes_per_s": g["memory_bandwidth_gbs"] * 1e9,
        "peak_flops": peaks(g["dense_tflops"], gid in NO_BF16),
        "sparse_as_quoted": {k.replace("_tensor_tops", "").replace("_tensor", "").replace("fp16_bf16", "fp16"):
                             v * 1e12 for k, v in g["sparse_as_quoted"].items()},
        "l2_bytes": None if l2 is None else int(round(l2 * 1024 * 1024)),
        "sm_count": g.get("sm_count"),
        "tdp_w": num(g.get("tdp_w")),
        "nvlink": nvlink,
        "pcie": pcie,
        "mig": {
            "supported": bool(g["mig"]["supported"]),
            "max_instances": g["mig"]["max_instances"] or 0,
            "profiles": GPU_MIG.get(gid) if g["mig"]["supported"] else None,
        },
        "source": g["source"],
        "source_ids": g["source_ids"],
        "retrieved": g.get("retrieved", RETRIEVED),
        "uncertain": UNCERTAIN.get(gid, []),
        "notes": g["notes"] + EXTRA_NOTES.get(gid, []),
    })

# The hand entries sit beside their generation in the lists readers pick from (the A30 after the A10G).
a30 = next(g for g in gpus if g["id"] == "a30")
gpus.remove(a30)
gpus.insert(next(i for i, g in enumerate(gpus) if g["id"] == "a10g") + 1, a30)
assert len({g["id"] for g in gpus}) == len(gpus)
json.dump(gpus, open(os.path.join(OUT, "gpus.json"), "w"), indent=1, ensure_ascii=False)
print(f"wrote {len(gpus)} gpus")


def frac(s):
    a, b = s.split(" ")[0].split("/")
    return int(a) / int(b)


mig = {}
for key, m in src["mig_profiles"].items():
    mig[MIG_KEYS[key]] = {
        "key": MIG_KEYS[key],
        "name": key,
        "profiles": [{
            "name": p["name"],
            "memory_fraction": frac(p["memory_fraction"]),
            "sm_fraction": frac(p["sm_fraction"]),
            "max_instances": p.get("max_instances"),
            "sm_count": p.get("sm_count"),
        } for p in m.get("profiles", [])],
        "notes": m.get("notes", []),
        "source": m.get("source", ""),
        "retrieved": RETRIEVED,
    }
json.dump(list(mig.values()), open(os.path.join(OUT, "mig.json"), "w"), indent=1, ensure_ascii=False)

inst = []
for i in src["instances"]:
    cnt = i["gpu_count"]
    inst.append({
        "provider": i["provider"],
        "instance": i["instance"],
        "gpu_model": i["gpu_model"],
        "gpu_count": cnt if isinstance(cnt, (int, float)) else None,
        "gpu_count_text": str(cnt),
        "vcpus": num(i.get("vcpus")),
        "ram_gb": num(i.get("ram_gb")),
        "ram_unit": i.get("ram_unit"),
        "local_nvme": i.get("local_nvme"),
        "network_type": i.get("network_type"),
        "price_usd_per_hour": i["price_usd_per_hour"],
        "price_region": i.get("price_region"),
        "price_date": i.get("price_date"),
        "intra_node_interconnect": i["intra_node_interconnect"],
        "inter_node_network_gbps": i["inter_node_network_gbps"],
        "source": i["source"],
        "notes": i.get("notes", []),
    })
json.dump(inst, open(os.path.join(OUT, "instances.json"), "w"), indent=1, ensure_ascii=False)
print(f"wrote {len(mig)} MIG tables, {len(inst)} instances")

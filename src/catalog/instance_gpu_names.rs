// Which instance-catalog GPU model names each catalog GPU id sells as (included by build.rs,
// which picks the default prices, and by the prices test that checks them).
[
    ("a100-sxm-40gb", "A100 40GB SXM4"),
    ("a100-sxm-80gb", "A100 80GB SXM4"),
    ("a100-pcie-80gb", "A100 80GB PCIe"),
    ("h100-sxm", "H100 80GB SXM5"),
    ("h100-nvl", "H100 NVL 94GB"),
    ("h200-sxm", "H200 141GB SXM"),
    ("a10g", "A10G 24GB"),
    ("l4", "L4 24GB"),
    ("l40s", "L40S 48GB"),
    ("a10", "A10 24GB"),
]

//! Strings of the chapter widgets that are not estimators (CUDA grid, Tensor Core peaks, spec
//! sheet, GPU ladder, all-reduce) and of the embed code control, in both languages.

use super::Lang;

#[derive(Debug)]
pub struct WidgetStrings {
    pub copy_embed: &'static str,
    pub embed_label: &'static str,
    pub embed_copied: &'static str,
    pub embed_copy_failed: &'static str,
    pub embed_needs_host: &'static str,
    /// Before a widget's formula line.
    pub math: &'static str,
    /// A number field holds something that is not a number in its range: (before, between, after).
    pub range: (&'static str, &'static str, &'static str),
    /// The same for a field that takes a whole number (a count).
    pub range_whole: (&'static str, &'static str, &'static str),

    pub cuda_title: &'static str,
    pub cuda_note: &'static str,
    pub elements: &'static str,
    pub threads_per_block: &'static str,
    pub blocks: &'static str,
    pub warps_per_block: &'static str,
    pub warps: &'static str,
    pub idle_threads: &'static str,
    pub blocks_per_sm: &'static str,
    pub idle_sms: &'static str,
    pub memory_time: &'static str,
    pub launch_share: &'static str,

    pub tc_title: &'static str,
    pub tc_note: &'static str,
    pub col_path: &'static str,
    pub col_dense: &'static str,
    pub col_speedup: &'static str,
    pub col_sparse: &'static str,
    pub cuda_cores: &'static str,
    pub none: &'static str,

    pub spec_title: &'static str,
    pub precision: &'static str,
    pub intensity: &'static str,
    pub dense_applies: &'static str,
    pub sparse_skip: &'static str,
    pub bandwidth: &'static str,
    pub ridge: &'static str,
    pub attainable: &'static str,
    pub left_of_ridge: &'static str,
    pub right_of_ridge: &'static str,
    /// "no {requested} path: {used} is used" as (before, middle, after).
    pub fallback: (&'static str, &'static str, &'static str),

    pub ladder_title: &'static str,
    pub ladder_note: &'static str,
    pub tier: &'static str,
    pub tiers: [&'static str; 3],
    pub fits: &'static str,
    pub fits_yes: &'static str,
    pub fits_no: &'static str,
    pub headroom: &'static str,
    pub cost: &'static str,
    pub per_hour: &'static str,
    pub no_price: &'static str,

    pub sk_title: &'static str,
    pub sk_note: &'static str,
    pub sequences: &'static str,
    pub sk_kv_per_token: &'static str,
    pub sk_kv: &'static str,
    pub sk_state: &'static str,
    pub sk_per_sequence: &'static str,
    pub sk_all: &'static str,
    pub sk_if_all_attention: &'static str,
    /// "{a} attention and {s} fixed-state layers of {n}" as (before a, before s, before n, after).
    pub sk_layers: (&'static str, &'static str, &'static str, &'static str),
    /// After `KV = per token × context = all layers' worth`, when sliding windows cap it.
    pub sk_window: &'static str,

    pub ar_title: &'static str,
    pub ar_note: &'static str,
    pub message_size: &'static str,
    pub topologies: [&'static str; 3],
    pub expected: &'static str,
    pub bound: &'static str,
    pub one_node: &'static str,
    pub time: &'static str,
}

impl Lang {
    /// The widget strings of this language.
    pub fn wid(self) -> &'static WidgetStrings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }
}

impl WidgetStrings {
    /// "enter a (whole) number from {min} to {max}" for `label`.
    pub fn out_of_range(&self, label: &str, min: &str, max: &str, whole: bool) -> String {
        let (a, b, c) = if whole { self.range_whole } else { self.range };
        format!("{label}: {a}{min}{b}{max}{c}")
    }
}

pub const ZH: WidgetStrings = WidgetStrings {
    copy_embed: "复制嵌入代码",
    embed_label: "嵌入代码",
    embed_copied: "已复制到剪贴板。",
    embed_copy_failed: "无法写入剪贴板，请手动复制下面已选中的代码。",
    embed_needs_host: "嵌入需要把本站部署在网站上；从本地文件打开的页面无法被嵌入。",
    math: "算式：",
    range: ("请输入 ", " 到 ", " 之间的数"),
    range_whole: ("请输入 ", " 到 ", " 之间的整数"),

    cuda_title: "网格、block 与 warp",
    cuda_note: "本章的 add kernel，FP32：每个元素读 x、y，写 out，共 12 字节。",
    elements: "元素数 n",
    threads_per_block: "每个 block 的线程数 T",
    blocks: "block 数",
    warps_per_block: "每个 block 的 warp 数",
    warps: "warp 总数",
    idle_threads: "最后一个 block 里空闲的线程",
    blocks_per_sm: "每个 SM 平均分到的 block",
    idle_sms: "没有分到 block 的 SM",
    memory_time: "kernel 访存时间下限",
    launch_share: "一次启动开销的占比",

    tc_title: "各精度的峰值算力",
    tc_note: "稀疏数字只适用于按 2:4 模式剪枝的权重（每 4 个里有 2 个为零），从来不是默认值：比较时用稠密数字。",
    col_path: "计算路径",
    col_dense: "稠密峰值",
    col_speedup: "相对 FP32",
    col_sparse: "2:4 结构化稀疏（仅剪枝后）",
    cuda_cores: "CUDA 核心",
    none: "无",

    spec_title: "读规格表：峰值、带宽与拐点",
    precision: "精度",
    intensity: "kernel 的算术强度 (FLOP/字节)",
    dense_applies: "适用的数字（稠密）",
    sparse_skip: "规格表上的稀疏数字（不要用）",
    bandwidth: "显存带宽",
    ridge: "拐点",
    attainable: "可达算力",
    left_of_ridge: "在拐点左侧：受显存带宽限制",
    right_of_ridge: "在拐点右侧：受算力限制",
    fallback: ("这款 GPU 没有 ", " 路径，按 ", " 计算"),

    ladder_title: "从笔记本到生产：显存余量与成本",
    ladder_note: "余量 = 可用显存 − 所需显存；可用显存 = 显存 × (1 − 10%)。成本取目录中最便宜的按需价格（每 GPU 每小时）。",
    tier: "档次",
    tiers: ["消费级", "PCIe 数据中心卡", "SXM 数据中心"],
    fits: "放得下吗",
    fits_yes: "放得下",
    fits_no: "放不下",
    headroom: "余量",
    cost: "每小时成本",
    per_hour: "/小时",
    no_price: "目录中没有按需价格",

    sk_title: "KV cache 与固定状态：每个序列占多少显存",
    sk_note: "KV cache 只在注意力层里随上下文增长；线性注意力层和 Mamba 层每个序列只保留一份固定大小的循环状态（外加短卷积的缓存），上下文再长也不变。KV 按 BF16 计，状态按模型配置给出的数据类型计。",
    sequences: "并发序列数",
    sk_kv_per_token: "每 token 的 KV cache",
    sk_kv: "每序列 KV cache",
    sk_state: "每序列固定状态",
    sk_per_sequence: "每序列合计",
    sk_all: "全部并发序列合计",
    sk_if_all_attention: "若每层都是注意力层，每序列 KV",
    sk_layers: ("", " 个注意力层、", " 个固定状态层（共 ", " 层）"),
    sk_window: "滑动窗口层最多只保留窗口内的 token",
    ar_title: "all-reduce 时间与消息大小",
    ar_note: "环形 all-reduce：节点内 reduce-scatter，节点间对 S/8 做 all-reduce，再在节点内 all-gather；总线效率 75%。",
    message_size: "消息大小 (MB)",
    topologies: [
        "NVSwitch（节点内）+ InfiniBand NDR（节点间）",
        "NVSwitch + AWS EFA（p5）",
        "PCIe 5.0（节点内）+ InfiniBand HDR（节点间）",
    ],
    expected: "预期时间",
    bound: "下限",
    one_node: "8 块 GPU 以内都在一个节点里，节点间的网络不参与。",
    time: "时间",
};

pub const EN: WidgetStrings = WidgetStrings {
    copy_embed: "Copy embed code",
    embed_label: "Embed code",
    embed_copied: "Copied to the clipboard.",
    embed_copy_failed: "Could not write to the clipboard; copy the selected code below.",
    embed_needs_host: "Embedding needs the site to be hosted; a page opened from a file cannot be embedded.",
    math: "Math: ",
    range: ("enter a number from ", " to ", ""),
    range_whole: ("enter a whole number from ", " to ", ""),

    cuda_title: "Grid, blocks and warps",
    cuda_note: "The chapter's add kernel in FP32: each element reads x and y and writes out, 12 bytes.",
    elements: "Elements n",
    threads_per_block: "Threads per block T",
    blocks: "Blocks",
    warps_per_block: "Warps per block",
    warps: "Warps in the grid",
    idle_threads: "Idle threads in the last block",
    blocks_per_sm: "Blocks per SM (average)",
    idle_sms: "SMs without a block",
    memory_time: "Kernel time from memory traffic (lower bound)",
    launch_share: "Share of one launch's overhead",

    tc_title: "Peak throughput by precision",
    tc_note: "Sparse figures apply only to weights pruned to the 2:4 pattern (two zeros in every four); they are never the default: compare dense figures.",
    col_path: "Path",
    col_dense: "Dense peak",
    col_speedup: "vs FP32",
    col_sparse: "2:4 structured sparsity (pruned only)",
    cuda_cores: "CUDA cores",
    none: "none",

    spec_title: "Reading the spec sheet: peak, bandwidth, ridge point",
    precision: "Precision",
    intensity: "Kernel's arithmetic intensity (FLOP/byte)",
    dense_applies: "The number that applies (dense)",
    sparse_skip: "Sparse figure on the sheet (do not use)",
    bandwidth: "Memory bandwidth",
    ridge: "Ridge point",
    attainable: "Attainable",
    left_of_ridge: "Left of the ridge: memory-bound",
    right_of_ridge: "Right of the ridge: compute-bound",
    fallback: ("This GPU has no ", " path; ", " is used"),

    ladder_title: "From notebook to production: headroom and cost",
    ladder_note: "Headroom = usable memory − memory needed; usable = memory × (1 − 10%). Cost is the cheapest on-demand price in the catalog, per GPU-hour.",
    tier: "Tier",
    tiers: ["consumer", "PCIe datacenter card", "SXM datacenter"],
    fits: "Fits?",
    fits_yes: "fits",
    fits_no: "does not fit",
    headroom: "Headroom",
    cost: "Cost per hour",
    per_hour: "/h",
    no_price: "no on-demand price in the catalog",

    sk_title: "KV cache and fixed state: memory per sequence",
    sk_note: "Only attention layers keep a KV cache that grows with the context; linear-attention and Mamba layers keep one fixed-size recurrent state per sequence (plus a short convolution cache), however long the context. KV in BF16, the state in the dtype the model's config names.",
    sequences: "Concurrent sequences",
    sk_kv_per_token: "KV cache per token",
    sk_kv: "KV cache per sequence",
    sk_state: "Fixed state per sequence",
    sk_per_sequence: "Per sequence",
    sk_all: "All sequences",
    sk_if_all_attention: "KV per sequence if every layer were attention",
    sk_layers: ("", " attention and ", " fixed-state layers (of ", ")"),
    sk_window: "sliding-window layers keep at most their window",
    ar_title: "All-reduce time against message size",
    ar_note: "Ring all-reduce: reduce-scatter inside the node, all-reduce of S/8 between nodes, all-gather inside the node; 75% bus efficiency.",
    message_size: "Message size (MB)",
    topologies: [
        "NVSwitch (in node) + InfiniBand NDR (between nodes)",
        "NVSwitch + AWS EFA (p5)",
        "PCIe 5.0 (in node) + InfiniBand HDR (between nodes)",
    ],
    expected: "Expected",
    bound: "Lower bound",
    one_node: "Up to 8 GPUs stay in one node: the network between nodes is not used.",
    time: "time",
};

//! The words of the chapter figures (`charts::figures`) in both languages. Templates use
//! `{name}` placeholders filled by `charts::figures::fill`, so each language orders its own
//! sentence around the numbers.

/// Every string of the seven figures.
#[derive(Debug)]
pub struct FigureStrings {
    // Memory hierarchy (chapter 3).
    /// `{gpu}`
    pub mem_title: &'static str,
    pub mem_caption: &'static str,
    /// Label of the GPU picker.
    pub mem_gpu: &'static str,
    /// Under the picker: why only some GPUs are offered.
    pub mem_gpu_note: &'static str,
    pub registers: &'static str,
    pub shared_l1: &'static str,
    pub l2: &'static str,
    /// `{type}`: HBM3, HBM2e, GDDR6…
    pub dram: &'static str,
    /// `{total}`, `{per_sm}`, `{sms}`
    pub per_sm_total: &'static str,
    pub not_published: &'static str,
    /// `{bw}`
    pub approx_bw: &'static str,
    /// `{bw}`
    pub peak_bw: &'static str,
    pub faster: &'static str,
    pub larger: &'static str,

    // Grid, blocks, warps (chapter 4).
    pub thr_title: &'static str,
    pub thr_caption: &'static str,
    /// `{n}` blocks of `{t}` threads.
    pub grid: &'static str,
    pub block: &'static str,
    pub sm: &'static str,
    pub warp: &'static str,
    /// `{t}` threads, `{w}` warps, `{s}` threads per warp.
    pub block_detail: &'static str,

    // Roofline with the example kernels (chapter 3).
    /// `{gpu}`, `{dtype}`
    pub roof_title: &'static str,
    pub roof_caption: &'static str,
    pub k_add: &'static str,
    pub k_gemm: &'static str,
    pub k_decode: &'static str,
    pub k_prefill: &'static str,

    // Ring all-reduce (chapter 7).
    /// `{n}`
    pub ring_title: &'static str,
    pub ring_caption: &'static str,
    /// `{n}`
    pub ring_start: &'static str,
    /// `{s}`, `{t}`
    pub ring_rs: &'static str,
    /// `{s}`, `{t}`
    pub ring_ag: &'static str,
    /// `{n}`: appended on the last step.
    pub ring_done: &'static str,
    pub ring_legend: &'static str,
    pub prev: &'static str,
    pub next: &'static str,

    // NVSwitch vs PCIe (chapter 7).
    pub topo_title: &'static str,
    pub topo_caption: &'static str,
    pub topo_nvswitch: &'static str,
    pub topo_pcie: &'static str,
    pub pcie_switch: &'static str,
    /// `{bw}`, `{name}`
    pub nvlink_rate: &'static str,
    /// `{bw}`, `{name}`
    pub pcie_rate: &'static str,
    pub far_path: &'static str,

    // MIG (chapter 8).
    /// `{gpu}`, `{layout}`
    pub mig_title: &'static str,
    pub mig_caption: &'static str,
    /// `{n}`
    pub compute_slices: &'static str,
    /// `{n}`, `{size}`
    pub memory_slices: &'static str,
    pub unused: &'static str,

    // Decision path (chapter 11).
    pub dec_title: &'static str,
    pub dec_caption: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    /// One question per bottleneck, in the order asked.
    pub questions: [&'static str; 6],
    /// The bottleneck a "yes" to the question at the same index points to.
    pub bottlenecks: [&'static str; 6],
    pub otherwise: &'static str,
}

pub const ZH: FigureStrings = FigureStrings {
    mem_title: "{gpu} 的存储层级",
    mem_caption: "越靠近计算单元的存储越快、越小。寄存器和共享内存在每个 SM 内部，这里给出全芯片合计；L2 由整颗芯片共享；显存带宽就是规格表上的数字。共享内存带宽是估算值：SM 数 × 每时钟 128 字节 × 加速频率；寄存器和 L2 的带宽厂商没有公布。",
    mem_gpu: "GPU",
    mem_gpu_note: "只列出白皮书给出了片上容量的 GPU。",
    registers: "寄存器",
    shared_l1: "共享内存 / L1",
    l2: "L2 缓存",
    dram: "{type} 显存（全局内存）",
    per_sm_total: "共 {total}（每个 SM {per_sm} × {sms}）",
    not_published: "带宽未公布",
    approx_bw: "≈ {bw}（估算值，非官方）",
    peak_bw: "峰值带宽 {bw}",
    faster: "↑ 更快、更小",
    larger: "↓ 更大、更慢",

    thr_title: "网格中的线程块分配到各个 SM，一个线程块再分成线程束",
    thr_caption: "一次启动产生一个由线程块组成的网格。每个线程块整个放在一个 SM 上（颜色表示去了哪个 SM），块内线程每 32 个组成一个线程束，同一条指令同时发给这 32 个线程。为了看得清，图中只画了 4 个 SM，真实的 GPU 有几十到一百多个。",
    grid: "网格：{n} 个线程块，每块 {t} 个线程",
    block: "块",
    sm: "SM",
    warp: "线程束",
    block_detail: "块 0：{t} 个线程 = {w} 个线程束 × 每束 {s} 个线程",

    roof_title: "{gpu} 上的四个算子（{dtype}）",
    roof_caption: "横轴是算术强度，纵轴是该强度下能达到的算力上限。拐点左侧受显存带宽限制，右侧受算力限制。各点的强度由引擎按本章的假设算出：每个操作数只读一次、结果只写一次。",
    k_add: "逐元素相加",
    k_gemm: "4096³ 矩阵乘",
    k_decode: "解码（batch 1）",
    k_prefill: "预填充（2048 个 token）",

    ring_title: "{n} 张 GPU 上的环形 all-reduce",
    ring_caption: "每张 GPU 把数据分成 N 块。前 N − 1 步是规约散射：每步把一块发给右邻并累加；之后每张 GPU 各有一块完整的和。后 N − 1 步是全收集：把完成的块传一圈。每张 GPU 共发送 2(N − 1) 块，每块 S/N 字节。",
    ring_start: "开始：每张 GPU 持有自己的 {n} 个分块，每块只含自己的值。",
    ring_rs: "第 {s}/{t} 步 · 规约散射：每张 GPU 把一个分块发给右邻，右邻把它加到自己的同一块上。",
    ring_ag: "第 {s}/{t} 步 · 全收集：每张 GPU 把一个已完成的分块转发给右邻，右邻直接复制。",
    ring_done: "完成：每张 GPU 都持有全部 {n} 张卡的和。",
    ring_legend: "格中 a/b：这一块已累加了 b 张 GPU 中 a 张的值；颜色越深，累加得越多。",
    prev: "← 上一步",
    next: "下一步 →",

    topo_title: "八张 GPU：经 NVSwitch 互连与经 PCIe 互连",
    topo_caption: "上：每张 GPU 都有自己通往 NVSwitch 的 NVLink 通道，可同时用满自身速率；同时发往多张卡时由它们分摊。下：GPU 两两挂在 PCIe 交换芯片下，远端的两张卡之间要经过交换芯片和 CPU，每一跳都与别的 GPU 共享。",
    topo_nvswitch: "HGX H100：NVSwitch 把八张 GPU 全互连",
    topo_pcie: "PCIe 服务器：GPU 经交换芯片和 CPU 相连",
    pcie_switch: "PCIe 交换芯片",
    nvlink_rate: "每张 GPU 每方向 {bw}（{name}）",
    pcie_rate: "每条链路每方向 {bw}（{name}）",
    far_path: "GPU 1 → GPU 8：经过两个 PCIe 交换芯片、两颗 CPU 和它们之间的链路，每一跳都与其他 GPU 共享带宽。",

    mig_title: "{gpu} 上的一种合法 MIG 布局：{layout}",
    mig_caption: "MIG 把 GPU 切成 7 个计算切片和 8 个显存切片。每个实例按配置文件占用若干计算切片和显存切片，各自独立，互不干扰。这里的布局用满了所有切片。",
    compute_slices: "计算切片（共 {n} 个）",
    memory_slices: "显存切片（共 {n} 个，每个约 {size}）",
    unused: "部分切片未被使用",

    dec_title: "是哪一种瓶颈？按这个顺序逐个排查",
    dec_caption: "从最容易确认的问题开始，回答“是”就找到了瓶颈，回答“否”就往下问。六个问题对应本章的六种瓶颈。",
    yes: "是",
    no: "否",
    questions: [
        "作业报显存不足，或负载一高就驱逐、抢占请求？",
        "模型本身很快，但端到端延迟很慢？",
        "GPU 利用率周期性掉到零，在等下一批数据？",
        "从一张卡扩到多张，吞吐增长远不到线性，NCCL 调用很长？",
        "时间线上全是短小的 kernel 和空隙，Tensor Core 活动很低？",
        "逐元素和注意力 kernel 占主要时间，实测带宽接近峰值？",
    ],
    bottlenecks: ["显存容量", "服务链路", "数据输入", "GPU 间通信", "算力闲置", "显存带宽"],
    otherwise: "都不是：GPU 正忙于有用的计算，算力才是上限。",
};

pub const EN: FigureStrings = FigureStrings {
    mem_title: "Memory hierarchy of the {gpu}",
    mem_caption: "The closer to the cores, the faster and the smaller. Registers and shared memory sit inside each SM and are shown as whole-chip totals; L2 is shared by the whole chip; the DRAM bandwidth is the data-sheet figure. The shared-memory bandwidth is an estimate (SMs × 128 bytes per clock × boost clock); the vendor publishes none for registers and L2.",
    mem_gpu: "GPU",
    mem_gpu_note: "Only GPUs whose whitepaper gives the on-chip sizes are offered.",
    registers: "Registers",
    shared_l1: "Shared memory / L1",
    l2: "L2 cache",
    dram: "{type} (global memory)",
    per_sm_total: "{total} in all ({per_sm} per SM × {sms})",
    not_published: "bandwidth not published",
    approx_bw: "≈ {bw} (estimate, not official)",
    peak_bw: "{bw} peak bandwidth",
    faster: "↑ faster, smaller",
    larger: "↓ larger, slower",

    thr_title: "A grid of blocks scheduled onto SMs, and one block split into warps",
    thr_caption: "A launch creates a grid of blocks. Each block runs whole on one SM (its colour shows which), and its threads run in warps of 32 that issue one instruction for all 32 threads at once. Only four SMs are drawn; real GPUs have dozens to over a hundred.",
    grid: "Grid: {n} blocks of {t} threads",
    block: "Block",
    sm: "SM",
    warp: "Warp",
    block_detail: "Block 0: {t} threads = {w} warps × {s} threads",

    roof_title: "Four kernels on the {gpu} ({dtype})",
    roof_caption: "Across: arithmetic intensity; up: the FLOP/s the roof allows at that intensity. Left of the ridge the memory bandwidth limits, right of it the compute. The engine computes each kernel's intensity with the chapter's assumption: every operand read once, every result written once.",
    k_add: "element-wise add",
    k_gemm: "4096³ GEMM",
    k_decode: "decode, batch 1",
    k_prefill: "prefill, 2048 tokens",

    ring_title: "Ring all-reduce over {n} GPUs",
    ring_caption: "Each GPU splits its data into N chunks. The first N − 1 steps are a reduce-scatter: each sends one chunk to its right neighbour, which adds it; then every GPU owns one fully summed chunk. The last N − 1 steps are an all-gather that passes the finished chunks round the ring. Each GPU sends 2(N − 1) chunks of S/N bytes.",
    ring_start: "Start: each GPU holds its own {n} chunks, each with only its own values.",
    ring_rs: "Step {s} of {t} · reduce-scatter: each GPU sends one chunk to its right neighbour, which adds it to its own copy of that chunk.",
    ring_ag: "Step {s} of {t} · all-gather: each GPU forwards a finished chunk to its right neighbour, which copies it.",
    ring_done: "Done: every GPU holds the sum over all {n} GPUs.",
    ring_legend: "a/b in a cell: that chunk holds the sum of a of the b GPUs' values; darker is more.",
    prev: "← Previous step",
    next: "Next step →",

    topo_title: "Eight GPUs through NVSwitch and through PCIe",
    topo_caption: "Above: each GPU has its own NVLink path into the NVSwitch fabric and can use its full rate at once; traffic to several peers shares that rate. Below: GPUs hang in pairs under PCIe switches; far pairs cross switches and both CPUs, and share every hop with other GPUs.",
    topo_nvswitch: "HGX H100: NVSwitch connects all eight GPUs",
    topo_pcie: "PCIe server: GPUs meet through switches and CPUs",
    pcie_switch: "PCIe switch",
    nvlink_rate: "{bw} per GPU, each direction ({name})",
    pcie_rate: "{bw} per link, each direction ({name})",
    far_path: "GPU 1 → GPU 8 crosses two PCIe switches, both CPUs and the link between them, and shares every hop with other GPUs.",

    mig_title: "A valid MIG layout on the {gpu}: {layout}",
    mig_caption: "MIG cuts the GPU into 7 compute slices and 8 memory slices. Each instance takes the slices of its profile, isolated from the others. This layout uses every slice.",
    compute_slices: "Compute slices ({n})",
    memory_slices: "Memory slices ({n}, about {size} each)",
    unused: "Some slices are unused",

    dec_title: "Which bottleneck? Ask in this order",
    dec_caption: "Start with the question that is easiest to confirm: a yes names the bottleneck, a no leads to the next question. The six questions are the chapter's six bottlenecks.",
    yes: "yes",
    no: "no",
    questions: [
        "Out-of-memory errors, or evictions and preemptions as load rises?",
        "Is the model itself fast but the endpoint slow?",
        "Does GPU activity drop in regular gaps, waiting for the next batch?",
        "Does throughput grow far less than the GPU count, with long NCCL calls?",
        "A timeline of short kernels and gaps, with low Tensor Core activity?",
        "Do element-wise and attention kernels dominate, with achieved bandwidth near peak?",
    ],
    bottlenecks: ["Memory capacity", "Serving path", "Data input", "Communication", "Idle compute", "Memory bandwidth"],
    otherwise: "None of these: the GPU is busy with useful arithmetic, and compute is the limit.",
};

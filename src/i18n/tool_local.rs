//! "What runs on my machine" in both languages.

use super::Lang;

#[derive(Debug)]
pub struct LocalStrings {
    pub device: &'static str,
    pub custom: &'static str,
    pub vram: &'static str,
    pub bandwidth: &'static str,
    pub unified_memory: &'static str,
    pub ram: &'static str,
    pub context: &'static str,
    pub tokens: &'static str,
    pub kv: &'static str,
    /// A cell the engine refused (the scenario is invalid for this model).
    pub refused: &'static str,
    pub tok_s: &'static str,
    pub fits: &'static str,
    pub too_big: &'static str,
    /// A cell's title: `{size}` the file, `{gpu}` on the GPU of `{usable}`, `{host}` in host
    /// memory, `{bound}` the roofline bound on the decode speed (a rate: at most).
    pub cell_title: &'static str,
    pub model: &'static str,
    pub best: &'static str,
    pub none_whole: &'static str,
    pub method: &'static str,
    pub repaired: &'static str,
    pub open_full: &'static str,
    /// The operating system of a PC, and its options (Windows, Linux).
    pub os: &'static str,
    pub os_options: [&'static str; 2],
    /// The memory kept for the operating system and other programs.
    pub keep: &'static str,
    /// The rules, with their sources: a Mac (`{keep}` of `{memory}` GB), Windows, Linux.
    pub keep_mac: &'static str,
    pub keep_windows: &'static str,
    pub keep_linux: &'static str,
    /// After the rule when the reader set the memory kept (`{keep}` GB).
    pub keep_set: &'static str,
}

pub const ZH: LocalStrings = LocalStrings {
    device: "设备",
    custom: "自定义（显存与带宽，例如 WebGPU 实验室测得的带宽）",
    vram: "显存",
    bandwidth: "显存带宽",
    unified_memory: "统一内存容量",
    ram: "系统内存",
    context: "上下文",
    tokens: "token",
    kv: "KV cache 格式",
    refused: "不适用",
    tok_s: "token/s",
    fits: "整模型放进 GPU",
    too_big: "放不下",
    cell_title: "文件 {size}；GPU 上 {gpu}（可用 {usable}）；主机内存 {host}；速度上限 {bound}。点击在估算器中查看算式。",
    model: "模型",
    best: "整模型放得下的最高精度",
    none_whole: "无",
    method: "每格都是估算器对该场景的结果，只是每个标称内存容量都改按二进制容量计（标称 24 GB 的卡按 24 GiB 计；RTX 4090 报告 24,564 MiB，略少于此）；估算器页面本身把 24 GB 计为 24×10⁹ 字节（见第 2 章开头的单位说明）。该文件类型的每个张量大小按 llama-quantize 的规则计算。整模型放不下时：MoE 模型把所有层放在 GPU 上，把前几层的专家留在系统内存（--n-cpu-moe），与 llama.cpp 的 --fit 的放法相同；其他模型取 GPU 上能放下的最多层数（-ngl n：输出层最先放，再放最后 n − 1 层），前面的层留在系统内存，生成时由 CPU 计算；若系统内存也放不下则为“放不下”。新版 llama.cpp 会自己选这些参数（--fit，默认开启）。速度是批大小 1 时的预期解码速度：GPU 部分按显存带宽，主机部分按内存带宽（默认双通道 DDR5-5600，峰值 89.6 GB/s）。GPU 留出 1 GiB 空闲（llama.cpp --fit 的余量），另有 1 GiB 运行时开销；Apple 芯片至少可用 macOS 允许 GPU 使用的比例（36 GB 及以下 2/3，以上 3/4；新版 macOS 在大内存机器上允许更多，sudo sysctl iogpu.wired_limit_mb 可调高）；Linux 下的 Ryzen AI Max 为一半（GTT 默认值）。",
    repaired: "网址中这些值无法使用，已恢复默认：",
    open_full: "在单独页面打开",
    os: "操作系统",
    os_options: ["Windows 11", "Linux 桌面版"],
    keep: "留给系统和其他程序的内存",
    keep_mac: "macOS：GPU 工作集（Metal 的 recommendedMaxWorkingSetSize，36 GB 及以下为内存的 2/3，以上为 3/4，llama.cpp 的日志里能看到）之外的内存留给系统，这里是 {memory} GB 中的 {keep} GB；模型放在 GPU 上和放在内存里的部分加起来，只能用剩下的。",
    keep_windows: "Windows 11 需要 4 GB 内存（微软《Windows 11 规格和系统要求》）：留在 GPU 之外的部分只能用剩下的内存。",
    keep_linux: "Linux 桌面版：Ubuntu 26.04 LTS 桌面版的系统要求是 6 GB 内存：留在 GPU 之外的部分只能用剩下的内存。",
    keep_set: "你改成了 {keep} GB，按你的数字算。",
};

pub const EN: LocalStrings = LocalStrings {
    device: "Device",
    custom: "Custom (memory and bandwidth, e.g. what the WebGPU lab measured)",
    vram: "GPU memory",
    bandwidth: "Memory bandwidth",
    unified_memory: "Unified memory",
    ram: "System memory",
    context: "Context",
    tokens: "tokens",
    kv: "KV cache format",
    refused: "n/a",
    tok_s: "tokens/s",
    fits: "whole on the GPU",
    too_big: "does not fit",
    cell_title: "File {size}; {gpu} on the GPU (of {usable} usable); {host} in host memory; at most {bound}. Click for the math in the estimator.",
    model: "Model",
    best: "Most bits that fit whole",
    none_whole: "none",
    method: "Every cell is the estimator's answer for that scenario, with each memory size as sold set to its binary size (24 GiB for a card sold as 24 GB; an RTX 4090 reports 24,564 MiB, a little less); the estimator page itself counts 24 GB as 24×10⁹ bytes (see the units at the start of chapter 2). The file type's tensors are sized by llama-quantize's rules. When the whole model does not fit: an MoE model keeps every layer on the GPU and the experts of its first layers in system memory (--n-cpu-moe), as llama.cpp's --fit places them; other models get the most layers the GPU holds (-ngl n: the output layer first, then the last n − 1 layers), the first layers staying in system memory, where the CPU computes them while generating; \"does not fit\" when system memory cannot hold the rest either. Recent llama.cpp chooses these itself (--fit, on by default). The rate is the expected decode at batch 1: the GPU's part at its memory bandwidth, the host's at the host's (dual-channel DDR5-5600, 89.6 GB/s peak, by default). The GPU keeps 1 GiB free (llama.cpp's --fit margin) beside 1 GiB of runtime overhead; on Apple silicon, at least the share macOS lets the GPU use (2/3 up to 36 GB, 3/4 above; newer macOS allows more on large machines, and sudo sysctl iogpu.wired_limit_mb raises it); on Ryzen AI Max under Linux, half (the GTT default).",
    repaired: "These values in the address could not be used and were reset:",
    open_full: "Open on its own page",
    os: "Operating system",
    os_options: ["Windows 11", "Linux desktop"],
    keep: "Kept for the OS and other programs",
    keep_mac: "macOS: the memory outside the GPU's working set (Metal's recommendedMaxWorkingSetSize: 2/3 of the memory up to 36 GB, 3/4 above, as llama.cpp logs it) is left to the system, here {keep} GB of {memory} GB; the model, on the GPU and in memory together, gets the rest.",
    keep_windows: "Windows 11 needs 4 GB of memory (Microsoft, Windows 11 specifications and system requirements): what stays off the GPU gets the rest.",
    keep_linux: "A Linux desktop: Ubuntu 26.04 LTS Desktop's system requirements ask for 6 GB of memory: what stays off the GPU gets the rest.",
    keep_set: " You set {keep} GB: the table uses your figure.",
};

impl Lang {
    /// The local tool's strings.
    pub fn local(self) -> &'static LocalStrings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }
}

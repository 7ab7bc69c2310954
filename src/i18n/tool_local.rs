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
    /// memory, `{bound}` the roofline bound.
    pub cell_title: &'static str,
    pub model: &'static str,
    pub best: &'static str,
    pub none_whole: &'static str,
    pub method: &'static str,
    pub repaired: &'static str,
    pub open_full: &'static str,
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
    kv: "KV 缓存格式",
    refused: "不适用",
    tok_s: "token/s",
    fits: "整模型放进 GPU",
    too_big: "放不下",
    cell_title: "文件 {size}；GPU 上 {gpu}（可用 {usable}）；主机内存 {host}；上界 {bound}。点击在估算器中查看算式。",
    model: "模型",
    best: "整模型放得下的最高精度",
    none_whole: "无",
    method: "每格都是估算器对该场景的结果：按 llama-quantize 的规则算出该文件类型的每个张量大小；整模型放不下时，取 GPU 上能放下的最多层数（-ngl，输出层算一层），其余层留在系统内存由 CPU 计算；若系统内存也放不下则为“放不下”。速度是批大小 1 时的预期解码速度：GPU 部分按显存带宽，主机部分按内存带宽（双通道 DDR5 默认 89.6 GB/s）。GPU 可用量扣除 10% 余量和 1 GiB 运行时开销；Apple 芯片按 macOS 允许 GPU 使用的比例（36 GB 及以下 2/3，以上 3/4）。",
    repaired: "网址中这些值无法使用，已恢复默认：",
    open_full: "在单独页面打开",
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
    cell_title: "File {size}; {gpu} on the GPU (of {usable} usable); {host} in host memory; bound {bound}. Click for the math in the estimator.",
    model: "Model",
    best: "Most bits that fit whole",
    none_whole: "none",
    method: "Every cell is the estimator's answer for that scenario: the file type's tensors sized by llama-quantize's rules; when the whole model does not fit, the most layers the GPU holds (-ngl, the output layer counted as one), the rest in system memory computed by the CPU; \"does not fit\" when system memory cannot hold the rest either. The rate is the expected decode at batch 1: the GPU's part at its memory bandwidth, the host's at the host's (dual-channel DDR5, 89.6 GB/s, by default). The GPU's usable memory leaves a 10% margin and 1 GiB of runtime overhead; on Apple silicon, the share macOS lets the GPU use (2/3 up to 36 GB, 3/4 above).",
    repaired: "These values in the address could not be used and were reset:",
    open_full: "Open on its own page",
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

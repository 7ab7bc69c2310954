//! Strings of the MIG planner (`#/{lang}/tools/mig` and its chapter widget), both languages, and
//! the wording of its refusals and repair notices (exhaustive matches).

use super::Lang;
use crate::engine::precision::Dtype;
use crate::tools::mig::state::{Field, Notice, Part, Problem};
use crate::tools::mig::{Reason, Refusal};

#[derive(Debug)]
pub struct MigStrings {
    pub gpu: &'static str,
    pub hand_heading: &'static str,
    pub hand_intro: &'static str,
    pub compute_slices: &'static str,
    pub memory_slices: &'static str,
    pub unused: &'static str,
    pub profile: &'static str,
    pub start: &'static str,
    pub place: &'static str,
    pub remove: &'static str,
    pub clear: &'static str,
    /// Before the list of free starts of the chosen profile.
    pub free_starts: &'static str,
    pub no_free_start: &'static str,
    pub no_instances: &'static str,
    pub instance: &'static str,
    pub memory: &'static str,
    pub sms: &'static str,
    pub bandwidth: &'static str,
    pub l2: &'static str,
    /// `(before, after)` the fraction of compute slices when the catalog has no SM count.
    pub of_compute: (&'static str, &'static str),
    pub share_note: &'static str,
    pub refused: &'static str,
    pub pack_heading: &'static str,
    pub pack_intro: &'static str,
    pub model: &'static str,
    pub weights: &'static str,
    pub kv: &'static str,
    pub context: &'static str,
    pub concurrency: &'static str,
    pub add_workload: &'static str,
    pub remove_workload: &'static str,
    pub empty_list: &'static str,
    /// `(before the count, between count and GPU name, after)`.
    pub summary: (&'static str, &'static str, &'static str),
    /// `(with MIG, used whole)` after their counts.
    pub summary_split: (&'static str, &'static str),
    pub gpu_n: &'static str,
    pub workload_n: &'static str,
    pub needs: &'static str,
    pub placed_on: &'static str,
    pub decode: &'static str,
    pub tokens_per_s: &'static str,
    pub whole_gpu: &'static str,
    /// `(before, after)` the number of whole GPUs a too-large workload needs.
    pub whole_gpus: (&'static str, &'static str),
    pub cannot_size: &'static str,
    /// The memory sum's parts: weights, KV cache, activations, runtime, usable.
    pub math: [&'static str; 5],
    pub margin_note: &'static str,
    pub compare_heading: &'static str,
    /// Column heads: the aspect, MIG, MPS, time slicing.
    pub compare_head: [&'static str; 4],
    /// Rows: aspect, then MIG, MPS, time slicing.
    pub compare_rows: [[&'static str; 4]; 6],
    pub open_full: &'static str,
    pub widget_note: &'static str,
    pub repaired: &'static str,
}

pub const ZH: MigStrings = MigStrings {
    gpu: "GPU",
    hand_heading: "手动摆放实例",
    hand_intro: "按 MIG 用户指南的放置规则：一个实例只能从它的尺寸对齐的显存切片开始，旁边要有足够的计算切片，两个实例不能共用显存切片。规则不允许的位置会被拒绝，并说明原因。",
    compute_slices: "计算切片",
    memory_slices: "显存切片",
    unused: "空闲切片",
    profile: "配置",
    start: "起始显存切片",
    place: "放置",
    remove: "移除",
    clear: "全部移除",
    free_starts: "当前还能放的起始位置：",
    no_free_start: "没有：已放的实例挡住了它所有允许的位置",
    no_instances: "还没有实例：选一个配置和起始位置，然后放置。",
    instance: "实例",
    memory: "显存",
    sms: "SM",
    bandwidth: "显存带宽（约）",
    l2: "L2 缓存（约）",
    of_compute: ("计算切片的 ", ""),
    share_note: "带宽和 L2 按实例占显存切片的比例从整卡数值折算：每个显存切片带着自己的显存控制器和 L2（NVIDIA MIG 用户指南）。指南没有公布每个实例的带宽，所以这两列是近似值。目录里没有 SM 数的配置显示计算切片的比例。",
    refused: "不能放置",
    pack_heading: "把工作负载装进最少的 GPU",
    pack_intro: "每个工作负载由估算引擎算出显存（权重 + KV cache + 激活 + 运行时开销），放进可用显存装得下的最小配置；大的先放，每张 GPU 都按放置规则精确检查。每个实例上的解码速度由引擎在按切片比例缩小的 GPU 上算出。",
    model: "模型",
    weights: "权重精度",
    kv: "KV cache 精度",
    context: "上下文（token）",
    concurrency: "并发请求",
    add_workload: "添加工作负载",
    remove_workload: "删除",
    empty_list: "列表是空的：添加一个工作负载才能规划。",
    summary: ("需要 ", " 张 ", ""),
    summary_split: (" 张开启 MIG，", " 张整卡使用"),
    gpu_n: "GPU ",
    workload_n: "负载 ",
    needs: "所需显存",
    placed_on: "放在",
    decode: "解码速度（引擎）",
    tokens_per_s: " token/s（合计）",
    whole_gpu: "需要整张 GPU（最大的配置）",
    whole_gpus: ("需要 ", " 张整卡：超过一张 GPU，不适合 MIG（要用张量并行和 NVLink），请在估算器里规划"),
    cannot_size: "引擎无法计算：",
    math: ["权重", "KV cache", "激活", "运行时", "可用显存"],
    margin_note: "可用显存 = 配置显存 × (1 − 10% 安全余量)，与估算器相同。",
    compare_heading: "MIG、MPS 还是时间片？",
    compare_head: ["比较项", "MIG", "MPS", "时间片"],
    compare_rows: [
        ["机制", "硬件分区：每个实例有自己的 SM、显存、L2 和显存控制器", "多个 CUDA 进程同时共享整卡的执行资源", "调度器让任务轮流使用整张 GPU"],
        ["显存保护", "有：每个实例的显存固定、互相隔离", "每个客户端有独立地址空间，可设上限，但不保证容量", "地址空间分开，但没有容量上限：一个任务可以占满显存"],
        ["故障隔离", "有：一个实例出错不影响其他实例", "弱：一个客户端的致命错误可能波及所有客户端", "弱：任务共用同一张卡"],
        ["带宽、缓存与公平性", "有保证：带宽和 L2 按切片划分，邻居抢不走", "不保证：互相争用带宽和缓存", "不保证：按时间轮流，重负载会拖慢别人"],
        ["粒度", "固定的配置，最多 7 个实例", "灵活", "灵活"],
        ["适合", "需要隔离和可预期资源的租户：中小模型推理、开发测试、多租户平台", "互相信任、想提高利用率的进程（或者直接用连续批处理的推理引擎占整卡）", "轻量、突发、可信的任务，如笔记本和小实验"],
    ],
    open_full: "在完整工具中打开",
    widget_note: "这里的修改不会写进网址；完整工具会保存状态，方便分享。",
    repaired: "链接里有些内容无效，已修正：",
};

pub const EN: MigStrings = MigStrings {
    gpu: "GPU",
    hand_heading: "Place instances by hand",
    hand_intro: "By the MIG User Guide's placement rules: an instance starts at a memory slice aligned to its size, needs enough compute slices beside it, and no two instances share a memory slice. A placement the rules do not allow is refused with the reason.",
    compute_slices: "Compute slices",
    memory_slices: "Memory slices",
    unused: "unused slices",
    profile: "Profile",
    start: "Start (memory slice)",
    place: "Place",
    remove: "Remove",
    clear: "Remove all",
    free_starts: "Free starts now: ",
    no_free_start: "none: the placed instances block every start it may take",
    no_instances: "No instances yet: choose a profile and a start, then place it.",
    instance: "Instance",
    memory: "Memory",
    sms: "SMs",
    bandwidth: "Memory bandwidth (approx.)",
    l2: "L2 cache (approx.)",
    of_compute: ("", " of the compute slices"),
    share_note: "Bandwidth and L2 are the whole GPU's figures times the instance's share of memory slices: each memory slice brings its own memory controllers and L2 (NVIDIA MIG User Guide). The guide publishes no per-instance bandwidth, so these two columns are approximations. Where the catalog has no SM count for a profile, its share of compute slices is shown.",
    refused: "Refused",
    pack_heading: "Pack workloads onto the fewest GPUs",
    pack_intro: "The estimator's engine sizes each workload (weights + KV cache + activations + runtime overhead); each goes into the smallest profile whose usable memory holds it, the largest first, and every GPU's layout is checked exactly against the placement rules. The decode speed on each instance is the engine's, on a GPU scaled down to the instance's slices.",
    model: "Model",
    weights: "Weights",
    kv: "KV cache",
    context: "Context (tokens)",
    concurrency: "Concurrent requests",
    add_workload: "Add workload",
    remove_workload: "Remove",
    empty_list: "The list is empty: add a workload to plan.",
    summary: ("Needs ", " × ", ""),
    summary_split: (" with MIG, ", " used whole"),
    gpu_n: "GPU ",
    workload_n: "Workload ",
    needs: "Memory needed",
    placed_on: "Placed on",
    decode: "Decode speed (engine)",
    tokens_per_s: " tokens/s in total",
    whole_gpu: "needs the whole GPU (the largest profile)",
    whole_gpus: ("needs ", " whole GPUs: more than one GPU is no case for MIG (tensor parallelism over NVLink); plan it in the estimator"),
    cannot_size: "The engine cannot size it: ",
    math: ["weights", "KV cache", "activations", "runtime", "usable"],
    margin_note: "Usable memory = the profile's memory × (1 − 10 % safety margin), as in the estimator.",
    compare_heading: "MIG, MPS or time slicing?",
    compare_head: ["Aspect", "MIG", "MPS", "Time slicing"],
    compare_rows: [
        ["Mechanism", "Hardware partitions: each instance has its own SMs, memory, L2 and memory controllers", "Several CUDA processes share the whole GPU's execution resources at once", "The scheduler lets jobs take turns on the whole GPU"],
        ["Memory protection", "Yes: each instance's memory is fixed and isolated", "Separate address spaces per client and optional per-client limits, but no guaranteed capacity", "Address spaces separated, but no capacity limit: one job can take all the memory"],
        ["Fault isolation", "Yes: a fault in one instance leaves the others running", "Weak: a fatal fault in one client can affect all clients", "Weak: the jobs share one card"],
        ["Bandwidth, cache, fairness", "Guaranteed: bandwidth and L2 are split by slices; a neighbour cannot take them", "Not guaranteed: clients compete for bandwidth and cache", "Not guaranteed: turns in time; a heavy job slows the others"],
        ["Granularity", "Fixed profiles, at most 7 instances", "Flexible", "Flexible"],
        ["Fits", "Tenants that need isolation and predictable resources: small and medium model inference, development and testing, multi-tenant platforms", "Cooperating processes that want more utilisation (or a serving engine with continuous batching on a whole GPU)", "Light, bursty, trusted work such as notebooks and small experiments"],
    ],
    open_full: "Open in the full tool",
    widget_note: "Changes here are not written to the address; the full tool keeps its state for sharing.",
    repaired: "Parts of the link were not valid and were repaired:",
};

impl Lang {
    /// The MIG planner's strings.
    pub fn mig(self) -> &'static MigStrings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }
}

fn list(v: &[u8]) -> String {
    v.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
}

/// Why a placement was refused, in `lang`.
pub fn refusal(r: &Refusal, lang: Lang) -> String {
    let (p, s) = (&r.profile, r.start);
    match (&r.reason, lang) {
        (Reason::NotAllowed { allowed }, Lang::En) => {
            format!("{p} may not start at memory slice {s}: the guide allows only {}", list(allowed))
        }
        (Reason::NotAllowed { allowed }, Lang::Zh) => {
            format!("{p} 不能从显存切片 {s} 开始：指南只允许 {}", list(allowed))
        }
        (Reason::Overlap { other, other_start, slice }, Lang::En) => {
            format!("{p} at {s} would share memory slice {slice} with the {other} at {other_start}")
        }
        (Reason::Overlap { other, other_start, slice }, Lang::Zh) => {
            format!("{p} 放在 {s} 会与位于 {other_start} 的 {other} 共用显存切片 {slice}")
        }
        (Reason::TooMany { max }, Lang::En) => format!("at most {max} × {p} fit on one GPU"),
        (Reason::TooMany { max }, Lang::Zh) => format!("一张 GPU 最多放 {max} 个 {p}"),
        (Reason::SecondMedia { other }, Lang::En) => {
            format!("{p}: only one instance per GPU may have the media engines, and {other} has them")
        }
        (Reason::SecondMedia { other }, Lang::Zh) => {
            format!("{p}：每张 GPU 只能有一个带媒体引擎的实例，{other} 已经占用")
        }
        (Reason::Unknown, Lang::En) => format!("{p}: no such profile on this GPU"),
        (Reason::Unknown, Lang::Zh) => format!("{p}：这张 GPU 没有这个配置"),
    }
}

fn part(p: Part, lang: Lang) -> &'static str {
    let s = lang.mig();
    match p {
        Part::Model => s.model,
        Part::Weights => s.weights,
        Part::Kv => s.kv,
        Part::Context => s.context,
        Part::Concurrency => s.concurrency,
    }
}

/// The field a notice is about, in `lang` (numbers 1-based).
pub fn field(f: Field, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match f {
        Field::Preset => (if zh { "示例" } else { "Example" }).into(),
        Field::Gpu => "GPU".into(),
        Field::Place(n) => {
            if zh {
                format!("第 {} 个放置", n + 1)
            } else {
                format!("Placement {}", n + 1)
            }
        }
        Field::Workload(n, p) => {
            if zh {
                format!("负载 {} 的{}", n + 1, part(p, lang))
            } else {
                format!("Workload {}, {}", n + 1, part(p, lang))
            }
        }
        Field::Workloads => (if zh { "工作负载列表" } else { "Workload list" }).into(),
    }
}

fn dtype(d: Dtype) -> String {
    d.name().to_ascii_uppercase()
}

/// What was wrong and what was done, in `lang`.
pub fn problem(p: &Problem, lang: Lang) -> String {
    let en = lang == Lang::En;
    match p {
        Problem::UnknownPreset { got } if en => format!("no example named “{got}”; ignored"),
        Problem::UnknownPreset { got } => format!("没有名为“{got}”的示例，已忽略"),
        Problem::UnknownGpu { got } if en => {
            format!(
                "“{got}” is not a GPU with MIG profiles in the catalog; {} used",
                crate::tools::mig::state::DEFAULT_GPU
            )
        }
        Problem::UnknownGpu { got } => {
            format!("“{got}”不是目录里支持 MIG 的 GPU，改用 {}", crate::tools::mig::state::DEFAULT_GPU)
        }
        Problem::BadPlacement { got } if en => format!("“{got}” is not PROFILE@START; dropped"),
        Problem::BadPlacement { got } => format!("“{got}”不是“配置@起始位置”的形式，已去掉"),
        Problem::UnknownProfile { got } if en => format!("this GPU has no profile “{got}”; dropped"),
        Problem::UnknownProfile { got } => format!("这张 GPU 没有“{got}”配置，已去掉"),
        Problem::Refused(r) if en => format!("{}; dropped", refusal(r, lang)),
        Problem::Refused(r) => format!("{}，已去掉", refusal(r, lang)),
        Problem::UnknownModel { got } if en => format!("“{got}” is not a catalog model; the default used"),
        Problem::UnknownModel { got } => format!("“{got}”不是目录里的模型，改用默认模型"),
        Problem::BadDtype { got, used } if en => {
            format!("“{got}” is not one of the offered precisions; {} used", dtype(*used))
        }
        Problem::BadDtype { got, used } => format!("“{got}”不是可选的精度，改用 {}", dtype(*used)),
        Problem::OutOfRange { got, min, max, used } if en => {
            format!("must be a whole number from {min} to {max}, got “{got}”; {used} used")
        }
        Problem::OutOfRange { got, min, max, used } => {
            format!("应为 {min} 到 {max} 之间的整数，实际为“{got}”，改用 {used}")
        }
        Problem::EmptyList if en => "the list is empty: nothing to pack".into(),
        Problem::EmptyList => "列表是空的，没有可规划的负载".into(),
        Problem::TooManyWorkloads { max } if en => format!("at most {max} workloads; the rest dropped"),
        Problem::TooManyWorkloads { max } => format!("最多 {max} 个工作负载，其余已去掉"),
    }
}

/// A notice as one line: `field: problem`.
pub fn notice(n: &Notice, lang: Lang) -> String {
    let sep = if lang == Lang::Zh { "：" } else { ": " };
    format!("{}{sep}{}", field(n.field, lang), problem(&n.problem, lang))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::mig::state::decode;

    #[test]
    fn every_notice_is_worded_in_both_languages() {
        let q = "preset=x&gpu=l4&place=a,9g@0,3g.40gb@0,2g.20gb@2,4g.40gb@4,1g.10gb%2Bme@0,1g.10gb+me@1&w=a:b:c:-1:0,x:y:z";
        let (_, notices) = decode(q);
        assert!(notices.len() >= 12, "{notices:?}");
        for n in &notices {
            let (zh, en) = (notice(n, Lang::Zh), notice(n, Lang::En));
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{zh}");
            assert!(en.is_ascii() || en.contains('“') || en.contains('×'), "{en}");
            assert_ne!(zh, en);
        }
    }
}

//! Strings shared by the decision tools (`#/{lang}/tools/…`): the index, the header link and
//! each tool's name and one-line purpose. Each tool's own strings live beside its view.

use super::Lang;
use crate::route::Tool;

#[derive(Debug)]
pub struct ToolsStrings {
    /// The header link and the index's title.
    pub nav: &'static str,
    pub index_title: &'static str,
    pub index_intro: &'static str,
    /// The chapter a tool belongs to, before its link.
    pub from_chapter: &'static str,
    mig: (&'static str, &'static str),
    cloud: (&'static str, &'static str),
    diagnose: (&'static str, &'static str),
    cluster: (&'static str, &'static str),
    local: (&'static str, &'static str),
}

impl ToolsStrings {
    /// The tool's name.
    pub fn name(&self, tool: Tool) -> &'static str {
        self.entry(tool).0
    }

    /// What the tool answers, in one sentence.
    pub fn blurb(&self, tool: Tool) -> &'static str {
        self.entry(tool).1
    }

    fn entry(&self, tool: Tool) -> (&'static str, &'static str) {
        match tool {
            Tool::Mig => self.mig,
            Tool::Cloud => self.cloud,
            Tool::Diagnose => self.diagnose,
            Tool::Cluster => self.cluster,
            Tool::Local => self.local,
        }
    }
}

pub const ZH: ToolsStrings = ToolsStrings {
    nav: "工具",
    index_title: "决策工具",
    index_intro: "把章节里的实际问题变成可以直接算的工具：自己的机器能跑什么、切哪种 MIG 实例、租哪种云实例、为什么慢、共享 GPU 池每月花多少。每个工具的状态都在网址里，可以收藏或分享。",
    from_chapter: "对应章节：",
    mig: ("MIG 规划器", "按 MIG 用户指南的放置规则在 GPU 上摆放实例，或把一组工作负载装进最少的 GPU。"),
    cloud: ("云实例选择", "给定模型、精度、上下文和并发（或训练任务），按每小时、每百万 token 或每次训练的费用给云实例排名；装不下或达不到延迟目标的也列出原因。"),
    diagnose: ("瓶颈诊断", "根据你观察到的现象，判断最可能的瓶颈、依据是什么、先试什么。"),
    cluster: ("共享集群成本", "GPU 池每月的使用、闲置与可回收成本，MIG 切分、空闲回收和抢占能省多少，各团队的账单。"),
    local: ("我的机器能跑什么", "在你的显卡或 Mac 上，用 llama.cpp（Ollama、LM Studio）跑哪些模型、哪种量化文件：整模型放得下、需要把部分层留在系统内存，还是放不下；以及预期的生成速度。"),
};

pub const EN: ToolsStrings = ToolsStrings {
    nav: "Tools",
    index_title: "Decision tools",
    index_intro: "The chapters' practical questions as tools you can compute with: what runs on your own machine, which MIG instance, which cloud instance, why a job is slow, what a shared GPU pool costs per month. Each tool keeps its state in the address, so it can be bookmarked or shared.",
    from_chapter: "Chapter: ",
    mig: ("MIG planner", "Place MIG instances on a GPU by the MIG user guide's placement rules, or pack a list of workloads onto the fewest GPUs."),
    cloud: ("Cloud instance selector", "Rank cloud instances for a model, precision, context and concurrency (or a training job) by cost per hour, per million tokens or per run; the ones that do not fit or miss the latency target stay listed with the reason."),
    diagnose: ("Bottleneck diagnosis", "From what you observe to the likely bottleneck, the evidence for it and what to try first."),
    cluster: ("Shared-cluster cost", "What GPU pools cost per month in use, idle and reclaimable time, what MIG slicing, idle reclaim and pre-emption win back, and each team's bill."),
    local: ("What runs on my machine", "Which models run on your own GPU or Mac with llama.cpp (Ollama, LM Studio), in which quantised file: whole on the GPU, with some layers left in system memory, or not at all; and how fast they generate."),
};

impl Lang {
    /// The decision tools' shared strings.
    pub fn tools(self) -> &'static ToolsStrings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }
}

//! The words a reader may search a page of the site by besides its name (`|`-separated; the
//! search matches them and shows the page's own name): what people call the tool, and how they
//! would ask for it. Both languages' words go into both indexes, with each page's name in the
//! other language, so a tool is found in either language on either page.

use crate::route::Tool;

/// Search words per page, in one language.
#[derive(Debug)]
pub struct SearchKeys {
    pub estimator: &'static str,
    pub plan: &'static str,
    pub mig: &'static str,
    pub cloud: &'static str,
    pub diagnose: &'static str,
    pub cluster: &'static str,
    pub local: &'static str,
    pub lab: &'static str,
    pub validation: &'static str,
    pub glossary: &'static str,
}

impl SearchKeys {
    /// The words of a decision tool.
    pub fn tool(&self, tool: Tool) -> &'static str {
        match tool {
            Tool::Mig => self.mig,
            Tool::Cloud => self.cloud,
            Tool::Diagnose => self.diagnose,
            Tool::Cluster => self.cluster,
            Tool::Local => self.local,
        }
    }
}

pub const ZH: SearchKeys = SearchKeys {
    estimator: "显存计算器|显存估算|显存计算|装得下吗|推理速度估算|算力估算",
    plan: "容量规划|部署规划|服务规划|需要几张卡|需要多少 GPU|副本数",
    mig: "MIG 规划|MIG 切分|MIG 分区|MIG 布局|GPU 切片|切分 GPU",
    cloud: "云 GPU 选型|云 GPU 选择|云端选型|云实例选型|云主机|租 GPU|实例选择",
    diagnose: "性能诊断|瓶颈诊断|为什么慢|排查|GPU 利用率低",
    cluster: "共享集群|集群成本|团队账单|费用分摊|闲置 GPU|GPU 池",
    local:
        "本地运行|本地部署|我的显卡|我的 Mac|能跑什么模型|llama.cpp|Ollama|LM Studio|GGUF|量化文件|显存计算器",
    lab: "WebGPU 实验|带宽实验|带宽测试|测我的 GPU|跑分|实测带宽",
    validation: "验证|实测对比|准确度|误差",
    glossary: "术语|名词解释|词汇表",
};

pub const EN: SearchKeys = SearchKeys {
    estimator:
        "memory calculator|VRAM calculator|GPU memory calculator|will it fit|memory estimator|speed estimator",
    plan: "capacity planner|capacity planning|deployment planner|serving planner|how many GPUs|replicas",
    mig: "MIG planner|MIG layout|MIG partition|MIG slices|GPU slicing|partition a GPU",
    cloud: "cloud selector|cloud GPU selector|cloud instance|instance picker|rent a GPU|cloud GPU",
    diagnose: "diagnose|diagnosis|bottleneck|why is it slow|troubleshoot|low GPU utilization",
    cluster: "shared cluster|cluster cost|team bills|chargeback|idle GPUs|GPU pool",
    local: "run locally|local LLM|my GPU|my Mac|what can I run|llama.cpp|Ollama|LM Studio|GGUF|quantized file|VRAM calculator",
    lab: "WebGPU lab|bandwidth lab|bandwidth test|benchmark my GPU|measure my GPU|lab",
    validation: "validation|measurements|accuracy|error",
    glossary: "glossary|terms|dictionary|definitions",
};

//! Strings of the capacity planner (`#/{lang}/plan`), both languages. Sentences with numbers are
//! split into the pieces around them (`(before, after)`), so each language orders its own words.

use super::Lang;
use crate::tools::plan::state::Field;

#[derive(Debug)]
pub struct PlanStrings {
    pub title: &'static str,
    pub blurb: &'static str,
    pub lead: &'static str,
    pub from_chapter: &'static str,
    pub inputs: &'static str,
    pub inputs_hint: &'static str,
    pub model: &'static str,
    pub weights: &'static str,
    pub weights_auto: &'static str,
    pub kv: &'static str,
    pub gpu: &'static str,
    pub rate: &'static str,
    pub prompt: &'static str,
    pub output: &'static str,
    pub ttft_target: &'static str,
    pub tpot_target: &'static str,
    /// Labels of the percentile menus of the two targets (TTFT, TPOT).
    pub target_pct: [&'static str; 2],
    /// The prefix-reuse inputs: shared prefix tokens, hit rate in percent.
    pub prefix: [&'static str; 2],
    /// The KV-tier inputs: open sessions per replica, the CPU and SSD tiers per GPU (GB), and the
    /// GPU prefix cache's menu with its options (on, off).
    pub tiers: [&'static str; 4],
    pub gpu_cache_options: [&'static str; 2],
    /// Step 3 with open sessions: (before the sessions, before the working set per GPU, before
    /// where the histories are served from, before the mean restore, end).
    pub tiers_at: (&'static str, &'static str, &'static str, &'static str, &'static str),
    /// The chart's second line when the two targets name different percentiles.
    pub pct_of_target: &'static str,
    pub headroom: &'static str,
    pub max_seqs: &'static str,
    /// Field names in the repair notice, in `Field` order.
    pub fields: [&'static str; 23],
    pub paste: &'static str,
    pub paste_hint: &'static str,
    pub use_config: &'static str,
    pub back_to_catalog: &'static str,
    pub using_config: &'static str,
    pub bad_json: (&'static str, &'static str, &'static str),
    pub not_object: &'static str,
    pub repaired: (&'static str, &'static str),
    pub limit_ttft: &'static str,
    pub limit_tpot: &'static str,
    pub limit_saturation: &'static str,
    pub no_plan: &'static str,
    /// No degree holds the model: (before the degree, before the GPU, before the need, before
    /// the usable memory, before the weights, end).
    pub no_plan_memory: (&'static str, &'static str, &'static str, &'static str, &'static str, &'static str),
    /// Every degree that holds the model once quantised cannot load the 16-bit checkpoint first:
    /// (before the degree, before the need, before the usable memory, end).
    pub no_plan_load: (&'static str, &'static str, &'static str, &'static str),
    /// A degree that cannot load the 16-bit checkpoint: (before the need, before usable, end).
    pub load_no_fit: (&'static str, &'static str, &'static str),
    /// After `quantises_on_load`: (before the need at load, before usable, end).
    pub load_at: (&'static str, &'static str, &'static str),
    /// The command serves a published quantised checkpoint: (before the repo, before the format,
    /// before the source, end).
    pub serves_checkpoint: (&'static str, &'static str, &'static str, &'static str),
    /// Step 1, when a quantised checkpoint exists besides the one planned: (before the repo,
    /// before the format, between the formats, end).
    pub also_published: (&'static str, &'static str, &'static str, &'static str),
    pub no_price: &'static str,
    pub cost_pre: &'static str,
    pub cost_post: &'static str,
    pub at_peak_pre: &'static str,
    pub at_peak_util: &'static str,
    /// (before the percentile, after it and before the value).
    pub at_peak_ttft: (&'static str, &'static str),
    /// Under the headline: what the busy share counts, and where the headroom shows.
    pub busy_note: &'static str,
    pub at_peak_tpot: (&'static str, &'static str),
    pub at_peak_end: &'static str,
    pub step_weights: &'static str,
    pub weights_are: (&'static str, &'static str, &'static str, &'static str, &'static str),
    pub weights_fit_one: &'static str,
    pub weights_need_tp: (&'static str, &'static str),
    pub weights_no_node: &'static str,
    /// The weights need nodes: (before the nodes, before the GPUs, end).
    pub weights_need_nodes: (&'static str, &'static str, &'static str),
    /// Step 4 across nodes, why the plan's layout: (before the layout, before the reason, end) and
    /// the reasons: fewer GPUs (before ours, before theirs, end); more within the targets at the
    /// same GPUs (before ours, before theirs, end); the only one that works.
    pub picks: (&'static str, &'static str, &'static str),
    pub picks_fewer: (&'static str, &'static str, &'static str),
    pub picks_more: (&'static str, &'static str, &'static str),
    pub picks_only: &'static str,
    /// "tensor parallel " before a layout's words.
    pub tp_prefix: &'static str,
    /// What the engine leaves out across nodes.
    pub across_note: &'static str,
    /// The network control and its options' hint.
    pub net: &'static str,
    /// The network control's options: InfiniBand NDR, AWS EFA.
    pub net_options: [&'static str; 2],
    /// The networks by name in a sentence: InfiniBand NDR, AWS EFA, InfiniBand HDR.
    pub net_names: [&'static str; 3],
    /// Before the layout in the run note of a plan across nodes (vLLM's Ray cluster, SGLang's node ranks).
    pub confirm_nodes: &'static str,
    pub step_state: &'static str,
    pub state_at: (&'static str, &'static str, &'static str, &'static str),
    pub state_none: &'static str,
    pub step_context: &'static str,
    pub kv_per: (&'static str, &'static str, &'static str, &'static str),
    /// After `kv_per`, for a sliding-window model: (before the window, after it).
    pub kv_window: (&'static str, &'static str),
    pub seqs_at: (&'static str, &'static str),
    pub seqs_kv_bound: &'static str,
    pub seqs_reader_bound: &'static str,
    pub step_shard: &'static str,
    pub step_shard_lead: &'static str,
    pub table_head: [&'static str; 10],
    pub no_fit: (&'static str, &'static str, &'static str),
    pub misses: (&'static str, &'static str),
    pub not_needed: (&'static str, &'static str),
    pub breaks: (&'static str, &'static str, &'static str, &'static str, &'static str),
    pub kv_caps: (&'static str, &'static str, &'static str),
    pub chart_title: &'static str,
    pub chart_x: &'static str,
    pub p50: &'static str,
    pub chart_ttft: &'static str,
    pub chart_tpot: &'static str,
    pub target: &'static str,
    pub planned: &'static str,
    /// Label of the sustainable-rate line on the chart.
    pub chart_sustainable: &'static str,
    pub chart_none: &'static str,
    pub step_confirm: &'static str,
    pub confirm_none: &'static str,
    pub confirm_serve: &'static str,
    pub confirm_bench: &'static str,
    pub needs_checkpoint: &'static str,
    /// Before SGLang's launch line.
    pub confirm_sglang: &'static str,
    /// Under the launch lines: (before the margin, before the chunk, end).
    pub confirm_flags: (&'static str, &'static str, &'static str),
    /// `--quantization fp8` on a checkpoint published in 16 or 32 bits.
    pub quantises_on_load: &'static str,
    /// After the commands, one replica: what to do when the run meets the targets or not.
    pub confirm_then_one: &'static str,
    /// The same with several replicas (before the count, after it).
    pub confirm_then: (&'static str, &'static str),
    pub math_title: &'static str,
    pub math_search: &'static str,
    pub price_from: &'static str,
    pub math_target: &'static str,
    /// What the headroom keeps, in the math.
    pub math_headroom: &'static str,
    pub working: &'static str,
}

/// The planner's words when it plans for concurrent users (a closed loop) instead of a rate:
/// the input, and each text that names the load axis.
#[derive(Debug)]
pub struct PlanUsersStrings {
    pub input: &'static str,
    pub at_peak_util: &'static str,
    /// After the rate the users send at.
    pub at_peak_sent: &'static str,
    /// Columns 2 and 3 of the table (after "sequences per replica").
    pub table_cols: [&'static str; 2],
    pub limit_queue: &'static str,
    pub breaks: (&'static str, &'static str, &'static str, &'static str, &'static str),
    pub math_search: &'static str,
    pub math_target: &'static str,
    pub chart_x: &'static str,
    pub chart_limit: &'static str,
}

impl Lang {
    /// The planner's words for a plan over concurrent users.
    pub fn plan_users(self) -> &'static PlanUsersStrings {
        match self {
            Lang::Zh => &USERS_ZH,
            Lang::En => &USERS_EN,
        }
    }
}

static USERS_ZH: PlanUsersStrings = PlanUsersStrings {
    input: "峰值并发用户数（0：按请求率规划）",
    at_peak_util: " 个并发用户，每秒发出 ",
    at_peak_sent: " 个请求，",
    table_cols: ["每副本查找上限（用户）", "满足目标的用户数"],
    limit_queue: "排队（用户数超过同时处理序列数的 4 倍）",
    breaks: ("整个服务超过 ", " 个并发用户（每副本 ", "）后，最先超出目标的是", "；查找的上限是每副本 4 × 同时处理的序列数，合计 ", " 个用户，再多的用户大都在等空位。"),
    math_search: "“满足目标的用户数”是首 token 时间和每 token 时间在各自目标的百分位上都不超目标的最多每副本并发用户：每个用户在上一个请求完成后立刻发出下一个（闭环），在 1 个用户和 4 × 同时处理的序列数之间二分查找 7 步（每一步都跑一次引擎的闭环模拟），再精确检查少一个副本能否扛住。",
    math_target: "留出余量后，峰值时每个副本最多承接的并发用户数：",
    chart_x: "每副本并发用户数",
    chart_limit: "查找上限",
};

static USERS_EN: PlanUsersStrings = PlanUsersStrings {
    input: "Peak concurrent users (0: plan for the request rate)",
    at_peak_util: " concurrent users, who send ",
    at_peak_sent: " requests/s: ",
    table_cols: ["Users searched up to per replica", "Users within targets"],
    limit_queue: "queueing (more than 4 × the sequences it runs at once)",
    breaks: ("Past ", " concurrent users over the service (", " per replica), the first to miss its target is the ", "; the search stops at 4 × the sequences a replica runs at once, ", " users over the service: past them most users wait for a slot."),
    math_search: "The users within targets are the most concurrent users per replica at which both the time to first token and the time per output token, each at its target's percentile, meet their targets, each user sending its next request as soon as the last completes (a closed loop): 7 bisection steps between 1 user and 4 × the sequences the replica runs at once (each one a run of the engine's closed-loop simulation), then an exact check of whether one replica fewer carries them.",
    math_target: "Concurrent users each replica may take at peak, with the headroom kept: ",
    chart_x: "Concurrent users per replica",
    chart_limit: "searched up to",
};

/// English number agreement in a phrase that follows a count: with a count of one, its first
/// plural noun (`sequences`, `users`, `replicas`, `GPUs`) is made singular. Chinese has no plural.
pub fn agree(lang: Lang, n: u64, text: &'static str) -> std::borrow::Cow<'static, str> {
    const NOUNS: [(&str, &str); 4] =
        [("sequences", "sequence"), ("users", "user"), ("replicas", "replica"), ("GPUs", "GPU")];
    if lang == Lang::Zh || n != 1 {
        return text.into();
    }
    let first =
        NOUNS.iter().filter_map(|(many, one)| text.find(many).map(|i| (i, *many, *one))).min_by_key(|x| x.0);
    match first {
        Some((i, many, one)) => format!("{}{one}{}", &text[..i], &text[i + many.len()..]).into(),
        None => text.into(),
    }
}

impl PlanStrings {
    /// "2 replicas × 1 GPU (tensor parallel 1) = 2 × " / "2 个副本 × 每副本 1 张 GPU（张量并行 1）= 2 张 ";
    /// across nodes "1 replica × 16 GPUs on 2 nodes (tensor parallel 8 × pipeline parallel 2) = 16 × ".
    pub fn headline(
        &self,
        lang: Lang,
        replicas: u64,
        layout: crate::tools::plan::Layout,
        gpus: u64,
    ) -> String {
        let (per, nodes) = (layout.gpus(), layout.nodes());
        let tp = self.tp_words(lang, layout);
        match lang {
            Lang::Zh if nodes > 1 => {
                format!("{replicas} 个副本 × 每副本 {per} 张 GPU，分在 {nodes} 个节点上（张量并行 {tp}）= {gpus} 张 ")
            }
            Lang::Zh => format!("{replicas} 个副本 × 每副本 {per} 张 GPU（张量并行 {tp}）= {gpus} 张 "),
            Lang::En => {
                let r = if replicas == 1 { "replica" } else { "replicas" };
                let g = if per == 1 { "GPU" } else { "GPUs" };
                let on = if nodes > 1 { format!(" on {nodes} nodes") } else { String::new() };
                format!("{replicas} {r} × {per} {g}{on} (tensor parallel {tp}) = {gpus} × ")
            }
        }
    }

    /// What follows "tensor parallel" for a layout: `8`, or `8 × pipeline parallel 2` /
    /// `8 × 流水线并行 2`.
    pub fn tp_words(&self, lang: Lang, layout: crate::tools::plan::Layout) -> String {
        match (layout.pp, lang) {
            (0 | 1, _) => layout.tp.to_string(),
            (pp, Lang::Zh) => format!("{} × 流水线并行 {pp}", layout.tp),
            (pp, Lang::En) => format!("{} × pipeline parallel {pp}", layout.tp),
        }
    }

    /// Step 4 across nodes: what was tried and over which network. `net` is the network's name,
    /// `inter` and `intra` its and NVLink's bandwidth per GPU and direction (as text).
    pub fn across_nodes(&self, lang: Lang, nodes: u64, net: &str, inter: &str, intra: &str) -> String {
        let all = crate::tools::plan::state::GPUS_PER_NODE * nodes;
        match lang {
            Lang::Zh => format!(
                "一台 8 卡服务器装不下，所以规划器试了 {nodes} 个节点，节点之间用 {net} 相连（每张卡每个方向 {inter}，节点内 NVLink 是 {intra}）：每个节点内张量并行 8、节点之间流水线并行 {nodes}（跨网络的只有各段之间传递的激活），以及张量并行 {all}（每层两次 all-reduce 都要跨网络）。"
            ),
            Lang::En => format!(
                "One 8-GPU node cannot hold it, so the planner tried {nodes} nodes joined by {net} ({inter} per GPU each way, against {intra} over NVLink inside a node): tensor parallel 8 in each node × pipeline parallel {nodes} across them (only the activations passed between the stages cross the network), and tensor parallel {all} (its two all-reduces per layer cross it)."
            ),
        }
    }

    /// "55.2% of its sustainable rate (36.4 requests/s); its GPUs are busy 97.1% of the time" /
    /// "是可持续速率（每秒 36.4 个）的 55.2%；GPU 有 97.1% 的时间在运行".
    pub fn at_peak_load(&self, lang: Lang, share_pct: f64, sustainable: &str, busy_pct: String) -> String {
        let share = crate::charts::format::format_sig3(share_pct);
        match lang {
            Lang::Zh => format!("是可持续速率（每秒 {sustainable} 个）的 {share}%；GPU 有 {busy_pct}% 的时间在运行"),
            Lang::En => format!(
                "{share}% of its sustainable rate ({sustainable} requests/s); its GPUs are busy {busy_pct}% of the time"
            ),
        }
    }

    /// A field's name in the repair notice.
    pub fn field_name(&self, f: Field) -> &'static str {
        let i = match f {
            Field::Model => 0,
            Field::Weights => 1,
            Field::Kv => 2,
            Field::Gpu => 3,
            Field::Rate => 4,
            Field::Prompt => 5,
            Field::Output => 6,
            Field::Ttft => 7,
            Field::Tpot => 8,
            Field::Headroom => 9,
            Field::MaxSeqs => 10,
            Field::Config => 11,
            Field::Users => 12,
            Field::Network => 13,
            Field::TtftPct => 14,
            Field::TpotPct => 15,
            Field::Prefix => 16,
            Field::HitRate => 17,
            Field::Disagg => 18,
            Field::Sessions => 19,
            Field::CpuTier => 20,
            Field::SsdTier => 21,
            Field::GpuCache => 22,
        };
        self.fields.get(i).copied().unwrap_or_default()
    }
}

impl Lang {
    /// The capacity planner's strings.
    pub fn plan(self) -> &'static PlanStrings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }
}

static ZH: PlanStrings = PlanStrings {
    title: "容量规划器",
    blurb: "峰值请求率和延迟目标定了，要几个副本、每个副本几张卡、每月多少钱；最后给出在真机上验证的启动和压测命令。",
    lead: "把“估算容量”一章的流程走一遍：权重放得下吗，还要留什么，能撑多长上下文和多少并发，怎么切分，最后用一次小规模实测确认。每一步的数字都来自估算引擎，负载下的延迟来自引擎的连续批处理模拟。",
    from_chapter: "对应章节：",
    inputs: "服务",
    inputs_hint: "每个延迟目标都要选它的百分位（p50、p90、p95 或 p99；链接里没写百分位时按 p95）；余量是峰值时每个副本留出的空闲能力（占它在目标内能承接的负载的比例，低于 100%）。任何输入一改，方案就重算。",
    model: "模型",
    weights: "权重精度",
    weights_auto: "按发布格式（配置里有 quantization_config 就按它，否则 BF16）",
    kv: "KV cache 精度",
    gpu: "GPU",
    rate: "峰值请求率（个/秒）",
    prompt: "输入长度（token）",
    output: "输出长度（token）",
    ttft_target: "首 token 时间目标（秒）",
    tpot_target: "每个输出 token 时间目标（毫秒）",
    target_pct: ["首 token 时间目标的百分位", "每 token 时间目标的百分位"],
    prefix: ["共享前缀（token，不超过输入长度）", "前缀缓存命中率（%）"],
    tiers: [
        "开着的会话（保留历史以供复用，每个副本；0 表示不计）",
        "每张 GPU 的 CPU 内存层级（GB；0 表示没有）",
        "每张 GPU 的 SSD 层级（GB；0 表示没有）",
        "GPU 前缀缓存",
    ],
    gpu_cache_options: ["开（空闲的 KV 显存）", "关（只用 CPU 和 SSD 层级）"],
    tiers_at: ("开着的会话（保留历史以供复用）：每个副本 ", " 个，每张 GPU 上的历史共 ", "。按规划的布局，复用的历史来自：", "；从下层恢复平均让每个请求的首 token 时间增加 ", "。"),
    pct_of_target: "目标的百分位",
    headroom: "余量（%）",
    max_seqs: "每副本最多并发序列数",
    fields: [
        "模型",
        "权重精度",
        "KV cache 精度",
        "GPU",
        "峰值请求率",
        "输入长度",
        "输出长度",
        "首 token 时间目标",
        "每 token 时间目标",
        "余量",
        "最多并发序列数",
        "粘贴的 config.json",
        "峰值并发用户数",
        "节点间网络",
        "首 token 时间目标的百分位",
        "每 token 时间目标的百分位",
        "共享前缀",
        "前缀缓存命中率",
        "prefill/decode 分离式部署的对比",
        "开着的会话数",
        "CPU 内存层",
        "SSD 层级",
        "GPU 前缀缓存",
    ],
    paste: "粘贴 Hugging Face 的 config.json",
    paste_hint: "用它代替上面的模型；整个文件原样粘贴即可（quantization_config 也会读取）。",
    use_config: "使用这个配置",
    back_to_catalog: "改回目录里的模型",
    using_config: "正在使用粘贴的 config.json（上面的模型选择不起作用）。",
    bad_json: ("不是有效的 JSON：第 ", " 行第 ", " 列附近。"),
    not_object: "这是 JSON，但不是对象（config.json 应以 { 开头）。",
    repaired: ("链接里的“", "”无效，已恢复为默认值。"),
    limit_ttft: " 首 token 时间",
    limit_tpot: " 每个输出 token 时间",
    limit_saturation: "吞吐（队列越排越长）",
    no_plan: "在一台 8 卡服务器之内，没有哪种张量并行度能同时满足两个延迟目标；下表写明了每一种的原因。",
    no_plan_memory: ("显存放不下，与延迟目标无关：即使张量并行切成 ", " 份，每张 ", " 也需要 ", "，可用只有 ", "（仅权重就占 ", "）。请换显存更大的 GPU、更小的权重精度或更短的上下文。"),
    no_plan_load: ("这种权重精度没有已发布的检查点，只能在加载时量化，而引擎要先按 16 位读入整个检查点：即使张量并行切成 ", " 份，加载时每张卡也要 ", "，可用只有 ", "。请换显存更大的 GPU，或选一种有已发布检查点的权重精度。"),
    load_no_fit: ("加载放不下：这种精度只能在加载时量化，先按 16 位读入，每张卡要 ", "，可用只有 ", "。"),
    load_at: ("按这个张量并行度，加载时每张卡要读入 ", " 的 16 位权重（可用 ", "），放得下。"),
    serves_checkpoint: ("部署的是 ", "：发布方放出的 ", " 检查点（", "）。直接按这种格式加载，不用加 --quantization 参数，也不需要先读入 16 位权重。"),
    also_published: ("发布方还放出了 ", "（", "）：把权重精度选成 ", "，就按这个检查点规划。"),
    no_price: "（目录里没有这款 GPU 的带日期价格）",
    cost_pre: "，约 ",
    cost_post: " / 月（按需价）",
    at_peak_pre: "峰值时每个副本承接 ",
    at_peak_util: " 个请求/秒，",
    at_peak_ttft: ("；p", " 首 token 时间 "),
    busy_note: "“GPU 在运行的时间”数的是 GPU 执行调度步的时间：只要有请求在处理，连续批处理就一步接一步地执行，所以远低于可持续速率时它也接近 100%。余量体现在请求率上，而不在这个时间比例上。",
    at_peak_tpot: ("，p", " 每个输出 token 时间 "),
    at_peak_end: "。",
    step_weights: "1. 权重放得下吗？",
    weights_are: ("", " 权重共 ", "。一张 ", " 扣除运行时预留后可用 ", "。"),
    weights_fit_one: "一张卡放得下。",
    weights_need_tp: ("至少要 ", " 张卡做张量并行。"),
    weights_no_node: "四台 8 卡服务器也放不下：换更小的权重精度，或显存更大的 GPU。",
    weights_need_nodes: ("一台 8 卡服务器放不下，至少要 ", " 个节点（", " 张卡）。"),
    picks: ("方案选", "：", "。"),
    picks_fewer: ("它用的 GPU 更少（", " 张，另一种要 ", " 张）"),
    picks_more: ("GPU 一样多，它在目标内每个副本能多承接请求（每秒 ", " 个，另一种 ", " 个）"),
    picks_only: "另一种放不下或达不到目标（见下表）",
    tp_prefix: "张量并行 ",
    across_note: "引擎计时流水线时，每一步都让各段依次执行（不会同时有第二批在跑），所以流水线并行的吞吐是偏保守的估计；跨节点的专家并行还没有纳入规划。",
    net: "节点间网络（一台服务器不够时）",
    net_options: ["InfiniBand NDR，每张卡 400 Gbit/s", "AWS EFA（p5），每 8 张卡 3,200 Gbit/s"],
    net_names: ["InfiniBand NDR", "AWS EFA（p5）", "InfiniBand HDR"],
    confirm_nodes: "这个副本跨多个节点：vLLM 要先在各节点上组成 Ray 集群（头节点 ray start --head，其余节点 ray start --address），再在头节点上启动；SGLang 在每个节点上用同一条命令启动，只改 --node-rank。",
    step_state: "2. 每张卡还要装什么",
    state_at: ("张量并行 ", " 时，每张卡还要留 ", " 给运行时（CUDA 上下文、分配器、库），满并发时激活值占 ", "；剩下的都给 KV cache。"),
    state_none: "一台服务器之内，没有哪种张量并行度能同时装下权重和一个请求。",
    step_context: "3. 上下文与并发",
    kv_per: ("每个 token 占 ", " 的 KV cache；一个 ", " token 的请求（输入加输出）在结束前一直占着 ", "。"),
    kv_window: ("它的滑动窗口层只保留最近 ", " 个 token，所以一个请求占的 KV cache 少于 token 数乘以每 token 的大小。"),
    seqs_at: ("张量并行 ", "：同时 "),
    seqs_kv_bound: " 个序列（KV cache 装得下的上限）",
    seqs_reader_bound: " 个序列（你设的上限；KV cache 还装得下更多）",
    step_shard: "4. 切分与副本",
    step_shard_lead: "一台服务器内的每种张量并行度都由引擎估算；方案取 GPU 最少的（一样多时取更便宜的，再一样时取在目标内总共能承接更多请求的，还一样时取并行度小的）。",
    table_head: [
        "TP × PP",
        "每副本序列数",
        "每副本可持续请求率",
        "满足目标的请求率",
        "最先失守",
        "副本数",
        "GPU 数",
        "峰值负载占可持续速率",
        "峰值时 GPU 在运行的时间",
        "每月费用",
    ],
    no_fit: ("放不下：每张卡需要 ", "，可用只有 ", "。"),
    misses: ("负载很轻时也达不到目标：", " "),
    not_needed: ("不必细算：即使每个副本都跑满可持续请求率，也至少要 ", " 张 GPU，比方案多。"),
    breaks: ("整个服务超过 ", " 个请求/秒（每副本 ", "）后，最先超出目标的是", "；到 ", " 个请求/秒时，副本处理不过来，队列会无限变长。"),
    kv_caps: ("每个副本的 KV cache 只装得下 ", " 个序列，少于你设的 ", "：要更多并发，就要更多显存（更大的张量并行度，或 FP8 KV cache）。"),
    chart_title: "负载与延迟：一个副本，张量并行 ",
    chart_x: "每副本每秒请求数",
    p50: "p50",
    chart_ttft: "首 token 时间（秒）",
    chart_tpot: "每个输出 token 时间（毫秒）",
    target: "目标 ",
    planned: "规划的峰值",
    chart_sustainable: "可持续",
    chart_none: "没有可画的负载点。",
    step_confirm: "5. 用一次小规模实测确认",
    confirm_none: "没有方案，就还没有可跑的命令：放宽一个目标、换更大的 GPU 或更小的权重精度。",
    confirm_serve: "按方案启动一个副本：",
    confirm_bench: "在另一个终端里，用 vLLM 的服务压测工具给它加上每个副本的峰值负载，再把测出的首 token 时间和每 token 时间在目标所选百分位上的值与目标对比：",
    needs_checkpoint: "vLLM 加载时不会把权重量化成 INT8 或 INT4：请部署这个模型预先量化好的版本（AWQ、GPTQ 或 W8A8），vLLM 会读取其中的 quantization_config。",
    confirm_sglang: "也可以用 SGLang 启动，参数一一对应：",
    confirm_flags: ("最大上下文长度比“输入 + 输出”多留了 ", " 个 token（压测生成的随机提示词重新分词后可能多出几个 token，超长的请求会直接失败）；每步批处理的 token 数固定为模拟所假设的 ", " 个 token 的预填充分块。"),
    quantises_on_load: "这个检查点按 BF16（或更高精度）发布：加上 --quantization fp8 后，vLLM 和 SGLang 会先下载、读入全精度权重，再在加载时逐层量化成 FP8，所以下载量和加载时间都按全精度算。若这个模型有官方发布的 FP8 检查点（它的 quantization_config 写着 fp8），直接部署它并去掉这个参数即可。",
    confirm_then_one: "如果实测达标，这一个副本就是整个服务。如果没达标，以实测为准，估算不准：按测出的请求率重新规划。",
    confirm_then: ("如果实测达标，就在负载均衡后面运行 ", " 个这样的副本。如果没达标，以实测为准，估算不准：按测出的请求率重新规划。"),
    math_title: "看算式",
    math_search: "“满足目标的请求率”是首 token 时间和每 token 时间在各自目标的百分位上都不超目标的最高每副本请求率：从空闲到可持续请求率之间二分查找 7 步（每一步都跑一次引擎的负载模拟），再精确检查少一个副本能否扛住。可持续请求率是队列排满时副本每秒完成的请求数。",
    price_from: "价格来源：",
    math_target: "留出余量后，峰值时每个副本最多承接的每秒请求数：",
    math_headroom: "余量是每个副本留出的空闲能力：副本在峰值时最多跑到“满足目标的负载”的（1 − 余量）。满足目标的负载不超过可持续速率，所以余量 20% 的方案在峰值时最多用到可持续速率的 80%。",
    working: "正在计算方案……",
};

static EN: PlanStrings = PlanStrings {
    title: "Capacity planner",
    blurb: "Given a peak request rate and latency targets: how many replicas, how many GPUs each, what it costs a month, and the commands that check it on real hardware.",
    lead: "The capacity chapter's flow, worked for you: do the weights fit, what else each GPU holds, how much context and concurrency the rest allows, how to shard, and a small real run to confirm. Every number comes from the estimator's engine; latencies under load come from its continuous-batching simulation.",
    from_chapter: "From the chapter: ",
    inputs: "Service",
    inputs_hint: "Each latency target names its percentile (p50, p90, p95 or p99; a link without one means p95); headroom is the share of each replica's capacity kept free at peak (of the load its targets allow, below 100%). The plan is worked again on every change.",
    model: "Model",
    weights: "Weight format",
    weights_auto: "As published (the config's quantization_config, else BF16)",
    kv: "KV cache format",
    gpu: "GPU",
    rate: "Peak requests per second",
    prompt: "Prompt tokens",
    output: "Output tokens",
    ttft_target: "Time to first token target (s)",
    tpot_target: "Time per output token target (ms)",
    target_pct: ["Percentile of the time to first token target", "Percentile of the time per output token target"],
    prefix: ["Shared prefix (tokens, at most the prompt)", "Prefix cache hit rate (%)"],
    tiers: [
        "Open sessions kept for reuse (per replica; 0: not counted)",
        "CPU memory tier per GPU (GB; 0: none)",
        "SSD tier per GPU (GB; 0: none)",
        "GPU prefix cache",
    ],
    gpu_cache_options: ["On (the free KV memory)", "Off (CPU and SSD tiers only)"],
    tiers_at: ("Open sessions kept for reuse: ", " per replica, their histories ", " per GPU. At the plan's layout the reused histories are served from: ", "; restoring from the tiers adds ", " to each request's time to first token on average."),
    pct_of_target: "the target's percentile",
    headroom: "Headroom (%)",
    max_seqs: "Most concurrent sequences per replica",
    fields: [
        "model",
        "weight format",
        "KV cache format",
        "GPU",
        "peak request rate",
        "prompt tokens",
        "output tokens",
        "time to first token target",
        "time per output token target",
        "headroom",
        "most concurrent sequences",
        "pasted config.json",
        "peak concurrent users",
        "network between nodes",
        "percentile of the time to first token target",
        "percentile of the time per output token target",
        "shared prefix",
        "prefix cache hit rate",
        "disaggregated prefill/decode comparison",
        "open sessions",
        "CPU memory tier",
        "SSD tier",
        "GPU prefix cache",
    ],
    paste: "Paste a Hugging Face config.json",
    paste_hint: "Used instead of the model above; paste the whole file (its quantization_config is read too).",
    use_config: "Use this config",
    back_to_catalog: "Back to the catalog model",
    using_config: "Using the pasted config.json (the model list above is not used).",
    bad_json: ("Not valid JSON: near line ", ", column ", "."),
    not_object: "This is JSON but not an object (a config.json starts with {).",
    repaired: ("The link's ", " was not valid and was reset to its default."),
    limit_ttft: " time to first token",
    limit_tpot: " time per output token",
    limit_saturation: "throughput (the queue grows)",
    no_plan: "No tensor-parallel degree within one 8-GPU node meets both latency targets; the table says why for each.",
    no_plan_memory: ("It does not fit in memory, whatever the latency targets: even at tensor parallel ", ", each ", " needs ", " and has ", " usable (the weights alone take ", "). Choose a GPU with more memory, a smaller weight format or a shorter context."),
    no_plan_load: ("Only online quantisation remains for this weight format (no published checkpoint in it), and the engine loads the 16-bit checkpoint first: even at tensor parallel ", " each GPU needs ", " at load and has ", " usable. Choose a GPU with more memory, or a weight format with a published checkpoint."),
    load_no_fit: ("Does not load: only online quantisation remains, and the 16-bit checkpoint read first needs ", " per GPU, ", " usable."),
    load_at: (" At this tensor-parallel degree each GPU reads ", " of 16-bit weights at load (", " usable): it fits."),
    serves_checkpoint: ("Serves ", ", the ", " checkpoint its publisher released (", "): it loads in that format, with no --quantization flag and no 16-bit weights read first."),
    also_published: (" Its publisher also released ", " (", "): choose ", " as the weight format to plan with it."),
    no_price: " (no dated price in the catalog for this GPU)",
    cost_pre: ", about ",
    cost_post: " a month (on demand)",
    at_peak_pre: "At peak each replica takes ",
    at_peak_util: " requests/s: ",
    at_peak_ttft: ("; p", " time to first token "),
    busy_note: "The GPUs' busy time counts the time they run scheduler steps: continuous batching steps whenever a request is in flight, so it stays near 100% well below the sustainable rate. The headroom shows in the request rate, not in that share of time.",
    at_peak_tpot: (", p", " time per output token "),
    at_peak_end: ".",
    step_weights: "1. Do the weights fit?",
    weights_are: ("Weights in ", ": ", ". One ", " has ", " usable after the runtime's reserve. "),
    weights_fit_one: "They fit on one GPU.",
    weights_need_tp: ("They need at least ", " GPUs in tensor parallel."),
    weights_no_node: "They do not fit even in four 8-GPU nodes: choose a smaller weight format or a GPU with more memory.",
    weights_need_nodes: ("They do not fit in one 8-GPU node: they need at least ", " nodes (", " GPUs)."),
    picks: (" The plan takes ", ": ", "."),
    picks_fewer: ("it needs fewer GPUs (", " against ", ")"),
    picks_more: ("at the same GPUs it carries more within the targets (", " against ", " requests/s per replica)"),
    picks_only: "the other does not hold the model or meet the targets (see the table)",
    tp_prefix: "tensor parallel ",
    across_note: "The engine times a pipeline's stages one after the other in each step (no second batch in flight), so pipeline parallelism's throughput here is a conservative estimate; expert parallelism across nodes is not planned yet.",
    net: "Network between nodes (when one node is not enough)",
    net_options: ["InfiniBand NDR, 400 Gbit/s per GPU", "AWS EFA (p5), 3,200 Gbit/s per 8 GPUs"],
    net_names: ["InfiniBand NDR", "AWS EFA (p5)", "InfiniBand HDR"],
    confirm_nodes: "This replica spans several nodes: vLLM needs a Ray cluster over them first (ray start --head on the head node, ray start --address on the others) and starts on the head node; SGLang starts with the same command on every node, changing only --node-rank.",
    step_state: "2. What else each GPU holds",
    state_at: ("At tensor parallel ", ", each GPU also keeps ", " for the runtime (CUDA context, allocator, libraries) and ", " of activations at full concurrency; the rest is the KV cache's."),
    state_none: "No tensor-parallel degree within one node holds the weights and one request.",
    step_context: "3. Context and concurrency",
    kv_per: ("Each token adds ", " of KV cache; a request of ", " tokens (prompt and output) holds ", " until it finishes."),
    kv_window: (" Its sliding-window layers keep only their last ", " tokens, so a request holds less than its tokens × the size per token."),
    seqs_at: ("Tensor parallel ", ": "),
    seqs_kv_bound: " sequences at once (as many as the KV cache holds)",
    seqs_reader_bound: " sequences at once (your maximum; the KV cache holds more)",
    step_shard: "4. Sharding and replicas",
    step_shard_lead: "Each tensor-parallel degree within one node, sized by the engine; the plan takes the fewest GPUs (then the lower cost, then the most requests per second within the targets over all its replicas, then the smaller degree).",
    table_head: [
        "TP × PP",
        "Sequences per replica",
        "Sustainable req/s per replica",
        "Req/s within targets",
        "Breaks first",
        "Replicas",
        "GPUs",
        "Peak load of the sustainable rate",
        "GPUs busy at peak",
        "Cost per month",
    ],
    no_fit: ("Does not fit: needs ", " per GPU, ", " usable."),
    misses: ("Misses the targets even at light load: ", " "),
    not_needed: ("Not searched: even with every replica at its sustainable rate it needs at least ", " GPUs, more than the plan."),
    breaks: ("Past ", " requests/s over the service (", " per replica), the first to miss its target is the ", "; at ", " requests/s the replicas cannot keep up and the queue grows without bound."),
    kv_caps: ("The KV cache holds ", " sequences per replica, fewer than your maximum of ", ": more concurrency needs more memory (a larger tensor-parallel degree or an FP8 KV cache)."),
    chart_title: "Latency against load, one replica at tensor parallel ",
    chart_x: "Requests per second per replica",
    p50: "p50",
    chart_ttft: "Time to first token (s)",
    chart_tpot: "Time per output token (ms)",
    target: "target ",
    planned: "planned peak",
    chart_sustainable: "sustainable",
    chart_none: "No load points to draw.",
    step_confirm: "5. Confirm with a small real run",
    confirm_none: "With no plan there is nothing to run yet: relax a target, or pick a larger GPU or a smaller weight format.",
    confirm_serve: "Start one replica as planned:",
    confirm_bench: "From another shell, send it one replica's planned peak load with vLLM's serving benchmark, then compare its time to first token and time per output token, at each target's percentile, with your targets:",
    needs_checkpoint: "vLLM does not quantise weights to INT8 or INT4 on load: serve a pre-quantised checkpoint of this model (AWQ, GPTQ or W8A8); vLLM reads its quantization_config.",
    confirm_sglang: "Or launch it with SGLang, flag for flag:",
    confirm_flags: ("The longest context leaves ", " tokens over prompt + output (a benchmark's random prompts can come out a few tokens longer once tokenised again, and a request over the limit fails); the tokens batched per step are pinned to the ", "-token prompt chunk the simulation assumed."),
    quantises_on_load: "This checkpoint is published in BF16 (or wider): with --quantization fp8, vLLM and SGLang download and read the full-precision weights, then quantise each layer to FP8 as it loads, so the download and the load take full-precision time. Where the model has a published FP8 checkpoint (its quantization_config says fp8), serve that instead and drop the flag.",
    confirm_then_one: "If the measured percentiles meet the targets, this one replica is the service. If they do not, the real run is right and the estimate is not: plan again from the measured rate.",
    confirm_then: ("If the measured percentiles meet the targets, run ", " such replicas behind a load balancer. If they do not, the real run is right and the estimate is not: plan again from the measured rate."),
    math_title: "Show the math",
    math_search: "The rate within targets is the highest per-replica rate at which both the time to first token and the time per output token, each at its target's percentile, meet their targets: 7 bisection steps between an idle replica and its sustainable rate (each one a run of the engine's load simulation), then an exact check of whether one replica fewer carries the load. The sustainable rate is what a replica completes per second with a full queue.",
    price_from: "Price: ",
    math_target: "Requests per second each replica may take at peak, with the headroom kept: ",
    math_headroom: "The headroom is the spare capacity each replica keeps: at peak a replica runs at no more than (1 − headroom) of the load within its targets, which is at most its sustainable rate, so a plan with 20% headroom uses at most 80% of the sustainable rate at peak.",
    working: "Working out the plan…",
};

/// The planner's comparison with a disaggregated prefill/decode deployment
/// (`crate::tools::plan::disagg`): its control, its table, and the sentences that say which
/// deployment needs fewer GPUs and why, each built from the same numbers in both languages.
#[derive(Debug)]
pub struct PlanPdStrings {
    pub control: &'static str,
    /// The menu: compare at the best ratio; do not compare; compare at one ratio (before, after).
    pub option_auto: &'static str,
    pub option_off: &'static str,
    pub option_ratio: (&'static str, &'static str),
    pub title: &'static str,
    pub lead: &'static str,
    pub table_head: [&'static str; 8],
    /// Row labels: the aggregated plan (before the degree); a unit (before the ratio, before the
    /// degree).
    pub row_aggregated: &'static str,
    pub row_unit: (&'static str, &'static str),
    /// What breaks first when a unit's slower pool is full: its prefill pool, its decode pool.
    pub limit_pool: [&'static str; 2],
    /// A ratio the search did not reach: (before the most searched, before its GPUs, end).
    pub skipped: (&'static str, &'static str, &'static str),
    /// A ratio whose units need no fewer GPUs than the best unit even at their sustainable rate:
    /// (before the GPUs, end).
    pub not_needed: (&'static str, &'static str),
    pub across: &'static str,
    pub off: &'static str,
    /// No unit meets the targets: (before the degree, before the reason).
    pub none: (&'static str, &'static str),
    /// Under the headline when a unit wins: (before its GPUs, before the plan's, end).
    pub headline_note: (&'static str, &'static str, &'static str),
    pub confirm_title: &'static str,
    /// The notes around the commands: text between backticks is code (`html::prose`).
    pub confirm_vllm: &'static str,
    pub confirm_sglang: &'static str,
    pub proxy_note: &'static str,
    pub confirm_bench: &'static str,
    pub math_title: &'static str,
    /// The pools by name: prefill, decode.
    pub pools: [&'static str; 2],
}

impl Lang {
    /// The planner's words for the disaggregated comparison.
    pub fn plan_pd(self) -> &'static PlanPdStrings {
        match self {
            Lang::Zh => &PD_ZH,
            Lang::En => &PD_EN,
        }
    }
}

/// "GPU" or "GPUs" after a count, in English.
fn gpus_word(n: u64) -> &'static str {
    if n == 1 {
        "GPU"
    } else {
        "GPUs"
    }
}

/// A unit in words: `3 × a 2:1 unit (prefill:decode workers, tensor parallel 8 each)`.
fn units_words(lang: Lang, units: u64, ratio: &str, tp: u64) -> String {
    match lang {
        Lang::Zh => format!("{units} 个 {ratio} 单元（prefill:decode 节点数，每个节点张量并行 {tp}）"),
        Lang::En => format!("{units} × a {ratio} unit (prefill:decode workers, tensor parallel {tp} each)"),
    }
}

impl PlanPdStrings {
    /// Which deployment wins, with both GPU counts (`units`, `ratio`, `tp`: the best unit's).
    pub fn verdict(
        &self,
        lang: Lang,
        outcome: crate::tools::plan::disagg::Outcome,
        (agg, dis): (u64, u64),
        (units, ratio, tp): (u64, &str, u64),
    ) -> String {
        use crate::tools::plan::disagg::Outcome as O;
        let (a, d) = (crate::charts::format::group_digits(agg), crate::charts::format::group_digits(dis));
        let u = units_words(lang, units, ratio, tp);
        match (lang, outcome) {
            (Lang::Zh, O::Disaggregated) => format!("分离式部署胜出：{d} 张 GPU，即 {u}；合并部署要 {a} 张。"),
            (Lang::En, O::Disaggregated) => format!("Disaggregated wins: {d} {}, {u}, against {a} aggregated.", gpus_word(dis)),
            (Lang::Zh, O::Aggregated) => format!("合并部署胜出：{a} 张 GPU；最好的分离式部署要 {d} 张，即 {u}。"),
            (Lang::En, O::Aggregated) => {
                format!("Aggregated wins: {a} {} against {d} for the best disaggregated deployment, {u}.", gpus_word(agg))
            }
            (Lang::Zh, O::Tie) => format!("打平：两种部署都要 {d} 张 GPU，费用相同，分离式部署是 {u}；方案仍取合并部署：只有一个池子，不用搬运 KV cache。"),
            (Lang::En, O::Tie) => format!("A tie: both need {d} {} at the same cost, the disaggregated deployment as {u}; the plan stays aggregated: one pool, no KV cache to move.", gpus_word(dis)),
            (Lang::Zh, O::OnlyDisaggregated) => format!("只有分离式部署能达到目标：{d} 张 GPU，即 {u}。"),
            (Lang::En, O::OnlyDisaggregated) => {
                format!("Only the disaggregated deployment meets the targets: {d} {}, {u}.", gpus_word(dis))
            }
            (_, O::OnlyAggregated | O::Neither) => String::new(),
        }
    }

    /// Requests per second one GPU carries within the targets in each deployment, and what
    /// breaks first in each.
    pub fn per_gpu(
        &self,
        lang: Lang,
        (agg, agg_limit): (&str, &str),
        ratio: &str,
        (dis, dis_limit): (&str, &str),
    ) -> String {
        match lang {
            Lang::Zh => format!("在目标之内，合并部署每张 GPU 每秒承接 {agg} 个请求（最先失守的是{agg_limit}），{ratio} 单元里每张 GPU 每秒承接 {dis} 个（最先失守的是{dis_limit}）。"),
            Lang::En => format!("Within the targets one GPU carries {agg} requests/s aggregated ({agg_limit} breaks first) and {dis} requests/s in a {ratio} unit ({dis_limit} breaks first)."),
        }
    }

    /// The aggregated replica's TPOT is what breaks first: prompt chunks in its decode steps,
    /// none in a decode worker's (`pct`: the target's percentile; step times and TPOT as text).
    pub fn why_tpot(
        &self,
        lang: Lang,
        pct: &str,
        chunk: &str,
        (mixed, decode): (&str, &str),
        (tpot, target): (&str, &str),
    ) -> String {
        match lang {
            Lang::Zh => format!("合并部署的副本里，p{pct} 每个输出 token 时间取决于捎带在 decode 步里的提示块：捎带一块 {chunk} 个 token 的提示时，一步要 {mixed}，满批次只做 decode 时是 {decode}；到达的提示越多，每个输出流里捎带提示块的步就越多。decode 节点的步里不捎带提示块：规划的峰值时，它的 p{pct} 每个输出 token 时间是 {tpot}（目标 {target}）。"),
            Lang::En => format!("The aggregated replica's p{pct} time per output token is set by prompt chunks riding in its decode steps: a step that also runs a {chunk}-token prompt chunk takes {mixed} against {decode} for a full batch of decodes alone, and the more prompts arrive, the more of each stream's steps carry one. A decode worker's steps carry no prompt chunk: at planned peak its p{pct} time per output token is {tpot} (target {target})."),
        }
    }

    /// The aggregated replica's TTFT breaks first; a prefill worker runs prompts only
    /// (`prefill_p99`: its part of the time to first token at planned peak, as text).
    pub fn why_ttft(&self, lang: Lang, pct: &str, prefill_p99: &str) -> String {
        match lang {
            Lang::Zh => format!("合并部署的副本最先失守的是 p{pct} 首 token 时间：每个提示要等前面的提示，这些步还要和正在输出的序列共用。prefill 节点只算提示：规划的峰值时，首 token 时间里它的那部分在 p99 为 {prefill_p99}。"),
            Lang::En => format!("The aggregated replica's p{pct} time to first token breaks first: each prompt waits for the prompts ahead of it, in steps it shares with the running streams. A prefill worker runs prompts only: at planned peak its part of the time to first token is {prefill_p99} at p99."),
        }
    }

    /// The aggregated replica meets both targets up to its sustainable rate.
    pub fn why_throughput(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => "合并部署的副本直到可持续速率都满足两个目标：决定它能承接多少的是吞吐，而不是延迟目标，所以把两个阶段分开也腾不出延迟上的余地。",
            Lang::En => "The aggregated replica meets both targets up to its sustainable rate: throughput, not a latency target, sets its capacity, so splitting the roles frees no latency budget.",
        }
    }

    /// The unit's pools: each one's sustainable rate, the share of the faster one left unused
    /// when the slower is full, and the KV cache's transfer.
    pub fn pools_text(
        &self,
        lang: Lang,
        ratio: &str,
        (prefill, decode): (&str, &str),
        (slower, faster, unused): (usize, usize, &str),
        (bytes, link, transfer): (&str, &str, &str),
    ) -> String {
        let name = |i: usize| self.pools.get(i).copied().unwrap_or_default();
        let (slow, fast) = (name(slower), name(faster));
        match lang {
            Lang::Zh => format!("一个 {ratio} 单元的 prefill 池每秒可持续完成 {prefill} 个请求，decode 池 {decode} 个：{slow} 池满载时，{fast} 池有 {unused}% 的能力用不上；每个提示的 KV cache（每张 GPU {bytes}）经 {link} 传输要 {transfer}。"),
            Lang::En => format!("A {ratio} unit's prefill pool sustains {prefill} requests/s and its decode pool {decode}: when the {slow} pool is full, the {fast} pool leaves {unused}% of its capacity unused; every prompt's KV cache ({bytes} per GPU) crosses {link} in {transfer}."),
        }
    }

    /// The balance, when one deployment wins: `split_wins` (the disaggregated one does),
    /// `tpot` (the aggregated replica's TPOT is what breaks first).
    pub fn close(&self, lang: Lang, split_wins: bool, tpot: bool) -> &'static str {
        match (lang, split_wins, tpot) {
            (Lang::Zh, true, true) => "在这里，把提示块从 decode 步里拿走省下的 GPU，比 prefill 池和传输多花的 GPU 更多。",
            (Lang::Zh, false, true) => "在这里，把提示块从 decode 步里拿走省下的 GPU，抵不上 prefill 池和传输多花的 GPU。",
            (Lang::Zh, true, false) => "在这里，分开部署省下的 GPU 比 prefill 池和传输多花的更多。",
            (Lang::Zh, false, false) => "在这里，prefill 池和传输多花的 GPU 比分开部署省下的更多。",
            (Lang::En, true, true) => "Taking the prompt chunks out of the decode steps is worth more here than the GPUs the prefill pool and the transfer cost.",
            (Lang::En, false, true) => "Taking the prompt chunks out of the decode steps is worth less here than the GPUs the prefill pool and the transfer cost.",
            (Lang::En, true, false) => "The split saves more GPUs here than the prefill pool and the transfer cost.",
            (Lang::En, false, false) => "The prefill pool and the transfer cost more GPUs here than the split saves.",
        }
    }

    /// The sizing in the math: `units = ⌈peak ÷ ((1 − headroom) × r)⌉ …` is the same in both
    /// languages; this is the GPUs' line.
    pub fn gpus_line(&self, units: u64, unit: crate::tools::plan::disagg::Unit, gpus: u64) -> String {
        format!(
            "GPUs = units × (P + D) × TP = {units} × ({} + {}) × {} = {gpus}",
            unit.prefill, unit.decode, unit.tp
        )
    }
}

static PD_ZH: PlanPdStrings = PlanPdStrings {
    control: "prefill/decode 分离式部署",
    option_auto: "对比（搜索最合适的比例）",
    option_off: "不对比（计算更快）",
    option_ratio: ("按 ", "（prefill:decode）对比"),
    title: "合并部署还是分离式部署？",
    lead: "同样的目标、同样的 GPU，换一种部署方式：提示在 prefill 节点上计算，每个提示的 KV cache 传给 decode 节点，decode 节点再生成其余 token，它的步里不再捎带提示块。一个单元由若干个 prefill 节点和若干个 decode 节点按一定比例组成，每个节点的张量并行度与方案相同；和副本一样，二分查找它在目标内能承接的最高负载，单元数 = ⌈峰值 ÷ ((1 − 余量) × 该负载)⌉。",
    table_head: [
        "部署",
        "每副本或单元的 GPU 数",
        "每副本或单元满足目标的请求率",
        "每张 GPU 满足目标的请求率",
        "最先失守",
        "副本数或单元数",
        "GPU 数",
        "每月费用",
    ],
    row_aggregated: "合并部署 · TP ",
    row_unit: ("分离式 ", " · TP "),
    limit_pool: ["prefill 池的吞吐", "decode 池的吞吐"],
    skipped: ("没有细算：查找从按可持续速率所需 GPU 最少的比例出发，朝最先失守的池子一步步加节点，最多细算 ", " 种比例，没有走到这一种（它至少要 ", " 张 GPU）。"),
    not_needed: ("不必细算：即使每个单元都跑满可持续速率，也至少要 ", " 张 GPU，不比最好的单元少。"),
    across: "方案的副本跨了节点：只对单个节点之内的副本做这个对比（prefill 节点只有一个流水线阶段）。",
    off: "没有和 prefill/decode 分离式部署对比（在上面的输入里可以打开）。",
    none: ("张量并行 ", " 的分离式单元达不到目标："),
    headline_note: ("分离式部署用更少的 GPU 达到同样的目标：", " 张，合并部署要 ", " 张（见第 4 步）。"),
    confirm_title: "或者启动一个分离式单元",
    confirm_vllm: "用 vLLM 的 `NixlConnector`（每条命令在各自的终端里运行；同一台服务器上的各个节点进程各用自己的 GPU 和端口）：",
    confirm_sglang: "用 SGLang（传输后端为 `nixl`；改用 `mooncake` 时，换成 `--disaggregation-transfer-backend mooncake`，并用 `--disaggregation-ib-device` 指定 InfiniBand 网卡）：",
    proxy_note: "vLLM 的代理是它测试目录里的一个示例（`tests/v1/kv_connector/nixl_integration/toy_proxy_server.py`，要在 vLLM 源码目录里运行），不是生产用的路由器。`NixlConnector` 不区分 `kv_role`，它只是占位；谁是 prefill、谁是 decode 由代理的 `--prefiller-hosts` 和 `--decoder-hosts` 决定（vLLM 文档里 `NixlConnector` 的使用指南）。",
    confirm_bench: "再经代理给这个单元加上它的峰值负载（vLLM 代理在 8192 端口；SGLang 的路由器在 8000 端口，即压测工具的默认端口）：",
    math_title: "分离式单元",
    pools: ["prefill", "decode"],
};

static PD_EN: PlanPdStrings = PlanPdStrings {
    control: "Disaggregated prefill/decode",
    option_auto: "Compare, at the best ratio searched",
    option_off: "Do not compare (faster)",
    option_ratio: ("Compare at ", " (prefill:decode)"),
    title: "Aggregated or disaggregated?",
    lead: "The same targets on the same GPUs, deployed another way: prompts run on prefill workers, each prompt's KV cache crosses to a decode worker, and decode workers generate the rest in steps that carry no prompt chunk. A unit is P prefill and D decode workers at the plan's tensor-parallel degree; its highest load within the targets is found by the same bisection as a replica's, and units = ⌈peak ÷ ((1 − headroom) × that)⌉.",
    table_head: [
        "Deployment",
        "GPUs per replica or unit",
        "Req/s within targets per replica or unit",
        "Req/s within targets per GPU",
        "Breaks first",
        "Replicas or units",
        "GPUs",
        "Cost per month",
    ],
    row_aggregated: "Aggregated · TP ",
    row_unit: ("Disaggregated ", " · TP "),
    limit_pool: ["throughput of its prefill pool", "throughput of its decode pool"],
    skipped: ("Not reached: the search starts at the ratio whose units could need the fewest GPUs and moves toward the pool that breaks first, at most ", " ratios (this one needs at least ", " GPUs)."),
    not_needed: ("Not searched: even with every unit at its sustainable rate it needs at least ", " GPUs, no fewer than the best unit."),
    across: "The plan's replica spans nodes: the comparison is made only for a replica within one node (a prefill worker runs one pipeline stage).",
    off: "Not compared with a disaggregated prefill/decode deployment (turn it on in the inputs above).",
    none: ("No disaggregated unit at tensor parallel ", " meets the targets: "),
    headline_note: ("A disaggregated deployment meets the same targets with fewer GPUs: ", " against ", " (step 4)."),
    confirm_title: "Or launch one disaggregated unit",
    confirm_vllm: "With vLLM's `NixlConnector` (each command in its own shell; workers on one node each get their own GPUs and ports):",
    confirm_sglang: "With SGLang (the `nixl` transfer backend; for `mooncake` instead, `--disaggregation-transfer-backend mooncake` with `--disaggregation-ib-device` naming your InfiniBand device):",
    proxy_note: "vLLM's proxy is a toy from its own tests (`tests/v1/kv_connector/nixl_integration/toy_proxy_server.py`, run from a vLLM source checkout), not a production router. `NixlConnector` does not distinguish `kv_role`, which is a placeholder: the proxy's `--prefiller-hosts` and `--decoder-hosts` set the roles (vLLM docs, NixlConnector Usage Guide).",
    confirm_bench: "Then send the unit its planned peak load through the proxy (vLLM's on port 8192; SGLang's router on 8000, the benchmark's default):",
    math_title: "Disaggregated units",
    pools: ["prefill", "decode"],
};

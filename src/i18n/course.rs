//! The glossary page's and the site search's strings, in both languages (a missing one is a
//! compile error; a topic without a name is a non-exhaustive `match`).

use crate::content::glossary::Topic;
use crate::content::search::HitKind;

#[derive(Debug)]
pub struct CourseStrings {
    pub glossary_title: &'static str,
    pub glossary_intro: &'static str,
    /// The header link to the glossary.
    pub glossary_nav: &'static str,
    /// Before the list of chapters that use a term.
    pub used_in: &'static str,
    /// Topic names, in `Topic` order.
    pub topics: [&'static str; 9],
    pub search_label: &'static str,
    pub search_placeholder: &'static str,
    /// The phone-width button that opens the search field.
    pub search_open: &'static str,
    pub search_results: &'static str,
    pub search_none: &'static str,
    /// While the search index is being fetched (on the first use of the field).
    pub search_loading: &'static str,
    /// When the index file could not be fetched or read.
    pub search_failed: &'static str,
    pub kind_chapter: &'static str,
    pub kind_section: &'static str,
    pub kind_term: &'static str,
    pub kind_tool: &'static str,
    /// What the estimator does, searched and shown as its result's snippet.
    pub estimator_about: &'static str,
    pub validation_about: &'static str,
    /// The home page's heading over the chapters in reading order.
    pub path_heading: &'static str,
    /// The stages of the path, in order (where each starts: `crate::content::STAGE_STARTS`).
    pub stages: [&'static str; 4],
    /// The page with the whole course on it (`{lang}/print/`), and the home page's link to it.
    pub print_title: &'static str,
    pub print_intro: &'static str,
    /// The footer's and the home page's link to the print page.
    pub print_link: &'static str,
    /// The link to the offline file (`gpu-primer-offline.html`), and the brackets its size
    /// goes in (the size itself is written by `tools/single-file.mjs`, from the file it wrote).
    pub offline_link: &'static str,
    pub offline_size: (&'static str, &'static str),
    /// The home page's line over those two links.
    pub course_files: &'static str,
    /// In a glossary term's definition opened by a tap: the link to the term's entry.
    pub term_more: &'static str,
    /// The root page's link to this language's home (what a page without scripts shows; with
    /// them the root moves on to the reader's language at once).
    pub choose_language: &'static str,
}

impl CourseStrings {
    pub fn topic(&self, topic: Topic) -> &'static str {
        let i = match topic {
            Topic::Memory => 0,
            Topic::Compute => 1,
            Topic::Precision => 2,
            Topic::Model => 3,
            Topic::Inference => 4,
            Topic::Training => 5,
            Topic::Interconnect => 6,
            Topic::Sharing => 7,
            Topic::Cloud => 8,
        };
        self.topics.get(i).copied().unwrap_or("")
    }

    pub fn kind(&self, kind: HitKind) -> &'static str {
        match kind {
            HitKind::Chapter => self.kind_chapter,
            HitKind::Section => self.kind_section,
            HitKind::Term => self.kind_term,
            HitKind::Tool => self.kind_tool,
        }
    }
}

pub const ZH: CourseStrings = CourseStrings {
    glossary_title: "术语表",
    glossary_intro:
        "本站用到的术语，中英对照，各附一句简短定义和使用它的章节。章节中某个术语第一次出现时会链接到这里。",
    glossary_nav: "术语表",
    used_in: "出现在：",
    topics: [
        "显存与存储",
        "计算",
        "数值精度",
        "模型结构",
        "推理",
        "训练与并行",
        "互联与通信",
        "GPU 共享",
        "云与成本",
    ],
    search_label: "搜索章节、小节、术语和工具",
    search_placeholder: "搜索（按 / 键）",
    search_open: "打开搜索",
    search_results: "搜索结果",
    search_none: "没有找到匹配的内容",
    search_loading: "正在载入搜索索引……",
    search_failed: "搜索索引载入失败：请检查网络后重新加载页面。",
    kind_chapter: "章节",
    kind_section: "小节",
    kind_term: "术语",
    kind_tool: "工具",
    estimator_about:
        "估算显存、KV cache、prefill 与 decode 时间、吞吐和多卡扩展：调模型、精度、上下文、并发和 GPU。",
    validation_about: "把估算器的预期值和 roofline 极限与公开实测数据逐行对比，给出误差。",
    path_heading: "学习路线",
    stages: ["一张 GPU：装得下、喂得饱", "多张 GPU 与共享", "按负载估算与诊断", "团队与集群"],
    print_title: "全部课程（打印版）",
    print_intro: "十五章全文在同一页，适合课堂打印或另存为 PDF。计算器显示的是各章示例的默认状态；要调整参数，请回到对应章节。",
    choose_language: "进入中文版",
    print_link: "全部章节合成一页（便于打印）",
    offline_link: "离线版：一个 HTML 文件，断网也能打开",
    offline_size: ("（", "）"),
    course_files: "用于课堂：可以整本打印，也可以下载离线版带走。",
    term_more: "查看术语表中的条目 →",
};

pub const EN: CourseStrings = CourseStrings {
    glossary_title: "Glossary",
    glossary_intro: "The terms this site uses, in English and Chinese side by side, each with a short definition and the chapters that use it. The first use of a term in a chapter links here.",
    glossary_nav: "Glossary",
    used_in: "Used in:",
    topics: ["Memory", "Compute", "Precision", "Model architecture", "Inference", "Training and parallelism", "Interconnect", "Sharing a GPU", "Cloud and cost"],
    search_label: "Search chapters, sections, terms and tools",
    search_placeholder: "Search (press /)",
    search_open: "Open search",
    search_results: "Search results",
    search_none: "Nothing matches",
    search_loading: "Loading the search index…",
    search_failed: "The search index could not be loaded: check the connection and reload the page.",
    kind_chapter: "Chapter",
    kind_section: "Section",
    kind_term: "Term",
    kind_tool: "Tool",
    estimator_about: "Estimate memory, KV cache, prefill and decode time, throughput and multi-GPU scaling: change the model, precision, context, concurrency and GPUs.",
    validation_about: "The estimator's expected values and roofline bounds next to published measurements, row by row, with the error.",
    path_heading: "The learning path",
    stages: ["One GPU: does it fit, is it fed", "Many GPUs and sharing", "Sizing and diagnosing workloads", "Teams and clusters"],
    print_title: "The whole course (print)",
    print_intro: "All fifteen chapters on one page, for a classroom printer or a PDF. The calculators show each chapter's example in its default state; to change them, go back to the chapter.",
    choose_language: "Read in English",
    print_link: "The whole course on one page (to print)",
    offline_link: "Offline copy: one HTML file that opens without a network",
    offline_size: (" (", ")"),
    course_files: "For a class: print the whole course, or take it offline.",
    term_more: "Open its glossary entry →",
};

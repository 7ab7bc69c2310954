//! The two languages of the site and every UI string in both.
//!
//! `Strings` is a struct with one field per string, and `ZH`/`EN` are constants of it:
//! a string added to one language and not the other is a compile error.

pub mod classroom;
mod classroom_pages;
pub use classroom_pages::ClassroomStrings;
mod course;
mod embeds;
pub mod errors;
mod estimator;
mod estimator_panels;
pub use estimator_panels::EstimatorPanelStrings;
mod exercises;
pub mod facts;
mod figures;
pub mod gguf;
mod lab;
mod load;
mod quant;
pub mod quantities;
mod search;
pub use quant::quant_notice_html;
pub use search::SearchKeys;
pub mod plan;
mod tool_cloud;
pub mod tool_cluster;
mod tool_local;
pub use tool_local::LocalStrings;
mod tool_diagnose;
pub mod tool_mig;
mod tools;
mod training;
pub mod validation;
mod widgets;
pub use course::CourseStrings;
pub use embeds::EmbedsStrings;
pub use estimator::{inferred_notice_html, kv_tier_shares, users_wait, EstimatorStrings};
pub use exercises::{unreadable_text, ExerciseStrings};
pub use figures::FigureStrings;
pub use load::LoadStrings;
pub use tool_diagnose::DiagnoseStrings;
pub use tools::ToolsStrings;
pub use widgets::WidgetStrings;

pub use crate::lang::Lang;

impl Lang {
    /// Between a label and its value: full-width in Chinese (`预填充：`), `: ` in English.
    pub fn colon(self) -> &'static str {
        match self {
            Lang::Zh => "：",
            Lang::En => ": ",
        }
    }

    /// The end of a sentence before another on the same line (`。` / `. `).
    pub fn full_stop(self) -> &'static str {
        match self {
            Lang::Zh => "。",
            Lang::En => ". ",
        }
    }

    pub fn strings(self) -> &'static Strings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }

    /// The glossary's and the search's strings.
    pub fn course(self) -> &'static CourseStrings {
        match self {
            Lang::Zh => &course::ZH,
            Lang::En => &course::EN,
        }
    }

    /// The strings around exercises.
    pub fn ex(self) -> &'static ExerciseStrings {
        match self {
            Lang::Zh => &exercises::ZH,
            Lang::En => &exercises::EN,
        }
    }

    /// The chapter figures' strings.
    pub fn fig(self) -> &'static FigureStrings {
        match self {
            Lang::Zh => &figures::ZH,
            Lang::En => &figures::EN,
        }
    }

    /// The words the site search finds each page by besides its name.
    pub fn search_keys(self) -> &'static SearchKeys {
        match self {
            Lang::Zh => &search::ZH,
            Lang::En => &search::EN,
        }
    }

    /// The estimator's strings.
    pub fn est(self) -> &'static EstimatorStrings {
        match self {
            Lang::Zh => &estimator::ZH,
            Lang::En => &estimator::EN,
        }
    }
}

/// Every string the UI shows outside the chapters.
#[derive(Debug)]
pub struct Strings {
    pub site_title: &'static str,
    pub tagline: &'static str,
    pub home_intro: &'static str,
    pub chapters_heading: &'static str,
    pub chapter_label: &'static str,
    /// The name of the other language, written in that language (the switch's label).
    pub switch_to_other: &'static str,
    /// Read after the switch's visible label by a screen reader (in the page's language; the
    /// label is in its own): what the link does.
    pub switch_hint: &'static str,
    /// The phone header's menu button that opens the chapter list.
    pub menu_label: &'static str,
    pub nav_home: &'static str,
    pub nav_estimate: &'static str,
    pub estimate_cta: &'static str,
    pub validation: Validation,
    pub nav_aria: &'static str,
    /// The label of a chapter's previous/next links (a landmark of its own).
    pub pager_aria: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    pub not_found_title: &'static str,
    pub not_found_body: &'static str,
    pub back_home: &'static str,
    pub footer: &'static str,
    pub skip_to_content: &'static str,
}

pub const ZH: Strings = Strings {
    site_title: "GPU 算力入门",
    tagline: "显存、带宽、Tensor Core、NVLink、MIG 与云 GPU：边读边算",
    home_intro: "GPU 选型不只是比较型号和峰值算力。能不能跑起来看显存容量，跑得快不快看带宽、计算吞吐和卡间通信，花多少钱看实例形态和利用率。本站按章节讲清这些约束，并给出可以亲手调整的估算。",
    chapters_heading: "章节",
    chapter_label: "第 {n} 章",
    switch_to_other: "English",
    switch_hint: "（切换到英文版）",
    menu_label: "章节目录",
    nav_home: "首页",
    nav_estimate: "估算器",
    validation: Validation {
        title: "估算与实测对比",
        intro: "把估算器放到公开实测数据面前：每一行是一条已发表的测量（条件与出处见各行），旁边是本站的预期值、roofline 极限和误差。roofline 极限是最好情况：对速率是上限（≤），对时间是下限（≥），所以实测速率不应高于它，实测时间不应低于它；预期值的误差按类别取中位数。这些数字由 gpu-primer validate 命令生成，与本页同源。",
        summary: "各类别的中位绝对误差",
        kind: "类别",
        rows: "行数",
        median_error: "中位绝对误差",
        violations: "实测越过 roofline 极限",
        model: "模型",
        gpu: "GPU",
        conditions: "条件",
        measured: "实测",
        expected: "预期",
        bound: "roofline 极限",
        error: "误差",
        bound_holds: "极限成立",
        source: "出处",
        not_expressed: "暂时无法表达的测量",
        nav: "估算与实测对比",
    },
    estimate_cta: "打开估算器：调模型、精度、上下文、并发和 GPU，看显存与时间怎么变",
    nav_aria: "站点导航",
    pager_aria: "上一章与下一章",
    previous: "上一章",
    next: "下一章",
    not_found_title: "页面不存在",
    not_found_body: "这个地址没有对应的页面，可能是链接写错了，或者页面已经改名。",
    back_home: "返回首页",
    footer: "GPU 算力入门 · 所有硬件数字均注明来源与日期",
    skip_to_content: "跳到正文",
};

pub const EN: Strings = Strings {
    site_title: "GPU Primer",
    tagline: "Memory, bandwidth, Tensor Cores, NVLink, MIG and cloud GPUs: read and estimate",
    home_intro: "Choosing a GPU is not a contest of model names and peak TFLOPS. Memory capacity decides whether a job starts at all; bandwidth, compute throughput and the links between GPUs decide how fast it runs; the instance shape and its utilisation decide what it costs. These chapters explain each limit and let you estimate it yourself.",
    chapters_heading: "Chapters",
    chapter_label: "Chapter {n}",
    switch_to_other: "中文",
    switch_hint: " (switch to the Chinese version)",
    menu_label: "Chapter list",
    nav_home: "Home",
    nav_estimate: "Estimator",
    validation: Validation {
        title: "Estimates against measurements",
        intro: "The estimator checked against published measurements: each row is a measurement someone published (conditions and source in the row), next to this site's expected value, its roofline bound and the error. The roofline bound is the best case: an upper bound on a rate (≤) and a lower bound on a time (≥), so a measured rate must not exceed it and a measured time must not fall below it; the error of the expected values is summarised as a median per kind. The same table comes from the command gpu-primer validate.",
        summary: "Median absolute error per kind",
        kind: "Kind",
        rows: "Rows",
        median_error: "Median abs. error",
        violations: "Measurements past the bound",
        model: "Model",
        gpu: "GPU",
        conditions: "Conditions",
        measured: "Measured",
        expected: "Expected",
        bound: "Bound",
        error: "Error",
        bound_holds: "Bound holds",
        source: "Source",
        not_expressed: "Measurements the engine cannot express yet",
        nav: "Estimates vs measurements",
    },
    estimate_cta: "Open the estimator: change the model, precision, context, concurrency and GPUs, and watch memory and time respond",
    nav_aria: "Site navigation",
    pager_aria: "Previous and next chapter",
    previous: "Previous",
    next: "Next",
    not_found_title: "Page not found",
    not_found_body: "There is no page at this address. The link may be mistyped, or the page may have moved.",
    back_home: "Back to the home page",
    footer: "GPU Primer · every hardware figure carries its source and date",
    skip_to_content: "Skip to content",
};

/// The validation page's strings.
#[derive(Debug)]
pub struct Validation {
    pub title: &'static str,
    pub intro: &'static str,
    pub summary: &'static str,
    pub kind: &'static str,
    pub rows: &'static str,
    pub median_error: &'static str,
    pub violations: &'static str,
    pub model: &'static str,
    pub gpu: &'static str,
    pub conditions: &'static str,
    pub measured: &'static str,
    pub expected: &'static str,
    pub bound: &'static str,
    pub error: &'static str,
    pub bound_holds: &'static str,
    pub source: &'static str,
    pub not_expressed: &'static str,
    pub nav: &'static str,
}

impl Strings {
    /// "Chapter 3" / "第 3 章".
    pub fn chapter_number(&self, n: u32) -> String {
        self.chapter_label.replace("{n}", &n.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(Lang::from_code(""), None);
    }

    #[test]
    fn browser_tags() {
        assert_eq!(Lang::from_browser_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_browser_tag("zh-Hant-TW"), Lang::Zh);
        assert_eq!(Lang::from_browser_tag("ZH"), Lang::Zh);
        assert_eq!(Lang::from_browser_tag("en-GB"), Lang::En);
        assert_eq!(Lang::from_browser_tag("de"), Lang::En);
        assert_eq!(Lang::from_browser_tag(""), Lang::En);
    }

    #[test]
    fn chapter_numbers() {
        assert_eq!(EN.chapter_number(3), "Chapter 3");
        assert_eq!(ZH.chapter_number(12), "第 12 章");
    }
}

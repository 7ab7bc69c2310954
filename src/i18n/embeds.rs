//! Strings of the page that lists every embeddable widget (`{lang}/embed/`, `site::embeds`) and
//! of the print page's choices (chapters to print, the answer lines), in both languages.

use super::Lang;

#[derive(Debug)]
pub struct EmbedsStrings {
    /// The page's title, and the footer's and the home page's link to it.
    pub title: &'static str,
    pub link: &'static str,
    pub intro: &'static str,
    /// How an embed behaves on the host page: its height, its links, its theme.
    pub how_heading: &'static str,
    pub how: [&'static str; 4],
    /// Before the embed codes: what `SITE/` stands for until the page's script fills it in.
    pub site_note: &'static str,
    pub col_param: &'static str,
    pub col_meaning: &'static str,
    pub col_values: &'static str,
    pub col_default: &'static str,
    pub theme_meaning: &'static str,
    pub theme_values: &'static str,
    /// A number parameter's range: (before, between, after), whole numbers and any.
    pub range_whole: (&'static str, &'static str, &'static str),
    pub range: (&'static str, &'static str, &'static str),
    /// A menu parameter: "one of".
    pub one_of: &'static str,
    /// The estimator widgets' `v` and `s`.
    pub scenario_meaning: &'static str,
    pub scenario_values: &'static str,
    /// The decision tools' state.
    pub tool_meaning: &'static str,
    pub tool_values: &'static str,
    /// The chapter's example, as a default.
    pub example: &'static str,
    /// A widget with no parameter of its own (the lab).
    pub no_params: &'static str,
    pub code_heading: &'static str,
    pub open: &'static str,
    pub in_chapter: &'static str,

    /// The print page: choosing chapters.
    pub print_choose: &'static str,
    pub print_choose_hint: &'static str,
    /// The print page's table of contents.
    pub toc_heading: &'static str,
    /// Printed beside the box an exercise's answer is written in.
    pub answer_here: &'static str,
}

impl Lang {
    /// The embed list's and the print page's strings.
    pub fn embeds(self) -> &'static EmbedsStrings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }
}

pub const ZH: EmbedsStrings = EmbedsStrings {
    title: "可嵌入的小部件",
    link: "把小部件嵌入你的文档",
    intro: "本站的每个小部件都可以单独嵌入团队文档或课程网站：下面逐个列出它的参数（名称、含义、取值范围、默认值）和可以直接复制的嵌入代码。参数写在地址的查询串里，例如 ?gpu=a100-sxm-80gb&n=1000。",
    how_heading: "嵌入后的行为",
    how: [
        "高度随内容变化：嵌入页在加载时和每次尺寸变化时，用 postMessage 把内容高度发给宿主页面；嵌入代码里的几行脚本只接受来自该 iframe 所在源的消息，并把高度设到这个 iframe 上。宿主页面不运行脚本时，iframe 保持 600 像素高。",
        "小部件里的链接在新标签页打开本站的完整页面，不会在框内跳转。",
        "主题：theme=light 为浅色，theme=dark 为深色，theme=auto（默认）跟随读者系统的深浅色设置。",
        "参数超出范围或无法识别时，小部件改用该章的示例值。",
    ],
    site_note: "下面代码中的 SITE/ 代表本站地址；页面脚本运行后会替换成实际地址。",
    col_param: "参数",
    col_meaning: "含义",
    col_values: "取值",
    col_default: "默认值",
    theme_meaning: "配色主题",
    theme_values: "light、dark 或 auto",
    range_whole: ("", " 到 ", " 之间的整数"),
    range: ("", " 到 ", " 之间的数"),
    one_of: "以下之一：",
    scenario_meaning: "估算器的场景（模型、精度、上下文、并发、GPU），编码后的形式",
    scenario_values: "v=1 与 s=……：在估算器或该小部件上设好场景后，点“复制嵌入代码”即可得到",
    tool_meaning: "工具的全部输入，和工具页面地址中的查询串相同",
    tool_values: "在工具页面上设好输入后，点该小部件的“复制嵌入代码”即可得到",
    example: "该章的示例",
    no_params: "没有参数：实验在读者自己的 GPU 上运行。",
    code_heading: "嵌入代码",
    open: "单独打开",
    in_chapter: "所在章节：",
    print_choose: "只打印选中的章节",
    print_choose_hint: "一章都不选时打印全部。也可以在地址后加 ?chapters=1,3 只打印第 1、3 章。",
    toc_heading: "目录",
    answer_here: "答案：",
};

pub const EN: EmbedsStrings = EmbedsStrings {
    title: "Embeddable widgets",
    link: "Embed the widgets in your docs",
    intro: "Every widget of this site can be embedded alone in a team's docs or a course site: below, each one with its parameters (name, meaning, allowed values, default) and the embed code to copy. Parameters go in the address's query, for example ?gpu=a100-sxm-80gb&n=1000.",
    how_heading: "How an embed behaves",
    how: [
        "Its height follows its content: the embed page posts its content height with postMessage on load and on every resize; the few lines of script in the embed code accept the message only from that iframe's origin and set the iframe's height. On a host page without scripts the iframe stays 600 pixels high.",
        "Links inside the widget open the full site's pages in a new tab, never inside the frame.",
        "Theme: theme=light is light, theme=dark is dark, theme=auto (the default) follows the reader's system setting.",
        "A value out of range or not recognised is replaced by the chapter's example.",
    ],
    site_note: "In the codes below, SITE/ stands for this site's address; the page's script writes the real address in.",
    col_param: "Parameter",
    col_meaning: "Meaning",
    col_values: "Values",
    col_default: "Default",
    theme_meaning: "Colour theme",
    theme_values: "light, dark or auto",
    range_whole: ("a whole number from ", " to ", ""),
    range: ("a number from ", " to ", ""),
    one_of: "one of: ",
    scenario_meaning: "The estimator's scenario (model, precision, context, concurrency, GPUs), encoded",
    scenario_values: "v=1 and s=…: set the scenario in the estimator or the widget, then use its Copy embed code",
    tool_meaning: "All of the tool's inputs, the same query as on the tool's own page",
    tool_values: "Set the inputs on the tool's page, then use the widget's Copy embed code",
    example: "the chapter's example",
    no_params: "No parameters: the lab runs on the reader's own GPU.",
    code_heading: "Embed code",
    open: "Open alone",
    in_chapter: "In chapter: ",
    print_choose: "Print only the chapters ticked",
    print_choose_hint: "With none ticked, every chapter prints. Adding ?chapters=1,3 to the address prints chapters 1 and 3 only.",
    toc_heading: "Contents",
    answer_here: "Answer: ",
};

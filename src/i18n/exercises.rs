//! The words around an exercise (check button, verdicts, progress, worksheet) in both languages.

/// Why a typed answer cannot be read, in the page's language: a unit of another kind or one the
/// page does not know is named, else "a number only" (with the question's unit where it has one).
/// The chapter cards and the classroom's student page say it in the same words.
pub fn unreadable_text(why: &crate::exercises::check::Unreadable, unit: &str, lang: super::Lang) -> String {
    use crate::exercises::check::Unreadable;
    let x = lang.ex();
    match why {
        Unreadable::OtherUnit(typed) => (x.other_unit)(typed, unit),
        Unreadable::UnknownUnit(typed) => (x.unknown_unit)(typed, unit),
        Unreadable::Empty | Unreadable::NotANumber if unit.is_empty() => x.number_only_plain.to_owned(),
        Unreadable::Empty | Unreadable::NotANumber => format!("{}{unit}{}", x.number_only.0, x.number_only.1),
    }
}

/// Strings of the exercise cards and the worksheet view.
#[derive(Debug)]
pub struct ExerciseStrings {
    /// Before the exercise's number: "Exercise".
    pub exercise: &'static str,
    pub answer_label: &'static str,
    pub check: &'static str,
    pub correct: &'static str,
    pub wrong: &'static str,
    /// An answer that is not a number in the question's unit: (before the unit, after it).
    pub number_only: (&'static str, &'static str),
    /// The same when the question has no unit.
    pub number_only_plain: &'static str,
    /// A unit of another kind than the question's after the number: (what was typed, the
    /// question's unit); the question's unit is empty when it asks for a plain number.
    pub other_unit: fn(&str, &str) -> String,
    /// A unit the page does not know: (what was typed, the question's unit).
    pub unknown_unit: fn(&str, &str) -> String,
    /// How an answer typed in another unit of the question's kind was read: (the number in the
    /// question's unit, that unit, the unit typed).
    pub read_as: fn(&str, &str, &str) -> String,
    /// Before a hint, with its colon: "Hint: ", "提示：".
    pub hint: &'static str,
    pub show_solution: &'static str,
    pub solution: &'static str,
    pub open_estimator: &'static str,
    /// Label of the link to one exercise.
    pub link: &'static str,
    /// "{solved} / {total} solved".
    pub progress: fn(usize, usize) -> String,
    pub reset: &'static str,
    pub worksheet: &'static str,
    pub answer_key: &'static str,
    pub key: &'static str,
    pub back_to_chapter: &'static str,
    pub print: &'static str,
    /// The stated tolerance of a numeric answer (a relative fraction, 0 = exact), in brackets.
    pub tolerance: fn(f64) -> String,
    pub name_line: &'static str,
}

pub const ZH: ExerciseStrings = ExerciseStrings {
    exercise: "练习",
    answer_label: "你的答案",
    check: "检查",
    correct: "正确！",
    wrong: "不对，再试一次。",
    number_only: ("只填数字，单位为 ", "（也可以在数字后写上这个单位）。"),
    number_only_plain: "只填一个数字。",
    other_unit: |typed, unit| {
        if unit.is_empty() {
            format!("这道题只要一个数，不带单位（你写了“{typed}”）。")
        } else {
            format!("“{typed}”不是这道题的单位：答案以 {unit} 计，请换算成 {unit}（或只填数字）。")
        }
    },
    unknown_unit: |typed, unit| format!("不认识单位“{typed}”：请只填数字，单位为 {unit}。"),
    read_as: |value, unit, from| format!("（按 {value} {unit} 计，由 {from} 换算）"),
    hint: "提示：",
    show_solution: "查看解答",
    solution: "解答",
    open_estimator: "在估算器中打开这个场景",
    link: "本题链接",
    progress: |done, total| format!("已完成 {done} / {total} 题"),
    reset: "清除进度",
    worksheet: "练习单（无答案）",
    answer_key: "答案",
    key: "答案：",
    back_to_chapter: "返回本章",
    print: "打印",
    tolerance: |t| {
        if t == 0.0 {
            "（需完全一致）".to_string()
        } else {
            format!("（误差 ±{}% 以内算对）", (t * 100.0).round())
        }
    },
    name_line: "姓名：________________",
};

pub const EN: ExerciseStrings = ExerciseStrings {
    exercise: "Exercise",
    answer_label: "Your answer",
    check: "Check",
    correct: "Correct!",
    wrong: "Not quite — try again.",
    number_only: ("Type the number only, in ", " (or the number followed by this unit)."),
    number_only_plain: "Type a number only.",
    other_unit: |typed, unit| {
        if unit.is_empty() {
            format!("This answer is a plain number, without a unit (you typed “{typed}”).")
        } else {
            format!("“{typed}” is not a unit of this answer: it asks for {unit}. Convert to {unit} (or type the number alone).")
        }
    },
    unknown_unit: |typed, unit| {
        format!("“{typed}” is not a unit this page knows: type the number in {unit}.")
    },
    read_as: |value, unit, from| format!(" (read as {value} {unit}, converted from {from})"),
    hint: "Hint: ",
    show_solution: "Show solution",
    solution: "Worked solution",
    open_estimator: "Open this scenario in the estimator",
    link: "Link to this exercise",
    progress: |done, total| format!("{done} / {total} solved"),
    reset: "Reset progress",
    worksheet: "Worksheet (no answers)",
    answer_key: "Answer key",
    key: "Answer: ",
    back_to_chapter: "Back to the chapter",
    print: "Print",
    tolerance: |t| {
        if t == 0.0 {
            "(exact answer)".to_string()
        } else {
            format!("(within ±{}%)", (t * 100.0).round())
        }
    },
    name_line: "Name: ________________",
};

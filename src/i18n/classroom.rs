//! The classroom's messages in both languages: why a hand-in code, an assignment link or a
//! pasted piece cannot be used, naming what is wrong (exhaustive matches).

use super::Lang;
use crate::classroom::assignment::{AssignmentError, MAX_EXERCISES};
use crate::classroom::gradebook::Problem;
use crate::classroom::handin::CodeError;

/// Why a pasted hand-in code cannot be read.
pub fn code_error(e: &CodeError, lang: Lang) -> String {
    use CodeError as C;
    match (e, lang) {
        (C::Empty, Lang::En) => "nothing was pasted".into(),
        (C::Empty, Lang::Zh) => "没有粘贴任何内容".into(),
        (C::NotACode, Lang::En) => "not a hand-in code (a code starts with GP1)".into(),
        (C::NotACode, Lang::Zh) => "这不是交作业码（交作业码以 GP1 开头）".into(),
        (C::BadCharacter { position, found }, Lang::En) => {
            format!("character {position} after GP1, '{found}', cannot be in a code: check it against the student's")
        }
        (C::BadCharacter { position, found }, Lang::Zh) => {
            format!("GP1 之后第 {position} 个字符“{found}”不可能出现在交作业码里：请与学生的原码核对")
        }
        (C::Checksum, Lang::En) => {
            "the code's checksum does not match: a character was mistyped or part of the code is missing"
                .into()
        }
        (C::Checksum, Lang::Zh) => "校验和不符：有字符抄错，或者码缺了一部分".into(),
        (C::Truncated, Lang::En) => "the code is cut off: ask for the whole code".into(),
        (C::Truncated, Lang::Zh) => "交作业码不完整：请让学生重新发送完整的码".into(),
        (C::OtherAssignment, Lang::En) => "a code for another assignment".into(),
        (C::OtherAssignment, Lang::Zh) => "这是另一份作业的交作业码".into(),
    }
}

/// Why an assignment link cannot be opened.
pub fn assignment_error(e: &AssignmentError, lang: Lang) -> String {
    use AssignmentError as A;
    match (e, lang) {
        (A::NotBase64, Lang::En) => {
            "the assignment link is damaged (cut off or changed): ask your teacher for it again".into()
        }
        (A::NotBase64, Lang::Zh) => "作业链接已损坏（被截断或改动）：请向老师重新索取".into(),
        (A::NotAnAssignment(_), Lang::En) => {
            "the link does not hold an assignment: ask your teacher for it again".into()
        }
        (A::NotAnAssignment(_), Lang::Zh) => "链接里没有作业内容：请向老师重新索取".into(),
        (A::UnknownExercise(id), Lang::En) => {
            format!("the assignment names an exercise this site does not have: {id}")
        }
        (A::UnknownExercise(id), Lang::Zh) => format!("作业里有本站没有的练习：{id}"),
        (A::ExerciseCount(n), Lang::En) => {
            format!("an assignment holds 1 to {MAX_EXERCISES} exercises, this one {n}")
        }
        (A::ExerciseCount(n), Lang::Zh) => format!("一份作业应有 1 到 {MAX_EXERCISES} 道练习，这份有 {n} 道"),
        (A::NoClass, Lang::En) => "the assignment has no class code".into(),
        (A::NoClass, Lang::Zh) => "作业没有班级代码".into(),
    }
}

/// A pasted piece the gradebook could not use, or a note about one it did.
pub fn problem(p: &Problem, lang: Lang) -> String {
    match (p, lang) {
        (Problem::Code { pasted, error }, Lang::En) => format!("“{pasted}…”: {}", code_error(error, lang)),
        (Problem::Code { pasted, error }, Lang::Zh) => format!("“{pasted}…”：{}", code_error(error, lang)),
        (Problem::WrongLength { student, found, expected }, Lang::En) => {
            format!("{student}: the code has {found} answers, the assignment {expected} exercises")
        }
        (Problem::WrongLength { student, found, expected }, Lang::Zh) => {
            format!("{student}：交作业码里有 {found} 个答案，作业却有 {expected} 道练习")
        }
        (Problem::Replaced { student }, Lang::En) => {
            format!("{student} handed in twice: the later code is kept")
        }
        (Problem::Replaced { student }, Lang::Zh) => format!("{student} 交了两次：保留后一次的码"),
    }
}

//! An assignment: the exercises a teacher picked, for one class, with what students may see.
//! It travels whole in the link students open (a URL-safe base64 of its JSON, as the estimator's
//! scenario does), so no server keeps it.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// What the teacher chose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignment {
    pub title: String,
    /// The class code: with a student's name or ID it seeds the student's numbers.
    pub class: String,
    /// Free text, as the teacher wrote it ("Friday 18:00").
    #[serde(default)]
    pub due: String,
    /// Exercise ids, in order (parametric ones get each student's numbers; the others are the
    /// chapter's).
    pub exercises: Vec<String>,
    #[serde(default)]
    pub show_hints: bool,
    #[serde(default)]
    pub show_solutions: bool,
    #[serde(default)]
    pub show_answer_key: bool,
}

/// Why a link's assignment cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssignmentError {
    /// Not base64 (a truncated or mangled link).
    NotBase64,
    /// Base64, but not an assignment's JSON.
    NotAnAssignment(String),
    /// An exercise id the site does not have.
    UnknownExercise(String),
    /// No exercise, or more than the hand-in code can carry.
    ExerciseCount(usize),
    /// An empty class code.
    NoClass,
}

/// The most exercises one assignment holds (the hand-in code counts them in one byte; a class
/// sheet is far shorter).
pub const MAX_EXERCISES: usize = 60;

impl Assignment {
    /// The token for the link.
    pub fn to_token(&self) -> String {
        URL_SAFE_NO_PAD.encode(serde_json::to_string(self).unwrap_or_default())
    }

    /// The assignment of a link's token, checked.
    pub fn from_token(token: &str) -> Result<Assignment, AssignmentError> {
        let a = Assignment::read_token(token)?;
        a.check()?;
        Ok(a)
    }

    /// The assignment of a token as it is, not checked: a teacher's page keeps one being made
    /// (no exercise chosen yet) in its address.
    pub fn read_token(token: &str) -> Result<Assignment, AssignmentError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim().trim_end_matches('='))
            .map_err(|_| AssignmentError::NotBase64)?;
        serde_json::from_slice(&bytes).map_err(|e| AssignmentError::NotAnAssignment(e.to_string()))
    }

    /// Every exercise known, between 1 and [`MAX_EXERCISES`] of them, a class code.
    pub fn check(&self) -> Result<(), AssignmentError> {
        if self.class.trim().is_empty() {
            return Err(AssignmentError::NoClass);
        }
        if self.exercises.is_empty() || self.exercises.len() > MAX_EXERCISES {
            return Err(AssignmentError::ExerciseCount(self.exercises.len()));
        }
        match self.exercises.iter().find(|id| crate::exercises::find(id).is_none()) {
            Some(id) => Err(AssignmentError::UnknownExercise(id.clone())),
            None => Ok(()),
        }
    }

    /// A 32-bit fingerprint of what decides every student's numbers and keys (FNV-1a of the class
    /// code and the exercises in order): a hand-in code carries it so that a code for another
    /// assignment is named as such, while a title, due line or visibility the teacher corrects
    /// after sending the link leaves the codes already handed in valid.
    pub fn fingerprint(&self) -> u32 {
        let h = crate::classroom::draw::seed_of(&[&self.class, &self.exercises.join(",")]);
        (h ^ (h >> 32)) as u32
    }

    /// The assignment of a student's, a gradebook's or a sheet's link: read and checked, except
    /// that an exercise the site no longer has is kept (its place shows a note and grades as not
    /// answered) rather than making every code already handed in unreadable.
    pub fn from_link(token: &str) -> Result<Assignment, AssignmentError> {
        let a = Assignment::read_token(token)?;
        match a.check() {
            Ok(()) | Err(AssignmentError::UnknownExercise(_)) => Ok(a),
            Err(e) => Err(e),
        }
    }
}

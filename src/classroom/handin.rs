//! Hand-in codes: what a student pastes into an LMS text box or an email when they finish, and
//! the teacher's grading page reads back.
//!
//! A code carries the assignment's fingerprint, the student's name or ID, and for each exercise
//! the answer as typed and whether the page found it right. Its bytes end with their CRC-32
//! (`export::zip::crc32`) and are written in Crockford's base32 (digits and capitals without I,
//! L, O, U; read case-insensitively, with O read as 0 and I, L as 1), in groups of five after
//! `GP1`. Changing one character changes at most five consecutive bits, and a CRC-32 detects
//! every error burst of 32 bits or fewer (Peterson and Brown, "Cyclic codes for error
//! detection", 1961), so every single-character typo is caught; so is a half-pasted code.
//!
//! What a checksum does not prevent: anyone can compute it, so a student who reads this file
//! can write a valid code with any answers. The grading page therefore checks every answer
//! again against the student's own key, and reports where the code's "right" disagrees.

use crate::classroom::export::zip::crc32;

/// One exercise's part of a code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// The answer as typed (trimmed; empty when none).
    pub answer: String,
    /// `Some(true)` when the page found it right, `Some(false)` wrong, `None` not checked.
    pub checked: Option<bool>,
}

/// The content of a hand-in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandIn {
    pub assignment: u32,
    pub student: String,
    pub answers: Vec<Answered>,
}

/// Why a pasted code cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeError {
    /// Nothing pasted.
    Empty,
    /// It does not start with `GP1`.
    NotACode,
    /// A character that is not in the code's alphabet, at this position (1-based, after `GP1`).
    BadCharacter { position: usize, found: char },
    /// Its checksum does not match: a typo, or a part is missing.
    Checksum,
    /// Too short for its own content: cut off.
    Truncated,
    /// A code of another assignment.
    OtherAssignment,
}

const PREFIX: &str = "GP1";
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The longest student name or ID and answer a code keeps, in bytes (a longer one is cut at a
/// character boundary).
pub const MAX_STUDENT_BYTES: usize = 64;
pub const MAX_ANSWER_BYTES: usize = 40;

/// A student's name or ID as a code carries it (trimmed, cut to [`MAX_STUDENT_BYTES`]): the page
/// draws the student's numbers from this, so that the gradebook, which has only the code, draws
/// the same ones.
pub fn fit_student(s: &str) -> &str {
    cut(s, MAX_STUDENT_BYTES)
}

/// An answer as a code carries it (trimmed, cut to [`MAX_ANSWER_BYTES`]): the page checks this,
/// so that the gradebook's check of the code agrees with the page's.
pub fn fit_answer(s: &str) -> &str {
    cut(s, MAX_ANSWER_BYTES)
}

/// `s` cut to at most `max` bytes at a character boundary.
fn cut(s: &str, max: usize) -> &str {
    let s = s.trim();
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

impl HandIn {
    /// The code to paste.
    pub fn encode(&self) -> String {
        let mut bytes = vec![1u8];
        bytes.extend_from_slice(&self.assignment.to_be_bytes());
        push_text(&mut bytes, cut(&self.student, MAX_STUDENT_BYTES));
        bytes.push(self.answers.len().min(255) as u8);
        for a in self.answers.iter().take(255) {
            bytes.push(match a.checked {
                None => 0,
                Some(true) => 1,
                Some(false) => 2,
            });
            push_text(&mut bytes, cut(&a.answer, MAX_ANSWER_BYTES));
        }
        let crc = crc32(&bytes);
        bytes.extend_from_slice(&crc.to_be_bytes());
        let body = base32(&bytes);
        let groups: Vec<&str> =
            body.as_bytes().chunks(5).map(|c| std::str::from_utf8(c).unwrap_or("")).collect();
        format!("{PREFIX}-{}", groups.join("-"))
    }

    /// The content of a pasted code; `expected`: the assignment's fingerprint it must carry.
    pub fn decode(code: &str, expected: Option<u32>) -> Result<HandIn, CodeError> {
        let compact: String = code.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
        if compact.is_empty() {
            return Err(CodeError::Empty);
        }
        let upper = compact.to_uppercase();
        let body = upper.strip_prefix(PREFIX).ok_or(CodeError::NotACode)?;
        let bytes = unbase32(body)?;
        if bytes.len() < 4 {
            return Err(CodeError::Truncated);
        }
        let (content, sum) = bytes.split_at(bytes.len() - 4);
        if crc32(content).to_be_bytes() != sum {
            return Err(CodeError::Checksum);
        }
        let h = parse(content).ok_or(CodeError::Truncated)?;
        match expected {
            Some(id) if id != h.assignment => Err(CodeError::OtherAssignment),
            _ => Ok(h),
        }
    }
}

fn push_text(bytes: &mut Vec<u8>, s: &str) {
    bytes.push(s.len() as u8);
    bytes.extend_from_slice(s.as_bytes());
}

/// The fields of a code whose checksum matched.
fn parse(content: &[u8]) -> Option<HandIn> {
    let mut r = Reader { bytes: content, at: 0 };
    if r.byte()? != 1 {
        return None;
    }
    let assignment = u32::from_be_bytes(r.take(4)?.try_into().ok()?);
    let student = r.text()?;
    let count = r.byte()?;
    let mut answers = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let checked = match r.byte()? {
            0 => None,
            1 => Some(true),
            2 => Some(false),
            _ => return None,
        };
        answers.push(Answered { checked, answer: r.text()? });
    }
    (r.at == content.len()).then_some(HandIn { assignment, student, answers })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let part = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some(part)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn text(&mut self) -> Option<String> {
        let n = usize::from(self.byte()?);
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

/// Crockford base32 of `bytes`, most significant bit first, the last group padded with zeros.
fn base32(bytes: &[u8]) -> String {
    let mut out = String::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((acc >> bits) & 31) as usize] as char);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push(ALPHABET[((acc << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// The bytes of a Crockford base32 text; the padding bits must be zero (so that no two texts
/// give the same bytes and a changed padding bit is a wrong code, not a silent one).
fn unbase32(text: &str) -> Result<Vec<u8>, CodeError> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in text.chars().enumerate() {
        let c = match c {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        let v = ALPHABET
            .iter()
            .position(|&a| a as char == c)
            .ok_or(CodeError::BadCharacter { position: i + 1, found: c })? as u32;
        acc = (acc << 5) | v;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 5 || acc != 0 {
        return Err(CodeError::Checksum);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_round_trips() {
        for len in 0..40u8 {
            let bytes: Vec<u8> = (0..len).map(|i| i.wrapping_mul(37).wrapping_add(len)).collect();
            assert_eq!(unbase32(&base32(&bytes)).unwrap(), bytes);
        }
    }
}

//! Solutions by hand of the numeric exercises, one file per group of three chapters. Each takes the numbers its question states (`given`, in the order
//! the formula reads them) and gives the answer in the question's unit.

mod ch01_03;
mod ch04_06;
mod ch07_09;
mod ch10_12;
mod ch13_15;

/// One exercise solved by hand.
pub struct Solution {
    pub id: &'static str,
    /// The numbers the formula uses, each written in the question (en and zh) as it is here:
    /// as written (`3.35` of `3.35 TB/s`) or with its multiplier word (`8.03e9` of `8.03 billion`).
    pub given: &'static [f64],
    /// The answer, in the question's unit, from `given`.
    pub solve: fn(&[f64]) -> f64,
}

pub fn all() -> impl Iterator<Item = &'static Solution> {
    ch01_03::SOLUTIONS
        .iter()
        .chain(ch04_06::SOLUTIONS)
        .chain(ch07_09::SOLUTIONS)
        .chain(ch10_12::SOLUTIONS)
        .chain(ch13_15::SOLUTIONS)
}

pub fn find(id: &str) -> Option<&'static Solution> {
    all().find(|s| s.id == id)
}

use super::Solution;

pub const SOLUTIONS: &[Solution] = &[];

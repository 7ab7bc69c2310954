//! The exercises of each chapter, one file per chapter, both languages side by side.
//! Numeric keys are engine computations ([`Calc`]); choice keys are typed and reviewed.

use super::{Answer, Calc, Exercise, Text};
use crate::engine::precision::compute::ComputeDtype;

mod ch01_05;
mod ch06_10;
mod ch11_15;

/// A number from the report of `scenario` at `path`, times `scale`.
const fn report(
    scenario: &'static str,
    path: &'static str,
    scale: f64,
    decimals: usize,
    tolerance: f64,
) -> Answer {
    Answer::Number { calc: Calc::Report { scenario, path }, scale, decimals, tolerance }
}

/// A number from a named engine function.
const fn engine(calc: Calc, scale: f64, decimals: usize, tolerance: f64) -> Answer {
    Answer::Number { calc, scale, decimals, tolerance }
}

const fn choice(values: &'static [&'static str], key: &'static str) -> Answer {
    Answer::Choice { values, key }
}

/// Words of a numeric exercise.
const fn num(question: &'static str, unit: &'static str, hint: &'static str, solution: &'static str) -> Text {
    Text { question, unit, options: &[], hint, solution }
}

/// Words of a choice.
const fn pick(
    question: &'static str,
    options: &'static [&'static str],
    hint: &'static str,
    solution: &'static str,
) -> Text {
    Text { question, unit: "", options, hint, solution }
}

const BF16: ComputeDtype = ComputeDtype::Bf16;

pub static CHAPTERS: &[(&str, &[Exercise])] = &[
    ("introduction", ch01_05::INTRODUCTION),
    ("memory-capacity", ch01_05::MEMORY_CAPACITY),
    ("memory-bandwidth", ch01_05::MEMORY_BANDWIDTH),
    ("cuda", ch01_05::CUDA),
    ("tensor-cores", ch01_05::TENSOR_CORES),
    ("reading-spec-sheets", ch06_10::READING_SPEC_SHEETS),
    ("nvlink", ch06_10::NVLINK),
    ("mig", ch06_10::MIG),
    ("cloud-gpus", ch06_10::CLOUD_GPUS),
    ("training-finetuning-inference", ch06_10::TRAINING),
    ("bottlenecks", ch11_15::BOTTLENECKS),
    ("learning-path", ch11_15::LEARNING_PATH),
    ("capacity-estimation", ch11_15::CAPACITY_ESTIMATION),
    ("gpu-clusters", ch11_15::GPU_CLUSTERS),
    ("sharing-gpus", ch11_15::SHARING_GPUS),
];

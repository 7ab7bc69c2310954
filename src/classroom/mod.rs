//! The classroom: every student their own numbers, keys computed by the engine, and the
//! course's exercises in the school's learning-management system.
//!
//! - [`draw`]: the seed of a variant and the draws from it (the same in the browser and CLI).
//! - [`variant`]: exercises with parameters and a student's variant, keyed by the engine.
//! - [`export`]: a set of variants as a Moodle XML question bank or a QTI 2.1 package.
//! - [`assignment`]: the exercises a teacher picked, carried whole in the students' link.
//! - [`handin`]: the code a student pastes when done; [`gradebook`]: the teacher's table of them.

pub mod assignment;
pub mod draw;
pub mod export;
pub mod gradebook;
pub mod handin;
pub mod page;
mod params_data;
pub mod variant;

pub use variant::{variant_seed, Parametric, Variant};

/// Every parametric exercise.
pub fn all() -> &'static [Parametric] {
    params_data::PARAMETRIC
}

/// The parametric exercise generalising chapter exercise `id`.
pub fn find(id: &str) -> Option<&'static Parametric> {
    all().iter().find(|p| p.id == id)
}

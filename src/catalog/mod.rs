//! Typed catalogs (GPUs, models, interconnects, MIG profiles, cloud instances), each entry with its source.

pub mod gpus;
pub mod instances;
pub mod interconnects;
pub mod mig;
pub mod models;

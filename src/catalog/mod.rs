//! Typed catalogs (GPUs, models, interconnects, MIG profiles, cloud instances), each entry with
//! its source. The catalog is data over the engine's types (`engine::gpu::Gpu`,
//! `engine::model::Architecture`, `engine::links::Link`); the engine never imports
//! it, and reads it only through [`Catalog`], its implementation of [`crate::engine::Lookup`].

pub mod gpus;
pub mod instances;
pub mod interconnects;
mod json;
pub mod mig;
pub mod models;
pub mod on_chip;
mod prices;
pub mod team;

use crate::engine::gpu::Gpu;
use crate::engine::links::Link;
use crate::engine::lookup::{Lookup, ModelEntry, Network, Price};
use crate::engine::model::Architecture;
use crate::engine::report::{ModelInfo, Report};
use crate::engine::scenario::{ModelSpec, Scenario};
use crate::engine::{EngineError, ScenarioError};
use std::borrow::Cow;

pub use prices::default_price_per_gpu_hour;

/// The embedded catalog as the engine's [`Lookup`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Catalog;

impl Lookup for Catalog {
    fn model(&self, id: &str) -> Option<(Cow<'_, Architecture>, ModelEntry)> {
        let entry = models::find(id)?;
        let model = ModelEntry {
            id: entry.model.id.clone(),
            name: entry.model.name.clone(),
            source: entry.model.source.clone(),
        };
        Some((Cow::Borrowed(&entry.architecture), model))
    }

    fn model_ids(&self) -> Vec<String> {
        models::ids().into_iter().map(str::to_owned).collect()
    }

    fn gpu(&self, id: &str) -> Option<Cow<'_, Gpu>> {
        gpus::find(id).map(Cow::Borrowed)
    }

    fn gpu_ids(&self) -> Vec<String> {
        gpus::all().iter().map(|g| g.id.clone()).collect()
    }

    fn price_per_gpu_hour(&self, gpu_id: &str) -> Option<Price> {
        default_price_per_gpu_hour(gpu_id)
            .map(|(usd_per_gpu_hour, source)| Price { usd_per_gpu_hour, source })
    }

    fn network(&self, network: Network) -> Option<Link> {
        let id = match network {
            Network::InfinibandNdr => "ib-ndr",
            Network::InfinibandHdr => "ib-hdr",
            Network::EfaP5 => "efa-p5",
        };
        interconnects::find(id).map(|i| i.link())
    }
}

/// Evaluates a scenario against the embedded catalog: what the CLI, the UI and the tests call.
pub fn evaluate(s: &Scenario) -> Result<Report, EngineError> {
    crate::engine::evaluate_with(s, &Catalog)
}

/// The per-GPU memory and fit of a scenario against the embedded catalog, without the time
/// model (what the advice and the link repair ask many times per edit).
pub fn memory_fit(s: &Scenario) -> Result<crate::engine::fit::MemoryFit, EngineError> {
    crate::engine::fit::memory_fit_with(s, &Catalog)
}

/// What runs on one machine ([`crate::engine::local::local_fit_with`]) against the catalog.
pub fn local_fit(s: &Scenario) -> Result<crate::engine::local::LocalFit, EngineError> {
    crate::engine::local::local_fit_with(s, &Catalog)
}

/// The architecture a scenario's model names (catalog id or pasted config), with its metadata.
pub fn resolve_model(spec: &ModelSpec) -> Result<(Cow<'static, Architecture>, ModelInfo), ScenarioError> {
    crate::engine::evaluate::resolve_model(spec, &Catalog)
}

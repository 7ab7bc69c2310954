//! What the engine needs from a catalog, as a trait: the engine names catalog ids (a model id,
//! a GPU id, the network of a topology) but never imports the catalog. the catalog's `Catalog`
//! implements it over the embedded data; a test can implement it over a handful of entries.

use super::gpu::Gpu;
use super::links::Link;
use super::model::Architecture;
use std::borrow::Cow;

/// A network joining nodes, named by the topologies the engine offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Network {
    /// InfiniBand NDR, one 400 Gbit/s port per GPU.
    InfinibandNdr,
    /// InfiniBand HDR, 200 Gbit/s per GPU.
    InfinibandHdr,
    /// AWS EFA as in p5 instances (400 Gbit/s per GPU).
    EfaP5,
}

/// What the catalog says of a model besides its architecture: its id, its name and the page its
/// config was published on (the report's `model` adds what the architecture says).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelEntry {
    pub id: String,
    pub name: String,
    pub source: String,
}

/// A dated price per GPU-hour and the instance it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Price {
    pub usd_per_gpu_hour: f64,
    /// The instance, region, date and instance price it was derived from (a citation).
    pub source: String,
}

/// Read access to the catalog data the engine resolves ids against.
pub trait Lookup: std::fmt::Debug {
    /// A catalog model's architecture and what the catalog says of it.
    fn model(&self, id: &str) -> Option<(Cow<'_, Architecture>, ModelEntry)>;
    /// Every catalog model id (for the "unknown id" message).
    fn model_ids(&self) -> Vec<String>;
    /// A catalog GPU.
    fn gpu(&self, id: &str) -> Option<Cow<'_, Gpu>>;
    /// Every catalog GPU id.
    fn gpu_ids(&self) -> Vec<String>;
    /// The cheapest dated on-demand price per GPU-hour for a catalog GPU.
    fn price_per_gpu_hour(&self, gpu_id: &str) -> Option<Price>;
    /// The per-GPU link of a network.
    fn network(&self, network: Network) -> Option<Link>;
}

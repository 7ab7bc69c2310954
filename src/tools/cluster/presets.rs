//! The calculator's examples: the page's (two pools, three teams, four light services) and the
//! sharing chapter's (ten notebooks on A100s used six hours a day, three 7B chat services on
//! H100s). Team and service names are in the page's language ([`Names`]).

use super::{Need, PoolRow, ServiceRow, State, TeamRow, Used, DEFAULT_RECLAIM};

/// The GPU a pool falls back to when a link names one the catalog lacks.
pub const FALLBACK_GPU: &str = "h100-sxm";
/// The chapter's example GPU for notebooks (the Azure NC24ads A100 v4's A100 80 GB PCIe).
pub const CHAPTER_NOTEBOOK_GPU: &str = "a100-pcie-80gb";
/// The MIG GPU of both examples (the p5.48xlarge's H100 80 GB SXM).
pub const MIG_GPU: &str = "h100-sxm";
/// The chapter's light service: a 7B chat model.
pub const CHAPTER_SERVICE_MODEL: &str = "qwen2.5-7b";
/// How many such services the chapter slices.
pub const CHAPTER_SERVICES: usize = 3;

/// Example names in the page's language.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    pub research: &'static str,
    pub product: &'static str,
    pub data: &'static str,
    pub notebooks: &'static str,
    pub chat: &'static str,
    pub search: &'static str,
    pub classifier: &'static str,
}

fn price(gpu: &str) -> f64 {
    super::default_price(gpu).unwrap_or(1.0)
}

/// The page's example: a training pool of 16 H100s shared by research and product, a development
/// pool of 8 A100s with notebooks, and four light services that each hold an H100 today.
pub fn page(n: &Names) -> State {
    State {
        pools: vec![PoolRow::new("h100-sxm", 16.0), PoolRow::new(CHAPTER_NOTEBOOK_GPU, 8.0)],
        teams: vec![
            TeamRow { quota: 10.0, used: Used::Percent(70.0), ..TeamRow::new(0, n.research.into()) },
            TeamRow {
                quota: 4.0,
                used: Used::Percent(40.0),
                lends: false,
                waiting: 600.0,
                ..TeamRow::new(0, n.product.into())
            },
            TeamRow {
                quota: 6.0,
                used: Used::Percent(25.0),
                notebooks: 6.0,
                active_hours: 6.0,
                stretches: 2.0,
                ..TeamRow::new(1, n.data.into())
            },
        ],
        reclaim: Some(DEFAULT_RECLAIM),
        mig_gpu: MIG_GPU.into(),
        mig_price: price(MIG_GPU),
        services: vec![
            ServiceRow { name: format!("{} 1", n.chat), need: Need::Model(CHAPTER_SERVICE_MODEL.into()) },
            ServiceRow { name: format!("{} 2", n.chat), need: Need::Model(CHAPTER_SERVICE_MODEL.into()) },
            ServiceRow { name: n.search.into(), need: Need::Gb(12.0) },
            ServiceRow { name: n.classifier.into(), need: Need::Model("llama-3.2-3b".into()) },
        ],
    }
}

/// The sharing chapter's example: ten notebooks each holding an A100 80 GB all day and used for
/// six (one idle stretch of 18 hours a day), reclaimed after one idle hour; three 7B chat
/// services that each hold an H100 today.
pub fn chapter(n: &Names) -> State {
    State {
        pools: vec![PoolRow::new(CHAPTER_NOTEBOOK_GPU, 10.0)],
        teams: vec![TeamRow {
            quota: 10.0,
            used: Used::Percent(25.0),
            notebooks: 10.0,
            active_hours: 6.0,
            stretches: 1.0,
            lends: false,
            ..TeamRow::new(0, n.notebooks.into())
        }],
        reclaim: Some(DEFAULT_RECLAIM),
        mig_gpu: MIG_GPU.into(),
        mig_price: price(MIG_GPU),
        services: (1..=CHAPTER_SERVICES)
            .map(|i| ServiceRow {
                name: format!("{} {i}", n.chat),
                need: Need::Model(CHAPTER_SERVICE_MODEL.into()),
            })
            .collect(),
    }
}

/// A preset by its name in a chapter slot (`{{widget:cluster:sharing}}`).
pub fn named(name: &str, n: &Names) -> Option<State> {
    match name {
        "sharing" => Some(chapter(n)),
        "example" => Some(page(n)),
        _ => None,
    }
}

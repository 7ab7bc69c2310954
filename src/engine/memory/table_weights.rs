//! Weight bytes from a llama.cpp tensor table ([`crate::engine::model::tensors::TensorTable`]): the exact
//! sum of the tensors a stage holds, each in its own ggml type.
//!
//! # Formula
//! `bytes = Σ_{tensors of layers in the stage} nbytes + (first stage: token_embd) + (last stage:
//! output layer)`, each tensor `elements / block(type) × bytes(type)`; matrices are split over
//! the tensor-parallel group like the other formats ([`super::weights`]).

use super::expert_parallel::ExpertLayout;
use super::weights::StageWeights;
use crate::engine::model::tensors::TensorTable;
use crate::engine::model::tensors::{Part, Role};

/// The layers `layers` of a table as parts (dense and routed experts).
fn layer_parts(layers: &std::ops::Range<usize>) -> [Part; 2] {
    let from = u32::try_from(layers.start).unwrap_or(u32::MAX);
    let to = u32::try_from(layers.end).unwrap_or(u32::MAX);
    [Part::LayersDense { from, to }, Part::LayersExperts { from, to }]
}

/// What one GPU of a stage holding `layers` stores (`tp` splits the matrices, the routed
/// experts are held as `experts` lays them out, [`super::expert_parallel`]).
pub fn stage_weights_table(
    t: &TensorTable,
    tp: u64,
    experts: &ExpertLayout,
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
) -> StageWeights {
    let tp = u128::from(tp.max(1));
    let mut parts: Vec<Part> = layer_parts(&layers).to_vec();
    if first {
        parts.push(Part::TokenEmbd);
    }
    if last {
        parts.push(Part::OutputLayer);
    }
    let tied = !t.tensors.iter().any(|x| x.role == Role::Output);
    let mut bytes: u128 = parts.iter().map(|p| t.bytes(*p)).sum();
    let mut params: u128 = parts.iter().map(|p| t.elements(*p)).sum();
    if last && tied && !first {
        // The tied head is the embedding, stored again on the last stage.
        bytes += t.bytes(Part::TokenEmbd);
        params += t.elements(Part::TokenEmbd);
    }
    let vectors: u128 = t
        .tensors
        .iter()
        .filter(|x| x.role == Role::Vector && parts.iter().any(|p| p.takes(x)))
        .map(|x| x.elements)
        .sum();
    let largest = layers
        .clone()
        .map(|l| layer_parts(&(l..l + 1)).iter().map(|p| t.elements(*p)).sum::<u128>())
        .chain(first.then(|| t.elements(Part::TokenEmbd)))
        .max()
        .unwrap_or(0);
    // The routed experts as expert parallelism holds them, the rest over TP.
    let [_, expert_part] = layer_parts(&layers);
    let (expert_bytes, expert_params) = (t.bytes(expert_part), t.elements(expert_part));
    let split =
        |all: u128, of_experts: u128| all.saturating_sub(of_experts).div_ceil(tp) + experts.share(of_experts);
    StageWeights {
        params: split(params, expert_params),
        matrix_params: split(params.saturating_sub(vectors), expert_params),
        bytes: split(bytes, expert_bytes),
        largest_layer_params: largest.div_ceil(tp),
        expert_params: experts.share(expert_params),
        expert_bytes: experts.share(expert_bytes),
    }
}

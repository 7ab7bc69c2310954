//! A model as llama.cpp stores it: a table of tensors, each with its role, its layer, its row
//! length and its ggml type. Built from a GGUF file's tensor table
//! ([`crate::engine::gguf::read`]) or, for a catalog model in a file type, from the architecture
//! ([`crate::engine::gguf::layout`]) with the quantizer's rules ([`crate::engine::gguf::mix`]).
//!
//! In a config (the key `gguf`, and so in a scenario's link) the table travels as runs:
//! consecutive layers whose tensor of a role has the same row, size and type are one entry
//! `[role, first layer, last layer, row, elements, type]` (`-1` for no layer), so a scenario
//! holding a 70B file stays a short link.
//!
//! # Formula
//! Bytes of the model = Σ over tensors of `elements / block(type) × bytes(type)`: what
//! llama.cpp's loader sums (`n_bytes += ggml_nbytes(cur)`) and prints as "file size" and
//! llama-bench as "size", in GiB = 2^30 bytes (`src/llama-model-loader.cpp`, @00347649).

use crate::engine::precision::ggml_type::GgmlType;
use serde::Serialize;
use serde_json::{json, Value};

/// What a tensor is, as llama.cpp's quantizer tells them apart by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// `token_embd.weight` (and Gemma's `per_layer_token_embd.weight`): rows are gathered, and
    /// llama.cpp keeps it in host memory.
    TokenEmbd,
    /// `output.weight`: the head (absent when tied to the embedding).
    Output,
    AttnQ,
    AttnK,
    AttnV,
    /// Fused q, k, v (Phi-3, Falcon, GPT-2).
    AttnQkv,
    AttnOutput,
    /// MLA's key/value up-projection (DeepSeek).
    AttnKvB,
    FfnGate,
    FfnUp,
    FfnDown,
    /// Any other matrix the quantizer quantises with the main type (MLA's low-rank
    /// projections, Mamba's projections, …).
    Other,
    /// A matrix the quantizer leaves as the converter wrote it (position embeddings, the MoE
    /// router, convolution kernels): 16 bits.
    Kept,
    /// A vector (norms, biases, scales): 32-bit float.
    Vector,
}

/// One tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Tensor {
    pub role: Role,
    /// The decoder layer (`blk.N.`), `None` for the embedding, the head and the final norm.
    pub layer: Option<u32>,
    /// Row length `ne[0]` (the quantizer needs whole blocks per row).
    pub row: u64,
    pub elements: u128,
    /// A routed-experts tensor (`ffn_*_exps`, 3-D: one slice per expert).
    pub experts: bool,
    pub ty: GgmlType,
}

impl Tensor {
    /// `ggml_nbytes`.
    pub fn bytes(&self) -> u128 {
        self.ty.bytes_for(self.elements)
    }
}

/// Which tensors a sum takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Every tensor.
    All,
    /// The embedding table (host memory in llama.cpp).
    TokenEmbd,
    /// The head and the final norm: llama.cpp's output layer.
    OutputLayer,
    /// Tensors of decoder layers `from..to` that are not routed experts.
    LayersDense { from: u32, to: u32 },
    /// Routed-expert tensors of decoder layers `from..to`.
    LayersExperts { from: u32, to: u32 },
}

impl Part {
    /// Whether `t` belongs to this part.
    pub fn takes(self, t: &Tensor) -> bool {
        match self {
            Part::All => true,
            Part::TokenEmbd => t.role == Role::TokenEmbd,
            Part::OutputLayer => t.layer.is_none() && t.role != Role::TokenEmbd,
            Part::LayersDense { from, to } => t.layer.is_some_and(|l| (from..to).contains(&l)) && !t.experts,
            Part::LayersExperts { from, to } => t.layer.is_some_and(|l| (from..to).contains(&l)) && t.experts,
        }
    }
}

/// Running sums of bytes and elements, so that a part's sum is a difference of two entries
/// (the sizing asks for layer ranges many times per evaluation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct Sum {
    bytes: u128,
    elements: u128,
}

impl Sum {
    fn add(self, t: &Tensor) -> Sum {
        Sum { bytes: self.bytes + t.bytes(), elements: self.elements + t.elements }
    }
}

/// A model's tensors in llama.cpp's loader order, with their sums by part.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TensorTable {
    pub tensors: Vec<Tensor>,
    /// `dense[l]`, `experts[l]`: the sums over layers `0..l` (one more entry than layers).
    #[serde(skip)]
    dense: Vec<Sum>,
    #[serde(skip)]
    experts: Vec<Sum>,
    #[serde(skip)]
    token_embd: Sum,
    #[serde(skip)]
    output_layer: Sum,
}

impl TensorTable {
    /// A table of these tensors, summed by part.
    pub fn new(tensors: Vec<Tensor>) -> TensorTable {
        let layers = tensors.iter().filter_map(|t| t.layer).max().map_or(0, |l| l as usize + 1);
        let mut dense = vec![Sum::default(); layers + 1];
        let mut experts = vec![Sum::default(); layers + 1];
        let (mut token_embd, mut output_layer) = (Sum::default(), Sum::default());
        for t in &tensors {
            match t.layer {
                Some(l) => {
                    let sums = if t.experts { &mut experts } else { &mut dense };
                    if let Some(s) = sums.get_mut(l as usize + 1) {
                        *s = s.add(t);
                    }
                }
                None if t.role == Role::TokenEmbd => token_embd = token_embd.add(t),
                None => output_layer = output_layer.add(t),
            }
        }
        for sums in [&mut dense, &mut experts] {
            for i in 1..sums.len() {
                let (before, rest) = sums.split_at_mut(i);
                if let (Some(prev), Some(cur)) = (before.last(), rest.first_mut()) {
                    *cur = Sum { bytes: cur.bytes + prev.bytes, elements: cur.elements + prev.elements };
                }
            }
        }
        TensorTable { tensors, dense, experts, token_embd, output_layer }
    }

    /// The sum over `part`.
    fn sum(&self, part: Part) -> Sum {
        let range = |sums: &[Sum], from: u32, to: u32| {
            let last = sums.len().saturating_sub(1);
            let (a, b) = ((from as usize).min(last), (to as usize).min(last));
            let (lo, hi) =
                (sums.get(a).copied().unwrap_or_default(), sums.get(b.max(a)).copied().unwrap_or_default());
            Sum { bytes: hi.bytes - lo.bytes, elements: hi.elements - lo.elements }
        };
        match part {
            Part::All => {
                let (d, e) = (range(&self.dense, 0, u32::MAX), range(&self.experts, 0, u32::MAX));
                Sum {
                    bytes: d.bytes + e.bytes + self.token_embd.bytes + self.output_layer.bytes,
                    elements: d.elements + e.elements + self.token_embd.elements + self.output_layer.elements,
                }
            }
            Part::TokenEmbd => self.token_embd,
            Part::OutputLayer => self.output_layer,
            Part::LayersDense { from, to } => range(&self.dense, from, to),
            Part::LayersExperts { from, to } => range(&self.experts, from, to),
        }
    }

    /// Bytes of the tensors in `part`.
    pub fn bytes(&self, part: Part) -> u128 {
        self.sum(part).bytes
    }

    /// Elements of the tensors in `part`.
    pub fn elements(&self, part: Part) -> u128 {
        self.sum(part).elements
    }

    /// Bytes per weight over the whole model, `8 × bytes / elements` (llama.cpp's "BPW").
    pub fn bits_per_weight(&self) -> f64 {
        let e = self.elements(Part::All);
        if e == 0 {
            return 0.0;
        }
        8.0 * self.bytes(Part::All) as f64 / e as f64
    }

    /// How many tensors of each type, most bytes first (the loader's `- type q4_K: 193 tensors`).
    pub fn type_counts(&self) -> Vec<TypeCount> {
        let mut out: Vec<TypeCount> = Vec::new();
        for t in &self.tensors {
            match out.iter_mut().find(|c| c.ty == t.ty) {
                Some(c) => {
                    c.tensors += 1;
                    c.bytes += t.bytes();
                }
                None => out.push(TypeCount { ty: t.ty, tensors: 1, bytes: t.bytes() }),
            }
        }
        out.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.ty.cmp(&b.ty)));
        out
    }

    /// The type most of the matrices' bytes are in.
    pub fn main_type(&self) -> GgmlType {
        self.type_counts().first().map_or(GgmlType::F16, |c| c.ty)
    }

    /// Decoder layers the table holds (one more than the highest `blk.N`).
    pub fn layers(&self) -> u32 {
        self.tensors.iter().filter_map(|t| t.layer).max().map_or(0, |l| l.saturating_add(1))
    }
}

/// Tensors and bytes of one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TypeCount {
    pub ty: GgmlType,
    pub tensors: u32,
    pub bytes: u128,
}

/// A tensor's role and layer from its GGUF name (`blk.12.attn_v.weight`), as the quantizer's
/// substring tests read it (`src/llama-quant.cpp`); `dims` tells vectors from matrices.
pub fn classify(name: &str, dims: u32) -> (Role, Option<u32>, bool) {
    let (layer, rest) = match name.strip_prefix("blk.") {
        Some(r) => {
            let (n, rest) = r.split_once('.').unwrap_or((r, ""));
            (n.parse::<u32>().ok(), rest)
        }
        None => (None, name),
    };
    let experts = rest.contains("_exps") || rest.contains("_chexps");
    let role = if dims < 2 || rest.contains("_norm") {
        Role::Vector
    } else if rest == "token_embd.weight" || rest == "per_layer_token_embd.weight" {
        Role::TokenEmbd
    } else if rest == "output.weight" {
        Role::Output
    } else if rest.contains("attn_qkv.weight") {
        Role::AttnQkv
    } else if rest.contains("attn_kv_b.weight") {
        Role::AttnKvB
    } else if rest.contains("attn_v.weight") {
        Role::AttnV
    } else if rest.contains("attn_k.weight") {
        Role::AttnK
    } else if rest.contains("attn_q.weight") {
        Role::AttnQ
    } else if rest.contains("attn_output.weight") {
        Role::AttnOutput
    } else if rest.contains("ffn_gate_inp") || rest.contains("position_embd") || rest.contains("conv1d") {
        Role::Kept
    } else if rest.contains("ffn_down") {
        Role::FfnDown
    } else if rest.contains("ffn_gate") {
        Role::FfnGate
    } else if rest.contains("ffn_up") {
        Role::FfnUp
    } else {
        Role::Other
    };
    (role, layer, experts)
}

/// The role's name in a run (`ffn_down_exps` for a routed-experts tensor).
fn role_name(role: Role, experts: bool) -> String {
    let base =
        serde_json::to_value(role).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
    if experts {
        format!("{base}_exps")
    } else {
        base
    }
}

const ROLES: [Role; 14] = [
    Role::TokenEmbd,
    Role::Output,
    Role::AttnQ,
    Role::AttnK,
    Role::AttnV,
    Role::AttnQkv,
    Role::AttnOutput,
    Role::AttnKvB,
    Role::FfnGate,
    Role::FfnUp,
    Role::FfnDown,
    Role::Other,
    Role::Kept,
    Role::Vector,
];

/// The table as runs (see the module doc).
pub fn table_to_runs(t: &TensorTable) -> Value {
    let mut runs: Vec<(Tensor, i64, i64)> = Vec::new();
    for x in &t.tensors {
        let l = x.layer.map_or(-1, i64::from);
        let merged = runs.iter_mut().rev().take(64).find(|(r, _, last)| {
            r.role == x.role
                && r.experts == x.experts
                && r.row == x.row
                && r.elements == x.elements
                && r.ty == x.ty
                && l > 0
                && *last + 1 == l
        });
        match merged {
            Some(run) => run.2 = l,
            None => runs.push((*x, l, l)),
        }
    }
    Value::Array(
        runs.iter()
            .map(|(x, a, b)| {
                json!([role_name(x.role, x.experts), a, b, x.row, x.elements.to_string(), x.ty.name()])
            })
            .collect(),
    )
}

/// What is wrong with the runs of a `gguf` key (the index of the bad run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRun(pub usize);

/// The table from its runs.
pub fn table_from_runs(v: &Value) -> Result<TensorTable, BadRun> {
    let Value::Array(runs) = v else {
        return Err(BadRun(0));
    };
    let mut tensors = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let bad = || BadRun(i);
        let r = run.as_array().ok_or_else(bad)?;
        let name = r.first().and_then(Value::as_str).ok_or_else(bad)?;
        let (base, experts) = name.strip_suffix("_exps").map_or((name, false), |b| (b, true));
        let role = ROLES.iter().copied().find(|x| role_name(*x, false) == base).ok_or_else(bad)?;
        let from = r.get(1).and_then(Value::as_i64).ok_or_else(bad)?;
        let to = r.get(2).and_then(Value::as_i64).ok_or_else(bad)?;
        let row = r.get(3).and_then(Value::as_u64).filter(|n| *n > 0).ok_or_else(bad)?;
        let elements = r.get(4).and_then(|e| match e {
            Value::String(s) => s.parse::<u128>().ok(),
            other => other.as_u64().map(u128::from),
        });
        let elements = elements.filter(|e| *e > 0 && *e < 1 << 50).ok_or_else(bad)?;
        let ty = r.get(5).and_then(Value::as_str).and_then(GgmlType::parse).ok_or_else(bad)?;
        if from < -1 || to < from || to >= 100_000 || (from == -1) != (to == -1) || tensors.len() > 1_000_000
        {
            return Err(bad());
        }
        let layers = if from < 0 { vec![None] } else { (from..=to).map(|l| u32::try_from(l).ok()).collect() };
        for layer in layers {
            tensors.push(Tensor { role, layer, row, elements, experts, ty });
        }
    }
    Ok(TensorTable::new(tensors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_the_quantizers_roles() {
        assert_eq!(classify("blk.12.attn_v.weight", 2), (Role::AttnV, Some(12), false));
        assert_eq!(classify("blk.3.ffn_down_exps.weight", 3), (Role::FfnDown, Some(3), true));
        assert_eq!(classify("blk.3.ffn_gate_inp.weight", 2), (Role::Kept, Some(3), false));
        assert_eq!(classify("blk.0.attn_norm.weight", 1), (Role::Vector, Some(0), false));
        assert_eq!(classify("token_embd.weight", 2), (Role::TokenEmbd, None, false));
        assert_eq!(classify("output.weight", 2), (Role::Output, None, false));
        assert_eq!(classify("output_norm.weight", 1), (Role::Vector, None, false));
        assert_eq!(classify("blk.1.ffn_up_shexp.weight", 2), (Role::FfnUp, Some(1), false));
        assert_eq!(classify("blk.1.ssm_in.weight", 2), (Role::Other, Some(1), false));
    }

    #[test]
    fn parts_split_the_table() {
        let t =
            |role, layer, experts| Tensor { role, layer, row: 32, elements: 64, experts, ty: GgmlType::Q8_0 };
        let table = TensorTable::new(vec![
            t(Role::TokenEmbd, None, false),
            t(Role::Output, None, false),
            t(Role::AttnQ, Some(0), false),
            t(Role::FfnUp, Some(1), true),
        ]);
        assert_eq!(table.bytes(Part::All), 4 * 68);
        assert_eq!(table.bytes(Part::TokenEmbd), 68);
        assert_eq!(table.bytes(Part::OutputLayer), 68);
        assert_eq!(table.bytes(Part::LayersDense { from: 0, to: 2 }), 68);
        assert_eq!(table.bytes(Part::LayersExperts { from: 1, to: 2 }), 68);
        assert_eq!(table.layers(), 2);
        assert_eq!(table.bits_per_weight(), 8.5);
    }

    #[test]
    fn bad_runs_are_named_by_index() {
        assert_eq!(
            table_from_runs(&json!([["attn_q", 0, 1, 64, "4096", "Q8_0"], ["attn_q", 0]])),
            Err(BadRun(1))
        );
        assert_eq!(table_from_runs(&json!([["wat", -1, -1, 64, "64", "Q8_0"]])), Err(BadRun(0)));
        assert_eq!(table_from_runs(&json!([["attn_q", 3, 1, 64, "64", "Q8_0"]])), Err(BadRun(0)));
        assert_eq!(table_from_runs(&json!({"a": 1})), Err(BadRun(0)));
    }
}

//! LoRA adapter parameters (Hu et al. 2021): a targeted linear `W (in × out)` gets
//! `A (in × r)` and `B (r × out)`, i.e. `r · (in + out)` trainable parameters.
//!
//! Targets use the Llama module names. Fused modules (Phi-3 `qkv_proj`/`gate_up_proj`,
//! Falcon `query_key_value`, GPT-2 `c_attn`) get one adapter over the fused width when any of
//! their parts is targeted. MLA (DeepSeek): `q_proj` maps to `q_a_proj` + `q_b_proj`,
//! `k_proj`/`v_proj` to `kv_a_proj_with_mqa` + `kv_b_proj`. MoE layers give every routed and
//! shared expert its own adapters on gate/up/down.

use super::Inputs;
use crate::engine::model::{Architecture, MlpKind};

const Q: usize = 0;
const K: usize = 1;
const V: usize = 2;
const O: usize = 3;
const GATE: usize = 4;
const UP: usize = 5;
const DOWN: usize = 6;

/// Adapter parameters of one feed-forward block of width `i`.
fn mlp_adapters(a: &Architecture, t: &[bool; 7], r: u128, i: u128) -> u128 {
    let h = u128::from(a.hidden);
    let mut n = 0;
    match a.mlp {
        MlpKind::Gated if a.fused_gate_up => {
            if t[GATE] || t[UP] {
                n += r * (h + 2 * i);
            }
        }
        MlpKind::Gated => {
            n += u128::from(t[GATE]) * r * (h + i) + u128::from(t[UP]) * r * (h + i);
        }
        MlpKind::Plain => {
            if t[GATE] || t[UP] {
                n += r * (h + i);
            }
        }
    }
    n + u128::from(t[DOWN]) * r * (i + h)
}

/// Adapter parameters in the given layers.
pub fn adapter_params(a: &Architecture, x: &Inputs, layers: std::ops::Range<usize>) -> u128 {
    let t = &x.lora_targets;
    let r = u128::from(x.lora_rank);
    let h = u128::from(a.hidden);
    let at = &a.attention;
    let (heads, kv, d, dv) =
        (u128::from(at.heads), u128::from(at.kv_heads), u128::from(at.head_dim), u128::from(at.v_head_dim));
    let attention = if let Some(m) = at.mla {
        let (r_kv, rope, nope, v) = (
            u128::from(m.kv_lora_rank),
            u128::from(m.qk_rope_head_dim),
            u128::from(m.qk_nope_head_dim),
            u128::from(m.v_head_dim),
        );
        let q = match m.q_lora_rank {
            Some(rq) => r * (h + u128::from(rq)) + r * (u128::from(rq) + heads * (nope + rope)),
            None => r * (h + heads * (nope + rope)),
        };
        let kv_ad = r * (h + r_kv + rope) + r * (r_kv + heads * (nope + v));
        u128::from(t[Q]) * q + u128::from(t[K] || t[V]) * kv_ad + u128::from(t[O]) * r * (heads * v + h)
    } else if at.fused_qkv {
        let out = heads * d + kv * d + kv * dv;
        u128::from(t[Q] || t[K] || t[V]) * r * (h + out) + u128::from(t[O]) * r * (heads * dv + h)
    } else {
        u128::from(t[Q]) * r * (h + heads * d)
            + u128::from(t[K]) * r * (h + kv * d)
            + u128::from(t[V]) * r * (h + kv * dv)
            + u128::from(t[O]) * r * (heads * dv + h)
    };
    let mut total = 0u128;
    for i in layers {
        // Hybrid models: q/k/v/o adapters only on attention layers, MLP adapters only where a
        // layer has a feed-forward block (Nemotron-H's Mamba and attention blocks have none).
        if a.is_attention_layer(i) {
            total += attention;
        }
        if !crate::engine::model::hybrid::has_ffn(a, i) {
            continue;
        }
        match (&a.moe, a.is_moe_layer(i)) {
            (Some(moe), true) => {
                total += u128::from(moe.routed_experts)
                    * mlp_adapters(a, t, r, u128::from(moe.expert_intermediate));
                if moe.shared_intermediate > 0 {
                    total += mlp_adapters(a, t, r, u128::from(moe.shared_intermediate));
                }
            }
            _ => total += mlp_adapters(a, t, r, u128::from(a.intermediate)),
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::models::find;
    use crate::engine::scenario::{ModelSpec, Scenario};

    fn inputs(rank: u64, targets: &[&str]) -> Inputs {
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        s.lora_rank = rank;
        s.lora_targets = targets.iter().map(|t| (*t).to_owned()).collect();
        Inputs::from_scenario(&s)
    }

    #[test]
    fn llama_2_7b_q_v_rank_8_is_4_194_304() {
        // PEFT's classic example: "trainable params: 4,194,304" (r=8, q_proj and v_proj)
        let a = &find("llama-2-7b").unwrap().architecture;
        assert_eq!(adapter_params(a, &inputs(8, &["q_proj", "v_proj"]), 0..32), 4_194_304);
    }

    #[test]
    fn all_linear_rank_16_on_llama_3_8b() {
        // per layer: q 16·(4096+4096) + k,v 16·(4096+1024)·2 + o 16·8192 + gate,up 16·(4096+14336)·2 + down 16·18432
        let a = &find("llama-3-8b").unwrap().architecture;
        let per_layer = 16 * 8192 + 2 * 16 * 5120 + 16 * 8192 + 2 * 16 * 18432 + 16 * 18432;
        assert_eq!(adapter_params(a, &inputs(16, &["all-linear"]), 0..32), 32 * per_layer);
        assert_eq!(32 * per_layer, 41_943_040);
    }
}

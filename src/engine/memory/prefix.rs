//! Prefix reuse: how much of each prompt is already in the KV cache when it arrives.
//!
//! vLLM (automatic prefix caching, on by default in V1: docs.vllm.ai, "Automatic Prefix
//! Caching", design/prefix_caching) and SGLang (RadixAttention: Zheng et al., "SGLang: Efficient
//! Execution of Structured Language Model Programs", NeurIPS 2024, §3) keep the KV blocks of
//! finished requests and reuse them for a new prompt that starts with the same tokens. Prefill
//! then computes only the uncached tokens, whose attention still reads the cached ones
//! ([`crate::engine::perf::phases::prefill_work`] with `past` = cached tokens); vLLM matches whole
//! blocks and always computes at least the prompt's last token (it needs its logits), so at most
//! `prompt − 1` tokens are cached.
//!
//! Three ways to say how much is cached, per request:
//! - a shared prefix of `s` tokens (a system prompt every request starts with);
//! - a multi-turn session of `T` turns, each appending `a` user tokens and generating `o`: turn
//!   `k` sends `s + (k − 1)(a + o) + a` tokens, of which `s + (k − 1)(a + o)` are the last
//!   turn's prompt and answer, already cached, so over the session the hit rate is
//!   `h = (s + (a + o)(T − 1)/2) / (s + (a + o)(T − 1)/2 + a)` ([`session_hit_rate`]) and the
//!   mean prompt `s + (a + o)(T − 1)/2 + a` ([`session_mean_prompt`]);
//! - a hit rate `h` given directly (a measured `vllm:prefix_cache_hits / queries`).
//!
//! Cached tokens per request `c = min(prompt − 1, max(s, round(h · prompt)))`.
//!
//! Memory: a shared prefix's full blocks are stored once per replica and referenced by every
//! sequence (vLLM's block hash table, SGLang's radix tree), so the KV cache holds
//! `⌊s/B⌋·B` tokens once plus `context − ⌊s/B⌋·B` per sequence (B = `kv_block_tokens`; a partial
//! last block is not shared). A hit rate alone does not say which running sequences share blocks
//! (a session's history is its own), so it saves compute, not memory. A model with
//! sliding-window layers (which keep only each sequence's last tokens) is counted without the
//! sharing: an upper bound on its KV cache.

use crate::engine::scenario::Scenario;

/// The hit rate of a session of `turns` turns, `appended` new tokens and `output` generated
/// tokens per turn, after a shared prefix of `shared` tokens (0 when `turns` or the prompt is 0).
/// Worked: T = 4, a = 200, o = 300, s = 0: (500 · 1.5) / (750 + 200) = 750/950 = 0.789.
pub fn session_hit_rate(turns: u64, appended: u64, output: u64, shared: u64) -> f64 {
    let cached = shared as f64 + (appended as f64 + output as f64) * turns.saturating_sub(1) as f64 / 2.0;
    let prompt = cached + appended as f64;
    if turns == 0 || prompt <= 0.0 {
        return 0.0;
    }
    cached / prompt
}

/// The mean prompt over such a session, tokens: `s + (a + o)(T − 1)/2 + a`.
pub fn session_mean_prompt(turns: u64, appended: u64, output: u64, shared: u64) -> f64 {
    shared as f64 + (appended as f64 + output as f64) * turns.saturating_sub(1) as f64 / 2.0 + appended as f64
}

/// The hit rate the scenario gives: `prefix_hit_rate`, else its session's, else 0.
pub fn hit_rate(s: &Scenario) -> f64 {
    match (s.prefix_hit_rate, s.session_turns) {
        (Some(h), _) => h.clamp(0.0, 1.0),
        (None, 0) => 0.0,
        (None, t) => {
            let (_, output) = s.resolved_prompt_output();
            let o = s.session_turn_output_tokens.unwrap_or(output);
            session_hit_rate(t, s.session_turn_tokens, o, s.prefix_shared_tokens)
        }
    }
}

/// Cached tokens of a prompt of `prompt` tokens: `min(prompt − 1, max(shared, round(h·prompt)))`.
pub fn cached_tokens(prompt: u64, shared: u64, hit_rate: f64) -> u64 {
    let by_rate = crate::engine::num::u64_from_f64((hit_rate.clamp(0.0, 1.0) * prompt as f64).round());
    shared.max(by_rate).min(prompt.saturating_sub(1))
}

/// The scenario's cached tokens per request (0 in training).
pub fn scenario_cached_tokens(s: &Scenario) -> u64 {
    if s.mode != crate::engine::workload::Mode::Inference {
        return 0;
    }
    let (prompt, _) = s.resolved_prompt_output();
    cached_tokens(prompt, s.prefix_shared_tokens, hit_rate(s))
}

/// Tokens of the shared prefix stored once per replica: its full blocks, `⌊s/B⌋·B` (0 in
/// training).
pub fn shared_block_tokens(s: &Scenario) -> u64 {
    if s.mode != crate::engine::workload::Mode::Inference {
        return 0;
    }
    let b = s.kv_block_tokens.max(1);
    (s.prefix_shared_tokens / b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sessions_hit_rate_by_hand() {
        // 4 turns of 200 typed and 300 generated tokens: turn k sends 200 + 500(k − 1) tokens
        // (200, 700, 1200, 1700: 3800 in all) of which 500(k − 1) are cached (0 + 500 + 1000 +
        // 1500 = 3000): 3000 / 3800 = 0.789, the mean prompt 950.
        assert!((session_hit_rate(4, 200, 300, 0) - 3000.0 / 3800.0).abs() < 1e-12);
        assert_eq!(session_mean_prompt(4, 200, 300, 0), 950.0);
        // A 1000-token system prompt before it: (1000 + 750) / (1000 + 750 + 200) = 0.897.
        assert!((session_hit_rate(4, 200, 300, 1000) - 1750.0 / 1950.0).abs() < 1e-12);
        // One turn: only the shared prefix is cached.
        assert!((session_hit_rate(1, 200, 300, 600) - 0.75).abs() < 1e-12);
        assert_eq!((session_hit_rate(0, 200, 300, 0), session_hit_rate(3, 0, 0, 0)), (0.0, 0.0));
    }

    #[test]
    fn cached_tokens_by_hand() {
        // Half of 1000 tokens; a 700-token shared prefix wins over it; the last token is always
        // computed.
        assert_eq!(cached_tokens(1000, 0, 0.5), 500);
        assert_eq!(cached_tokens(1000, 700, 0.5), 700);
        assert_eq!(cached_tokens(1000, 0, 1.0), 999);
        assert_eq!(cached_tokens(1000, 1000, 0.0), 999);
        assert_eq!((cached_tokens(0, 0, 1.0), cached_tokens(1, 1, 1.0)), (0, 0));
    }

    use crate::engine::scenario::{ModelSpec, Scenario};
    use crate::engine::Report;

    fn serving(edit: impl Fn(&mut Scenario)) -> Report {
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
        s.gpu = crate::engine::hardware::GpuSpec::Id("h100-sxm".into());
        s.context_tokens = 8192;
        s.prompt_tokens = Some(4096);
        s.output_tokens = Some(256);
        s.batch = 16;
        edit(&mut s);
        crate::catalog::evaluate(&s).unwrap()
    }

    #[test]
    fn prefill_computes_only_the_uncached_tokens_and_ttft_falls_with_the_hit_rate() {
        let mut last = f64::INFINITY;
        for h in [0.0, 0.25, 0.5, 0.75, 0.9, 1.0] {
            let r = serving(|s| s.prefix_hit_rate = Some(h));
            let t = &r.performance.time;
            assert_eq!(t.prefix_cached_tokens, cached_tokens(4096, 0, h));
            assert!(t.time_to_first_token_s <= last, "h {h}: {} > {last}", t.time_to_first_token_s);
            last = t.time_to_first_token_s;
            // A hit rate saves compute, not memory: the KV cache is the same.
            let base = serving(|_| ());
            assert_eq!(r.memory_per_gpu_bytes.kv_cache, base.memory_per_gpu_bytes.kv_cache);
        }
        // Half the prompt cached: the prefill's dense FLOPs halve, its attention does not (the
        // new half attends to the whole prompt, 3/4 of the full prompt's causal positions).
        let (full, half) = (serving(|_| ()), serving(|s| s.prefix_hit_rate = Some(0.5)));
        let ratio = half.performance.phases.prefill.flops / full.performance.phases.prefill.flops;
        assert!(ratio > 0.5 && ratio < 0.6, "{ratio}");
        assert!(half.derivations.keys().any(|k| k.path() == "time.prefix_cached_tokens"));
        assert!(!full.derivations.keys().any(|k| k.path() == "time.prefix_cached_tokens"));
    }

    #[test]
    fn a_shared_prefix_is_stored_once_so_more_sequences_fit() {
        let mut last = (u64::MAX, 0);
        for sp in [0, 1000, 2048, 4000, 4096] {
            let r = serving(|s| s.prefix_shared_tokens = sp);
            let kv = r.memory_per_gpu_bytes.kv_cache;
            let seqs = r.solvers.max_batch.unwrap();
            assert!(kv <= last.0 && seqs >= last.1, "s {sp}: kv {kv}, seqs {seqs}");
            last = (kv, seqs);
        }
        // Each sequence holds the 8192-token context; 4096 shared tokens (256 whole blocks of 16)
        // are stored once: 16 × 4096 + 4096 tokens against 16 × 8192.
        let (none, all) = (serving(|_| ()), serving(|s| s.prefix_shared_tokens = 4096));
        let per_token = none.memory_per_gpu_bytes.kv_cache / (16 * 8192);
        assert_eq!(all.memory_per_gpu_bytes.kv_cache, per_token * (16 * 4096 + 4096));
    }

    #[test]
    fn bad_prefix_input_is_named() {
        let err = |edit: fn(&mut Scenario)| {
            let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
            s.prompt_tokens = Some(1000);
            s.output_tokens = Some(100);
            edit(&mut s);
            s.validate().unwrap_err().field
        };
        assert_eq!(err(|s| s.prefix_shared_tokens = 1001), "prefix_shared_tokens");
        assert_eq!(err(|s| s.prefix_hit_rate = Some(1.5)), "prefix_hit_rate");
        assert_eq!(err(|s| s.prefix_hit_rate = Some(f64::NAN)), "prefix_hit_rate");
        assert_eq!(err(|s| s.session_turn_tokens = 200), "session_turns");
        assert_eq!(err(|s| s.session_turns = 3), "session_turn_tokens");
    }

    #[test]
    fn a_session_sets_the_hit_rate_and_a_given_rate_wins() {
        let r = serving(|s| {
            s.session_turns = 4;
            s.session_turn_tokens = 200;
            s.session_turn_output_tokens = Some(300);
        });
        assert!((r.performance.time.prefix_hit_rate - 3000.0 / 3800.0).abs() < 1e-12);
        assert_eq!(r.performance.time.prefix_cached_tokens, (4096.0_f64 * 3000.0 / 3800.0).round() as u64);
        assert!(r.derivations.keys().any(|k| k.path() == "time.prefix_hit_rate"));
        let r = serving(|s| {
            s.session_turns = 4;
            s.session_turn_tokens = 200;
            s.prefix_hit_rate = Some(0.25);
        });
        assert_eq!(r.performance.time.prefix_hit_rate, 0.25);
    }

    #[test]
    fn under_load_cached_prompts_shrink_the_chunks_and_raise_the_sustainable_rate() {
        let at = |h: f64| {
            serving(|s| {
                s.prefix_hit_rate = Some(h);
                s.arrival_rate_per_s = Some(2.0);
            })
            .load
            .unwrap()
        };
        let (cold, warm) = (at(0.0), at(0.9));
        assert!(warm.max_sustainable_rate_per_s > cold.max_sustainable_rate_per_s);
        assert!(warm.ttft_p50_s.unwrap() < cold.ttft_p50_s.unwrap());
        assert!(warm.mixed_chunk_tokens < cold.mixed_chunk_tokens);
    }
}

//! The planner's search on a queue whose answers are known in closed form, and the whole page on
//! the engine.

use super::state::{self, parse, PlanState};
use super::*;

/// A replica that finishes 10 × TP requests per second; its latencies grow as 1 / (1 − ρ)
/// with ρ = rate ÷ capacity: at p50, p90, p95 and p99 TTFT 0.1, 0.18, 0.2 and 0.3 s and TPOT
/// 10, 18, 20 and 30 ms when idle.
fn queue(x: &Scenario, rate: f64) -> Result<LoadPoint, EngineError> {
    let mu = 10.0 * x.tensor_parallel as f64;
    let rho = rate / mu;
    let stable = rho < 1.0;
    let grow = |idle: f64| stable.then(|| idle / (1.0 - rho));
    Ok(LoadPoint {
        rate_per_s: rate,
        stable,
        max_rate_per_s: mu,
        utilization: rho.min(1.0),
        completed_per_s: rate.min(mu),
        sustainable_rate_per_s: mu,
        busy: stable.then_some(rho),
        mean_concurrency: stable.then(|| rho / (1.0 - rho)),
        ttft_s: [grow(0.1), grow(0.18), grow(0.2), grow(0.3)],
        tpot_s: [grow(0.01), grow(0.018), grow(0.02), grow(0.03)],
        ..LoadPoint::default()
    })
}

fn state(query: &str) -> PlanState {
    let (s, bad) = parse(query);
    assert!(bad.is_empty(), "{bad:?}");
    s
}

#[test]
fn the_search_finds_the_rate_where_the_first_target_breaks() {
    // TPOT target 50 ms: 0.02 / (1 − ρ) ≤ 0.05 ⇔ ρ ≤ 0.6; TTFT target 1 s: ρ ≤ 0.8. TPOT binds
    // first, at 6 requests/s per GPU of tensor parallelism.
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20&head=0&ttft=1&tpot=50");
    let p = plan_with(&s, &queue);
    assert_eq!(p.candidates.len(), 4);
    // TP 8 needs at least 8 GPUs even at its sustainable rate, more than the 4 of the others:
    // it is not searched.
    assert_eq!(p.candidates[3].verdict, Verdict::NotNeeded { at_least_gpus: 8 });
    for c in &p.candidates[..3] {
        let Verdict::Meets(cap) = &c.verdict else { panic!("{:?}", c.verdict) };
        // Within 2⁻⁷ of the sustainable rate below the exact 6 per GPU (or exactly at the
        // load one replica fewer carries, when that meets the targets).
        let exact = 6.0 * c.tp as f64;
        let tol = 10.0 * c.tp as f64 / 128.0;
        assert!(
            cap.per_replica <= exact + 1e-9 && cap.per_replica > exact - tol,
            "{} {}",
            c.tp,
            cap.per_replica
        );
        assert_eq!(cap.limit, Limit::Tpot);
        assert_eq!(cap.sustainable_per_replica, 10.0 * c.tp as f64);
    }
    // 20 req/s: 4 replicas of TP 1, 2 of TP 2, 1 of TP 4 (4 GPUs each way), 1 of TP 8.
    let gpus: Vec<u64> = p
        .candidates
        .iter()
        .map(|c| match &c.verdict {
            Verdict::Meets(cap) => cap.gpus,
            _ => 0,
        })
        .collect();
    assert_eq!(gpus, [4, 4, 4, 0]);
    // A tie in GPUs and cost goes to the smaller degree (more replicas).
    let (c, cap) = p.chosen().unwrap();
    assert_eq!((c.tp, cap.replicas), (1, 4));
    // At peak each replica takes 5 of its 10 req/s.
    assert!((cap.at_peak.utilization - 0.5).abs() < 1e-9);
    assert!(p.curve.len() >= CURVE_POINTS);
    assert!(p
        .curve
        .windows(2)
        .all(|w| w[0].rate_per_s <= w[1].rate_per_s
            && w[0].tpot(state::Pct::P95) <= w[1].tpot(state::Pct::P95)));
}

#[test]
fn headroom_adds_replicas_and_a_target_missed_when_idle_is_named() {
    let s = state("m=llama-3.1-8b&rate=20&head=50&tpot=50");
    // Half of each replica's 6 req/s kept free: 20 ÷ 3 → 7 replicas of TP 1.
    let (_, cap) =
        plan_with(&s, &queue).chosen().map(|(c, cap)| (c.tp, cap.replicas)).map(|x| ((), x)).unwrap();
    assert_eq!(cap, (1, 7));
    // A 15 ms TPOT target is missed even idle (20 ms): no degree meets it, each says why.
    let s = state("m=llama-3.1-8b&rate=20&tpot=15");
    let p = plan_with(&s, &queue);
    assert!(p.chosen().is_none() && p.curve.is_empty());
    for c in &p.candidates {
        let Verdict::Misses { limit, value } = &c.verdict else { panic!("{:?}", c.verdict) };
        assert_eq!(*limit, Limit::Tpot);
        // The idle point (rate 0).
        assert!((value.unwrap() - 0.02).abs() < 1e-12);
    }
}

#[test]
fn each_target_is_met_at_its_own_percentile() {
    // TPOT at p99: 0.03 / (1 − ρ) ≤ 0.05 ⇔ ρ ≤ 0.4, 4 req/s per GPU of TP (p95 allowed 6).
    // TTFT at p50: 0.1 / (1 − ρ) ≤ 1 ⇔ ρ ≤ 0.9, not binding.
    let s = state("m=llama-3.1-8b&rate=20&head=0&ttft=1&tpot=50&tpotp=99&ttftp=50");
    let p = plan_with(&s, &queue);
    let Verdict::Meets(cap) = &p.candidates[0].verdict else { panic!("{:?}", p.candidates[0].verdict) };
    assert!(cap.per_replica <= 4.0 + 1e-9 && cap.per_replica > 4.0 - 10.0 / 128.0, "{}", cap.per_replica);
    assert_eq!(cap.limit, Limit::Tpot);
    // TTFT at p99 with a 0.5 s target: 0.3 / (1 − ρ) ≤ 0.5 ⇔ ρ ≤ 0.4 binds before TPOT at p50
    // (0.01 / (1 − ρ) ≤ 0.05 ⇔ ρ ≤ 0.8).
    let s = state("m=llama-3.1-8b&rate=20&head=0&ttft=0.5&tpot=50&tpotp=50&ttftp=99");
    let Verdict::Meets(cap) = &plan_with(&s, &queue).candidates[0].verdict else { panic!() };
    assert_eq!(cap.limit, Limit::Ttft);
    assert!(cap.per_replica <= 4.0 + 1e-9 && cap.per_replica > 4.0 - 10.0 / 128.0);
}

#[test]
fn a_model_too_big_for_small_degrees_is_refused_there_with_its_memory() {
    // Llama 3.1 70B in BF16 (about 141 GB of weights) on 80 GB GPUs: TP 1 does not fit.
    let s = state("m=llama-3.1-70b&gpu=h100-sxm&rate=2&tpot=100");
    let p = plan_with(&s, &queue);
    let Verdict::DoesNotFit { needed_bytes, usable_bytes } = &p.candidates[0].verdict else {
        panic!("{:?}", p.candidates[0].verdict)
    };
    assert!(*needed_bytes > 140_000_000_000 && *usable_bytes < 80_000_000_000);
    let (c, _) = p.chosen().unwrap();
    assert!(c.tp >= 2);
}

#[test]
fn the_kv_cache_bounds_the_sequences_per_replica() {
    // 32K-token requests of Llama 3.1 8B hold 4.3 GB of BF16 KV cache each (131,072 B per
    // token): one H100 (about 55 GB free after 16 GB of weights) holds about a dozen, fewer
    // than the 256 asked for.
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&in=30720&out=2048&rate=1&tpot=100&ttft=30");
    let p = plan_with(&s, &queue);
    let Verdict::Meets(cap) = &p.candidates[0].verdict else { panic!("{:?}", p.candidates[0].verdict) };
    assert!(cap.kv_bound && cap.seqs >= 8 && cap.seqs <= 16, "{}", cap.seqs);
    // More GPUs per replica hold more sequences (when that degree was searched).
    if let Verdict::Meets(cap2) = &p.candidates[1].verdict {
        assert!(cap2.seqs > cap.seqs * 2);
    }
}

#[test]
fn the_page_reads_in_both_languages_without_nan() {
    for lang in [crate::i18n::Lang::Zh, crate::i18n::Lang::En] {
        for q in ["", "m=llama-3.1-70b&rate=3", "tpot=15", "m=llama-3.1-405b&gpu=l4"] {
            let s = parse(q).0;
            let p = plan_with(&s, &queue);
            let html = html::results_html(lang, &s, &p);
            assert!(!html.contains("NaN") && !html.contains("inf"), "{q}: {html}");
            let controls = html::controls_html(lang, &s);
            assert!(controls.contains("data-k=\"rate\""));
        }
    }
}

#[test]
fn the_engine_plans_the_default_service() {
    // Llama 3.1 8B in BF16 on H100 SXM, 20 req/s of 1,024 + 256 tokens, p95 targets 1 s and
    // 50 ms: a single-GPU replica is the cheapest, and the plan meets its targets at peak.
    let s = PlanState::default();
    let p = plan(&s);
    let (c, cap) = p.chosen().expect("a plan");
    assert_eq!(c.tp, 1, "{:?}", p.candidates.iter().map(|c| &c.verdict).collect::<Vec<_>>());
    assert!(cap.per_replica < cap.sustainable_per_replica);
    assert!(cap.replicas as f64 * cap.per_replica >= s.peak_rate * 1.2 * (1.0 - 1e-9));
    assert_eq!(missed(&cap.at_peak, &s), None);
    assert!(cap.at_peak.utilization > 0.0 && cap.at_peak.utilization < 1.0);
    assert!(p.curve.len() >= CURVE_POINTS / 2);
    // p95 time per output token does not fall as load grows (the engine's invariant, up to the
    // simulation's sampling near saturation: 0.5%).
    let tpot: Vec<f64> = p.curve.iter().filter_map(|q| q.tpot(state::Pct::P95)).collect();
    assert!(tpot.windows(2).all(|w| w[1] >= w[0] * 0.995), "{tpot:?}");
}

#[test]
#[ignore]
fn time_one_load_evaluation() {
    let s = PlanState::default();
    let x = scenario(&s, 1, 256);
    for rate in [0.001, 5.0, 20.0, 40.0] {
        let t0 = std::time::Instant::now();
        let p = load::load_at(&x, rate).unwrap();
        let mut y = x.clone();
        y.arrival_rate_per_s = None;
        let t1 = std::time::Instant::now();
        let _ = catalog::evaluate(&y).unwrap();
        eprintln!("rate {rate}: load {:?} plain {:?} max {}", t1 - t0, t1.elapsed(), p.max_rate_per_s);
    }
}

#[test]
fn a_checkpoint_quantised_as_published_is_planned_in_its_own_format() {
    // gpt-oss-120b ships its experts in MXFP4 (about 65 GB of weights): one 80 GB GPU holds it
    // as published; in BF16 (about 234 GB) it needs four.
    let fits = |query: &str| {
        plan_with(&state(query), &queue)
            .candidates
            .iter()
            .find(|c| !matches!(c.verdict, Verdict::DoesNotFit { .. } | Verdict::Engine(_)))
            .map(|c| c.tp)
    };
    assert_eq!(fits("m=gpt-oss-120b&gpu=h100-sxm&w=auto&tpot=100"), Some(1));
    assert_eq!(fits("m=gpt-oss-120b&gpu=h100-sxm&w=bf16&tpot=100"), Some(4));
    let s = state("m=gpt-oss-120b&w=auto&tpot=100");
    let html = html::results_html(crate::i18n::Lang::En, &s, &plan_with(&s, &queue));
    assert!(html.contains("Weights in MXFP4"), "{html}");
    assert!(!html.contains("--quantization"));
}

#[test]
fn the_engine_plans_for_concurrent_users() {
    // The default service sized for 200 concurrent users in a closed loop instead of a rate.
    let s = state("users=200");
    assert_eq!(s.peak_users, Some(200));
    assert_eq!(parse(&state::encode(&s)).0, s);
    let p = plan(&s);
    let (c, cap) = p.chosen().expect("a plan");
    // Whole users per replica, within the search's bound, enough replicas for 200 × 1.2.
    assert_eq!(cap.per_replica, cap.per_replica.round());
    assert!(cap.per_replica >= 1.0 && cap.per_replica <= cap.sustainable_per_replica);
    assert_eq!(cap.sustainable_per_replica, cap.seqs as f64 * load::USERS_PER_SEQUENCE);
    assert!(cap.replicas as f64 * cap.per_replica >= 240.0 * (1.0 - 1e-9), "{cap:?}");
    assert_eq!(missed(&cap.at_peak, &s), None, "{cap:?}");
    // The curve runs over users per replica, the chart and the text say so in both languages.
    assert!(p.curve.iter().all(|q| q.rate_per_s == q.rate_per_s.round()));
    for lang in crate::i18n::Lang::ALL {
        let u = lang.plan_users();
        let html = html::results_html(lang, &s, &p);
        for want in [u.chart_x, u.table_cols[1], u.math_target, u.breaks.0] {
            assert!(html.contains(&crate::html::escape(want)), "{lang:?}: {want}");
        }
        assert!(!html.contains(&crate::html::escape(lang.plan().chart_x)), "{lang:?}");
    }
    // The benchmark runs the users per replica in a closed loop.
    let bench = command::bench(&s, cap);
    assert!(
        bench.contains(&format!("--max-concurrency {}", (200.0 / cap.replicas as f64).ceil())),
        "{bench}"
    );
    assert!(bench.contains("--request-rate inf") && c.tp >= 1);
    // 0 or nothing plans for the rate again.
    assert_eq!(state("users=0").peak_users, None);
    assert!(!command::bench(&state("users=0"), cap).contains("--max-concurrency"));
}

#[test]
fn deepseek_v3_is_planned_in_fp8_and_a_plan_that_cannot_fit_says_memory() {
    // DeepSeek-V3 ships FP8 blocks (about 1 byte per parameter, ~690 GB with scales): eight
    // 80 GB H100s cannot hold it even so; the plan goes to two nodes (below). A model that no
    // layout up to four nodes holds gets a headline that says memory, not latency.
    for lang in [crate::i18n::Lang::En, crate::i18n::Lang::Zh] {
        let s = state("m=kimi-k2&gpu=l4&w=auto");
        let p = plan_with(&s, &queue);
        assert!(p.chosen().is_none());
        assert_eq!(p.candidates.len(), 8, "four single-node degrees, then two layouts on 2 and on 4 nodes");
        let html = html::results_html(lang, &s, &p);
        assert!(html.contains("data-why=\"memory\""), "{html}");
        let words = match lang {
            crate::i18n::Lang::En => ["Weights in FP8", "does not fit in memory", "tensor parallel 32"],
            crate::i18n::Lang::Zh => ["FP8", "显存放不下", "切成 32 份"],
        };
        for w in words {
            assert!(html.contains(w), "{w}: {html}");
        }
    }
    // On 141 GB H200s it fits at tensor parallel 8, as published; in BF16 (~1.34 TB) it does not.
    let tp = |query: &str| {
        plan_with(&state(query), &queue)
            .candidates
            .iter()
            .find(|c| !matches!(c.verdict, Verdict::DoesNotFit { .. } | Verdict::Engine(_)))
            .map(|c| c.tp)
    };
    assert_eq!(tp("m=deepseek-v3&gpu=h200-sxm&w=auto&tpot=200&ttft=30"), Some(8));
    // In BF16 it needs two nodes: the first layout holding it is tensor parallel 8 × 2 stages.
    let bf16 = plan_with(&state("m=deepseek-v3&gpu=h200-sxm&w=bf16&tpot=200&ttft=30"), &queue);
    let first = bf16
        .candidates
        .iter()
        .find(|c| !matches!(c.verdict, Verdict::DoesNotFit { .. } | Verdict::Engine(_)));
    assert_eq!(first.map(|c| (c.tp, c.pp)), Some((8, 2)));
    // A plan that misses only its latency targets still says so.
    let s = state("m=llama-3.1-8b&tpot=1");
    let html = html::results_html(crate::i18n::Lang::En, &s, &plan_with(&s, &queue));
    assert!(html.contains("data-why=\"latency\""), "{html}");
}

/// When one node is not enough (issue 30, item 9): DeepSeek-V3 on H100 gets a plan on two
/// 8-GPU nodes instead of "does not fit", the page names the layouts tried, their network and
/// why it takes the one it takes, and the commands start a replica across the nodes.
#[test]
fn deepseek_v3_on_h100_gets_a_two_node_plan() {
    use crate::i18n::Lang;
    let s = state("m=deepseek-v3&gpu=h100-sxm&rate=2&tpot=200&ttft=30");
    let p = plan(&s);
    assert!(p.candidates[..4].iter().all(|c| matches!(c.verdict, Verdict::DoesNotFit { .. })));
    let across: Vec<(u64, u64)> = p.candidates[4..].iter().map(|c| (c.tp, c.pp)).collect();
    assert_eq!(across, [(8, 2), (16, 1)]);
    let (c, cap) = p.chosen().expect("a plan across nodes");
    assert_eq!((c.layout().gpus(), c.layout().nodes()), (16, 2));
    assert_eq!(cap.gpus, cap.replicas * 16);
    assert_eq!(missed(&cap.at_peak, &s), None);
    // Both layouts are timed over the catalog's network between nodes (InfiniBand NDR by
    // default; AWS EFA when chosen).
    let r = c.report.as_ref().unwrap();
    assert_eq!(r.layout.pipeline_parallel, c.pp);
    let serve = command::serve(&s, c.layout(), cap);
    assert!(
        serve.contains("ray start --head") && serve.contains(&format!("--tensor-parallel-size {}", c.tp)),
        "{serve}"
    );
    assert_eq!(serve.contains("--pipeline-parallel-size 2"), c.pp == 2, "{serve}");
    let sg = command::serve_sglang(&s, c.layout(), cap);
    assert!(sg.contains("--nnodes 2") && sg.contains("--dist-init-addr"), "{sg}");
    for lang in Lang::ALL {
        let t = lang.plan();
        let html = html::results_html(lang, &s, &p);
        assert!(!html.contains("data-why"), "{lang:?}");
        assert!(html.contains("id=\"plan-nodes\"") && html.contains("InfiniBand NDR"), "{lang:?}");
        assert!(html.contains(&crate::html::escape(t.picks.0.trim())), "{lang:?}: says which it picks");
        assert!(html.contains("id=\"plan-multinode\""), "{lang:?}");
        assert!(html.contains(&crate::html::escape(&t.headline(lang, cap.replicas, c.layout(), cap.gpus))));
    }
    let efa = state("m=deepseek-v3&gpu=h100-sxm&rate=2&tpot=200&ttft=30&net=efa");
    assert_eq!(parse(&state::encode(&efa)).0, efa);
    assert_eq!(topology(&efa), TopologyKind::NvswitchEfa);
    let html = html::results_html(Lang::En, &efa, &plan_with(&efa, &queue));
    assert!(html.contains("AWS EFA"), "{html}");
}

#[test]
fn the_commands_agree_with_the_count_and_carry_both_engines() {
    use crate::i18n::plan::agree;
    use crate::i18n::Lang;
    assert_eq!(agree(Lang::En, 1, " sequences at once (your maximum)"), " sequence at once (your maximum)");
    assert_eq!(agree(Lang::En, 2, " sequences at once"), " sequences at once");
    assert_eq!(agree(Lang::Zh, 1, " 个序列"), " 个序列");
    // One replica (the queue's TP 4 plan at 20 req/s): no "1 such replicas" in either language.
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20&head=0&ttft=1&tpot=50");
    let mut p = plan_with(&s, &queue);
    p.chosen = Some(2);
    let Some((_, cap)) = p.chosen() else { panic!() };
    assert_eq!(cap.replicas, 1);
    for lang in Lang::ALL {
        let html = html::results_html(lang, &s, &p);
        assert!(!html.contains("1 such replicas") && !html.contains("运行 1 个"), "{html}");
        assert!(html.contains("data-cmd=\"sglang\"") && html.contains("sglang.launch_server"), "{html}");
        assert!(html.contains("meta-llama/Llama-3.1-8B-Instruct"));
        assert!(html.contains("--max-model-len 1536") && html.contains("--max-num-batched-tokens 8192"));
    }
    // FP8 asked of a BF16 checkpoint: the page says the full-precision files are read first.
    let s = state("m=llama-3.1-8b&w=fp8&tpot=100");
    let html = html::results_html(Lang::En, &s, &plan_with(&s, &queue));
    assert!(html.contains("id=\"plan-quantises\"") && html.contains("full-precision"), "{html}");
}

/// The headroom holds and the busy share is a share of time (issue 30): gpt-oss-120b for 200
/// users with 20% headroom showed "busy 110%" (the closed loop's completion rate over the
/// full-queue rate) and ran at 110% of the sustainable rate; DeepSeek-V3.1 (V3's config and FP8
/// blocks) on H200 103%.
#[test]
fn the_headroom_holds_at_peak_and_busy_is_a_share_of_time() {
    for query in ["m=gpt-oss-120b&users=200&head=20", "m=deepseek-v3&gpu=h200-sxm&users=200&head=20"] {
        let s = state(query);
        let p = plan(&s);
        let (_, cap) = p.chosen().unwrap_or_else(|| panic!("{query}: no plan"));
        let peak = &cap.at_peak;
        assert_eq!(missed(peak, &s), None, "{query}");
        // The load at peak is at most (1 − 20%) of the replica's capacity within the targets,
        // which is at most its sustainable rate.
        assert!(peak.completed_per_s <= 0.8 * cap.capacity_per_s * (1.0 + 1e-9), "{query}: {cap:?}");
        assert!(cap.capacity_per_s <= cap.sustainable_rate_per_s, "{query}: {cap:?}");
        assert!(html::load_share(cap) <= 80.0 + 1e-6, "{query}: {}", html::load_share(cap));
        let busy = peak.busy.expect("stable");
        assert!(busy > 0.0 && busy <= 1.0, "{query}: busy {busy}");
        for lang in crate::i18n::Lang::ALL {
            let html = html::results_html(lang, &s, &p);
            let share = format!("{}%", crate::charts::format::format_sig3(html::load_share(cap)));
            let busy = format!("{}%", crate::charts::format::format_sig3(busy * 100.0));
            assert!(html.contains(&share) && html.contains(&busy), "{lang:?} {query}: {share} {busy}");
        }
    }
    // Over a rate: the same, with the rate itself as the load.
    let s = state("m=gpt-oss-120b&rate=30&head=20");
    let (_, cap) = plan(&s).chosen().map(|(c, cap)| (c.tp, cap.clone())).unwrap();
    assert!(cap.at_peak.completed_per_s <= 0.8 * cap.per_replica * (1.0 + 1e-9), "{cap:?}");
    assert!(html::load_share(&cap) <= 80.0 + 1e-6);
}

/// The planner's KV per request is the engine's, sliding windows included (issue 30, item 11):
/// gpt-oss-120b's 1,280-token requests hold 51.9 MB, not the 94.4 MB of every layer keeping
/// every token.
#[test]
fn the_kv_per_request_is_the_engines_for_a_sliding_window_model() {
    let s = state("m=gpt-oss-120b&tpot=100");
    assert_eq!(kv_per_request(&s), Some(51_904_512));
    for lang in crate::i18n::Lang::ALL {
        let html = html::results_html(lang, &s, &plan_with(&s, &queue));
        assert!(html.contains("51.9 MB") && !html.contains("94.4 MB"), "{lang:?}: {html}");
        assert!(html.contains(&crate::html::escape(lang.plan().kv_window.0)), "{lang:?}");
    }
    // A model without sliding windows: tokens × the size per token, and no window sentence.
    let s = state("m=llama-3.1-8b");
    assert_eq!(kv_per_request(&s), Some(131_072 * 1280));
    let html = html::results_html(crate::i18n::Lang::En, &s, &plan_with(&s, &queue));
    assert!(!html.contains(crate::i18n::Lang::En.plan().kv_window.0));
}

/// A command that starts (issue 30, item 7): FP8 asked of Qwen3-235B-A22B serves the FP8
/// checkpoint Qwen published, sized as it ships, with no `--quantization` flag (the BF16
/// checkpoint quantised online needed 117 GB per GPU at load on 4 × H100); where only online
/// quantisation remains, a degree whose GPUs cannot hold the 16-bit weights at load is refused,
/// and the page says why.
#[test]
fn a_published_quantised_checkpoint_is_served_and_load_time_memory_is_checked() {
    use crate::i18n::Lang;
    let s = state("m=qwen3-235b-a22b&w=fp8&gpu=h100-sxm&tpot=100&ttft=5");
    assert_eq!(checkpoint(&s).map(|q| q.repo.as_str()), Some("Qwen/Qwen3-235B-A22B-FP8"));
    assert!(!command::quantises_on_load(&s) && load_time_bytes(&s, Layout::tp(4)).is_none());
    let p = plan_with(&s, &queue);
    let (c, cap) = p.chosen().expect("a plan");
    assert_eq!(c.tp, 4, "{:?}", p.candidates.iter().map(|c| &c.verdict).collect::<Vec<_>>());
    let r = c.report.as_ref().unwrap();
    // As published: FP8 blocks with the embedding and head in 16 bits, about 1 byte a parameter.
    let per_param = r.memory_per_gpu_bytes.weights as f64 * 4.0 / r.params.total as f64;
    assert!((1.0..1.06).contains(&per_param), "{per_param}");
    let serve = command::serve(&s, c.layout(), cap);
    assert!(
        serve.starts_with("vllm serve Qwen/Qwen3-235B-A22B-FP8") && !serve.contains("--quantization"),
        "{serve}"
    );
    assert!(command::serve_sglang(&s, c.layout(), cap).contains("--model-path Qwen/Qwen3-235B-A22B-FP8"));
    assert!(command::bench(&s, cap).contains("--model Qwen/Qwen3-235B-A22B-FP8"));
    for lang in Lang::ALL {
        let html = html::results_html(lang, &s, &p);
        assert!(
            html.contains("id=\"plan-checkpoint\"") && !html.contains("id=\"plan-quantises\""),
            "{lang:?}"
        );
    }
    // As published (BF16), step 1 says the FP8 checkpoint exists.
    let bf16 = state("m=qwen3-235b-a22b&gpu=h100-sxm&tpot=100&ttft=5");
    let html = html::results_html(Lang::En, &bf16, &plan_with(&bf16, &queue));
    assert!(html.contains("Its publisher also released Qwen/Qwen3-235B-A22B-FP8"), "{html}");

    // Mixtral 8x7B has no FP8 checkpoint from Mistral: vLLM quantises the BF16 one as it loads,
    // 93 GB of it: one 80 GB GPU cannot load it, though its 47 GB of FP8 would fit.
    let s = state("m=mixtral-8x7b&w=fp8&gpu=h100-sxm&tpot=100&ttft=5");
    assert!(checkpoint(&s).is_none() && command::quantises_on_load(&s));
    let (needed, usable) = load_time_bytes(&s, Layout::tp(1)).unwrap();
    assert!(needed > 93_000_000_000 && needed > usable, "{needed} {usable}");
    let p = plan_with(&s, &queue);
    assert!(
        matches!(p.candidates[0].verdict, Verdict::LoadDoesNotFit { .. }),
        "{:?}",
        p.candidates[0].verdict
    );
    let (c, cap) = p.chosen().expect("a plan");
    let (needed, usable) = load_time_bytes(&s, c.layout()).unwrap();
    assert!(c.tp >= 2 && needed <= usable);
    assert!(command::serve(&s, c.layout(), cap).contains("--quantization fp8"));
    for lang in Lang::ALL {
        let html = html::results_html(lang, &s, &p);
        assert!(html.contains(&crate::html::escape(lang.plan().load_no_fit.0)), "{lang:?}");
        assert!(html.contains(&crate::html::escape(lang.plan().load_at.0)), "{lang:?}");
    }
}

#[test]
fn the_workloads_prefix_reuse_reaches_the_engine_and_raises_a_replicas_capacity() {
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&in=4000&out=200&pre=3000&hit=50");
    let x = scenario_at(&s, Layout::tp(1), 64);
    assert_eq!((x.prefix_shared_tokens, x.prefix_hit_rate), (3000, Some(0.5)));
    assert!(x.validate().is_ok());
    // The same replica without reuse sustains fewer requests per second: every prompt is
    // prefilled whole.
    let cold = state("m=llama-3.1-8b&gpu=h100-sxm&in=4000&out=200");
    let rate = |s: &PlanState| load::load_at(&scenario_at(s, Layout::tp(1), 64), 0.0).unwrap().max_rate_per_s;
    assert!(rate(&s) > 1.2 * rate(&cold), "{} {}", rate(&s), rate(&cold));
}

#[test]
fn the_workloads_kv_tiers_reach_the_engine_and_a_cpu_tier_raises_a_replicas_capacity() {
    // 2,000 open sessions of an 8,200-token history each: about 2 TB per GPU, far past the
    // H100's free KV memory, so nearly every history is recomputed; a 1 TB CPU tier keeps half.
    let cold = state("m=llama-3.1-8b&gpu=h100-sxm&in=8000&out=200&hit=90&ses=2000");
    let warm = state("m=llama-3.1-8b&gpu=h100-sxm&in=8000&out=200&hit=90&ses=2000&cpu=1000&ssd=4000&gpc=off");
    let x = scenario_at(&warm, Layout::tp(1), 64);
    assert_eq!(
        (x.prefix_open_sessions, x.kv_cpu_tier_bytes, x.kv_ssd_tier_bytes, x.kv_gpu_cache_bytes),
        (2000, 1_000_000_000_000, 4_000_000_000_000, Some(0))
    );
    assert!(x.validate().is_ok());
    let rate = |s: &PlanState| load::load_at(&scenario_at(s, Layout::tp(1), 64), 0.0).unwrap().max_rate_per_s;
    assert!(rate(&warm) > 1.5 * rate(&cold), "{} {}", rate(&warm), rate(&cold));
    // The plan's step 3 says where the histories are served from, in each language.
    let planned = plan(&warm);
    let (c, _) = planned.chosen().expect("a plan");
    let k = c.report.as_ref().and_then(|r| r.performance.time.kv_tiers).expect("tiers");
    assert!(k.gpu_share == 0.0 && k.cpu.is_some_and(|u| u.restored) && k.restore_s > 0.0);
    for lang in crate::i18n::Lang::ALL {
        let html = html::results_html(lang, &warm, &planned);
        let shares = crate::html::escape(&crate::i18n::kv_tier_shares(&k, lang));
        assert!(html.contains("id=\"plan-kv-tiers\"") && html.contains(&shares), "{lang:?}");
        assert!(html.contains(&crate::html::escape(lang.plan().tiers_at.0)));
    }
    assert!(!html::results_html(crate::i18n::Lang::En, &state("hit=90"), &plan(&state("hit=90")))
        .contains("plan-kv-tiers"));
}

/// [`queue`], and for a disaggregated unit of `P` prefill and `D` decode workers at tensor
/// parallel `tp` two queues in tandem: a prefill worker finishes 20 × TP prompts per second, a
/// decode worker 10 × TP requests; the time to first token grows with the prefill pool's load
/// ρp (at p50, p90, p95, p99: 0.1, 0.18, 0.2, 0.3 s idle), the time per output token with the
/// decode pool's ρd (10, 18, 20, 30 ms idle), each as 1 / (1 − ρ).
fn pd_queue(x: &Scenario, rate: f64) -> Result<LoadPoint, EngineError> {
    use crate::engine::perf::load::disagg::{DisaggregatedReport, LimitingPool};
    if x.prefill_workers == 0 {
        return queue(x, rate);
    }
    let tp = x.tensor_parallel.max(1);
    let (p, d) = (x.prefill_workers, x.gpus / tp);
    let (mu_p, mu_d) = (20.0 * (p * tp) as f64, 10.0 * (d * tp) as f64);
    let (rho_p, rho_d) = (rate / mu_p, rate / mu_d);
    let stable = rho_p < 1.0 && rho_d < 1.0;
    let grow = |idle: f64, rho: f64| stable.then(|| idle / (1.0 - rho));
    let ttft = [grow(0.1, rho_p), grow(0.18, rho_p), grow(0.2, rho_p), grow(0.3, rho_p)];
    Ok(LoadPoint {
        rate_per_s: rate,
        stable,
        max_rate_per_s: mu_p.min(mu_d),
        utilization: rate / mu_p.min(mu_d),
        completed_per_s: rate.min(mu_p.min(mu_d)),
        sustainable_rate_per_s: mu_p.min(mu_d),
        busy: stable.then_some(rho_p.max(rho_d)),
        ttft_s: ttft,
        tpot_s: [grow(0.01, rho_d), grow(0.018, rho_d), grow(0.02, rho_d), grow(0.03, rho_d)],
        disaggregated: Some(DisaggregatedReport {
            prefill_workers: p,
            prefill_tensor_parallel: tp,
            prefill_gpus: p * tp,
            decode_gpus: d * tp,
            total_gpus: (p + d) * tp,
            link: crate::engine::links::KvLink::Nvlink,
            link_bytes_per_s: 450e9,
            link_efficiency: 0.8,
            link_latency_s: 2e-6,
            transfer_bytes: 1 << 20,
            transfer_s: 1e-3,
            prefill_max_seqs: 256,
            prefill_alone_s: 0.1,
            prefill_max_rate_per_s: mu_p,
            decode_max_rate_per_s: mu_d,
            limited_by: if mu_p < mu_d { LimitingPool::Prefill } else { LimitingPool::Decode },
            prefill_p50_s: ttft[0],
            prefill_p99_s: ttft[3],
        }),
        ..LoadPoint::default()
    })
}

#[test]
fn units_are_searched_by_the_same_bisection_and_sized_in_whole_units() {
    // 20 req/s, no headroom, TPOT p95 50 ms: an aggregated replica of TP 1 carries 6 req/s
    // (ρ ≤ 0.6), 4 GPUs. A 1:2 unit (prefill 20, decode 20 req/s) meets TPOT up to ρd = 0.6,
    // 12 req/s, and TTFT p95 1 s up to ρp = 0.8: 2 units × 3 GPUs = 6. The search starts there
    // (its bound, 1 unit × 3 GPUs, is the lowest), TPOT breaks first, so it walks toward more
    // decode: a 1:3 unit (decode 30) meets TPOT up to 18 and TTFT up to 16, 2 units × 4 GPUs;
    // TTFT breaks first there, and the walk would turn back: it stops.
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20&head=0&ttft=1&tpot=50");
    let p = plan_with(&s, &pd_queue);
    let (c, a) = p.chosen().unwrap();
    assert_eq!((c.tp, a.gpus), (1, 4));
    let cmp = p.disagg.compared().expect("compared");
    assert_eq!(cmp.tp, 1);
    let searched: Vec<(String, u64, u64, Limit)> = cmp
        .units
        .iter()
        .filter_map(|u| match &u.verdict {
            Verdict::Meets(cap) => Some((u.unit.ratio(), cap.replicas, cap.gpus, cap.limit)),
            _ => None,
        })
        .collect();
    assert_eq!(
        searched,
        [("1:2".to_owned(), 2, 6, Limit::Tpot), ("1:3".to_owned(), 2, 8, Limit::Ttft)],
        "{:?}",
        cmp.units
    );
    let (unit, d) = cmp.chosen().unwrap();
    assert_eq!(unit, disagg::Unit { tp: 1, prefill: 1, decode: 2 });
    // Within 2⁻⁷ of the unit's sustainable rate below the exact 12 req/s, or exactly the load
    // one unit fewer carries.
    assert!(d.per_replica <= 12.0 + 1e-9 && d.per_replica > 12.0 - 20.0 / 128.0, "{}", d.per_replica);
    // Every unit searched or not: GPUs are units × (P + D) × TP; the rest are bounded below.
    for u in &cmp.units {
        match &u.verdict {
            Verdict::Meets(cap) => {
                assert_eq!(cap.gpus, cap.replicas * (u.unit.prefill + u.unit.decode) * u.unit.tp);
                assert_eq!(missed(&cap.at_peak, &s), None);
            }
            Verdict::NotNeeded { at_least_gpus } => assert!(*at_least_gpus >= d.gpus, "{u:?}"),
            Verdict::Skipped { .. } => {}
            v => panic!("{v:?}"),
        }
    }
    assert_eq!(cmp.units.len(), disagg::RATIOS.len());
    assert_eq!(disagg::outcome(&p), Some(disagg::Outcome::Aggregated));
    // One ratio asked for: only it is searched.
    let one = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20&head=0&ttft=1&tpot=50&pd=2:1");
    let p1 = plan_with(&one, &pd_queue);
    let c1 = p1.disagg.compared().unwrap();
    assert_eq!(c1.units.len(), 1);
    assert_eq!(c1.chosen().map(|(u, _)| u.ratio()), Some("2:1".to_owned()));
    // Off: nothing asked of the engine beyond the plan, and the page says it is off.
    let off = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20&head=0&ttft=1&tpot=50&pd=off");
    let po = plan_with(&off, &pd_queue);
    assert_eq!(po.disagg, disagg::Disagg::Off);
    assert_eq!(po.candidates, p.candidates);
    assert!(html::results_html(crate::i18n::Lang::En, &off, &po).contains("id=\"plan-pd-off\""));
}

/// The comparison's section of a page.
fn pd_section(html: &str) -> &str {
    let from = html.find("<section id=\"plan-compare\"").expect("the comparison");
    let to = html[from..].find("</section>").map_or(html.len(), |i| from + i);
    &html[from..to]
}

/// Llama 3.1 70B on H100, 4,096-token prompts and 512-token outputs, p99 TPOT within 25 ms:
/// the aggregated replicas' TPOT is set by prompt chunks in their decode steps, and a
/// disaggregated deployment meets the same targets with fewer GPUs. The page says so, with
/// both plans' numbers, in both languages, and launches one unit with vLLM and SGLang.
#[test]
fn long_prompts_with_a_tight_tpot_target_go_disaggregated() {
    use crate::i18n::Lang;
    let s = state("m=llama-3.1-70b&gpu=h100-sxm&rate=10&in=4096&out=512&tpot=25&tpotp=99");
    let p = plan(&s);
    let (c, a) = p.chosen().expect("an aggregated plan");
    assert_eq!(a.limit, Limit::Tpot, "{a:?}");
    let cmp = p.disagg.compared().expect("compared");
    assert_eq!(cmp.tp, c.tp);
    let (unit, d) = cmp.chosen().expect("a unit meets the targets");
    assert_eq!(disagg::outcome(&p), Some(disagg::Outcome::Disaggregated), "{} against {}", d.gpus, a.gpus);
    assert!(d.gpus < a.gpus);
    // Whole units of whole workers, meeting both targets at the planned peak, within the
    // headroom.
    assert_eq!(d.gpus, d.replicas * unit.gpus());
    assert_eq!(missed(&d.at_peak, &s), None, "{d:?}");
    assert!(d.at_peak.completed_per_s <= kept(&s) * d.capacity_per_s * (1.0 + 1e-9));
    assert!(d.replicas as f64 * d.per_replica * kept(&s) >= s.peak_rate * (1.0 - 1e-9));
    let f = d.at_peak.disaggregated.as_ref().unwrap();
    assert_eq!((f.prefill_gpus, f.decode_gpus), (unit.prefill * unit.tp, unit.decode * unit.tp));
    // The decode pool's p99 TPOT at peak is below the aggregated replica's.
    let (ta, td) = (a.at_peak.tpot(s.tpot_pct).unwrap(), d.at_peak.tpot(s.tpot_pct).unwrap());
    assert!(td < ta, "{td} {ta}");
    assert!(a.at_peak.mixed_step_s > a.at_peak.decode_step_s);
    for lang in Lang::ALL {
        let t = lang.plan_pd();
        let html = html::results_html(lang, &s, &p);
        let section = pd_section(&html);
        assert!(section.contains("data-outcome=\"disaggregated\""), "{lang:?}");
        let verdict = t.verdict(
            lang,
            disagg::Outcome::Disaggregated,
            (a.gpus, d.gpus),
            (d.replicas, &unit.ratio(), unit.tp),
        );
        assert!(section.contains(&crate::html::escape(&verdict)), "{lang:?}: {section}");
        // Why, from the numbers: the chunk riding in the aggregated steps, both step times, the
        // decode pool's TPOT, and the balance.
        let why = t.why_tpot(
            lang,
            "99",
            &crate::charts::format::group_digits(a.at_peak.mixed_chunk_tokens),
            (
                &format!("{} ms", crate::charts::format::format_sig3(a.at_peak.mixed_step_s * 1e3)),
                &format!("{} ms", crate::charts::format::format_sig3(a.at_peak.decode_step_s * 1e3)),
            ),
            (&format!("{} ms", crate::charts::format::format_sig3(td * 1e3)), "25 ms"),
        );
        assert!(section.contains(&crate::html::escape(&why)), "{lang:?}: {section}");
        assert!(section.contains(&crate::html::escape(t.close(lang, true, true))), "{lang:?}");
        for text in [t.title, t.table_head[3], t.row_aggregated, t.row_unit.0] {
            assert!(section.contains(&crate::html::escape(text)), "{lang:?}: {text}");
        }
        assert!(!section.contains('{') && !section.contains('}'), "{lang:?}: an unfilled slot: {section}");
        assert!(!html.contains("NaN") && !html.contains("inf"), "{lang:?}");
        assert!(html.contains("id=\"plan-pd-note\"") && html.contains("id=\"plan-pd-confirm\""), "{lang:?}");
        // Identifiers in the notes are code, in both languages; the control offers every ratio.
        assert!(
            html.contains("<code>NixlConnector</code>") && html.contains("<code>kv_role</code>"),
            "{lang:?}"
        );
        let controls = html::controls_html(lang, &s);
        assert!(controls.contains("data-k=\"pd\"") && controls.contains(&crate::html::escape(t.control)));
        for (p, d) in disagg::RATIOS {
            assert!(controls.contains(&format!("<option value=\"{p}:{d}\">")), "{lang:?} {p}:{d}");
        }
        // Both languages state the same numbers.
        for n in [d.gpus, a.gpus] {
            assert!(section.contains(&crate::charts::format::group_digits(n)), "{lang:?}: {n}");
        }
    }
    // Launch lines for both roles and both engines, and the benchmark through the proxy.
    let v = command::serve_disagg(&s, unit, d);
    let kinds = [(true, "kv_producer"), (false, "kv_consumer")];
    for (prefill, role) in kinds {
        let n = if prefill { unit.prefill } else { unit.decode };
        let kv =
            format!("--kv-transfer-config '{{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"{role}\"}}'");
        assert_eq!(v.matches(&kv).count() as u64, n, "{v}");
    }
    for flag in [
        "vllm serve meta-llama/Llama-3.1-70B-Instruct",
        &format!("--tensor-parallel-size {}", unit.tp),
        "VLLM_NIXL_SIDE_CHANNEL_HOST=",
        "VLLM_NIXL_SIDE_CHANNEL_PORT=5600",
        "UCX_NET_DEVICES=all",
        "python tests/v1/kv_connector/nixl_integration/toy_proxy_server.py",
        "--port 8192",
        "--prefiller-hosts",
        "--prefiller-ports",
        "--decoder-hosts",
        "--decoder-ports",
        "--max-model-len 4864",
    ] {
        assert!(v.contains(flag), "{flag}: {v}");
    }
    let sg = command::serve_disagg_sglang(&s, unit, d);
    assert_eq!(sg.matches("--disaggregation-mode prefill").count() as u64, unit.prefill, "{sg}");
    assert_eq!(sg.matches("--disaggregation-mode decode").count() as u64, unit.decode, "{sg}");
    for flag in [
        "python -m sglang.launch_server",
        "--model-path meta-llama/Llama-3.1-70B-Instruct",
        &format!("--tp-size {}", unit.tp),
        "--disaggregation-transfer-backend nixl",
        "python -m sglang_router.launch_router",
        "--pd-disaggregation",
        "--prefill http://",
        "--decode http://",
        "--host 0.0.0.0",
        "--port 8000",
    ] {
        assert!(sg.contains(flag), "{flag}: {sg}");
    }
    let b = command::bench_disagg(&s, d);
    assert!(b.contains("--port 8192") && b.contains("--random-input-len 4096"), "{b}");
    let per_unit = s.peak_rate / d.replicas as f64;
    assert!(b.contains(&format!("--request-rate {}", state::plain((per_unit * 1e3).round() / 1e3))), "{b}");
}

/// Llama 3.1 8B with 128-token prompts: a prompt barely slows a decode step, so a prefill pool
/// and the transfer buy nothing: the aggregated plan needs no more GPUs, and the page says why.
#[test]
fn short_prompts_stay_aggregated() {
    use crate::i18n::Lang;
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20&in=128&out=512&tpot=30&tpotp=99");
    let p = plan(&s);
    let (_, a) = p.chosen().expect("an aggregated plan");
    let (unit, d) = p.disagg.compared().and_then(|c| c.chosen()).expect("a unit meets the targets");
    assert!(a.gpus <= d.gpus, "{} against {}", a.gpus, d.gpus);
    let o = disagg::outcome(&p).unwrap();
    assert!(matches!(o, disagg::Outcome::Aggregated | disagg::Outcome::Tie), "{o:?}");
    for lang in Lang::ALL {
        let t = lang.plan_pd();
        let html = html::results_html(lang, &s, &p);
        let section = pd_section(&html);
        let verdict = t.verdict(lang, o, (a.gpus, d.gpus), (d.replicas, &unit.ratio(), unit.tp));
        assert!(section.contains(&crate::html::escape(&verdict)), "{lang:?}: {section}");
        // The unit's pools: one of them idles part of its capacity; and the balance.
        assert!(section.contains(&crate::html::escape(t.pools[0])), "{lang:?}");
        if o == disagg::Outcome::Aggregated {
            let close = t.close(lang, false, a.limit == Limit::Tpot);
            assert!(section.contains(&crate::html::escape(close)), "{lang:?}: {section}");
        }
        assert!(!html.contains("id=\"plan-pd-note\""), "{lang:?}: no note when the plan wins");
        assert!(!section.contains('{') && !section.contains('}'), "{lang:?}");
        assert!(html.contains("data-k=\"pd\"") || html::controls_html(lang, &s).contains("data-k=\"pd\""));
    }
}

/// Workers are laid out on whole nodes and get their own ports: one node's unit runs on
/// localhost with consecutive GPUs; a unit over nodes names each node.
#[test]
fn a_units_workers_have_their_own_gpus_and_ports() {
    let s = state("m=llama-3.1-8b&gpu=h100-sxm&rate=20");
    let cap = Capacity {
        seqs: 64,
        kv_bound: false,
        sustainable_per_replica: 10.0,
        per_replica: 5.0,
        capacity_per_s: 5.0,
        sustainable_rate_per_s: 10.0,
        planned_per_replica: 4.0,
        limit: Limit::Tpot,
        replicas: 1,
        gpus: 6,
        at_peak: LoadPoint::default(),
        price: None,
    };
    let unit = disagg::Unit { tp: 2, prefill: 1, decode: 2 };
    let w = command::workers(unit);
    assert_eq!(
        w.iter().map(|w| (w.prefill, w.node, w.first_gpu)).collect::<Vec<_>>(),
        [(true, 0, 0), (false, 0, 2), (false, 0, 4)]
    );
    let v = command::serve_disagg(&s, unit, &cap);
    for part in [
        "CUDA_VISIBLE_DEVICES=0,1 ",
        "CUDA_VISIBLE_DEVICES=2,3 ",
        "CUDA_VISIBLE_DEVICES=4,5 ",
        "--decoder-hosts localhost localhost",
        "--decoder-ports 8200 8201",
    ] {
        assert!(v.contains(part), "{part}: {v}");
    }
    let sg = command::serve_disagg_sglang(&s, unit, &cap);
    assert!(sg.contains("--base-gpu-id 4") && sg.contains("--prefill http://127.0.0.1:30000 8998"), "{sg}");
    assert!(sg.contains("--decode http://127.0.0.1:30101"), "{sg}");
    // TP 8: each worker a node of its own.
    let big = disagg::Unit { tp: 8, prefill: 2, decode: 1 };
    let v = command::serve_disagg(&s, big, &cap);
    assert!(
        v.contains("--prefiller-hosts NODE0_IP NODE1_IP") && v.contains("--decoder-hosts NODE2_IP"),
        "{v}"
    );
    let sg = command::serve_disagg_sglang(&s, big, &cap);
    assert!(sg.contains("--host NODE2_IP") && sg.contains("--prefill http://NODE1_IP:30001 8999"), "{sg}");
}

/// The engine evaluations a plan makes and its time, natively (`cargo test --release --lib
/// tools::plan::tests::evaluations_per_plan -- --ignored --nocapture`): `pd=off` is the plan
/// as it was before the comparison, each point a fresh evaluation ("before"); then the plan as
/// [`plan`] makes it, reusing each scenario's rate-independent half, with and without the
/// comparison.
#[test]
#[ignore]
fn evaluations_per_plan() {
    for query in [
        "",
        "m=llama-3.1-70b&gpu=h100-sxm&rate=10&in=4096&out=512&tpot=30&tpotp=99",
        "m=llama-3.1-8b&gpu=h100-sxm&rate=20&in=128&out=512&tpot=30&tpotp=99",
        "users=200",
    ] {
        let off = state(&format!("{query}&pd=off"));
        let calls = std::cell::Cell::new(0u32);
        let count = |x: &Scenario, r: f64| {
            calls.set(calls.get() + 1);
            if off.peak_users.is_some() {
                load::users_at(x, r)
            } else {
                load::load_at(x, r)
            }
        };
        let t0 = std::time::Instant::now();
        let p = plan_with(&off, &count);
        let before = (calls.get(), t0.elapsed(), p.chosen().map(|(_, c)| c.gpus));
        let t0 = std::time::Instant::now();
        let (p, work_off) = plan_counted(&off);
        let reused = (work_off, t0.elapsed(), p.chosen().map(|(_, c)| c.gpus));
        let s = state(query);
        let t0 = std::time::Instant::now();
        let (p, work) = plan_counted(&s);
        let after = t0.elapsed();
        let d =
            p.disagg.compared().and_then(|c| c.chosen()).map(|(u, c)| (u.ratio(), u.tp, c.replicas, c.gpus));
        eprintln!(
            "{query:?}\n  before: {} points in {:?}, {:?} GPUs\n  reusing, pd=off: {:?} in {:?}, {:?} GPUs\n  reusing, compared: {work:?} in {after:?}, aggregated {:?} GPUs, disaggregated {d:?}, {:?}",
            before.0, before.1, before.2, reused.0, reused.1, reused.2,
            p.chosen().map(|(c, cap)| (c.tp, cap.gpus, cap.limit)),
            disagg::outcome(&p),
        );
        if let Some(c) = p.disagg.compared() {
            for u in &c.units {
                let v = match &u.verdict {
                    Verdict::Meets(cap) => format!(
                        "{} units, {} GPUs, {:.3}/unit, {:?}",
                        cap.replicas, cap.gpus, cap.capacity_per_s, cap.limit
                    ),
                    v => format!("{v:?}"),
                };
                eprintln!("    {}: {v}", u.unit.ratio());
            }
        }
    }
}

//! Worked examples from the source article's capacity-estimation section and the ZeRO paper.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{ModelSpec, Scenario};

fn scenario(model: &str) -> Scenario {
    Scenario::new(ModelSpec::Id(model.to_owned()))
}

/// "A 70B model in FP16/BF16 needs about 140 GB for the parameters alone, more than one 80 GB GPU."
#[test]
fn seventy_b_fp16_is_about_140_gb_and_does_not_fit_one_80_gb_gpu() {
    let mut s = scenario("llama-3.1-70b");
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Fp16);
    s.gpu = "a100-sxm-80gb".into();
    let r = evaluate(&s).unwrap();
    let gb = r.memory_per_gpu_bytes.weights as f64 / 1e9;
    assert!((139.0..=143.0).contains(&gb), "{gb} GB");
    assert!(!r.fits);
    assert!(r.solvers.min_gpus.unwrap().gpus >= 2);
    // 4-bit: fits one 80 GB GPU.
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Int4);
    let r = evaluate(&s).unwrap();
    assert!(r.fits, "{}", r.memory_per_gpu_bytes.total);
}

/// "From 4K to 32K context and from 1 to 32 concurrent requests the KV cache grows with both."
#[test]
fn kv_cache_from_4k_to_32k_and_1_to_32_requests() {
    let kv = |context, batch| {
        let mut s = scenario("llama-3.1-8b");
        s.context_tokens = context;
        s.batch = batch;
        s.gpu = "h200-sxm".into();
        evaluate(&s).unwrap().memory_per_gpu_bytes.kv_cache
    };
    // 131,072 B per token: 4K = 0.5 GiB, 32K = 4 GiB, 32 requests at 32K = 128 GiB.
    assert_eq!(kv(4096, 1), 512 << 20);
    assert_eq!(kv(32_768, 1), 4 << 30);
    assert_eq!(kv(32_768, 32), 128 << 30);
    assert_eq!(kv(4096, 32), 16 << 30);
}

/// 32 requests × 32K on Llama-3.1-8B do not fit an 80 GB GPU, and the solver says how many do.
#[test]
fn solvers_answer_the_capacity_questions() {
    let mut s = scenario("llama-3.1-8b");
    s.context_tokens = 32_768;
    s.batch = 32;
    let r = evaluate(&s).unwrap();
    assert!(!r.fits);
    let max_batch = r.solvers.max_batch.unwrap();
    assert!((10..32).contains(&max_batch), "{max_batch}");
    s.batch = max_batch;
    assert!(evaluate(&s).unwrap().fits);
    s.batch = max_batch + 1;
    assert!(!evaluate(&s).unwrap().fits);
}

/// ZeRO (Rajbhandari et al. 2020) Figure 1, through the whole engine: a 7.5B-class model with
/// Adam on 64 GPUs; model states per GPU shrink 120 → 31.4 → 16.6 → 1.9 GB per 7.5B params.
#[test]
fn zero_stages_through_the_engine() {
    let mut s = scenario("llama-2-7b");
    s.mode = gpu_primer::engine::workload::Mode::Training;
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Fp16);
    s.gpus = 64;
    let psi = evaluate(&s).unwrap().params.total as f64;
    let mut per_stage = Vec::new();
    for stage in 0..=3u8 {
        s.zero_stage = stage;
        let m = evaluate(&s).unwrap().memory_per_gpu_bytes;
        per_stage.push((m.weights + m.gradients + m.optimizer) as f64 / psi * 7.5);
    }
    let expected = [120.0, 31.4, 16.6, 1.9];
    for (got, want) in per_stage.iter().zip(expected) {
        assert!((got - want).abs() < 0.06, "{per_stage:?}");
    }
}

/// Chapter 2 (memory capacity): Llama-3.1-8B in BF16 with 10% kept free leaves room for about
/// 100 requests of 4K tokens on an 80 GB H100 (over 400,000 tokens), and fewer than 29,000
/// tokens on a 24 GB L4, less than one request at the full 131,072-token context.
#[test]
fn chapter_2_kv_room_on_an_h100_and_an_l4() {
    let mut s = scenario("llama-3.1-8b");
    s.gpu = "h100-sxm".into();
    s.context_tokens = 4096;
    let max_batch = evaluate(&s).unwrap().solvers.max_batch.unwrap();
    assert!((95..=105).contains(&max_batch), "{max_batch}");
    assert!(max_batch as u64 * 4096 > 400_000);
    s.gpu = "l4".into();
    let max_context = evaluate(&s).unwrap().solvers.max_context_tokens.unwrap();
    assert!((25_000..29_000).contains(&max_context), "{max_context}");
    assert!(max_context < 131_072);
}

/// Chapter 8 (MIG): the worked example and the chapter's calculator are the same scenario,
/// Llama-2-7B with 4-bit weights and 3 requests of 2,048 tokens on an A100 80GB 1g.10gb slice:
/// about 4 GB of weights, 512 KiB of FP16 KV per token, 3.2 GB of KV cache; it fits and a fourth
/// request does not. Decoding reads 4 GB + up to 3.2 GB per step at about 255 GB/s: the bound,
/// averaged over the generation, is a little above the text's 105 tokens/s at full context.
#[test]
fn chapter_8_mig_example_is_the_widget_preset() {
    let md = gpu_primer::content::numbers::fill(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/content/en/08-mig.md")).unwrap(),
    )
    .unwrap();
    assert!(md.contains("Serve Llama-2-7B with 4-bit weights on an A100 80GB `1g.10gb` instance,"));
    assert!(md.contains("{{widget:memory:7b-int4-mig}}"));
    let preset = gpu_primer::estimator::presets::find("7b-int4-mig").unwrap();
    assert_eq!(preset.mig, Some(("a100-sxm-80gb", "1g.10gb")));
    let s = preset.scenario();
    assert_eq!((s.context_tokens, s.batch), (2048, 3));
    let r = evaluate(&s).unwrap();
    assert_eq!(r.model.id.as_deref(), Some("llama-2-7b"));
    assert_eq!(r.kv_cache_bytes_per_token, 512 << 10);
    let kv_gb = r.memory_per_gpu_bytes.kv_cache as f64 / 1e9;
    assert!((3.1..3.3).contains(&kv_gb), "{kv_gb} GB of KV cache");
    let weights_gb = r.memory_per_gpu_bytes.weights as f64 / 1e9;
    assert!((3.5..4.5).contains(&weights_gb), "{weights_gb} GB of weights");
    assert!(r.fits, "{:?} usable {}", r.memory_per_gpu_bytes, r.usable_gpu_memory_bytes);
    assert_eq!(r.gpu_memory_bytes, 10_000_000_000);
    assert_eq!(r.solvers.max_batch, Some(3), "a fourth request does not fit");
    let bound =
        serde_json::to_value(&r).unwrap()["throughput"]["decode_tokens_per_s_bound"].as_f64().unwrap();
    assert!((105.0..125.0).contains(&bound), "{bound} tokens/s");
}

/// Chapter 10 (training, fine-tuning and inference): rank-16 LoRA on the four attention
/// projections of Llama-3-8B adds 425,984 parameters per layer, about 13.6 million in all
/// (0.17%), and the chapter's calculator (preset `lora-l4`) trains exactly those.
#[test]
fn chapter_10_lora_adapter_count_is_the_widget_preset() {
    let md = gpu_primer::content::numbers::fill(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/content/en/10-training-finetuning-inference.md"
        ))
        .unwrap(),
    )
    .unwrap();
    assert!(md.contains("{{widget:memory:lora-l4}}"));
    assert!(md.contains("that is 425,984 parameters per layer and 13.6 million over 32 layers, 0.17%"));
    let r = evaluate(&gpu_primer::estimator::presets::find("lora-l4").unwrap().scenario()).unwrap();
    assert_eq!(r.params.trainable, 425_984 * 32);
    let share = r.params.trainable as f64 / r.params.total as f64 * 100.0;
    assert!((0.165..0.175).contains(&share), "{share}%");
    assert!(r.fits);
}

/// Chapter 8 (MIG): the layouts the text says use all 7 compute slices fit one H100 by the MIG User
/// Guide's placement rules (engine::mig), each using all 7 compute slices; `3g + 3g` fits and
/// leaves one compute slice unused; and a layout past 7 compute slices does not fit.
#[test]
fn chapter_8_mig_layouts_follow_the_placement_rules() {
    use gpu_primer::engine::mig::{arrange, SliceGeometry, SliceProfile};
    let md = gpu_primer::content::numbers::fill(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/content/en/08-mig.md")).unwrap(),
    )
    .unwrap();
    let sentence = md.lines().find(|l| l.contains("Layouts that use all 7 compute slices include")).unwrap();
    let table = gpu_primer::catalog::mig::find("h100-80gb").unwrap();
    let g = SliceGeometry::SEVEN;
    // The classic profile of each class (1g.10gb, 2g.20gb, …, not the +me or double-memory ones).
    let classes: Vec<(&str, SliceProfile)> = ["1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"]
        .iter()
        .map(|n| {
            let p = table.profiles.iter().find(|p| p.name == *n).unwrap();
            let max = p.max_instances.unwrap_or(1) as u8;
            (&n[..2], SliceProfile::from_fractions(g, p.memory_fraction, p.sm_fraction, max, false).unwrap())
        })
        .collect();
    let profiles: Vec<SliceProfile> = classes.iter().map(|(_, p)| *p).collect();
    let index = |class: &str| classes.iter().position(|(c, _)| *c == class).unwrap();
    // "`7 × 1g`, `4g + 2g + 1g`, …" → lists of classes.
    let layouts: Vec<Vec<usize>> = sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|l| {
            l.split('+')
                .flat_map(|part| {
                    let part = part.trim();
                    match part.split_once(" × ") {
                        Some((n, c)) => vec![index(c); n.parse().unwrap()],
                        None => vec![index(part)],
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(layouts.len(), 5, "{sentence}");
    let compute = |l: &[usize]| l.iter().map(|i| u32::from(profiles[*i].compute)).sum::<u32>();
    for l in &layouts[..4] {
        assert!(arrange(g, &profiles, l).is_some(), "{l:?} fits");
        assert_eq!(compute(l), 7, "{l:?} is full");
    }
    let three_three = &layouts[4];
    assert!(arrange(g, &profiles, three_three).is_some());
    assert_eq!(compute(three_three), 6, "3g + 3g leaves one compute slice unused");
    assert!(arrange(g, &profiles, &[index("4g"), index("3g"), index("1g")]).is_none());
}

/// Chapter 8: "seven such services fit on one card" (the 4-bit Llama-2-7B with 3 requests of
/// 2,048 tokens on an A100 80GB), by the planner's packing, which is the chapter widget's preset;
/// and the widget's layout is the chapter's `3g + 2g + 1g + 1g`.
#[test]
fn chapter_8_seven_int4_services_pack_onto_one_a100() {
    use gpu_primer::tools::mig::{pack_workloads, state, Outcome};
    for lang in ["en", "zh"] {
        let md = std::fs::read_to_string(format!("{}/content/{lang}/08-mig.md", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
        assert!(md.contains("{{widget:mig:7b-int4}}"), "{lang}");
    }
    let (s, notices) = state::decode("preset=7b-int4");
    assert!(notices.is_empty());
    let (gpu, mig) = state::gpu_of(&s).unwrap();
    assert_eq!(gpu.id, "a100-sxm-80gb");
    let names: Vec<&str> = s.placed.iter().map(|p| mig.name(p.profile)).collect();
    assert_eq!(names, ["1g.10gb", "1g.10gb", "2g.20gb", "3g.40gb"]);
    assert_eq!(s.workloads.len(), 7);
    let w = &s.workloads[0];
    assert_eq!((w.model.as_str(), w.context, w.concurrency), ("llama-2-7b", 2048, 3));
    let packed = pack_workloads(gpu, &mig, &s.workloads);
    assert_eq!(packed.total_gpus(), 1);
    assert!(packed.outcomes.iter().all(
        |o| matches!(o, Outcome::Instance { placement, .. } if mig.name(placement.profile) == "1g.10gb")
    ));
}

/// Chapter 11's diagnosis example: Llama-3.1-8B in BF16 on an H100 SXM decoding one request at
/// 170 tokens/s. "The engine's upper bound is about 216 tokens per second, set by the memory
/// roof; 170 tokens per second means the weights stream at about 79% of the card's peak
/// bandwidth."
#[test]
fn chapter_11_decode_reaches_79_percent_of_the_memory_roof() {
    use gpu_primer::engine::bound::Term;
    use gpu_primer::engine::diagnose::{compare_to_bound, Measured};
    let mut s = scenario("llama-3.1-8b");
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Bf16);
    s.gpu = "h100-sxm".into();
    s.batch = 1;
    let r = evaluate(&s).unwrap();
    let decode = &r.performance.phases.decode;
    assert_eq!(decode.bound.dominant, Term::Memory);
    assert_eq!(decode.tokens_per_s_bound.round(), 216.0);
    let c = compare_to_bound(Measured::TokensPerS(170.0), decode.tokens, &decode.bound).unwrap();
    assert_eq!((c.memory_roof_fraction * 100.0).round(), 79.0);
    // The tool's preset is this example, and it shows the same share.
    let (state, notices) = gpu_primer::tools::diagnose::parse_query("preset=decode");
    assert!(notices.is_empty());
    assert_eq!(state.scenario().unwrap().batch, s.batch);
    let html = gpu_primer::tools::diagnose::results_html(gpu_primer::i18n::Lang::En, &state, false);
    assert!(html.contains("reaches <strong>79%</strong> of the memory-bandwidth roof"), "{html}");
}

/// Chapter 15 (sharing GPUs): ten A100 80 GB notebooks held all day and used six hours, at
/// $3.673/h, reclaimed after one idle hour; three 7B chat services as MIG slices of one H100
/// at $6.88/h; one such service alone on an H100. The chapter's numbers, from the calculator's
/// chapter preset, in both languages' text.
#[test]
fn sharing_chapter_idle_notebooks_reclaim_and_mig() {
    use gpu_primer::tools::cluster::{month, presets, slicing};
    let s = presets::chapter(&gpu_primer::i18n::Lang::En.cluster().names);
    let m = month(&s).expect("the chapter's example prices");
    let tens = |v: f64| ((v / 10.0).round() * 10.0) as u64;
    // 180 idle GPU-hours a day at $3.673: about $661 a day.
    assert_eq!((180.0f64 * 3.673).round(), 661.0);
    assert_eq!(m.bills[0].idle_hours, 5_475.0);
    assert_eq!(tens(m.total.idle), 20_110);
    assert_eq!(tens(m.total.reclaimable), 18_990);
    assert_eq!(m.bills[0].reclaimable_hours * 18.0, 5_475.0 * 17.0);
    let sl = slicing(&s).expect("the services price").expect("three services");
    assert_eq!((sl.slicing.whole_gpus, sl.slicing.sliced_gpus), (3, 1));
    assert_eq!(tens(sl.slicing.savings), 10_040);
    assert_eq!((sl.services[0].need_bytes as f64 / 1e9).round(), 17.0);
    assert_eq!(sl.services[0].profile.as_deref(), Some("1g.20gb"));
    // One 7B service alone on a whole H100: 6.88 × 730 ≈ $5,020 a month.
    let one = gpu_primer::engine::cluster::slicing(1, 1, 6.88).unwrap();
    assert_eq!(tens(one.whole_cost), 5_020);
    for lang in ["en", "zh"] {
        let path = format!("{}/content/{lang}/15-sharing-gpus.md", env!("CARGO_MANIFEST_DIR"));
        let text = gpu_primer::content::numbers::fill(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for n in [
            "661",
            "5,475",
            "20,110",
            // The exact dollars (the tens above are what the engine's results round to).
            "18,99",
            "17 GB",
            "1g.20gb",
            "10,04",
            "5,02",
            "{{widget:cluster:sharing}}",
        ] {
            assert!(text.contains(n), "{lang}: {n}");
        }
    }
}

/// Chapter 10 (training, fine-tuning, inference): the recipe paragraph. Llama-3.1-8B at batch
/// 2 × 2,048 tokens: logits 2 × 2,048 × 128,256 values, 1.05 GB in bf16, + 2 × 2.10 GB fp32
/// (the upcast copy and its log-softmax) at full size = 5.25 GB, 1.58 GB with 8 loss chunks;
/// AdamW states 96.4 GB mixed, 32.1 GB all bf16; checkpointed activations 1.73 GB → 0.72 GB
/// offloaded; the torchtune-like recipe on an RTX 4090 at 20.0 GiB. Each number from the engine and in both languages' text.
#[test]
fn chapter_10_recipe_paragraph() {
    let read = |lang: &str| {
        let md = std::fs::read_to_string(format!(
            "{}/content/{lang}/10-training-finetuning-inference.md",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        gpu_primer::content::numbers::fill(&md).unwrap()
    };
    let (en, zh) = (read("en"), read("zh"));
    let run = |v: serde_json::Value| {
        let mut base = serde_json::json!({"model": "llama-3.1-8b", "mode": "training", "batch": 2,
            "context_tokens": 2048});
        for (k, x) in v.as_object().unwrap() {
            base[k] = x.clone();
        }
        evaluate(&Scenario::from_json(&base).unwrap()).unwrap().memory_per_gpu_bytes
    };
    let gb = |b: u64| format!("{:.2} GB", b as f64 / 1e9);
    let gb1 = |b: u64| format!("{:.1} GB", b as f64 / 1e9);
    let full = run(serde_json::json!({"training_precision": "bf16"}));
    let chunked = run(serde_json::json!({"training_precision": "bf16", "loss_chunks": 8}));
    let bf16_logits = 2 * 2048 * 128_256 * 2;
    let fp32_copy = 2 * 2048 * 128_256 * 4;
    assert_eq!(full.logits, bf16_logits + 2 * fp32_copy);
    assert_eq!(chunked.logits, bf16_logits + 2 * (fp32_copy / 8));
    let mixed = run(serde_json::json!({}));
    let recipe = serde_json::json!({"gpu": "rtx-4090", "training_precision": "bf16", "loss_chunks": 8,
        "optimizer": "paged_adamw_8bit", "optimizer_in_backward": true, "recompute": "full"});
    let tuned = run(recipe.clone());
    let tuned_report = evaluate(&Scenario::from_json(&{
        let mut b = serde_json::json!({"model": "llama-3.1-8b", "mode": "training", "batch": 2, "context_tokens": 2048});
        for (k, x) in recipe.as_object().unwrap() {
            b[k] = x.clone();
        }
        b
    }).unwrap()).unwrap();
    let mut offloaded = recipe;
    offloaded["activation_offload"] = true.into();
    let offloaded = run(offloaded);
    let numbers = [
        gb(bf16_logits),
        gb(fp32_copy),
        gb(full.logits),
        gb(chunked.logits),
        gb1(mixed.optimizer),
        gb1(full.optimizer),
        gb(tuned.activations),
        gb(offloaded.activations),
        format!("{:.1} GiB", tuned_report.allocator_counted_bytes as f64 / f64::from(1u32 << 30)),
    ];
    assert_eq!(
        numbers,
        ["1.05 GB", "2.10 GB", "5.25 GB", "1.58 GB", "96.4 GB", "32.1 GB", "1.73 GB", "0.72 GB", "20.0 GiB"]
    );
    // On the 24 GB card the paged states fill what is left; the rest waits in host memory.
    assert_eq!(tuned.total, tuned_report.gpu_memory_bytes);
    assert!(
        tuned_report.host_memory_bytes > 0
            && tuned.optimizer + tuned_report.host_memory_bytes == 2 * 8_030_261_248
    );
    // The text gives the fp32 arrays only within the sum (5.25 GB), not apart.
    for n in numbers.iter().filter(|n| n.as_str() != "2.10 GB") {
        assert!(en.contains(n.as_str()) && zh.contains(n.as_str()), "{n}");
    }
    assert!(en.contains("2 × 2,048 × 128,256") && zh.contains("2 × 2,048 × 128,256"));
    assert!(en.contains("one of 8 chunks") && zh.contains("8 块中的一块"));
    // What PyTorch counts leaves the paged states out.
    assert_eq!(tuned_report.allocator_counted_bytes, tuned.total - tuned.optimizer);
}

/// Chapter 2, "Why hybrid models hold long contexts in less memory": Qwen3-Next-80B-A3B keeps a
/// KV cache in 12 of its 48 layers and a fixed state in the other 36; Nemotron 3 Nano's Mamba
/// state is FP32. Every figure the section states, from the engine.
#[test]
fn chapter_2_hybrid_models_hold_long_contexts_in_less_memory() {
    use gpu_primer::catalog::models::find;
    use gpu_primer::engine::model::hybrid::per_sequence;
    use gpu_primer::engine::precision::Dtype::Bf16;
    const MIB: u128 = 1 << 20;
    const GIB: u128 = 1 << 30;
    let q = |ctx| per_sequence(&find("qwen3-next-80b-a3b").unwrap().architecture, ctx, Bf16, Bf16);
    let p = q(131_072);
    assert_eq!((p.layers, p.attention_layers, p.state_layers), (48, 12, 36));
    assert_eq!(p.kv_per_token, 24 * 1024); // 24 KiB
    assert_eq!(p.kv, 3 * GIB);
    assert_eq!(p.kv_if_all_attention, 12 * GIB); // 96 KiB per token
    assert_eq!(p.state, 39_518_208); // ≈ 37.7 MiB
    assert_eq!((p.state * 10 + MIB / 2) / MIB, 377); // 37.7 MiB, rounded
    assert!((p.state * 1000 / p.kv) >= 10 && (p.state * 1000 / p.kv) < 15, "a little over 1%");
    assert_eq!(q(1_048_576).state, p.state, "the same at 1M tokens");
    // Sixteen sequences: about 48.6 GiB.
    let sixteen = 16 * p.total();
    assert_eq!((sixteen * 10 + GIB / 2) / GIB, 486);
    // At 1,024 tokens: 24 MiB of KV next to 37.7 MiB of state.
    let short = q(1024);
    assert_eq!(short.kv, 24 * MIB);
    assert!(short.state > short.kv);
    // Qwen3-30B-A3B: 96 KiB per token.
    let dense = per_sequence(&find("qwen3-30b-a3b").unwrap().architecture, 131_072, Bf16, Bf16);
    assert_eq!((dense.kv_per_token, dense.state), (96 * 1024, 0));
    // Nemotron 3 Nano: 6 KiB per token, 46.8 MiB of FP32 Mamba state.
    let n = per_sequence(&find("nemotron-3-nano-30b-a3b").unwrap().architecture, 131_072, Bf16, Bf16);
    assert_eq!(n.kv_per_token, 6 * 1024);
    assert_eq!(n.state, 49_082_368);
    assert_eq!((n.state * 10 + MIB / 2) / MIB, 468);
}

use super::*;
use crate::tools::mig::Reason;

fn fields(n: &[Notice]) -> Vec<Field> {
    n.iter().map(|n| n.field).collect()
}

#[test]
fn presets_read_without_notices_and_round_trip() {
    for (name, q) in PRESETS {
        let (s, n) = decode(q);
        assert!(n.is_empty(), "{name}: {n:?}");
        let again = decode(&encode(&s));
        assert_eq!(again, (s.clone(), Vec::new()), "{name}");
        // `preset=NAME` opens the same state.
        assert_eq!(decode(&format!("preset={name}")).0, s, "{name}");
    }
    let (ch8, _) = decode("preset=7b-int4");
    assert_eq!(ch8.gpu, "a100-sxm-80gb");
    assert_eq!(ch8.placed.len(), 4);
    assert_eq!(ch8.workloads.len(), 7);
    assert!(encode(&ch8).ends_with("w=llama-2-7b:int4:fp16:2048:3*7"), "{}", encode(&ch8));
}

#[test]
fn an_empty_query_is_the_default_example() {
    assert_eq!(decode(""), (default_state(), Vec::new()));
    assert!(!default_state().workloads.is_empty());
}

#[test]
fn keys_override_a_preset() {
    let (s, n) = decode("preset=7b-int4&gpu=h100-sxm");
    assert!(n.is_empty(), "{n:?}");
    assert_eq!(s.gpu, "h100-sxm");
    // The preset's placements belong to another GPU: not carried over.
    assert!(s.placed.is_empty());
    assert_eq!(s.workloads.len(), 7);
}

#[test]
fn an_unknown_gpu_or_preset_is_named_and_replaced() {
    let (s, n) = decode("gpu=l4&w=llama-2-7b:int4:fp16:2048:3");
    assert_eq!(s.gpu, DEFAULT_GPU);
    assert_eq!(n, vec![Notice { field: Field::Gpu, problem: Problem::UnknownGpu { got: "l4".into() } }]);
    // GB200 is MIG-capable but its profile table is not in the catalog.
    assert_eq!(decode("gpu=gb200").0.gpu, DEFAULT_GPU);
    let (_, n) = decode("preset=nope");
    assert_eq!(fields(&n), vec![Field::Preset]);
}

#[test]
fn bad_placements_are_dropped_with_the_guides_reason() {
    let (s, n) =
        decode("gpu=h100-sxm&place=3g.40gb@0,2g.20gb@2,4g.40gb@4,9g.90gb@0,junk,3g.40gb@x,3g.40gb@4&w=");
    // 3g@0 and 3g@4 stay; the rest are refused or unreadable.
    let mig = gpu_tables("h100-sxm").unwrap();
    let names: Vec<(&str, u8)> = s.placed.iter().map(|p| (mig.name(p.profile), p.start)).collect();
    assert_eq!(names, vec![("3g.40gb", 0), ("3g.40gb", 4)]);
    let problems: Vec<&Problem> = n.iter().map(|n| &n.problem).collect();
    assert_eq!(
        problems[0],
        &Problem::Refused(Refusal {
            profile: "2g.20gb".into(),
            start: 2,
            reason: Reason::Overlap { other: "3g.40gb".into(), other_start: 0, slice: 2 }
        })
    );
    assert_eq!(
        problems[1],
        &Problem::Refused(Refusal {
            profile: "4g.40gb".into(),
            start: 4,
            reason: Reason::NotAllowed { allowed: vec![0] }
        })
    );
    assert_eq!(problems[2], &Problem::UnknownProfile { got: "9g.90gb".into() });
    assert_eq!(problems[3], &Problem::BadPlacement { got: "junk".into() });
    assert_eq!(problems[4], &Problem::BadPlacement { got: "3g.40gb@x".into() });
    assert_eq!(
        fields(&n)[..5],
        [Field::Place(1), Field::Place(2), Field::Place(3), Field::Place(4), Field::Place(5)]
    );
    // `w=` with nothing: an empty list, said so.
    assert!(s.workloads.is_empty());
    assert_eq!(n.last().map(|n| &n.problem), Some(&Problem::EmptyList));
}

#[test]
fn the_guides_limits_refuse_more_instances() {
    let (s, n) = decode("gpu=a100-sxm-80gb&place=1g.10gb%2Bme@0,1g.10gb+me@1,4g.40gb@0");
    let mig = gpu_tables("a100-sxm-80gb").unwrap();
    assert_eq!(s.placed.len(), 1);
    assert_eq!(mig.name(s.placed[0].profile), "1g.10gb+me");
    assert!(matches!(&n[0].problem, Problem::Refused(Refusal { reason: Reason::SecondMedia { .. }, .. })));
    assert!(matches!(
        &n[1].problem,
        Problem::Refused(Refusal { reason: Reason::Overlap { slice: 0, .. }, .. })
    ));
    let (_, n) = decode("gpu=h100-sxm&place=3g.40gb@0,3g.40gb@4,1g.10gb@7");
    assert!(matches!(
        &n[0].problem,
        Problem::Refused(Refusal { reason: Reason::NotAllowed { allowed }, start: 7, .. }) if allowed == &vec![0, 1, 2, 3, 4, 5, 6]
    ));
}

#[test]
fn each_bad_workload_part_is_repaired_alone() {
    let (s, n) = decode("gpu=h100-sxm&w=nope:int3:fp4:0:-3,llama-3.1-8b:int4:fp8:100000000:5000");
    let d = Workload::default();
    assert_eq!(s.workloads[0], Workload { concurrency: 1, ..d.clone() });
    assert_eq!(
        fields(&n),
        vec![
            Field::Workload(0, Part::Model),
            Field::Workload(0, Part::Weights),
            Field::Workload(0, Part::Kv),
            Field::Workload(0, Part::Context),
            Field::Workload(0, Part::Concurrency),
            Field::Workload(1, Part::Context),
            Field::Workload(1, Part::Concurrency),
        ]
    );
    assert_eq!(n[4].problem, Problem::OutOfRange { got: "-3".into(), min: 1, max: MAX_CONCURRENCY, used: 1 });
    assert_eq!(s.workloads[1].weights, Dtype::Int4);
    assert_eq!(s.workloads[1].kv, Dtype::Fp8);
    assert_eq!(s.workloads[1].context, d.context);
    // A short spec: the missing parts are named.
    let (_, n) = decode("w=llama-3.1-8b");
    assert_eq!(n.len(), 4, "{n:?}");
}

#[test]
fn too_many_workloads_are_cut() {
    let (s, n) = decode("w=llama-3.1-8b:bf16:bf16:4096:1*20,qwen3-8b:bf16:bf16:4096:1*20");
    assert_eq!(s.workloads.len(), MAX_WORKLOADS);
    assert_eq!(
        n,
        vec![Notice { field: Field::Workloads, problem: Problem::TooManyWorkloads { max: MAX_WORKLOADS } }]
    );
}

proptest::proptest! {
    /// Whatever the query, decoding gives a state that encodes and decodes to itself, and every
    /// placement in it passes the guide's check.
    #[test]
    fn any_query_decodes_to_a_valid_fixed_point(q in "[a-z0-9=&@,.:*+%-]{0,80}") {
        let (s, _) = decode(&q);
        let again = decode(&encode(&s));
        proptest::prop_assert_eq!(&again.0, &s);
        proptest::prop_assert!(again.1.iter().all(|n| n.problem == Problem::EmptyList));
        let mig = gpu_tables(&s.gpu).unwrap();
        proptest::prop_assert!(check(mig.geometry, &mig.slices, &s.placed).is_ok());
    }
}

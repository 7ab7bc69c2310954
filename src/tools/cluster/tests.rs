use super::presets::{self, Names};
use super::*;

fn names() -> Names {
    crate::i18n::Lang::En.cluster().names
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn the_page_example_round_trips() {
    let s = presets::page(&names());
    let q = encode(&s);
    let (back, notices) = decode(&q, &names());
    assert_eq!(notices, vec![]);
    assert_eq!(back, s);
    // A name with separators and non-ASCII survives.
    let mut odd = s.clone();
    odd.teams[0].name = "R&D ~ 研究*组 = 1%".into();
    odd.services[0].name = "a~b".into();
    odd.reclaim = None;
    let (back, notices) = decode(&encode(&odd), &names());
    assert_eq!((back, notices), (odd, vec![]));
}

#[test]
fn a_preset_and_an_empty_query() {
    let (s, n) = decode("preset=sharing", &names());
    assert_eq!((s, n), (presets::chapter(&names()), vec![]));
    let (s, n) = decode("", &names());
    assert_eq!((s, n), (presets::page(&names()), vec![]));
    let (s, n) = decode("preset=nope", &names());
    assert_eq!(s, presets::page(&names()));
    assert_eq!(n, vec![Notice { field: Field::Preset, issue: Issue::UnknownPreset }]);
}

#[test]
fn bad_fields_are_repaired_and_named() {
    let q = "p=h100-sxm*0*-4~nope*2*3&t=1*A*4*9000*0*6*1*1*0~7*B*2*50p*3*30*0*0*-1&r=soon&m=l4*6&s=x*-2~y*no-such-model";
    let (s, n) = decode(q, &names());
    let got: Vec<(Field, Issue)> = n.iter().map(|n| (n.field, n.issue)).collect();
    assert_eq!(
        got,
        vec![
            (Field::PoolPrice(0), Issue::Engine(Problem::ZeroPrice)),
            (Field::PoolCount(0), Issue::Engine(Problem::NotANonNegativeNumber)),
            (Field::PoolGpu(1), Issue::UnknownGpu),
            (Field::TeamUsed(0), Issue::Engine(Problem::MoreHoursThanHeld)),
            (Field::TeamPool(1), Issue::NoSuchPool),
            (Field::TeamActive(1), Issue::MoreThanADay),
            (Field::TeamStretches(1), Issue::AtLeastOne),
            (Field::TeamWaiting(1), Issue::Engine(Problem::NotANonNegativeNumber)),
            (Field::TeamNotebooks(1), Issue::NotebooksExceedQuota),
            (Field::Reclaim, Issue::Unreadable),
            (Field::MigGpu, Issue::NoMig),
            (Field::ServiceNeed(0), Issue::Engine(Problem::NotANonNegativeNumber)),
            (Field::ServiceNeed(1), Issue::UnknownModel),
        ]
    );
    // Repaired values: the catalog price, the example count, hours cut to the quota's month.
    assert!(close(s.pools[0].price, 6.88));
    assert_eq!(s.pools[0].gpus, 8.0);
    assert_eq!(s.pools[1].gpu, presets::FALLBACK_GPU);
    assert_eq!(s.teams[0].used, Used::Hours(2920.0));
    assert_eq!((s.teams[1].pool, s.teams[1].active_hours, s.teams[1].stretches), (0, 24.0, 1.0));
    assert_eq!(s.teams[1].notebooks, 2.0);
    assert_eq!(s.mig_gpu, presets::MIG_GPU);
    // The repaired state prices without NaN.
    let m = month(&s).unwrap();
    assert!(m.total.pool.is_finite() && m.bills.iter().all(|b| b.idle.is_finite()));
}

#[test]
fn empty_lists_fall_back_to_the_example_with_a_notice() {
    let (s, n) = decode("t=&p=", &names());
    assert_eq!(s.teams, presets::page(&names()).teams);
    assert_eq!(
        n,
        vec![
            Notice { field: Field::Pools, issue: Issue::Empty },
            Notice { field: Field::Teams, issue: Issue::Empty }
        ]
    );
    // Removed in the page, an empty team list is an error naming the field, not a panic.
    let mut s = presets::chapter(&names());
    edit::act(&mut s, "del-team", 0, "T", "S");
    assert_eq!(month(&s).unwrap_err(), vec![Notice { field: Field::Teams, issue: Issue::Empty }]);
}

/// The chapter's example: ten A100 80 GB notebooks at $3.673/h, used six hours a day.
#[test]
fn the_chapter_month_by_hand() {
    let s = presets::chapter(&names());
    let m = month(&s).unwrap();
    // 10 × 730 × 3.673 = 26,812.9; used a quarter: 6,703.225; idle 5,475 h × 3.673 = 20,109.675.
    assert!(close(m.total.pool, 26_812.9));
    assert!(close(m.total.used, 6_703.225));
    assert!(close(m.total.idle, 20_109.675));
    assert_eq!(m.total.unallocated, 0.0);
    // Reclaim after an hour of 18-hour stretches: 17/18 of 5,475 h = 5,170.83 h → $18,992.47.
    assert!(close(m.total.reclaimable, 5_475.0 * 17.0 / 18.0 * 3.673));
    // Nobody lends, nothing waits.
    assert_eq!((m.total.borrowed_hours, m.total.preemption_value), (0.0, 0.0));
    assert_eq!(m.bills.len(), 1);
    assert!(close(m.bills[0].idle_hours, 5_475.0));
}

#[test]
fn editing_a_team_changes_its_bill_and_the_query() {
    let mut s = presets::page(&names());
    let before = month(&s).unwrap().bills[1].clone();
    assert_eq!(edit::set(&mut s, "tu", 1, "100%", false), edit::Redraw::Results);
    let after = month(&s).unwrap().bills[1].clone();
    assert_eq!(after.idle, 0.0);
    assert!(close(after.used, before.used + before.idle));
    assert!(encode(&s).contains("*100p*"));
    // A typed negative quota is named, not priced.
    edit::set(&mut s, "tq", 0, "-3", false);
    let e = month(&s).unwrap_err();
    assert!(
        e.contains(&Notice {
            field: Field::TeamQuota(0),
            issue: Issue::Engine(Problem::NotANonNegativeNumber)
        }),
        "{e:?}"
    );
    // Changing a pool's GPU takes its dated price and redraws the controls.
    assert_eq!(edit::set(&mut s, "pg", 1, "h200-sxm", false), edit::Redraw::Controls);
    assert!(close(s.pools[1].price, default_price("h200-sxm").unwrap()));
}

#[test]
fn removing_a_pool_removes_its_teams_and_renumbers() {
    let mut s = presets::page(&names());
    edit::act(&mut s, "del-pool", 0, "T", "S");
    assert_eq!(s.pools.len(), 1);
    assert_eq!(s.teams.iter().map(|t| t.pool).collect::<Vec<_>>(), vec![0]);
    edit::act(&mut s, "add-team", 0, "Team", "S");
    assert_eq!(s.teams.last().map(|t| t.name.as_str()), Some("Team 2"));
    edit::act(&mut s, "add-service", 0, "T", "Service");
    assert_eq!(s.services.last().map(|v| v.need.clone()), Some(Need::Gb(10.0)));
}

#[test]
fn pre_emption_in_the_page_example() {
    let s = presets::page(&names());
    let m = month(&s).unwrap();
    // Pool 1: 16 H100s; research 10 at 70 % lends, product 4 at 40 % keeps its quota and waits
    // 600 h. Lendable: 2 unallocated GPUs (1,460 h) + research's idle 30 % of 7,300 h (2,190 h).
    let p = &m.pools[0].costs;
    assert!(close(p.lendable_hours, 1_460.0 + 2_190.0));
    assert!(close(p.borrowed_hours, 600.0));
    assert!(close(p.preemption_value, 600.0 * 6.88));
}

#[test]
fn three_7b_services_share_one_h100() {
    let s = presets::chapter(&names());
    let sl = slicing(&s).unwrap().unwrap();
    let x = &sl.slicing;
    assert_eq!((x.whole_gpus, x.sliced_gpus), (3, 1), "{sl:?}");
    assert!(close(x.whole_cost, 3.0 * 730.0 * 6.88));
    assert!(close(x.savings, 2.0 * 730.0 * 6.88));
    assert!(sl.services.iter().all(|o| o.profile.as_deref() == Some("1g.20gb")), "{sl:?}");
    // A service larger than any slice takes whole GPUs and saves nothing.
    let mut big = s.clone();
    big.services = vec![ServiceRow { name: "big".into(), need: Need::Gb(150.0) }];
    let sl = slicing(&big).unwrap().unwrap();
    assert_eq!((sl.slicing.whole_gpus, sl.slicing.sliced_gpus, sl.slicing.savings), (2, 2, 0.0));
    // A price of zero is named.
    big.mig_price = 0.0;
    assert_eq!(
        slicing(&big).unwrap_err(),
        vec![Notice { field: Field::MigPrice, issue: Issue::Engine(Problem::ZeroPrice) }]
    );
}

#[test]
fn the_html_names_every_error_and_shows_no_nan() {
    for lang in [crate::i18n::Lang::Zh, crate::i18n::Lang::En] {
        let names = lang.cluster().names;
        let s = presets::page(&names);
        let html = html::results_html(lang, &s, 640);
        assert!(html.contains("data-k=\"pool\"") && html.contains("data-k=\"mig\"") && html.contains("<svg"));
        assert!(!html.contains("NaN") && !html.contains("inf"), "{html}");
        // Every headline shows its math: pool, used, idle, reclaim, pre-emption, MIG.
        assert_eq!(html.matches("<details class=\"math\">").count(), 6);
        assert!(html.contains("16 × 730 h × $6.88 + 8 × 730 h × $3.673 = $101,809"), "{html}");
        let controls = html::controls_html(lang, &s);
        assert!(controls.contains("data-f=\"tq\" data-i=\"2\""));
        let mut bad = s.clone();
        bad.pools[0].price = 0.0;
        bad.teams[0].quota = f64::NAN;
        let html = html::results_html(lang, &bad, 360);
        assert!(
            html.contains("data-field=\"pools.0.price\"") && html.contains("data-field=\"teams.0.quota\""),
            "{html}"
        );
        assert!(!html.contains("NaN"));
    }
}

/// Every `{{widget:cluster:PRESET}}` in a chapter names a preset this tool has.
#[test]
fn chapter_slots_name_existing_presets() {
    let mut seen = 0;
    for c in crate::content::chapters() {
        for page in [&c.zh, &c.en] {
            for s in page.segments.iter() {
                if let crate::content::Segment::Widget(w) = s {
                    if let Some(preset) = w.strip_prefix("cluster:") {
                        seen += 1;
                        assert!(presets::named(preset, &names()).is_some(), "{}: {preset}", c.slug);
                    }
                }
            }
        }
    }
    assert_eq!(seen, 2, "the sharing chapter in both languages");
}

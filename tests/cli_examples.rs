//! The worked examples in docs/cli.md are what `gpu-primer estimate` prints: each example's
//! command is run, and every value of its JSON excerpt is found in the report (integers exactly,
//! rounded decimals to the digits shown), so the reference cannot drift from the engine.

mod common;

use serde_json::Value;

/// Each example of docs/cli.md: its scenario (the `echo '…' | gpu-primer estimate -` command's
/// JSON) and the JSON values of the excerpt that follows it.
fn examples() -> Vec<(String, Vec<Value>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md");
    let text = std::fs::read_to_string(path).expect("docs/cli.md is readable");
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("`echo '") {
        rest = &rest[at + "`echo '".len()..];
        let end = rest.find("' | gpu-primer estimate -`").expect("the command ends as the examples write it");
        let scenario = rest[..end].to_owned();
        let open = rest.find("```json\n").expect("an excerpt follows the command") + "```json\n".len();
        let close = open + rest[open..].find("\n```").expect("the excerpt's block closes");
        let values = serde_json::Deserializer::from_str(&rest[open..close])
            .into_iter::<Value>()
            .collect::<Result<Vec<_>, _>>()
            .unwrap_or_else(|e| panic!("the excerpt after {scenario} is JSON: {e}"));
        out.push((scenario, values));
        rest = &rest[close..];
    }
    out
}

/// Half a unit of the last significant digit a decimal is written with (0 for 0): how far the
/// engine's value may be from a rounded one.
fn half_unit(shown: f64) -> f64 {
    if shown == 0.0 {
        return 0.0;
    }
    let text = format!("{:e}", shown.abs());
    let mantissa = text.split('e').next().unwrap_or("");
    let digits = mantissa.chars().filter(char::is_ascii_digit).count() as i32;
    let magnitude = shown.abs().log10().floor() as i32;
    0.5 * 10f64.powi(magnitude - digits + 1)
}

/// The report's value at a key; a dotted key the report does not hold as one (`"derivations.
/// kv_cache_bytes_per_token"`) is followed part by part.
fn child<'a>(report: &'a Value, key: &str) -> Option<&'a Value> {
    report.get(key).or_else(|| {
        let (head, tail) = key.split_once('.')?;
        child(report.get(head)?, tail)
    })
}

fn compare(shown: &Value, got: &Value, path: &str, wrong: &mut Vec<String>) {
    match (shown, got) {
        (Value::Object(fields), _) => {
            for (key, value) in fields {
                let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                match child(got, key) {
                    Some(g) => compare(value, g, &at, wrong),
                    None => wrong.push(format!("{at}: not in the report")),
                }
            }
        }
        (Value::Number(s), Value::Number(g)) if s.is_f64() || g.is_f64() => {
            let (s, g) = (s.as_f64().unwrap(), g.as_f64().unwrap());
            if (s - g).abs() > half_unit(s) * (1.0 + 1e-9) {
                wrong.push(format!("{path}: shown {s}, the engine gives {g}"));
            }
        }
        _ if shown != got => wrong.push(format!("{path}: shown {shown}, the engine gives {got}")),
        _ => {}
    }
}

#[test]
fn the_worked_examples_are_what_the_engine_prints() {
    let examples = examples();
    assert_eq!(examples.len(), 4, "docs/cli.md's four worked examples");
    let mut wrong = Vec::new();
    for (scenario, excerpt) in &examples {
        let (code, stdout, stderr) = common::estimate(scenario);
        assert_eq!(code, 0, "{scenario}: {stderr}");
        let report: Value = serde_json::from_str(&stdout).expect("the report is JSON");
        for value in excerpt {
            let mut here = Vec::new();
            compare(value, &report, "", &mut here);
            wrong.extend(here.into_iter().map(|w| format!("{scenario}: {w}")));
        }
    }
    assert!(wrong.is_empty(), "docs/cli.md's examples differ from the engine:\n{}", wrong.join("\n"));
}

#[test]
fn a_rounded_value_is_held_to_its_digits() {
    for (shown, half) in
        [(2.6533, 0.00005), (0.00945, 0.000005), (39709.0, 0.5), (5.469e11, 5e7), (6.88, 0.005)]
    {
        assert!((half_unit(shown) - half).abs() <= half * 1e-9, "{shown}: {}", half_unit(shown));
    }
    assert_eq!(half_unit(0.0), 0.0);
    let mut wrong = Vec::new();
    let report = serde_json::json!({"time": {"s": 0.012512378}, "n": 7, "derivations": {"k": {"f": "a"}}});
    compare(
        &serde_json::json!({"time": {"s": 0.012512}, "n": 7, "derivations.k": {"f": "a"}}),
        &report,
        "",
        &mut wrong,
    );
    assert!(wrong.is_empty(), "{wrong:?}");
    compare(&serde_json::json!({"time": {"s": 0.012397}, "n": 8, "gone": 1}), &report, "", &mut wrong);
    assert_eq!(wrong.len(), 3, "{wrong:?}");
}

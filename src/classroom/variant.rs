//! Exercises with parameters: each student's numbers, and the key the engine computes for them.
//!
//! A parametric exercise generalises one of the chapter's numeric exercises (same id, same
//! report path, scale, decimals and tolerance). Its scenario is a template whose `{p:NAME}`
//! fields a [`Param`] fills; the chapter's own numbers are every parameter's `default`, and a
//! test holds that the default variant's scenario and key are the chapter's (the key takes the
//! same path: scenario → `catalog::evaluate` → `exercises::report_value`). A variant is the
//! values drawn from a seed ([`crate::classroom::draw`]); a draw that breaks one of the
//! exercise's [`Rule`]s (a model that does not fit, a context beyond the model's) is drawn
//! again, so every variant a student sees is one the engine answers sensibly.
//!
//! Question, hint and worked solution are templates in both languages. Besides `{p:NAME}` they
//! may use `{r:PATH:SCALE:DECIMALS}` (a number of the variant's report, as in the chapter's
//! solutions), `{b:PATH:SCALE:DECIMALS}` (the same number with the batch at the report's
//! `solvers.max_batch`: what the memory holds when it is full, for questions whose key is that
//! batch), `{m:FIELD}` (the model: `name`, `layers`, `heads`, `kv_heads`, `head_dim`),
//! `{g:FIELD}` (the GPU: `name`, `memory_gb`, `bandwidth_tbs`, `bf16_tflops`: the dense BF16
//! Tensor Core peak a compute-bound question divides by; `link`: the link between the GPUs of a
//! node the report takes, NVLink or Infinity Fabric on a module, PCIe on a card) and, in
//! solutions, `{key}`.

use crate::classroom::draw::{seed_of, Draw};
use crate::engine::report::Report;
use crate::exercises::{format_number, parse_scenario, report_value, Answer, Calc, Exercise};
use crate::i18n::Lang;

/// One value a parameter can take: what goes into the scenario, and what a question shows.
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    pub value: &'static str,
    pub label: &'static str,
}

/// A parameter: its name in the templates, the chapter's value, and the values a draw picks
/// from (uniformly).
#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub default: Choice,
    pub choices: &'static [Choice],
}

/// A condition every variant meets; a draw that breaks one is drawn again.
#[derive(Debug, Clone, Copy)]
pub enum Rule {
    /// The scenario fits in the GPU's usable memory (the report's `fits`).
    Fits,
    /// The scenario's `context_tokens` is within the model's `max_position_embeddings`.
    WithinContext,
    /// The number at `path` of the report is at least `min` (e.g. at least one request fits).
    AtLeast { path: &'static str, min: f64 },
    /// For a key that is the solved `solvers.max_batch`: the unrounded quotient (the memory
    /// left beside everything else, over one request's KV cache) is at least `margin` from a
    /// whole number, so that the rounded numbers a question states cannot move the answer
    /// across one (a count's key has no tolerance), and its whole part is the solved batch
    /// (the question's numbers alone lead to the key).
    ClearOfRounding { margin: f64 },
    /// The phase's bound time (`phases.PHASE.bound`) is its compute term: its FLOPs over the
    /// dense peak are at least its bytes over the bandwidth, so that a question that divides
    /// the FLOPs by the peak reaches the key (a prefill of few new tokens is memory-bound).
    ComputeBound { phase: &'static str },
}

/// The words of one language: templates.
#[derive(Debug)]
pub struct Words {
    pub question: &'static str,
    pub hint: &'static str,
    pub solution: &'static str,
}

/// An exercise with parameters.
#[derive(Debug)]
pub struct Parametric {
    /// The chapter exercise it generalises (its key's path, scale, decimals, tolerance, unit).
    pub id: &'static str,
    pub params: &'static [Param],
    /// The scenario JSON with `{p:NAME}` fields.
    pub scenario: &'static str,
    pub rules: &'static [Rule],
    pub zh: Words,
    pub en: Words,
}

/// How many draws a variant may take before the exercise is reported as unable to meet its
/// rules (a test draws 1,000 variants of every exercise; none comes near this).
const MAX_DRAWS: u64 = 200;

impl Parametric {
    pub fn words(&self, lang: Lang) -> &Words {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }

    /// The chapter exercise this one generalises.
    pub fn base(&self) -> Result<&'static Exercise, String> {
        crate::exercises::find(self.id)
            .ok_or_else(|| format!("{}: no chapter exercise with this id", self.id))
    }

    /// The variant with the chapter's numbers.
    pub fn default_variant(&'static self) -> Result<Variant, String> {
        let values = self.params.iter().map(|p| (p.name, p.default)).collect();
        self.variant_with(values)
    }

    /// A student's variant: the values drawn from `seed` (see [`variant_seed`]).
    pub fn variant(&'static self, seed: u64) -> Result<Variant, String> {
        let mut draw = Draw::new(seed);
        let mut last = String::new();
        for _ in 0..MAX_DRAWS {
            let values = self.params.iter().map(|p| (p.name, pick(p, &mut draw))).collect();
            match self.variant_with(values) {
                Ok(v) => return Ok(v),
                Err(e) => last = e,
            }
        }
        Err(format!("{}: no draw in {MAX_DRAWS} met the exercise's rules ({last})", self.id))
    }

    /// The variant for given values: the scenario filled in, evaluated, checked against the rules.
    pub fn variant_with(&'static self, values: Vec<(&'static str, Choice)>) -> Result<Variant, String> {
        let scenario = fill_params(self.scenario, &values)?;
        let s = parse_scenario(&scenario)?;
        let report = crate::catalog::evaluate(&s).map_err(|e| format!("engine: {e}"))?;
        let v = Variant { exercise: self, values, scenario, report };
        v.check_rules()?;
        v.key_value()?;
        Ok(v)
    }
}

/// One value of a parameter, uniformly.
fn pick(p: &Param, draw: &mut Draw) -> Choice {
    let i = draw.below(p.choices.len() as u64) as usize;
    p.choices.get(i).copied().unwrap_or(p.default)
}

/// The seed of a student's variant of an exercise in a class: the same on every device.
pub fn variant_seed(class: &str, student: &str, exercise: &str) -> u64 {
    seed_of(&[class, student.trim(), exercise])
}

/// An exercise's numbers for one student, with its evaluated report.
#[derive(Debug)]
pub struct Variant {
    pub exercise: &'static Parametric,
    pub values: Vec<(&'static str, Choice)>,
    /// The filled-in scenario JSON.
    pub scenario: String,
    pub report: Report,
}

impl Variant {
    fn check_rules(&self) -> Result<(), String> {
        for rule in self.exercise.rules {
            match *rule {
                Rule::Fits if !self.report.fits => return Err("does not fit".into()),
                Rule::WithinContext => {
                    let ctx = context_tokens(&self.scenario);
                    let max = self.model().and_then(|m| m.architecture.max_position_embeddings);
                    if let (Some(ctx), Some(max)) = (ctx, max) {
                        if ctx > max {
                            return Err(format!("context {ctx} beyond the model's {max}"));
                        }
                    }
                }
                Rule::AtLeast { path, min } => {
                    let v = report_value(&self.report, path).ok_or_else(|| format!("no number at {path}"))?;
                    if v < min {
                        return Err(format!("{path} = {v} < {min}"));
                    }
                }
                Rule::ClearOfRounding { margin } => {
                    let q = self.requests_quotient()?;
                    let solved = report_value(&self.report, "solvers.max_batch").unwrap_or(0.0);
                    // The question states the activations with the memory full; at a small
                    // batch they still grow with it, and then the stated numbers would allow
                    // one more request than fits.
                    if q.floor() != solved {
                        return Err(format!("the stated numbers give {q:.3} requests, the solver {solved}"));
                    }
                    let frac = q - q.floor();
                    if frac < margin || frac > 1.0 - margin {
                        return Err(format!("{q:.3} requests is within {margin} of a whole number"));
                    }
                }
                Rule::ComputeBound { phase } => {
                    let term = |name: &str| {
                        let path = format!("phases.{phase}.bound.{name}");
                        report_value(&self.report, &path).ok_or_else(|| format!("no number at {path}"))
                    };
                    let (compute, memory) = (term("compute_s")?, term("memory_s")?);
                    if compute < memory {
                        return Err(format!("{phase} is memory-bound: {memory} s > {compute} s"));
                    }
                }
                Rule::Fits => {}
            }
        }
        Ok(())
    }

    fn answer(&self) -> Result<(&'static str, f64, usize, f64), String> {
        match self.exercise.base()?.answer {
            Answer::Number { calc: Calc::Report { path, .. }, scale, decimals, tolerance } => {
                Ok((path, scale, decimals, tolerance))
            }
            _ => Err(format!("{}: a parametric exercise needs a report-based key", self.exercise.id)),
        }
    }

    /// The key in the question's unit.
    pub fn key_value(&self) -> Result<f64, String> {
        let (path, scale, ..) = self.answer()?;
        let v =
            report_value(&self.report, path).ok_or_else(|| format!("report has no number at '{path}'"))?;
        let key = v * scale;
        if key.is_finite() && key > 0.0 {
            Ok(key)
        } else {
            Err(format!("{}: key {key} is not a positive number", self.exercise.id))
        }
    }

    /// The relative tolerance a right answer is within.
    pub fn tolerance(&self) -> f64 {
        self.answer().map(|a| a.3).unwrap_or(0.0)
    }

    /// The key as the question's decimals show it, without separators.
    pub fn key_text(&self) -> Result<String, String> {
        let (_, _, decimals, _) = self.answer()?;
        Ok(format_number(self.key_value()?, decimals, false))
    }

    /// The unit the answer is asked in (the chapter exercise's).
    pub fn unit(&self, lang: Lang) -> &'static str {
        self.exercise.base().map(|b| b.text(lang).unit).unwrap_or("")
    }

    /// Whether `input` is right, as the chapter's check decides it: the number read in the
    /// question's unit of `lang` (another unit of its kind converted), within the tolerance;
    /// `Err` when it cannot be read as such a number (the page says why).
    pub fn check(&self, input: &str, lang: Lang) -> Result<bool, crate::exercises::check::Unreadable> {
        let Ok(key) = self.key_value() else { return Ok(false) };
        crate::exercises::check::answer_is_right(input, self.unit(lang), key, self.tolerance())
    }

    /// [`Variant::check`] in English, an unreadable answer counting as wrong.
    pub fn is_right(&self, input: &str) -> bool {
        self.check(input, Lang::En).unwrap_or(false)
    }

    pub fn question(&self, lang: Lang) -> Result<String, String> {
        self.fill(self.exercise.words(lang).question)
    }

    pub fn hint(&self, lang: Lang) -> Result<String, String> {
        self.fill(self.exercise.words(lang).hint)
    }

    pub fn solution(&self, lang: Lang) -> Result<String, String> {
        self.fill(self.exercise.words(lang).solution)
    }

    /// The value of parameter `name` (as it goes into the scenario).
    pub fn value(&self, name: &str) -> Option<&'static str> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, c)| c.value)
    }

    fn model(&self) -> Option<&'static crate::catalog::models::Entry> {
        crate::catalog::models::find(scenario_str(&self.scenario, "model")?.as_str())
    }

    fn gpu(&self) -> Option<&'static crate::engine::gpu::Gpu> {
        crate::catalog::gpus::find(scenario_str(&self.scenario, "gpu")?.as_str())
    }

    /// The name of the link the report puts between the GPUs of a node: the GPU's NVLink (or
    /// Infinity Fabric) when the report's rate is its, else its PCIe slot (a card's default).
    fn intra_node_link(&self, g: &crate::engine::gpu::Gpu) -> Result<String, String> {
        let rate = self.report.performance.hardware.intra_node_bytes_per_s_per_direction;
        match (&g.nvlink, &g.pcie) {
            (Some(n), _) if rate > 0.0 && g.nvlink_bytes_per_s_per_direction() == rate => {
                Ok(n.generation.clone())
            }
            (_, Some(p)) if g.pcie_bytes_per_s_per_direction() == Some(rate) => {
                let generation = p.generation.ok_or("the GPU's PCIe generation is not in the catalog")?;
                Ok(format!("PCIe {generation}.0 x16"))
            }
            _ => Err(format!("{}: no catalog link runs at the report's {rate} B/s", g.id)),
        }
    }

    /// How many requests the free memory holds before rounding down: with the memory full
    /// (the batch at `solvers.max_batch`), the usable memory less everything but the KV cache,
    /// over one request's share of the KV cache.
    fn requests_quotient(&self) -> Result<f64, String> {
        let full = self.at_max_batch()?;
        let m = &full.memory_per_gpu_bytes;
        let batch = report_value(&self.report, "solvers.max_batch").ok_or("no solved batch")?;
        let per_request = m.kv_cache as f64 / batch;
        let q = (self.report.usable_gpu_memory_bytes as f64 - (m.total - m.kv_cache) as f64) / per_request;
        if q.is_finite() {
            Ok(q)
        } else {
            Err("no request fits".into())
        }
    }

    /// The report with the batch set to the solved `solvers.max_batch`.
    pub fn at_max_batch(&self) -> Result<Report, String> {
        let batch = report_value(&self.report, "solvers.max_batch").ok_or("no solved batch")?;
        let mut json: serde_json::Value = serde_json::from_str(&self.scenario).map_err(|e| e.to_string())?;
        json["batch"] = serde_json::Value::from(batch as u64);
        let s = parse_scenario(&json.to_string())?;
        crate::catalog::evaluate(&s).map_err(|e| format!("engine: {e}"))
    }

    fn fill(&self, template: &str) -> Result<String, String> {
        fill_template(template, |field| self.field(field)).map_err(|e| format!("{}: {e}", self.exercise.id))
    }

    fn field(&self, field: &str) -> Result<String, String> {
        let (kind, rest) = field.split_once(':').unwrap_or((field, ""));
        match kind {
            "key" => {
                let (_, _, decimals, _) = self.answer()?;
                Ok(format_number(self.key_value()?, decimals, true))
            }
            "p" => self
                .values
                .iter()
                .find(|(n, _)| *n == rest)
                .map(|(_, c)| c.label.to_string())
                .ok_or_else(|| format!("no parameter '{rest}'")),
            "r" => {
                let (path, scale, decimals) = number_spec(rest)?;
                let v = report_value(&self.report, path)
                    .ok_or_else(|| format!("report has no number at '{path}'"))?;
                Ok(format_number(v * scale, decimals, true))
            }
            "b" => {
                let (path, scale, decimals) = number_spec(rest)?;
                let full = self.at_max_batch()?;
                let v =
                    report_value(&full, path).ok_or_else(|| format!("report has no number at '{path}'"))?;
                Ok(format_number(v * scale, decimals, true))
            }
            "m" => {
                let m = self.model().ok_or("the scenario names no catalog model")?;
                let a = &m.architecture;
                Ok(match rest {
                    "name" => m.model.name.clone(),
                    "layers" => a.layers.to_string(),
                    "kv_heads" => a.attention.kv_heads.to_string(),
                    "heads" => a.attention.heads.to_string(),
                    "head_dim" => a.attention.head_dim.to_string(),
                    _ => return Err(format!("no model field '{rest}'")),
                })
            }
            "g" => {
                let g = self.gpu().ok_or("the scenario names no catalog GPU")?;
                Ok(match rest {
                    "name" => g.name.clone(),
                    "memory_gb" => format_number(g.memory_bytes as f64 / 1e9, 0, true),
                    "bandwidth_tbs" => {
                        trim_zeros(&format_number(g.memory_bandwidth_bytes_per_s / 1e12, 3, false))
                    }
                    // The dense peak the engine's compute roof takes for BF16 (989.5 on an H100 SXM).
                    "bf16_tflops" => {
                        let peak = g.peak_flops.bf16.ok_or("the GPU has no BF16 peak")?;
                        trim_zeros(&format_number(peak / 1e12, 1, false))
                    }
                    "link" => self.intra_node_link(g)?,
                    _ => return Err(format!("no GPU field '{rest}'")),
                })
            }
            _ => Err(format!("unknown field '{{{field}}}'")),
        }
    }
}

/// `PATH:SCALE:DECIMALS`.
fn number_spec(spec: &str) -> Result<(&str, f64, usize), String> {
    let mut parts = spec.split(':');
    let (Some(path), Some(scale), Some(decimals), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("'{spec}' is not PATH:SCALE:DECIMALS"));
    };
    let scale = scale.parse().map_err(|_| format!("bad scale in '{spec}'"))?;
    let decimals = decimals.parse().map_err(|_| format!("bad decimals in '{spec}'"))?;
    Ok((path, scale, decimals))
}

/// 3.350 → 3.35, 4.800 → 4.8, 2.039 stays.
fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A template with every `{…}` replaced by `field(…)`.
fn fill_template(
    template: &str,
    mut field: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find('}').ok_or("unclosed '{'")?;
        out.push_str(&field(&after[..end])?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The scenario template with its `{p:NAME}` fields replaced by the values. JSON's own braces
/// are left alone: only `{p:` opens a field.
fn fill_params(template: &str, values: &[(&'static str, Choice)]) -> Result<String, String> {
    let mut out = template.to_string();
    for (name, choice) in values {
        out = out.replace(&format!("{{p:{name}}}"), choice.value);
    }
    match out.find("{p:") {
        Some(at) => {
            Err(format!("scenario field without a parameter: {}", &out[at..(at + 20).min(out.len())]))
        }
        None => Ok(out),
    }
}

fn scenario_str(scenario: &str, key: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(scenario).ok()?;
    v.get(key)?.as_str().map(str::to_string)
}

fn context_tokens(scenario: &str) -> Option<u64> {
    let v: serde_json::Value = serde_json::from_str(scenario).ok()?;
    v.get("context_tokens")?.as_u64()
}

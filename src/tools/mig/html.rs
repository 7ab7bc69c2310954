//! The MIG planner as escaped HTML strings: the page's parts, each a pure function of the state,
//! so the view only writes them into its containers. Controls carry `data-act` (what a click or
//! change does) and `data-i` (which row); the view delegates events on the panel.

use super::state::{encode, MigState, Notice, Workload, KV_DTYPES, MAX_WORKLOADS, WEIGHT_DTYPES};
use super::{mig_gpus, pack_workloads, share, Gpu, MigGpu, Outcome, Packed, Refusal};
use crate::catalog::models;
use crate::charts::figures::mig_slices::{mig_slices_svg, MigFigure, MigInstance};
use crate::charts::format::{format_bytes, format_rate, format_sig3, ByteUnit};
use crate::engine::mig::{free_starts, Placement};
use crate::engine::precision::Dtype;
use crate::html::escape as esc;
use crate::i18n::tool_mig::{notice, refusal};
use crate::i18n::{errors, Lang};
use crate::route::{Route, Tool};

fn gb(bytes: u64) -> String {
    format_bytes(bytes, ByteUnit::Gb)
}

fn option(value: &str, label: &str, selected: bool) -> String {
    format!(
        "<option value=\"{}\"{}>{}</option>",
        esc(value),
        if selected { " selected" } else { "" },
        esc(label)
    )
}

/// The GPU select: every catalog GPU with MIG profiles.
pub fn gpu_select(lang: Lang, s: &MigState) -> String {
    let options: String = mig_gpus().iter().map(|g| option(&g.id, &g.name, g.id == s.gpu)).collect();
    format!(
        "<label class=\"mig-gpu\">{} <select id=\"mig-gpu\" data-act=\"gpu\">{options}</select></label>",
        esc(lang.mig().gpu)
    )
}

/// The repair notices (empty when there are none).
pub fn notices_html(lang: Lang, notices: &[Notice]) -> String {
    if notices.is_empty() {
        return String::new();
    }
    let items: String = notices.iter().map(|n| format!("<li>{}</li>", esc(&notice(n, lang)))).collect();
    format!(
        "<div class=\"banner warn\" role=\"status\"><strong>{}</strong><ul>{items}</ul></div>",
        esc(lang.mig().repaired)
    )
}

/// One GPU's layout as the chapter's slice figure; `label(i)` words instance `i`'s memory line.
fn layout_svg(
    lang: Lang,
    title: &str,
    mig: &MigGpu,
    placed: &[Placement],
    label: &dyn Fn(usize) -> String,
) -> String {
    let t = lang.mig();
    let instances = placed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let sl = mig.slices.get(p.profile)?;
            Some(MigInstance {
                name: mig.name(p.profile).to_owned(),
                compute_slices: u32::from(sl.compute),
                memory_slices: u32::from(sl.memory),
                memory: label(i),
                start: u32::from(p.start),
            })
        })
        .collect();
    mig_slices_svg(&MigFigure {
        title: title.to_owned(),
        compute_label: t.compute_slices.into(),
        memory_label: t.memory_slices.into(),
        unused: t.unused.into(),
        compute_slices: u32::from(mig.geometry.compute),
        memory_slices: u32::from(mig.geometry.memory),
        instances,
    })
}

/// The hand placement: the drawing, the add form (profile, start, the free starts), a refusal,
/// and the instances with what each gets.
pub fn hand_html(
    lang: Lang,
    gpu: &Gpu,
    mig: &MigGpu,
    placed: &[Placement],
    pick: Placement,
    refused: Option<&Refusal>,
) -> String {
    let t = lang.mig();
    let shares: Vec<_> = placed.iter().filter_map(|p| share(gpu, mig, *p)).collect();
    let svg = layout_svg(lang, &gpu.name, mig, placed, &|i| {
        shares.get(i).map_or(String::new(), |s| gb(s.memory_bytes))
    });
    let profiles: String = mig
        .profiles
        .iter()
        .enumerate()
        .map(|(i, p)| option(&i.to_string(), &p.name, i == pick.profile))
        .collect();
    let starts: String =
        (0..mig.geometry.memory).map(|k| option(&k.to_string(), &k.to_string(), k == pick.start)).collect();
    let free = free_starts(mig.geometry, &mig.slices, placed, pick.profile);
    let free_text = if free.is_empty() {
        esc(t.no_free_start)
    } else {
        free.iter()
            .map(|k| format!("<button class=\"chip\" data-act=\"put\" data-i=\"{k}\">{k}</button>"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let alert = refused.map_or(String::new(), |r| {
        format!(
            "<p class=\"banner error\" role=\"alert\" id=\"mig-refused\"><strong>{}</strong> {}</p>",
            esc(t.refused),
            esc(&refusal(r, lang))
        )
    });
    let rows: String = shares
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let sm = match s.sm_count {
                Some(n) => n.to_string(),
                None => format!("{}{}/{}{}", t.of_compute.0, s.compute_slices, mig.geometry.compute, t.of_compute.1),
            };
            let l2 = s.l2_bytes.map_or("—".to_owned(), |b| format_bytes(b, ByteUnit::Gib));
            format!(
                "<tr><td><code>{}</code> @{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><button class=\"button secondary\" data-act=\"remove\" data-i=\"{i}\">{}</button></td></tr>",
                esc(&s.name),
                s.start,
                gb(s.memory_bytes),
                esc(&sm),
                format_rate(s.bandwidth_bytes_per_s, "B/s"),
                esc(&l2),
                esc(t.remove)
            )
        })
        .collect();
    let table = if shares.is_empty() {
        format!("<p class=\"hint\">{}</p>", esc(t.no_instances))
    } else {
        format!(
            "<div class=\"mig-scroll\"><table class=\"mig-table mig-shares\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><td></td></tr></thead><tbody>{rows}</tbody></table></div>\
             <p><button class=\"button secondary\" data-act=\"clear\">{}</button></p><p class=\"hint\">{}</p>",
            esc(t.instance),
            esc(t.memory),
            esc(t.sms),
            esc(t.bandwidth),
            esc(t.l2),
            esc(t.clear),
            esc(t.share_note)
        )
    };
    format!(
        "<div class=\"mig-figure\" data-instances=\"{}\">{svg}</div>\
         <div class=\"mig-add\"><label>{} <select id=\"mig-profile\" data-act=\"pick-profile\">{profiles}</select></label> \
         <label>{} <select id=\"mig-start\" data-act=\"pick-start\">{starts}</select></label> \
         <button class=\"button\" id=\"mig-place\" data-act=\"place\">{}</button></div>\
         <p class=\"mig-free\">{}{free_text}</p>{alert}{table}",
        placed.len(),
        esc(t.profile),
        esc(t.start),
        esc(t.place),
        esc(t.free_starts),
    )
}

fn dtype_options(offered: &[Dtype], chosen: Dtype) -> String {
    offered.iter().map(|d| option(d.name(), &d.name().to_ascii_uppercase(), *d == chosen)).collect()
}

/// The editable list of workloads (rebuilt only when rows are added or removed, so a number
/// being typed keeps its focus).
pub fn workloads_html(lang: Lang, workloads: &[Workload]) -> String {
    let t = lang.mig();
    let rows: String = workloads
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let model_options: String =
                models::all().iter().map(|m| option(&m.model.id, &m.model.name, m.model.id == w.model)).collect();
            format!(
                "<tr><td>{}</td><td><select aria-label=\"{m}\" data-act=\"w-model\" data-i=\"{i}\">{model_options}</select></td>\
                 <td><select aria-label=\"{wt}\" data-act=\"w-weights\" data-i=\"{i}\">{}</select></td>\
                 <td><select aria-label=\"{kv}\" data-act=\"w-kv\" data-i=\"{i}\">{}</select></td>\
                 <td><input type=\"number\" min=\"1\" step=\"1\" aria-label=\"{ctx}\" data-act=\"w-context\" data-i=\"{i}\" value=\"{}\"></td>\
                 <td><input type=\"number\" min=\"1\" step=\"1\" aria-label=\"{n}\" data-act=\"w-concurrency\" data-i=\"{i}\" value=\"{}\"></td>\
                 <td><button class=\"button secondary\" data-act=\"w-remove\" data-i=\"{i}\">{}</button></td></tr>",
                i + 1,
                dtype_options(&WEIGHT_DTYPES, w.weights),
                dtype_options(&KV_DTYPES, w.kv),
                w.context,
                w.concurrency,
                esc(t.remove_workload),
                m = esc(t.model),
                wt = esc(t.weights),
                kv = esc(t.kv),
                ctx = esc(t.context),
                n = esc(t.concurrency),
            )
        })
        .collect();
    let add = if workloads.len() < MAX_WORKLOADS {
        format!("<p><button class=\"button\" data-act=\"w-add\">{}</button></p>", esc(t.add_workload))
    } else {
        String::new()
    };
    format!(
        "<div class=\"mig-scroll\"><table class=\"mig-table mig-workloads\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><td></td></tr></thead><tbody>{rows}</tbody></table></div>{add}",
        esc(t.model),
        esc(t.weights),
        esc(t.kv),
        esc(t.context),
        esc(t.concurrency)
    )
}

/// The packing: how many GPUs, each GPU's layout with its workloads, and per workload what it
/// needs, where it went and its decode speed there.
pub fn results_html(lang: Lang, gpu: &Gpu, mig: &MigGpu, workloads: &[Workload]) -> String {
    let t = lang.mig();
    if workloads.is_empty() {
        return format!("<p class=\"banner warn\" role=\"status\">{}</p>", esc(t.empty_list));
    }
    let packed = pack_workloads(gpu, mig, workloads);
    let total = packed.total_gpus();
    let mut out = format!(
        "<p class=\"mig-summary\" data-gpus=\"{total}\"><strong>{}{total}{}{}{}</strong> ({}{}{}{})</p>",
        esc(t.summary.0),
        esc(t.summary.1),
        esc(&gpu.name),
        esc(t.summary.2),
        packed.layouts.len(),
        esc(t.summary_split.0),
        packed.whole_gpus,
        esc(t.summary_split.1)
    );
    out.push_str("<div class=\"mig-gpus\">");
    for (g, layout) in packed.layouts.iter().enumerate() {
        let placed: Vec<Placement> = layout.iter().map(|(p, _)| *p).collect();
        let label = |i: usize| layout.get(i).map_or(String::new(), |(_, w)| format!("#{}", w + 1));
        let title = format!("{}{}", t.gpu_n, g + 1);
        out.push_str(&format!(
            "<figure class=\"mig-figure\" data-gpu=\"{}\">{}<figcaption>{}</figcaption></figure>",
            g + 1,
            layout_svg(lang, &title, mig, &placed, &label),
            esc(&title)
        ));
    }
    out.push_str("</div>");
    out.push_str(&workload_table(lang, mig, workloads, &packed));
    out
}

fn workload_table(lang: Lang, mig: &MigGpu, workloads: &[Workload], packed: &Packed) -> String {
    let t = lang.mig();
    let rows: String = workloads
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let name = models::find(&w.model).map_or(w.model.as_str(), |m| m.model.name.as_str());
            let mem = packed.memory.get(i).and_then(Option::as_ref);
            let need = mem.map_or("—".to_owned(), |m| gb(m.total));
            let (place, speed, math) = match packed.outcomes.get(i) {
                Some(Outcome::Instance { gpu, placement, tokens_per_s, whole }) => {
                    let mut where_ = format!("{}{} · <code>{}</code> @{}", esc(t.gpu_n), gpu + 1, esc(mig.name(placement.profile)), placement.start);
                    if *whole {
                        where_.push_str(&format!(" <span class=\"mig-flag\">{}</span>", esc(t.whole_gpu)));
                    }
                    let speed = tokens_per_s.map_or("—".to_owned(), |v| format!("{}{}", format_sig3(v), t.tokens_per_s));
                    let usable = packed.usable_profile_bytes.get(placement.profile).copied();
                    (where_, speed, mem.map(|m| math_line(lang, m, usable)).unwrap_or_default())
                }
                Some(Outcome::WholeGpus { gpus }) => (
                    format!("<span class=\"mig-flag\">{}{gpus}{}</span>", esc(t.whole_gpus.0), esc(t.whole_gpus.1)),
                    "—".to_owned(),
                    mem.map(|m| math_line(lang, m, Some(packed.usable_gpu_bytes))).unwrap_or_default(),
                ),
                Some(Outcome::Invalid(e)) => (
                    format!("<span class=\"error\">{}{}</span>", esc(t.cannot_size), esc(&errors::scenario_error(e.scenario_error(), lang))),
                    "—".to_owned(),
                    String::new(),
                ),
                None => ("—".to_owned(), "—".to_owned(), String::new()),
            };
            format!(
                "<tr data-w=\"{}\"><td>{}</td><td>{} · {}/{} · {} × {}</td><td>{}</td><td>{place}</td><td>{}</td></tr>\
                 <tr class=\"mig-math-row\"><td></td><td colspan=\"4\">{math}</td></tr>",
                i + 1,
                i + 1,
                esc(name),
                w.weights.name().to_ascii_uppercase(),
                w.kv.name().to_ascii_uppercase(),
                w.concurrency,
                crate::charts::format::format_tokens(w.context),
                esc(&need),
                esc(&speed)
            )
        })
        .collect();
    format!(
        "<div class=\"mig-scroll\"><table class=\"mig-table mig-plan\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table></div><p class=\"hint\">{}</p>",
        esc(t.model),
        esc(t.needs),
        esc(t.placed_on),
        esc(t.decode),
        esc(t.margin_note)
    )
}

/// `weights + KV + activations + runtime = total ≤ usable` as a small line under the need.
fn math_line(lang: Lang, m: &crate::engine::memory::MemoryBreakdown, usable: Option<u64>) -> String {
    let t = lang.mig();
    let [w, kv, act, rt, us] = t.math;
    let mut line = format!(
        "{w} {} + {kv} {} + {act} {} + {rt} {} = {}",
        gb(m.weights),
        gb(m.kv_cache),
        gb(m.activations),
        gb(m.overhead),
        gb(m.total)
    );
    if let Some(u) = usable {
        line.push_str(&format!(" {} {us} {}", if m.total <= u { "≤" } else { ">" }, gb(u)));
    }
    format!("<small class=\"mig-math\">{}</small>", esc(&line))
}

/// MIG against MPS and time slicing (chapters 8 and 15).
pub fn compare_html(lang: Lang) -> String {
    let t = lang.mig();
    let head: String = t.compare_head.iter().map(|h| format!("<th scope=\"col\">{}</th>", esc(h))).collect();
    let rows: String = t
        .compare_rows
        .iter()
        .map(|[aspect, mig, mps, ts]| {
            format!(
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(aspect),
                esc(mig),
                esc(mps),
                esc(ts)
            )
        })
        .collect();
    format!(
        "<h2>{}</h2><div class=\"mig-scroll\"><table class=\"mig-table mig-compare\"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>",
        esc(t.compare_heading)
    )
}

/// The link from a widget to the full tool with the widget's state.
pub fn open_full_href(lang: Lang, s: &MigState) -> String {
    format!("{}?{}", Route::Tool(lang, Tool::Mig).to_hash(), encode(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::mig::state::{decode, gpu_of};

    #[test]
    fn the_page_parts_in_both_languages() {
        let (s, _) = decode("preset=mixed");
        let (gpu, mig) = gpu_of(&s).unwrap();
        for lang in Lang::ALL {
            let t = lang.mig();
            let hand = hand_html(lang, gpu, &mig, &s.placed, Placement { profile: 0, start: 0 }, None);
            assert!(hand.contains("data-instances=\"3\"") && hand.contains(">4g.40gb<"), "{hand}");
            assert!(hand.contains(t.share_note));
            let results = results_html(lang, gpu, &mig, &s.workloads);
            assert!(results.contains("data-gpus=\"5\""), "{results}");
            assert!(results.contains(t.whole_gpus.0) && !results.contains("NaN"));
            assert_eq!(compare_html(lang).matches("<tr>").count(), 7);
            // Every column has a head a screen reader can announce (axe's empty-table-header).
            assert!(!compare_html(lang).contains("<th scope=\"col\"></th>"));
            assert!(results_html(lang, gpu, &mig, &[]).contains(t.empty_list));
        }
    }

    #[test]
    fn user_text_is_escaped() {
        let (_, notices) = decode("gpu=<b>&w=<script>:x:y:1:1");
        let html = notices_html(Lang::En, &notices);
        assert!(!html.contains("<b>") && !html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
    }
}

//! The calculator's HTML as strings: the controls (tables of pools, teams and services with
//! add and remove buttons, each field marked `data-f`/`data-i` for the page's one delegated
//! handler), the repair notices, and the results (headlines with their math, the cost chart,
//! the team bills, the MIG packing). Every text is escaped; every number comes from the engine.

use super::{check, month, slicing, Field, Month, Need, Notice, SlicingOut, State, Used, SERVICE_CONTEXT};
use crate::catalog::{gpus, models};
use crate::charts::cost_split::{cost_split_svg, CostSplitChart, CostSplitRow};
use crate::charts::format::{format_bytes, group_digits, ByteUnit};
use crate::engine::cluster::reclaimed_hours;
use crate::engine::num::u64_from_f64;
use crate::html::escape as esc;
use crate::i18n::tool_cluster::ClusterStrings;
use crate::i18n::Lang;
use std::fmt::Write as _;

/// Money in USD: whole dollars grouped from $100 up, cents below.
pub fn money(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let sign = if v < 0.0 { "−" } else { "" };
    let a = v.abs();
    if a >= 100.0 {
        format!("{sign}${}", group_digits(u64_from_f64(a.round())))
    } else {
        format!("{sign}${a:.2}")
    }
}

/// GPU-hours, grouped, whole hours from 100 up.
pub fn hours(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    if v >= 100.0 {
        format!("{} h", group_digits(u64_from_f64(v.round())))
    } else {
        format!("{} h", super::plain((v * 10.0).round() / 10.0))
    }
}

fn price(v: f64) -> String {
    format!("${}", super::plain((v * 10_000.0).round() / 10_000.0))
}

fn val(v: f64) -> String {
    if v.is_finite() {
        super::plain(v)
    } else {
        String::new()
    }
}

fn input(key: &str, i: usize, value: &str, label: &str, kind: &str) -> String {
    let mode = if kind == "text" { "" } else { " inputmode=\"decimal\"" };
    format!(
        "<input type=\"{kind}\"{mode} data-f=\"{key}\" data-i=\"{i}\" value=\"{}\" aria-label=\"{}\">",
        esc(value),
        esc(label)
    )
}

fn select(key: &str, i: usize, label: &str, options: &[(String, String)], chosen: &str) -> String {
    let mut out = format!("<select data-f=\"{key}\" data-i=\"{i}\" aria-label=\"{}\">", esc(label));
    for (v, l) in options {
        let sel = if v == chosen { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{}\"{sel}>{}</option>", esc(v), esc(l));
    }
    out.push_str("</select>");
    out
}

fn remove(action: &str, i: usize, t: &ClusterStrings) -> String {
    format!("<button type=\"button\" class=\"cl-del\" data-a=\"{action}\" data-i=\"{i}\" aria-label=\"{} {}\">×</button>", esc(t.remove), i + 1)
}

fn add(action: &str, label: &str) -> String {
    format!(
        "<button type=\"button\" class=\"button secondary cl-add\" data-a=\"{action}\">+ {}</button>",
        esc(label)
    )
}

fn table(head: &[&str], body: &str) -> String {
    // A column without a head (the remove buttons') has an empty cell there, not an empty header.
    let th: String = head
        .iter()
        .map(|h| {
            if h.is_empty() {
                "<td></td>".to_string()
            } else {
                format!("<th scope=\"col\">{}</th>", esc(h))
            }
        })
        .collect();
    format!("<div class=\"cl-scroll\"><table class=\"cl-table\"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>")
}

/// The controls: pools, teams, the reclaim policy, the light services.
pub fn controls_html(lang: Lang, s: &State) -> String {
    let t = lang.cluster();
    let gpu_options: Vec<(String, String)> =
        gpus::all().iter().map(|g| (g.id.clone(), g.name.clone())).collect();
    let mut pools = String::new();
    for (i, p) in s.pools.iter().enumerate() {
        let source = crate::catalog::default_price_per_gpu_hour(&p.gpu)
            .map(|(v, src)| {
                format!(
                    "<small class=\"cl-source\">{}{} <span data-source=\"\">{}</span></small>",
                    esc(t.dated),
                    price(v),
                    esc(&src)
                )
            })
            .unwrap_or_default();
        let _ = write!(
            pools,
            "<tr data-pool=\"{i}\"><th scope=\"row\">{}</th><td>{}{source}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            i + 1,
            select("pg", i, t.gpu, &gpu_options, &p.gpu),
            input("pn", i, &val(p.gpus), t.count, "number"),
            input("pp", i, &val(p.price), t.price, "number"),
            remove("del-pool", i, t)
        );
    }
    let pool_options: Vec<(String, String)> = s
        .pools
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                i.to_string(),
                format!("{} · {}", i + 1, gpus::find(&p.gpu).map_or(p.gpu.as_str(), |g| g.name.as_str())),
            )
        })
        .collect();
    let mut teams = String::new();
    for (i, m) in s.teams.iter().enumerate() {
        let lends = if m.lends { " checked" } else { "" };
        let _ = write!(
            teams,
            "<tr data-team=\"{i}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><input type=\"checkbox\" data-f=\"tl\" data-i=\"{i}\"{lends} aria-label=\"{}\"></td><td>{}</td><td>{}</td></tr>",
            input("tn", i, &m.name, t.name, "text"),
            select("tp", i, t.pool, &pool_options, &m.pool.to_string()),
            input("tq", i, &val(m.quota), t.quota, "number"),
            input("tu", i, &used_text(m.used), t.used, "text"),
            input("tb", i, &val(m.notebooks), t.notebooks, "number"),
            input("ta", i, &val(m.active_hours), t.active, "number"),
            input("ts", i, &val(m.stretches), t.stretches, "number"),
            esc(t.lends),
            input("tw", i, &val(m.waiting), t.waiting, "number"),
            remove("del-team", i, t)
        );
    }
    let mig_options: Vec<(String, String)> = gpus::all()
        .iter()
        .filter(|g| super::mig_profiles(&g.id).is_some())
        .map(|g| (g.id.clone(), g.name.clone()))
        .collect();
    let mut model_options = vec![(String::new(), t.typed.to_owned())];
    model_options.extend(models::all().iter().map(|m| (m.model.id.clone(), m.model.name.clone())));
    let mut services = String::new();
    for (i, v) in s.services.iter().enumerate() {
        let (model, gb) = match &v.need {
            Need::Gb(gb) => (String::new(), input("sg", i, &val(*gb), t.gb, "number")),
            Need::Model(id) => (id.clone(), String::new()),
        };
        let _ = write!(
            services,
            "<tr data-service=\"{i}\"><td>{}</td><td>{}</td><td>{gb}</td><td>{}</td></tr>",
            input("sn", i, &v.name, t.service, "text"),
            select("sm", i, t.size, &model_options, &model),
            remove("del-service", i, t)
        );
    }
    let reclaim = s.reclaim.map(val).unwrap_or_default();
    format!(
        "<section class=\"cl-section\"><h2>{}</h2>{}{}</section>\
         <section class=\"cl-section\"><h2>{}</h2><p class=\"hint\">{}</p>{}{}</section>\
         <section class=\"cl-section\"><h2>{}</h2><label class=\"cl-field\">{} {}</label><p class=\"hint\">{}</p></section>\
         <section class=\"cl-section\"><h2>{}</h2><p class=\"hint\">{}</p><div class=\"cl-row\"><label class=\"cl-field\">{} {}</label><label class=\"cl-field\">{} {}</label></div>{}{}</section>",
        esc(t.pools),
        table(&["#", t.gpu, t.count, t.price, ""], &pools),
        add("add-pool", t.add_pool),
        esc(t.teams),
        esc(t.teams_hint),
        table(
            &[t.name, t.pool, t.quota, t.used, t.notebooks, t.active, t.stretches, t.lends, t.waiting, ""],
            &teams
        ),
        add("add-team", t.add_team),
        esc(t.policy),
        esc(t.reclaim),
        input("r", 0, &reclaim, t.reclaim, "number"),
        esc(t.reclaim_hint),
        esc(t.services),
        esc(t.services_hint),
        esc(t.mig_gpu),
        select("mg", 0, t.mig_gpu, &mig_options, &s.mig_gpu),
        esc(t.price),
        input("mp", 0, &val(s.mig_price), t.mig_price, "number"),
        table(&[t.service, t.size, t.gb, ""], &services),
        add("add-service", t.add_service),
    )
}

fn used_text(u: Used) -> String {
    match u {
        Used::Hours(h) if !h.is_finite() => String::new(),
        Used::Percent(p) if !p.is_finite() => String::new(),
        u => u.text(),
    }
}

/// A list of fields and what is wrong with each (`class`: `warn` for a repaired link, `error`
/// for fields that stop the month).
pub fn notices_html(
    lang: Lang,
    s: &State,
    notices: &[Notice],
    heading: &str,
    class: &str,
    suffix: &str,
) -> String {
    if notices.is_empty() {
        return String::new();
    }
    let t = lang.cluster();
    let items: String = notices
        .iter()
        .map(|n| {
            format!(
                "<li data-field=\"{}\"><strong>{}</strong>{}{}{}</li>",
                field_key(n.field),
                esc(&t.field(n.field, s)),
                esc(t.colon),
                esc(t.issue(n.issue)),
                esc(suffix)
            )
        })
        .collect();
    format!(
        "<div class=\"banner {class}\" role=\"alert\"><strong>{}</strong><ul>{items}</ul></div>",
        esc(heading)
    )
}

/// A stable key for a field (`pools.1.price`), for tests and styling.
pub fn field_key(f: Field) -> String {
    match f {
        Field::Preset => "preset".into(),
        Field::Pools => "pools".into(),
        Field::PoolGpu(i) => format!("pools.{i}.gpu"),
        Field::PoolPrice(i) => format!("pools.{i}.price"),
        Field::PoolCount(i) => format!("pools.{i}.gpus"),
        Field::PoolQuotas(i) => format!("pools.{i}.quotas"),
        Field::Teams => "teams".into(),
        Field::TeamPool(i) => format!("teams.{i}.pool"),
        Field::TeamQuota(i) => format!("teams.{i}.quota"),
        Field::TeamUsed(i) => format!("teams.{i}.used"),
        Field::TeamNotebooks(i) => format!("teams.{i}.notebooks"),
        Field::TeamActive(i) => format!("teams.{i}.active"),
        Field::TeamStretches(i) => format!("teams.{i}.stretches"),
        Field::TeamWaiting(i) => format!("teams.{i}.waiting"),
        Field::Reclaim => "reclaim".into(),
        Field::MigGpu => "mig.gpu".into(),
        Field::MigPrice => "mig.price".into(),
        Field::ServiceNeed(i) => format!("services.{i}.need"),
    }
}

/// One headline of the month: its name, its value, and (a second description of the same
/// name, so that the list holds only names and descriptions) its note and math.
fn headline(key: &str, label: &str, shown: &str, raw: f64, note: &str, math: &str) -> String {
    let note = if note.is_empty() { String::new() } else { format!("<p class=\"hint\">{}</p>", esc(note)) };
    format!(
        "<div class=\"cl-headline\" data-k=\"{key}\"><dt>{}</dt><dd data-value=\"{raw}\">{}</dd><dd class=\"cl-more\">{note}{math}</dd></div>",
        esc(label),
        esc(shown)
    )
}

fn math(t: &ClusterStrings, formula: &str, values: &str) -> String {
    format!(
        "<details class=\"math\"><summary>{}</summary><dl><dt>{}</dt><dd><code>{}</code></dd><dt>{}</dt><dd><code>{}</code></dd></dl></details>",
        esc(t.show_math),
        esc(t.formula),
        esc(formula),
        esc(t.values),
        esc(values)
    )
}

/// Everything below the controls: errors, or the month's headlines, chart, bills and packing.
pub fn results_html(lang: Lang, s: &State, width: u32) -> String {
    let t = lang.cluster();
    let mut out = String::new();
    match month(s) {
        Err(errors) => out.push_str(&notices_html(lang, s, &errors, t.fix_heading, "error", "")),
        Ok(m) => out.push_str(&month_html(t, s, &m, width)),
    }
    match slicing(s) {
        Err(errors) => {
            // The cluster's own errors were listed above; only the services' are new here.
            let own: Vec<Notice> = errors.into_iter().filter(|n| !check(s).contains(n)).collect();
            out.push_str(&notices_html(lang, s, &own, t.fix_heading, "error", ""));
        }
        Ok(None) => {
            let _ = write!(out, "<p class=\"hint\">{}</p>", esc(t.no_services));
        }
        Ok(Some(sl)) => out.push_str(&slicing_html(t, s, &sl)),
    }
    out
}

fn month_html(t: &ClusterStrings, s: &State, m: &Month, width: u32) -> String {
    let c = &m.total;
    let per = t.per_month;
    let pool_values: Vec<String> =
        s.pools.iter().map(|p| format!("{} × 730 h × {}", val(p.gpus), price(p.price))).collect();
    let pool_math = math(t, t.f_pool, &format!("{} = {}", pool_values.join(" + "), money(c.pool)));
    let idle = c.idle + c.unallocated;
    let share = if c.pool > 0.0 { idle / c.pool } else { 0.0 };
    let mut idle_terms: Vec<String> = s
        .teams
        .iter()
        .zip(&m.bills)
        .map(|(tm, b)| {
            format!("({} − {}) × {}", hours(b.held_hours), hours(b.used_hours), price(pool_price(s, tm.pool)))
        })
        .collect();
    for (pm, p) in m.pools.iter().zip(&s.pools) {
        if pm.costs.unallocated > 0.0 {
            let quotas: f64 = pm.teams.iter().filter_map(|&i| s.teams.get(i)).map(|t| t.quota).sum();
            idle_terms.push(format!("{} × 730 h × {}", val(p.gpus - quotas), price(p.price)));
        }
    }
    let idle_math = math(t, t.f_idle, &format!("{} = {}", idle_terms.join(" + "), money(idle)));
    let reclaim = match s.reclaim {
        None => headline("reclaim", t.h_reclaim_off, "—", 0.0, t.reclaim_off, ""),
        Some(minutes) => {
            let terms: Vec<String> = s
                .teams
                .iter()
                .filter(|tm| tm.notebooks > 0.0)
                .map(|tm| {
                    let idle_nb = tm.idle_notebook_hours();
                    let l = tm.stretch_hours();
                    let won = reclaimed_hours(
                        &crate::engine::cluster::Team {
                            idle_notebook_gpu_hours: idle_nb,
                            idle_stretch_hours: l,
                            ..Default::default()
                        },
                        Some(minutes),
                    );
                    format!(
                        "{} × (24 − {}) × 730 ÷ 24 = {}; L = {}; T = {} min; {} × max(0, L − T) ÷ L = {} × {}",
                        val(tm.notebooks),
                        val(tm.active_hours),
                        hours(idle_nb),
                        hours(l),
                        val(minutes),
                        hours(idle_nb),
                        hours(won),
                        price(pool_price(s, tm.pool))
                    )
                })
                .collect();
            let values = format!(
                "{} = {}",
                if terms.is_empty() { "0".into() } else { terms.join(" + ") },
                money(c.reclaimable)
            );
            headline(
                "reclaim",
                &format!("{} (T = {} min)", t.h_reclaim, val(minutes)),
                &format!("{}{per}", money(c.reclaimable)),
                c.reclaimable,
                "",
                &math(t, t.f_reclaim, &values),
            )
        }
    };
    let preempt_values = format!(
        "min({}, {}) = {} → {}",
        hours(c.preemptible_hours),
        hours(c.lendable_hours),
        hours(c.borrowed_hours),
        money(c.preemption_value)
    );
    let mut out = format!("<h2>{}</h2><dl class=\"cl-headlines\">", esc(t.results));
    out.push_str(&headline("pool", t.h_pool, &format!("{}{per}", money(c.pool)), c.pool, "", &pool_math));
    let used_terms: Vec<String> = s
        .teams
        .iter()
        .zip(&m.bills)
        .map(|(tm, b)| format!("{} × {}", hours(b.used_hours), price(pool_price(s, tm.pool))))
        .collect();
    let used_math = math(t, t.f_used, &format!("{} = {}", used_terms.join(" + "), money(c.used)));
    out.push_str(&headline("used", t.h_used, &format!("{}{per}", money(c.used)), c.used, "", &used_math));
    out.push_str(&headline(
        "idle",
        t.h_idle,
        &format!("{}{per}", money(idle)),
        idle,
        &t.idle_share.replace("{p}", &crate::charts::format_percent(share)),
        &idle_math,
    ));
    out.push_str(&reclaim);
    out.push_str(&headline(
        "preempt",
        t.h_preempt,
        &format!("{} · {}{per}", hours(c.borrowed_hours), money(c.preemption_value)),
        c.preemption_value,
        t.preempt_note,
        &math(t, t.f_preempt, &preempt_values),
    ));
    out.push_str("</dl>");
    out.push_str(&chart(t, s, m, width));
    out.push_str(&bills_html(t, s, m));
    out
}

fn pool_price(s: &State, pool: usize) -> f64 {
    s.pools.get(pool).map_or(0.0, |p| p.price)
}

fn chart(t: &ClusterStrings, s: &State, m: &Month, width: u32) -> String {
    let row = |label: String, c: &crate::engine::cluster::Costs| CostSplitRow {
        label,
        parts: [c.used, (c.idle - c.reclaimable).max(0.0), c.reclaimable, c.unallocated],
        total_text: money(c.pool),
    };
    let mut rows: Vec<CostSplitRow> = m
        .pools
        .iter()
        .zip(&s.pools)
        .enumerate()
        .map(|(i, (pm, p))| {
            let name = gpus::find(&p.gpu).map_or(p.gpu.as_str(), |g| g.name.as_str());
            row(format!("{} {} · {name}", t.pool, i + 1), &pm.costs)
        })
        .collect();
    if rows.len() > 1 {
        rows.push(row(t.all_pools.to_owned(), &m.total));
    }
    let svg = cost_split_svg(
        &CostSplitChart {
            title: t.chart_title.into(),
            legend: [
                t.seg_used.into(),
                t.seg_idle.into(),
                t.seg_reclaimable.into(),
                t.seg_unallocated.into(),
            ],
            rows,
            no_data: t.no_data.into(),
        },
        width,
    );
    format!("<figure class=\"cl-chart\">{svg}</figure>")
}

fn bills_html(t: &ClusterStrings, s: &State, m: &Month) -> String {
    let mut body = String::new();
    for (i, (tm, b)) in s.teams.iter().zip(&m.bills).enumerate() {
        let util = if b.held_hours > 0.0 { b.used_hours / b.held_hours } else { 0.0 };
        let _ = write!(
            body,
            "<tr data-bill=\"{i}\"><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td data-value=\"{}\">{}</td></tr>",
            esc(&tm.name),
            tm.pool + 1,
            hours(b.held_hours),
            hours(b.used_hours),
            hours(b.idle_hours),
            crate::charts::format_percent(util),
            money(b.used),
            money(b.idle),
            money(b.reclaimable),
            b.used + b.idle,
            money(b.used + b.idle)
        );
    }
    format!(
        "<h3>{}</h3><p class=\"hint\">{}</p>{}",
        esc(t.bills),
        esc(t.bills_hint),
        table(
            &[
                t.name,
                t.pool,
                t.held_h,
                t.used_h,
                t.idle_h,
                t.utilisation,
                t.cost_used,
                t.cost_idle,
                t.cost_reclaimable,
                t.total
            ],
            &body
        )
    )
}

fn slicing_html(t: &ClusterStrings, s: &State, sl: &SlicingOut) -> String {
    let x = &sl.slicing;
    let gpu = gpus::find(&s.mig_gpu).map_or(s.mig_gpu.as_str(), |g| g.name.as_str());
    let values = format!(
        "({} − {}) × 730 h × {} = {} − {} = {}",
        x.whole_gpus,
        x.sliced_gpus,
        price(s.mig_price),
        money(x.whole_cost),
        money(x.sliced_cost),
        money(x.savings)
    );
    let mut out = format!("<h3>{} · {}</h3><dl class=\"cl-headlines\">", esc(t.services), esc(gpu));
    out.push_str(&headline(
        "mig",
        t.h_mig,
        &format!("{}{} · {} → {} GPU", money(x.savings), t.per_month, x.whole_gpus, x.sliced_gpus),
        x.savings,
        t.mig_note,
        &math(t, t.f_mig, &values),
    ));
    out.push_str("</dl>");
    let mut body = String::new();
    for (i, (v, o)) in s.services.iter().zip(&sl.services).enumerate() {
        let (profile, placed) = match (&o.profile, o.gpu) {
            (Some(p), Some(g)) => (p.clone(), format!("GPU {}", g + 1)),
            _ => ("—".into(), format!("{} {}", o.whole_gpus, t.whole)),
        };
        let sized = match &v.need {
            Need::Model(id) => format!(
                " ({}, BF16, {}K)",
                models::find(id).map_or(id.as_str(), |m| m.model.name.as_str()),
                SERVICE_CONTEXT / 1024
            ),
            Need::Gb(_) => String::new(),
        };
        let _ = write!(
            body,
            "<tr data-service-out=\"{i}\"><th scope=\"row\">{}</th><td>{}{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            esc(&v.name),
            esc(&format_bytes(o.need_bytes, ByteUnit::Gb)),
            esc(&sized),
            esc(&profile),
            esc(&placed),
            money(o.slice_month)
        );
    }
    out.push_str(&table(&[t.service, t.memory, t.profile, t.placed, t.slice_month], &body));
    out
}

//! What an event in the calculator's controls does to the state: a field typed or chosen
//! (`data-f` and `data-i` of the control) or a button pressed (`data-a`). Pure, so the tests
//! drive the same edits the page does.

use super::{default_price, presets, Need, PoolRow, ServiceRow, State, TeamRow, Used};

/// Whether the controls must be drawn again (rows added or removed, a price or a field that
/// depends on another changed), or only the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redraw {
    Results,
    Controls,
}

fn number(v: &str) -> f64 {
    v.trim().parse::<f64>().unwrap_or(f64::NAN)
}

/// Field `key` of row `i` set to `value` (`checked` for a checkbox).
pub fn set(s: &mut State, key: &str, i: usize, value: &str, checked: bool) -> Redraw {
    let mut redraw = Redraw::Results;
    if let Some(p) = s.pools.get_mut(i) {
        match key {
            "pg" => {
                p.gpu = value.to_owned();
                if let Some(price) = default_price(value) {
                    p.price = price;
                }
                redraw = Redraw::Controls;
            }
            "pp" => p.price = number(value),
            "pn" => p.gpus = number(value),
            _ => {}
        }
    }
    if let Some(t) = s.teams.get_mut(i) {
        match key {
            "tn" => t.name = value.to_owned(),
            "tp" => t.pool = value.parse().unwrap_or(usize::MAX),
            "tq" => t.quota = number(value),
            "tu" => t.used = Used::parse(value),
            "tb" => t.notebooks = number(value),
            "ta" => t.active_hours = number(value),
            "ts" => t.stretches = number(value),
            "tl" => t.lends = checked,
            "tw" => t.waiting = number(value),
            _ => {}
        }
    }
    if let Some(v) = s.services.get_mut(i) {
        match key {
            "sn" => v.name = value.to_owned(),
            "sm" => {
                v.need = if value.is_empty() { Need::Gb(10.0) } else { Need::Model(value.to_owned()) };
                redraw = Redraw::Controls;
            }
            "sg" => v.need = Need::Gb(number(value)),
            _ => {}
        }
    }
    match key {
        "r" => s.reclaim = if value.trim().is_empty() { None } else { Some(number(value)) },
        "mg" => {
            s.mig_gpu = value.to_owned();
            if let Some(price) = default_price(value) {
                s.mig_price = price;
            }
            redraw = Redraw::Controls;
        }
        "mp" => s.mig_price = number(value),
        _ => {}
    }
    redraw
}

/// Button `action` (on row `i` for a removal).
pub fn act(s: &mut State, action: &str, i: usize, new_team: &str, new_service: &str) {
    match action {
        "add-pool" => {
            let gpu = s.pools.last().map_or(presets::FALLBACK_GPU, |p| p.gpu.as_str()).to_owned();
            s.pools.push(PoolRow::new(&gpu, 8.0));
        }
        "del-pool" if i < s.pools.len() => {
            s.pools.remove(i);
            s.teams.retain(|t| t.pool != i);
            for t in &mut s.teams {
                if t.pool > i {
                    t.pool -= 1;
                }
            }
        }
        "add-team" => {
            let n = s.teams.len() + 1;
            s.teams.push(TeamRow::new(0, format!("{new_team} {n}")));
        }
        "del-team" if i < s.teams.len() => {
            s.teams.remove(i);
        }
        "add-service" => {
            let n = s.services.len() + 1;
            s.services.push(ServiceRow { name: format!("{new_service} {n}"), need: Need::Gb(10.0) });
        }
        "del-service" if i < s.services.len() => {
            s.services.remove(i);
        }
        _ => {}
    }
}

//! The estimator's llama.cpp group: how many layers stay on the GPU (`-ngl`), which experts stay
//! in host memory (`--n-cpu-moe`), the host's memory and its bandwidth, and what the placement
//! leaves in host memory with the most layers that fit.

use super::controls::{Scale, Slider};
use super::math::ShowMath;
use super::Ctx;
use crate::charts::format::format_bytes;
use crate::estimator::scales::nice_values;
use leptos::prelude::*;

/// What the group shows of the report.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Placed {
    layers: u64,
    /// `-ngl` as applied.
    gpu_layers: u64,
    moe: bool,
    host_bytes: u64,
    host_fits: Option<bool>,
    max_gpu_layers: Option<u64>,
    min_cpu_moe: Option<u64>,
    llama_cpp: bool,
}

#[component]
pub fn OffloadControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    let placed = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| Placed {
                layers: r.model.layers,
                gpu_layers: r.offload.as_ref().map_or(r.model.layers + 1, |o| o.gpu_layers),
                moe: r.params.experts > 0,
                host_bytes: r.host_memory_bytes,
                host_fits: r.offload.as_ref().and_then(|o| o.host_fits),
                max_gpu_layers: r.solvers.max_gpu_layers,
                min_cpu_moe: r.solvers.min_cpu_moe,
                llama_cpp: r.model.gguf.is_some(),
            })
            .unwrap_or_default()
        })
    });
    let layers = Memo::new(move |_| placed.with(|p| p.layers));
    let open = Memo::new(move |_| {
        ctx.with_scenario(|s| {
            s.gpu_layers.is_some() || s.n_cpu_moe > 0 || s.resolved_weight_dtype().file_type().is_some()
        })
    });
    let summary = Memo::new(move |_| {
        let unit = ctx.unit();
        placed.with(|p| {
            let host = format_bytes(p.host_bytes, unit);
            let verdict = match p.host_fits {
                Some(true) => ps.host_fits,
                Some(false) => ps.host_does_not_fit,
                None => "",
            };
            ps.offload_summary
                .replace("{n}", &p.gpu_layers.to_string())
                .replace("{of}", &(p.layers + 1).to_string())
                .replace("{host}", &host)
                .replace("{verdict}", verdict)
        })
    });
    let most = Memo::new(move |_| placed.with(|p| p.max_gpu_layers));
    let fewest_experts = Memo::new(move |_| placed.with(|p| p.min_cpu_moe));
    view! {
        <details class="group offload" prop:open=move || open.get()>
            <summary>{ps.offload_group}</summary>
            <p class="hint">{ps.offload_hint}</p>
            {move || {
                let l = layers.get();
                view! {
                    <Slider
                        id="gpu-layers"
                        label=e.gpu_layers
                        unit=ps.u_layers
                        scale=Scale::Linear { min: 0.0, max: (l + 1) as f64, step: 1.0 }
                        value=Signal::derive(move || ctx.with_scenario(|s| s.gpu_layers.unwrap_or(l + 1).min(l + 1) as f64))
                        set=Callback::new(move |v: f64| {
                            let n = v.max(0.0).round() as u64;
                            ctx.edit(|s| s.gpu_layers = (n <= l).then_some(n));
                        })
                        out_of_range=e.number_out_of_range
                    />
                }
            }}
            {move || (placed.with(|p| p.moe)).then(|| {
                let l = layers.get();
                view! {
                    <Slider
                        id="n-cpu-moe"
                        label=e.n_cpu_moe
                        unit=ps.u_layers
                        scale=Scale::Linear { min: 0.0, max: l as f64, step: 1.0 }
                        value=Signal::derive(move || ctx.with_scenario(|s| s.n_cpu_moe.min(l) as f64))
                        set=Callback::new(move |v: f64| ctx.edit(|s| s.n_cpu_moe = v.max(0.0).round() as u64))
                        out_of_range=e.number_out_of_range
                    />
                }
            })}
            <Slider
                id="host-memory"
                label=ps.host_memory
                unit="GB"
                scale=Scale::Steps(std::iter::once(0).chain(nice_values(4, 1024)).collect())
                value=Signal::derive(move || ctx.with_scenario(|s| s.host_memory_bytes.map_or(0.0, |b| (b as f64 / 1e9).round())))
                set=Callback::new(move |v: f64| ctx.edit(|s| s.host_memory_bytes = (v >= 1.0).then_some((v * 1e9) as u64)))
                out_of_range=e.number_out_of_range
            />
            <Slider
                id="host-bandwidth"
                label=ps.host_bandwidth
                unit="GB/s"
                scale=Scale::Linear { min: 10.0, max: 1000.0, step: 0.1 }
                value=Signal::derive(move || ctx.with_shown(|r| r.map(|r| r.performance.hardware.host_memory_bandwidth_bytes_per_s / 1e9)).unwrap_or(89.6))
                set=Callback::new(move |v: f64| ctx.edit(|s| s.host_memory_bandwidth_bytes_per_s = Some(v.clamp(1.0, 1e5) * 1e9)))
                out_of_range=e.number_out_of_range
            />
            // <div>s, not <p>s: a show-the-math <details> is a block.
            <div class="derived" id="offload-summary">{move || summary.get()} <ShowMath key="host_memory_bytes" /></div>
            {move || most.get().map(|n| view! {
                <div class="derived" id="max-gpu-layers">
                    {e.max_gpu_layers.replace("{n}", &n.to_string())}
                    " " <button class="apply" on:click=move |_| ctx.edit(|s| s.gpu_layers = Some(n))>{ps.use_it}</button>
                    <ShowMath key="solvers.max_gpu_layers" />
                </div>
            })}
            {move || fewest_experts.get().map(|m| view! {
                <div class="derived" id="min-cpu-moe">
                    {e.min_cpu_moe.replace("{n}", &m.to_string())}
                    " " <button class="apply" on:click=move |_| ctx.edit(|s| { s.gpu_layers = None; s.n_cpu_moe = m; })>{ps.use_it}</button>
                    <ShowMath key="solvers.min_cpu_moe" />
                </div>
            })}
        </details>
    }
}

//! The command lines that check a plan on real hardware: one replica as planned, launched with
//! vLLM or SGLang, and vLLM's serving benchmark sending it the planned peak load per replica.
//!
//! Flags as documented for `vllm serve` (engine arguments: `--tensor-parallel-size`,
//! `--max-model-len`, `--max-num-seqs`, `--max-num-batched-tokens`, `--gpu-memory-utilization`,
//! `--kv-cache-dtype`, `--quantization`) and `vllm bench serve` (`--dataset-name random`,
//! `--random-input-len`, `--random-output-len`, `--ignore-eos`, `--request-rate`,
//! `--num-prompts`, `--percentile-metrics`, `--metric-percentiles`):
//! https://docs.vllm.ai/en/v0.11.2/cli/bench/serve/ and
//! https://docs.vllm.ai/en/v0.11.2/configuration/engine_args/ (retrieved 2026-12-01). SGLang's
//! `python -m sglang.launch_server` (`--model-path`, `--tp`, `--context-length`,
//! `--max-running-requests`, `--chunked-prefill-size`, `--mem-fraction-static`,
//! `--kv-cache-dtype fp8_e4m3`, `--quantization fp8`):
//! https://docs.sglang.io/advanced_features/server_arguments.html (retrieved 2026-12-02).
//! Across nodes: vLLM runs on a Ray cluster of the nodes (`ray start --head` on one,
//! `ray start --address` on the others) with `--pipeline-parallel-size` (vLLM docs, "Parallelism
//! and Scaling" and the multi-node-serving example); SGLang starts the same command on every node
//! with `--nnodes`, `--node-rank` and `--dist-init-addr` (SGLang docs, "Multi-Node Deployment"),
//! and `--pp-size` for pipeline stages (retrieved 2026-12-05).
//!
//! A disaggregated unit ([`super::disagg`]), from each project's own guide (retrieved
//! 2026-12-06, the repositories' main branches):
//! - vLLM, `docs/features/nixl_connector_usage.md` ("NixlConnector Usage Guide"): each worker is
//!   `vllm serve` with `--kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer",…}'`
//!   (a decoder `"kv_consumer"`) and `VLLM_NIXL_SIDE_CHANNEL_HOST`, `VLLM_NIXL_SIDE_CHANNEL_PORT`,
//!   `UCX_NET_DEVICES=all` in its environment ("Each vLLM worker needs a unique port on its
//!   host"); "NixlConnector currently does not distinguish `kv_role`; the actual
//!   prefiller/decoder roles are determined by the upper-level proxy (e.g., `toy_proxy_server.py`
//!   using `--prefiller-hosts` and `--decoder-hosts`)"; the proxy is
//!   `python tests/v1/kv_connector/nixl_integration/toy_proxy_server.py --port 8192
//!   --prefiller-hosts … --prefiller-ports … --decoder-hosts … --decoder-ports …`, a script of
//!   vLLM's tests, not a packaged router.
//! - SGLang, `docs/advanced_features/pd_disaggregation.md` ("PD Disaggregation"):
//!   `python -m sglang.launch_server --model-path … --disaggregation-mode prefill --port 30000
//!   --disaggregation-transfer-backend nixl` ("Currently, we support Mooncake and NIXL as the
//!   transfer engine"; Mooncake's examples name `--disaggregation-ib-device`), the decode role
//!   with `--disaggregation-mode decode` and `--base-gpu-id` on the same node, `--tp-size` for
//!   tensor parallelism, and `python -m sglang_router.launch_router --pd-disaggregation
//!   --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --host 0.0.0.0 --port
//!   8000`; the router takes `--prefill URL BOOTSTRAP_PORT` once per prefill worker (its README),
//!   each prefill server's own `--disaggregation-bootstrap-port` (default 8998).

use super::disagg::Unit;
use super::state::PlanState;
use super::{Capacity, Layout};
use crate::catalog::models;
use crate::engine::precision::Dtype;

/// vLLM's default share of GPU memory for weights, activations and the KV cache.
pub const GPU_MEMORY_UTILIZATION: &str = "0.90";
/// The benchmark runs about five minutes of the planned load, between 200 and 10,000 requests.
const BENCH_SECONDS: f64 = 300.0;

/// Tokens of margin over prompt + output in `--max-model-len`: a benchmark's random prompts can
/// come out a few tokens longer once detokenised and tokenised again, and a request longer than
/// the limit fails. A twentieth, at least 64, rounded up to 256.
pub fn max_model_len(prompt: u64, output: u64) -> u64 {
    let len = prompt.saturating_add(output);
    let with_margin = len.saturating_add((len / 20).max(64));
    with_margin.div_ceil(256).saturating_mul(256)
}

/// The Hugging Face repository of a catalog model (`org/name` from its config URL).
pub fn hf_repo(model: &str) -> Option<String> {
    let source = &models::find(model)?.model.source;
    let rest = source.strip_prefix("https://huggingface.co/")?;
    let mut parts = rest.split('/');
    let (org, name) = (parts.next()?, parts.next()?);
    (!org.is_empty() && !name.is_empty()).then(|| format!("{org}/{name}"))
}

/// What the weight format asks of the checkpoint: `Some(flag)` when vLLM quantises a 16-bit
/// checkpoint itself (FP8), `None` with `needs_checkpoint` when a pre-quantised checkpoint
/// (AWQ, GPTQ, W8A8…) must be served instead.
/// As published (`None`): vLLM reads the checkpoint's own `quantization_config`, no flag.
pub fn quantization_flag(weights: Option<Dtype>) -> (Option<&'static str>, bool) {
    match weights {
        Some(Dtype::Fp8) => (Some("fp8"), false),
        Some(Dtype::Int8 | Dtype::Int4 | Dtype::Nf4 | Dtype::Mxfp4 | Dtype::Nvfp4) => (None, true),
        _ => (None, false),
    }
}

/// The model argument: a pasted config's `_name_or_path`, else the chat checkpoint a chat
/// service serves (the catalog's `serve_repo`), else the catalog model's own repository.
pub fn model_arg(s: &PlanState) -> String {
    if let Some(c) = &s.config {
        let name = c.get("_name_or_path").and_then(|v| v.as_str()).unwrap_or("");
        let ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"./_-".contains(&b));
        return if ok { name.to_owned() } else { "MODEL".to_owned() };
    }
    if let Some(q) = super::checkpoint(s) {
        return q.repo.clone();
    }
    models::find(&s.model)
        .and_then(|m| m.model.serve_repo.clone())
        .or_else(|| hf_repo(&s.model))
        .unwrap_or_else(|| s.model.clone())
}

/// Whether the command still needs a checkpoint it does not name: INT8/INT4 chosen for a model
/// whose publisher released none in that format (vLLM does not quantise to them on load).
pub fn needs_checkpoint(s: &PlanState) -> bool {
    quantization_flag(s.weights).1 && super::checkpoint(s).is_none()
}

/// The prompt chunk the plan's simulation assumed per step (vLLM `--max-num-batched-tokens`,
/// SGLang `--chunked-prefill-size`): pinned so that the real run schedules as simulated.
pub fn chunk_tokens(s: &PlanState) -> u64 {
    super::scenario(s, 1, 1).prefill_chunk_tokens
}

/// `--quantization`'s value, unless the checkpoint is already published in that format (its
/// `quantization_config` says so, and both engines read it).
fn weight_flag(s: &PlanState) -> Option<&'static str> {
    let published_fp8 =
        s.config.is_none() && models::find(&s.model).is_some_and(|m| m.model.published_format == "fp8");
    quantization_flag(s.weights).0.filter(|_| !published_fp8 && super::checkpoint(s).is_none())
}

/// How a serving engine spells the replica's settings on its command line.
struct Launcher {
    /// The command and the flag before the model (`vllm serve`, no flag: positional).
    start: &'static str,
    tensor_parallel: &'static str,
    pipeline_parallel: &'static str,
    context: &'static str,
    sequences: &'static str,
    chunk: &'static str,
    memory_share: &'static str,
    /// The 8-bit KV cache as the engine names it.
    kv_fp8: &'static str,
}

const VLLM: Launcher = Launcher {
    start: "vllm serve ",
    tensor_parallel: "--tensor-parallel-size",
    pipeline_parallel: "--pipeline-parallel-size",
    context: "--max-model-len",
    sequences: "--max-num-seqs",
    chunk: "--max-num-batched-tokens",
    memory_share: "--gpu-memory-utilization",
    kv_fp8: "fp8",
};

const SGLANG: Launcher = Launcher {
    start: "python -m sglang.launch_server \\\n  --model-path ",
    tensor_parallel: "--tp",
    pipeline_parallel: "--pp-size",
    context: "--context-length",
    sequences: "--max-running-requests",
    chunk: "--chunked-prefill-size",
    memory_share: "--mem-fraction-static",
    kv_fp8: "fp8_e4m3",
};

/// SGLang's flags in a disaggregated deployment: its PD guide spells tensor parallelism
/// `--tp-size`.
const SGLANG_PD: Launcher = Launcher { tensor_parallel: "--tp-size", ..SGLANG };

/// One replica of the plan launched by `l`, flag for flag.
fn launch(l: &Launcher, s: &PlanState, layout: Layout, cap: &Capacity) -> String {
    let tp = layout.tp;
    let mut out = format!(
        "{}{} \\\n  {} {tp} \\\n  {} {} \\\n  {} {} \\\n  {} {} \\\n  {} {GPU_MEMORY_UTILIZATION}",
        l.start,
        model_arg(s),
        l.tensor_parallel,
        l.context,
        max_model_len(s.prompt_tokens, s.output_tokens),
        l.sequences,
        cap.seqs,
        l.chunk,
        chunk_tokens(s),
        l.memory_share,
    );
    if layout.pp > 1 {
        out.push_str(&format!(" \\\n  {} {}", l.pipeline_parallel, layout.pp));
    }
    if s.kv == Dtype::Fp8 {
        out.push_str(" \\\n  --kv-cache-dtype ");
        out.push_str(l.kv_fp8);
    }
    if let Some(q) = weight_flag(s) {
        out.push_str(" \\\n  --quantization ");
        out.push_str(q);
    }
    out
}

/// `vllm serve …` for one replica of the plan; across nodes, after the Ray cluster is up.
pub fn serve(s: &PlanState, layout: Layout, cap: &Capacity) -> String {
    let cmd = launch(&VLLM, s, layout, cap);
    match layout.nodes() {
        1 => cmd,
        n => format!(
            "# head node:\nray start --head --port=6379\n# each of the other {} nodes:\nray start --address=HEAD_IP:6379\n# then, on the head node:\n{cmd}",
            n - 1
        ),
    }
}

/// The same replica launched with SGLang (`python -m sglang.launch_server`), flag for flag;
/// across nodes, the same command on every node with its rank.
pub fn serve_sglang(s: &PlanState, layout: Layout, cap: &Capacity) -> String {
    let cmd = launch(&SGLANG, s, layout, cap);
    match layout.nodes() {
        1 => cmd,
        n => format!(
            "# on node r = 0 … {} (node 0's address as HEAD_IP):\n{cmd} \\\n  --nnodes {n} \\\n  --node-rank r \\\n  --dist-init-addr HEAD_IP:20000",
            n - 1
        ),
    }
}

/// Whether the command quantises a 16-bit checkpoint as it loads (`--quantization fp8` on a
/// checkpoint published in BF16, FP16 or FP32): the full-precision files are downloaded and read
/// first, and a published FP8 checkpoint of the model would load directly.
pub fn quantises_on_load(s: &PlanState) -> bool {
    let published_16 = s.config.is_none()
        && models::find(&s.model)
            .is_some_and(|m| matches!(m.model.published_format.as_str(), "bf16" | "fp16" | "fp32"));
    let pasted_16 = s.config.as_ref().is_some_and(|c| c.get("quantization_config").is_none());
    weight_flag(s).is_some() && (published_16 || pasted_16)
}

/// One worker of a unit: its role, its number within the role, its node and its first GPU there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worker {
    pub prefill: bool,
    pub index: u64,
    pub node: u64,
    pub first_gpu: u64,
}

/// A unit's workers in order (prefill first), each on `tp` consecutive GPUs of nodes of
/// [`super::state::GPUS_PER_NODE`]: the unit's GPUs numbered from 0, node by node.
pub fn workers(unit: Unit) -> Vec<Worker> {
    let per = super::state::GPUS_PER_NODE;
    (0..unit.prefill.saturating_add(unit.decode))
        .map(|k| {
            let gpu = k.saturating_mul(unit.tp);
            let prefill = k < unit.prefill;
            let index = if prefill { k } else { k - unit.prefill };
            Worker { prefill, index, node: gpu / per, first_gpu: gpu % per }
        })
        .collect()
}

/// The address a worker is reached at: on one node `localhost` (vLLM) or `127.0.0.1` (SGLang),
/// else its node's, to fill in.
fn host(unit: Unit, w: Worker, local: &str) -> String {
    if unit.nodes() == 1 {
        local.to_owned()
    } else {
        format!("NODE{}_IP", w.node)
    }
}

/// `# prefill worker 1 of 2: GPUs 0-3 of NODE0_IP` (GPU `0` alone when one).
fn worker_comment(unit: Unit, w: Worker) -> String {
    let (role, of) = if w.prefill { ("prefill", unit.prefill) } else { ("decode", unit.decode) };
    let gpus = match unit.tp {
        1 => format!("GPU {}", w.first_gpu),
        n => format!("GPUs {}-{}", w.first_gpu, w.first_gpu + n - 1),
    };
    let on = if unit.nodes() == 1 { String::new() } else { format!(" of NODE{}_IP", w.node) };
    format!("# {role} worker {} of {of}: {gpus}{on}\n", w.index + 1)
}

/// HTTP ports of the workers: prefill from 8100, decode from 8200, one each (unique on a node).
fn vllm_port(w: Worker) -> u64 {
    if w.prefill {
        8100 + w.index
    } else {
        8200 + w.index
    }
}

/// The port of vLLM's toy proxy, as its guide runs it.
pub const VLLM_PROXY_PORT: u64 = 8192;

/// A unit launched with vLLM's NixlConnector, worker by worker, then its proxy.
pub fn serve_disagg(s: &PlanState, unit: Unit, cap: &Capacity) -> String {
    let mut out = String::new();
    for (k, w) in workers(unit).into_iter().enumerate() {
        let gpus: Vec<String> = (w.first_gpu..w.first_gpu + unit.tp).map(|g| g.to_string()).collect();
        let role = if w.prefill { "kv_producer" } else { "kv_consumer" };
        out.push_str(&worker_comment(unit, w));
        out.push_str(&format!(
            "CUDA_VISIBLE_DEVICES={} \\\nVLLM_NIXL_SIDE_CHANNEL_HOST={} \\\nVLLM_NIXL_SIDE_CHANNEL_PORT={} \\\nUCX_NET_DEVICES=all \\\n{} \\\n  --port {} \\\n  --kv-transfer-config '{{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"{role}\"}}'\n\n",
            gpus.join(","),
            host(unit, w, "localhost"),
            5600 + k as u64,
            launch(&VLLM, s, Layout::tp(unit.tp), cap),
            vllm_port(w),
        ));
    }
    let list = |prefill: bool, f: &dyn Fn(Worker) -> String| {
        workers(unit).into_iter().filter(|w| w.prefill == prefill).map(f).collect::<Vec<_>>().join(" ")
    };
    out.push_str(&format!(
        "# the proxy (vLLM's toy proxy, from a vLLM source checkout):\npython tests/v1/kv_connector/nixl_integration/toy_proxy_server.py \\\n  --port {VLLM_PROXY_PORT} \\\n  --prefiller-hosts {} \\\n  --prefiller-ports {} \\\n  --decoder-hosts {} \\\n  --decoder-ports {}",
        list(true, &|w| host(unit, w, "localhost")),
        list(true, &|w| vllm_port(w).to_string()),
        list(false, &|w| host(unit, w, "localhost")),
        list(false, &|w| vllm_port(w).to_string()),
    ));
    out
}

/// HTTP ports of SGLang's workers: prefill from 30000, decode from 30100.
fn sglang_port(w: Worker) -> u64 {
    if w.prefill {
        30000 + w.index
    } else {
        30100 + w.index
    }
}

/// A prefill worker's bootstrap port (SGLang's default 8998, one more for each further worker:
/// unique on a node).
fn bootstrap_port(w: Worker) -> u64 {
    8998 + w.index
}

/// A unit launched with SGLang's PD disaggregation (NIXL), worker by worker, then its router.
pub fn serve_disagg_sglang(s: &PlanState, unit: Unit, cap: &Capacity) -> String {
    let mut out = String::new();
    for w in workers(unit) {
        out.push_str(&worker_comment(unit, w));
        out.push_str(&launch(&SGLANG_PD, s, Layout::tp(unit.tp), cap));
        let mode = if w.prefill { "prefill" } else { "decode" };
        out.push_str(&format!(
            " \\\n  --disaggregation-mode {mode} \\\n  --disaggregation-transfer-backend nixl"
        ));
        if w.prefill {
            out.push_str(&format!(" \\\n  --disaggregation-bootstrap-port {}", bootstrap_port(w)));
        }
        if unit.nodes() > 1 {
            out.push_str(&format!(" \\\n  --host {}", host(unit, w, "127.0.0.1")));
        }
        out.push_str(&format!(" \\\n  --port {} \\\n  --base-gpu-id {}\n\n", sglang_port(w), w.first_gpu));
    }
    out.push_str("# the router:\npython -m sglang_router.launch_router \\\n  --pd-disaggregation");
    for w in workers(unit) {
        let url = format!("http://{}:{}", host(unit, w, "127.0.0.1"), sglang_port(w));
        if w.prefill {
            out.push_str(&format!(" \\\n  --prefill {url} {}", bootstrap_port(w)));
        } else {
            out.push_str(&format!(" \\\n  --decode {url}"));
        }
    }
    out.push_str(" \\\n  --host 0.0.0.0 \\\n  --port 8000");
    out
}

/// The benchmark's request count: about [`BENCH_SECONDS`] of the rate, within 200..=10,000.
pub fn bench_prompts(rate_per_s: f64) -> u64 {
    (rate_per_s * BENCH_SECONDS).ceil().clamp(200.0, 10_000.0) as u64
}

/// A rate as the benchmark takes it (at most 3 decimals, no trailing zeros).
fn rate_text(r: f64) -> String {
    let t = format!("{:.3}", r.max(0.001));
    t.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Requests a closed-loop benchmark sends: ten per user, within 200..=10,000.
pub fn bench_prompts_users(users: u64) -> u64 {
    users.saturating_mul(10).clamp(200, 10_000)
}

/// `vllm bench serve …` at the planned peak load of one replica: Poisson arrivals at its rate,
/// or its users in a closed loop (`--max-concurrency`, every request sent as soon as a slot
/// frees: `--request-rate inf`).
pub fn bench(s: &PlanState, cap: &Capacity) -> String {
    bench_at(s, cap, None)
}

/// [`bench`] for one disaggregated unit (`cap`: the unit's capacity), sent through vLLM's proxy.
pub fn bench_disagg(s: &PlanState, cap: &Capacity) -> String {
    bench_at(s, cap, Some(VLLM_PROXY_PORT))
}

/// [`bench`] against the server on `port` (none: the benchmark's default, 8000).
fn bench_at(s: &PlanState, cap: &Capacity, port: Option<u64>) -> String {
    let repo = model_arg(s);
    let port = port.map(|p| format!("  --port {p} \\\n")).unwrap_or_default();
    let per_replica = super::demand(s) / cap.replicas.max(1) as f64;
    let load = match s.peak_users {
        Some(_) => {
            let users = per_replica.ceil().max(1.0) as u64;
            format!(
                "--max-concurrency {users} \\\n  --request-rate inf \\\n  --num-prompts {}",
                bench_prompts_users(users)
            )
        }
        None => format!(
            "--request-rate {} \\\n  --num-prompts {}",
            rate_text(per_replica),
            bench_prompts(per_replica)
        ),
    };
    format!(
        "vllm bench serve \\\n{port}  --model {repo} \\\n  --dataset-name random \\\n  --random-input-len {} \\\n  --random-output-len {} \\\n  --ignore-eos \\\n  {load} \\\n  --percentile-metrics ttft,tpot \\\n  --metric-percentiles 50,95",
        s.prompt_tokens,
        s.output_tokens,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_length_has_a_margin_and_the_chunk_is_the_simulations() {
        assert_eq!(max_model_len(1024, 256), 1536);
        assert!(max_model_len(1024, 256) >= 1024 + 256 + 64);
        assert_eq!(max_model_len(30720, 2048), 34560);
        assert!(max_model_len(30720, 2048) >= (30720 + 2048) * 21 / 20);
        assert!(max_model_len(u64::MAX, 1) >= u64::MAX - 255, "saturates, never wraps");
        let s = PlanState::default();
        assert_eq!(
            chunk_tokens(&s),
            crate::engine::Scenario::new(crate::engine::ModelSpec::Id(s.model.clone())).prefill_chunk_tokens
        );
    }

    #[test]
    fn a_chat_service_serves_the_instruct_checkpoint() {
        let s = PlanState::default();
        assert_eq!(model_arg(&s), "meta-llama/Llama-3.1-8B-Instruct");
        let s = PlanState { model: "deepseek-v3".into(), ..PlanState::default() };
        assert_eq!(model_arg(&s), "deepseek-ai/DeepSeek-V3");
        // Every catalog model's serving checkpoint is a Hugging Face `org/name`.
        for e in models::all() {
            let s = PlanState { model: e.model.id.clone(), ..PlanState::default() };
            let repo = model_arg(&s);
            assert_eq!(repo.split('/').filter(|p| !p.is_empty()).count(), 2, "{}: {repo}", e.model.id);
        }
    }

    #[test]
    fn fp8_on_a_16_bit_checkpoint_is_flagged_and_sglang_gets_the_same_flags() {
        let fp8 = PlanState { weights: Some(Dtype::Fp8), kv: Dtype::Fp8, ..PlanState::default() };
        assert!(quantises_on_load(&fp8));
        assert!(!quantises_on_load(&PlanState::default()));
        let published =
            PlanState { model: "deepseek-v3".into(), weights: Some(Dtype::Fp8), ..PlanState::default() };
        assert!(!quantises_on_load(&published), "a published FP8 checkpoint needs no conversion");
        assert_eq!(weight_flag(&published), None);
        let cap = Capacity {
            seqs: 64,
            kv_bound: false,
            sustainable_per_replica: 10.0,
            per_replica: 5.0,
            capacity_per_s: 5.0,
            sustainable_rate_per_s: 10.0,
            planned_per_replica: 4.0,
            limit: super::super::Limit::Tpot,
            replicas: 1,
            gpus: 2,
            at_peak: super::super::LoadPoint::default(),
            price: None,
        };
        let sg = serve_sglang(&fp8, Layout::tp(2), &cap);
        for flag in [
            "--tp 2",
            "--context-length 1536",
            "--max-running-requests 64",
            "--chunked-prefill-size 8192",
            "--kv-cache-dtype fp8_e4m3",
            "--quantization fp8",
        ] {
            assert!(sg.contains(flag), "{flag}: {sg}");
        }
        let v = serve(&fp8, Layout::tp(2), &cap);
        for flag in [
            "--max-model-len 1536",
            "--max-num-batched-tokens 8192",
            "--kv-cache-dtype fp8",
            "--quantization fp8",
        ] {
            assert!(v.contains(flag), "{flag}: {v}");
        }
    }

    #[test]
    fn repositories_come_from_the_catalogs_config_urls() {
        assert_eq!(hf_repo("llama-3.1-8b").as_deref(), Some("meta-llama/Llama-3.1-8B"));
        assert_eq!(hf_repo("qwen2.5-7b").as_deref(), Some("Qwen/Qwen2.5-7B"));
        assert_eq!(hf_repo("nope"), None);
    }

    #[test]
    fn rates_and_counts_as_the_benchmark_takes_them() {
        assert_eq!(rate_text(2.5), "2.5");
        assert_eq!(rate_text(4.0), "4");
        assert_eq!(rate_text(1.0 / 3.0), "0.333");
        assert_eq!(bench_prompts(0.1), 200);
        assert_eq!(bench_prompts(5.0), 1500);
        assert_eq!(bench_prompts(1e6), 10_000);
    }

    #[test]
    fn fp8_weights_ask_vllm_to_quantise_and_4_bit_needs_a_checkpoint() {
        assert_eq!(quantization_flag(Some(Dtype::Fp8)), (Some("fp8"), false));
        assert_eq!(quantization_flag(Some(Dtype::Int4)), (None, true));
        assert_eq!(quantization_flag(Some(Dtype::Bf16)), (None, false));
        assert_eq!(quantization_flag(None), (None, false));
    }
}

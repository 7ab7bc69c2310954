// Issue 8 §1 in a real browser: every string a reader sees on a zh page is Chinese, except proper
// names, units, formulas, identifiers the reader types and the titles of cited sources; on an en
// page nothing is Chinese except what is marked as Chinese (the language switch, cited Chinese
// titles). The test opens the estimator in several states with every <details> open, a damaged
// link, a broken JSON import and the validation page, collects the visible text and lists every
// word outside the rules below.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const b64 = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
const root = join(import.meta.dirname, '..', '..');

// Proper names the pages show: every word of the catalog's model and GPU display names. The
// catalog ids are identifiers the reader types (notices list them) and are removed before checking.
const catalogNames = new Set();
const catalogIds = [];
for (const m of JSON.parse(readFileSync(join(root, 'src/catalog/models.json'), 'utf8')).models) {
  for (const w of m.name.match(/[A-Za-z]+/g) ?? []) catalogNames.add(w);
  catalogIds.push(m.id);
}
for (const g of JSON.parse(readFileSync(join(root, 'src/catalog/data/gpus.json'), 'utf8'))) {
  for (const w of g.name.match(/[A-Za-z]+/g) ?? []) catalogNames.add(w);
  catalogIds.push(g.id);
}
catalogIds.sort((a, b) => b.length - a.length);

// Latin words a zh page may show, by why. A word with a digit or an underscore (bf16, H100,
// kv_heads, 8B) is a dtype, a name or an identifier and is not checked; every other Latin word
// must be here. Real English prose is fixed in src/i18n/, never added here.
const ALLOW = {
  units: ['B', 'KB', 'KiB', 'MB', 'MiB', 'GB', 'GiB', 'TB', 'TiB', 'ms', 's', 'us', 'ns', 'h', 'K', 'M', 'G', 'T',
    'FLOP', 'FLOPs', 'GFLOP', 'TFLOP', 'TFLOPS', 'PFLOP', 'GB/s', 'TB/s', 'W', 'USD',
    // integer operations per second (INT8 peaks): GOP/s, TOP/s, POP/s
    'GOP', 'TOP', 'POP', 'TOPS'],
  // Terms the zh chapters use as is (they are what a reader meets in papers and tools).
  terms: ['TP', 'PP', 'DP', 'DDP', 'kernel', 'all', 'reduce', 'dropout', 'SwiGLU', 'Roofline', 'cuBLAS', 'token', 'batch', 'tp', 'pp', 'dp', 'ep', 'KV', 'cache', 'prompt', 'roofline', 'LoRA', 'QLoRA', 'MoE',
    'MLA', 'MLP', 'ZeRO', 'MFU', 'HFU', 'MBU', 'PEFT', 'TTFT', 'TPOT', 'ITL',
    // Wide expert parallelism, as chapter 14 names it: EP, EPLB, the GEMM kernels, DeepEP's dispatch and combine
    // (training's step names DeepEP too, and D, the GPUs a token's experts are on).
    'EP', 'EPLB', 'GEMM', 'dispatch', 'combine', 'DeepEP', 'D',
    // FP8 scaling as Transformer Engine names it: the largest magnitude a scale is taken from.
    'amax',
    // KV cache tiers, as chapter 13 names them: the SSD tier and the LRU eviction of every tier.
    'SSD', 'LRU',
    // Speculative decoding's drafters as vLLM names them (EAGLE-3, MTP), and the GB10 a profile of
    // vLLM's drafter ran on.
    'EAGLE', 'MTP', 'GB10',
    // The two phases of inference, as the zh course names them (terminology.json: 分块 prefill).
    'prefill', 'decode', 'GPU', 'CPU', 'HBM', 'SRAM', 'L2', 'NVLink', 'PCIe',
    'NVSwitch', 'InfiniBand', 'MIG', 'SM', 'Tensor', 'Core', 'FlashAttention', 'Adam', 'AdamW', 'SGD', 'logits',
    'top', 'k', 'r', 'JSON', 'URL', 'HTML', 'config', 'json', 'P', 'V', 'H', 'Q', 'O', 'N', 'x', 'e'],
  // Names of things: vendors, products, projects, the site's own command.
  names: ['NVIDIA', 'AMD', 'Instinct', 'GeForce', 'RTX', 'Hugging', 'Face', 'vLLM', 'SGLang', 'Megatron', 'DeepSpeed', 'CUTLASS',
    'PyTorch', 'torch', 'transformers', 'PagedAttention', 'GPT', 'gpu', 'primer', 'validate', 'torchtune', ...catalogNames,
    // Hybrid architectures' layer types (Gated DeltaNet, Mamba-2), as their papers name them.
    'Gated', 'DeltaNet', 'Mamba',
    // Operating systems (where Ollama keeps its models, Metal on macOS, GTT under Linux).
    'Linux', 'macOS', 'Windows'],
  // Words of cited sources inside worded notes (the efficiency factors cite benchmark reports,
  // guides and papers by their titles): Azure AI-benchmarking-guide, CUDA C++ Best Practices
  // Guide, CUDA Graphs, Li et al. (VLDB 2020), NCCL issue #212, nccl-tests busbw, BabelStream,
  // Kwon et al. (PagedAttention), Williams et al. (roofline), MARLIN (Frantar et al., PPoPP 2025).
  cited: ['Azure', 'AI', 'benchmarking', 'guide', 'ND', 'CUDA', 'C', 'Best', 'Practices', 'Guide', 'Graphs', 'Li',
    'et', 'al', 'Kwon', 'Williams', 'VLDB', 'NCCL', 'nccl', 'tests', 'issue', 'busbw', 'BabelStream',
    'MARLIN', 'Frantar', 'PPoPP',
    // Speculative decoding's α as Leviathan et al. define it; chunked prefill's paper (SARATHI,
    // Agrawal et al.); the benchmark tools whose "ITL" is a TPOT (genai-perf, NVIDIA NIM).
    'Leviathan', 'SARATHI', 'Agrawal', 'genai', 'perf', 'NIM',
    // NCCL's all-reduce algorithms as NCCL names them (NVLS, and Ring in NCCL_ALGO=Ring), and
    // PXN, its sending through a NIC of another GPU over NVLink (NCCL_PXN_DISABLE); SHARP, the
    // switches' in-network reduction as NVIDIA names it (NVLink SHARP, InfiniBand SHARP).
    'NVLS', 'Ring', 'PXN', 'SHARP',
    // llama.cpp's pull requests (PR #7676), nvbandwidth and tinygrad's open-gpu-kernel-modules issues.
    'PR', 'nvbandwidth', 'tinygrad', 'open', 'modules',
    // The serving stacks' CPU share cites the SGLang team's blog (LMSYS) and names the API server.
    'LMSYS', 'API',
    // The validation page's kernel and network names: weight-only kernels (AWQ GEMV), the attention
    // kernel a training row names (FlexAttention), RDMA over Ethernet at 200 Gb/s (RoCE).
    // and PyTorch's compiler, torch.compile.
    'AWQ', 'GEMV', 'FlexAttention', 'RoCE', 'Gb', 'compile'],
  // llama.cpp on the reader's machine: the project, its file format and tools (llama-bench's tg and
  // pp tests, llama-quantize), its flags (-ngl, --n-cpu-moe, --fit), its MMQ kernels, the back ends
  // it runs on, the apps built on it, and mmap, how it maps a file's weights.
  llamacpp: ['llama', 'cpp', 'GGUF', 'gguf', 'ggml', 'bench', 'quantize', 'tg', 'ngl', 'cpu', 'moe', 'fit', 'MMQ',
    'Metal', 'ROCm', 'HIP', 'Vulkan', 'Ollama', 'LM', 'Studio', 'LLaMA', 'mmap'],
  // Formula functions and identifiers in formulas.
  // The WebGPU lab: the API's name, its feature names (shader-f16, timestamp-query, onSubmittedWorkDone)
  // and BabelStream's kernel names, which are the WGSL entry points (and STREAM's, which call
  // Mul "Scale").
  lab: ['WebGPU', 'JavaScript', 'FMA', 'shader', 'f16', 'timestamp', 'query', 'onSubmittedWorkDone', 'copy', 'mul', 'triad',
    'Copy', 'Mul', 'Add', 'Triad', 'Dot', 'STREAM', 'Scale'],
  formulas: ['ceil', 'min', 'max', 'in', 'out', 'lm', 'head', 'F',
    // the bytes p a token's copy carries in training's dispatch and combine (T × D × 2p)
    'p',
    // the CUDA chapter's add kernel (out = x + y over n elements) and a kernel's intensity I
    'add', 'y', 'n', 'I'],
  // CUDA's own words, as the zh CUDA chapter uses them; collectives as NCCL names them; networks.
  cuda: ['block', 'warp', 'scatter', 'gather', 'OP', 'AWS', 'EFA', 'NDR', 'HDR'],
  // MIG: NVIDIA's Multi-Process Service, and the parts of profile names as nvidia-smi prints
  // them (1g.10gb, 1g.10gb+me) in the planner's drawings.
  mig: ['MPS', 'g', 'gb', 'me'],
  // The diagnosis tool: profilers and monitors (Nsight Systems, Nsight Compute, DCGM), FSDP
  // sharding, NVMe disks, the TensorRT-LLM inference engine.
  diagnose: ['Nsight', 'Systems', 'Compute', 'DCGM', 'FSDP', 'NVMe', 'TensorRT', 'LLM'],
  // The cloud selector: providers, units, and the hardware terms its notes use as is.
  cloud: ['GCP', 'Gbps', 'vCPU', 'vGPU', 'NVMe', 'GPUDirect', 'RDMA'],
  // The classroom: the learning platforms and formats an assignment is exported to or printed
  // as (Moodle XML, QTI 2.1 for Canvas, Blackboard, OpenOLAT, ILIAS, a SCORM 1.2 package), the
  // gradebook's CSV.
  classroom: ['Moodle', 'XML', 'QTI', 'Canvas', 'Blackboard', 'OpenOLAT', 'ILIAS', 'CSV', 'PDF', 'SCORM'],
};
const ZH_ALLOWED = new Set(Object.values(ALLOW).flat());

// Elements whose text is not the page's language on purpose: cited sources (data-source) and
// anything marked
// with another language; on zh pages also identifiers in code.
// The classroom's pages also show the chapters' exercises (.cr-ex-text: questions, options, hints,
// worked solutions, drawn values) word for word as the chapter pages do; this test reads the
// site's own interface, as it does not read the chapters.
const SKIP_ZH = '[data-source], [lang]:not([lang^="zh"]), code, kbd, .cr-ex-text';
const SKIP_EN = '[data-source], [lang^="zh"], .cr-ex-text';

/** The visible text of the page, without the elements that match `skip`. */
function visibleText(page, skip) {
  return page.evaluate((skip) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip) || el.closest('script, style, template')) continue;
      if (!el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) continue;
      out.push(n.textContent);
    }
    return out.join(' ');
  }, skip);
}

/** Each word outside the rules once, with the text around its first occurrence. */
function latinProblems(text) {
  // What the reader typed or chose, echoed back: quoted values, file names, catalog ids.
  text = text.replace(/"[^"]*"|“[^”]*”|'[^']*'/g, ' ').replace(/[\w.-]+\.json\b/g, ' ');
  for (const id of catalogIds) text = text.split(id).join(' ');
  const bad = new Map();
  for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9_]*/g)) {
    const w = m[0];
    if (/[0-9_]/.test(w) || ZH_ALLOWED.has(w) || bad.has(w)) continue;
    bad.set(w, text.slice(Math.max(0, m.index - 30), m.index + w.length + 30).replace(/\s+/g, ' '));
  }
  return [...bad].sort().map(([w, around]) => `'${w}' in «${around}»`);
}

function cjkProblems(text) {
  const bad = new Set();
  for (const m of text.matchAll(/.{0,12}[\u3000-\u303f\u3400-\u9fff\uff00-\uffef].{0,12}/gu)) bad.add(m[0]);
  return [...bad];
}

async function openAllDetails(page) {
  await page.$$eval('details', (ds) => ds.forEach((d) => { d.open = true; }));
  await page.waitForTimeout(200);
  // Details rendered inside details that just opened.
  await page.$$eval('details', (ds) => ds.forEach((d) => { d.open = true; }));
  await page.waitForTimeout(200);
}

const STATES = {
  default: '',
  training: '?v=1&s=' + b64({ model: 'llama-3.1-8b', mode: 'training', gpus: 8, zero_stage: 3 }),
  lora: '?v=1&s=' + b64({ model: 'llama-3.1-8b', mode: 'lora' }),
  'lora in bf16, optimizer in backward': '?v=1&s=' + b64({ model: 'llama-3.1-8b', mode: 'lora', training_precision: 'bf16', optimizer_in_backward: true, optimizer: 'adam_8bit' }),
  'full fine-tune recipe: chunked loss, offload, paged optimizer': '?v=1&s=' + b64({ model: 'llama-3.1-8b', mode: 'training', training_precision: 'bf16', loss_chunks: 8, activation_offload: true, optimizer: 'paged_adam8bit', optimizer_in_backward: true, recompute: 'full' }),
  'int4 weights on fp8-less A100': '?v=1&s=' + b64({ model: 'llama-3.1-8b', weight_dtype: 'int4', gpu: 'a100-sxm-80gb' }),
  'fp8 path': '?v=1&s=' + b64({ model: 'llama-3.1-8b', weight_dtype: 'fp8' }),
  moe: '?v=1&s=' + b64({ model: 'deepseek-v3', gpus: 8, tensor_parallel: 8, gpu: 'h200-sxm' }),
  'does not fit': '?v=1&s=' + b64({ model: 'llama-3.1-70b', gpu: 'a10', context_tokens: 32768 }),
  hybrid: '?v=1&s=' + b64({ model: 'qwen3-next-80b-a3b', context_tokens: 131072, batch: 16, gpus: 2, tensor_parallel: 2, gpu: 'h200-sxm' }),
  'gemma 4: per-layer embeddings, shared KV layers': '?v=1&s=' + b64({ model: 'gemma-4-e2b', context_tokens: 131072 }),
  // A pasted config with gpt-oss's quantization_config: the notice and the mixed-format math.
  'quantised config': '?v=1&s=' + b64({ model: { _name_or_path: 'Mixtral-8x7B-v0.1', model_type: 'mixtral', hidden_size: 4096, intermediate_size: 14336,
    num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, num_local_experts: 8, num_experts_per_tok: 2,
    vocab_size: 32000, quantization_config: { quant_method: 'mxfp4', modules_to_not_convert: ['model.layers.*.self_attn', 'lm_head'] } } }),
  'quantised config, format chosen': '?v=1&s=' + b64({ model: { _name_or_path: 'Mixtral-8x7B-v0.1', model_type: 'mixtral', hidden_size: 4096, intermediate_size: 14336,
    num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, num_local_experts: 8, num_experts_per_tok: 2,
    vocab_size: 32000, quantization_config: { quant_method: 'mxfp4' } }, weight_dtype: 'nvfp4' }),
  'damaged link': '?v=1&s=' + b64({ context_tokens: 'NaN', gpu: 'nope' }),
  'under load': '?v=1&s=' + b64({ model: 'llama-3.1-8b', batch: 32, arrival_rate_per_s: 1 }),
  'past the sustainable rate': '?v=1&s=' + b64({ model: 'llama-3.1-8b', arrival_rate_per_s: 500 }),
  // Speculative decoding: the speedup chart, the step's derivation with the drafter's GPU and host
  // time (vLLM's floor) and the acceptance notes; then a draft model, whose weights and KV join memory.
  'speculative decoding, EAGLE-3 on vLLM': '?v=1&s=' + b64({ model: 'llama-3.1-8b', speculative_method: 'eagle3', speculative_draft_tokens: 3,
    speculative_acceptance_rate: 0.75, serving_stack: 'vllm_v1' }),
  'speculative decoding, a draft model': '?v=1&s=' + b64({ model: 'llama-3.1-70b', gpus: 4, tensor_parallel: 4, speculative_method: 'draft_model',
    speculative_draft_model: 'llama-3.2-1b', speculative_draft_tokens: 3, speculative_acceptance: [0.8, 0.7, 0.6] }),
  // KV cache tiers: their controls, the rows of where the histories are served from (a tier slower
  // than recomputing says so) and the restore.
  'kv tiers': '?v=1&s=' + b64({ model: 'llama-3.1-8b', context_tokens: 131072, prefix_hit_rate: 0.9, prefix_open_sessions: 2000,
    kv_cpu_tier_bytes: 200e9, kv_ssd_tier_bytes: 4e12, kv_ssd_tier_bytes_per_s: 1e9, kv_gpu_cache_bytes: 0 }),
};

/** Visits every page of the check in `lang`; returns [label, text] pairs. */
async function texts(page, lang, skip) {
  const out = [];
  for (const [label, query] of Object.entries(STATES)) {
    await page.goto(`${server.url}#/${lang}/estimate${query}`);
    await page.waitForSelector('#total-per-gpu');
    // The control groups below the fold are mounted just after the first paint.
    await page.waitForSelector('.assumptions-group #kv-block', { state: 'attached' });
    if (label === 'damaged link') await page.waitForSelector('#notices');
    if (label === 'does not fit') await page.waitForSelector('.advice');
    await openAllDetails(page);
    out.push([`estimator, ${label}`, await visibleText(page, skip)]);
  }
  await page.goto(`${server.url}#/${lang}/estimate`);
  await page.waitForSelector('#total-per-gpu');
  // One bad field is repaired as in a link, and named in the page's language.
  await page.setInputFiles('#import-file', { name: 'scenario.json', mimeType: 'application/json', buffer: Buffer.from('{"model": "llama-3.1-8b", "batch": "lots"}') });
  await page.waitForSelector('#notices.warn');
  out.push(['estimator, JSON import repaired', await visibleText(page, skip)]);
  await page.click('#notices .dismiss');
  await page.setInputFiles('#import-file', { name: 'scenario.json', mimeType: 'application/json', buffer: Buffer.from('[1, 2]') });
  await page.waitForSelector('#notices.error');
  out.push(['estimator, JSON import error', await visibleText(page, skip)]);
  await page.click('#notices .dismiss');
  await page.setInputFiles('#import-file', { name: 'scenario.json', mimeType: 'application/json', buffer: Buffer.from('{ "model": ') });
  await page.waitForSelector('#notices.error');
  out.push(['estimator, JSON syntax error', await page.locator('#notices').innerText()]);
  await page.goto(`${server.url}#/${lang}/validation`);
  await page.waitForSelector('#validation-rows');
  out.push(['validation', await visibleText(page, skip)]);
  await page.goto(`${server.url}#/${lang}/lab/bandwidth`);
  await page.waitForSelector('#lab-adapter .banner');
  out.push(['WebGPU lab without WebGPU', await visibleText(page, skip)]);
  // The MIG planner: a damaged link (repair notices), a refused placement, and its embed.
  await page.goto(`${server.url}#/${lang}/tools/mig?gpu=h100-sxm&place=3g.40gb@0,2g.20gb@2&w=llama-3.1-8b:bf16:bf16:4096:-3,llama-3.1-70b:bf16:bf16:8192:8,llama-3.1-8b:bf16:bf16:0:1`);
  await page.waitForSelector('#mig-notices .banner');
  await page.selectOption('#mig-profile', '5');
  await page.click('#mig-place');
  await page.waitForSelector('#mig-refused');
  out.push(['MIG planner, damaged link and a refused placement', await visibleText(page, skip)]);
  await page.goto(`${server.url}#/${lang}/embed/mig?preset=7b-int4`);
  await page.waitForSelector('aside.widget #mig-results .mig-summary');
  out.push(['embed mig', await visibleText(page, skip)]);
  // The bottleneck diagnosis: findings with remedies, contradictions, clues, the workload and
  // what to measure; then a damaged link with its notices.
  for (const [label, query] of [
    ['diagnosis', '?preset=decode&oom=conc&sm=20&util=40&dl=80&multi=0&comm=10&e2e=100&lat=200'],
    ['diagnosis, damaged link', '?util=140&sm=abc&b=-2&zzz=1&m=nope'],
  ]) {
    await page.goto(`${server.url}#/${lang}/tools/diagnose${query}`);
    await page.waitForSelector('#dg-results h2');
    await openAllDetails(page);
    out.push([label, await visibleText(page, skip)]);
  }
  // The classroom: an assignment made, a student's answers checked (right, wrong, a wrong unit)
  // and handed in, the gradebook of that code and a damaged one, a worksheet and the class key.
  await page.goto(`${server.url}${lang}/classroom/`);
  await page.waitForSelector('html[data-live] .cr-problems');
  out.push(['make an assignment, empty', await visibleText(page, skip)]);
  await page.fill('[data-f=class]', 'L1');
  const names = lang === 'zh' ? ['李四', '王五'] : ['Ann', 'Bob'];
  await page.fill('[data-f=roster]', names.join('\n'));
  await page.$$eval('details.cr-chapter', (ds) => ds.forEach((d) => { d.open = true; }));
  await page.locator('.cr-chapter li:has(.tag.own) input[data-f=ex]').nth(0).check();
  await page.locator('.cr-chapter li:has(.tag.own) input[data-f=ex]').nth(1).check();
  await page.locator('.cr-chapter li:not(:has(.tag.own)) input[data-f=ex]').first().check();
  await page.check('[data-f=answer-key]');
  await page.waitForSelector('.cr-link');
  out.push(['make an assignment, made', await visibleText(page, skip)]);
  const made = new URL(page.url()).search;
  const token = new URLSearchParams(made).get('a');
  await page.goto(`${server.url}${lang}/classroom/do/?a=${token}`);
  await page.fill('[data-f=student]', names[0]);
  await page.click('.cr-name button[type=submit]');
  // The first two questions that take a number: a unit of another kind, then twice wrong (the
  // hint, then the worked solution).
  const numeric = page.locator('.cr-item:has(input[type=text])');
  const [first, second] = [await numeric.nth(0).getAttribute('data-i'), await numeric.nth(1).getAttribute('data-i')];
  await page.fill(`.cr-item[data-i="${first}"] [data-role=answer]`, '3 ms');
  await page.click(`.cr-item[data-i="${first}"] [data-a=check]`);
  await page.fill(`.cr-item[data-i="${second}"] [data-role=answer]`, '1');
  await page.click(`.cr-item[data-i="${second}"] [data-a=check]`);
  await page.click(`.cr-item[data-i="${second}"] [data-a=check]`);
  await page.click('[data-a=hand-in]');
  const code = await page.inputValue('.cr-code');
  await openAllDetails(page);
  out.push(['a student\'s page, checked and handed in', await visibleText(page, skip)]);
  await page.goto(`${server.url}${lang}/classroom/grade/?a=${token}`);
  await page.fill('textarea[data-f=codes]', `${code}\n${code.slice(0, 20)}\nhello`);
  await page.waitForSelector('.cr-book');
  out.push(['the gradebook', await visibleText(page, skip)]);
  await page.goto(`${server.url}${lang}/classroom/print/${made}`);
  await page.waitForSelector('.cr-sheet');
  out.push(['worksheets', await visibleText(page, skip)]);
  await page.goto(`${server.url}${lang}/classroom/print/${made}&show=key`);
  await page.waitForSelector('.cr-key');
  out.push(['class key', await visibleText(page, skip)]);
  await page.goto(`${server.url}${lang}/classroom/do/?a=abc`);
  await page.waitForSelector('.cr-missing');
  out.push(['a damaged assignment link', await visibleText(page, skip)]);
  // The cloud selector with every source opened, a training job, and a repaired link.
  for (const [label, query] of [['', ''], [', training', '?job=lora&rank=run'], [', damaged link', '?n=NaN&pv=oracle']]) {
    await page.goto(`${server.url}#/${lang}/tools/cloud${query}`);
    await page.waitForSelector('.cloud-table tbody tr');
    await openAllDetails(page);
    out.push([`cloud selector${label}`, await visibleText(page, skip)]);
  }
  // The capacity planner: a plan, no plan (a target missed even idle), and a repaired link.
  for (const [label, query] of [['', ''], [', no plan', '?tpot=1'], [', damaged link', '?rate=NaN&m=nope&seqs=-1']]) {
    await page.goto(`${server.url}#/${lang}/plan${query}`);
    await page.waitForSelector('.plan-results[aria-busy="false"] .plan-steps');
    await openAllDetails(page);
    out.push([`capacity planner${label}`, await visibleText(page, skip)]);
  }
  // The chapter widgets that are not estimators, alone on their embed pages, with the copy control used.
  for (const kind of ['cuda-grid', 'tensor-peaks', 'spec-sheet', 'gpu-ladder', 'all-reduce', 'state-vs-kv', 'prefix-reuse', 'disaggregation', 'wide-ep', 'kv-tiers', 'speculation']) {
    await page.goto(`${server.url}#/${lang}/embed/${kind}`);
    await page.waitForSelector('aside.widget .widget-body > *');
    await page.click('aside.widget button.copy-embed');
    await page.waitForSelector('.embed-status:not(:empty)');
    out.push([`embed ${kind}`, await visibleText(page, skip)]);
  }
  // The shared-cluster calculator: its page with every "show the math" open, a repaired link,
  // a field the reader broke, and its chapter widget.
  await page.goto(`${server.url}#/${lang}/tools/cluster`);
  await page.waitForSelector('section.cluster-tool [data-k=mig] dd');
  await openAllDetails(page);
  out.push(['cluster calculator', await visibleText(page, skip)]);
  await page.goto(`${server.url}#/${lang}/tools/cluster?p=h100-sxm*0*8~nope*1*2&t=1*A*-2*10*0*30*0*1*0~9*B*1*x&r=soon&m=l4*0&s=x*-1~y*no-model&preset=nope`);
  await page.waitForSelector('section.cluster-tool .cl-notices .banner');
  await page.fill('section.cluster-tool input[data-f=pp][data-i="0"]', '0');
  await page.waitForSelector('section.cluster-tool .cl-results .banner.error');
  out.push(['cluster calculator, repaired link and a broken field', await visibleText(page, skip)]);
  await page.goto(`${server.url}#/${lang}/embed/cluster`);
  await page.waitForSelector('aside.widget section.cluster-tool [data-k=pool] dd');
  out.push(['embed cluster', await visibleText(page, skip)]);
  await page.goto(`${server.url}#/${lang}/embed/cuda-grid`);
  await page.fill('#cuda-grid-t', '5000');
  await page.locator('#cuda-grid-t').dispatchEvent('change');
  await page.waitForSelector('aside.widget .field-error');
  out.push(['embed cuda-grid, out of range', await visibleText(page, skip)]);
  return out;
}

test('zh pages show no Latin word outside the allow-list', async () => {
  const page = await newPage(browser);
  const failures = [];
  for (const [label, text] of await texts(page, 'zh', SKIP_ZH)) {
    const bad = latinProblems(text);
    if (text.includes('词元')) bad.push('词元 (the zh pages say token)');
    if (bad.length) failures.push(`${label}:\n  ${bad.join('\n  ')}`);
  }
  assert.deepEqual(failures, [], failures.join('\n'));
  await finish(page);
});

test('en pages show no Chinese outside elements marked as Chinese', async () => {
  const page = await newPage(browser);
  const failures = [];
  for (const [label, text] of await texts(page, 'en', SKIP_EN)) {
    const bad = cjkProblems(text);
    if (bad.length) failures.push(`${label}: ${bad.map((s) => JSON.stringify(s)).join(', ')}`);
  }
  assert.deepEqual(failures, [], failures.join('\n'));
  await finish(page);
});

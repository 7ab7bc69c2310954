// A GGUF file written by hand for the browser tests: a small Llama-style model (4 layers,
// hidden 256, grouped-query attention) whose tensors are typed as llama.cpp's Q4_K_M mix types
// them (Q4_K, attn_v and ffn_down in Q6_K, norms in F32), with a tokenizer large enough that the
// header needs more than the estimator's first read (2 MiB).

const TYPES = { F32: [0, 1, 4], Q8_0: [8, 32, 34], Q4_K: [12, 256, 144], Q6_K: [14, 256, 210] };

/** The bytes of a GGUF v3 file, the tensors' data zeroed; `tokens` tokenizer entries. */
export function ggufFile({ tokens = 300_000, layers = 4 } = {}) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  const tensors = [
    ['token_embd.weight', [256, 1000], 'Q4_K'],
    ['output.weight', [256, 1000], 'Q6_K'],
    ['output_norm.weight', [256], 'F32'],
  ];
  for (let l = 0; l < layers; l++) {
    const more = l % 2 === 0;
    tensors.push(
      [`blk.${l}.attn_q.weight`, [256, 256], 'Q4_K'],
      [`blk.${l}.attn_k.weight`, [256, 64], 'Q4_K'],
      [`blk.${l}.attn_v.weight`, [256, 64], more ? 'Q6_K' : 'Q4_K'],
      [`blk.${l}.attn_output.weight`, [256, 256], 'Q4_K'],
      [`blk.${l}.ffn_gate.weight`, [256, 512], 'Q4_K'],
      [`blk.${l}.ffn_up.weight`, [256, 512], 'Q4_K'],
      [`blk.${l}.ffn_down.weight`, [512, 256], more ? 'Q6_K' : 'Q4_K'],
      [`blk.${l}.attn_norm.weight`, [256], 'F32'],
      [`blk.${l}.ffn_norm.weight`, [256], 'F32'],
    );
  }
  const meta = [
    ['general.architecture', 'llama'], ['general.name', 'Tiny Test Llama'], ['general.file_type', 15],
    ['llama.block_count', layers], ['llama.embedding_length', 256], ['llama.feed_forward_length', 512],
    ['llama.attention.head_count', 8], ['llama.attention.head_count_kv', 2], ['llama.context_length', 8192],
  ];
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(meta.length + 1);
  for (const [k, v] of meta) {
    str(k);
    if (typeof v === 'string') { u32(8); str(v); } else { u32(4); u32(v); }
  }
  str('tokenizer.ggml.tokens');
  u32(9); u32(8); u64(tokens);
  for (let i = 0; i < tokens; i++) str(`tok${i}`);
  let offset = 0;
  let bytes = 0;
  for (const [name, dims, type] of tensors) {
    const [id, block, size] = TYPES[type];
    str(name); u32(dims.length); for (const d of dims) u64(d); u32(id); u64(offset);
    const n = dims.reduce((a, b) => a * b, 1) / block * size;
    bytes += n;
    offset += Math.ceil(n / 32) * 32;
  }
  const header = Buffer.concat(parts);
  const start = Math.ceil(header.length / 32) * 32;
  const file = Buffer.alloc(start + offset);
  header.copy(file);
  const embedding = 256 * 1000 / 256 * 144;
  return { file, header: header.length, bytes, embedding };
}

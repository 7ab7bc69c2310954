//! The lab's WGSL kernels. All share one bind group layout: bindings 0-2 are storage buffers,
//! binding 3 the uniform [`PARAMS`] (`n`, `row`, `s`, `k`), so one layout serves every pipeline.
//! An invocation's index is `x + y · row` (2-D dispatch, see `engine::lab::dispatch_2d`); indices
//! past `n` do nothing.

/// Bytes of the uniform parameter block (four 32-bit fields).
pub const PARAMS: u64 = 16;

/// Invocations per workgroup of the 1-D kernels.
pub const WORKGROUP: u64 = 256;

/// Tile edge of the matrix product (a 16 × 16 workgroup).
pub const TILE: u64 = 16;

/// BabelStream's kernels on `vec4<f32>` plus `init`, which fills a = 0.1, b = 0.2, c = 0
/// (`engine::lab::StreamState::START`). `p.n` counts vec4 elements, `p.s` is the scalar.
pub const STREAM: &str = r"
struct P { n: u32, row: u32, s: f32, k: u32 }
@group(0) @binding(0) var<storage, read_write> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> p: P;
fn at(g: vec3<u32>) -> u32 { return g.x + g.y * p.row; }
@compute @workgroup_size(256) fn init(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = at(g); if (i < p.n) { a[i] = vec4<f32>(0.1); b[i] = vec4<f32>(0.2); c[i] = vec4<f32>(0.0); }
}
@compute @workgroup_size(256) fn copy(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = at(g); if (i < p.n) { c[i] = a[i]; }
}
@compute @workgroup_size(256) fn mul(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = at(g); if (i < p.n) { b[i] = p.s * c[i]; }
}
@compute @workgroup_size(256) fn add(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = at(g); if (i < p.n) { c[i] = a[i] + b[i]; }
}
@compute @workgroup_size(256) fn triad(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = at(g); if (i < p.n) { a[i] = b[i] + p.s * c[i]; }
}
";

/// Eight independent chains of `x ← fma(x, 0.999, 0.001)`, `p.k` steps each, chain *j* of
/// invocation *i* starting at 0.5 + 0.01·j + 0.0001·(i mod 16) (different starts keep the compiler
/// from merging chains); the sum goes to `a[i]` (`a` read as f32 here). 16 FLOP per step.
pub const FMA_F32: &str = r"
struct P { n: u32, row: u32, s: f32, k: u32 }
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
@compute @workgroup_size(256) fn fma_chain(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x + g.y * p.row;
  if (i >= p.n) { return; }
  let o = f32(i % 16u) * 0.0001;
  var x0 = 0.50 + o; var x1 = 0.51 + o; var x2 = 0.52 + o; var x3 = 0.53 + o;
  var x4 = 0.54 + o; var x5 = 0.55 + o; var x6 = 0.56 + o; var x7 = 0.57 + o;
  for (var t = 0u; t < p.k; t++) {
    x0 = fma(x0, 0.999, 0.001); x1 = fma(x1, 0.999, 0.001); x2 = fma(x2, 0.999, 0.001); x3 = fma(x3, 0.999, 0.001);
    x4 = fma(x4, 0.999, 0.001); x5 = fma(x5, 0.999, 0.001); x6 = fma(x6, 0.999, 0.001); x7 = fma(x7, 0.999, 0.001);
  }
  a[i] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
";

/// The same chains in half precision (needs the `shader-f16` feature).
pub const FMA_F16: &str = r"
enable f16;
struct P { n: u32, row: u32, s: f32, k: u32 }
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
@compute @workgroup_size(256) fn fma_chain(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x + g.y * p.row;
  if (i >= p.n) { return; }
  let o = f16(i % 16u) * 0.0001h;
  var x0 = 0.50h + o; var x1 = 0.51h + o; var x2 = 0.52h + o; var x3 = 0.53h + o;
  var x4 = 0.54h + o; var x5 = 0.55h + o; var x6 = 0.56h + o; var x7 = 0.57h + o;
  for (var t = 0u; t < p.k; t++) {
    x0 = fma(x0, 0.999h, 0.001h); x1 = fma(x1, 0.999h, 0.001h); x2 = fma(x2, 0.999h, 0.001h); x3 = fma(x3, 0.999h, 0.001h);
    x4 = fma(x4, 0.999h, 0.001h); x5 = fma(x5, 0.999h, 0.001h); x6 = fma(x6, 0.999h, 0.001h); x7 = fma(x7, 0.999h, 0.001h);
  }
  a[i] = f32(x0) + f32(x1) + f32(x2) + f32(x3) + f32(x4) + f32(x5) + f32(x6) + f32(x7);
}
";

/// C = A·B for square `p.n` × `p.n` f32 matrices (n a multiple of 16), 16 × 16 tiles in
/// workgroup memory. CUDA cores only: WebGPU has no Tensor Core path.
pub const MATMUL: &str = r"
struct P { n: u32, row: u32, s: f32, k: u32 }
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
var<workgroup> ta: array<array<f32, 16>, 16>;
var<workgroup> tb: array<array<f32, 16>, 16>;
@compute @workgroup_size(16, 16) fn matmul(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) w: vec3<u32>) {
  let row = w.y * 16u + l.y;
  let col = w.x * 16u + l.x;
  var acc = 0.0;
  for (var t = 0u; t < p.n; t += 16u) {
    ta[l.y][l.x] = a[row * p.n + t + l.x];
    tb[l.y][l.x] = b[(t + l.y) * p.n + col];
    workgroupBarrier();
    for (var k = 0u; k < 16u; k++) { acc = fma(ta[l.y][k], tb[k][l.x], acc); }
    workgroupBarrier();
  }
  c[row * p.n + col] = acc;
}
";

/// The chains' first terms in [`FMA_F32`] / [`FMA_F16`].
const STARTS: [f32; 8] = [0.50, 0.51, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57];

/// What invocation *i*'s chains start at, as the shader computes it (f32).
pub fn fma_starts(invocation: u32) -> [f32; 8] {
    let o = (invocation % 16) as f32 * 0.0001;
    STARTS.map(|s| s + o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_has_its_entry_point_and_the_shared_params() {
        for (src, entries) in [
            (STREAM, &["init", "copy", "mul", "add", "triad"][..]),
            (FMA_F32, &["fma_chain"][..]),
            (FMA_F16, &["fma_chain"][..]),
            (MATMUL, &["matmul"][..]),
        ] {
            assert!(src.contains("struct P { n: u32, row: u32, s: f32, k: u32 }"));
            for e in entries {
                assert!(src.contains(&format!("fn {e}(")), "{e}");
            }
        }
        // The kernels' names are the engine's.
        for k in crate::engine::lab::StreamKernel::ALL {
            assert!(STREAM.contains(&format!("fn {}(", k.name())));
        }
        assert_eq!(WORKGROUP, 256);
        assert!(STREAM.contains("@workgroup_size(256)") && MATMUL.contains("@workgroup_size(16, 16)"));
        assert_eq!(fma_starts(17)[2], 0.52 + 0.0001);
        assert_eq!(fma_starts(16), STARTS);
    }
}

//! The harness stages of the render path, in WGSL: the vertex stage that replays the vertex
//! shader's outputs, the capture stage of the reference (interpolated inputs to storage) and the
//! replay stage (precomputed colours and depths back through the output merger).
//!
//! Every stage reads the same vertex records, so the three pipelines rasterise the same
//! triangles with the same interpolants: record k is eight vec4s, the clip position, then the
//! output slots 0-6 (GPUREG_SH_OUTMAP_O0-O6).

/// vec4s per vertex record.
pub const RECORD_VEC4S: usize = 8;
/// vec4s per captured fragment: (covered, frag z, frag 1/w, 0), then slots 0-6.
pub const CAPTURE_VEC4S: usize = 8;

/// The PICA's clip volume has -w <= z <= 0 where Vulkan's has 0 <= z <= w: z is negated here
/// (exact), and the host negates the depth scale the fragment module multiplies by (docs/pica-render.md).
pub const VERTEX: &str = r#"
@group(0) @binding(4) var<storage, read> rec: array<array<vec4<f32>, 8>>;
struct VOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) s0: vec4<f32>, @location(1) s1: vec4<f32>, @location(2) s2: vec4<f32>,
    @location(3) s3: vec4<f32>, @location(4) s4: vec4<f32>, @location(5) s5: vec4<f32>,
    @location(6) s6: vec4<f32>,
}
@vertex
fn main(@builtin(vertex_index) i: u32) -> VOut {
    let r = rec[i];
    var o: VOut;
    o.pos = vec4<f32>(r[0].x, r[0].y, -r[0].z, r[0].w);
    o.s0 = r[1]; o.s1 = r[2]; o.s2 = r[3]; o.s3 = r[4]; o.s4 = r[5]; o.s5 = r[6]; o.s6 = r[7];
    return o;
}
"#;

/// The index of the fragment at `fc` of primitive `p` in the per-primitive boxes of binding 5
/// ((first index, min x, min y, width | height << 16)), or 0xFFFFFFFF outside its box.
const SLOT: &str = r#"
@group(0) @binding(5) var<storage, read> prims: array<vec4<u32>>;
fn slot(fc: vec4<f32>, p: u32) -> u32 {
    let t = prims[p];
    let x = u32(fc.x) - t.y;
    let y = u32(fc.y) - t.z;
    let w = t.w & 0xFFFFu;
    let h = t.w >> 16u;
    if (x < w && y < h) {
        return t.x + y * w + x;
    }
    return 0xFFFFFFFFu;
}
"#;

/// The capture stage: every rasterised fragment's position z and 1/w and its seven slots.
pub fn capture() -> String {
    format!(
        "enable primitive_index;\n{SLOT}{}",
        r#"
@group(0) @binding(6) var<storage, read_write> out: array<array<vec4<f32>, 8>>;
@fragment
fn main(@builtin(position) fc: vec4<f32>, @builtin(primitive_index) p: u32,
        @location(0) s0: vec4<f32>, @location(1) s1: vec4<f32>, @location(2) s2: vec4<f32>,
        @location(3) s3: vec4<f32>, @location(4) s4: vec4<f32>, @location(5) s5: vec4<f32>,
        @location(6) s6: vec4<f32>) -> @location(0) vec4<f32> {
    let at = slot(fc, p);
    if (at != 0xFFFFFFFFu) {
        out[at][0] = vec4<f32>(1.0, fc.z, fc.w, 0.0);
        out[at][1] = s0; out[at][2] = s1; out[at][3] = s2; out[at][4] = s3;
        out[at][5] = s4; out[at][6] = s5; out[at][7] = s6;
    }
    return vec4<f32>(0.0);
}
"#
    )
}

/// The replay stage: per fragment (kind, RGBA bytes, depth bits, 0) with kind 1 a colour; any
/// other kind (not covered in the capture, discarded by the reference) discards. The colour is
/// written as the fragment module writes it: the bytes as floats divided by 255.
pub fn replay() -> String {
    format!(
        "enable primitive_index;\n{SLOT}{}",
        r#"
@group(0) @binding(6) var<storage, read_write> res: array<vec4<u32>>;
struct FOut { @location(0) color: vec4<f32>, @builtin(frag_depth) depth: f32 }
@fragment
fn main(@builtin(position) fc: vec4<f32>, @builtin(primitive_index) p: u32) -> FOut {
    let at = slot(fc, p);
    if (at == 0xFFFFFFFFu) {
        discard;
    }
    let r = res[at];
    if (r.x != 1u) {
        discard;
    }
    let b = vec4<u32>(r.y & 255u, (r.y >> 8u) & 255u, (r.y >> 16u) & 255u, r.y >> 24u);
    var o: FOut;
    o.color = vec4<f32>(b) / vec4<f32>(255.0);
    o.depth = bitcast<f32>(r.z);
    return o;
}
"#
    )
}

//! The interpreter against the GLSL the latte-mesa programs were compiled from: for t04 (a
//! loop with a uniform bound), t05 (break and continue on per-pixel conditions), t07 (discard),
//! t24 (a local array indexed through AR) and t30 (a vertex loop over a uniform array with a
//! break) the GLSL source is re-implemented here on the CPU, and the compiler's program, run on the interpreter with the same inputs (pixel programs
//! in 2x2 quads), must agree: exactly where the compiled code does the same f32 operations (t05, t07,
//! t24, t30), within 2 ulp where it multiplies by a reciprocal instead of dividing (t04). 64 input
//! sets each, with lanes of one quad diverging.

mod common;
mod interp;
use interp::*;
use latte::interp::{Config, CpuTextures, Inputs, Invocation, Stage, Texture2d, Vm};
use latte::isa::Program;
use std::sync::Arc;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

const W: u32 = 4;

/// `textureLod(t, uv, 0.0)` of CpuTextures: nearest texel, repeat.
fn texel(t: &Texture2d, uv: [f32; 2]) -> [f32; 4] {
    let c = |v: f32, n: u32| ((v as f64 * n as f64).floor() as i64).rem_euclid(n as i64) as usize;
    t.texels[c(uv[1], t.height) * t.width as usize + c(uv[0], t.width)]
}

fn program(test: &str) -> Program {
    let bytes = std::fs::read(common::corpus().join(format!("latte-mesa/programs/{test}/ps.bin"))).unwrap();
    Program::decode_bytes(&bytes, 0).unwrap()
}

fn texture(rng: &mut Rng) -> Texture2d {
    Texture2d {
        width: W,
        height: W,
        texels: (0..W * W).map(|_| [rng.unit(), rng.unit(), rng.unit(), rng.unit()]).collect(),
    }
}

fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            i32::MIN.wrapping_sub(i)
        } else {
            i
        }
    };
    key(a).abs_diff(key(b))
}

fn inputs_with(tex: Texture2d, block: Vec<u32>) -> Inputs {
    let mut units = CpuTextures::default();
    units.units.insert(18, tex);
    let mut inputs = Inputs { textures: Some(Arc::new(units)), ..Inputs::default() };
    inputs.uniform_blocks.insert(0, block);
    inputs
}

/// t04: `for (i = 0; i < u_count; i++) { acc += textureLod(u_tex0, uv, 0); uv += u_step.xy; }
/// o_col = acc / float(max(u_count, 1));` with v_uv in R0.xy, u_count and u_step in block 0.
#[test]
fn t04_loop_with_a_uniform_bound_matches_its_glsl() {
    let p = program("t04_loop_uniform");
    let vm = Vm::new(&p);
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let (mut cases, mut exact, mut max_ulp) = (0, 0, 0);
    for _ in 0..64 {
        let tex = texture(&mut rng);
        let count = (rng.next() % 6) as i32;
        let step = [rng.unit() * 0.5, rng.unit() * 0.5];
        let block = vec![count as u32, 0, 0, 0, fb(step[0]), fb(step[1]), 0, 0];
        let uvs: Vec<[f32; 2]> = (0..4).map(|_| [rng.unit(), rng.unit()]).collect();
        let invs: Vec<Invocation> = uvs.iter().map(|uv| inv(&[(0, [fb(uv[0]), fb(uv[1]), 0, 0])])).collect();
        let r = vm.run(Stage::Pixel, &inputs_with(tex.clone(), block), &Config::default(), &invs).unwrap();
        for (lane, uv0) in r.iter().zip(&uvs) {
            let mut acc = [0.0f32; 4];
            let mut uv = *uv0;
            for _ in 0..count {
                let s = texel(&tex, uv);
                (0..4).for_each(|c| acc[c] += s[c]);
                uv = [uv[0] + step[0], uv[1] + step[1]];
            }
            let want = acc.map(|a| a / count.max(1) as f32);
            let got = export(lane, "pix0").unwrap().map(bf);
            cases += 1;
            let u = (0..4).map(|c| ulps(got[c], want[c])).max().unwrap();
            exact += (u == 0) as usize;
            max_ulp = max_ulp.max(u);
            assert!(u <= 2, "count {count} uv {uv0:?}: {got:?} vs {want:?}");
        }
    }
    eprintln!("t04: {cases} pixels, {exact} exact, max {max_ulp} ulp");
}

/// t05: `for (i = 0; i < u_max; i++) { s = textureLod(u_tex0, v_uv * float(i + 1), 0); if (s.a <
/// v_col.a) continue; acc += s; if (acc.r > v_col.r) break; } o_col = acc;` with v_uv in R0.xy,
/// v_col.r in R0.z and v_col.a in R0.w (the compiler's packing), u_max in block 0. Exact.
#[test]
fn t05_break_and_continue_match_their_glsl_exactly() {
    let p = program("t05_break_continue");
    let vm = Vm::new(&p);
    let mut rng = Rng(0x0F1E_2D3C_4B5A_6978);
    let mut cases = 0;
    let (mut broke, mut continued) = (0, 0);
    for _ in 0..64 {
        let tex = texture(&mut rng);
        let max = (rng.next() % 8) as i32;
        let block = vec![max as u32, 0, 0, 0];
        let ins: Vec<[f32; 4]> = (0..4).map(|_| [rng.unit(), rng.unit(), rng.unit() * 3.0, rng.unit()]).collect();
        let invs: Vec<Invocation> = ins.iter().map(|v| inv(&[(0, v.map(fb))])).collect();
        let r = vm.run(Stage::Pixel, &inputs_with(tex.clone(), block), &Config::default(), &invs).unwrap();
        for (lane, v) in r.iter().zip(&ins) {
            let mut acc = [0.0f32; 4];
            for i in 0..max {
                let k = (i + 1) as f32;
                let s = texel(&tex, [v[0] * k, v[1] * k]);
                if s[3] < v[3] {
                    continued += 1;
                    continue;
                }
                (0..4).for_each(|c| acc[c] += s[c]);
                if acc[0] > v[2] {
                    broke += 1;
                    break;
                }
            }
            cases += 1;
            assert_eq!(export(lane, "pix0").unwrap(), acc.map(fb), "max {max} inputs {v:?}");
        }
    }
    assert!(broke > 20 && continued > 20, "the inputs exercise both exits: {broke} breaks, {continued} continues");
    eprintln!("t05: {cases} pixels exact, {broke} breaks, {continued} continues");
}

/// t30 (vertex program): `for (i = 0; i < u_num_targets; i++) { p.xyz += u_targets[i].xyz *
/// a_col[i & 3]; if (dot(p.xyz, p.xyz) > u_threshold) break; } gl_Position = p; v_uv =
/// a_uv.xy;` with the attributes in R1-R3 (Mesa's fetch shader), the uniform block read both
/// through kcache (u_num_targets, u_threshold at vec4 32) and through VFETCH (u_targets[i],
/// buffer 1 in Mesa's numbering). Exact: the compiled MULADD_IEEE and DOT4_IEEE round as the
/// CPU's `p + t * c` and `x·x + y·y + z·z` do (interpreter decisions: unfused, left to right).
#[test]
fn t30_vertex_loop_over_a_uniform_array_matches_its_glsl_exactly() {
    use latte::interp::Buffer;
    let bytes = std::fs::read(common::corpus().join("latte-mesa/programs/t30_vs_loop_branch/vs.bin")).unwrap();
    let p = Program::decode_bytes(&bytes, 0).unwrap();
    let vm = Vm::new(&p);
    let mut rng = Rng(0x5555_AAAA_1234_4321);
    let (mut cases, mut broke) = (0, 0);
    for _ in 0..64 {
        let n = (rng.next() % 9) as i32;
        let threshold = rng.unit() * 12.0;
        let targets: Vec<[f32; 4]> =
            (0..32).map(|_| [rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0, 0.0]).collect();
        let mut block: Vec<u32> = targets.iter().flat_map(|t| t.map(fb)).collect();
        block.extend([n as u32, fb(threshold), 0, 0]);
        let mut inputs = Inputs::default();
        inputs
            .buffers
            .insert(1, Buffer { data: block.iter().flat_map(|w| w.to_le_bytes()).collect(), stride: 16, format: None });
        inputs.uniform_blocks.insert(1, block);
        for _ in 0..4 {
            let pos = [rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0, 1.0];
            let uv = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
            let col = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
            let r = vm
                .run(
                    Stage::Vertex,
                    &inputs,
                    &Config::default(),
                    &[inv(&[(1, pos.map(fb)), (2, uv.map(fb)), (3, col.map(fb))])],
                )
                .unwrap();
            let mut q = pos;
            for i in 0..n {
                let (t, c) = (targets[i as usize], col[(i & 3) as usize]);
                for k in 0..3 {
                    q[k] += t[k] * c;
                }
                if q[0] * q[0] + q[1] * q[1] + q[2] * q[2] > threshold {
                    broke += 1;
                    break;
                }
            }
            cases += 1;
            assert_eq!(export(&r[0], "pos0").unwrap(), q.map(fb), "n {n} threshold {threshold}");
            assert_eq!(export(&r[0], "param0").unwrap()[..2], [fb(uv[0]), fb(uv[1])]);
        }
    }
    assert!(broke > 20, "{broke} breaks");
    eprintln!("t30: {cases} vertices exact, {broke} breaks");
}

/// t24: `arr[i] = v_col * float(i) + vec4(v_uv, 0, 0)` for i < 8; `arr[v_idx & 7] = (1, 2, 3,
/// 4)`; `o_col = arr[(v_idx + 3) & 7] + arr[v_idx & 7]`: a local array in GPRs R3-R10 indexed
/// through MOVA_INT and R3[AR.x], with v_col in R0, v_uv in R1.xy and the flat v_idx in R2.x
/// (the compiler's input layout). Exact.
#[test]
fn t24_indexed_temporary_array_matches_its_glsl_exactly() {
    let p = program("t24_indirect_temp");
    let vm = Vm::new(&p);
    let mut rng = Rng(0x7777_1111_2222_3333);
    for _ in 0..64 {
        let invs: Vec<([f32; 4], [f32; 2], i32)> = (0..4)
            .map(|_| {
                (
                    [rng.unit(), rng.unit(), rng.unit(), rng.unit()],
                    [rng.unit(), rng.unit()],
                    (rng.next() % 200) as i32 - 100,
                )
            })
            .collect();
        let lanes: Vec<Invocation> = invs
            .iter()
            .map(|(col, uv, idx)| {
                inv(&[(0, col.map(fb)), (1, [fb(uv[0]), fb(uv[1]), 0, 0]), (2, [*idx as u32, 0, 0, 0])])
            })
            .collect();
        let r = vm.run(Stage::Pixel, &Inputs::default(), &Config::default(), &lanes).unwrap();
        for (lane, (col, uv, idx)) in r.iter().zip(&invs) {
            let mut arr = [[0.0f32; 4]; 8];
            for (i, a) in arr.iter_mut().enumerate() {
                let add = [uv[0], uv[1], 0.0, 0.0];
                *a = [0, 1, 2, 3].map(|c| col[c] * i as f32 + add[c]);
            }
            arr[(idx & 7) as usize] = [1.0, 2.0, 3.0, 4.0];
            let (a, b) = (arr[((idx + 3) & 7) as usize], arr[(idx & 7) as usize]);
            let want = [0, 1, 2, 3].map(|c| a[c] + b[c]);
            assert_eq!(export(lane, "pix0").unwrap(), want.map(fb), "idx {idx} col {col:?} uv {uv:?}");
        }
    }
}

/// t07: `c = texture(u_tex0, v_uv) * v_col; if (c.a < u_ref) discard; o_col = c;` with v_uv in
/// R0.xy and v_col in (R0.z, R0.w, R1.x, R1.y) (the compiler's packing): KILLGT kills exactly
/// the pixels the GLSL discards, and the others export `c` exactly.
#[test]
fn t07_discard_kills_the_pixels_its_glsl_discards() {
    let p = program("t07_discard");
    let vm = Vm::new(&p);
    let mut rng = Rng(0x0BAD_CAFE_F00D_1234);
    let (mut killed, mut kept) = (0, 0);
    for _ in 0..64 {
        let tex = texture(&mut rng);
        let u_ref = rng.unit() * 0.5;
        let ins: Vec<([f32; 2], [f32; 4])> =
            (0..4).map(|_| ([rng.unit(), rng.unit()], [rng.unit(), rng.unit(), rng.unit(), rng.unit()])).collect();
        let lanes: Vec<Invocation> = ins
            .iter()
            .map(|(uv, col)| {
                inv(&[(0, [uv[0], uv[1], col[0], col[1]].map(fb)), (1, [col[2], col[3], 0.0, 0.0].map(fb))])
            })
            .collect();
        let r = vm
            .run(Stage::Pixel, &inputs_with(tex.clone(), vec![fb(u_ref), 0, 0, 0]), &Config::default(), &lanes)
            .unwrap();
        for (lane, (uv, col)) in r.iter().zip(&ins) {
            let s = texel(&tex, *uv);
            let c = [0, 1, 2, 3].map(|k| s[k] * col[k]);
            let discard = c[3] < u_ref;
            assert_eq!(lane.killed, discard, "c {c:?} u_ref {u_ref}");
            if discard {
                killed += 1;
            } else {
                kept += 1;
                assert_eq!(export(lane, "pix0").unwrap(), c.map(fb));
            }
        }
    }
    assert!(killed > 20 && kept > 20, "{killed} killed, {kept} kept");
}

//! The PICA200 part of the demo: a built-in scene (the `transform` sample as vertex shader,
//! three flat-coloured draws with a depth test) rendered on the device through the translated
//! shaders and with the CPU reference fragment pipeline; the picture goes to `pica-scene.png`.
//!
//! Draw 0 is a red quad over the whole target at depth 0.25, draw 1 a green triangle at depth
//! 0.75, draw 2 a blue one at depth 0.5 overlapping it; the depth test is "greater" over a
//! buffer cleared to 0, so green stays in front of blue where they overlap.

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

use pica::regs::layouts::AttribType;
use pica::state::scene::{uniform, Scene};

/// The picture's side in pixels.
pub const SIZE: u32 = 128;
const VERTICES: u32 = 0x1800_0000;

/// (x, y, z) per vertex and the draw's colour (ubyte 0 or 1: the loader does not normalise).
const DRAWS: [([[f32; 3]; 6], [u8; 3]); 3] = [
    (
        [
            [-1.0, -1.0, -0.25],
            [1.0, -1.0, -0.25],
            [1.0, 1.0, -0.25],
            [-1.0, -1.0, -0.25],
            [1.0, 1.0, -0.25],
            [-1.0, 1.0, -0.25],
        ],
        [1, 0, 0],
    ),
    ([[-0.8, -0.8, -0.75], [0.2, -0.8, -0.75], [-0.3, 0.6, -0.75], [0.0; 3], [0.0; 3], [0.0; 3]], [0, 1, 0]),
    ([[-0.2, -0.6, -0.5], [0.8, -0.6, -0.5], [0.3, 0.8, -0.5], [0.0; 3], [0.0; 3], [0.0; 3]], [0, 0, 1]),
];

/// The scene as a trace.
pub fn scene() -> anyhow::Result<Scene> {
    let src = include_str!("../../samples/transform.v.pica");
    let out = pica::asm::assemble(
        &[pica::asm::Source { name: "transform.v.pica", text: src }],
        &pica::asm::Options::default(),
    )?;
    let shbin = out.shbin;
    let mut s = Scene::new();
    s.defaults(SIZE, SIZE).vertex_shader(&shbin, 0);
    let t = uniform(&shbin.executables[0], "transform").ok_or_else(|| anyhow::anyhow!("no transform uniform"))?;
    for i in 0..4u8 {
        let mut row = [0.0; 4];
        row[i as usize] = 1.0;
        s.float_uniform(t + i, row);
    }
    // Depth test "greater" with depth writes; TexEnv stage 0 replaces with the primary colour.
    s.write(0x107, 0x1F01 | (6 << 4));
    s.write(0x0C0, 0).write(0x0C1, 0).write(0x0C2, 0).write(0x0C4, 0);
    s.primitive(0);
    for (k, (vertices, color)) in DRAWS.iter().enumerate() {
        let count = if k == 0 { 6 } else { 3 };
        let mut data = Vec::new();
        for v in &vertices[..count] {
            for c in v {
                data.extend_from_slice(&c.to_le_bytes());
            }
            data.extend_from_slice(&[color[0], color[1], color[2], 1]);
        }
        let address = VERTICES + 0x1000 * k as u32;
        s.load(address, data);
        s.vertex_array(address, &[(AttribType::Float, 3), (AttribType::UnsignedByte, 4)], 16);
        s.draw_arrays(0, count as u32);
    }
    s.end_frame();
    Ok(s)
}

fn render(out: &Path) -> anyhow::Result<(String, usize)> {
    use gpu::pica_render::{self, DrawInput, Mode};
    let trace = scene()?.trace();
    let r = pica::state::citrace::replay(&trace, Default::default());
    let readers: Vec<crate::pica::render::Reader> = (0..r.state.draws.len())
        .map(|i| {
            let (memory, before) = (&r.memory, r.draw_loads[i]);
            Box::new(move |a, l| memory.read_before(a, l, before).map(<[u8]>::to_vec)) as crate::pica::render::Reader
        })
        .collect();
    let draws: Vec<DrawInput> = r
        .state
        .draws
        .iter()
        .zip(&readers)
        .enumerate()
        .map(|(index, (draw, read))| DrawInput { index, draw, memory: read.as_ref() })
        .collect();
    let _runtime = gpu::private_runtime_dir()?;
    let gpu = gpu::Gpu::new()?;
    let picture = pica_render::render(&gpu, &draws, Mode::Device)?;
    let reference = pica_render::render(&gpu, &draws, Mode::Reference)?;
    let (differing, _) = pica_render::difference(&picture, &reference);
    std::fs::create_dir_all(out)?;
    let path = out.join("pica-scene.png");
    crate::pica::render::write_picture(&path, &picture)?;
    Ok((path.display().to_string(), differing))
}

/// Renders the scene into `out`; a missing Vulkan device is reported, not a failure.
pub fn demo(table: &mut String, out: &Path) -> bool {
    let _ = writeln!(table, "\n{:<24} {:>7} {:>10}  {:<22} picture", "pica scene", "draws", "time", "reference");
    let t0 = Instant::now();
    let result = render(out);
    let elapsed = t0.elapsed().as_secs_f64();
    match result {
        Ok((path, differing)) => {
            let check = if differing == 0 {
                "0 differing pixels".to_string()
            } else {
                format!("FAILED {differing} differing pixels")
            };
            let _ = writeln!(table, "{:<24} {:>7} {:>9.2}s  {:<22} {path}", "3 draws, depth test", 3, elapsed, check);
            differing == 0
        }
        Err(e) if e.downcast_ref::<gpu::GpuError>().is_some_and(|g| matches!(g, gpu::GpuError::NoDevice(_))) => {
            let _ = writeln!(table, "{:<24} skipped: {e}", "3 draws, depth test");
            std::env::var_os("SHADERPORT_REQUIRE_GPU").is_none()
        }
        Err(e) => {
            let _ = writeln!(table, "{:<24} FAILED {e:#}", "3 draws, depth test");
            false
        }
    }
}

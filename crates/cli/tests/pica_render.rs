//! `shaderport pica render` end to end on traces assembled here from corpus shaders (lenny,
//! textured_cube with a texture, fragment_light's with a non-lit fragment state, the geoshader
//! example's vertex and geometry shaders, the cubemap example's skybox with a cube map): the
//! picture equals the `--reference` rendering, and pixels are checked against values derived
//! by hand from the state. Also wrong and truncated traces.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pica::regs::layouts::{AttribType, TextureFormat};
use pica::shbin::Shbin;
use pica::state::scene::{uniform, Scene};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn device() -> bool {
    if !testkit::required() && gpu::Gpu::new().is_err() {
        eprintln!("skipping: no Vulkan device");
        return false;
    }
    true
}

/// The golden SHBIN of 3ds-examples' graphics/gpu/`example`/source/`file`.
fn golden(example: &str, file: &str) -> Shbin {
    let path = testkit::corpus(&format!("pica/golden/3ds-examples__graphics__gpu__{example}__source__{file}.shbin"));
    Shbin::read(&std::fs::read(path).unwrap()).unwrap()
}

fn shbin(name: &str) -> Shbin {
    golden(name, "vshader.v.pica")
}

const SIZE: u32 = 64;
const VERTICES: u32 = 0x1800_0000;
const TEXTURE: u32 = 0x1810_0000;

/// Identity `projection` and `modelView` (the clip position is the input position).
fn identity(scene: &mut Scene, s: &Shbin) {
    let d = &s.executables[0];
    for name in ["projection", "modelView"] {
        let r = uniform(d, name).unwrap_or_else(|| panic!("{name}"));
        for i in 0..4u8 {
            let mut row = [0.0; 4];
            row[i as usize] = 1.0;
            scene.float_uniform(r + i, row);
        }
    }
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// lenny's shader, float positions and normals, one triangle around the centre at z = -0.5,
/// TexEnv stage 0 replacing with the primary colour (the shader writes 1.0): white.
fn lenny() -> Scene {
    let s = shbin("lenny");
    let mut scene = Scene::new();
    scene.defaults(SIZE, SIZE).vertex_shader(&s, 0);
    identity(&mut scene, &s);
    #[rustfmt::skip]
    let data = floats(&[
        -0.5, -0.5, -0.5, 0.0, 0.0, 1.0,
        0.5, -0.5, -0.5, 0.0, 0.0, 1.0,
        0.0, 0.75, -0.5, 0.0, 0.0, 1.0,
    ]);
    scene.load(VERTICES, data);
    scene.vertex_array(VERTICES, &[(AttribType::Float, 3), (AttribType::Float, 3)], 24);
    scene.write(0x0C0, 0).write(0x0C1, 0).write(0x0C2, 0).write(0x0C4, 0);
    scene.primitive(0).draw_arrays(0, 3).end_frame();
    scene
}

/// textured_cube's shader: short positions (scaled by modelView 1/64), ubyte texcoords, byte
/// normals; a quad as a u16-indexed triangle list; an 8x8 RGBA8 texture whose left half is
/// (200, 100, 50, 255) and right half (20, 40, 60, 255); TexEnv stage 0 replaces with texture 0.
fn textured_cube() -> Scene {
    let s = shbin("textured_cube");
    let d = &s.executables[0];
    let mut scene = Scene::new();
    scene.defaults(SIZE, SIZE).vertex_shader(&s, 0);
    identity(&mut scene, &s);
    let mv = uniform(d, "modelView").unwrap();
    for i in 0..3u8 {
        let mut row = [0.0; 4];
        row[i as usize] = 1.0 / 64.0;
        scene.float_uniform(mv + i, row);
    }
    let mut data = Vec::new();
    for (x, y, u, v) in [(-48i16, -48i16, 0u8, 0u8), (48, -48, 1, 0), (48, 48, 1, 1), (-48, 48, 0, 1)] {
        for c in [x, y, -32] {
            data.extend_from_slice(&c.to_le_bytes());
        }
        data.extend_from_slice(&[u, v]);
    }
    let index_at = data.len() as u32;
    for i in [0u16, 1, 2, 0, 2, 3] {
        data.extend_from_slice(&i.to_le_bytes());
    }
    scene.load(VERTICES, data);
    // Attribute 2 (the normal) is fixed: the default attribute.
    scene.vertex_array(VERTICES, &[(AttribType::Short, 3), (AttribType::UnsignedByte, 2)], 8);
    scene.write(0x202, (2 << 28) | (0b100 << 16)).write(0x242, 2);
    let mut image = pica::texture::Image::new(8, 8);
    for y in 0..8 {
        for x in 0..8 {
            image.set_pixel(x, y, if x < 4 { [200, 100, 50, 255] } else { [20, 40, 60, 255] });
        }
    }
    scene.load(TEXTURE, pica::texture::encode(TextureFormat::Rgba8, &image).unwrap());
    scene.write(0x080, 1).write(0x082, (8 << 16) | 8).write(0x083, 0).write(0x085, TEXTURE >> 3).write(0x08E, 0);
    scene.write(0x0C0, 0x0003_0003).write(0x0C1, 0).write(0x0C2, 0).write(0x0C4, 0);
    scene.primitive(0).draw_elements(index_at, true, 6).end_frame();
    scene
}

/// fragment_light's shader with a non-lit state: a triangle strip of two triangles over the
/// lower half; TexEnv stage 0 replaces with its constant (10, 20, 30, 255).
fn fragment_light() -> Scene {
    let s = shbin("fragment_light");
    let mut scene = Scene::new();
    scene.defaults(SIZE, SIZE).vertex_shader(&s, 0);
    identity(&mut scene, &s);
    #[rustfmt::skip]
    let data = floats(&[
        -1.0, -1.0, -0.25, 0.0, 0.0, 0.0, 0.0, 1.0,
        1.0, -1.0, -0.25, 0.0, 0.0, 0.0, 0.0, 1.0,
        -1.0, 0.0, -0.25, 0.0, 0.0, 0.0, 0.0, 1.0,
        1.0, 0.0, -0.25, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);
    scene.load(VERTICES, data);
    scene.vertex_array(VERTICES, &[(AttribType::Float, 3), (AttribType::Float, 2), (AttribType::Float, 3)], 32);
    scene.write(0x0C0, 0x000E_000E).write(0x0C1, 0).write(0x0C2, 0).write(0x0C3, 0xFF1E_140A).write(0x0C4, 0);
    scene.primitive(1).draw_arrays(0, 4).end_frame();
    scene
}

/// The geoshader example: program.v passes the position (w = 1) and the colour on;
/// program.g, in point mode over three vertices of two outputs (v0-v5), emits the three corner
/// triangles of the triangle's midpoint subdivision (not the middle one) through `projection`
/// (identity). One triangle, clip (-0.75, -0.75), (0.75, -0.75), (0, 0.75), all vertices
/// (0, 1, 1, 1); TexEnv stage 0 replaces with the primary colour.
fn geoshader() -> Scene {
    let (vs, gs) = (golden("geoshader", "program.v.pica"), golden("geoshader", "program.g.pica"));
    let mut scene = Scene::new();
    scene.defaults(SIZE, SIZE).vertex_shader(&vs, 0).geometry_shader(&gs, 0, 6);
    let r = uniform(&gs.executables[0], "projection").unwrap();
    for i in 0..4u8 {
        let mut row = [0.0; 4];
        row[i as usize] = 1.0;
        scene.geometry_float_uniform(r + i, row);
    }
    #[rustfmt::skip]
    let data = floats(&[
        -0.75, -0.75, -0.5, 0.0, 1.0, 1.0, 1.0,
        0.75, -0.75, -0.5, 0.0, 1.0, 1.0, 1.0,
        0.0, 0.75, -0.5, 0.0, 1.0, 1.0, 1.0,
    ]);
    scene.load(VERTICES, data);
    scene.vertex_array(VERTICES, &[(AttribType::Float, 3), (AttribType::Float, 4)], 28);
    scene.write(0x0C0, 0).write(0x0C1, 0).write(0x0C2, 0).write(0x0C4, 0);
    scene.primitive(3).draw_arrays(0, 3).end_frame();
    scene
}

/// Face colours of the cube map, in +X, -X, +Y, -Y, +Z, -Z order; +Z has four quadrants
/// instead (image rows top first): top-left, top-right, bottom-left, bottom-right.
const FACES: [[u8; 4]; 6] =
    [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255], [0; 4], [0, 255, 255, 255]];
const PLUS_Z: [[u8; 4]; 4] = [[10, 20, 30, 255], [40, 50, 60, 255], [70, 80, 90, 255], [100, 110, 120, 255]];

/// The centre of face `f`'s quad: columns x = -0.6, 0, 0.6, rows y = 0.5 (+X, -X, +Y) and -0.5
/// (-Y, +Z, -Z) in clip space.
fn face_cell(f: usize) -> (f32, f32) {
    ([-0.6, 0.0, 0.6][f % 3], if f < 3 { 0.5 } else { -0.5 })
}

/// The cubemap example's skybox shader (texcoord0 = the input position, texcoord0.w its z) with
/// unit 0 an 8x8 RGBA8 cube of the FACES colours. Six draws, one per face: a quad of positions
/// (face axis) +- 1 + a t1 + b t2, a and b in [-0.5, 0.5] over the face's tangent axes, so the
/// direction always selects that face; modelView maps a, b to clip x, y around `face_cell`
/// (half size 0.25, 8 pixels), z = -0.5, w = 1. TexEnv stage 0 replaces with texture 0.
fn cube_map() -> Scene {
    let s = golden("cubemap", "skybox.v.pica");
    let d = &s.executables[0];
    let mut scene = Scene::new();
    scene.defaults(SIZE, SIZE).vertex_shader(&s, 0);
    let (projection, model_view) = (uniform(d, "projection").unwrap(), uniform(d, "modelView").unwrap());
    for i in 0..4u8 {
        let mut row = [0.0; 4];
        row[i as usize] = 1.0;
        scene.float_uniform(projection + i, row);
    }
    let mut data = Vec::new();
    for f in 0..6 {
        let axis = f / 2;
        let sign = if f % 2 == 0 { 1.0 } else { -1.0 };
        let tangents: Vec<usize> = (0..3).filter(|&a| a != axis).collect();
        for (a, b) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
            let mut p = [0.0f32; 3];
            p[axis] = sign;
            p[tangents[0]] = a;
            p[tangents[1]] = b;
            data.extend(floats(&p));
        }
    }
    scene.load(VERTICES, data);
    scene.vertex_array(VERTICES, &[(AttribType::Float, 3)], 12);
    for (f, colour) in FACES.iter().enumerate() {
        let mut image = pica::texture::Image::new(8, 8);
        for y in 0..8 {
            for x in 0..8 {
                let quadrant = usize::from(x >= 4) + 2 * usize::from(y >= 4);
                image.set_pixel(x, y, if f == 4 { PLUS_Z[quadrant] } else { *colour });
            }
        }
        let address = TEXTURE + 0x100 * f as u32;
        scene.load(address, pica::texture::encode(TextureFormat::Rgba8, &image).unwrap());
        scene.write(0x085 + f as u16, address >> 3);
    }
    scene.write(0x080, 1).write(0x082, (8 << 16) | 8).write(0x083, 1 << 28).write(0x08E, 0);
    scene.write(0x0C0, 0x0003_0003).write(0x0C1, 0).write(0x0C2, 0).write(0x0C4, 0);
    for f in 0..6 {
        let tangents: Vec<usize> = (0..3).filter(|&a| a != f / 2).collect();
        let (cx, cy) = face_cell(f);
        let mut rows = [[0.0f32; 4]; 4];
        rows[0][tangents[0]] = 0.5;
        rows[0][3] = cx;
        rows[1][tangents[1]] = 0.5;
        rows[1][3] = cy;
        rows[2][3] = -0.5;
        rows[3][3] = 1.0;
        for (i, row) in rows.iter().enumerate() {
            scene.float_uniform(model_view + i as u8, *row);
        }
        scene.primitive(0).draw_arrays(6 * f as u32, 6);
    }
    scene.end_frame();
    scene
}

fn write_trace(dir: &Path, name: &str, scene: &Scene) -> PathBuf {
    let path = dir.join(format!("{name}.citrace"));
    std::fs::write(&path, scene.trace().to_bytes().unwrap()).unwrap();
    path
}

fn read_png(path: &Path) -> pica::texture::Image {
    pica::texture::png_io::read_png(&std::fs::read(path).unwrap()).unwrap()
}

/// Renders `name` with its reference; both pictures must be equal; returns the picture.
fn render(dir: &Path, name: &str, scene: &Scene) -> pica::texture::Image {
    let trace = write_trace(dir, name, scene);
    let out = dir.join(format!("{name}.png"));
    let reference = dir.join(format!("{name}-ref.png"));
    let o = shaderport(&[
        "pica",
        "render",
        trace.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--reference",
        reference.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{name}: {stdout}{}", text(&o.stderr));
    assert!(stdout.contains("reference, 0 differing pixels"), "{stdout}");
    let (a, b) = (read_png(&out), read_png(&reference));
    assert_eq!(a, b, "{name}: the picture and the reference differ");
    assert!(dir.join(format!("{name}-ref.diff.png")).exists());
    a
}

/// (x, y) from the top-left of the picture; the PICA's y = +1 edge is the top row.
fn at(image: &pica::texture::Image, x: u32, y: u32) -> [u8; 4] {
    image.pixel(x, y)
}

#[test]
fn corpus_shaders_render_as_their_reference_and_as_derived_by_hand() {
    if !device() {
        return;
    }
    let dir = testkit::temp_dir("pica-render");
    // lenny: white inside the triangle (clip (-0.5..0.5, -0.5..0.75)), the clear colour outside.
    let image = render(&dir, "lenny", &lenny());
    assert_eq!((image.width, image.height), (SIZE, SIZE));
    assert_eq!(at(&image, 32, 32), [255; 4]);
    assert_eq!(at(&image, 2, 2), [0; 4]);
    assert_eq!(at(&image, 32, 60), [0; 4], "below the triangle's bottom edge (y = -0.5, row 48)");
    // textured_cube: the quad spans clip x, y in [-0.75, 0.75]; u = 0 at the left edge, so
    // the left half samples texels 0-3.
    let image = render(&dir, "textured_cube", &textured_cube());
    assert_eq!(at(&image, 20, 32), [200, 100, 50, 255]);
    assert_eq!(at(&image, 44, 32), [20, 40, 60, 255]);
    assert_eq!(at(&image, 4, 32), [0; 4]);
    // fragment_light: the strip covers the lower half (y in [-1, 0]), the constant colour.
    let image = render(&dir, "fragment_light", &fragment_light());
    assert_eq!(at(&image, 10, 50), [10, 20, 30, 255]);
    assert_eq!(at(&image, 50, 40), [10, 20, 30, 255]);
    assert_eq!(at(&image, 10, 10), [0; 4]);
}

#[test]
fn geometry_shader_and_cube_map_draws_render_as_their_reference_and_as_derived_by_hand() {
    if !device() {
        return;
    }
    let dir = testkit::temp_dir("pica-render-gs-cube");
    // geoshader: pixel (x, y) is clip ((x + 0.5) / 32 - 1, 1 - (y + 0.5) / 32). The corner
    // triangles' centroids (-0.375, -0.5), (0.375, -0.5), (0, 0.25) are drawn; the middle
    // triangle's (0, -0.25), which the vertex path alone would fill, is not.
    let image = render(&dir, "geoshader", &geoshader());
    let cyan = [0, 255, 255, 255];
    assert_eq!(at(&image, 20, 48), cyan);
    assert_eq!(at(&image, 44, 48), cyan);
    assert_eq!(at(&image, 32, 24), cyan);
    assert_eq!(at(&image, 32, 40), [0; 4], "the middle triangle of the subdivision is not emitted");
    assert_eq!(at(&image, 2, 2), [0; 4]);
    // cube map: each quad's centre shows its face's colour.
    let image = render(&dir, "cube_map", &cube_map());
    let pixel = |(cx, cy): (f32, f32)| (((cx + 1.0) * 32.0) as u32, ((1.0 - cy) * 32.0) as u32);
    for (f, colour) in FACES.iter().enumerate().filter(|&(f, _)| f != 4) {
        let (x, y) = pixel(face_cell(f));
        assert_eq!(at(&image, x, y), *colour, "face {f} at ({x}, {y})");
    }
    // +Z (fragment facts §6.2): s = u/w * 0.5 + 0.5, t = -v/w * 0.5 + 0.5 with (u, v, w) =
    // (a, b, 1); t < 0.5 reads rows from the bottom of the face image (row 0 is t = 0). So the
    // quad's upper right shows the image's bottom right, its lower left the top left.
    let (x, y) = pixel(face_cell(4));
    assert_eq!(at(&image, x + 4, y - 4), PLUS_Z[3], "+Z upper right");
    assert_eq!(at(&image, x - 4, y - 4), PLUS_Z[2], "+Z upper left");
    assert_eq!(at(&image, x + 4, y + 4), PLUS_Z[1], "+Z lower right");
    assert_eq!(at(&image, x - 4, y + 4), PLUS_Z[0], "+Z lower left");
    assert_eq!(at(&image, 32, 2), [0; 4]);
}

#[test]
fn wrong_and_truncated_traces_name_the_file_and_the_place() {
    let dir = testkit::temp_dir("pica-render-bad");
    let trace = write_trace(&dir, "lenny", &lenny());
    let bytes = std::fs::read(&trace).unwrap();
    let cut = dir.join("cut.citrace");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    let out = dir.join("x.png");
    let o = shaderport(&["pica", "render", cut.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = text(&o.stderr);
    assert!(e.contains("cut.citrace") && e.contains("byte offset"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    // A draw out of range.
    let o = shaderport(&["pica", "render", trace.to_str().unwrap(), "-o", out.to_str().unwrap(), "--draw", "5"]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--draw 5: the trace has 1 draws"), "{}", text(&o.stderr));
    // A draw whose vertex data was never loaded (device needed to get that far).
    if !device() {
        return;
    }
    let mut scene = Scene::new();
    let s = shbin("lenny");
    scene.defaults(SIZE, SIZE).vertex_shader(&s, 0);
    scene.vertex_array(VERTICES, &[(AttribType::Float, 3)], 12).primitive(0).draw_arrays(0, 3);
    let missing = write_trace(&dir, "missing", &scene);
    let o = shaderport(&["pica", "render", missing.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = text(&o.stderr);
    assert!(e.contains("missing.citrace") && e.contains("draw 0") && e.contains("0x18000000"), "{e}");
    // A raw command list has no memory: its attribute-buffer draw names the draw and address.
    let mut list = pica::regs::cmdlist::Writer::new();
    let half = pica::state::scene::f24(32.0);
    list.write(0x041, half)
        .write(0x043, half)
        .write(0x102, 3)
        .write(0x205, (1 << 28) | (12 << 16))
        .write(0x200, VERTICES >> 3)
        .write(0x228, 3)
        .write(0x22E, 1);
    let raw = dir.join("list.bin");
    std::fs::write(&raw, list.finish().to_bytes()).unwrap();
    let o = shaderport(&["pica", "render", raw.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = text(&o.stderr);
    assert!(e.contains("list.bin") && e.contains("draw 0") && e.contains("not in memory"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    // A geometry mode other than point mode is refused, naming the register and its value.
    let mut scene = Scene::new();
    let (vs, gs) = (golden("geoshader", "program.v.pica"), golden("geoshader", "program.g.pica"));
    scene.defaults(SIZE, SIZE).vertex_shader(&vs, 0).geometry_shader(&gs, 0, 6).write(0x252, 1);
    scene.load(VERTICES, floats(&[0.0; 21]));
    scene.vertex_array(VERTICES, &[(AttribType::Float, 3), (AttribType::Float, 4)], 28);
    scene.primitive(3).draw_arrays(0, 3).end_frame();
    let variable = write_trace(&dir, "variable", &scene);
    let o = shaderport(&["pica", "render", variable.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = text(&o.stderr);
    assert!(e.contains("draw 0") && e.contains("GPUREG_GSH_MISC0 = 0x00000001"), "{e}");
}

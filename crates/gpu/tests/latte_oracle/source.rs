//! The GLSL side of the Latte oracle: reading a corpus source's interface, the wrapper that
//! feeds its inputs and captures its outputs (docs/latte-oracle.md), glslang and its reflection.

use std::collections::BTreeMap;
use std::path::Path;

/// A scalar or vector GLSL type the wrapper moves as 32-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Float,
    Int,
    Uint,
}

/// A global `in` or `out` of the source.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: String,
    pub scalar: Scalar,
    pub comps: usize,
    pub location: Option<u32>,
}

/// A sampler uniform.
#[derive(Clone, Debug)]
pub struct SamplerDecl {
    pub name: String,
    pub ty: String,
}

/// What the wrapper needs to know of a source.
#[derive(Clone, Debug, Default)]
pub struct Interface {
    pub inputs: Vec<Var>,
    pub outputs: Vec<Var>,
    pub samplers: Vec<SamplerDecl>,
}

pub fn scalar_of(ty: &str) -> Option<(Scalar, usize)> {
    Some(match ty {
        "float" => (Scalar::Float, 1),
        "vec2" => (Scalar::Float, 2),
        "vec3" => (Scalar::Float, 3),
        "vec4" => (Scalar::Float, 4),
        "int" => (Scalar::Int, 1),
        "ivec2" => (Scalar::Int, 2),
        "ivec3" => (Scalar::Int, 3),
        "ivec4" => (Scalar::Int, 4),
        "uint" => (Scalar::Uint, 1),
        "uvec2" => (Scalar::Uint, 2),
        "uvec3" => (Scalar::Uint, 3),
        "uvec4" => (Scalar::Uint, 4),
        _ => return None,
    })
}

/// The global statements (outside any braces) of `src`, each with its text.
fn global_statements(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for line in src.lines() {
        let line = line.split("//").next().unwrap_or("");
        if line.trim_start().starts_with('#') {
            continue;
        }
        for ch in line.chars() {
            match ch {
                '{' => {
                    depth += 1;
                    cur.clear();
                }
                '}' => {
                    depth -= 1;
                    cur.clear();
                }
                ';' if depth == 0 => {
                    out.push(cur.trim().to_string());
                    cur.clear();
                }
                _ if depth == 0 => cur.push(ch),
                _ => {}
            }
        }
        cur.push(' ');
    }
    out
}

/// Reads the `in`, `out` and sampler declarations of a corpus source.
pub fn interface(src: &str) -> Interface {
    let mut i = Interface::default();
    for st in global_statements(src) {
        let mut location = None;
        let mut rest = st.as_str();
        if let Some(r) = rest.strip_prefix("layout") {
            let close = r.find(')').unwrap_or(0);
            let inner = &r[..close];
            if let Some(eq) = inner.find("location") {
                location =
                    inner[eq..].split('=').nth(1).and_then(|v| v.trim().trim_end_matches(')').trim().parse().ok());
            }
            rest = r[close + 1..].trim();
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let Some(pos) = words.iter().position(|w| *w == "in" || *w == "out" || *w == "uniform") else { continue };
        if words.len() != pos + 3 {
            continue;
        }
        let (ty, name) = (words[pos + 1], words[pos + 2]);
        if words[pos] == "uniform" {
            if ty.contains("sampler") {
                i.samplers.push(SamplerDecl { name: name.into(), ty: ty.into() });
            }
            continue;
        }
        let Some((scalar, comps)) = scalar_of(ty) else { continue };
        let v = Var { name: name.into(), ty: ty.into(), scalar, comps, location };
        if words[pos] == "in" {
            i.inputs.push(v);
        } else {
            i.outputs.push(v);
        }
    }
    i
}

/// The texture binding name of a sampler (the sampler's is `NAME_oracle_s`).
pub fn texture_name(sampler: &str) -> String {
    format!("{sampler}_oracle_t")
}

pub fn sampler_name(sampler: &str) -> String {
    format!("{sampler}_oracle_s")
}

/// `sampler2D u` becomes a `texture2D` and a `sampler` combined where it is used (a macro), the
/// form Vulkan descriptors without combined image samplers take. `None` for sampler types the
/// interpreter's texture host does not have.
fn split_sampler(s: &SamplerDecl) -> Option<String> {
    let (tex, comb) = match s.ty.as_str() {
        "sampler2D" => ("texture2D", "sampler2D"),
        _ => return None,
    };
    Some(format!(
        "uniform {tex} {t};\nuniform sampler {sm};\n#define {n} {comb}({t}, {sm})\n",
        t = texture_name(&s.name),
        sm = sampler_name(&s.name),
        n = s.name
    ))
}

fn store(v: &str, scalar: Scalar) -> String {
    match scalar {
        Scalar::Float => format!("floatBitsToUint({v})"),
        Scalar::Int => format!("uint({v})"),
        Scalar::Uint => v.to_string(),
    }
}

fn comp(var: &str, comps: usize, c: usize) -> String {
    if comps == 1 {
        var.to_string()
    } else {
        format!("{var}.{}", ["x", "y", "z", "w"][c])
    }
}

/// One captured output component: the name the reports use (`v_uv.x`, `gl_Position.w`,
/// `gl_ClipDistance[1]`) and its type.
#[derive(Clone, Debug)]
pub struct Slot {
    pub name: String,
    pub scalar: Scalar,
}

/// A wrapped source: the GLSL to compile, the words per vertex / pixel it writes, and what
/// each word is.
pub struct Wrapped {
    pub glsl: String,
    pub out_slots: Vec<Slot>,
    /// Pixel wrappers: the input words per pixel, as (input index, component).
    pub in_slots: Vec<(usize, usize)>,
}

/// Replaces the declarations the wrapper changes and renames `main`; `None` when a sampler
/// type is one the interpreter's host lacks (the stage is blocked).
fn rewrite(src: &str, iface: &Interface, pixel: bool) -> Result<String, String> {
    let mut out = String::new();
    for line in src.lines() {
        let mut l = line.to_string();
        for s in &iface.samplers {
            let decl = format!("uniform {} {};", s.ty, s.name);
            if l.contains(&decl) {
                let Some(rep) = split_sampler(s) else { return Err(format!("unsupported {} texture", s.ty)) };
                l = l.replace(&decl, &rep);
            }
        }
        if pixel {
            // Inputs become plain globals that the wrapper's main fills.
            for q in ["flat ", "noperspective ", "centroid ", "smooth "] {
                if l.contains(" in ") || l.trim_start().starts_with(&format!("{q}in ")) {
                    l = l.replace(&format!("{q}in "), "in ");
                }
            }
            for v in &iface.inputs {
                l = l.replace(&format!("in {} {};", v.ty, v.name), &format!("{} {};", v.ty, v.name));
            }
        }
        l = l.replace("void main()", "void oracle_main()");
        out.push_str(&l);
        out.push('\n');
        if l.starts_with("#version") {
            // The wrapper's storage buffers (core from GLSL 4.30).
            out.push_str("#extension GL_ARB_shader_storage_buffer_object : require\n#extension GL_ARB_shading_language_420pack : require\n");
        }
    }
    Ok(out)
}

/// The vertex wrapper: after the source's main, every output (gl_Position first, then the
/// `out` variables, gl_ClipDistance and gl_PointSize when written) goes to `oracle_out` at the
/// vertex index.
pub fn wrap_vertex(src: &str, iface: &Interface) -> Result<Wrapped, String> {
    let mut g = rewrite(src, iface, false)?;
    let mut slots = Vec::new();
    let mut body = String::new();
    let mut push = |expr: String, name: String, scalar: Scalar, body: &mut String| {
        body.push_str(&format!("    oracle_out[b + {}u] = {};\n", slots.len(), store(&expr, scalar)));
        slots.push(Slot { name, scalar });
    };
    for c in 0..4 {
        push(comp("gl_Position", 4, c), comp("gl_Position", 4, c), Scalar::Float, &mut body);
    }
    for v in &iface.outputs {
        for c in 0..v.comps {
            push(comp(&v.name, v.comps, c), comp(&v.name, v.comps, c), v.scalar, &mut body);
        }
    }
    let clip = (0..8).filter(|k| src.contains(&format!("gl_ClipDistance[{k}]"))).count();
    for k in 0..clip {
        let n = format!("gl_ClipDistance[{k}]");
        push(n.clone(), n, Scalar::Float, &mut body);
    }
    if src.contains("gl_PointSize") {
        push("gl_PointSize".into(), "gl_PointSize".into(), Scalar::Float, &mut body);
    }
    // Last word: 1, the vertex's writes arrived.
    push("1u".into(), "ran".into(), Scalar::Uint, &mut body);
    let stride = slots.len();
    g.push_str(&format!(
        "layout(std430, binding = {}) buffer OracleOut {{ uint oracle_out[]; }};\nvoid main() {{\n    \
         oracle_main();\n    uint b = uint(gl_VertexIndex) * {stride}u;\n{body}    \
         gl_Position = vec4(0.0);\n}}\n",
        gpu::glsl::OUTPUT_BINDING
    ));
    Ok(Wrapped { glsl: g, out_slots: slots, in_slots: Vec::new() })
}

/// The pixel wrapper: the inputs come from `oracle_out` after the `width` x `height` pixels'
/// output words (`gpu::glsl::OUTPUT_BINDING`: one storage binding, see glsl.rs), at the
/// pixel's index; the source's main runs, then word 0 = 1 (the pixel was not discarded) and
/// every output (by location, then gl_FragDepth when written) go to `oracle_out`.
pub fn wrap_pixel(src: &str, iface: &Interface, width: u32, height: u32) -> Result<Wrapped, String> {
    let mut g = rewrite(src, iface, true)?;
    let mut in_slots = Vec::new();
    let mut load = String::new();
    for (k, v) in iface.inputs.iter().enumerate() {
        let (ctor, conv) = match v.scalar {
            Scalar::Float => (v.ty.as_str(), "uintBitsToFloat"),
            Scalar::Int => (v.ty.as_str(), "int"),
            Scalar::Uint => (v.ty.as_str(), ""),
        };
        let parts: Vec<String> = (0..v.comps)
            .map(|c| {
                let at = in_slots.len();
                in_slots.push((k, c));
                format!("{conv}(oracle_out[i + {at}u])")
            })
            .collect();
        load.push_str(&format!("    {} = {ctor}({});\n", v.name, parts.join(", ")));
    }
    let mut slots = vec![Slot { name: "alive".into(), scalar: Scalar::Uint }];
    let mut body = String::new();
    let mut outs: Vec<&Var> = iface.outputs.iter().collect();
    outs.sort_by_key(|v| v.location.unwrap_or(0));
    for v in outs {
        for c in 0..v.comps {
            body.push_str(&format!(
                "    oracle_out[o + {}u] = {};\n",
                slots.len(),
                store(&comp(&v.name, v.comps, c), v.scalar)
            ));
            slots.push(Slot { name: comp(&v.name, v.comps, c), scalar: v.scalar });
        }
    }
    if src.contains("gl_FragDepth") {
        body.push_str(&format!("    oracle_out[o + {}u] = floatBitsToUint(gl_FragDepth);\n", slots.len()));
        slots.push(Slot { name: "gl_FragDepth".into(), scalar: Scalar::Float });
    }
    // Last word, written first: 1, the pixel ran (a discard keeps it, drops `alive`).
    let ran = slots.len();
    slots.push(Slot { name: "ran".into(), scalar: Scalar::Uint });
    let (ins, outs) = (in_slots.len().max(1), slots.len());
    let first_in = outs as u32 * width * height;
    g.push_str(&format!(
        "layout(std430, binding = {}) buffer OracleOut {{ uint oracle_out[]; }};\n\
         void main() {{\n    uint p = uint(gl_FragCoord.y) * {width}u + uint(gl_FragCoord.x);\n    \
         uint o = p * {outs}u;\n    oracle_out[o + {ran}u] = 1u;\n    \
         uint i = {first_in}u + p * {ins}u;\n{load}    oracle_main();\n    oracle_out[o] = 1u;\n{body}}}\n",
        gpu::glsl::OUTPUT_BINDING
    ));
    Ok(Wrapped { glsl: g, out_slots: slots, in_slots })
}

/// A uniform of glslang's reflection (`-q`): byte offset in its block, GL type, array size and
/// stride, block index (or binding for opaque types).
#[derive(Clone, Debug)]
pub struct Reflected {
    pub offset: i64,
    pub gl_type: u32,
    pub size: u32,
    pub index: i64,
    pub binding: i64,
    pub stride: u32,
}

/// A uniform block of the reflection.
#[derive(Clone, Debug)]
pub struct ReflectedBlock {
    pub name: String,
    pub size: u32,
    pub binding: u32,
}

pub struct Compiled {
    pub words: Vec<u32>,
    pub uniforms: BTreeMap<String, Reflected>,
    pub blocks: Vec<ReflectedBlock>,
}

fn field(line: &str, key: &str) -> Option<i64> {
    let at = line.find(&format!("{key} "))?;
    let v = line[at + key.len() + 1..].split(',').next()?.trim();
    if key == "type" {
        i64::from_str_radix(v, 16).ok()
    } else {
        v.parse().ok()
    }
}

/// glslangValidator -V (with -R: loose uniforms in a default block, gl_VertexID) to SPIR-V,
/// with its reflection.
pub fn compile(glsl: &str, stage: &str, dir: &Path, name: &str) -> Result<Compiled, String> {
    let src = dir.join(format!("{name}.{stage}"));
    let spv = dir.join(format!("{name}.{stage}.spv"));
    std::fs::write(&src, glsl).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("glslangValidator")
        .args(["-V", "-R", "--amb", "--aml", "--target-env", "vulkan1.1", "-q", "-o"])
        .arg(&spv)
        .arg(&src)
        .output()
        .map_err(|e| format!("glslangValidator: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!("glslang failed on {}:\n{text}{}", src.display(), String::from_utf8_lossy(&out.stderr)));
    }
    let bytes = std::fs::read(&spv).map_err(|e| e.to_string())?;
    let words = bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut uniforms = BTreeMap::new();
    let mut blocks = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if line.ends_with("reflection:") {
            section = if line.starts_with("Uniform reflection") {
                "u"
            } else if line.starts_with("Uniform block reflection") {
                "b"
            } else {
                ""
            };
            continue;
        }
        let Some((name, rest)) = line.split_once(": ") else { continue };
        match section {
            "u" => {
                uniforms.insert(
                    name.to_string(),
                    Reflected {
                        offset: field(rest, "offset").unwrap_or(-1),
                        gl_type: field(rest, "type").unwrap_or(0) as u32,
                        size: field(rest, "size").unwrap_or(1) as u32,
                        index: field(rest, "index").unwrap_or(-1),
                        binding: field(rest, "binding").unwrap_or(-1),
                        stride: field(rest, "arrayStride").unwrap_or(0) as u32,
                    },
                );
            }
            "b" => blocks.push(ReflectedBlock {
                name: name.to_string(),
                size: field(rest, "size").unwrap_or(0) as u32,
                binding: field(rest, "binding").unwrap_or(0) as u32,
            }),
            _ => {}
        }
    }
    Ok(Compiled { words, uniforms, blocks })
}

/// Words per element and whether they are integers, for the GL types the corpus uses.
pub fn gl_type_words(t: u32) -> Option<(u32, Scalar)> {
    Some(match t {
        0x1406 => (1, Scalar::Float),
        0x8B50 => (2, Scalar::Float),
        0x8B51 => (3, Scalar::Float),
        0x8B52 => (4, Scalar::Float),
        0x1404 => (1, Scalar::Int),
        0x8B53 => (2, Scalar::Int),
        0x8B54 => (3, Scalar::Int),
        0x8B55 => (4, Scalar::Int),
        0x1405 => (1, Scalar::Uint),
        0x8B5C => (16, Scalar::Float),
        0x8B5B => (12, Scalar::Float),
        _ => return None,
    })
}

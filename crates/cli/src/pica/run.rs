//! `shaderport pica run FILE.shbin --input VECTORS.json [--entry N] [--hex] [--semantics]`: the reference
//! interpreter on JSON vectors (docs/pica-interp.md "Command line").
//!
//! Input: `{"uniforms": {"c0": [x,y,z,w], "i0": [x,y,z,w], "b3": true}, "vertices": [{"v0":
//! [x,y,z,w]}]}`; the DVLE's constant table applies first, then these uniforms. Output:
//! `{"vertices": [{"o0": [x,y,z,w], ...}]}`, or for a geometry shader `{"primitives": [[{...},
//! ...]]}`. Components are numbers (the f32 value of the float24), or "inf", "-inf", "nan"; with
//! `--hex`, float24 bit patterns like "0x3f0000". Input components take the same forms.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use pica::float24::F24;
use pica::interp::{f24ops, run_geometry, GeometryMode, Shader, ShaderKind, Uniforms, Vec4, DEFAULT_STEP_LIMIT};
use pica::shbin::Shbin;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

#[derive(Args)]
pub struct RunArgs {
    /// The SHBIN to run.
    file: PathBuf,
    /// JSON file with "uniforms" and "vertices".
    #[arg(long)]
    input: PathBuf,
    /// Which executable (DVLE) of the file to run.
    #[arg(long, default_value_t = 0)]
    entry: usize,
    /// Print float24 bit patterns ("0x3f0000") instead of numbers.
    #[arg(long)]
    hex: bool,
    /// Instructions allowed per invocation before the run stops as runaway.
    #[arg(long, default_value_t = DEFAULT_STEP_LIMIT)]
    max_steps: u64,
    /// Name outputs by the DVLE output map ("position": [...], "color": [...], with the
    /// components its masks select) instead of by o register.
    #[arg(long)]
    semantics: bool,
}

/// Everything the input file says.
struct Input {
    uniforms: Vec<(Uniform, UniformValue)>,
    vertices: Vec<[Vec4; 16]>,
    /// Highest vN given plus one: the attributes per vertex of fixed and variable modes.
    stride: usize,
    counts: Option<Vec<usize>>,
}

#[derive(Clone, Copy)]
enum Uniform {
    Float(usize),
    Int(usize),
    Bool(usize),
}

enum UniformValue {
    Float(Vec4),
    Int([u8; 4]),
    Bool(bool),
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    crate::output::emit(&format!("{}\n", execute(&args)?))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs the command and returns its JSON output.
fn execute(args: &RunArgs) -> anyhow::Result<String> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let file = Shbin::read(&bytes).with_context(|| format!("{}", args.file.display()))?;
    let shader = Shader::from_shbin(&file, args.entry).with_context(|| format!("{}", args.file.display()))?;
    let text = std::fs::read_to_string(&args.input).with_context(|| format!("reading {}", args.input.display()))?;
    let input = parse_input(&text).with_context(|| format!("{}", args.input.display()))?;

    let mut it = shader.interpreter();
    it.step_limit = args.max_steps;
    let mut uniforms: Uniforms = it.uniforms();
    for (u, value) in &input.uniforms {
        match (*u, value) {
            (Uniform::Float(i), UniformValue::Float(v)) => uniforms.float[i] = *v,
            (Uniform::Int(i), UniformValue::Int(v)) => uniforms.int[i] = *v,
            (Uniform::Bool(i), UniformValue::Bool(v)) => uniforms.bools[i] = *v,
            _ => unreachable!("parse_input pairs kinds"),
        }
    }
    it.set_uniforms(&uniforms);
    let regs = shader.output_registers();
    let name = args.file.display();
    let out = match (shader.kind, shader.geometry) {
        (ShaderKind::Geometry, Some(mode)) => {
            if input.counts.is_some() && !matches!(mode, GeometryMode::Variable { .. }) {
                bail!("{}: \"counts\" is for variable-mode geometry shaders only", args.input.display());
            }
            let prims =
                run_geometry(&mut it, shader.entry, mode, &input.vertices, input.stride, input.counts.as_deref())
                    .with_context(|| format!("{name}"))?;
            let prims: Vec<Vec<OutVertex>> = prims
                .iter()
                .map(|p| p.ordered().iter().map(|v| OutVertex::build(&shader, v, &regs, args)).collect())
                .collect();
            serde_json::to_string(&Primitives { primitives: prims })?
        }
        _ => {
            if input.counts.is_some() {
                bail!("{}: \"counts\" is for variable-mode geometry shaders only", args.input.display());
            }
            let mut vertices = Vec::with_capacity(input.vertices.len());
            for (n, v) in input.vertices.iter().enumerate() {
                let o = it.run(shader.entry, v).with_context(|| format!("{name}: vertex {n}"))?;
                vertices.push(OutVertex::build(&shader, &o, &regs, args));
            }
            serde_json::to_string(&Vertices { vertices })?
        }
    };
    Ok(out)
}

// Serialized directly (not through `serde_json::Value`, which would widen the f32 components to
// f64 and print 0.1's float24 as 0.10000038146972656 instead of 0.10000038).
#[derive(serde::Serialize)]
struct Vertices {
    vertices: Vec<OutVertex>,
}

#[derive(serde::Serialize)]
struct Primitives {
    primitives: Vec<Vec<OutVertex>>,
}

/// One output vertex: `oN` keys in register order, or semantic names in output-map order.
struct OutVertex(Vec<(String, Vec<Component>)>);

impl OutVertex {
    fn build(shader: &Shader, o: &[Vec4; 16], regs: &[u8], args: &RunArgs) -> OutVertex {
        let hex = args.hex;
        if args.semantics {
            let named = shader.semantics(o);
            return OutVertex(
                named.into_iter().map(|(n, v)| (n, v.into_iter().map(|x| Component::new(x, hex)).collect())).collect(),
            );
        }
        OutVertex(
            regs.iter()
                .map(|&r| (format!("o{r}"), o[r as usize].iter().map(|&x| Component::new(x, hex)).collect()))
                .collect(),
        )
    }
}

impl Serialize for OutVertex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A printed component: the f32 value (shortest form that reads back as the same f32, hence the
/// same float24), a non-finite name, or a bit pattern.
enum Component {
    Num(f32),
    Text(String),
}

impl Component {
    fn new(x: f32, hex: bool) -> Component {
        if hex {
            Component::Text(format!("{:#08x}", f24ops::to_bits24(x)))
        } else if x.is_nan() {
            Component::Text("nan".into())
        } else if x.is_infinite() {
            Component::Text(if x > 0.0 { "inf" } else { "-inf" }.into())
        } else {
            Component::Num(x)
        }
    }
}

impl Serialize for Component {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Component::Num(x) => s.serialize_f32(*x),
            Component::Text(t) => s.serialize_str(t),
        }
    }
}

fn parse_input(text: &str) -> anyhow::Result<Input> {
    let root: Value = serde_json::from_str(text).context("not valid JSON")?;
    let Value::Object(root) = root else { bail!("the top level must be an object") };
    for key in root.keys() {
        if !matches!(key.as_str(), "uniforms" | "vertices" | "counts") {
            bail!("unknown key {key:?} (expected \"uniforms\", \"vertices\", \"counts\")");
        }
    }
    let mut uniforms = Vec::new();
    if let Some(u) = root.get("uniforms") {
        let Value::Object(u) = u else { bail!("\"uniforms\" must be an object") };
        for (key, value) in u {
            let at = || format!("uniforms.{key}");
            let reg = parse_uniform_name(key).with_context(at)?;
            let value = match reg {
                Uniform::Float(_) => UniformValue::Float(parse_vec4(value).with_context(at)?),
                Uniform::Int(_) => UniformValue::Int(parse_ivec4(value).with_context(at)?),
                Uniform::Bool(_) => match value {
                    Value::Bool(b) => UniformValue::Bool(*b),
                    _ => bail!("{}: expected true or false", at()),
                },
            };
            uniforms.push((reg, value));
        }
    }
    let mut vertices = Vec::new();
    let mut stride = 1;
    match root.get("vertices") {
        None => {}
        Some(Value::Array(list)) => {
            for (n, v) in list.iter().enumerate() {
                let Value::Object(v) = v else { bail!("vertices[{n}] must be an object") };
                let mut regs = [[0.0; 4]; 16];
                for (key, value) in v {
                    let at = || format!("vertices[{n}].{key}");
                    let index = register_index(key, 'v', 16).with_context(at)?;
                    regs[index] = parse_vec4(value).with_context(at)?;
                    stride = stride.max(index + 1);
                }
                vertices.push(regs);
            }
        }
        Some(_) => bail!("\"vertices\" must be an array"),
    }
    let counts = match root.get("counts") {
        None => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .enumerate()
                .map(|(n, c)| {
                    c.as_u64()
                        .filter(|&c| c <= 96)
                        .map(|c| c as usize)
                        .with_context(|| format!("counts[{n}]: expected a vertex count 0-96"))
                })
                .collect::<anyhow::Result<Vec<_>>>()?,
        ),
        Some(_) => bail!("\"counts\" must be an array of vertex counts"),
    };
    Ok(Input { uniforms, vertices, stride, counts })
}

fn register_index(key: &str, prefix: char, count: usize) -> anyhow::Result<usize> {
    key.strip_prefix(prefix)
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && (n.len() == 1 || !n.starts_with('0')))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&i| i < count)
        .with_context(|| format!("expected a register {prefix}0-{prefix}{}", count - 1))
}

fn parse_uniform_name(key: &str) -> anyhow::Result<Uniform> {
    match key.chars().next() {
        Some('c') => Ok(Uniform::Float(register_index(key, 'c', 96)?)),
        Some('i') => Ok(Uniform::Int(register_index(key, 'i', 4)?)),
        Some('b') => Ok(Uniform::Bool(register_index(key, 'b', 16)?)),
        _ => bail!("expected a uniform register c0-c95, i0-i3 or b0-b15"),
    }
}

fn parse_vec4(v: &Value) -> anyhow::Result<Vec4> {
    let Value::Array(items) = v else { bail!("expected [x, y, z, w]") };
    if items.len() != 4 {
        bail!("expected 4 components, found {}", items.len());
    }
    let mut out = [0.0; 4];
    for (i, item) in items.iter().enumerate() {
        out[i] = parse_component(item).with_context(|| format!("component {}", ["x", "y", "z", "w"][i]))?;
    }
    Ok(out)
}

/// A number (rounded to the nearest float24), "inf", "-inf", "nan", or a "0x..." bit pattern.
fn parse_component(v: &Value) -> anyhow::Result<f32> {
    let bits = match v {
        Value::Number(n) => f24ops::from_f64_nearest(n.as_f64().context("not a number")?),
        Value::String(s) => match s.as_str() {
            "inf" => 0x7F_0000,
            "-inf" => 0xFF_0000,
            "nan" => 0x7F_8000,
            _ => {
                let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"));
                match hex.and_then(|h| u32::from_str_radix(h, 16).ok()) {
                    Some(b) if b <= 0xFF_FFFF => b,
                    _ => bail!("expected a number, \"inf\", \"-inf\", \"nan\" or a float24 pattern like \"0x3f0000\", found {s:?}"),
                }
            }
        },
        _ => bail!("expected a number or a string"),
    };
    Ok(F24::from_bits(bits).to_f32())
}

fn parse_ivec4(v: &Value) -> anyhow::Result<[u8; 4]> {
    let Value::Array(items) = v else { bail!("expected [x, y, z, w]") };
    if items.len() != 4 {
        bail!("expected 4 components, found {}", items.len());
    }
    let mut out = [0u8; 4];
    for (i, item) in items.iter().enumerate() {
        out[i] = item
            .as_u64()
            .filter(|&x| x <= 255)
            .with_context(|| format!("component {}: expected an integer 0-255", ["x", "y", "z", "w"][i]))?
            as u8;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn golden(name: &str) -> PathBuf {
        testkit::corpus("pica/golden").join(name)
    }

    fn run_json(shbin: &str, input: &str, hex: bool) -> anyhow::Result<String> {
        let dir = std::env::temp_dir().join(format!("shaderport-run-{}-{}", std::process::id(), input.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.json");
        std::fs::write(&path, input).unwrap();
        let args = RunArgs {
            file: golden(shbin),
            input: path,
            entry: 0,
            hex,
            max_steps: DEFAULT_STEP_LIMIT,
            semantics: false,
        };
        execute(&args)
    }

    const SIMPLE: &str = "3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin";

    #[test]
    fn vertex_shader_prints_its_outputs() {
        let input = r#"{"uniforms": {"c0": [1,0,0,0], "c1": [0,1,0,0], "c2": [0,0,1,0], "c3": [0,0,0,1]},
            "vertices": [{"v0": [0.5, 0.25, 0.1, 7], "v1": [1, 2, 3, 4]}, {"v0": ["inf", 0, 0, 0]}]}"#;
        let out = run_json(SIMPLE, input, false).unwrap();
        // w is forced to 1; 0.1 becomes the nearest float24 (0.10000038); inf * 0 = 0 in dp4.
        assert_eq!(
            out,
            r#"{"vertices":[{"o0":[0.5,0.25,0.10000038,1.0],"o1":[1.0,2.0,3.0,4.0]},{"o0":["inf",0.0,0.0,1.0],"o1":[0.0,0.0,0.0,0.0]}]}"#
        );
        let out = run_json(SIMPLE, input, true).unwrap();
        assert!(out.starts_with(r#"{"vertices":[{"o0":["0x3e0000","0x3d0000","0x3b999a","0x3f0000"]"#), "{out}");
    }

    #[test]
    fn constants_from_the_dvle_apply_first_and_user_uniforms_override() {
        // myconst (0, 1, -1, 0.1) is a DVLE constant: overriding it changes `ones`, so w = 2.
        let dvle_const = {
            let bytes = std::fs::read(golden(SIMPLE)).unwrap();
            let file = Shbin::read(&bytes).unwrap();
            match file.executables[0].constants[0] {
                pica::shbin::Constant::Float { reg, .. } => reg,
                _ => panic!("first constant is a float"),
            }
        };
        let input = format!(
            r#"{{"uniforms": {{"c3": [0,0,0,1], "c{dvle_const}": [0,2,0,0]}}, "vertices": [{{"v0": [1,1,1,1]}}]}}"#
        );
        let out = run_json(SIMPLE, &input, false).unwrap();
        assert!(out.contains(r#""o0":[0.0,0.0,0.0,2.0]"#), "{out}");
        let out =
            run_json(SIMPLE, r#"{"uniforms": {"c3": [0,0,0,1]}, "vertices": [{"v0": [1,1,1,1]}]}"#, false).unwrap();
        assert!(out.contains(r#""o0":[0.0,0.0,0.0,1.0]"#), "{out}");
    }

    #[test]
    fn geometry_shader_prints_primitives() {
        let input = r#"{"uniforms": {"c0": [1,0,0,0], "c1": [0,1,0,0], "c2": [0,0,1,0], "c3": [0,0,0,1]},
            "vertices": [{"v0": [0,0,0,1], "v1": [1,0,0,1], "v2": [2,0,0,1], "v3": [0,1,0,1], "v4": [0,2,0,1], "v5": [0,0,1,1]}]}"#;
        let out =
            run_json("3ds-examples__graphics__gpu__geoshader__source__program.g.pica.shbin", input, false).unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        let prims = v["primitives"].as_array().unwrap();
        assert_eq!(prims.len(), 3);
        assert_eq!(prims[0][1]["o0"], serde_json::json!([1.0, 0.0, 0.0, 1.0]), "midpoint of v0 and v2");
    }

    #[test]
    fn bad_inputs_are_named() {
        let cases = [
            (r#"{"vertices": [{"v0": [1, 2]}]}"#, "vertices[0].v0: expected 4 components, found 2"),
            (r#"{"vertices": [{"v16": [1, 2, 3, 4]}]}"#, "vertices[0].v16: expected a register v0-v15"),
            (r#"{"uniforms": {"c96": [1, 2, 3, 4]}}"#, "uniforms.c96: expected a register c0-c95"),
            (r#"{"uniforms": {"i0": [1, 2, 3, 256]}}"#, "uniforms.i0: component w: expected an integer 0-255"),
            (r#"{"uniforms": {"b0": 1}}"#, "uniforms.b0: expected true or false"),
            (r#"{"vertices": [{"v0": [1, 2, 3, "1e"]}]}"#, "component w: expected a number"),
            (r#"{"vertices": [{"v0": [1, 2, 3, "0x1000000"]}]}"#, "component w"),
            (r#"{"vertex": []}"#, "unknown key \"vertex\""),
            ("[1", "not valid JSON"),
        ];
        for (input, want) in cases {
            let err = format!("{:#}", run_json(SIMPLE, input, false).unwrap_err());
            assert!(err.contains(want), "{input}: {err}");
            assert!(err.contains("in.json"), "names the file: {err}");
        }
    }

    /// Every truncation and single-byte mutation of a valid input file parses or fails with an
    /// error; none panics.
    #[test]
    fn mutated_inputs_never_panic() {
        let valid = r#"{"uniforms": {"c0": [1, -2.5, "inf", "0x3f0000"], "i1": [3, 0, 1, 0], "b2": true},
            "vertices": [{"v0": [0.5, 0.25, "nan", 1], "v3": [1, 2, 3, 4]}], "counts": [1]}"#;
        assert!(parse_input(valid).is_ok());
        let bytes = valid.as_bytes();
        for cut in 0..bytes.len() {
            if let Ok(text) = std::str::from_utf8(&bytes[..cut]) {
                let _ = parse_input(text);
            }
        }
        for at in 0..bytes.len() {
            for with in [b'0', b'9', b'-', b'"', b'[', b']', b'{', b'}', b',', b'x', b'e', b'.'] {
                let mut m = bytes.to_vec();
                m[at] = with;
                if let Ok(text) = std::str::from_utf8(&m) {
                    let _ = parse_input(text);
                }
            }
        }
    }

    #[test]
    fn semantics_name_the_outputs() {
        let dir = std::env::temp_dir().join(format!("shaderport-run-sem-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.json");
        std::fs::write(
            &path,
            r#"{"uniforms": {"c3": [0,0,0,1]}, "vertices": [{"v0": [1,2,3,4], "v1": [0.5,0.5,0.5,1]}]}"#,
        )
        .unwrap();
        let args = RunArgs { file: golden(SIMPLE), input: path, entry: 0, hex: false, max_steps: 100, semantics: true };
        let out = execute(&args).unwrap();
        assert_eq!(out, r#"{"vertices":[{"position":[0.0,0.0,0.0,1.0],"color":[0.5,0.5,0.5,1.0]}]}"#);
    }

    #[test]
    fn missing_executable_is_an_error() {
        let dir = std::env::temp_dir().join(format!("shaderport-run-entry-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.json");
        std::fs::write(&path, "{}").unwrap();
        let args = RunArgs { file: golden(SIMPLE), input: path, entry: 5, hex: false, max_steps: 10, semantics: false };
        let err = format!("{:#}", execute(&args).unwrap_err());
        assert!(err.contains("executable 5 does not exist"), "{err}");
    }
}

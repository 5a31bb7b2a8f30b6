//! `shaderport pica run FILE.shbin --input VECTORS.json [--entry N] [--hex] [--semantics]`: the reference
//! interpreter on JSON vectors (docs/pica-interp.md "Command line", which describes the input).
//!
//! Input: `{"uniforms": {"c0": [x,y,z,w], "projection": [[x,y,z,w], ...], "i0": [x,y,z,w], "b3":
//! true}, "vertices": [{"v0": [x,y,z,w], "inclr": [r,g,b]}]}`: registers, or the names of the
//! DVLE's uniform table (picasso's `.fvec`/`.ivec`/`.bool` and `.in` names; a name spanning
//! several registers takes one value per register, `name[k]` one of them). The DVLE's constant
//! table applies first, then these uniforms. Attributes may have 1 to 4 components: the missing
//! ones are (0, 0, 0, 1) as the hardware fills them. Output: `{"vertices": [{"o0": [x,y,z,w],
//! ...}]}`, or for a geometry shader `{"primitives": [[{...}, ...]]}`. Components are numbers
//! (the f32 value of the float24), or "inf", "-inf", "nan"; with `--hex`, float24 bit patterns
//! like "0x3f0000". Input components take the same forms.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use pica::float24::F24;
use pica::interp::{f24ops, run_geometry, GeometryMode, Shader, ShaderKind, Uniforms, Vec4, DEFAULT_STEP_LIMIT};
use pica::shbin::{Dvle, Shbin, UniformReg};
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

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Uniform {
    Float(usize),
    Int(usize),
    Bool(usize),
}

impl std::fmt::Display for Uniform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Uniform::Float(i) => write!(f, "c{i}"),
            Uniform::Int(i) => write!(f, "i{i}"),
            Uniform::Bool(i) => write!(f, "b{i}"),
        }
    }
}

/// The register kinds a DVLE name can cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Input,
    Float,
    Int,
    Bool,
}

impl Kind {
    fn prefix(self) -> char {
        match self {
            Kind::Input => 'v',
            Kind::Float => 'c',
            Kind::Int => 'i',
            Kind::Bool => 'b',
        }
    }
}

/// A name of the DVLE's uniform table: registers `first..first + count` of one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Named {
    name: String,
    kind: Kind,
    first: usize,
    count: usize,
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.kind.prefix();
        if self.count == 1 {
            write!(f, "{} ({p}{})", self.name, self.first)
        } else {
            write!(f, "{} ({p}{}-{p}{})", self.name, self.first, self.first + self.count - 1)
        }
    }
}

/// The names of the DVLE's uniform table (entries whose range stays within one register kind).
fn dvle_names(dvle: &Dvle) -> Vec<Named> {
    let mut out = Vec::new();
    for u in &dvle.uniforms {
        let Some(name) = dvle.symbol(u.symbol).filter(|n| !n.is_empty()) else { continue };
        let (kind, first, last) = match (UniformReg::from_raw(u.start), UniformReg::from_raw(u.end)) {
            (UniformReg::Input(a), UniformReg::Input(b)) => (Kind::Input, a, b),
            (UniformReg::Float(a), UniformReg::Float(b)) => (Kind::Float, a, b),
            (UniformReg::Int(a), UniformReg::Int(b)) => (Kind::Int, a, b),
            (UniformReg::Bool(a), UniformReg::Bool(b)) => (Kind::Bool, a, b),
            _ => continue,
        };
        if last < first {
            continue;
        }
        out.push(Named { name: name.to_string(), kind, first: first as usize, count: (last - first) as usize + 1 });
    }
    out
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
    let names = dvle_names(&file.executables[args.entry]);
    let input = parse_input_named(&text, &names).with_context(|| format!("{}", args.input.display()))?;

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
            let mut outputs = vec![[[0.0; 4]; 16]; input.vertices.len()];
            if let Some((n, e)) = it.run_batch(shader.entry, &input.vertices, &mut outputs).into_iter().next() {
                return Err(anyhow::Error::new(e).context(format!("{name}: vertex {n}")));
            }
            let vertices: Vec<OutVertex> = outputs.iter().map(|o| OutVertex::build(&shader, o, &regs, args)).collect();
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

/// [`parse_input_named`] for an executable that names nothing.
#[cfg(test)]
fn parse_input(text: &str) -> anyhow::Result<Input> {
    parse_input_named(text, &[])
}

/// Reads the input file's JSON; `names` are the executable's uniform-table names.
fn parse_input_named(text: &str, names: &[Named]) -> anyhow::Result<Input> {
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
        // Which key set each register, to refuse a register given twice.
        let mut set_by: HashMap<Uniform, String> = HashMap::new();
        for (key, value) in u {
            let at = format!("uniforms.{key}");
            for (path, reg, value) in uniform_values(&at, key, value, names).with_context(|| at.clone())? {
                if let Some(first) = set_by.insert(reg, path.clone()) {
                    bail!("{path}: sets {reg}, which {first} sets too");
                }
                let value = match reg {
                    Uniform::Float(_) => UniformValue::Float(parse_vec4(value).with_context(|| path.clone())?),
                    Uniform::Int(_) => UniformValue::Int(parse_ivec4(value).with_context(|| path.clone())?),
                    Uniform::Bool(_) => match value {
                        Value::Bool(b) => UniformValue::Bool(*b),
                        _ => bail!("{path}: expected true or false"),
                    },
                };
                uniforms.push((reg, value));
            }
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
                let mut set_by: HashMap<usize, String> = HashMap::new();
                for (key, value) in v {
                    let at = format!("vertices[{n}].{key}");
                    for (path, index, value) in attribute_values(&at, key, value, names).with_context(|| at.clone())? {
                        if let Some(first) = set_by.insert(index, path.clone()) {
                            bail!("{path}: sets v{index}, which {first} sets too");
                        }
                        regs[index] = parse_attribute(value).with_context(|| path.clone())?;
                        stride = stride.max(index + 1);
                    }
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

/// A key as a register name: a prefix letter and digits only ("c12"), whatever their value.
fn looks_like_register(key: &str, prefixes: &[char]) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| prefixes.contains(&c)) && {
        let rest = chars.as_str();
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
    }
}

/// `name` or `name[k]`: the name and the index.
fn split_index(key: &str) -> anyhow::Result<(&str, Option<usize>)> {
    let Some(open) = key.find('[') else { return Ok((key, None)) };
    let index = key[open + 1..]
        .strip_suffix(']')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<usize>().ok())
        .with_context(|| format!("expected NAME or NAME[INDEX], found {key:?}"))?;
    Ok((&key[..open], Some(index)))
}

/// The name among `names` of `kinds` that `key` (`name` or `name[k]`) gives, and the index.
/// `None`: no such name and no index (the key may be a register).
fn lookup<'a>(key: &str, names: &'a [Named], kinds: &[Kind]) -> anyhow::Result<Option<(&'a Named, Option<usize>)>> {
    let (base, index) = split_index(key)?;
    let Some(named) = names.iter().find(|n| n.name == base && kinds.contains(&n.kind)) else {
        if index.is_some() {
            bail!("{}", unknown_name(base, names, kinds));
        }
        return Ok(None);
    };
    if let Some(k) = index {
        if k >= named.count {
            bail!("index {k} is past the end of {named}");
        }
    }
    Ok(Some((named, index)))
}

/// The message for a name the executable does not have, listing those it has.
fn unknown_name(key: &str, names: &[Named], kinds: &[Kind]) -> String {
    let (what, registers) = if kinds.contains(&Kind::Input) {
        ("input", "registers v0-v15")
    } else {
        ("uniform", "registers c0-c95, i0-i3 or b0-b15")
    };
    let known: Vec<String> = names.iter().filter(|n| kinds.contains(&n.kind)).map(|n| n.to_string()).collect();
    if known.is_empty() {
        format!("no {what} named {key:?}: the executable names no {what}s; expected {registers}")
    } else {
        format!("no {what} named {key:?}; the executable's {what}s are {}; or {registers}", known.join(", "))
    }
}

/// The (path, register, value) triples a `uniforms` entry sets.
fn uniform_values<'v>(
    at: &str,
    key: &str,
    value: &'v Value,
    names: &[Named],
) -> anyhow::Result<Vec<(String, Uniform, &'v Value)>> {
    let kinds = [Kind::Float, Kind::Int, Kind::Bool];
    let Some((named, index)) = lookup(key, names, &kinds)? else {
        if looks_like_register(key, &['c', 'i', 'b']) {
            return Ok(vec![(at.to_string(), parse_uniform_name(key)?, value)]);
        }
        bail!("{}", unknown_name(key, names, &kinds));
    };
    let reg = |i: usize| match named.kind {
        Kind::Float => Uniform::Float(i),
        Kind::Int => Uniform::Int(i),
        _ => Uniform::Bool(i),
    };
    let out = spread(at, named, index, value)?;
    Ok(out.into_iter().map(|(path, i, v)| (path, reg(i), v)).collect())
}

/// The (path, v register, value) triples a vertex entry sets.
fn attribute_values<'v>(
    at: &str,
    key: &str,
    value: &'v Value,
    names: &[Named],
) -> anyhow::Result<Vec<(String, usize, &'v Value)>> {
    let Some((named, index)) = lookup(key, names, &[Kind::Input])? else {
        if looks_like_register(key, &['v']) {
            return Ok(vec![(at.to_string(), register_index(key, 'v', 16)?, value)]);
        }
        bail!("{}", unknown_name(key, names, &[Kind::Input]));
    };
    spread(at, named, index, value)
}

/// The registers of `named` (or its element `index`) with their values: an element or a name
/// of one register takes one value, a whole name of several registers a list of one value per
/// register.
fn spread<'v>(
    at: &str,
    named: &Named,
    index: Option<usize>,
    value: &'v Value,
) -> anyhow::Result<Vec<(String, usize, &'v Value)>> {
    if let Some(k) = index {
        return Ok(vec![(at.to_string(), named.first + k, value)]);
    }
    if named.count == 1 {
        return Ok(vec![(at.to_string(), named.first, value)]);
    }
    let one = match named.kind {
        Kind::Bool => "true or false",
        _ => "[x, y, z, w]",
    };
    let n = named.count;
    let items = match value {
        Value::Array(items) if named.kind != Kind::Bool && !items.is_empty() && !items.iter().any(Value::is_array) => {
            bail!(
                "{named} spans {n} registers: expected a list of {n} values ([x, y, z, w] each), found one vector; \
                 \"{}[k]\" sets register k alone",
                named.name
            )
        }
        Value::Array(items) if items.len() == n => items,
        Value::Array(items) => {
            bail!("{named} spans {n} registers: expected a list of {n} values ({one} each), found {}", items.len())
        }
        _ => bail!("{named} spans {n} registers: expected a list of {n} values ({one} each)"),
    };
    Ok(items.iter().enumerate().map(|(k, v)| (format!("{at}[{k}]"), named.first + k, v)).collect())
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

/// An input attribute: 1 to 4 components, the missing ones filled with (0, 0, 0, 1) as the
/// hardware's attribute loader does.
fn parse_attribute(v: &Value) -> anyhow::Result<Vec4> {
    let Value::Array(items) = v else { bail!("expected [x, y, z, w] (1 to 4 components)") };
    if items.is_empty() || items.len() > 4 {
        bail!("expected 1 to 4 components, found {}", items.len());
    }
    let mut out = [0.0, 0.0, 0.0, 1.0];
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
            (r#"{"vertices": [{"v0": [1, 2, 3, 4, 5]}]}"#, "vertices[0].v0: expected 1 to 4 components, found 5"),
            (r#"{"uniforms": {"c0": [1, 2]}}"#, "uniforms.c0: expected 4 components, found 2"),
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

    /// The same over names of the uniform table: arrays, elements, inputs; none panics.
    #[test]
    fn mutated_named_inputs_never_panic() {
        let names = [
            Named { name: "m".into(), kind: Kind::Float, first: 92, count: 4 },
            Named { name: "n".into(), kind: Kind::Int, first: 2, count: 2 },
            Named { name: "f".into(), kind: Kind::Bool, first: 14, count: 2 },
            Named { name: "p".into(), kind: Kind::Input, first: 15, count: 1 },
        ];
        let valid = r#"{"uniforms": {"m": [[1,2,3,4],[5,6,7,8],[0,0,0,1],[1,1,1,1]], "n[1]": [1,2,3,0],
            "f": [true, false]}, "vertices": [{"p": [0.5, 2], "v3": [1]}]}"#;
        let input = parse_input_named(valid, &names).unwrap();
        assert_eq!(input.uniforms.len(), 4 + 1 + 2);
        assert_eq!(input.vertices[0][15], [0.5, 2.0, 0.0, 1.0]);
        assert_eq!(input.stride, 16);
        let bytes = valid.as_bytes();
        for at in 0..bytes.len() {
            for with in [b'0', b'9', b'-', b'"', b'[', b']', b'{', b'}', b',', b'x', b'm', b'p'] {
                let mut m = bytes.to_vec();
                m[at] = with;
                if let Ok(text) = std::str::from_utf8(&m) {
                    let _ = parse_input_named(text, &names);
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

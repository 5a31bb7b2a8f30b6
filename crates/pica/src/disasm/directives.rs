//! The directives that rebuild a DVLE's tables: `.gsh`, `.entry`, uniforms (`.fvec`, `.ivec`,
//! `.bool`, `.in`), constants (`.constf`, `.consti`, `.setf`, `.seti`, `.setb`) and outputs
//! (`.out`), in the order that makes picasso's allocators give the same registers and tables.
//!
//! picasso's allocation (source/picasso_assembler.cpp, `UniformAlloc`; docs/pica-disasm.md):
//! uniforms take registers upward from the first free one of their kind, in declaration order,
//! and land in the uniform table in that order unless their name starts with `_`; vertex
//! shaders share one uniform space across the files of one invocation, geometry shaders with a
//! `.gsh` mode have their own that starts at the `.gsh` register. Constants take registers
//! downward from the top (c95, i3) and are never shared; `.setX` places one at a given
//! register without allocating.

use std::collections::{HashMap, HashSet};

use super::float::f24_text;
use super::instr::RegNames;
use crate::shbin::{Constant, Dvle, GeometryMode, OutputKind, ShaderType, UniformReg};

/// The DVLE header version picasso 2.7.1 writes.
pub(crate) const PICASSO_DVLE_VERSION: u16 = 0x1002;

/// Uniform kinds, as picasso's allocator numbers its registers (c0 = 0x20, i0 = 0x80, b0 = 0x88).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Kind {
    Float,
    Int,
    Bool,
}

impl Kind {
    fn directive(self) -> &'static str {
        match self {
            Kind::Float => ".fvec",
            Kind::Int => ".ivec",
            Kind::Bool => ".bool",
        }
    }
}

/// One allocation space (picasso's `UniformAllocBundle`): the next free register of each kind
/// and the limit it may not pass.
#[derive(Clone, Debug)]
struct Space {
    next: HashMap<Kind, u32>,
    limit: HashMap<Kind, u32>,
}

impl Space {
    fn vertex() -> Space {
        Space {
            next: HashMap::from([(Kind::Float, 0x20), (Kind::Int, 0x80), (Kind::Bool, 0x88)]),
            limit: HashMap::from([(Kind::Float, 0x80), (Kind::Int, 0x84), (Kind::Bool, 0x98)]),
        }
    }

    /// `.gsh MODE cN`: float uniforms from cN, and b15 kept back.
    fn geometry(first_free: u32) -> Space {
        Space {
            next: HashMap::from([(Kind::Float, first_free), (Kind::Int, 0x80), (Kind::Bool, 0x88)]),
            limit: HashMap::from([(Kind::Float, 0x80), (Kind::Int, 0x84), (Kind::Bool, 0x97)]),
        }
    }
}

/// What outlives one DVLE: the vertex uniform space and its names (shared by every file of one
/// picasso run), and the counter that keeps padding names unique.
pub(crate) struct Shared {
    vertex: Space,
    vertex_names: HashMap<String, (Kind, u32, u32)>,
    pads: u32,
}

impl Default for Shared {
    fn default() -> Self {
        Shared { vertex: Space::vertex(), vertex_names: HashMap::new(), pads: 0 }
    }
}

/// Output semantics as `.out` names them (`dummy` is type 9).
fn output_name(kind: OutputKind) -> Option<&'static str> {
    match kind {
        OutputKind::Other(9) => Some("dummy"),
        k => k.name(),
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Names in a symbol table, looked up in logarithmic time (a hostile table with millions of
/// uniforms and no NUL would otherwise cost a scan per uniform).
pub(crate) struct Symbols<'a> {
    bytes: &'a [u8],
    nuls: Vec<usize>,
}

impl<'a> Symbols<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Symbols { bytes, nuls: bytes.iter().enumerate().filter(|(_, &b)| b == 0).map(|(i, _)| i).collect() }
    }

    /// The NUL-terminated (or table-terminated) UTF-8 name at `offset`.
    pub fn name(&self, offset: u32) -> Option<&'a str> {
        let start = offset as usize;
        if start > self.bytes.len() {
            return None;
        }
        let end = match self.nuls.binary_search(&start) {
            Ok(i) => self.nuls[i],
            Err(i) => self.nuls.get(i).copied().unwrap_or(self.bytes.len()),
        };
        std::str::from_utf8(&self.bytes[start..end]).ok()
    }
}

/// A name that reads as a register (`c5`, `i1`, `b0`, ...), which the code printed with raw
/// registers would then mean instead.
fn register_like(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('o' | 'v' | 'r' | 'c' | 'i' | 'b'))
        && name.len() > 1
        && chars.all(|c| c.is_ascii_digit())
}

/// Component list of an output mask (bit 0 = x), nothing for all four.
fn output_mask_suffix(mask: u16) -> String {
    if mask & 0xF == 0xF {
        return String::new();
    }
    let comps: String = (0..4).filter(|i| mask & (1 << i) != 0).map(|i| ['x', 'y', 'z', 'w'][i]).collect();
    format!(".{comps}")
}

/// Prints the directives of one DVLE into `out`; every table detail picasso could not reproduce
/// is reported through `warn`. Returns the names it declared for registers.
///
/// `holds_code` says whether the program's code follows in this file: a file without code
/// always gets `.entry`, because picasso makes a DVLE only for a file with some statement.
pub(crate) fn print_dvle(
    dvle: &Dvle,
    entry: &str,
    holds_code: bool,
    shared: &mut Shared,
    out: &mut String,
    warn: &mut dyn FnMut(String),
) -> RegNames {
    let mut reg_names = RegNames::default();
    use std::fmt::Write;
    if dvle.version != PICASSO_DVLE_VERSION {
        warn(format!("DVLE version {:#06x} (picasso 2.7.1 writes {PICASSO_DVLE_VERSION:#06x})", dvle.version));
    }
    if !dvle.labels.is_empty() {
        warn(format!("{} label table entries (picasso writes none)", dvle.labels.len()));
    }
    let has_dummy = dvle.outputs.iter().any(|o| o.kind == OutputKind::Other(9));
    // Geometry shader mode, and the uniform space it implies.
    let mut own_space = None;
    match dvle.shader_type {
        ShaderType::Vertex => {
            if dvle.geometry_mode != GeometryMode::Point
                || dvle.gs_fixed_start != 0
                || dvle.gs_variable_num != 0
                || dvle.gs_fixed_num != 0
            {
                warn("vertex shader with geometry shader parameters set".into());
            }
            if dvle.merge_outmaps != 0 {
                warn("vertex shader with the merge-outmaps flag set".into());
            }
        }
        ShaderType::Geometry => {
            let compat = dvle.merge_outmaps == 0 && has_dummy;
            if compat {
                // The argument-less form keeps the vertex uniform space and never sets merge.
                if dvle.geometry_mode != GeometryMode::Point || dvle.gs_fixed_num != 0 || dvle.gs_variable_num != 0 {
                    warn("geometry shader with dummy outputs but no merge flag in a non-point mode".into());
                }
                let _ = writeln!(out, ".gsh");
            } else {
                if dvle.merge_outmaps != has_dummy as u8 {
                    warn(format!("merge flag {} without dummy outputs", dvle.merge_outmaps));
                }
                let lowest_float = dvle
                    .uniforms
                    .iter()
                    .filter_map(|u| match UniformReg::from_raw(u.start) {
                        UniformReg::Float(n) => Some(0x20 + n as u32),
                        _ => None,
                    })
                    .min();
                let array_start = 0x20 + dvle.gs_fixed_start as u32;
                let first_free = match (dvle.geometry_mode, lowest_float) {
                    (_, Some(r)) => r,
                    (GeometryMode::Fixed, None) => (array_start + 1).min(0x7F),
                    _ => 0x20,
                };
                let reg = |r: u32| format!("c{}", r - 0x20);
                match dvle.geometry_mode {
                    GeometryMode::Point => {
                        let _ = writeln!(out, ".gsh point {}", reg(first_free));
                    }
                    GeometryMode::Variable => {
                        let _ = writeln!(out, ".gsh variable {} {}", reg(first_free), dvle.gs_variable_num);
                    }
                    GeometryMode::Fixed => {
                        if array_start >= first_free || array_start >= 0x80 {
                            warn(format!("fixed vertex array at c{} overlaps the uniforms", dvle.gs_fixed_start));
                        }
                        let _ =
                            writeln!(out, ".gsh fixed {} {} {}", reg(first_free), reg(array_start), dvle.gs_fixed_num);
                    }
                    GeometryMode::Other(m) => warn(format!("geometry shader mode {m}")),
                }
                if dvle.geometry_mode != GeometryMode::Fixed && (dvle.gs_fixed_start != 0 || dvle.gs_fixed_num != 0) {
                    warn("fixed-mode parameters set outside fixed mode".into());
                }
                if dvle.geometry_mode != GeometryMode::Variable && dvle.gs_variable_num != 0 {
                    warn("variable-mode vertex count set outside variable mode".into());
                }
                own_space = Some(Space::geometry(first_free));
            }
        }
        ShaderType::Other(t) => warn(format!("shader type {t} (picasso writes 0 or 1)")),
    }
    if entry != "main" || !holds_code {
        let _ = writeln!(out, ".entry {entry}");
    }

    // Uniforms, in table order; gaps become private `_padN` uniforms.
    let mut names = HashSet::new();
    let mut symbols = Vec::new();
    let symbols_at = Symbols::new(&dvle.symbols);
    let mut input_mask = 0u16;
    for u in &dvle.uniforms {
        let Some(stored) = symbols_at.name(u.symbol) else {
            warn(format!("uniform symbol offset {} is not a name in the symbol table", u.symbol));
            continue;
        };
        if u.symbol as usize != symbols.len() {
            // Out-of-order offsets may name the same bytes again and again; printing them
            // could multiply the table's size, so such entries are only reported.
            warn(format!("uniform at {:#x}: symbol offset {} (picasso packs names in order)", u.start, u.symbol));
            let _ =
                writeln!(out, "; uniform {:#x}-{:#x}: name at symbol offset {} out of order", u.start, u.end, u.symbol);
            continue;
        }
        symbols.extend_from_slice(stored.as_bytes());
        symbols.push(0);
        // picasso writes `$` as `.` in the table.
        let name = stored.replace('.', "$");
        if stored.contains('$') {
            warn(format!("uniform name {stored:?} holds `$`, which picasso always writes as `.`"));
        }
        if !is_identifier(&name) || name.starts_with('_') {
            warn(format!("uniform name {stored:?} cannot be declared (picasso hides `_` names and needs identifiers)"));
            continue;
        }
        if !names.insert(name.clone()) {
            warn(format!("uniform name {stored:?} declared twice"));
        }
        if register_like(&name) {
            // picasso looks names up before registers, so this name would hide the register
            // the printed code means.
            warn(format!("uniform name {stored:?} hides the register of that name"));
        }
        let (kind, first) = match UniformReg::from_raw(u.start) {
            UniformReg::Input(i) => {
                if u.end != u.start {
                    warn(format!("input {stored:?} spans registers {:#x}-{:#x}", u.start, u.end));
                }
                input_mask |= 1 << i;
                let _ = writeln!(out, ".in {name} v{i}");
                if !register_like(&name) {
                    reg_names.declare('v', i, 1, &name);
                }
                continue;
            }
            UniformReg::Float(n) => (Kind::Float, 0x20 + n as u32),
            UniformReg::Int(n) => (Kind::Int, 0x80 + n as u32),
            UniformReg::Bool(n) => (Kind::Bool, 0x88 + n as u32),
            UniformReg::Other(r) => {
                warn(format!("uniform {stored:?} at register {r:#x}, outside every register file"));
                continue;
            }
        };
        let size = (u.end as u32 + 1).saturating_sub(u.start as u32);
        let same_kind_end = UniformReg::from_raw(u.end);
        if size == 0 || std::mem::discriminant(&same_kind_end) != std::mem::discriminant(&UniformReg::from_raw(u.start))
        {
            warn(format!("uniform {stored:?} has range {:#x}-{:#x}", u.start, u.end));
            continue;
        }
        let decl = if size == 1 { name.clone() } else { format!("{name}[{size}]") };
        let (file, base) = match kind {
            Kind::Float => ('c', 0x20),
            Kind::Int => ('i', 0x80),
            Kind::Bool => ('b', 0x88),
        };
        let declare = |reg_names: &mut RegNames| {
            if !register_like(&name) {
                reg_names.declare(file, (first - base) as u8, size.min(255) as u8, &name);
            }
        };
        let shared_space = own_space.is_none();
        if shared_space {
            if let Some(&(k, pos, sz)) = shared.vertex_names.get(&name) {
                if (k, pos, sz) != (kind, first, size) {
                    warn(format!("uniform {stored:?} placed differently from an earlier DVLE"));
                }
                declare(&mut reg_names);
                let _ = writeln!(out, "{} {decl}", kind.directive());
                continue;
            }
        }
        let space = own_space.as_mut().unwrap_or(&mut shared.vertex);
        let next = space.next[&kind];
        if first < next {
            warn(format!("uniform {stored:?} at a register below picasso's next free one"));
            let _ = writeln!(out, "; {} {decl} ; not reproducible: stored at register {first:#x}", kind.directive());
            continue;
        }
        if first > next {
            let pad = format!("_pad{}", shared.pads);
            shared.pads += 1;
            let _ = writeln!(out, "{} {pad}[{}]", kind.directive(), first - next);
            if shared_space {
                shared.vertex_names.insert(pad, (kind, next, first - next));
            }
        }
        if first + size > space.limit[&kind] {
            warn(format!("uniform {stored:?} passes the end of its register file"));
        }
        space.next.insert(kind, first + size);
        if shared_space {
            shared.vertex_names.insert(name.clone(), (kind, first, size));
        }
        declare(&mut reg_names);
        let _ = writeln!(out, "{} {decl}", kind.directive());
    }
    if dvle.uniforms.windows(2).any(|w| w[0].start > w[1].start) {
        // picasso lists the table by register (inputs, then c, i, b), whatever the source order.
        warn("uniform table not sorted by register".into());
    }
    if symbols != dvle.symbols {
        warn("symbol table differs from the uniform names packed in order".into());
    }
    if input_mask != dvle.input_mask {
        warn(format!("input mask {:#06x}, but the .in entries give {input_mask:#06x}", dvle.input_mask));
    }

    print_constants(dvle, &mut names, &mut reg_names, out, warn);
    print_outputs(dvle, out, warn);
    reg_names
}

/// Constants in table order: `.constf`/`.consti` where picasso's downward allocator gives the
/// stored register, `.constfa` for a run of ascending registers it gives to an array,
/// `.setf`/`.seti` elsewhere, `.setb` for booleans.
fn print_constants(
    dvle: &Dvle,
    names: &mut HashSet<String>,
    reg_names: &mut RegNames,
    out: &mut String,
    warn: &mut dyn FnMut(String),
) {
    use std::fmt::Write;
    let mut float_end = 0x80u32;
    let mut int_end = 0x84u32;
    let fresh = |base: String, names: &mut HashSet<String>| {
        let mut name = base;
        while !names.insert(name.clone()) {
            name.push('_');
        }
        name
    };
    let float_texts = |c: &Constant| match *c {
        Constant::Float { reg, value } if reg < 96 => {
            value.iter().map(|&v| f24_text(v)).collect::<Option<Vec<String>>>().map(|t| (reg, t.join(", ")))
        }
        _ => None,
    };
    let mut skip = 0;
    for (i, c) in dvle.constants.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        // A run of k ascending registers right below the allocator's end is a `.constfa` array.
        if let Some((reg, _)) = float_texts(c) {
            let k = float_end.saturating_sub(0x20 + reg as u32) as usize;
            let run: Option<Vec<String>> = (k >= 2 && i + k <= dvle.constants.len())
                .then(|| {
                    (0..k)
                        .map(|j| {
                            float_texts(&dvle.constants[i + j])
                                .filter(|(r, _)| *r as usize == reg as usize + j)
                                .map(|(_, t)| t)
                        })
                        .collect()
                })
                .flatten();
            if let Some(elements) = run {
                float_end -= k as u32;
                let name = fresh(format!("array{reg}"), names);
                let _ = writeln!(out, ".constfa {name}[{k}]");
                for e in &elements {
                    let _ = writeln!(out, ".constfa ({e})");
                }
                let _ = writeln!(out, ".end");
                reg_names.declare('c', reg, k as u8, &name);
                skip = k - 1;
                continue;
            }
        }
        match *c {
            Constant::Float { reg, value } => {
                let texts: Option<Vec<String>> = value.iter().map(|&v| f24_text(v)).collect();
                let Some(texts) = texts.filter(|_| reg < 96) else {
                    warn(format!("float constant c{reg} = {value:?} cannot be written"));
                    let _ = writeln!(out, "; raw constant {:02x?}", c.to_bytes());
                    continue;
                };
                let args = texts.join(", ");
                if 0x20 + reg as u32 == float_end - 1 {
                    float_end -= 1;
                    let name = fresh(format!("const{reg}"), names);
                    let _ = writeln!(out, ".constf {name}({args})");
                    reg_names.declare('c', reg, 1, &name);
                } else {
                    let _ = writeln!(out, ".setf c{reg}({args})");
                }
            }
            Constant::Int { reg, value } => {
                if reg >= 4 {
                    warn(format!("integer constant i{reg} (only i0-i3 exist)"));
                    continue;
                }
                let args = value.map(|v| v.to_string()).join(", ");
                if 0x80 + reg as u32 == int_end - 1 {
                    int_end -= 1;
                    let name = fresh(format!("iconst{reg}"), names);
                    let _ = writeln!(out, ".consti {name}({args})");
                    reg_names.declare('i', reg, 1, &name);
                } else {
                    let _ = writeln!(out, ".seti i{reg}({args})");
                }
            }
            Constant::Bool { reg, value } => {
                if reg >= 16 {
                    warn(format!("boolean constant b{reg} (only b0-b15 exist)"));
                    continue;
                }
                let _ = writeln!(out, ".setb b{reg} {value}");
            }
            Constant::Raw(bytes) => {
                warn(format!("constant entry {bytes:02x?} is not a canonical bool, int or float entry"));
                let _ = writeln!(out, "; raw constant {bytes:02x?}");
            }
        }
    }
}

/// Outputs in table order, each wired to its register with its mask (`.out - TYPE oN.MASK`).
fn print_outputs(dvle: &Dvle, out: &mut String, warn: &mut dyn FnMut(String)) {
    use std::fmt::Write;
    let mut mask = 0u16;
    let mut used = 0u64;
    let max_reg = if dvle.shader_type == ShaderType::Geometry { 7 } else { 16 };
    for o in &dvle.outputs {
        let Some(kind) = output_name(o.kind) else {
            warn(format!("output o{} of type {} (no picasso name)", o.reg, o.kind.raw()));
            continue;
        };
        if o.reg >= max_reg || o.mask & 0xF == 0 || o.mask > 0xF || o.unknown != 0 {
            warn(format!("output o{} mask {:#x} word {:#x} cannot be declared", o.reg, o.mask, o.unknown));
            continue;
        }
        if o.reg >= 7 && kind != "dummy" {
            warn(format!("o{} can only be a dummy output in picasso", o.reg));
        }
        let bits = (o.mask as u64) << (4 * o.reg);
        if used & bits != 0 {
            warn(format!("output o{} overlaps an earlier output", o.reg));
        }
        used |= bits;
        mask |= 1 << o.reg;
        let _ = writeln!(out, ".out - {kind} o{}{}", o.reg, output_mask_suffix(o.mask));
    }
    if mask != dvle.output_mask {
        warn(format!("output mask {:#06x}, but the output table gives {mask:#06x}", dvle.output_mask));
    }
}

//! Which Latte programs `shaderport translate` and `verify` work on (docs/latte-translate.md
//! "Command line"): a .gsh (GFD), an MT Framework container (.es, .spkg, .lfx) whose GFD
//! `--entry N` picks (0-based, in container order), or with `--raw` bare program words as
//! `latte disasm --raw` takes them. `--stage` picks the shader of a GFD; a raw program has no
//! header, so `--stage` says what it is.

use std::path::Path;

use anyhow::{bail, Context};
use latte::gfd::{GfdFile, Stage as GStage};
use latte::isa::Program;
use latte::mt;
use translate::latte::Stage;

/// The stage of `translate` / `verify` on a Latte file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LatteStage {
    /// Vertex shader.
    Vs,
    /// Pixel shader.
    Ps,
    /// Geometry shader (not translated yet: refused with that reason).
    Gs,
}

impl LatteStage {
    fn gfd(self) -> GStage {
        match self {
            LatteStage::Vs => GStage::Vertex,
            LatteStage::Ps => GStage::Pixel,
            LatteStage::Gs => GStage::Geometry,
        }
    }
}

/// A program picked from a file, with what names it in messages.
pub struct Picked {
    /// `entry 1 (id 0x...) vertex shader`, `raw pixel program`...
    pub what: String,
    /// The stage it is translated for.
    pub stage: Stage,
    /// The decoded program.
    pub program: Program,
    /// Where its interface (`--meta`) comes from.
    pub source: Source,
}

/// What a picked program's interface is built from (`translate::latte::Interface`).
pub enum Source {
    /// A bare program: the documented defaults, keyed by the program words alone.
    Raw {
        /// The key (`latte::key::shader_key` with no registers).
        key: String,
    },
    /// A GFD shader: the container entry holding its GFD, whose interfaces
    /// (`translate::latte::gfd_interfaces`) are made only when asked for.
    Header {
        /// The runtime key (`latte::key::shader_key` over the header registers and program),
        /// which names the shader among the GFD's interfaces.
        key: String,
        /// The container entry (0 for a plain .gsh).
        entry: usize,
    },
}

/// How the file was selected: `--raw`, `--stage`, `--entry` (None: every entry).
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    pub raw: bool,
    pub stage: Option<LatteStage>,
    pub entry: Option<usize>,
}

/// Whether `bytes` are a Latte container (GFD, .es, .spkg, .lfx) by magic.
pub fn is_container(bytes: &[u8]) -> bool {
    mt::container_kind(bytes).is_some()
}

fn stage_word(s: GStage) -> &'static str {
    match s {
        GStage::Vertex => "vertex",
        GStage::Pixel => "pixel",
        GStage::Geometry => "geometry",
    }
}

/// The translation stage of a GFD stage; geometry is refused (naming `what`).
fn translated(s: GStage, what: &str) -> anyhow::Result<Stage> {
    match s {
        GStage::Vertex => Ok(Stage::Vertex),
        GStage::Pixel => Ok(Stage::Pixel),
        GStage::Geometry => bail!("{what}: geometry programs are not translated yet (vertex and pixel programs are)"),
    }
}

/// The programs of `file` that `sel` picks. `all` (verify) takes every vertex and pixel
/// shader when `--stage` is not given; otherwise (translate) exactly one program must be
/// picked. Errors name the file and the entry or byte offset.
pub fn pick(file: &Path, bytes: &[u8], sel: Selection, all: bool) -> anyhow::Result<Vec<Picked>> {
    let name = file.display();
    if sel.raw {
        let Some(stage) = sel.stage else {
            bail!("{name}: --raw: give --stage vs or ps (a bare program has no header that says its stage)");
        };
        if sel.entry.is_some_and(|e| e != 0) {
            bail!("{name}: --raw: a bare program has one entry (0)");
        }
        let what = format!("raw {} program", stage_word(stage.gfd()));
        let tstage = translated(stage.gfd(), &format!("{name}: {what}"))?;
        let program = Program::decode_bytes(bytes, 0).with_context(|| format!("{name}: {what}"))?;
        let key = format!("{:016x}", latte::key::shader_key(&[], bytes));
        return Ok(vec![Picked { what, stage: tstage, program, source: Source::Raw { key } }]);
    }
    let (kind, entries) = mt::entries(bytes).with_context(|| format!("{name}"))?;
    let container = match kind {
        mt::ContainerKind::Gfd => "GFD",
        mt::ContainerKind::Es => ".es",
        mt::ContainerKind::Spkg => ".spkg",
        mt::ContainerKind::Lfx => ".lfx",
    };
    let chosen: Vec<usize> = match sel.entry {
        Some(e) if e >= entries.len() => bail!(
            "{name}: entry {e} out of range: the {container} has {} entr{} (0-{})",
            entries.len(),
            if entries.len() == 1 { "y" } else { "ies" },
            entries.len().saturating_sub(1)
        ),
        Some(e) => vec![e],
        None if all => (0..entries.len()).collect(),
        None if entries.len() == 1 => vec![0],
        None => {
            bail!("{name}: the {container} has {} entries: give --entry N (0-{})", entries.len(), entries.len() - 1)
        }
    };
    let several = entries.len() > 1;
    let mut out = Vec::new();
    for k in chosen {
        let e = &entries[k];
        let label = if several {
            let n = e.name.as_ref().map_or(String::new(), |n| format!(" \"{n}\""));
            format!("entry {k} (id {:#010x}{n})", e.id)
        } else {
            String::new()
        };
        let at =
            |what: &str| if label.is_empty() { format!("{name}: {what}") } else { format!("{name}: {label}: {what}") };
        let gfd = GfdFile::parse_at(&e.gfd, e.offset).with_context(|| at("GFD"))?;
        let shaders = gfd.shaders().with_context(|| at("GFD"))?;
        let present: Vec<GStage> = shaders.iter().map(|s| s.header.stage).collect();
        let wanted: Vec<usize> = match sel.stage {
            Some(s) => {
                let Some(i) = shaders.iter().position(|x| x.header.stage == s.gfd()) else {
                    let has: Vec<&str> = present.iter().map(|s| stage_word(*s)).collect();
                    bail!(
                        "{}",
                        at(&format!(
                            "no {} shader (the file has: {})",
                            stage_word(s.gfd()),
                            if has.is_empty() { "none".to_string() } else { has.join(", ") }
                        ))
                    );
                };
                vec![i]
            }
            None if all => (0..shaders.len()).filter(|&i| present[i] != GStage::Geometry).collect(),
            None if shaders.len() == 1 => vec![0],
            None if shaders.is_empty() => bail!("{}", at("no shader")),
            None => {
                let has: Vec<&str> = present.iter().map(|s| stage_word(*s)).collect();
                bail!("{}", at(&format!("{} shaders: give --stage vs, ps or gs", has.join(" and "))));
            }
        };
        for i in wanted {
            let s = &shaders[i];
            let what = format!(
                "{}{} shader",
                if label.is_empty() { String::new() } else { format!("{label} ") },
                stage_word(s.header.stage)
            );
            let stage = translated(s.header.stage, &format!("{name}: {what}"))?;
            let Some(prog) = &s.program else {
                bail!("{name}: {what}: the shader has no program block");
            };
            let program = Program::decode_bytes(prog, s.program_offset).with_context(|| format!("{name}: {what}"))?;
            let key = format!("{:016x}", latte::key::shader_key(&s.header.regs, prog));
            let source = Source::Header { key, entry: k };
            out.push(Picked { what, stage, program, source });
        }
    }
    if out.is_empty() {
        bail!("{name}: no vertex or pixel shader to verify");
    }
    Ok(out)
}

/// The one program `translate` works on.
pub fn pick_one(file: &Path, bytes: &[u8], sel: Selection) -> anyhow::Result<Picked> {
    let mut v = pick(file, bytes, sel, false)?;
    Ok(v.remove(0))
}

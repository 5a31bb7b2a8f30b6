//! A synthetic game shader dump, laid out like the Wii U port's game (the Wii U port's
//! translator notes, docs/specs/README.md, "Files"), for tests and benchmarks of whole-dump
//! tools: no game data is ever committed, so this builds one from [`crate::smith`] programs.
//!
//! Layout (docs/latte-dump.md):
//! - `nativeCafe/es/<id>.es`: pixel shaders, `es_files` files holding `es_unique` distinct GFDs
//!   (the rest repeat one of them under another id);
//! - `nativeCafe/system/ltshader/uber.es` (id 0, one more distinct pixel shader) and `null.es`
//!   (id 0xFFFFFFFF, the first pixel program again in a GFD that differs only outside the
//!   register block and program: a new SHA-1, the same key);
//! - `nativeCafe/shaderPack.spkg`: every loose `.es` GFD under its id, except `spkg_differing`
//!   entries whose GFD is a program of its own;
//! - `nativeCafe/LtUserShader/LtUserShaderPackage.lfx`: `vertex` vertex-shader GFDs, the first
//!   `geometry_pairs` also carrying a geometry shader and its copy program.
//!
//! Everything follows from the seed. [`Dump::expected`] says what was built: the distinct GFDs
//! (SHA-1) and runtime keys with their stages, for tests to compare a tool's answer with.

use crate::gfd::{Block, BlockKind, FileHeader, GfdFile, ShaderHeader, Stage};
use crate::key::{sha1_hex, shader_key};
use crate::mt::{Entry, Es, Lfx, Spkg};
use crate::smith::{self, SmithProgram};
use arbitrary::Unstructured;
use sha1::{Digest, Sha1};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The shape of a dump. [`DumpConfig::game`] is the spec's game.
#[derive(Clone, Debug)]
pub struct DumpConfig {
    /// Seed of every program and id.
    pub seed: u64,
    /// Loose `.es` files in `nativeCafe/es`.
    pub es_files: usize,
    /// Distinct GFDs among them (at most `es_files`).
    pub es_unique: usize,
    /// `.spkg` entries whose GFD differs from the loose file of the same id.
    pub spkg_differing: usize,
    /// Vertex-shader GFDs in the `.lfx`.
    pub vertex: usize,
    /// How many of them also carry a geometry shader (at most `vertex`).
    pub geometry_pairs: usize,
    /// Generate fetch clauses (VTX, TEX) in the programs.
    pub fetches: bool,
}

impl DumpConfig {
    /// The spec's game: 967 `.es` files with 580 distinct pixel shaders, 2 more in the package,
    /// uber.es and null.es, 78 vertex shaders of which 7 carry a geometry pair: 668 keys.
    /// Programs without fetch clauses.
    pub fn game(seed: u64) -> DumpConfig {
        DumpConfig {
            seed,
            es_files: 967,
            es_unique: 580,
            spkg_differing: 2,
            vertex: 78,
            geometry_pairs: 7,
            fetches: false,
        }
    }
}

/// What a dump holds, as constructed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    /// Container files written.
    pub files: usize,
    /// Distinct GFDs by SHA-1 (lower-case hex).
    pub gfds: BTreeSet<String>,
    /// Distinct shaders by runtime key (16 hex digits).
    pub keys: BTreeMap<String, Stage>,
    /// Container entries in all (a loose .es is one).
    pub entries: usize,
}

impl Expected {
    /// Distinct keys of `stage`.
    pub fn keys_of(&self, stage: Stage) -> usize {
        self.keys.values().filter(|s| **s == stage).count()
    }
}

/// A generated dump: relative paths and file bytes.
#[derive(Clone, Debug)]
pub struct Dump {
    /// Files, in the order written (paths relative to the dump's root).
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What was built.
    pub expected: Expected,
}

impl Dump {
    /// Writes every file under `root`, creating directories.
    ///
    /// # Errors
    /// The file system's.
    pub fn write_to(&self, root: &Path) -> std::io::Result<()> {
        for (p, bytes) in &self.files {
            let path = root.join(p);
            if let Some(d) = path.parent() {
                std::fs::create_dir_all(d)?;
            }
            std::fs::write(path, bytes)?;
        }
        Ok(())
    }
}

/// Deterministic bytes for program `n` of a seed: SHA-1 in counter mode.
fn stream(seed: u64, n: u64, attempt: u32, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 20);
    let mut block = 0u64;
    while out.len() < len {
        let mut h = Sha1::new();
        h.update(seed.to_le_bytes());
        h.update(n.to_le_bytes());
        h.update(attempt.to_le_bytes());
        h.update(block.to_le_bytes());
        out.extend_from_slice(&h.finalize());
        block += 1;
    }
    out.truncate(len);
    out
}

/// One shader of a GFD being built: stage, header mode, program, geometry copy program.
type Part = (Stage, u32, Vec<u8>, Option<Vec<u8>>);

struct Builder {
    seed: u64,
    fetches: bool,
    next: u64,
    seen: BTreeSet<Vec<u8>>,
    expected: Expected,
}

/// The varying semantics and the attribute count of a shader, from its program's bytes: one to
/// four semantics of a pool of 13 (0x80-0x8C, CafeGLSL-style ids), so that the game-wide
/// varying map has VS outputs and PS inputs to link; one to three attributes.
fn semantics(program: &[u8]) -> (Vec<u8>, u32) {
    let h = crate::key::fnv1a64(&[program]);
    let mut sems = Vec::new();
    for i in 0..1 + (h % 4) as usize {
        let s = 0x80 + ((h >> (8 + 8 * i)) % 13) as u8;
        if !sems.contains(&s) {
            sems.push(s);
        }
    }
    (sems, 1 + ((h >> 48) % 3) as u32)
}

/// Header registers with the latte-assembler's defaults (asm::header) and 16 GPRs, and the
/// semantic tables of [`semantics`]: VS PARAM i (and the GS's copy-program PARAM i) and PS
/// input R i carry semantic i of the list (SPI_VS_OUT_ID, SPI_PS_INPUT_CNTL with DEFAULT_VAL
/// 1); VS attribute k is semantic k in R(k+1) (SQ_VTX_SEMANTIC).
fn header(stage: Stage, mode: u32, program: &[u8]) -> ShaderHeader {
    let program_len = program.len();
    let (sems, attribs) = semantics(program);
    let out_ids = |r: &mut [u32], num: usize| {
        r[num] = sems.len().div_ceil(4) as u32;
        for (i, &s) in sems.iter().enumerate() {
            let w = &mut r[num + 1 + i / 4];
            *w = (*w & !(0xFF << (8 * (i % 4)))) | (s as u32) << (8 * (i % 4));
        }
    };
    let mut r = vec![0u32; stage.reg_count()];
    match stage {
        Stage::Vertex => {
            r[0] = 16 | 1 << 8;
            r[2] = (sems.len() as u32 - 1) << 1;
            r[4..14].iter_mut().for_each(|w| *w = u32::MAX);
            out_ids(&mut r, 3);
            r[15] = !((1u32 << attribs) - 1);
            r[16] = attribs;
            r[17..49].iter_mut().enumerate().for_each(|(k, w)| *w = if (k as u32) < attribs { k as u32 } else { 0xFF });
            r[50] = 14;
            r[51] = 16;
        }
        Stage::Pixel => {
            r[0] = 16;
            r[1] = 2;
            r[2] = 1 << 26 | 1 << 28 | sems.len() as u32;
            r[4] = sems.len() as u32;
            for (j, &s) in sems.iter().enumerate() {
                r[5 + j] = s as u32 | 1 << 8;
            }
            r[37] = 0xF;
            r[38] = 1;
            r[39] = 1 << 4;
        }
        Stage::Geometry => {
            r[0] = 16;
            r[6] = (sems.len() as u32 - 1) << 1;
            r[8..18].iter_mut().for_each(|w| *w = u32::MAX);
            out_ids(&mut r, 7);
        }
    }
    let mut h = ShaderHeader::new(stage, r);
    h.mode = mode;
    h.program_size = program_len as u32;
    h
}

fn header_kind(stage: Stage) -> (BlockKind, BlockKind) {
    match stage {
        Stage::Vertex => (BlockKind::VertexHeader, BlockKind::VertexProgram),
        Stage::Pixel => (BlockKind::PixelHeader, BlockKind::PixelProgram),
        Stage::Geometry => (BlockKind::GeometryHeader, BlockKind::GeometryProgram),
    }
}

impl Builder {
    /// A program of `stage` not generated before, sized like a game shader (tens to a few
    /// hundred instructions, branches and loops).
    fn program(&mut self, stage: Stage) -> Vec<u8> {
        let n = self.next;
        self.next += 1;
        for attempt in 0u32.. {
            let bytes = stream(self.seed, n, attempt, 16 << 10);
            let mut u = Unstructured::new(&bytes);
            let size = u.int_in_range(6..=40usize).unwrap_or(20);
            let cfg = smith::Config {
                max_nodes: size,
                max_depth: 3,
                max_groups: u.int_in_range(3..=8usize).unwrap_or(6),
                geometry: stage == Stage::Geometry,
                fetches: self.fetches,
                stage: Some(match stage {
                    Stage::Pixel => crate::interp::Stage::Pixel,
                    _ => crate::interp::Stage::Vertex,
                }),
            };
            let Ok(SmithProgram { program, .. }) = smith::program(&mut u, &cfg) else { continue };
            let b = program.to_bytes();
            if self.seen.insert(b.clone()) {
                return b;
            }
        }
        unreachable!("0u32.. covers every attempt")
    }

    /// A GFD of `shaders` (stage, header mode, program, copy program), recording its SHA-1 and
    /// keys.
    fn gfd(&mut self, shaders: &[Part]) -> Vec<u8> {
        let mut blocks = Vec::new();
        for (stage, mode, prog, copy) in shaders {
            let (hk, pk) = header_kind(*stage);
            let h = header(*stage, *mode, prog);
            self.expected.keys.insert(format!("{:016x}", shader_key(&h.regs, prog)), *stage);
            blocks.push(Block::new(hk, blocks.len() as u32, h.canonical_bytes(true)));
            blocks.push(Block::new(pk, blocks.len() as u32, prog.clone()));
            if let Some(c) = copy {
                blocks.push(Block::new(BlockKind::GeometryCopyProgram, blocks.len() as u32, c.clone()));
            }
        }
        blocks.push(Block::new(BlockKind::EndOfFile, blocks.len() as u32, Vec::new()));
        let bytes = GfdFile { header: FileHeader::default(), blocks, trailing: Vec::new() }.to_bytes();
        self.expected.gfds.insert(sha1_hex(&bytes));
        bytes
    }

    fn id(&self, n: u64) -> u32 {
        let b = stream(self.seed ^ 0x1d5, n, 0, 4);
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }
}

fn es(id: u32, gfd: Vec<u8>) -> Vec<u8> {
    Es { version: 0x0A, id, reserved: 0, gfd }.to_bytes()
}

/// Builds the dump `cfg` describes.
pub fn generate(cfg: &DumpConfig) -> Dump {
    let mut b =
        Builder { seed: cfg.seed, fetches: cfg.fetches, next: 0, seen: BTreeSet::new(), expected: Expected::default() };
    let mut files = Vec::new();
    let unique = cfg.es_unique.clamp(1, cfg.es_files.max(1));
    let mut pixel = Vec::with_capacity(unique);
    let mut first_program = Vec::new();
    for i in 0..unique {
        let p = b.program(Stage::Pixel);
        if i == 0 {
            first_program = p.clone();
        }
        pixel.push(b.gfd(&[(Stage::Pixel, 0, p, None)]));
    }
    // Distinct ids (the file names), then which GFD each file holds: the first `unique` in
    // order, the rest repeating earlier ones.
    let mut ids = BTreeSet::new();
    let mut es_entries = Vec::with_capacity(cfg.es_files);
    let mut n = 0u64;
    for i in 0..cfg.es_files {
        let id = loop {
            let id = b.id(n);
            n += 1;
            if id != 0 && id != u32::MAX && ids.insert(id) {
                break id;
            }
        };
        let which = if i < unique { i } else { (b.id(n + (1 << 40)) as usize) % unique };
        es_entries.push((id, which));
    }
    for (id, which) in &es_entries {
        files.push((PathBuf::from(format!("nativeCafe/es/{id:08x}.es")), es(*id, pixel[*which].clone())));
        b.expected.entries += 1;
    }
    let uber = {
        let p = b.program(Stage::Pixel);
        b.gfd(&[(Stage::Pixel, 0, p, None)])
    };
    files.push((PathBuf::from("nativeCafe/system/ltshader/uber.es"), es(0, uber)));
    // Mode 1 instead of 0: outside the register block and program, so only the SHA-1 changes.
    let null = b.gfd(&[(Stage::Pixel, 1, first_program, None)]);
    files.push((PathBuf::from("nativeCafe/system/ltshader/null.es"), es(u32::MAX, null)));
    b.expected.entries += 2;
    let mut entries = Vec::with_capacity(es_entries.len());
    for (k, (id, which)) in es_entries.iter().enumerate() {
        // The differing entries are spread over the package rather than all at its start.
        let differs = k * cfg.spkg_differing.max(1) / es_entries.len().max(1)
            != (k + 1) * cfg.spkg_differing.max(1) / es_entries.len().max(1)
            && cfg.spkg_differing > 0;
        let gfd = if differs {
            let p = b.program(Stage::Pixel);
            b.gfd(&[(Stage::Pixel, 0, p, None)])
        } else {
            pixel[*which].clone()
        };
        entries.push(Entry { id: *id, name: None, gfd, offset: 0 });
    }
    b.expected.entries += entries.len();
    let total: usize = entries.iter().map(|e| e.gfd.len()).sum();
    let spkg = Spkg { header_words: [total as u32, entries.len() as u32 * 4, 0], entries };
    files.push((PathBuf::from("nativeCafe/shaderPack.spkg"), spkg.to_bytes()));
    let mut lfx_entries = Vec::with_capacity(cfg.vertex);
    for i in 0..cfg.vertex {
        let vs = b.program(Stage::Vertex);
        let gfd = if i < cfg.geometry_pairs {
            let gs = b.program(Stage::Geometry);
            let copy = b.program(Stage::Vertex);
            b.gfd(&[(Stage::Vertex, 0, vs, None), (Stage::Geometry, 0, gs, Some(copy))])
        } else {
            b.gfd(&[(Stage::Vertex, 0, vs, None)])
        };
        lfx_entries.push(Entry { id: i as u32, name: Some(format!("VS_Synthetic{i:03}")), gfd, offset: 0 });
    }
    b.expected.entries += lfx_entries.len();
    let names = ["TMaterialStd", "TMaterialToon", "CBMaterial", "CBJointMatrix", "CBViewProjection"];
    let lfx = Lfx { version: 1, names: names.iter().map(|s| s.to_string()).collect(), entries: lfx_entries };
    files.push((PathBuf::from("nativeCafe/LtUserShader/LtUserShaderPackage.lfx"), lfx.to_bytes()));
    b.expected.files = files.len();
    Dump { files, expected: b.expected }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_dump_is_deterministic_and_counts_as_built() {
        let cfg = DumpConfig {
            seed: 3,
            es_files: 20,
            es_unique: 8,
            spkg_differing: 2,
            vertex: 5,
            geometry_pairs: 2,
            fetches: false,
        };
        let a = generate(&cfg);
        let b = generate(&cfg);
        assert_eq!(a.files, b.files);
        let e = &a.expected;
        assert_eq!(e.files, 20 + 2 + 2);
        // 8 loose + uber + 2 package + null (same key as the first) + 5 vertex GFDs.
        assert_eq!(e.gfds.len(), 8 + 1 + 2 + 1 + 5);
        assert_eq!(e.keys_of(Stage::Pixel), 8 + 1 + 2);
        assert_eq!(e.keys_of(Stage::Vertex), 5);
        assert_eq!(e.keys_of(Stage::Geometry), 2);
        let other = generate(&DumpConfig { seed: 4, ..cfg });
        assert_ne!(other.files, a.files);
    }
}

//! Shader keys and inventories (the Wii U port's translator notes, docs/specs/README.md, "Translator": the key is FNV-1a 64
//! over the header's register block, big-endian as in guest memory, followed by the program
//! bytes; the inventory lists each unique GFD by SHA-1).

use crate::error::Result;
use crate::gfd::{GfdFile, Stage};
use crate::mt::{self, ContainerKind};
use serde::Serialize;
use sha1::{Digest, Sha1};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `parts`, concatenated.
pub fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut h = FNV_OFFSET;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(FNV_PRIME);
        }
    }
    h
}

/// The runtime key of a shader: FNV-1a 64 over its register words (big-endian) then its program
/// bytes.
pub fn shader_key(regs: &[u32], program: &[u8]) -> u64 {
    let be: Vec<u8> = regs.iter().flat_map(|r| r.to_be_bytes()).collect();
    fnv1a64(&[&be, program])
}

/// Lower-case hex SHA-1 of `bytes`.
pub fn sha1_hex(bytes: &[u8]) -> String {
    Sha1::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// One shader found by the inventory.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ShaderRecord {
    /// Shader stage.
    pub stage: Stage,
    /// Key as 16 hex digits.
    pub key: String,
    /// Program size in bytes.
    pub program_bytes: usize,
}

/// Where a GFD was found.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FoundIn {
    /// File path.
    pub file: String,
    /// Container kind.
    pub container: ContainerKind,
    /// Id in the container (0 for a plain .gsh).
    pub id: u32,
}

/// One unique GFD (by SHA-1) and every place it was found.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GfdRecord {
    /// SHA-1 of the GFD bytes, lower-case hex.
    pub sha1: String,
    /// Size in bytes.
    pub size: usize,
    /// Every place the GFD was found.
    pub found_in: Vec<FoundIn>,
    /// Shaders of the GFD.
    pub shaders: Vec<ShaderRecord>,
}

/// The inventory of a directory tree.
#[derive(Clone, Debug, Serialize, Default)]
pub struct Inventory {
    /// Regular files read.
    pub files_scanned: usize,
    /// Files that looked like containers but failed to parse: (file, error).
    pub errors: Vec<(String, String)>,
    /// Unique GFDs by SHA-1.
    pub gfds: Vec<GfdRecord>,
    /// Unique shaders by key: key -> stage.
    pub keys: BTreeMap<String, Stage>,
}

/// Walks `root` (symlinks not followed, depth capped at 64) and inventories every container.
///
/// # Errors
/// An unreadable directory. Unparsable container files are listed in `errors` instead.
pub fn inventory(root: &Path) -> Result<Inventory, std::io::Error> {
    let mut inv = Inventory::default();
    let mut by_sha: BTreeMap<String, GfdRecord> = BTreeMap::new();
    let files = walk(root)?;
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else { continue };
        inv.files_scanned += 1;
        if mt::container_kind(&bytes).is_none() {
            continue;
        }
        let name = f.display().to_string();
        match mt::entries(&bytes) {
            Err(e) => inv.errors.push((name, e.to_string())),
            Ok((kind, entries)) => {
                for e in entries {
                    let sha = sha1_hex(&e.gfd);
                    let rec = match by_sha.get_mut(&sha) {
                        Some(r) => r,
                        None => {
                            let shaders = match shader_records(&e.gfd, e.offset) {
                                Ok(s) => s,
                                Err(err) => {
                                    inv.errors.push((name.clone(), err.to_string()));
                                    continue;
                                }
                            };
                            for s in &shaders {
                                inv.keys.insert(s.key.clone(), s.stage);
                            }
                            by_sha.entry(sha.clone()).or_insert(GfdRecord {
                                sha1: sha.clone(),
                                size: e.gfd.len(),
                                found_in: vec![],
                                shaders,
                            })
                        }
                    };
                    rec.found_in.push(FoundIn { file: name.clone(), container: kind, id: e.id });
                }
            }
        }
    }
    inv.gfds = by_sha.into_values().collect();
    Ok(inv)
}

/// Every regular file under `root` in path order (symlinks not followed, depth capped at 64);
/// `root` itself when it is a file.
///
/// # Errors
/// An unreadable directory.
pub fn walk(root: &Path) -> Result<Vec<PathBuf>, std::io::Error> {
    let mut stack: Vec<(PathBuf, usize)> = vec![(root.to_path_buf(), 0)];
    let mut files = Vec::new();
    while let Some((dir, depth)) = stack.pop() {
        let meta = std::fs::symlink_metadata(&dir)?;
        if meta.is_file() {
            files.push(dir);
            continue;
        }
        if !meta.is_dir() || depth > 64 {
            continue;
        }
        let mut ents: Vec<_> = std::fs::read_dir(&dir)?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        ents.sort();
        for e in ents.into_iter().rev() {
            stack.push((e, depth + 1));
        }
    }
    Ok(files)
}

/// Keys of every shader in one GFD.
///
/// # Errors
/// The GFD's parse errors.
pub fn shader_records(gfd: &[u8], base: usize) -> Result<Vec<ShaderRecord>> {
    let f = GfdFile::parse_at(gfd, base)?;
    Ok(f.shaders()?
        .into_iter()
        .map(|s| {
            let prog = s.program.unwrap_or_default();
            ShaderRecord {
                stage: s.header.stage,
                key: format!("{:016x}", shader_key(&s.header.regs, &prog)),
                program_bytes: prog.len(),
            }
        })
        .collect())
}

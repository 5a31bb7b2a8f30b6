//! Reading a dump: every container file once, each GFD deduplicated by SHA-1 and each shader
//! by runtime key (`latte::key`), with every place it came from.

use latte::gfd::{GfdFile, ShaderHeader, Stage};
use latte::key::{sha1_hex, shader_key};
use latte::mt::{self, ContainerKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One place a shader was found: a file and the container entry in it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Source {
    /// The file, as walked (the dump directory joined with the relative path).
    pub file: String,
    /// Its container kind (`gfd`, `es`, `spkg`, `lfx`), or `scan` for a GFD found by its magic.
    pub container: String,
    /// The entry's id in the container (0 for a plain .gsh; the ordinal for a scan).
    pub id: u32,
    /// The entry's name (.lfx entries).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub name: Option<String>,
    /// Byte offset of the GFD in the file.
    pub offset: usize,
    /// SHA-1 of the GFD (lower-case hex).
    pub sha1: String,
}

/// A file or entry that could not be read: what, where, why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileError {
    /// The file.
    pub file: String,
    /// The container entry id, when one entry of a readable container failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub entry: Option<u32>,
    /// The error, with its byte offset.
    pub error: String,
}

/// One unique shader (by key) and everything needed to translate it.
#[derive(Clone, Debug)]
pub struct Shader {
    /// Runtime key, 16 hex digits.
    pub key: String,
    /// Stage.
    pub stage: Stage,
    /// The GX2 header of its first source (GFDs of one key can differ outside the register
    /// block and program: the first one found gives the interface).
    pub header: ShaderHeader,
    /// Program bytes (little-endian words).
    pub program: Vec<u8>,
    /// Absolute offset of the program in its first file (for error offsets).
    pub program_offset: usize,
    /// Every place it came from.
    pub sources: Vec<Source>,
}

/// What a dump holds.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    /// Regular files read.
    pub files_scanned: usize,
    /// Files holding at least one GFD.
    pub containers: usize,
    /// Container entries (GFDs) read, duplicates included.
    pub entries: usize,
    /// Unique GFDs by SHA-1.
    pub unique_gfds: usize,
    /// Unique shaders, by key.
    pub shaders: BTreeMap<String, Shader>,
    /// Files and entries that could not be read.
    pub errors: Vec<FileError>,
}

fn kind_name(k: ContainerKind) -> &'static str {
    match k {
        ContainerKind::Gfd => "gfd",
        ContainerKind::Es => "es",
        ContainerKind::Spkg => "spkg",
        ContainerKind::Lfx => "lfx",
    }
}

/// The GFD entries of one file: by its container magic, or with `scan` by the GFD magic
/// anywhere in a file of no known container. `None`: not a shader file.
fn file_entries(bytes: &[u8], scan: bool) -> Option<Result<(&'static str, Vec<mt::Entry>), String>> {
    if mt::container_kind(bytes).is_some() {
        return Some(mt::entries(bytes).map(|(k, e)| (kind_name(k), e)).map_err(|e| e.to_string()));
    }
    if !scan {
        return None;
    }
    let found = mt::scan_gfds(bytes);
    (!found.is_empty()).then_some(Ok(("scan", found)))
}

/// Reads every file under `root` once and deduplicates its shaders.
///
/// # Errors
/// An unreadable directory; unreadable or unparsable files are listed in
/// [`Collection::errors`] instead.
pub fn collect(root: &Path, scan: bool) -> std::io::Result<Collection> {
    let mut c = Collection::default();
    // SHA-1 -> the shaders' keys (a GFD is parsed once, however often it appears).
    let mut by_sha: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in latte::key::walk(root)? {
        let name = path.display().to_string();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                c.errors.push(FileError { file: name, entry: None, error: format!("cannot read: {e}") });
                continue;
            }
        };
        c.files_scanned += 1;
        let (container, entries) = match file_entries(&bytes, scan) {
            None => continue,
            Some(Err(error)) => {
                c.errors.push(FileError { file: name, entry: None, error });
                continue;
            }
            Some(Ok(x)) => x,
        };
        c.containers += 1;
        for e in entries {
            c.entries += 1;
            let sha1 = sha1_hex(&e.gfd);
            let source = Source {
                file: name.clone(),
                container: container.to_string(),
                id: e.id,
                name: e.name,
                offset: e.offset,
                sha1,
            };
            if let Some(keys) = by_sha.get(&source.sha1) {
                for k in keys.clone() {
                    if let Some(s) = c.shaders.get_mut(&k) {
                        s.sources.push(source.clone());
                    }
                }
                continue;
            }
            let shaders = match GfdFile::parse_at(&e.gfd, e.offset).and_then(|f| f.shaders()) {
                Ok(s) => s,
                Err(err) => {
                    c.errors.push(FileError { file: name.clone(), entry: Some(e.id), error: err.to_string() });
                    continue;
                }
            };
            let mut keys = Vec::with_capacity(shaders.len());
            for s in shaders {
                let Some(program) = s.program else {
                    c.errors.push(FileError {
                        file: name.clone(),
                        entry: Some(e.id),
                        error: format!("{} shader header without a program block", s.header.stage.name()),
                    });
                    continue;
                };
                let key = format!("{:016x}", shader_key(&s.header.regs, &program));
                keys.push(key.clone());
                c.shaders
                    .entry(key.clone())
                    .or_insert_with(|| Shader {
                        key,
                        stage: s.header.stage,
                        header: s.header.clone(),
                        program,
                        program_offset: s.program_offset,
                        sources: vec![],
                    })
                    .sources
                    .push(source.clone());
            }
            by_sha.insert(source.sha1, keys);
        }
    }
    c.unique_gfds = by_sha.len();
    Ok(c)
}

//! MT Framework shader containers of the Wii U (the Wii U port's translator notes, docs/specs/README.md, "Files"):
//! `.es` (rEmulationShader: 16-byte header + one GFD), `.spkg` (rEmulationShaderPackage: a
//! count, then each GFD preceded by its u32 id) and `.lfx` (rLtShader, an MFX effect file with
//! name tables and embedded GFDs).
//!
//! All fields are big-endian; magics are stored as byte-reversed big-endian u32s ("ESX" reads
//! 0x00585345). The spec gives the .es header exactly; for .spkg and .lfx it gives the contents
//! but not every header word, so the layouts below are this crate's decision, recorded in
//! docs/latte-containers.md; readers keep unknown words so writing gives the same bytes.

use crate::error::{Error, Result};
use crate::gfd::GfdFile;
use crate::reader::Reader;

/// "ESX" as stored.
pub const ES_MAGIC: u32 = 0x0058_5345;
/// "PKG" as stored.
pub const PKG_MAGIC: u32 = 0x0047_4B50;
/// "MFX" as stored.
pub const MFX_MAGIC: u32 = 0x0058_464D;
/// Most entries accepted in a package or effect (the game's package has 967).
pub const MAX_ENTRIES: usize = 1 << 16;

/// One GFD of a container with its id (and name, for .lfx).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Id in its container (.es id, package entry id, effect shader id; 0 for a .gsh).
    pub id: u32,
    /// Name (.lfx entries).
    pub name: Option<String>,
    /// The GFD's bytes.
    pub gfd: Vec<u8>,
    /// Absolute offset of the GFD in the container.
    pub offset: usize,
}

fn gfd_at(r: &mut Reader<'_>, data: &[u8]) -> Result<(Vec<u8>, usize)> {
    let start = r.pos();
    let offset = r.offset();
    let (_, len) = GfdFile::parse_prefix(&data[start..], offset)?;
    let gfd = r.bytes(len, "embedded GFD")?.to_vec();
    Ok((gfd, offset))
}

/// An `.es` file: 16-byte header (magic, version 0x0A, id, 0) and one GFD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Es {
    /// Version (0x0A in the game files).
    pub version: u32,
    /// Id: a 32-bit state hash, equal to the file name in the game.
    pub id: u32,
    /// The reserved word.
    pub reserved: u32,
    /// The GFD bytes.
    pub gfd: Vec<u8>,
}

impl Es {
    /// # Errors
    /// Wrong magic, truncated header, a GFD that does not parse, bytes after the GFD.
    pub fn parse(bytes: &[u8]) -> Result<Es> {
        let mut r = Reader::new(bytes, 0);
        let m = r.be32(".es magic")?;
        if m != ES_MAGIC {
            return Err(Error::invalid(0, format!("not an .es file: magic {m:#010x}, expected 0x00585345 \"ESX\"")));
        }
        let version = r.be32(".es version")?;
        let id = r.be32(".es id")?;
        let reserved = r.be32(".es reserved word")?;
        let (gfd, _) = gfd_at(&mut r, bytes)?;
        if r.remaining() != 0 {
            return Err(Error::invalid(r.offset(), format!("{} bytes after the GFD of an .es file", r.remaining())));
        }
        Ok(Es { version, id, reserved, gfd })
    }
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(16 + self.gfd.len());
        for w in [ES_MAGIC, self.version, self.id, self.reserved] {
            v.extend_from_slice(&w.to_be_bytes());
        }
        v.extend_from_slice(&self.gfd);
        v
    }
    /// The one entry.
    pub fn entries(&self) -> Vec<Entry> {
        vec![Entry { id: self.id, name: None, gfd: self.gfd.clone(), offset: 16 }]
    }
}

/// A `.spkg` package: magic, count, three header words (sizes in the game's file), then
/// `count` entries of (u32 id, GFD).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spkg {
    /// The three header words after the count (kept as read).
    pub header_words: [u32; 3],
    /// The GFDs with their ids.
    pub entries: Vec<Entry>,
}

impl Spkg {
    /// # Errors
    /// Wrong magic, a count larger than the file could hold, truncated entries, bad GFDs.
    pub fn parse(bytes: &[u8]) -> Result<Spkg> {
        let mut r = Reader::new(bytes, 0);
        let m = r.be32(".spkg magic")?;
        if m != PKG_MAGIC {
            return Err(Error::invalid(0, format!("not an .spkg file: magic {m:#010x}, expected 0x00474B50 \"PKG\"")));
        }
        let at = r.offset();
        let count = r.be32(".spkg count")? as u64;
        let header_words = [r.be32(".spkg header")?, r.be32(".spkg header")?, r.be32(".spkg header")?];
        // Each entry takes at least an id and a GFD header with its end block (4 + 0x40 bytes).
        let limit = ((r.remaining() / 0x44) as u64).min(MAX_ENTRIES as u64);
        let n = r.check_count(count, limit, at, ".spkg entry")?;
        let mut entries = Vec::with_capacity(n);
        for _ in 0..n {
            let id = r.be32(".spkg entry id")?;
            let (gfd, offset) = gfd_at(&mut r, bytes)?;
            entries.push(Entry { id, name: None, gfd, offset });
        }
        if r.remaining() != 0 {
            return Err(Error::invalid(r.offset(), format!("{} bytes after the last .spkg entry", r.remaining())));
        }
        Ok(Spkg { header_words, entries })
    }
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        for w in
            [PKG_MAGIC, self.entries.len() as u32, self.header_words[0], self.header_words[1], self.header_words[2]]
        {
            v.extend_from_slice(&w.to_be_bytes());
        }
        for e in &self.entries {
            v.extend_from_slice(&e.id.to_be_bytes());
            v.extend_from_slice(&e.gfd);
        }
        v
    }
}

/// An `.lfx` (MFX) effect: header, name table, shader table, string pool, GFDs.
///
/// Layout: magic, version, name count, shader count, name-table offset, shader-table offset
/// (0x18 bytes); name table: one u32 string offset per name; shader table: (id, name index or
/// 0xFFFFFFFF, GFD offset, GFD size) per shader. Offsets are from the file start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lfx {
    /// Effect version word.
    pub version: u32,
    /// Every name of the effect (techniques, shaders, buffers, states...).
    pub names: Vec<String>,
    /// The GFDs with their ids.
    pub entries: Vec<Entry>,
}

const NO_NAME: u32 = u32::MAX;

impl Lfx {
    /// # Errors
    /// Wrong magic; counts, offsets or sizes outside the file; names without terminator; bad
    /// GFDs.
    pub fn parse(bytes: &[u8]) -> Result<Lfx> {
        let mut r = Reader::new(bytes, 0);
        let m = r.be32(".lfx magic")?;
        if m != MFX_MAGIC {
            return Err(Error::invalid(0, format!("not an .lfx file: magic {m:#010x}, expected 0x0058464D \"MFX\"")));
        }
        let version = r.be32(".lfx version")?;
        let at_n = r.offset();
        let nnames = r.be32(".lfx name count")? as u64;
        let at_s = r.offset();
        let nshaders = r.be32(".lfx shader count")? as u64;
        let name_off = r.be32(".lfx name table offset")? as usize;
        let shader_off = r.be32(".lfx shader table offset")? as usize;
        let len = bytes.len() as u64;
        let nn = r.check_count(nnames, (len / 4).min(MAX_ENTRIES as u64), at_n, ".lfx name")?;
        let ns = r.check_count(nshaders, (len / 16).min(MAX_ENTRIES as u64), at_s, ".lfx shader")?;
        let mut t = Reader::new(bytes, 0);
        t.seek(name_off, ".lfx name table")?;
        let mut names = Vec::with_capacity(nn);
        for _ in 0..nn {
            let at = t.offset();
            let o = t.be32(".lfx name offset")? as usize;
            let s = bytes
                .get(o..)
                .ok_or_else(|| Error::invalid(at, format!("name offset {o:#x} past the end of the file")))?;
            let end = s
                .iter()
                .take(4096)
                .position(|&c| c == 0)
                .ok_or_else(|| Error::invalid(o, "name without a NUL terminator"))?;
            names.push(String::from_utf8_lossy(&s[..end]).into_owned());
        }
        let mut t = Reader::new(bytes, 0);
        t.seek(shader_off, ".lfx shader table")?;
        let mut entries = Vec::with_capacity(ns);
        for _ in 0..ns {
            let at = t.offset();
            let id = t.be32(".lfx shader id")?;
            let name = t.be32(".lfx shader name index")?;
            let off = t.be32(".lfx shader offset")? as usize;
            let size = t.be32(".lfx shader size")? as usize;
            let name = if name == NO_NAME {
                None
            } else {
                Some(
                    names
                        .get(name as usize)
                        .cloned()
                        .ok_or_else(|| Error::invalid(at + 4, format!("name index {name} of {nn} names")))?,
                )
            };
            let end = off.checked_add(size).filter(|&e| e <= bytes.len()).ok_or_else(|| {
                Error::invalid(
                    at + 8,
                    format!(
                        "shader {id:#x}: GFD at {off:#x} of {size} bytes runs past the end ({} bytes)",
                        bytes.len()
                    ),
                )
            })?;
            let gfd = &bytes[off..end];
            let (_, glen) = GfdFile::parse_prefix(gfd, off)?;
            if glen != size {
                return Err(Error::invalid(
                    at + 12,
                    format!("shader {id:#x}: size {size} but its GFD is {glen} bytes"),
                ));
            }
            entries.push(Entry { id, name, gfd: gfd.to_vec(), offset: off });
        }
        Ok(Lfx { version, names, entries })
    }

    /// The file's bytes. Entry names are looked up in (or added to) `names`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut names = self.names.clone();
        let mut idx = Vec::new();
        for e in &self.entries {
            idx.push(match &e.name {
                None => NO_NAME,
                Some(n) => match names.iter().position(|x| x == n) {
                    Some(i) => i as u32,
                    None => {
                        names.push(n.clone());
                        (names.len() - 1) as u32
                    }
                },
            });
        }
        let name_off = 0x18usize;
        let shader_off = name_off + 4 * names.len();
        let pool_off = shader_off + 16 * self.entries.len();
        let mut pool = Vec::new();
        let mut name_ptrs = Vec::new();
        for n in &names {
            name_ptrs.push((pool_off + pool.len()) as u32);
            pool.extend_from_slice(n.as_bytes());
            pool.push(0);
        }
        while pool.len() % 4 != 0 {
            pool.push(0);
        }
        let mut gfd_off = pool_off + pool.len();
        let mut v = Vec::new();
        for w in
            [MFX_MAGIC, self.version, names.len() as u32, self.entries.len() as u32, name_off as u32, shader_off as u32]
        {
            v.extend_from_slice(&w.to_be_bytes());
        }
        for p in name_ptrs {
            v.extend_from_slice(&p.to_be_bytes());
        }
        for (e, ni) in self.entries.iter().zip(&idx) {
            for w in [e.id, *ni, gfd_off as u32, e.gfd.len() as u32] {
                v.extend_from_slice(&w.to_be_bytes());
            }
            gfd_off += e.gfd.len();
        }
        v.extend_from_slice(&pool);
        for e in &self.entries {
            v.extend_from_slice(&e.gfd);
        }
        v
    }
}

/// The kind of a shader container, by magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ContainerKind {
    /// A plain GFD (.gsh).
    Gfd,
    /// An .es file.
    Es,
    /// An .spkg package.
    Spkg,
    /// An .lfx effect.
    Lfx,
}

/// Recognises a container by its first word.
pub fn container_kind(bytes: &[u8]) -> Option<ContainerKind> {
    let w = u32::from_be_bytes(bytes.get(..4)?.try_into().ok()?);
    match w {
        crate::gfd::FILE_MAGIC => Some(ContainerKind::Gfd),
        ES_MAGIC => Some(ContainerKind::Es),
        PKG_MAGIC => Some(ContainerKind::Spkg),
        MFX_MAGIC => Some(ContainerKind::Lfx),
        _ => None,
    }
}

/// Every GFD of any container, with its id (a plain .gsh gives one entry with id 0).
///
/// # Errors
/// An unknown magic, or the container's own errors.
pub fn entries(bytes: &[u8]) -> Result<(ContainerKind, Vec<Entry>)> {
    let kind =
        container_kind(bytes).ok_or_else(|| Error::invalid(0, "not a GFD, .es, .spkg or .lfx file (unknown magic)"))?;
    let e = match kind {
        ContainerKind::Gfd => {
            GfdFile::parse(bytes)?;
            vec![Entry { id: 0, name: None, gfd: bytes.to_vec(), offset: 0 }]
        }
        ContainerKind::Es => Es::parse(bytes)?.entries(),
        ContainerKind::Spkg => Spkg::parse(bytes)?.entries,
        ContainerKind::Lfx => Lfx::parse(bytes)?.entries,
    };
    Ok((kind, e))
}

/// Finds every GFD embedded anywhere in `bytes` by its "Gfx2" magic, for containers whose
/// layout this crate does not know (a real .lfx whose tables differ from the layout above).
/// Entries get their ordinal as id. Candidates that do not parse as a whole GFD are skipped;
/// the scan resumes after each GFD found. [`scan_gfds_reporting`] also says why each candidate
/// was skipped.
pub fn scan_gfds(bytes: &[u8]) -> Vec<Entry> {
    scan_gfds_reporting(bytes).0
}

/// A "Gfx2" magic the scan found that does not start a whole GFD.
#[derive(Debug)]
pub struct Skipped {
    /// Absolute offset of the magic.
    pub offset: usize,
    /// Why it does not parse.
    pub error: crate::Error,
}

/// [`scan_gfds`], with every magic that does not start a GFD and the parse error met there.
pub fn scan_gfds_reporting(bytes: &[u8]) -> (Vec<Entry>, Vec<Skipped>) {
    let magic = crate::gfd::FILE_MAGIC.to_be_bytes();
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let mut i = 0;
    while i + 4 <= bytes.len() {
        if bytes[i..i + 4] == magic {
            match GfdFile::parse_prefix(&bytes[i..], i) {
                Ok((_, len)) => {
                    out.push(Entry { id: out.len() as u32, name: None, gfd: bytes[i..i + len].to_vec(), offset: i });
                    i += len;
                    continue;
                }
                Err(error) => skipped.push(Skipped { offset: i, error }),
            }
        }
        i += 1;
    }
    (out, skipped)
}

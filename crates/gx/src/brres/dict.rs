//! BRRES resource dictionaries ("index groups").
//!
//! Layout (as noclip's brres.ts and BrawlCrate's ResourceGroup read it): u32 total size, u32
//! entry count n, then n + 1 entries of 16 bytes (the first is the root of the search tree):
//! u16 id, u16 flag, u16 left, u16 right, u32 name offset, u32 data offset, both offsets relative
//! to the start of the dictionary. The id/left/right fields form a Patricia tree over the names;
//! the reader does not need it (it reads entries in order), the writer builds it.

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;

/// Most entries accepted in one dictionary.
pub const MAX_ENTRIES: u32 = 4096;
/// Longest name accepted.
pub const MAX_NAME: usize = 1024;

/// One dictionary entry: its name and the absolute offset of its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Name.
    pub name: String,
    /// Absolute offset of the data.
    pub data: usize,
    /// Absolute offset of the entry (for errors).
    pub at: usize,
}

/// Reads the dictionary at absolute offset `at`.
///
/// # Errors
/// Truncation, a count above [`MAX_ENTRIES`], offsets outside the data.
pub fn read(r: &Reader, at: usize) -> Result<Vec<Entry>> {
    let _size = r.u32(at, "dictionary size")?;
    let count = r.u32(at + 4, "dictionary count")?;
    if count > MAX_ENTRIES {
        return Err(Error::new(
            at as u64 + 4,
            ErrorKind::TooMany { what: "dictionary entry", count: count as u64, limit: MAX_ENTRIES as u64 },
        ));
    }
    r.bytes(at + 8, 16 * (count as usize + 1), "dictionary entries")?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let e = at + 8 + 16 * (i + 1);
        let name_rel = r.u32(e + 8, "dictionary name offset")?;
        let data_rel = r.u32(e + 12, "dictionary data offset")?;
        let name_at = r.target(e + 8, at, name_rel as i64, "dictionary name")?;
        let name = r.cstr(name_at, MAX_NAME, "dictionary name")?;
        let data = r.target(e + 12, at, data_rel as i64, "dictionary data")?;
        out.push(Entry { name, data, at: e });
    }
    Ok(out)
}

/// The tree fields of one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Bit index that this node tests.
    pub id: u16,
    /// Left child (entry index).
    pub left: u16,
    /// Right child (entry index).
    pub right: u16,
}

fn highest_bit(v: u8) -> u16 {
    7 - v.leading_zeros() as u16
}

/// The highest bit, as (byte index << 3) | bit, where `a` and `b` differ (missing bytes read as
/// zero); `None` when the names are equal.
fn diff_bit(a: &[u8], b: &[u8]) -> Option<u16> {
    let n = a.len().max(b.len());
    (0..n).rev().find_map(|i| {
        let x = a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
        (x != 0).then(|| ((i as u16) << 3) | highest_bit(x))
    })
}

fn bit(id: u16, name: &[u8]) -> bool {
    let idx = (id >> 3) as usize;
    idx < name.len() && (name[idx] >> (id & 7)) & 1 == 1
}

/// Builds the search tree for `names` (entry 0 is the root; name i is entry i + 1): a Patricia
/// tree whose ids decrease along down edges, the root's left link being the top.
///
/// # Errors
/// A duplicate name, or a name too long for a 16-bit bit index.
pub fn build_tree(names: &[&str]) -> Result<Vec<Node>> {
    let mut nodes = vec![Node { id: u16::MAX, left: 0, right: 0 }];
    let bytes: Vec<&[u8]> = std::iter::once(&b""[..]).chain(names.iter().map(|n| n.as_bytes())).collect();
    for (i, &name) in bytes.iter().enumerate().skip(1) {
        if name.len() >= 8191 {
            return Err(Error::new(
                0,
                ErrorKind::Invalid(format!("dictionary name of {} bytes is too long", name.len())),
            ));
        }
        let me = i as u16;
        // Search: the entry the new name ends at.
        let leaf = descend(&nodes, name);
        let id = diff_bit(bytes[leaf], name).ok_or_else(|| {
            Error::new(0, ErrorKind::Invalid(format!("duplicate dictionary name {:?}", names[i - 1])))
        })?;
        // Insert above the first node on the path whose id is below the new bit.
        let (prev, cur) = descend_to(&nodes, name, id);
        let node = if bit(id, name) {
            Node { id, left: cur as u16, right: me }
        } else {
            Node { id, left: me, right: cur as u16 }
        };
        if prev != 0 && bit(nodes[prev].id, name) {
            nodes[prev].right = me;
        } else {
            nodes[prev].left = me;
        }
        nodes.push(node);
    }
    Ok(nodes)
}

/// Follows down edges from the root for `key`; returns the node reached through a back edge.
fn descend(nodes: &[Node], key: &[u8]) -> usize {
    let mut prev = 0usize;
    let mut cur = nodes[0].left as usize;
    while cur != 0 && nodes[cur].id < nodes[prev].id {
        prev = cur;
        cur = if bit(nodes[cur].id, key) { nodes[cur].right } else { nodes[cur].left } as usize;
    }
    cur
}

/// Follows down edges while the node's id is above `id`; returns (parent, child) of the edge
/// where a node with bit `id` goes.
fn descend_to(nodes: &[Node], key: &[u8], id: u16) -> (usize, usize) {
    let mut prev = 0usize;
    let mut cur = nodes[0].left as usize;
    while cur != 0 && nodes[cur].id < nodes[prev].id && nodes[cur].id > id {
        prev = cur;
        cur = if bit(nodes[cur].id, key) { nodes[cur].right } else { nodes[cur].left } as usize;
    }
    (prev, cur)
}

/// Looks `name` up through the search tree; returns its entry index.
pub fn lookup(nodes: &[Node], names: &[&str], name: &str) -> Option<usize> {
    let key = name.as_bytes();
    let mut prev = 0usize;
    let mut cur = nodes.first()?.left as usize;
    let mut steps = 0;
    while cur != 0 && cur < nodes.len() && nodes[cur].id < nodes[prev].id && steps <= nodes.len() {
        prev = cur;
        cur = if bit(nodes[cur].id, key) { nodes[cur].right } else { nodes[cur].left } as usize;
        steps += 1;
    }
    (cur >= 1 && cur <= names.len() && names[cur - 1] == name).then_some(cur)
}

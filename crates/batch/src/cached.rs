//! One shader's outputs in the translation cache (`translate::cache`, docs/cache.md): the key
//! is everything its output files depend on, the value is those files' bytes and its sizes.

use crate::collect::Shader;
use crate::{stage_name, Options};
use std::collections::BTreeMap;
use translate::cache::Key;

/// The source name of batch entries in the cache.
const SOURCE: &str = "latte-batch";

/// The cache key of `s` under `opts` with the game-wide varying map whose `varyings.txt` has
/// SHA-1 `varyings`: the translator's identity and version, the shader's runtime key, stage,
/// header (its interface comes from it) and program bytes, and every option that changes an
/// output file (targets in order, precision, listings). `translate::cache::Key` adds the
/// translate crate's version.
pub(crate) fn key(s: &Shader, opts: &Options, varyings: &str) -> Key {
    // The typed header, not its raw block: the interface is built from the typed fields, and
    // their JSON is the same bytes on every machine.
    let header = serde_json::to_vec(&s.header).expect("a shader header serialises");
    let targets: Vec<&str> = opts.targets.iter().map(|t| t.name()).collect();
    Key::new(SOURCE)
        .part(opts.translator.as_bytes())
        .part(env!("CARGO_PKG_VERSION").as_bytes())
        .part(s.key.as_bytes())
        .part(stage_name(s.stage).as_bytes())
        .part(&header)
        .part(&s.program)
        .part(targets.join(",").as_bytes())
        .part(format!("{:?}", opts.precision).as_bytes())
        .part(&[opts.disasm as u8])
        .part(varyings.as_bytes())
}

/// A cached translation: every output file of a shader (name and bytes) and its report sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// File name in the output folder and its bytes, in writing order.
    pub outputs: Vec<(String, Vec<u8>)>,
    /// The report's `sizes`.
    pub sizes: BTreeMap<String, usize>,
}

fn put(b: &mut Vec<u8>, bytes: &[u8]) {
    b.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    b.extend_from_slice(bytes);
}

/// Reads length-prefixed fields; any length past the end is `None`.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn u64(&mut self) -> Option<u64> {
        let (head, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*head))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
}

impl Entry {
    /// The value's bytes: the file count, each name and its bytes, the size count, each name
    /// and size; lengths and numbers as 64-bit little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.outputs.iter().map(|(n, v)| 16 + n.len() + v.len()).sum::<usize>());
        b.extend_from_slice(&(self.outputs.len() as u64).to_le_bytes());
        for (name, bytes) in &self.outputs {
            put(&mut b, name.as_bytes());
            put(&mut b, bytes);
        }
        b.extend_from_slice(&(self.sizes.len() as u64).to_le_bytes());
        for (name, n) in &self.sizes {
            put(&mut b, name.as_bytes());
            b.extend_from_slice(&(*n as u64).to_le_bytes());
        }
        b
    }

    /// The entry `encode` wrote, or `None` for bytes it did not write (the cache checks its
    /// entries' checksums; this guards against a value of another layout under the same key).
    pub fn decode(bytes: &[u8]) -> Option<Entry> {
        let mut r = Reader(bytes);
        let files = r.u64()?;
        let mut outputs = Vec::new();
        for _ in 0..files {
            let name = r.string()?;
            // A name is a plain file of the output folder, never a path out of it.
            if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
                return None;
            }
            outputs.push((name, r.bytes()?.to_vec()));
        }
        let n = r.u64()?;
        let mut sizes = BTreeMap::new();
        for _ in 0..n {
            let name = r.string()?;
            sizes.insert(name, usize::try_from(r.u64()?).ok()?);
        }
        (r.0.is_empty() && !outputs.is_empty()).then_some(Entry { outputs, sizes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            outputs: vec![("k.frag.meta".into(), b"{}".to_vec()), ("k.frag.spv".into(), vec![3, 2, 0x23, 7])],
            sizes: BTreeMap::from([("program".into(), 64), ("spirv".into(), 4)]),
        }
    }

    #[test]
    fn an_entry_decodes_to_itself() {
        let e = entry();
        assert_eq!(Entry::decode(&e.encode()), Some(e));
    }

    #[test]
    fn every_cut_or_extended_value_is_rejected() {
        let b = entry().encode();
        for n in 0..b.len() {
            assert_eq!(Entry::decode(&b[..n]), None, "cut at {n}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert_eq!(Entry::decode(&longer), None);
    }

    #[test]
    fn a_name_leaving_the_output_folder_is_rejected() {
        for name in ["../x.spv", "a/b.spv", ".hidden", ""] {
            let e = Entry { outputs: vec![(name.into(), vec![1])], sizes: BTreeMap::new() };
            assert_eq!(Entry::decode(&e.encode()), None, "{name}");
        }
    }

    #[test]
    fn a_huge_length_is_rejected_without_allocating() {
        let mut b = 1u64.to_le_bytes().to_vec();
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(Entry::decode(&b), None);
    }
}

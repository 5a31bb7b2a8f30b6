//! MT containers: writers and readers round-trip on files made from the corpus GFDs; keys and
//! the inventory; malformed and truncated inputs give positioned errors, never panics.

mod common;
use latte::error::Error;
use latte::gfd::GfdFile;
use latte::key::{fnv1a64, inventory, shader_key};
use latte::mt::{self, ContainerKind, Entry, Es, Lfx, Spkg};
use proptest::prelude::*;

fn corpus_gfds() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    common::walk(&common::corpus().join("latte"), "gsh", &mut files);
    common::walk(&common::corpus().join("latte-mesa"), "gsh", &mut files);
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

fn sample_spkg() -> Spkg {
    let entries = corpus_gfds()
        .into_iter()
        .enumerate()
        .map(|(i, g)| Entry { id: 0xC977 + i as u32, name: None, gfd: g, offset: 0 })
        .collect();
    Spkg { header_words: [0x9EA400, 0x2D2400, 0x3A9FC], entries }
}

fn sample_lfx() -> Lfx {
    let names = vec!["TMaterialStd".to_string(), "VS_Std".to_string(), "CBMaterial".to_string()];
    let entries = corpus_gfds()
        .into_iter()
        .take(12)
        .enumerate()
        .map(|(i, g)| Entry {
            id: i as u32 * 3,
            name: if i % 2 == 0 { Some(format!("VS_{i}")) } else { None },
            gfd: g,
            offset: 0,
        })
        .collect();
    Lfx { version: 0x11, names, entries }
}

fn strip_offsets(mut e: Vec<Entry>) -> Vec<(u32, Option<String>, Vec<u8>)> {
    e.drain(..).map(|e| (e.id, e.name, e.gfd)).collect()
}

#[test]
fn es_round_trip() {
    for g in corpus_gfds() {
        let es = Es { version: 0x0A, id: 0xC977, reserved: 0, gfd: g.clone() };
        let bytes = es.to_bytes();
        assert_eq!(&bytes[..4], &[0x00, 0x58, 0x53, 0x45]);
        let back = Es::parse(&bytes).unwrap();
        assert_eq!(back, es);
        assert_eq!(back.to_bytes(), bytes);
        let (kind, e) = mt::entries(&bytes).unwrap();
        assert_eq!(kind, ContainerKind::Es);
        assert_eq!(e[0].gfd, g);
        assert_eq!(e[0].id, 0xC977);
    }
}

#[test]
fn spkg_round_trip() {
    let p = sample_spkg();
    let bytes = p.to_bytes();
    let back = Spkg::parse(&bytes).unwrap();
    assert_eq!(back.header_words, p.header_words);
    assert_eq!(strip_offsets(back.entries.clone()), strip_offsets(p.entries.clone()));
    assert_eq!(back.to_bytes(), bytes);
    for e in &back.entries {
        assert_eq!(&bytes[e.offset..e.offset + e.gfd.len()], &e.gfd[..]);
        GfdFile::parse(&e.gfd).unwrap();
    }
}

#[test]
fn lfx_round_trip() {
    let l = sample_lfx();
    let bytes = l.to_bytes();
    let back = Lfx::parse(&bytes).unwrap();
    assert_eq!(strip_offsets(back.entries.clone()), strip_offsets(l.entries.clone()));
    assert!(back.names.starts_with(&l.names));
    assert!(back.names.contains(&"VS_0".to_string()));
    assert_eq!(back.to_bytes(), bytes);
}

#[test]
fn truncated_containers_give_positioned_errors() {
    for bytes in [
        sample_spkg().to_bytes(),
        sample_lfx().to_bytes(),
        Es { version: 10, id: 1, reserved: 0, gfd: corpus_gfds()[0].clone() }.to_bytes(),
    ] {
        let step = (bytes.len() / 300).max(1);
        for n in (0..bytes.len()).step_by(step) {
            match mt::entries(&bytes[..n]) {
                Err(Error::Truncated { offset, .. })
                | Err(Error::Invalid { offset, .. })
                | Err(Error::TooMany { offset, .. }) => {
                    assert!(offset <= bytes.len(), "offset {offset} past the data");
                }
                Err(e) => panic!("unexpected error kind {e}"),
                Ok(_) => panic!("a truncated container ({n} of {} bytes) parsed", bytes.len()),
            }
        }
    }
}

#[test]
fn bad_magic_and_huge_count() {
    let e = mt::entries(b"XXXXabcd").unwrap_err().to_string();
    assert!(e.contains("unknown magic"), "{e}");
    let mut b = sample_spkg().to_bytes();
    b[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
    let e = Spkg::parse(&b).unwrap_err();
    assert!(matches!(e, Error::TooMany { offset: 4, .. }), "{e}");
}

#[test]
fn fnv1a64_vectors() {
    assert_eq!(fnv1a64(&[b""]), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(&[b"a"]), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(&[b"foo", b"bar"]), fnv1a64(&[b"foobar"]));
    // Registers are hashed big-endian, then the program bytes.
    assert_eq!(shader_key(&[0x01020304], &[5]), fnv1a64(&[&[1, 2, 3, 4, 5]]));
}

#[test]
fn inventory_of_the_corpus() {
    let inv = inventory(&common::corpus().join("latte")).unwrap();
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // 20 .gsh files; ClassiCube's *_lin/_exp share nothing byte-wise, so all are unique.
    assert_eq!(inv.gfds.len(), 20);
    let shaders: usize = inv.gfds.iter().map(|g| g.shaders.len()).sum();
    // 15 VS+PS pairs; gfd/program.gsh and gfd/shader.gsh VS+PS; gfd/vertex-header.gsh one
    // header without a program; header-only.gsh and vertex-program.gsh no header.
    assert_eq!(shaders, 2 * 15 + 2 + 2 + 1);
    // Identical vertex shaders across files (vs_textured.vsh in three files) share one key.
    assert!(inv.keys.len() < shaders, "{} keys, {shaders} shaders", inv.keys.len());
}

proptest! {
    #[test]
    fn mutated_containers_never_panic(pos in any::<prop::sample::Index>(), val: u8, which in 0usize..3) {
        let mut b = match which {
            0 => sample_lfx().to_bytes(),
            1 => Es { version: 10, id: 1, reserved: 0, gfd: corpus_gfds()[3].clone() }.to_bytes(),
            _ => {
                let mut p = sample_spkg();
                p.entries.truncate(3);
                p.to_bytes()
            }
        };
        let i = pos.index(b.len());
        b[i] = val;
        if let Ok((_, entries)) = mt::entries(&b) {
            for e in entries {
                if let Ok(f) = GfdFile::parse(&e.gfd) {
                    let _ = f.shaders();
                }
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), magic in 0usize..5) {
        let mut b = bytes;
        let m: [u8; 4] = [[0x47, 0x66, 0x78, 0x32], [0, 0x58, 0x53, 0x45], [0, 0x47, 0x4B, 0x50], [0, 0x58, 0x46, 0x4D], [1, 2, 3, 4]][magic];
        if b.len() >= 4 {
            b[..4].copy_from_slice(&m);
        }
        let _ = mt::entries(&b);
    }
}

#[test]
fn scan_finds_gfds_in_an_unknown_layout() {
    let gfds = corpus_gfds();
    let mut blob = b"MFX\0 some other effect layout".to_vec();
    for g in gfds.iter().take(5) {
        blob.extend_from_slice(&[0xAB; 7]);
        blob.extend_from_slice(b"Gfx2"); // a false start: not a whole GFD
        blob.extend_from_slice(g);
    }
    let found = mt::scan_gfds(&blob);
    assert_eq!(found.len(), 5);
    for (e, g) in found.iter().zip(&gfds) {
        assert_eq!(&e.gfd, g);
        assert_eq!(&blob[e.offset..e.offset + g.len()], &g[..]);
    }
}

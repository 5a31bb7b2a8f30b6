//! Decode -> encode is the identity on every corpus program, and the decoder agrees with Mesa's
//! own listings of the latte-mesa programs (mnemonics and ALU slots).

mod common;
use common::{corpus, corpus_programs, walk};
use latte::isa::program::ClauseBody;
use latte::isa::{FetchInst, Program};
use std::collections::HashMap;
use std::path::PathBuf;

#[test]
fn decode_encode_identity_on_corpus() {
    let progs = corpus_programs();
    assert!(progs.len() > 150, "{}", progs.len());
    let mut words = 0;
    for (name, bytes) in &progs {
        let p = Program::decode_bytes(bytes, 0).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.to_bytes(), *bytes, "{name}");
        assert!(p.cf.last().is_some_and(|c| c.end_of_program()), "{name}: no END_OF_PROGRAM");
        // Words outside every instruction are kept (the rust-wiiu gfd/ files have 4 stray words after
        // their last ALU clause); only those files have any.
        if !p.extra.is_empty() {
            assert!(name.contains("latte/gfd/"), "{name}: {:?}", p.extra);
        }
        words += bytes.len() / 4;
    }
    assert!(words > 10_000, "{words}");
}

fn mesa_name(n: &str) -> &str {
    // Mesa appends _sat to an op with CLAMP set.
    let n = n.strip_suffix("_sat").unwrap_or(n);
    match n {
        "EXPORT" => "EXP",
        "EXPORT_DONE" => "EXP_DONE",
        "ALU_NOP" => "NOP",
        "GET_TEXTURE_RESINFO" => "GET_TEXTURE_INFO",
        "GET_NUMBER_OF_SAMPLES" => "GET_SAMPLE_INFO",
        "GET_LOD" => "GET_COMP_TEX_LOD",
        n => n,
    }
}

/// Names the decoder gives each word index: CF, ALU (with slot letter) and fetch instructions.
fn names(p: &Program) -> HashMap<usize, String> {
    let mut m = HashMap::new();
    for (i, c) in p.cf.iter().enumerate() {
        m.insert(2 * i, c.name());
    }
    for cl in &p.clauses {
        let mut w = 2 * cl.addr as usize;
        match &cl.body {
            ClauseBody::Alu(groups) => {
                for g in groups {
                    for (k, inst) in g.insts.iter().enumerate() {
                        let slot = g.slots.as_ref().map_or('?', |s| b"xyzwt"[s[k] as usize] as char);
                        m.insert(w, format!("{slot}:{}", inst.name()));
                        w += 2;
                    }
                    w += g.literals.len();
                }
            }
            ClauseBody::Fetch(v) => {
                for f in v {
                    let n = match f {
                        FetchInst::Tex(t) => t.name().to_string(),
                        FetchInst::Vtx(v) if v.op == 0 => "VFETCH".to_string(),
                        FetchInst::Vtx(v) => v.name(),
                    };
                    m.insert(w, n);
                    w += 4;
                }
            }
        }
    }
    m
}

#[test]
fn decoder_agrees_with_mesa_listings() {
    let mut listings = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "txt", &mut listings);
    assert!(listings.len() >= 60, "{}", listings.len());
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for l in &listings {
        let bin = PathBuf::from(l.to_string_lossy().replace(".disasm.txt", ".bin"));
        let p = Program::decode_bytes(&std::fs::read(&bin).unwrap(), 0).unwrap();
        let ours = names(&p);
        for line in std::fs::read_to_string(l).unwrap().lines() {
            let t = line.trim_start();
            let mut it = t.split_whitespace();
            let (Some(idx), Some(w0), Some(w1)) = (it.next(), it.next(), it.next()) else { continue };
            if idx.len() != 4 || w0.len() != 8 || w1.len() != 8 || !idx.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if u32::from_str_radix(w1, 16).is_err() {
                continue;
            }
            let idx: usize = idx.parse().unwrap();
            let rest: Vec<&str> = it.collect();
            let cf_line = !line.starts_with(' ');
            let expect = if cf_line {
                mesa_name(rest[0]).to_string()
            } else if rest.first().is_some_and(|r| r.len() == 8 && u32::from_str_radix(r, 16).is_ok()) {
                mesa_name(rest[1]).to_string() // fetch: a third hex word
            } else {
                // ALU: optional group number, "x:FLAGS", op.
                let mut r = rest.iter();
                let mut s = *r.next().unwrap();
                if s.bytes().all(|b| b.is_ascii_digit()) {
                    s = r.next().unwrap();
                }
                let slot = &s[..1];
                let op = if s.len() > 2 && s.ends_with(|c: char| c.is_ascii_alphabetic()) && r.len() > 0 && !s[2..].contains(|c: char| c.is_ascii_lowercase()) && s[2..].chars().all(|c| "MP01".contains(c)) {
                    r.next().unwrap()
                } else {
                    r.next().unwrap()
                };
                format!("{slot}:{}", mesa_name(op))
            };
            let got = ours.get(&idx).cloned().unwrap_or_default();
            if got != expect {
                mismatches.push(format!("{}:{idx}: mesa {expect} ours {got}", l.display()));
            }
            checked += 1;
        }
    }
    assert!(mismatches.is_empty(), "{} of {checked} differ:\n{}", mismatches.len(), mismatches[..mismatches.len().min(30)].join("\n"));
    assert!(checked > 3000, "{checked}");
}

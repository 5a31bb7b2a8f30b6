//! The decoder against a real compiler: every instruction of every latte-mesa program, as
//! `latte::json::program_json` reports it, is checked field by field against Mesa's own listing
//! of the program (`programs/tNN/*.disasm.txt`, written by r600_bytecode_disasm in Mesa 25.0.7).
//!
//! The listing is parsed here, independently of the crate's printer: CF lines `AAAA W0 W1  NAME
//! fields`, clause lines indented by one space (ALU: `AAAA W0 W1 [group] s:FLAGS OP dst, srcs
//! [BS:n]`; literal: `AAAA W`; fetch: `AAAA W0 W1 W2  OP dst, src, RID:.. ...`).
//! Run with `--nocapture` to see the counts of instructions and fields checked per kind.

mod common;
use common::{corpus, walk};
use latte::isa::Program;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// Counts and mismatches, per instruction kind.
#[derive(Default)]
struct Checker {
    insts: BTreeMap<String, usize>,
    fields: BTreeMap<String, usize>,
    bad: Vec<String>,
    at: String,
    kind: String,
}

impl Checker {
    fn start(&mut self, file: &Path, addr: usize, kind: &str) {
        self.at = format!("{}:{addr:04}", file.strip_prefix(corpus()).unwrap_or(file).display());
        self.kind = kind.to_string();
        *self.insts.entry(kind.to_string()).or_default() += 1;
    }
    /// One field: `ours` from the JSON, `mesa` from the listing.
    fn eq<T: PartialEq + Debug>(&mut self, field: &str, ours: T, mesa: T) {
        *self.fields.entry(self.kind.clone()).or_default() += 1;
        if ours != mesa {
            self.bad.push(format!("{} {}: ours {ours:?}, Mesa {mesa:?}", self.at, field));
        }
    }
    fn fail(&mut self, msg: String) {
        self.bad.push(format!("{} {msg}", self.at));
    }
}

fn hex_words(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|w| u32::from_str_radix(w.as_str().unwrap().trim_start_matches("0x"), 16).unwrap())
        .collect()
}

fn num(s: &str) -> i64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

fn u(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// `R12.xyzw` / `R3-5.xyzw` -> (first gpr, last gpr, swizzle).
fn reg_swz(t: &str) -> (i64, i64, String) {
    let t = t.trim_end_matches(',');
    let (r, s) = t.split_once('.').unwrap_or((t, ""));
    let r = r.trim_start_matches('R');
    let (a, b) = r.split_once('-').unwrap_or((r, r));
    (num(a), num(b), s.to_string())
}

/// The listing's words and the text after them.
struct Line<'a> {
    addr: usize,
    words: Vec<u32>,
    rest: &'a str,
    cf: bool,
}

fn parse_line(line: &str) -> Option<Line<'_>> {
    let cf = !line.starts_with(' ');
    let t = line.trim_start();
    let (a, mut rest) = t.split_once(' ')?;
    if a.len() != 4 || !a.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut words = Vec::new();
    loop {
        let r = rest.trim_start();
        let tok = r.split(' ').next().unwrap_or("");
        if tok.len() == 8 && tok.bytes().all(|b| b.is_ascii_hexdigit()) && words.len() < 3 {
            words.push(u32::from_str_radix(tok, 16).unwrap());
            rest = &r[8..];
        } else {
            break;
        }
    }
    Some(Line { addr: a.parse().unwrap(), words, rest, cf })
}

fn check_cf(c: &mut Checker, j: &Value, rest: &str, kcache_banks: &mut [Option<i64>; 2]) {
    let toks: Vec<&str> = rest.split_whitespace().collect();
    let name = toks[0];
    let has = |f: &str| toks.contains(&f);
    c.eq("op", j["op"].as_str().unwrap(), name);
    c.eq("kind", j["kind"].as_str().unwrap(), if name.starts_with("MEM_") { "mem" } else { "cf" });
    *kcache_banks = [None, None];
    if name.starts_with("ALU") {
        c.eq("count", u(&j["count"]), num(toks[1]));
        c.eq("clause_addr", u(&j["clause_addr"]), num(&toks[2][1..]));
        let mut seen = [false; 2];
        for t in &toks[3..] {
            // KC0[CB0:0-16]: bank, first constant, first + 16 × lines (Mesa's c_end).
            let Some(r) = t.strip_prefix("KC") else {
                c.fail(format!("unparsed {t}"));
                continue;
            };
            let k = num(&r[..1]) as usize;
            let inner = r[1..].trim_start_matches("[CB").trim_end_matches(']');
            let (bank, range) = inner.split_once(':').unwrap();
            let (s, e) = range.split_once('-').unwrap();
            let kc = &j["kcache"][k];
            c.eq("kcache.bank", u(&kc["bank"]), num(bank));
            c.eq("kcache.first", u(&kc["first"]), num(s));
            c.eq("kcache.end", u(&kc["first"]) + u(&kc["constants"]), num(e));
            kcache_banks[k] = Some(num(bank));
            seen[k] = true;
        }
        for k in 0..2 {
            if !seen[k] {
                c.eq("kcache.mode", u(&j["kcache"][k]["mode"]), 0);
            }
        }
    } else if matches!(name, "TEX" | "VTX" | "VTX_TC") {
        c.eq("count", u(&j["count"]), num(toks[1]));
        c.eq("clause_addr", u(&j["clause_addr"]), num(&toks[2][1..]));
        c.eq("valid_pixel_mode", j["valid_pixel_mode"].as_bool().unwrap(), has("VPM"));
        c.eq("end_of_program", j["end_of_program"].as_bool().unwrap(), has("EOP"));
    } else if name.starts_with("EXPORT") {
        c.eq("type", j["type"].as_str().unwrap(), toks[1]);
        let (b0, b1) = toks[2].split_once('-').unwrap_or((toks[2], toks[2]));
        c.eq("array_base", u(&j["array_base"]), num(b0));
        c.eq("burst_count", u(&j["burst_count"]), num(b1) - num(b0));
        let (g0, g1, s) = reg_swz(toks[3]);
        c.eq("gpr", u(&j["gpr"]), g0);
        c.eq("burst_gprs", u(&j["burst_count"]), g1 - g0);
        c.eq("swizzle", j["swizzle"].as_str().unwrap(), &s);
        let es = toks.iter().find_map(|t| t.strip_prefix("ES:")).unwrap();
        c.eq("elem_size", u(&j["elem_size"]), i64::from_str_radix(es, 16).unwrap());
        c.eq("barrier", j["barrier"].as_bool().unwrap(), !has("NO_BARRIER"));
        c.eq("end_of_program", j["end_of_program"].as_bool().unwrap(), has("EOP"));
    } else if name.starts_with("MEM_") {
        c.eq("type", j["type"].as_str().unwrap(), toks[1]);
        c.eq("array_base", u(&j["array_base"]), num(toks[2]));
        let (g, _, mask) = reg_swz(toks[3]);
        c.eq("gpr", u(&j["gpr"]), g);
        let m: i64 = mask.bytes().enumerate().map(|(i, b)| if b == b"xyzw"[i] { 1 << i } else { 0 }).sum();
        c.eq("comp_mask", u(&j["comp_mask"]), m);
        if toks[1].ends_with("_IND") {
            let (ig, _, s) = reg_swz(toks[4]);
            c.eq("index_gpr", u(&j["index_gpr"]), ig);
            c.eq("index_swizzle", "xyz", &s);
        }
        let es = toks.iter().find_map(|t| t.strip_prefix("ES:")).unwrap();
        c.eq("elem_size", u(&j["elem_size"]), num(es));
        // AS: is printed unless ARRAY_SIZE is 0xFFF.
        let size = toks.iter().find_map(|t| t.strip_prefix("AS:")).map_or(0xFFF, num);
        c.eq("array_size", u(&j["array_size"]), size);
        c.eq("barrier", j["barrier"].as_bool().unwrap(), !has("NO_BARRIER"));
        c.eq("end_of_program", j["end_of_program"].as_bool().unwrap(), has("EOP"));
    } else {
        // Every other CF: @target [CND:x] [POP:x] [STREAMn] [VPM] [EOP].
        c.eq("target", u(&j["target"]), num(&toks[1][1..]));
        let cond = toks.iter().find_map(|t| t.strip_prefix("CND:")).map_or(0, |v| i64::from_str_radix(v, 16).unwrap());
        let conds = ["ACTIVE", "ALWAYS_FALSE", "CF_BOOL", "CF_NOT_BOOL"];
        c.eq("cond", j["cond"].as_str().unwrap(), conds[cond as usize]);
        let pop = toks.iter().find_map(|t| t.strip_prefix("POP:")).map_or(0, |v| i64::from_str_radix(v, 16).unwrap());
        c.eq("pop_count", u(&j["pop_count"]), pop);
        if let Some(s) = toks.iter().find_map(|t| t.strip_prefix("STREAM")) {
            c.eq("count", u(&j["count"]), num(s));
        }
        c.eq("valid_pixel_mode", j["valid_pixel_mode"].as_bool().unwrap(), has("VPM"));
        c.eq("end_of_program", j["end_of_program"].as_bool().unwrap(), has("EOP"));
    }
}

/// `R[3+AR]` / `R3` / `T1` / `KC0[5]` register part -> (index, rel, index mode text).
fn sel_part(s: &str) -> (i64, bool, &str) {
    if let Some(inner) = s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        for m in ["+AR", "+AL"] {
            if let Some(n) = inner.strip_suffix(m) {
                return (num(n), true, m);
            }
        }
        return (num(inner), false, "");
    }
    (num(s), false, "")
}

fn check_rel_mode(c: &mut Checker, j: &Value, mode: &str) {
    match mode {
        "+AR" => c.eq("index_mode", u(&j["index_mode"]) == 0 || u(&j["index_mode"]) == 6, true),
        "+AL" => c.eq("index_mode", u(&j["index_mode"]), 4),
        _ => {}
    }
}

fn check_src(c: &mut Checker, j: &Value, s: &Value, t: &str, banks: &[Option<i64>; 2]) {
    let mut t = t.trim();
    // Mesa prints M_1_INT as "-1"; NEG of INT 1 would print the same.
    if t == "-1" {
        let ok = (u(&s["sel"]) == 251 && !s["neg"].as_bool().unwrap())
            || (u(&s["sel"]) == 250 && s["neg"].as_bool().unwrap());
        c.eq("src.inline", ok, true);
        return;
    }
    let neg = t.starts_with('-');
    t = t.trim_start_matches('-');
    let abs = t.starts_with('|');
    t = t.trim_matches('|');
    c.eq("src.neg", s["neg"].as_bool().unwrap(), neg);
    c.eq("src.abs", s["abs"].as_bool().unwrap(), abs);
    let kind = s["kind"].as_str().unwrap();
    if let Some(lit) = t.strip_prefix("[0x") {
        c.eq("src.kind", kind, "literal");
        let v = lit.split(' ').next().unwrap();
        c.eq("src.literal", s["value"].as_str().unwrap_or(""), &format!("0x{v}"));
        return;
    }
    if t == "PS" {
        c.eq("src.kind", kind, "ps");
        return;
    }
    if matches!(t, "0" | "1.0" | "1" | "0.5") {
        c.eq("src.kind", kind, "inline");
        c.eq("src.inline", s["inline"].as_str().unwrap_or(""), t);
        return;
    }
    let (base, chan) = t.rsplit_once('.').unwrap_or_else(|| panic!("operand {t}"));
    c.eq("src.chan", s["chan"].as_str().unwrap(), chan);
    c.eq("src.rel", s["rel"].as_bool().unwrap(), base.contains("+A"));
    if base == "PV" {
        c.eq("src.kind", kind, "pv");
    } else if let Some(r) = base.strip_prefix("KC") {
        c.eq("src.kind", kind, "kcache");
        let set = num(&r[..1]);
        c.eq("src.kcache_set", u(&s["kcache_set"]), set);
        let (i, _, m) = sel_part(&r[1..]);
        check_rel_mode(c, j, m);
        c.eq("src.kcache_index", u(&s["kcache_index"]), i);
        // The bank the clause's CF line locked for this set.
        c.eq("src.kcache_bank", Some(u(&s["bank"])), banks[set as usize]);
    } else if let Some(r) = base.strip_prefix('T') {
        c.eq("src.kind", kind, "gpr");
        c.eq("src.gpr", u(&s["gpr"]), 124 + num(r));
    } else if let Some(r) = base.strip_prefix('R') {
        c.eq("src.kind", kind, "gpr");
        let (g, _, m) = sel_part(r);
        check_rel_mode(c, j, m);
        c.eq("src.gpr", u(&s["gpr"]), g);
    } else {
        c.fail(format!("unparsed operand {t}"));
    }
}

fn check_alu(c: &mut Checker, j: &Value, rest: &str, group: &mut i64, banks: &[Option<i64>; 2]) {
    // "[group] s:MP P OP..." — the slot letter, then Mesa's "%c%c %c " flags.
    let pos = rest.find(':').unwrap() - 1;
    let head = rest[..pos].trim();
    if !head.is_empty() {
        *group = num(head);
    }
    c.eq("group", u(&j["group"]), *group);
    c.eq("slot", j["slot"].as_str().unwrap_or("?"), &rest[pos..pos + 1]);
    let fl = &rest.as_bytes()[pos + 2..pos + 6];
    c.eq("update_exec_mask", j["update_exec_mask"].as_bool().unwrap_or(false), fl[0] == b'M');
    c.eq("update_pred", j["update_pred"].as_bool().unwrap_or(false), fl[1] == b'P');
    let pred = match fl[3] {
        b'0' => 2,
        b'1' => 3,
        _ => 0,
    };
    c.eq("pred_sel", u(&j["pred_sel"]), pred);
    let body = rest[pos + 6..].trim();
    let (mut op, operands) = body.split_once(' ').unwrap_or((body, ""));
    let clamp = op.ends_with("_sat");
    op = op.trim_end_matches("_sat");
    let mut omod = 0;
    for (k, m) in ["*2", "*4", "/2"].iter().enumerate() {
        if let Some(o) = op.strip_suffix(m) {
            op = o;
            omod = k as i64 + 1;
        }
    }
    c.eq("op", j["op"].as_str().unwrap(), op);
    c.eq("clamp", j["clamp"].as_bool().unwrap(), clamp);
    c.eq("omod", u(&j["omod"]), omod);
    let (operands, bs) = match operands.split_once("BS:") {
        Some((o, b)) => (o, num(b.trim())),
        None => (operands, 0),
    };
    c.eq("bank_swizzle", u(&j["bank_swizzle"]), bs);
    let ops: Vec<&str> = operands.split(',').map(str::trim).collect();
    // Destination: "__.z" (no write), "R4.z", "T0.x", "R[3+AR].x".
    let d = &j["dst"];
    let (base, chan) = ops[0].rsplit_once('.').unwrap();
    c.eq("dst.chan", d["chan"].as_str().unwrap(), chan);
    c.eq("dst.write", d["write"].as_bool().unwrap(), base != "__");
    if base != "__" {
        let (g, rel) = if let Some(t) = base.strip_prefix('T') {
            (124 + num(t), false)
        } else {
            let (g, rel, m) = sel_part(&base[1..]);
            check_rel_mode(c, j, m);
            (g, rel)
        };
        c.eq("dst.gpr", u(&d["gpr"]), g);
        c.eq("dst.rel", d["rel"].as_bool().unwrap(), rel);
    }
    let srcs = j["srcs"].as_array().unwrap();
    c.eq("src.count", srcs.len(), ops.len() - 1);
    for (s, t) in srcs.iter().zip(&ops[1..]) {
        check_src(c, j, s, t, banks);
    }
}

fn check_fetch(c: &mut Checker, j: &Value, rest: &str) {
    let toks: Vec<&str> = rest.split_whitespace().collect();
    let op = toks[0];
    let field = |p: &str| toks.iter().find_map(|t| t.strip_prefix(p)).map(|v| v.trim_end_matches(')'));
    c.eq("op", j["op"].as_str().unwrap(), op);
    let (dg, _, ds) = reg_swz(toks[1]);
    c.eq("dst_gpr", u(&j["dst_gpr"]), dg);
    c.eq("dst_sel", j["dst_sel"].as_str().unwrap(), &ds);
    let (sg, _, ss) = reg_swz(toks[2]);
    c.eq("src_gpr", u(&j["src_gpr"]), sg);
    c.eq("src_sel", j["src_sel"].as_str().unwrap(), &ss);
    if op == "VFETCH" {
        c.eq("kind", j["kind"].as_str().unwrap(), "vtx");
        let off = toks
            .iter()
            .find_map(|t| t.strip_prefix('+'))
            .map_or(0, |v| num(v.trim_end_matches("b,").trim_end_matches('b')));
        c.eq("offset", u(&j["offset"]), off);
        c.eq("buffer_id", u(&j["buffer_id"]), num(field("RID:").unwrap()));
        // Mesa prints VERTEX / INSTANCE, nothing for NO_INDEX_OFFSET.
        let ft = if toks.contains(&"VERTEX") {
            "VERTEX"
        } else if toks.contains(&"INSTANCE") {
            "INSTANCE"
        } else {
            "NO_INDEX"
        };
        c.eq("fetch_type", j["fetch_type"].as_str().unwrap(), ft);
        c.eq("mega_fetch_count", u(&j["mega_fetch_count"]), field("MFC:").map_or(0, num));
        c.eq("use_const_fields", j["use_const_fields"].as_bool().unwrap(), field("UCF:") == Some("1"));
        c.eq("data_format", u(&j["data_format"]), num(field("FMT(DTA:").unwrap()));
        c.eq("num_format", u(&j["num_format"]), num(field("NUM:").unwrap()));
        c.eq("format_comp", j["format_comp"].as_bool().unwrap(), field("COMP:") == Some("1"));
        c.eq("srf_mode", j["srf_mode"].as_bool().unwrap(), field("MODE:") == Some("1"));
    } else {
        c.eq("kind", j["kind"].as_str().unwrap(), "tex");
        c.eq("resource_id", u(&j["resource_id"]), num(field("RID:").unwrap()));
        c.eq("sampler_id", u(&j["sampler_id"]), num(field("SID:").unwrap()));
        c.eq("lod_bias", u(&j["lod_bias"]), field("LB:").map_or(0, num));
        c.eq("coord_type", j["coord_type"].as_str().unwrap(), field("CT:").unwrap());
        for (k, p) in ["OX:", "OY:", "OZ:"].iter().enumerate() {
            c.eq("offset", u(&j["offset"][k]), field(p).map_or(0, num));
        }
    }
}

/// Checks one program against its listing; returns the number of instructions of ours.
fn check_program(c: &mut Checker, bin: &Path, listing: &Path) -> usize {
    let words = latte::gfd::program_words(&std::fs::read(bin).unwrap());
    let p = Program::decode(&words, 0).unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let j = latte::json::program_json(&p);
    let ours: HashMap<usize, &Value> =
        j["instructions"].as_array().unwrap().iter().map(|i| (u(&i["addr"]) as usize, i)).collect();
    let text = std::fs::read_to_string(listing).unwrap();
    // "bytecode 70 dw -- 5 gprs -- 1 nstack": the program length.
    let ndw = text.split_whitespace().nth(1).map(num).unwrap();
    c.start(listing, 0, "program");
    c.eq("program words", words.len() as i64, ndw);
    let mut seen = std::collections::HashSet::new();
    let (mut group, mut banks, mut lit_base, mut lits) = (0i64, [None, None], 0usize, Value::Null);
    for line in text.lines() {
        let Some(l) = parse_line(line) else { continue };
        if l.words.len() == 1 {
            // A literal of the group just listed.
            c.start(listing, l.addr, "literal");
            let k = l.addr.wrapping_sub(lit_base);
            let v = lits.get(k).and_then(Value::as_str).map(str::to_string);
            c.eq("literal", v, Some(format!("0x{:08X}", l.words[0])));
            continue;
        }
        let Some(j) = ours.get(&l.addr) else {
            c.start(listing, l.addr, "missing");
            c.fail(format!("no instruction of ours at this address: {line}"));
            continue;
        };
        seen.insert(l.addr);
        let kind = j["kind"].as_str().unwrap();
        c.start(listing, l.addr, kind);
        let w = hex_words(&j["words"]);
        c.eq("words", &w[..l.words.len()], &l.words[..]);
        if l.cf {
            check_cf(c, j, l.rest, &mut banks);
        } else if l.words.len() == 2 {
            c.eq("kind", kind, "alu");
            check_alu(c, j, l.rest, &mut group, &banks);
            lit_base = l.addr + 2;
            lits = j["literals"].clone();
        } else {
            check_fetch(c, j, l.rest);
        }
    }
    for a in ours.keys() {
        if !seen.contains(a) {
            c.start(listing, *a, "extra");
            c.fail("instruction of ours that the listing does not have".into());
        }
    }
    ours.len()
}

fn listings() -> Vec<PathBuf> {
    let mut v = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "txt", &mut v);
    v
}

#[test]
fn every_instruction_agrees_with_the_answer_key() {
    let mut c = Checker::default();
    let ls = listings();
    assert_eq!(ls.len(), 62);
    let mut n = 0;
    for l in &ls {
        let bin = PathBuf::from(l.to_string_lossy().replace(".disasm.txt", ".bin"));
        n += check_program(&mut c, &bin, l);
    }
    println!("{} listings, {n} instructions of ours", ls.len());
    println!("{:<10} {:>12} {:>8}", "kind", "instructions", "fields");
    for (k, i) in &c.insts {
        println!("{k:<10} {i:>12} {:>8}", c.fields.get(k).copied().unwrap_or(0));
    }
    println!("total fields {}", c.fields.values().sum::<usize>());
    assert!(c.bad.is_empty(), "{} mismatches:\n{}", c.bad.len(), c.bad[..c.bad.len().min(40)].join("\n"));
    let insts: usize =
        c.insts.iter().filter(|(k, _)| !matches!(k.as_str(), "program" | "literal")).map(|(_, v)| v).sum();
    assert_eq!(insts, n, "instructions of the listings vs ours");
    for k in ["cf", "mem", "alu", "tex", "vtx", "literal"] {
        assert!(c.insts.get(k).copied().unwrap_or(0) > 0, "no {k} instruction checked");
    }
    assert!(c.fields.values().sum::<usize>() > 40_000);
}

/// Mismatches found when the listing of `test/stage` has `from` replaced by `to` once.
fn mutated(prog: &str, from: &str, to: &str) -> Vec<String> {
    let dir = corpus().join("latte-mesa/programs");
    let text = std::fs::read_to_string(dir.join(format!("{prog}.disasm.txt"))).unwrap();
    assert!(text.contains(from), "{prog}: {from}");
    let tmp =
        std::env::temp_dir().join(format!("latte-answer-key-{}-{}", std::process::id(), from.len() * 31 + to.len()));
    std::fs::create_dir_all(&tmp).unwrap();
    let f = tmp.join("x.disasm.txt");
    std::fs::write(&f, text.replacen(from, to, 1)).unwrap();
    let mut c = Checker::default();
    check_program(&mut c, &dir.join(format!("{prog}.bin")), &f);
    let _ = std::fs::remove_dir_all(&tmp);
    c.bad
}

/// A wrong field is caught: each edit of a listing gives mismatches naming that field.
#[test]
fn the_check_catches_a_wrong_field() {
    let cases = [
        ("t01_if_else/ps", "RID:18", "RID:19", "resource_id"),
        ("t01_if_else/ps", "R4.z,  R3.w", "R5.z,  R3.w", "dst.gpr"),
        ("t01_if_else/ps", "ELSE @16 POP:1", "ELSE @16 POP:2", "pop_count"),
        ("t01_if_else/ps", "JUMP @8", "JUMP @10", "target"),
        ("t01_if_else/ps", "0055 3E800000", "0055 3E800001", "literal"),
        ("t01_if_else/ps", "|PV.w|", "PV.w", "src.abs"),
        ("t01_if_else/ps", "z:M    PRED_SETGT", "z:     PRED_SETGT", "update_exec_mask"),
        ("t01_if_else/ps", "ALU 10 @24", "ALU 11 @24", "count"),
        ("t01_if_else/ps", "[0x40000000 2.000000]", "[0x40000001 2.000000]", "src.literal"),
        ("t17_gs_passthrough/gs", "R0.x +16b", "R0.x +32b", "offset"),
        ("t17_gs_passthrough/gs", "KC0[CB0:0-16]", "KC0[CB1:0-16]", "bank"),
        ("t17_gs_passthrough/gs", "WRITE_IND 4 R13.xyzw R14.xyz", "WRITE_IND 4 R13.xyzw R15.xyz", "index_gpr"),
        ("t17_gs_passthrough/gs", "FMT(DTA:35", "FMT(DTA:34", "data_format"),
        ("t24_indirect_temp/ps", "R[3+AR].x,  1.0", "R3.x,  1.0", "dst.rel"),
    ];
    for (prog, from, to, field) in cases {
        let bad = mutated(prog, from, to);
        assert!(!bad.is_empty() && bad.iter().all(|b| b.contains(field)), "{prog} {from} -> {to}: {bad:?}");
    }
    assert!(mutated("t01_if_else/ps", "RID:18", "RID:18").is_empty());
}

/// All 64 programs (the two GS copy programs have no listing) decode with no unknown
/// instruction, cover every word, and have the length their .meta gives.
#[test]
fn every_program_decodes_with_no_unknown_instruction() {
    let mut bins = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "bin", &mut bins);
    assert_eq!(bins.len(), 64);
    let mut total = 0;
    for b in &bins {
        let words = latte::gfd::program_words(&std::fs::read(b).unwrap());
        let p = Program::decode(&words, 0).unwrap_or_else(|e| panic!("{}: {e}", b.display()));
        let j = latte::json::program_json(&p);
        assert!(j.get("extra_words").is_none(), "{}", b.display());
        for i in j["instructions"].as_array().unwrap() {
            let op = i["op"].as_str().unwrap();
            assert!(!op.contains("_0x"), "{}: unknown instruction {op} at {}", b.display(), i["addr"]);
        }
        total += j["instructions"].as_array().unwrap().len();
        let meta = b.with_extension("meta");
        if let Ok(m) = std::fs::read_to_string(&meta) {
            let ndw = m.lines().find_map(|l| l.strip_prefix("ndw=")).unwrap();
            assert_eq!(words.len() as i64, num(ndw), "{}", b.display());
        }
    }
    assert!(total > 4400, "{total}");
}

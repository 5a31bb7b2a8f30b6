//! Differential test over random picasso programs (a smith in the wasm-smith style, driven by
//! `arbitrary::Unstructured`): source -> `asm` -> SHBIN -> `disasm` -> `asm` must give the same
//! SHBIN, and `disasm` must accept every program the assembler writes. The programs cover what
//! the corpus barely does: nested IF/ELSE and FOR blocks, BREAK/BREAKC, calls of every kind,
//! jumps to labels, padding NOPs, private uniforms, every constant directive, geometry modes.
//!
//! Case counts follow PROPTEST_CASES (CI sets 256).

use arbitrary::{Result, Unstructured};
use pica::asm::{assemble, Options, Source};
use pica::disasm::disassemble;
use pica::isa::Opcode;
use proptest::prelude::*;

struct Smith<'a, 'b> {
    u: &'b mut Unstructured<'a>,
    out: String,
    geometry: bool,
    procs: usize,
    labels: usize,
    labels_placed: usize,
    last_mova: bool,
    bools: u32,
    ints: u32,
    /// Makes procedure and uniform names unique across the files of one program.
    prefix: String,
    /// First output register the code may not write (7 when any file is a geometry shader,
    /// since the code may end up in its file).
    max_out: u32,
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Smith<'_, '_> {
    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push('\t');
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn swizzle(&mut self) -> Result<String> {
        if self.u.ratio(1, 2)? {
            return Ok(String::new());
        }
        let n = self.u.int_in_range(1..=4)?;
        let mut s = String::from(".");
        for _ in 0..n {
            s.push(*self.u.choose(&COMPONENTS)?);
        }
        Ok(s)
    }

    fn mask(&mut self) -> Result<String> {
        let bits = self.u.int_in_range(1..=15u8)?;
        if bits == 15 {
            return Ok(String::new());
        }
        Ok(format!(".{}", (0..4).filter(|i| bits & (8 >> i) != 0).map(|i| COMPONENTS[i]).collect::<String>()))
    }

    fn neg(&mut self) -> Result<&'static str> {
        Ok(if self.u.ratio(1, 4)? { "-" } else { "" })
    }

    fn dest(&mut self) -> Result<String> {
        let max_out = self.max_out;
        let reg = if self.u.ratio(1, 3)? {
            format!("o{}", self.u.int_in_range(0..=max_out - 1)?)
        } else {
            format!("r{}", self.u.int_in_range(0..=15)?)
        };
        Ok(format!("{reg}{}", self.mask()?))
    }

    /// A narrow source (v or r); `vin` is the one input register this instruction may read.
    fn narrow(&mut self, vin: u32) -> Result<String> {
        let reg = if self.u.ratio(1, 3)? { format!("v{vin}") } else { format!("r{}", self.u.int_in_range(0..=15)?) };
        Ok(format!("{}{reg}{}", self.neg()?, self.swizzle()?))
    }

    fn uniform_reg(&mut self) -> Result<String> {
        let idx = *self.u.choose(&["", "", "[a0.x]", "[a0.y]", "[aL]"])?;
        Ok(format!("c{}{idx}", self.u.int_in_range(0..=95)?))
    }

    fn wide(&mut self, vin: u32) -> Result<String> {
        if self.u.ratio(1, 2)? {
            let reg = self.uniform_reg()?;
            Ok(format!("{}{reg}{}", self.neg()?, self.swizzle()?))
        } else {
            self.narrow(vin)
        }
    }

    fn uniform_src(&mut self) -> Result<String> {
        let reg = self.uniform_reg()?;
        Ok(format!("{}{reg}{}", self.neg()?, self.swizzle()?))
    }

    fn condition(&mut self) -> Result<String> {
        let x = if self.u.ratio(1, 2)? { "cmp.x" } else { "!cmp.x" };
        let y = if self.u.ratio(1, 2)? { "cmp.y" } else { "!cmp.y" };
        Ok(match self.u.int_in_range(0..=3)? {
            0 => format!("{x} || {y}"),
            1 => format!("{y} && {x}"),
            2 => x.to_string(),
            _ => y.to_string(),
        })
    }

    fn statement(&mut self, depth: usize, in_for: bool) -> Result<()> {
        let vin = self.u.int_in_range(0..=15)?;
        let choice = self.u.int_in_range(0..=19)?;
        let was_mova = std::mem::replace(&mut self.last_mova, false);
        let text = match choice {
            0..=4 => {
                let ops: Vec<Opcode> = Opcode::arithmetic(2).collect();
                let opcode = *self.u.choose(&ops)?;
                let op = opcode.mnemonic().unwrap_or("add");
                let d = self.dest()?;
                if opcode.inverted().is_some() && self.u.ratio(1, 3)? {
                    format!("{op} {d}, {}, {}", self.narrow(vin)?, self.uniform_src()?)
                } else {
                    format!("{op} {d}, {}, {}", self.wide(vin)?, self.narrow(vin)?)
                }
            }
            5..=7 => {
                let ops: Vec<&str> = Opcode::arithmetic(1).filter_map(Opcode::mnemonic).collect();
                let op = *self.u.choose(&ops)?;
                format!("{op} {}, {}", self.dest()?, self.wide(vin)?)
            }
            8 if !was_mova => {
                self.last_mova = true;
                let t = *self.u.choose(&["a0.x", "a0.y", "a0.xy"])?;
                format!("mova {t}, {}", self.wide(vin)?)
            }
            9 => {
                let d = self.dest()?;
                if self.u.ratio(1, 2)? {
                    format!("mad {d}, {}, {}, {}", self.narrow(vin)?, self.wide(vin)?, self.narrow(vin)?)
                } else {
                    format!("mad {d}, {}, {}, {}", self.narrow(vin)?, self.narrow(vin)?, self.uniform_src()?)
                }
            }
            10 => {
                let ops = ["eq", "ne", "lt", "le", "gt", "ge"];
                let (a, b) = (*self.u.choose(&ops)?, *self.u.choose(&ops)?);
                format!("cmp {}, {a}, {b}, {}", self.wide(vin)?, self.narrow(vin)?)
            }
            11 if depth < 4 => {
                let head = if self.u.ratio(1, 2)? {
                    format!("ifu b{}", self.u.int_in_range(0..=15)?)
                } else {
                    format!("ifc {}", self.condition()?)
                };
                self.line(depth, &head);
                self.body(depth + 1, in_for)?;
                if self.u.ratio(1, 2)? {
                    self.line(depth, ".else");
                    self.body(depth + 1, in_for)?;
                }
                self.line(depth, ".end");
                return Ok(());
            }
            12 if depth < 4 => {
                let head = format!("for i{}", self.u.int_in_range(0..=3)?);
                self.line(depth, &head);
                self.body(depth + 1, true)?;
                self.line(depth, ".end");
                return Ok(());
            }
            13 if in_for => {
                if self.u.ratio(1, 2)? {
                    "break".to_string()
                } else {
                    format!("breakc {}", self.condition()?)
                }
            }
            14 if self.procs > 0 => {
                let p = self.u.int_in_range(0..=self.procs - 1)?;
                match self.u.int_in_range(0..=2)? {
                    0 => format!("call {}p{p}", self.prefix),
                    1 => format!("callc {}, {}p{p}", self.condition()?, self.prefix),
                    _ => format!("callu b{}, {}p{p}", self.u.int_in_range(0..=15)?, self.prefix),
                }
            }
            15 if self.labels > 0 => {
                let l = self.u.int_in_range(0..=self.labels - 1)?;
                if self.u.ratio(1, 2)? {
                    format!("jmpc {}, L{l}", self.condition()?)
                } else {
                    let not = if self.u.ratio(1, 2)? { "!" } else { "" };
                    format!("jmpu {not}b{}, L{l}", self.u.int_in_range(0..=15)?)
                }
            }
            16 if self.geometry => {
                let v = self.u.int_in_range(0..=2)?;
                let flags = *self.u.choose(&["", ", prim", ", inv", ", prim inv"])?;
                format!("setemit {v}{flags}")
            }
            17 if self.geometry => "emit".to_string(),
            18 => "nop".to_string(),
            _ => {
                self.last_mova = was_mova;
                return Ok(());
            }
        };
        self.line(depth, &text);
        Ok(())
    }

    fn body(&mut self, depth: usize, in_for: bool) -> Result<()> {
        // Top-level bodies are longer, so labels and blocks have room.
        let n = self.u.int_in_range(0..=if depth == 1 { 12 } else { 4 })?;
        for _ in 0..n {
            if depth == 1 && self.labels_placed < self.labels && self.u.ratio(1, 4)? {
                let l = format!("L{}:", self.labels_placed);
                self.labels_placed += 1;
                self.line(0, &l);
            }
            self.statement(depth, in_for)?;
        }
        Ok(())
    }

    fn header(&mut self) -> Result<()> {
        if self.geometry {
            let first = self.u.int_in_range(8..=40)?;
            let line = match self.u.int_in_range(0..=2)? {
                0 => format!(".gsh point c{first}"),
                1 => format!(".gsh variable c{first} {}", self.u.int_in_range(0..=8)?),
                _ => format!(
                    ".gsh fixed c{first} c{} {}",
                    self.u.int_in_range(0..=first - 1)?,
                    self.u.int_in_range(0..=8)?
                ),
            };
            self.line(0, &line);
        } else {
            let mut used = 0u16;
            for i in 0..self.u.int_in_range(0..=3)? {
                let r = self.u.int_in_range(0..=14)?;
                if used & (1 << r) == 0 {
                    used |= 1 << r;
                    self.line(0, &format!(".in input{i} v{r}"));
                }
            }
        }
        for i in 0..self.u.int_in_range(0..=5)? {
            let private = if self.u.ratio(1, 4)? { "_" } else { "" };
            let line = match self.u.int_in_range(0..=2)? {
                0 => format!(".fvec {private}{}uf{i}[{}]", self.prefix, self.u.int_in_range(1..=4)?),
                1 if self.ints < 2 && self.prefix.is_empty() => {
                    self.ints += 1;
                    format!(".ivec {private}ui{i}")
                }
                _ if self.bools < 10 && self.prefix.is_empty() => {
                    let n = self.u.int_in_range(1..=2)?;
                    self.bools += n;
                    format!(".bool {private}ub{i}[{n}]")
                }
                _ => continue,
            };
            self.line(0, &line);
        }
        let floats = [
            "0.0", "1.0", "-1.0", "0.5", "3.14159", "1e-3", "255.0", "0.125", "-7.25", "-0.0", "1e30", "-1e-30", "nan",
            "-inf", "1e-19", "0.1",
        ];
        for i in 0..self.u.int_in_range(0..=3)? {
            let v: Vec<&str> = (0..4).map(|_| self.u.choose(&floats).copied()).collect::<Result<_>>()?;
            self.line(0, &format!(".constf k{i}({})", v.join(", ")));
        }
        if self.u.ratio(1, 3)? {
            let n = self.u.int_in_range(1..=3)?;
            self.line(0, &format!(".constfa {}arr[{n}]", self.prefix));
            for _ in 0..self.u.int_in_range(1..=n)? {
                let v: Vec<&str> = (0..4).map(|_| self.u.choose(&floats).copied()).collect::<Result<_>>()?;
                self.line(1, &format!(".constfa ({})", v.join(", ")));
            }
            self.line(0, ".end");
            if self.u.ratio(1, 2)? {
                self.line(0, ".constf after_arr(1, 2, 3, 4)");
            }
        }
        if self.ints < 2 && self.prefix.is_empty() && self.u.ratio(1, 3)? {
            let v: Vec<String> =
                (0..4).map(|_| self.u.int_in_range(0..=255u32).map(|x| x.to_string())).collect::<Result<_>>()?;
            self.line(0, &format!(".consti n0({})", v.join(", ")));
        }
        if self.u.ratio(1, 3)? {
            let r = self.u.int_in_range(0..=14)?;
            let b = self.u.ratio(1, 2)?;
            self.line(0, &format!(".setb b{r} {b}"));
        }
        if self.u.ratio(1, 4)? {
            let line = format!(".setf c{}(1.5, 2, -0.25, 8)", self.u.int_in_range(0..=40)?);
            self.line(0, &line);
        }
        let kinds =
            ["position", "normalquat", "color", "texcoord0", "texcoord0w", "texcoord1", "texcoord2", "view", "dummy"];
        let mut used = 0u8;
        for _ in 0..self.u.int_in_range(0..=4)? {
            let r = self.u.int_in_range(0..=6)?;
            if used & (1 << r) == 0 {
                used |= 1 << r;
                let kind = *self.u.choose(&kinds)?;
                let mask = self.mask()?;
                self.line(0, &format!(".out - {kind} o{r}{mask}"));
            }
        }
        Ok(())
    }
}

/// One program of one to three files (each its own DVLE); procedures and uniform names of later
/// files carry a prefix so they stay distinct.
fn program(u: &mut Unstructured) -> Result<Vec<String>> {
    let count = if u.ratio(1, 4)? { u.int_in_range(2..=3)? } else { 1 };
    let geometry: Vec<bool> = (0..count).map(|_| u.ratio(1, 4)).collect::<Result<_>>()?;
    let max_out = if geometry.iter().any(|&g| g) { 7 } else { 16 };
    let mut files = Vec::new();
    for (k, &geometry) in geometry.iter().enumerate() {
        let prefix = if k == 0 { String::new() } else { format!("f{k}_") };
        let mut s = Smith {
            geometry,
            procs: u.int_in_range(0..=2)?,
            labels: u.int_in_range(0..=2)?,
            u: &mut *u,
            out: String::new(),
            labels_placed: 0,
            last_mova: false,
            bools: 0,
            ints: 0,
            prefix: prefix.clone(),
            max_out,
        };
        s.header()?;
        let main = if k == 0 { "main".to_string() } else { format!("{prefix}main") };
        if k > 0 {
            s.line(0, &format!(".entry {main}"));
        }
        for p in 0..s.procs {
            s.line(0, &format!(".proc {prefix}p{p}"));
            s.body(1, false)?;
            s.line(0, ".end");
        }
        s.line(0, &format!(".proc {main}"));
        s.body(1, false)?;
        while s.labels_placed < s.labels {
            let l = format!("L{}:", s.labels_placed);
            s.labels_placed += 1;
            s.line(0, &l);
        }
        s.line(1, "end");
        s.line(0, ".end");
        files.push(s.out);
    }
    Ok(files)
}

fn assemble_files<S: AsRef<str>>(files: &[S]) -> std::result::Result<pica::shbin::Shbin, String> {
    let names: Vec<String> = (0..files.len()).map(|i| format!("file{i}.pica")).collect();
    let sources: Vec<Source> = files.iter().zip(&names).map(|(t, n)| Source { name: n, text: t.as_ref() }).collect();
    assemble(&sources, &Options::default()).map(|a| a.shbin).map_err(|e| e.to_string())
}

/// Splits a disassembly at its file markers and assembles the parts in order.
fn reassemble(text: &str) -> std::result::Result<pica::shbin::Shbin, String> {
    let mut files = vec![String::new()];
    for line in text.lines() {
        if line.starts_with("; ---- next file") {
            files.push(String::new());
        }
        let f = files.last_mut().expect("one file");
        f.push_str(line);
        f.push('\n');
    }
    assemble_files(&files)
}

proptest! {
    #[test]
    fn random_programs_round_trip(bytes in proptest::collection::vec(any::<u8>(), 32..1024)) {
        let files = program(&mut Unstructured::new(&bytes)).expect("enough bytes are made up");
        let source = files.join("; ---- (file boundary of the smith program)\n");
        if std::env::var_os("SMITH_PRINT").is_some() { eprintln!("{source}\n-----"); }
        let first = match assemble_files(&files) {
            Ok(s) => s,
            // The smith writes only what picasso accepts; an error here is the smith's bug.
            Err(e) => return Err(TestCaseError::fail(format!("smith program rejected: {e}\n{source}"))),
        };
        let text = disassemble(&first).map_err(|e| TestCaseError::fail(format!("{e}\nsource:\n{source}")))?;
        let again = reassemble(&text).map_err(|e| TestCaseError::fail(format!("{e}\nsource:\n{source}\ndisassembly:\n{text}")))?;
        prop_assert_eq!(&again, &first, "source:\n{}\ndisassembly:\n{}", source, text);
        prop_assert_eq!(again.to_bytes(), first.to_bytes());
        // The raw-register form reassembles the same.
        let raw = pica::disasm::disassemble_with(&first, &pica::disasm::Options { raw_registers: true });
        prop_assert!(raw.warnings.is_empty());
        let again = reassemble(&raw.text).map_err(|e| TestCaseError::fail(format!("{e}\nsource:\n{source}\nraw disassembly:\n{}", raw.text)))?;
        prop_assert_eq!(&again, &first, "raw disassembly:\n{}", raw.text);
    }

    /// The same property over the assembler's own generator (`pica::asm::smith`), which writes
    /// programs in its own style (aliases, named uniforms, longer mains).
    #[test]
    fn asm_smith_programs_round_trip(bytes in proptest::collection::vec(any::<u8>(), 64..2048)) {
        let source = pica::asm::smith::program(&mut Unstructured::new(&bytes), &pica::asm::smith::Config::default())
            .expect("enough bytes are made up");
        let first = assemble_files(&[&source]).map_err(|e| TestCaseError::fail(format!("smith program rejected: {e}\n{source}")))?;
        let text = disassemble(&first).map_err(|e| TestCaseError::fail(format!("{e}\nsource:\n{source}")))?;
        let again = reassemble(&text).map_err(|e| TestCaseError::fail(format!("{e}\nsource:\n{source}\ndisassembly:\n{text}")))?;
        prop_assert_eq!(&again, &first, "source:\n{}\ndisassembly:\n{}", source, text);
    }
}

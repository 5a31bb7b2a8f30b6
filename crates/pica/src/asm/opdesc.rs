//! The operand-descriptor table as picasso builds it (picasso `findOrAddOpdesc`,
//! `optimizeOpdesc`, `swapOpdesc`), the one allocator of the crate: the assembler builds its
//! table with it and the disassembler replays it over a program to check that reassembly gives
//! the same table and indices.
//!
//! A descriptor is shared by every instruction whose meaningful bits agree with it; bits an
//! instruction ignores (components its destination mask leaves out, the w of a DP3, ...: the
//! opcode table's [`DescUse`] column) are don't-care, and a later instruction may fill them in.
//! MAD's descriptor field has only 5 bits, so a MAD's descriptor is moved below index 32 by
//! swapping it with an entry no MAD uses (picasso 2.5 changelog: "operand descriptor allocation
//! takes unused operands into account").

use crate::isa::{DescUse, Opcode, Output};

/// picasso's limit on descriptors per program.
pub const MAX_OPDESC: usize = 128;

/// Bits of a descriptor: destination mask, then 9 bits (negation + selector) per source.
pub const fn make(dest: u32, s1: u32, s2: u32, s3: u32) -> u32 {
    dest | s1 << 4 | s2 << 13 | s3 << 22
}

/// The parts of a descriptor that `opcode` uses: the destination mask (every opcode with a
/// destination, MOVA's a0 mask included) and the 9 bits of each of its sources.
pub fn compare_mask(opcode: Opcode) -> u32 {
    let dest = if opcode.output() == Output::Flags { 0 } else { 0xF };
    let src = |n: usize| if opcode.sources() >= n { 0x1FF } else { 0 };
    make(dest, src(1), src(2), src(3))
}

/// Selector bits of component `n` (0 = x) of a source, value `v`, in an 8-bit selector.
const fn comp(n: u32, v: u32) -> u32 {
    v << (6 - n * 2)
}

/// Clears from `mask` the selector components that `opcode` never reads.
fn ignore_unused(mask: u32, opcode: Opcode, desc: u32) -> u32 {
    let (mut u1, mut u2, mut u3) = (0, 0, 0);
    match opcode.desc_use() {
        DescUse::Lanes => {
            for i in 0..4 {
                if desc & (1 << (3 - i)) == 0 {
                    u1 |= comp(i, 3);
                }
            }
            u2 = u1;
            u3 = u1;
        }
        DescUse::Dp3 => {
            u1 = comp(3, 3);
            u2 = comp(3, 3);
        }
        DescUse::Dph => u1 = comp(3, 3),
        DescUse::X => u1 = comp(1, 3) | comp(2, 3) | comp(3, 3),
        DescUse::Mova => {
            if desc & 8 == 0 {
                u1 |= comp(0, 3);
            }
            if desc & 4 == 0 {
                u1 |= comp(1, 3);
            }
            u1 |= comp(2, 3) | comp(3, 3);
        }
        DescUse::Cmp => u1 = comp(2, 3) | comp(3, 3),
        DescUse::All | DescUse::None => {}
    }
    mask & !make(0, u1 << 1, u2 << 1, u3 << 1)
}

/// The number of descriptors an opcode's DESC field reaches (32 for MAD and MADI).
fn reach(opcode: Opcode) -> usize {
    let field = opcode.format().and_then(|f| f.fields().iter().find(|f| f.name == "desc"));
    field.map_or(MAX_OPDESC, |f| (f.max() as usize + 1).min(MAX_OPDESC))
}

/// Why a descriptor could not be allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpdescError {
    /// More than [`MAX_OPDESC`] distinct descriptors.
    Full,
    /// No slot below 32 is free for a MAD.
    MadSlot,
}

/// A descriptor's place in the table, and the pair of entries swapped to get it there (which the
/// caller applies to the indices of the instructions already allocated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocated {
    pub index: usize,
    pub swap: Option<(usize, usize)>,
}

impl Allocated {
    /// The index an instruction allocated earlier with `index` has after this allocation's swap.
    pub fn renumber(&self, index: usize) -> usize {
        match self.swap {
            Some((a, b)) if index == a => b,
            Some((a, b)) if index == b => a,
            _ => index,
        }
    }
}

/// The program-wide descriptor table.
#[derive(Debug, Default, Clone)]
pub struct OpdescTable {
    descs: Vec<u32>,
    masks: Vec<u32>,
    /// Bit n: descriptor n is used by an instruction with a short DESC field (a MAD), so it must
    /// stay where it is.
    pinned: u32,
}

impl OpdescTable {
    /// The descriptors, in table order.
    pub fn descs(&self) -> &[u32] {
        &self.descs
    }

    /// Allocates the descriptor `desc` of one `opcode` instruction: the first compatible entry
    /// (merging the bits it uses in) or a new one; for a MAD, moved below 32 if needed.
    pub fn allocate(&mut self, opcode: Opcode, desc: u32) -> Result<Allocated, OpdescError> {
        let index = self.find_or_add(opcode, desc)?;
        let reach = reach(opcode);
        if reach >= MAX_OPDESC {
            return Ok(Allocated { index, swap: None });
        }
        let mut done = Allocated { index, swap: None };
        if index >= reach {
            let free = (0..reach).find(|w| self.pinned & (1 << w) == 0).ok_or(OpdescError::MadSlot)?;
            self.descs.swap(free, index);
            self.masks.swap(free, index);
            done = Allocated { index: free, swap: Some((free, index)) };
        }
        self.pinned |= 1 << done.index;
        Ok(done)
    }

    fn find_or_add(&mut self, opcode: Opcode, desc: u32) -> Result<usize, OpdescError> {
        let mask = ignore_unused(compare_mask(opcode), opcode, desc);
        for i in 0..self.descs.len() {
            let common = mask & self.masks[i];
            if desc & common == self.descs[i] & common {
                self.descs[i] = (self.descs[i] & !mask) | (desc & mask);
                self.masks[i] |= mask;
                return Ok(i);
            }
        }
        if self.descs.len() == MAX_OPDESC {
            return Err(OpdescError::Full);
        }
        self.descs.push(desc);
        self.masks.push(mask);
        Ok(self.descs.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_components_are_shared() {
        let mut t = OpdescTable::default();
        // mov r0.x, r1.xyzw and mov r2.x, r3.xwww share a descriptor: only .x is read.
        let a = t.allocate(Opcode::Mov, make(8, 0x1B << 1, 0, 0)).unwrap();
        let b = t.allocate(Opcode::Mov, make(8, 0x3F << 1, 0, 0)).unwrap();
        assert_eq!(a.index, b.index);
        // dp4 reads every component: no sharing.
        let c = t.allocate(Opcode::Dp4, make(8, 0x1B << 1, 0x1B << 1, 0)).unwrap();
        let d = t.allocate(Opcode::Dp4, make(8, 0x3F << 1, 0x1B << 1, 0)).unwrap();
        assert_ne!(c.index, d.index);
    }

    #[test]
    fn twins_share_like_their_plain_forms() {
        // sgei reads like sge: the unwritten y component of SRC1 is don't-care.
        let mut t = OpdescTable::default();
        let a = t.allocate(Opcode::Sge, make(8, 0x1B << 1, 0x1B << 1, 0)).unwrap();
        let b = t.allocate(Opcode::Sgei, make(8, 0x0B << 1, 0x1B << 1, 0)).unwrap();
        assert_eq!(a.index, b.index);
    }

    #[test]
    fn compare_masks_by_format() {
        assert_eq!(compare_mask(Opcode::Add), make(0xF, 0x1FF, 0x1FF, 0));
        assert_eq!(compare_mask(Opcode::Dphi), make(0xF, 0x1FF, 0x1FF, 0));
        assert_eq!(compare_mask(Opcode::Mov), make(0xF, 0x1FF, 0, 0));
        assert_eq!(compare_mask(Opcode::Mova), make(0xF, 0x1FF, 0, 0));
        assert_eq!(compare_mask(Opcode::Cmp), make(0, 0x1FF, 0x1FF, 0));
        assert_eq!(compare_mask(Opcode::Madi), make(0xF, 0x1FF, 0x1FF, 0x1FF));
    }

    #[test]
    fn a_mad_descriptor_moves_below_32() {
        let mut t = OpdescTable::default();
        for k in 0..33u32 {
            let a = t.allocate(Opcode::Dp4, make(8, k << 1, 0, 0)).unwrap();
            assert_eq!((a.index, a.swap), (k as usize, None));
        }
        let m = t.allocate(Opcode::Mad, make(4, 40 << 1, 0, 0)).unwrap();
        assert_eq!((m.index, m.swap), (0, Some((0, 33))));
        assert_eq!(m.renumber(0), 33);
        assert_eq!(t.descs()[0], make(4, 40 << 1, 0, 0));
        // The next MAD that needs moving takes the next slot no MAD uses.
        let n = t.allocate(Opcode::Madi, make(2, 41 << 1, 0, 0)).unwrap();
        assert_eq!(n.swap, Some((1, 34)));
    }
}

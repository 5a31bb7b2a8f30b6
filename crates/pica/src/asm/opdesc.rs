//! The operand-descriptor table as picasso builds it: a descriptor is shared by every instruction
//! whose meaningful bits agree with it; bits an instruction ignores (components its destination
//! mask leaves out, the w of a DP3, ...) are don't-care, and a later instruction may fill them in.
//! MAD's descriptor field has only 5 bits, so a MAD's descriptor is moved below index 32 by
//! swapping it with an entry no MAD uses (picasso 2.5 changelog: "operand descriptor allocation
//! takes unused operands into account").

use crate::isa::Opcode;

/// picasso's limit on descriptors per program.
pub const MAX_OPDESC: usize = 128;

/// Bits of a descriptor: destination mask, then 9 bits (negation + selector) per source.
pub const fn make(dest: u32, s1: u32, s2: u32, s3: u32) -> u32 {
    dest | s1 << 4 | s2 << 13 | s3 << 22
}

/// Compare masks: which parts of a descriptor an instruction form uses.
pub const MASK_D123: u32 = make(0xF, 0x1FF, 0x1FF, 0x1FF);
pub const MASK_D12: u32 = make(0xF, 0x1FF, 0x1FF, 0);
pub const MASK_D1: u32 = make(0xF, 0x1FF, 0, 0);
pub const MASK_12: u32 = make(0, 0x1FF, 0x1FF, 0);

const fn comp(n: u32, v: u32) -> u32 {
    v << (6 - n * 2)
}

/// Clears from `mask` the selector components that `opcode` never reads.
fn ignore_unused(mask: u32, opcode: Opcode, desc: u32) -> u32 {
    let (mut u1, mut u2, mut u3) = (0, 0, 0);
    match opcode {
        Opcode::Add
        | Opcode::Mul
        | Opcode::Sge
        | Opcode::Slt
        | Opcode::Flr
        | Opcode::Max
        | Opcode::Min
        | Opcode::Mov
        | Opcode::Mad => {
            for i in 0..4 {
                if desc & (1 << (3 - i)) == 0 {
                    u1 |= comp(i, 3);
                }
            }
            u2 = u1;
            u3 = u1;
        }
        Opcode::Dp3 => {
            u1 = comp(3, 3);
            u2 = comp(3, 3);
        }
        Opcode::Dph => u1 = comp(3, 3),
        Opcode::Ex2 | Opcode::Lg2 | Opcode::Rcp | Opcode::Rsq => u1 = comp(1, 3) | comp(2, 3) | comp(3, 3),
        Opcode::Mova => {
            if desc & 8 == 0 {
                u1 |= comp(0, 3);
            }
            if desc & 4 == 0 {
                u1 |= comp(1, 3);
            }
            u1 |= comp(2, 3) | comp(3, 3);
        }
        Opcode::Cmp => u1 = comp(2, 3) | comp(3, 3),
        _ => {}
    }
    mask & !make(0, u1 << 1, u2 << 1, u3 << 1)
}

/// Why a descriptor could not be allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpdescError {
    /// More than [`MAX_OPDESC`] distinct descriptors.
    Full,
    /// No slot below 32 is free for a MAD.
    MadSlot,
}

/// The program-wide descriptor table.
#[derive(Debug, Default, Clone)]
pub struct OpdescTable {
    descs: Vec<u32>,
    masks: Vec<u32>,
    /// Bit n: descriptor n is used by a MAD (so it must stay below 32).
    mad: u32,
}

impl OpdescTable {
    /// The descriptors, in table order.
    pub fn descs(&self) -> &[u32] {
        &self.descs
    }

    /// Finds a compatible descriptor or adds one; returns its index.
    pub fn find_or_add(&mut self, opcode: Opcode, desc: u32, mask: u32) -> Result<usize, OpdescError> {
        let mask = ignore_unused(mask, opcode, desc);
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

    /// Marks `index` as used by a MAD, moving it below 32 if needed. Returns the final index and
    /// the swapped pair, which the caller applies to the instructions already emitted.
    pub fn settle_mad(&mut self, index: usize) -> Result<(usize, Option<(usize, usize)>), OpdescError> {
        let mut swap = None;
        let mut index = index;
        if index >= 32 {
            let free = (0..32).find(|w| self.mad & (1 << w) == 0).ok_or(OpdescError::MadSlot)?;
            self.descs.swap(free, index);
            self.masks.swap(free, index);
            swap = Some((free, index));
            index = free;
        }
        self.mad |= 1 << index;
        Ok((index, swap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_components_are_shared() {
        let mut t = OpdescTable::default();
        // mov r0.x, r1.xyzw and mov r2.x, r3.xwww share a descriptor: only .x is read.
        let a = t.find_or_add(Opcode::Mov, make(8, 0x1B << 1, 0, 0), MASK_D1).unwrap();
        let b = t.find_or_add(Opcode::Mov, make(8, 0x3F << 1, 0, 0), MASK_D1).unwrap();
        assert_eq!(a, b);
        // dp4 reads every component: no sharing.
        let c = t.find_or_add(Opcode::Dp4, make(8, 0x1B << 1, 0x1B << 1, 0), MASK_D12).unwrap();
        let d = t.find_or_add(Opcode::Dp4, make(8, 0x3F << 1, 0x1B << 1, 0), MASK_D12).unwrap();
        assert_ne!(c, d);
    }
}

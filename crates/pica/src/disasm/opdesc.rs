//! A model of picasso's operand descriptor allocation, run over the printed program to check
//! that reassembly gives the same descriptor table and indices.
//!
//! picasso (source/picasso_assembler.cpp, `findOrAddOpdesc`, `optimizeOpdesc`, `swapOpdesc`)
//! gives each instruction the first table entry that agrees with its descriptor on the bits both
//! care about, merging the new bits in, or appends a new entry; the components an opcode ignores
//! are left out of the comparison; a MAD whose entry lands at 32 or above swaps it with the first
//! entry below 32 that no MAD uses. Printing every swizzle and mask of the stored entry therefore
//! rebuilds a picasso-made table exactly; for other files this check says where it would not.

use crate::isa::{Format, Instruction, Opcode, OperandDescriptor, Operands};

const MASK_D1: u32 = 0x1FFF;
const MASK_D12: u32 = 0x3F_FFFF;
const MASK_D123: u32 = 0x7FFF_FFFF;
const MASK_12: u32 = 0x3F_FFF0;

/// Selector bits of component `i` (0 = x) of a source's swizzle, in an 8-bit selector.
fn comp(i: u32) -> u32 {
    3 << (6 - 2 * i)
}

/// Bits of source `n` (1-3) for selector bits `sel` (negation bit excluded).
fn src_bits(n: u32, sel: u32) -> u32 {
    (sel << 1) << [4, 13, 22][n as usize - 1]
}

/// picasso's `optimizeOpdesc`: components the opcode never reads leave the comparison mask.
fn optimize(mask: u32, opcode: Opcode, opdesc: u32) -> u32 {
    let (mut u1, mut u2, mut u3) = (0, 0, 0);
    match opcode {
        Opcode::Add
        | Opcode::Mul
        | Opcode::Sge
        | Opcode::Sgei
        | Opcode::Slt
        | Opcode::Slti
        | Opcode::Flr
        | Opcode::Max
        | Opcode::Min
        | Opcode::Mov
        | Opcode::Mad
        | Opcode::Madi => {
            for i in 0..4 {
                if opdesc & (8 >> i) == 0 {
                    u1 |= comp(i);
                }
            }
            u2 = u1;
            u3 = u1;
        }
        Opcode::Dp3 => {
            u1 = comp(3);
            u2 = comp(3);
        }
        Opcode::Dph | Opcode::Dphi => u1 = comp(3),
        Opcode::Ex2 | Opcode::Lg2 | Opcode::Rcp | Opcode::Rsq => u1 = comp(1) | comp(2) | comp(3),
        Opcode::Mova => {
            if opdesc & 8 == 0 {
                u1 |= comp(0);
            }
            if opdesc & 4 == 0 {
                u1 |= comp(1);
            }
            u1 |= comp(2) | comp(3);
        }
        Opcode::Cmp => u1 = comp(2) | comp(3),
        _ => {}
    }
    mask & !(src_bits(1, u1) | src_bits(2, u2) | src_bits(3, u3))
}

/// The descriptor picasso builds from the printed operands of `ins` (absent sources are 0, as in
/// picasso's `OPDESC_MAKE` calls) and its comparison mask; `None` for instructions without one.
fn printed(ins: &Instruction, stored: OperandDescriptor) -> Option<(u32, u32, u8)> {
    let src = |n: usize| (stored.negate(n) as u32 | (stored.swizzle(n).0 as u32) << 1) << [4, 13, 22][n - 1];
    let dest = stored.dest_mask() as u32;
    match (ins.opcode.format()?, ins.operands) {
        (Format::F1 | Format::F1i, Operands::Arith { desc, .. }) => Some((dest | src(1) | src(2), MASK_D12, desc)),
        (Format::F1u, Operands::Arith { desc, .. }) => Some((dest | src(1), MASK_D1, desc)),
        (Format::F1c, Operands::Cmp { desc, .. }) => Some((src(1) | src(2), MASK_12, desc)),
        (Format::F5 | Format::F5i, Operands::Mad { desc, .. }) => {
            Some((dest | src(1) | src(2) | src(3), MASK_D123, desc))
        }
        _ => None,
    }
}

/// Runs picasso's allocation over `code` (in order) and reports the first difference from the
/// stored table and indices, as (instruction index or `None` for the table, message).
pub(crate) fn check(code: &[Instruction], descs: &[[u32; 2]]) -> Result<(), (Option<u32>, String)> {
    let mut table: Vec<u32> = Vec::new();
    let mut masks: Vec<u32> = Vec::new();
    let mut is_mad = 0u32;
    // (pc, assigned index, opcode is in the format-1 family or CMP that swaps rewrite)
    let mut assigned: Vec<(u32, usize, bool)> = Vec::new();
    for (pc, ins) in code.iter().enumerate() {
        let Some(stored_index) = (match ins.operands {
            Operands::Arith { desc, .. } | Operands::Cmp { desc, .. } | Operands::Mad { desc, .. } => Some(desc),
            _ => None,
        }) else {
            continue;
        };
        let Some(stored) = descs.get(stored_index as usize) else {
            return Err((Some(pc as u32), format!("operand descriptor {stored_index} is past the table")));
        };
        let Some((opdesc, mask, _)) = printed(ins, OperandDescriptor(stored[0])) else { continue };
        let mask = optimize(mask, ins.opcode, opdesc);
        let found = (0..table.len()).find(|&i| {
            let min = mask & masks[i];
            opdesc & min == table[i] & min
        });
        let mut index = match found {
            Some(i) => {
                table[i] = (table[i] & !mask) | (opdesc & mask);
                masks[i] |= mask;
                i
            }
            None => {
                if table.len() == 128 {
                    return Err((Some(pc as u32), "more than 128 operand descriptors".into()));
                }
                table.push(opdesc);
                masks.push(mask);
                table.len() - 1
            }
        };
        let mad = matches!(ins.opcode, Opcode::Mad | Opcode::Madi);
        if mad && index >= 32 {
            let Some(which) = (0..32).find(|&w| is_mad & (1 << w) == 0) else {
                return Err((Some(pc as u32), "no operand descriptor below 32 left for MAD".into()));
            };
            table.swap(which, index);
            masks.swap(which, index);
            for entry in assigned.iter_mut().filter(|e| e.2) {
                if entry.1 == which {
                    entry.1 = index;
                } else if entry.1 == index {
                    entry.1 = which;
                }
            }
            index = which;
        }
        if mad {
            is_mad |= 1 << index;
        }
        let rewritten = ins.opcode.first_bits6() < 0x20 || ins.opcode == Opcode::Cmp;
        assigned.push((pc as u32, index, rewritten));
    }
    for &(pc, index, _) in &assigned {
        if let Operands::Arith { desc, .. } | Operands::Cmp { desc, .. } | Operands::Mad { desc, .. } =
            code[pc as usize].operands
        {
            if desc as usize != index {
                return Err((Some(pc), format!("uses operand descriptor {desc}, picasso would assign {index}")));
            }
        }
    }
    if table.len() != descs.len() {
        return Err((None, format!("{} operand descriptors stored, picasso would build {}", descs.len(), table.len())));
    }
    for (i, (&t, d)) in table.iter().zip(descs).enumerate() {
        if t != d[0] || d[1] != 0 {
            return Err((
                None,
                format!("operand descriptor {i} is {:#010x} {:#x}, picasso would write {t:#010x} 0", d[0], d[1]),
            ));
        }
    }
    Ok(())
}

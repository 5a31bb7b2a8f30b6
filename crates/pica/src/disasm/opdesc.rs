//! A model of picasso's operand descriptor allocation, run over the printed program to check
//! that reassembly gives the same descriptor table and indices.
//!
//! picasso (source/picasso_assembler.cpp, `findOrAddOpdesc`, `optimizeOpdesc`, `swapOpdesc`)
//! gives each instruction the first table entry that agrees with its descriptor on the bits both
//! care about, merging the new bits in, or appends a new entry; the components an opcode ignores
//! are left out of the comparison; a MAD whose entry lands at 32 or above swaps it with the first
//! entry below 32 that no MAD uses. Printing every swizzle and mask of the stored entry therefore
//! rebuilds a picasso-made table exactly; for other files this check says where it would not.

use crate::asm::opdesc::{compare_mask, OpdescError, OpdescTable};
use crate::isa::{Instruction, OperandDescriptor, Operands};

/// The descriptor picasso builds from the printed operands of `ins`: the parts its opcode uses
/// (absent sources are 0, as in picasso's `OPDESC_MAKE` calls); `None` for instructions without one.
fn printed(ins: &Instruction, stored: OperandDescriptor) -> Option<u32> {
    let mask = compare_mask(ins.opcode);
    (ins.opcode.sources() > 0).then_some(stored.0 & mask)
}

/// Runs picasso's allocation over `code` (in order) and reports the first difference from the
/// stored table and indices, as (instruction index or `None` for the table, message).
pub(crate) fn check(code: &[Instruction], descs: &[[u32; 2]]) -> Result<(), (Option<u32>, String)> {
    let mut table = OpdescTable::default();
    // (pc, assigned index)
    let mut assigned: Vec<(u32, usize)> = Vec::new();
    for (pc, ins) in code.iter().enumerate() {
        let Some(stored_index) = descriptor_index(ins) else { continue };
        let Some(stored) = descs.get(stored_index as usize) else {
            return Err((Some(pc as u32), format!("operand descriptor {stored_index} is past the table")));
        };
        let Some(opdesc) = printed(ins, OperandDescriptor(stored[0])) else { continue };
        let a = table.allocate(ins.opcode, opdesc).map_err(|e| {
            let message = match e {
                OpdescError::Full => "more than 128 operand descriptors",
                OpdescError::MadSlot => "no operand descriptor below 32 left for MAD",
            };
            (Some(pc as u32), message.to_string())
        })?;
        for entry in &mut assigned {
            entry.1 = a.renumber(entry.1);
        }
        assigned.push((pc as u32, a.index));
    }
    let table = table.descs();
    for &(pc, index) in &assigned {
        if let Some(desc) = descriptor_index(&code[pc as usize]) {
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

fn descriptor_index(ins: &Instruction) -> Option<u8> {
    match ins.operands {
        Operands::Arith { desc, .. } | Operands::Cmp { desc, .. } | Operands::Mad { desc, .. } => Some(desc),
        _ => None,
    }
}

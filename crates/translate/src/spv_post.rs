//! A post-pass over SPIR-V words: `NoContraction` on every float arithmetic result.
//!
//! naga never writes `NoContraction`, and lavapipe reassociates and folds float operations that
//! lack it ((x*1.1)*1.3 wrong in 330 of 1,024 cases, (x+y)-y folded to x:
//! docs/specs/naga-wgpu-facts.md "Float arithmetic on the device"). Decorating every float
//! arithmetic result made every case exact there, and spirv-val accepts it.
//!
//! Opcode, decoration, capability and execution-mode numbers come from the `spirv` crate (the
//! one naga's writer uses).

use spirv::{Capability, Decoration, ExecutionMode, Op};

/// Opcodes of float arithmetic whose result must not be contracted or reassociated
/// (SPIR-V 1.6 section 3.52.13).
const FLOAT_ARITH: [Op; 13] = [
    Op::FNegate,
    Op::FAdd,
    Op::FSub,
    Op::FMul,
    Op::FDiv,
    Op::FRem,
    Op::FMod,
    Op::VectorTimesScalar,
    Op::MatrixTimesScalar,
    Op::VectorTimesMatrix,
    Op::MatrixTimesVector,
    Op::MatrixTimesMatrix,
    Op::Dot,
];

fn is_float_arith(op: u32) -> bool {
    // The opcodes lie in 127..=148: one range check before the list (this runs per instruction).
    (Op::FNegate as u32..=Op::Dot as u32).contains(&op) && FLOAT_ARITH.iter().any(|&o| o as u32 == op)
}

/// First opcodes that may open the annotation section (OpDecorate .. OpGroupMemberDecorate) or,
/// without annotations, the types/constants/globals section.
fn opens_section(op: u32) -> bool {
    (Op::Decorate as u32..=Op::GroupMemberDecorate as u32).contains(&op)
        || (Op::TypeVoid as u32..=Op::TypeForwardPointer as u32).contains(&op)
        || (Op::ConstantTrue as u32..=Op::SpecConstantOp as u32).contains(&op)
        || op == Op::Variable as u32
}

/// The instruction word: word count and opcode.
fn inst(count: usize, op: Op) -> u32 {
    (count as u32) << 16 | op as u32
}

/// Adds `OpDecorate %id NoContraction` for every float arithmetic result. Words that do not
/// parse as SPIR-V are returned unchanged.
pub(crate) fn add_no_contraction(words: &[u32]) -> Vec<u32> {
    const HEADER: usize = 5;
    if words.len() < HEADER || words[0] != spirv::MAGIC_NUMBER {
        return words.to_vec();
    }
    let mut ids = Vec::new();
    let mut insert_at = None;
    let mut pos = HEADER;
    while pos < words.len() {
        let count = (words[pos] >> 16) as usize;
        let op = words[pos] & 0xFFFF;
        if count == 0 || pos + count > words.len() {
            return words.to_vec();
        }
        if insert_at.is_none() && opens_section(op) {
            insert_at = Some(pos);
        }
        if is_float_arith(op) && count >= 3 {
            ids.push(words[pos + 2]);
        }
        pos += count;
    }
    let Some(at) = insert_at else { return words.to_vec() };
    let mut out = Vec::with_capacity(words.len() + ids.len() * 3);
    out.extend_from_slice(&words[..at]);
    for id in ids {
        out.extend_from_slice(&[inst(3, Op::Decorate), id, Decoration::NoContraction as u32]);
    }
    out.extend_from_slice(&words[at..]);
    out
}

const OP_CAPABILITY: u32 = Op::Capability as u32;
const OP_ENTRY_POINT: u32 = Op::EntryPoint as u32;

/// Declares `SignedZeroInfNanPreserve` for 32-bit floats on every entry point
/// (SPV_KHR_float_controls, Vulkan 1.2 float controls): without it a Vulkan driver may assume that
/// no float is NaN or infinite and fold, for example, `x * 0.0` to `0.0`, which lavapipe did to
/// a NaN operand of a dot product. The special cases the PICA translation keeps (inf * 0 = 0,
/// NaN propagation, MAX/MIN NaN order) need the IEEE behaviour. Words that do not parse are
/// returned unchanged.
pub(crate) fn preserve_inf_nan(words: &[u32]) -> Vec<u32> {
    const HEADER: usize = 5;
    if words.len() < HEADER || words[0] != spirv::MAGIC_NUMBER {
        return words.to_vec();
    }
    // One pass finds where the extension goes (before the first instruction that is not a
    // capability) and the modes (before the first one after the entry points); the words are
    // then copied in three slices.
    let mut pos = HEADER;
    let mut entries = Vec::new();
    let (mut ext_at, mut modes_at) = (None, None);
    while pos < words.len() {
        let count = (words[pos] >> 16) as usize;
        let op = words[pos] & 0xFFFF;
        if count == 0 || pos + count > words.len() {
            return words.to_vec();
        }
        if op != OP_CAPABILITY && ext_at.is_none() {
            ext_at = Some(pos);
        }
        if op != OP_ENTRY_POINT && !entries.is_empty() && modes_at.is_none() {
            modes_at = Some(pos);
        }
        if op == OP_ENTRY_POINT && count >= 3 {
            entries.push(words[pos + 2]);
        }
        pos += count;
    }
    let mut out = Vec::with_capacity(words.len() + 16 + 4 * entries.len());
    let ext_at = ext_at.unwrap_or(words.len());
    out.extend_from_slice(&words[..ext_at]);
    if ext_at < words.len() {
        out.extend_from_slice(&[inst(2, Op::Capability), Capability::SignedZeroInfNanPreserve as u32]);
        let name = b"SPV_KHR_float_controls\0";
        let mut lit: Vec<u32> = name
            .chunks(4)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect();
        if name.len().is_multiple_of(4) {
            lit.push(0);
        }
        out.push(inst(1 + lit.len(), Op::Extension));
        out.extend_from_slice(&lit);
    }
    match modes_at {
        Some(at) => {
            out.extend_from_slice(&words[ext_at..at]);
            for &id in &entries {
                out.extend_from_slice(&[
                    inst(4, Op::ExecutionMode),
                    id,
                    ExecutionMode::SignedZeroInfNanPreserve as u32,
                    32,
                ]);
            }
            out.extend_from_slice(&words[at..]);
        }
        None => out.extend_from_slice(&words[ext_at..]),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decorates_fadd_before_first_annotation() {
        // header, OpCapability Shader, OpDecorate %9 Block, OpTypeFloat %2 32, OpFAdd %2 %5 %3 %4
        let words = vec![
            0x0723_0203,
            0x0001_0300,
            0,
            10,
            0,
            2 << 16 | 17,
            1,
            3 << 16 | 71,
            9,
            2,
            3 << 16 | 22,
            2,
            32,
            5 << 16 | 129,
            2,
            5,
            3,
            4,
        ];
        let out = add_no_contraction(&words);
        assert_eq!(&out[7..10], &[3 << 16 | 71, 5, 42]);
        assert_eq!(out.len(), words.len() + 3);
        assert_eq!(&out[10..], &words[7..]);
    }

    #[test]
    fn leaves_non_spirv_alone() {
        assert_eq!(add_no_contraction(&[1, 2, 3]), vec![1, 2, 3]);
        let truncated = vec![0x0723_0203, 0x0001_0300, 0, 10, 0, 9 << 16 | 17, 1];
        assert_eq!(add_no_contraction(&truncated), truncated);
    }
}

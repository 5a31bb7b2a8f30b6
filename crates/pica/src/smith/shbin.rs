//! A generated program as a SHBIN (one DVLE, its integer and boolean uniforms as constants), so
//! that the disassembler can print it as picasso text and the assembler read it back.

use super::gen::SmithProgram;
use crate::interp::ShaderKind;
use crate::shbin::{Constant, Dvle, Dvlp, GeometryMode, Output, OutputKind, ShaderType, Shbin};

impl SmithProgram {
    /// The program as a SHBIN: code and descriptors in the DVLP; one DVLE with entry 0, `main`
    /// ending at its END, i0-i3 and the booleans set to true as constants, and o0-o6 as
    /// position, normalquat, color, texcoord0, texcoord0w, texcoord1 and texcoord2 (point mode
    /// for geometry programs).
    pub fn to_shbin(&self) -> Shbin {
        let code = &self.built.code;
        let main_len = self.ast.main_len() as u32;
        let mut constants: Vec<Constant> =
            self.int_uniforms.iter().enumerate().map(|(reg, v)| Constant::Int { reg: reg as u8, value: *v }).collect();
        for (reg, &b) in self.bool_uniforms.iter().enumerate() {
            if b {
                constants.push(Constant::Bool { reg: reg as u8, value: true });
            }
        }
        // The generator writes o0-o6 only; each gets one of the seven semantics with four
        // components.
        let outputs = OUTPUT_KINDS
            .iter()
            .enumerate()
            .map(|(o, &kind)| Output { kind, reg: o as u16, mask: 0xF, unknown: 0 })
            .collect();
        Shbin {
            program: Dvlp {
                code: code.clone(),
                descriptors: self.built.descriptor_words.iter().map(|&d| [d, 0]).collect(),
                unknown_18: (0x28 + 4 * code.len() + 8 * self.built.descriptor_words.len()) as u32,
                ..Dvlp::default()
            },
            executables: vec![Dvle {
                shader_type: if self.kind == ShaderKind::Geometry { ShaderType::Geometry } else { ShaderType::Vertex },
                main: 0,
                endmain: main_len,
                output_mask: (1 << OUTPUT_KINDS.len()) - 1,
                geometry_mode: GeometryMode::Point,
                constants,
                outputs,
                ..Dvle::default()
            }],
        }
    }
}

impl SmithProgram {
    /// The program as picasso source, printed by the disassembler from [`SmithProgram::to_shbin`].
    /// It assembles with `pica::asm` into a program that behaves the same (tested); picasso
    /// numbers operand descriptors in its own order, so the words can differ in their DESC
    /// fields.
    pub fn to_picasso(&self) -> String {
        crate::disasm::disassemble_lossy(&self.to_shbin()).text
    }
}

/// The semantics of o0-o6 in [`SmithProgram::to_shbin`].
const OUTPUT_KINDS: [OutputKind; 7] = [
    OutputKind::Position,
    OutputKind::NormalQuat,
    OutputKind::Color,
    OutputKind::TexCoord0,
    OutputKind::TexCoord0W,
    OutputKind::TexCoord1,
    OutputKind::TexCoord2,
];

//! GX display lists as they appear in material and shader blocks: BP loads (0x61), NOPs, and
//! the CP / XF / indexed loads beside them, which are skipped with their lengths.
//!
//! Command lengths (GX FIFO format, as Dolphin's OpcodeDecoding and noclip's display-list runner
//! read them): 0x00 NOP 1 byte; 0x08 CP load 1+1+4; 0x10 XF load 1+2+2+4n with n = field+1;
//! 0x20/0x28/0x30/0x38 indexed XF loads 1+4; 0x40 call 1+4+4; 0x48 invalidate vertex cache 1;
//! 0x61 BP load 1+4. Draw commands (0x80-0xBF) carry vertex data whose size depends on the vertex
//! format, which a register list does not have: they are an error.

use serde::Serialize;

use crate::bp::BpRegs;
use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;

/// One decoded display-list command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum Command {
    /// 0x00.
    Nop,
    /// 0x61: a BP register write.
    Bp {
        /// Register address.
        address: u8,
        /// 24-bit value.
        value: u32,
    },
    /// 0x08: a CP register write.
    Cp {
        /// Register address.
        address: u8,
        /// Value.
        value: u32,
    },
    /// 0x10: consecutive XF register writes.
    Xf {
        /// First XF address.
        address: u16,
        /// Values.
        values: Vec<u32>,
    },
    /// 0x20/0x28/0x30/0x38: indexed XF load (A-D).
    LoadIndexed {
        /// The opcode (selects A-D).
        opcode: u8,
        /// Index, length and address word.
        value: u32,
    },
    /// 0x40: call another display list.
    Call {
        /// Address.
        address: u32,
        /// Size.
        size: u32,
    },
    /// 0x48.
    InvalidateVertexCache,
}

/// A command and the absolute byte offset of its opcode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Located {
    /// Absolute offset of the opcode byte.
    pub offset: u64,
    /// The command.
    #[serde(flatten)]
    pub command: Command,
}

/// Decodes every command of `bytes`; `base` is the absolute offset of `bytes[0]` for errors.
///
/// # Errors
/// A truncated command, an unknown opcode or a draw command, at its absolute offset.
pub fn decode(bytes: &[u8], base: u64) -> Result<Vec<Located>> {
    let r = Reader::new(bytes);
    let at = |e: Error| Error::new(e.offset + base, e.kind);
    let mut out = Vec::new();
    let mut i = 0usize;
    while i < bytes.len() {
        let op = bytes[i];
        let offset = base + i as u64;
        let (command, len) = match op {
            0x00 => (Command::Nop, 1),
            0x61 => {
                let bag = r.u32(i + 1, "BP load").map_err(at)?;
                (Command::Bp { address: (bag >> 24) as u8, value: bag & 0xFF_FFFF }, 5)
            }
            0x08 => {
                let address = r.u8(i + 1, "CP load").map_err(at)?;
                let value = r.u32(i + 2, "CP load").map_err(at)?;
                (Command::Cp { address, value }, 6)
            }
            0x10 => {
                let n = r.u16(i + 1, "XF load length").map_err(at)? as usize + 1;
                let address = r.u16(i + 3, "XF load address").map_err(at)?;
                // The length is checked against the remaining bytes before anything is allocated.
                r.bytes(i + 5, 4 * n, "XF load values").map_err(at)?;
                let values =
                    (0..n).map(|k| r.u32(i + 5 + 4 * k, "XF load values")).collect::<Result<Vec<_>>>().map_err(at)?;
                (Command::Xf { address, values }, 5 + 4 * n)
            }
            0x20 | 0x28 | 0x30 | 0x38 => {
                let value = r.u32(i + 1, "indexed load").map_err(at)?;
                (Command::LoadIndexed { opcode: op, value }, 5)
            }
            0x40 => {
                let address = r.u32(i + 1, "display-list call").map_err(at)?;
                let size = r.u32(i + 5, "display-list call").map_err(at)?;
                (Command::Call { address, size }, 9)
            }
            0x48 => (Command::InvalidateVertexCache, 1),
            0x80..=0xBF => return Err(Error::new(offset, ErrorKind::DrawCommand(op))),
            _ => return Err(Error::new(offset, ErrorKind::UnknownCommand(op))),
        };
        out.push(Located { offset, command });
        i += len;
    }
    Ok(out)
}

/// Decodes `bytes` and applies its BP writes to `regs` (other commands are skipped).
///
/// # Errors
/// As [`decode`]; on error `regs` holds the writes before the failing command.
pub fn apply(regs: &mut BpRegs, bytes: &[u8], base: u64) -> Result<Vec<Located>> {
    let commands = decode(bytes, base)?;
    for c in &commands {
        if let Command::Bp { address, value } = c.command {
            regs.write(address, value);
        }
    }
    Ok(commands)
}

/// Encodes commands back to display-list bytes (the inverse of [`decode`]).
pub fn encode(commands: &[Command]) -> Vec<u8> {
    let mut out = Vec::new();
    for c in commands {
        match c {
            Command::Nop => out.push(0),
            Command::Bp { address, value } => {
                out.push(0x61);
                out.extend_from_slice(&(((*address as u32) << 24) | (value & 0xFF_FFFF)).to_be_bytes());
            }
            Command::Cp { address, value } => {
                out.push(0x08);
                out.push(*address);
                out.extend_from_slice(&value.to_be_bytes());
            }
            Command::Xf { address, values } => {
                out.push(0x10);
                // An XF load holds 1..=65536 values; an empty list is written as one zero value.
                let n = values.len().clamp(1, 0x1_0000);
                out.extend_from_slice(&((n - 1) as u16).to_be_bytes());
                out.extend_from_slice(&address.to_be_bytes());
                for k in 0..n {
                    out.extend_from_slice(&values.get(k).copied().unwrap_or(0).to_be_bytes());
                }
            }
            Command::LoadIndexed { opcode, value } => {
                out.push(*opcode & 0x38);
                out.extend_from_slice(&value.to_be_bytes());
            }
            Command::Call { address, size } => {
                out.push(0x40);
                out.extend_from_slice(&address.to_be_bytes());
                out.extend_from_slice(&size.to_be_bytes());
            }
            Command::InvalidateVertexCache => out.push(0x48),
        }
    }
    out
}

/// The bytes of one BP load command.
pub fn bp_load(address: u8, value: u32) -> [u8; 5] {
    let w = (((address as u32) << 24) | (value & 0xFF_FFFF)).to_be_bytes();
    [0x61, w[0], w[1], w[2], w[3]]
}

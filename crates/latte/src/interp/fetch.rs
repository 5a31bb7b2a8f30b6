//! VTX fetches: address, data format, number format and endian swap (latte-semantics-facts.md
//! §4.2), from host [`Buffer`]s or, for buffer ids 0x80-0x8F, the uniform blocks (§4.4).

use super::error::{unsupported, At, InterpError, Result};
use super::state::{Buffer, Inputs};
use crate::isa::VtxInst;

/// Component layout of a DATA_FORMAT: bits per component (x first), whether the components
/// are floats, and whether they are packed into one 16- or 32-bit word (x in the low bits: the
/// names list components from the high bits, so FMT_10_11_11 is x 11, y 11, z 10 bits, as
/// Mesa's R11G11B10 mapping shows). Values of Mesa's r600 `EVTXDataFormat` / decaf
/// `SQ_DATA_FORMAT`. The depth formats (8_24, 24_8 and their FLOAT forms, X24_8_32_FLOAT) are
/// not vertex formats and are not read.
pub fn data_format(fmt: u8) -> Option<(&'static [u32], bool, bool)> {
    let (c, float, packed): (&'static [u32], bool, bool) = match fmt {
        1 => (&[8], false, false),
        2 => (&[4, 4], false, true),
        3 => (&[2, 3, 3], false, true),
        5 => (&[16], false, false),
        6 => (&[16], true, false),
        7 => (&[8, 8], false, false),
        8 => (&[5, 6, 5], false, true),
        9 => (&[5, 5, 6], false, true),
        10 => (&[5, 5, 5, 1], false, true),
        11 => (&[4, 4, 4, 4], false, true),
        12 => (&[1, 5, 5, 5], false, true),
        13 => (&[32], false, false),
        14 => (&[32], true, false),
        15 => (&[16, 16], false, false),
        16 => (&[16, 16], true, false),
        21 => (&[11, 11, 10], false, true),
        22 => (&[11, 11, 10], true, true),
        23 => (&[10, 11, 11], false, true),
        24 => (&[10, 11, 11], true, true),
        25 => (&[10, 10, 10, 2], false, true),
        26 => (&[8, 8, 8, 8], false, false),
        27 => (&[2, 10, 10, 10], false, true),
        29 => (&[32, 32], false, false),
        30 => (&[32, 32], true, false),
        31 => (&[16, 16, 16, 16], false, false),
        32 => (&[16, 16, 16, 16], true, false),
        34 => (&[32, 32, 32, 32], false, false),
        35 => (&[32, 32, 32, 32], true, false),
        44 => (&[8, 8, 8], false, false),
        45 => (&[16, 16, 16], false, false),
        46 => (&[16, 16, 16], true, false),
        47 => (&[32, 32, 32], false, false),
        48 => (&[32, 32, 32], true, false),
        _ => return None,
    };
    Some((c, float, packed))
}

/// An unsigned small float with a 5-bit exponent (bias 15) and `m` mantissa bits (the 11- and
/// 10-bit components of FMT_10_11_11_FLOAT / FMT_11_11_10_FLOAT).
pub(crate) fn small_float(raw: u32, m: u32) -> f32 {
    let (e, f) = ((raw >> m) & 0x1F, raw & ((1 << m) - 1));
    match e {
        0 => f as f32 / (1u32 << m) as f32 * f32::from_bits(0x3880_0000), // 2^-14
        31 if f == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => f32::from_bits(((e + 112) << 23) | (f << (23 - m))),
    }
}

/// binary16 to binary32.
pub(crate) fn half_to_f32(h: u16) -> f32 {
    let s = ((h >> 15) as u32) << 31;
    let e = ((h >> 10) & 0x1F) as i32;
    let m = (h & 0x3FF) as u32;
    let bits = match (e, m) {
        (0, 0) => s,
        (0, _) => {
            // Subnormal: value m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if s != 0 { -v } else { v };
        }
        (31, 0) => s | 0x7F80_0000,
        (31, _) => s | 0x7FC0_0000 | (m << 13),
        _ => s | (((e - 15 + 127) as u32) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// One component's raw bits to a lane value (§4.2 NUM_FORMAT): NORM to [0,1] / [-1,1]
/// (SRF_MODE 0 clamps to -1, 1 uses (2v+1)/(2^n-1)), INT as bits (sign-extended), SCALED as the
/// integer's float value.
fn convert(raw: u32, bits: u32, float: bool, num: u8, signed: bool, srf: bool) -> Option<u32> {
    if float {
        return Some(match bits {
            16 => half_to_f32(raw as u16).to_bits(),
            11 | 10 => small_float(raw, bits - 5).to_bits(),
            _ => raw,
        });
    }
    let sext = |v: u32| -> i64 {
        if bits == 32 {
            v as i32 as i64
        } else {
            let sh = 32 - bits;
            ((v << sh) as i32 >> sh) as i64
        }
    };
    let max_u = ((1u64 << bits) - 1) as f64;
    Some(match num {
        0 => {
            let v = if signed {
                let v = sext(raw) as f64;
                if srf {
                    (2.0 * v + 1.0) / max_u
                } else {
                    (v / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0)
                }
            } else {
                raw as f64 / max_u
            };
            (v as f32).to_bits()
        }
        1 => {
            if signed {
                sext(raw) as u32
            } else {
                raw
            }
        }
        2 => (if signed { sext(raw) as f32 } else { raw as f32 }).to_bits(),
        _ => return None,
    })
}

/// Reads `len` bytes at `addr` of the buffer (bytes past its end read as 0, decision), from a
/// host buffer or a uniform block (stride 16, words little-endian).
fn read_bytes(inputs: &Inputs, id: u8, addr: u64, len: usize, at: At) -> Result<(Vec<u8>, u32)> {
    if let Some(b) = inputs.buffers.get(&id) {
        let out = (0..len as u64)
            .map(|k| usize::try_from(addr + k).ok().and_then(|i| b.data.get(i)).copied().unwrap_or(0))
            .collect();
        return Ok((out, b.stride));
    }
    if (0x80..=0x8F).contains(&id) {
        if let Some(words) = inputs.uniform_blocks.get(&(id - 0x80)) {
            let out = (0..len as u64)
                .map(|k| {
                    let a = addr + k;
                    usize::try_from(a / 4)
                        .ok()
                        .and_then(|i| words.get(i))
                        .map_or(0, |w| w.to_le_bytes()[(a % 4) as usize])
                })
                .collect();
            return Ok((out, 16));
        }
    }
    Err(InterpError::Input { at, what: format!("no buffer with BUFFER_ID {id} (nor a uniform block behind it)") })
}

fn stride_of(inputs: &Inputs, id: u8) -> Option<u32> {
    inputs
        .buffers
        .get(&id)
        .map(|b: &Buffer| b.stride)
        .or_else(|| ((0x80..=0x8F).contains(&id) && inputs.uniform_blocks.contains_key(&(id - 0x80))).then_some(16))
}

/// The four destination words of a fetch at element `index` (before DST_SEL), and whether the
/// format is integer (then SEL_1 writes integer 1).
pub(crate) fn vtx_fetch(inputs: &Inputs, v: &VtxInst, index: u32, at: At) -> Result<([u32; 4], bool)> {
    if v.fetch_type > 2 {
        return Err(InterpError::Invalid { at, what: format!("FETCH_TYPE {} (reserved)", v.fetch_type) });
    }
    let (fmt, num, signed, srf) = if v.use_const_fields {
        match inputs.buffers.get(&v.buffer_id).and_then(|b| b.format) {
            Some(f) => f,
            None if stride_of(inputs, v.buffer_id).is_some() => (35, 2, true, false),
            None => {
                return Err(InterpError::Input {
                    at,
                    what: format!("USE_CONST_FIELDS but buffer {} has no format", v.buffer_id),
                })
            }
        }
    } else {
        (v.data_format, v.num_format, v.format_comp, v.srf_mode)
    };
    let Some((comps, float, packed)) = data_format(fmt) else {
        return unsupported(at, format!("DATA_FORMAT {fmt}"));
    };
    let stride = stride_of(inputs, v.buffer_id)
        .ok_or_else(|| InterpError::Input { at, what: format!("no buffer with BUFFER_ID {}", v.buffer_id) })?;
    // CONST_BUF_NO_STRIDE forces the stride to 0: every index reads the element at OFFSET
    // (decision, docs/latte-interp.md).
    let stride = if v.const_buf_no_stride { 0 } else { stride };
    let addr = index as u64 * stride as u64 + v.offset as u64;
    let len: u32 = comps.iter().sum::<u32>() / 8;
    let (mut bytes, _) = read_bytes(inputs, v.buffer_id, addr, len as usize, at)?;
    match v.endian_swap {
        0 => {}
        1 => bytes.chunks_mut(2).for_each(|c| c.reverse()),
        2 => bytes.chunks_mut(4).for_each(|c| c.reverse()),
        e => return Err(InterpError::Invalid { at, what: format!("ENDIAN_SWAP {e} (reserved)") }),
    }
    let int = !float && num == 1;
    let one = if int { 1 } else { 1.0f32.to_bits() };
    let mut out = [0, 0, 0, one];
    // Packed formats: one little-endian word, component x in its low bits; byte-aligned ones:
    // each component its own little-endian bytes, x first.
    let word = bytes.iter().enumerate().fold(0u64, |w, (k, b)| w | (*b as u64) << (8 * k));
    let mut p = 0u32;
    for (i, &bits) in comps.iter().enumerate() {
        let raw = if packed {
            ((word >> p) & ((1u64 << bits) - 1)) as u32
        } else {
            let n = bits as usize / 8;
            let mut raw = 0u32;
            for (k, b) in bytes[p as usize / 8..p as usize / 8 + n].iter().enumerate() {
                raw |= (*b as u32) << (8 * k);
            }
            raw
        };
        p += bits;
        out[i] = convert(raw, bits, float, num, signed, srf)
            .ok_or_else(|| InterpError::Invalid { at, what: format!("NUM_FORMAT {num} (reserved)") })?;
    }
    Ok((out, int))
}

//! VTX fetches: address, data format, number format and endian swap (latte-semantics-facts.md
//! §4.2), from host [`Buffer`]s or, for buffer ids 0x80-0x8F, the uniform blocks (§4.4).

use super::error::{unsupported, At, InterpError, Result};
use super::state::{Buffer, Inputs};
use crate::isa::VtxInst;

/// Component layout of a DATA_FORMAT: bits per component and whether the components are
/// floats. Values of Mesa's r600 `EVTXDataFormat` / decaf `SQ_DATA_FORMAT`; only the
/// byte-aligned formats (the packed ones are unsupported).
pub(crate) fn data_format(fmt: u8) -> Option<(&'static [u32], bool)> {
    Some(match fmt {
        1 => (&[8], false),
        5 => (&[16], false),
        6 => (&[16], true),
        7 => (&[8, 8], false),
        13 => (&[32], false),
        14 => (&[32], true),
        15 => (&[16, 16], false),
        16 => (&[16, 16], true),
        26 => (&[8, 8, 8, 8], false),
        29 => (&[32, 32], false),
        30 => (&[32, 32], true),
        31 => (&[16, 16, 16, 16], false),
        32 => (&[16, 16, 16, 16], true),
        34 => (&[32, 32, 32, 32], false),
        35 => (&[32, 32, 32, 32], true),
        44 => (&[8, 8, 8], false),
        45 => (&[16, 16, 16], false),
        46 => (&[16, 16, 16], true),
        47 => (&[32, 32, 32], false),
        48 => (&[32, 32, 32], true),
        _ => return None,
    })
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
        return Some(if bits == 16 { half_to_f32(raw as u16).to_bits() } else { raw });
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
    let Some((comps, float)) = data_format(fmt) else {
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
    let mut p = 0usize;
    for (i, &bits) in comps.iter().enumerate() {
        let n = bits as usize / 8;
        let mut raw = 0u32;
        for (k, b) in bytes[p..p + n].iter().enumerate() {
            raw |= (*b as u32) << (8 * k);
        }
        p += n;
        out[i] = convert(raw, bits, float, num, signed, srf)
            .ok_or_else(|| InterpError::Invalid { at, what: format!("NUM_FORMAT {num} (reserved)") })?;
    }
    Ok((out, int))
}

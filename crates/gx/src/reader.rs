//! A big-endian reader that knows its absolute position, so that every error carries the byte
//! offset in the original file (STYLE.md, "Readers that know where they are").

use crate::error::{Error, ErrorKind, Result};

/// Reads big-endian values from a whole buffer at explicit absolute offsets.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `data`; offsets are positions in `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// Total length.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the data is empty.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// `n` bytes at `at`.
    ///
    /// # Errors
    /// [`ErrorKind::Truncated`] when the range leaves the data.
    pub fn bytes(&self, at: usize, n: usize, what: &'static str) -> Result<&'a [u8]> {
        let have = self.data.len().saturating_sub(at);
        if at > self.data.len() || n > have {
            return Err(Error::new(at as u64, ErrorKind::Truncated { what, need: n as u64, have: have as u64 }));
        }
        Ok(&self.data[at..at + n])
    }

    /// A byte.
    pub fn u8(&self, at: usize, what: &'static str) -> Result<u8> {
        Ok(self.bytes(at, 1, what)?[0])
    }

    /// A big-endian u16.
    pub fn u16(&self, at: usize, what: &'static str) -> Result<u16> {
        let b = self.bytes(at, 2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    /// A big-endian u32.
    pub fn u32(&self, at: usize, what: &'static str) -> Result<u32> {
        let b = self.bytes(at, 4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A big-endian i32.
    pub fn i32(&self, at: usize, what: &'static str) -> Result<i32> {
        Ok(self.u32(at, what)? as i32)
    }

    /// `base + rel` checked to lie inside the data (an offset field relative to `base`, read at `field_at`).
    pub fn target(&self, field_at: usize, base: usize, rel: i64, what: &'static str) -> Result<usize> {
        let t = base as i64 + rel;
        if t < 0 || t >= self.data.len() as i64 {
            return Err(Error::new(
                field_at as u64,
                ErrorKind::OutOfBounds { what, target: t, size: self.data.len() as u64 },
            ));
        }
        Ok(t as usize)
    }

    /// A NUL-terminated string of at most `max` bytes at `at` (lossy UTF-8).
    pub fn cstr(&self, at: usize, max: usize, what: &'static str) -> Result<String> {
        let rest = self.bytes(at, 0, what).map(|_| &self.data[at..])?;
        let limit = rest.len().min(max + 1);
        match rest[..limit].iter().position(|&b| b == 0) {
            Some(n) => Ok(String::from_utf8_lossy(&rest[..n]).into_owned()),
            None if limit > max => {
                Err(Error::new(at as u64, ErrorKind::Invalid(format!("{what} longer than {max} bytes"))))
            }
            None => Err(Error::new(
                at as u64,
                ErrorKind::Truncated { what, need: limit as u64 + 1, have: rest.len() as u64 },
            )),
        }
    }
}

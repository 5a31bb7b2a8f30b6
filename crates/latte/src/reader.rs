//! A positioned byte reader: every error carries the absolute offset in the original file
//! (STYLE.md, "Readers that know where they are").

use crate::error::{Error, Result};

/// Reads big- or little-endian values from a slice that starts at `base` in its file.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, which lies at absolute offset `base` in its file.
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Reader { data, pos: 0, base }
    }
    /// Absolute offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }
    /// Position relative to the start of this reader's slice.
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }
    /// Moves to `pos` (relative to the slice start).
    ///
    /// # Errors
    /// `Truncated` when `pos` is past the end.
    pub fn seek(&mut self, pos: usize, what: &'static str) -> Result<()> {
        if pos > self.data.len() {
            return Err(Error::Truncated { offset: self.base + pos, what, need: 0, have: 0 });
        }
        self.pos = pos;
        Ok(())
    }
    /// Takes `n` bytes.
    ///
    /// # Errors
    /// `Truncated` when fewer than `n` bytes are left.
    pub fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        if self.remaining() < n {
            return Err(Error::Truncated { offset: self.offset(), what, need: n, have: self.remaining() });
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    /// A sub-reader over the next `n` bytes, keeping absolute offsets.
    ///
    /// # Errors
    /// `Truncated` when fewer than `n` bytes are left.
    pub fn sub(&mut self, n: usize, what: &'static str) -> Result<Reader<'a>> {
        let base = self.offset();
        let b = self.bytes(n, what)?;
        Ok(Reader::new(b, base))
    }
    /// A big-endian u32.
    ///
    /// # Errors
    /// `Truncated` at the end of data.
    pub fn be32(&mut self, what: &'static str) -> Result<u32> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// Checks a count against a limit before anything is allocated for it.
    ///
    /// # Errors
    /// `TooMany` when `count > limit`; the offset is where the count was read.
    pub fn check_count(&self, count: u64, limit: u64, at: usize, what: &'static str) -> Result<usize> {
        if count > limit {
            return Err(Error::TooMany { offset: at, what, count, limit });
        }
        Ok(count as usize)
    }
}

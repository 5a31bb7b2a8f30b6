//! A little-endian byte reader that knows its absolute offset in the file (STYLE.md, "Readers
//! that know where they are"): every error it makes carries the byte offset where reading failed.

use super::{ShbinError, ShbinErrorKind};

#[derive(Clone)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0 }
    }

    /// A reader over the whole file positioned at `offset`.
    pub fn at(&self, offset: usize, what: &'static str) -> Result<Reader<'a>, ShbinError> {
        if offset > self.data.len() {
            return Err(ShbinError::new(offset, ShbinErrorKind::OutOfBounds { what, len: 0 }));
        }
        Ok(Reader { data: self.data, pos: offset })
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    #[cold]
    fn eof(&self, what: &'static str, len: usize) -> ShbinError {
        ShbinError::new(self.pos, ShbinErrorKind::OutOfBounds { what, len })
    }

    pub fn bytes(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], ShbinError> {
        let end = self.pos.checked_add(len).filter(|&e| e <= self.data.len()).ok_or_else(|| self.eof(what, len))?;
        let out = &self.data[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, ShbinError> {
        Ok(self.bytes(1, what)?[0])
    }

    pub fn u16(&mut self, what: &'static str) -> Result<u16, ShbinError> {
        let b = self.bytes(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&mut self, what: &'static str) -> Result<u32, ShbinError> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Checks that `count` entries of `size` bytes fit in what is left of the file before anything
    /// is allocated for them, so a hostile count cannot ask for gigabytes.
    pub fn check_count(&self, count: u32, size: usize, what: &'static str) -> Result<usize, ShbinError> {
        let left = self.data.len().saturating_sub(self.pos);
        match (count as usize).checked_mul(size) {
            Some(total) if total <= left => Ok(count as usize),
            _ => Err(ShbinError::new(self.pos, ShbinErrorKind::Count { what, count, left })),
        }
    }
}

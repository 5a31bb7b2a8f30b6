//! GPU command lists: the words that write the PICA200 internal registers.
//!
//! Format (3dbrew "GPU/Internal Registers", "Overview"; details in docs/pica-cmdlist.md): each
//! command is a parameter word, a header word (bits 0-15 register id, 16-19 byte mask, 20-30
//! number of extra parameters, 31 consecutive writing), the extra parameter words, and one
//! padding word when needed to end the command on an 8-byte boundary. All words little endian.

use thiserror::Error;

/// Largest number of extra parameters the 11-bit header field can hold.
pub const MAX_EXTRA_PARAMS: usize = 0x7FF;

/// One command: `params.len()` register writes sharing a header.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Command {
    /// First register id written (header bits 0-15).
    pub id: u16,
    /// Byte-enable mask (header bits 16-19): bit n set writes byte n of the register.
    pub mask: u8,
    /// Whether each parameter goes to the next register id (header bit 31).
    pub consecutive: bool,
    /// The parameter words, at least one, at most `1 + MAX_EXTRA_PARAMS`.
    pub params: Vec<u32>,
    /// The alignment padding word (present exactly when `params.len()` is even), kept as read so
    /// that read then write gives the same words.
    pub padding: u32,
}

/// One register write, as a command expands to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Write {
    /// Register id (may exceed 0x2FF; such ids are outside the register table).
    pub id: u16,
    /// Byte-enable mask.
    pub mask: u8,
    /// The parameter word.
    pub value: u32,
}

impl Write {
    /// The mask expanded to bits: 0xFF for each enabled byte.
    pub const fn bit_mask(&self) -> u32 {
        expand_mask(self.mask)
    }

    /// The register's new value when it held `old`: only the enabled bytes change.
    pub const fn apply(&self, old: u32) -> u32 {
        let m = self.bit_mask();
        (old & !m) | (self.value & m)
    }
}

/// The 4-bit byte mask as a 32-bit mask.
pub const fn expand_mask(mask: u8) -> u32 {
    let mut m = 0u32;
    let mut i = 0;
    while i < 4 {
        if mask & (1 << i) != 0 {
            m |= 0xFF << (8 * i);
        }
        i += 1;
    }
    m
}

impl Command {
    /// A single write with the full mask.
    pub fn write(id: u16, value: u32) -> Command {
        Command { id, mask: 0xF, consecutive: false, params: vec![value], padding: 0 }
    }

    /// The header word.
    pub fn header(&self) -> u32 {
        let extra = (self.params.len().saturating_sub(1) as u32) & 0x7FF;
        u32::from(self.id) | (u32::from(self.mask & 0xF) << 16) | (extra << 20) | (u32::from(self.consecutive) << 31)
    }

    /// Whether a padding word follows (the command's word count would otherwise be odd).
    pub fn has_padding(&self) -> bool {
        self.params.len().is_multiple_of(2)
    }

    /// Words this command takes in a list, padding included.
    pub fn word_len(&self) -> usize {
        1 + self.params.len() + usize::from(self.has_padding())
    }

    /// The register id parameter `i` goes to. Ids wrap at 0xFFFF only in lists the reader
    /// rejects; the reader checks that a consecutive command stays within 16 bits.
    pub fn id_of(&self, i: usize) -> u16 {
        if self.consecutive {
            self.id.wrapping_add(i as u16)
        } else {
            self.id
        }
    }

    /// The writes this command stands for, in order.
    pub fn writes(&self) -> impl Iterator<Item = Write> + '_ {
        self.params.iter().enumerate().map(move |(i, &value)| Write { id: self.id_of(i), mask: self.mask, value })
    }
}

/// Limits the reader enforces, so that hostile input costs bounded memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most commands in one list.
    pub max_commands: usize,
    /// Most register writes (parameter words) in one list.
    pub max_writes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_commands: 1 << 22, max_writes: 1 << 24 }
    }
}

/// What went wrong reading a command list; every error carries the byte offset of the word
/// at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReadError {
    #[error("byte offset {offset}: list length {len} is not a multiple of 4")]
    Unaligned { offset: usize, len: usize },
    #[error("byte offset {offset}: command cut short (parameter without its header word)")]
    MissingHeader { offset: usize },
    #[error("byte offset {offset}: header announces {extra} extra parameter(s), only {available} word(s) left")]
    TruncatedParams { offset: usize, extra: usize, available: usize },
    #[error("byte offset {offset}: alignment padding word missing after a command of {params} parameters")]
    MissingPadding { offset: usize, params: usize },
    #[error("byte offset {offset}: consecutive write of {count} register(s) from id 0x{id:04x} runs past 0xFFFF")]
    IdOverflow { offset: usize, id: u16, count: usize },
    #[error("byte offset {offset}: more than {limit} commands")]
    TooManyCommands { offset: usize, limit: usize },
    #[error("byte offset {offset}: more than {limit} register writes")]
    TooManyWrites { offset: usize, limit: usize },
}

impl ReadError {
    /// Byte offset of the word at fault.
    pub fn offset(&self) -> usize {
        match *self {
            ReadError::Unaligned { offset, .. }
            | ReadError::MissingHeader { offset }
            | ReadError::TruncatedParams { offset, .. }
            | ReadError::MissingPadding { offset, .. }
            | ReadError::IdOverflow { offset, .. }
            | ReadError::TooManyCommands { offset, .. }
            | ReadError::TooManyWrites { offset, .. } => offset,
        }
    }
}

/// A decoded command, with the byte offset of its first word in the list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Located {
    pub offset: usize,
    pub command: Command,
}

/// A command list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CommandList {
    pub commands: Vec<Command>,
}

/// Little-endian words of `bytes`, which must be a multiple of 4 long.
pub fn words_of(bytes: &[u8]) -> Result<Vec<u32>, ReadError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(ReadError::Unaligned { offset: bytes.len() & !3, len: bytes.len() });
    }
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// A streaming reader over command words: yields each command with its byte offset.
pub struct Reader<'a> {
    words: &'a [u32],
    pos: usize,
    limits: Limits,
    commands: usize,
    writes: usize,
    failed: bool,
}

impl<'a> Reader<'a> {
    pub fn new(words: &'a [u32]) -> Reader<'a> {
        Reader::with_limits(words, Limits::default())
    }

    pub fn with_limits(words: &'a [u32], limits: Limits) -> Reader<'a> {
        Reader { words, pos: 0, limits, commands: 0, writes: 0, failed: false }
    }

    fn next_command(&mut self) -> Result<Located, ReadError> {
        let start = self.pos;
        let offset = start * 4;
        if self.commands >= self.limits.max_commands {
            return Err(ReadError::TooManyCommands { offset, limit: self.limits.max_commands });
        }
        let rest = &self.words[start..];
        if rest.len() < 2 {
            return Err(ReadError::MissingHeader { offset });
        }
        let (first, header) = (rest[0], rest[1]);
        let id = (header & 0xFFFF) as u16;
        let mask = ((header >> 16) & 0xF) as u8;
        let extra = ((header >> 20) & 0x7FF) as usize;
        let consecutive = header >> 31 != 0;
        let available = rest.len() - 2;
        if extra > available {
            return Err(ReadError::TruncatedParams { offset: offset + 4, extra, available });
        }
        let count = extra + 1;
        if self.writes + count > self.limits.max_writes {
            return Err(ReadError::TooManyWrites { offset: offset + 4, limit: self.limits.max_writes });
        }
        if consecutive && usize::from(id) + extra > 0xFFFF {
            return Err(ReadError::IdOverflow { offset: offset + 4, id, count });
        }
        let mut params = Vec::with_capacity(count);
        params.push(first);
        params.extend_from_slice(&rest[2..2 + extra]);
        let mut len = 2 + extra;
        let mut padding = 0;
        if count.is_multiple_of(2) {
            match rest.get(len) {
                Some(&p) => padding = p,
                None => return Err(ReadError::MissingPadding { offset: offset + len * 4, params: count }),
            }
            len += 1;
        }
        self.pos += len;
        self.commands += 1;
        self.writes += count;
        Ok(Located { offset, command: Command { id, mask, consecutive, params, padding } })
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Located, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.words.len() {
            return None;
        }
        let r = self.next_command();
        self.failed = r.is_err();
        Some(r)
    }
}

impl CommandList {
    /// Reads a whole list of bytes.
    pub fn read(bytes: &[u8]) -> Result<CommandList, ReadError> {
        Self::read_words(&words_of(bytes)?)
    }

    /// Reads a whole list of words.
    pub fn read_words(words: &[u32]) -> Result<CommandList, ReadError> {
        Self::read_words_with(words, Limits::default())
    }

    pub fn read_words_with(words: &[u32], limits: Limits) -> Result<CommandList, ReadError> {
        let commands = Reader::with_limits(words, limits).map(|r| r.map(|l| l.command)).collect::<Result<_, _>>()?;
        Ok(CommandList { commands })
    }

    /// The list's words. Commands with more than `1 + MAX_EXTRA_PARAMS` parameters are split
    /// into several commands (consecutive ones continue at the next id).
    pub fn to_words(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for c in &self.commands {
            write_command(c, &mut out);
        }
        out
    }

    /// The list's bytes (little-endian words).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_words().iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Every write of the list, in order.
    pub fn writes(&self) -> impl Iterator<Item = Write> + '_ {
        self.commands.iter().flat_map(|c| c.writes())
    }
}

fn write_command(c: &Command, out: &mut Vec<u32>) {
    if c.params.is_empty() {
        return;
    }
    let chunk = MAX_EXTRA_PARAMS + 1;
    if c.params.len() > chunk {
        for (k, part) in c.params.chunks(chunk).enumerate() {
            let id = if c.consecutive { c.id.wrapping_add((k * chunk) as u16) } else { c.id };
            let piece = Command { id, mask: c.mask, consecutive: c.consecutive, params: part.to_vec(), padding: 0 };
            write_command(&piece, out);
        }
        return;
    }
    out.push(c.params[0]);
    out.push(c.header());
    out.extend_from_slice(&c.params[1..]);
    if c.has_padding() {
        out.push(c.padding);
    }
}

/// Builds command lists the way a driver does.
#[derive(Clone, Debug, Default)]
pub struct Writer {
    list: CommandList,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    /// One register, full mask.
    pub fn write(&mut self, id: u16, value: u32) -> &mut Self {
        self.masked(id, 0xF, value)
    }

    /// One register, only the bytes in `mask`.
    pub fn masked(&mut self, id: u16, mask: u8, value: u32) -> &mut Self {
        self.list.commands.push(Command { id, mask: mask & 0xF, consecutive: false, params: vec![value], padding: 0 });
        self
    }

    /// `values` to `id`, `id + 1`, ...
    pub fn consecutive(&mut self, id: u16, values: &[u32]) -> &mut Self {
        self.push(id, true, values)
    }

    /// All of `values` to the one register `id` (a FIFO port).
    pub fn repeated(&mut self, id: u16, values: &[u32]) -> &mut Self {
        self.push(id, false, values)
    }

    fn push(&mut self, id: u16, consecutive: bool, values: &[u32]) -> &mut Self {
        if !values.is_empty() {
            self.list.commands.push(Command { id, mask: 0xF, consecutive, params: values.to_vec(), padding: 0 });
        }
        self
    }

    /// The list built so far (the writer starts over empty).
    pub fn finish(&mut self) -> CommandList {
        std::mem::take(&mut self.list)
    }
}

//! Error codes, the caller's error record, and the guard every entry point runs under.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::ffi;

/// Success.
pub const SP_OK: i32 = 0;
/// A pointer that must not be null was null.
pub const SP_ERROR_NULL_POINTER: i32 = 1;
/// An argument is out of its range: an unknown target, precision, shader type or flag, a length
/// over its cap, a key field past its register width.
pub const SP_ERROR_INVALID_ARGUMENT: i32 = 2;
/// Input bytes (a SHBIN) are malformed; the message names the byte offset.
pub const SP_ERROR_PARSE: i32 = 3;
/// The program cannot be translated as given (an entry point outside the program, a missing
/// executable, an unknown shader type).
pub const SP_ERROR_TRANSLATE: i32 = 4;
/// The cache folder cannot be created or read.
pub const SP_ERROR_IO: i32 = 5;
/// A bug in shaderport (a module that does not validate, a back end failure, a caught panic).
/// Please report it with the input.
pub const SP_ERROR_INTERNAL: i32 = 6;

/// The input is valid but uses something the translator does not cover yet (a Latte TEX fetch,
/// a Latte geometry program); the message names it.
pub const SP_ERROR_UNSUPPORTED: i32 = 7;

/// Bytes of `SpError.message`, its NUL included.
pub const SP_MESSAGE_CAPACITY: usize = 256;

/// What went wrong, filled by a failing call when the caller passes one. Caller-owned: nothing
/// to free.
#[repr(C)]
pub struct SpError {
    /// The code the call returned (`SP_OK` on success).
    pub code: i32,
    /// A NUL-terminated UTF-8 message (cut at a character boundary when longer), empty on
    /// success.
    pub message: [c_char; SP_MESSAGE_CAPACITY],
}

/// A failed call: the code and its message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: i32,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(code: i32, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }

    pub(crate) fn null(what: &str) -> Failure {
        Failure::new(SP_ERROR_NULL_POINTER, format!("{what} is null"))
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Failure {
        Failure::new(SP_ERROR_INVALID_ARGUMENT, message)
    }
}

impl From<translate::Error> for Failure {
    fn from(e: translate::Error) -> Failure {
        use std::error::Error as _;
        let code = match e {
            translate::Error::NoExecutable { .. }
            | translate::Error::EntryOutsideProgram { .. }
            | translate::Error::UnknownShaderType(_) => SP_ERROR_TRANSLATE,
            translate::Error::FragmentUnsupported(_) | translate::Error::LatteUnsupported { .. } => {
                SP_ERROR_UNSUPPORTED
            }
            _ => SP_ERROR_INTERNAL,
        };
        let mut message = e.to_string();
        let mut source = e.source();
        while let Some(s) = source {
            message.push_str(": ");
            message.push_str(&s.to_string());
            source = s.source();
        }
        Failure::new(code, message)
    }
}

/// Runs one entry point's body: clears `error`, catches any panic, and writes a failure's code
/// and message into `error`. Returns the code.
pub(crate) fn guard(error: *mut SpError, body: impl FnOnce() -> Result<(), Failure>) -> i32 {
    // The body only reads its inputs and writes its outputs last, so a panic leaves no state
    // half-changed that the caller could observe.
    let result = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(Failure::new(SP_ERROR_INTERNAL, format!("internal error (a panic, please report it): {what}")))
    });
    let (code, message) = match &result {
        Ok(()) => (SP_OK, ""),
        Err(f) => (f.code, f.message.as_str()),
    };
    // SAFETY: `error` is null or points to an SpError the caller owns (header contract).
    if let Some(e) = unsafe { ffi::out_ref(error) } {
        e.code = code;
        write_message(&mut e.message, message);
    }
    code
}

/// Copies `message` into `buf`, cut at a character boundary so that it stays UTF-8, with a NUL.
fn write_message(buf: &mut [c_char; SP_MESSAGE_CAPACITY], message: &str) {
    let mut end = message.len().min(SP_MESSAGE_CAPACITY - 1);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    for (dst, &src) in buf.iter_mut().zip(&message.as_bytes()[..end]) {
        *dst = src as c_char;
    }
    buf[end] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        let mut buf = [0; SP_MESSAGE_CAPACITY];
        let message = "é".repeat(200);
        write_message(&mut buf, &message);
        let len = buf.iter().position(|&c| c == 0).unwrap();
        assert_eq!(len, 254);
        let bytes: Vec<u8> = buf[..len].iter().map(|&c| c as u8).collect();
        assert!(std::str::from_utf8(&bytes).is_ok());
    }
}

//! The crate's only `unsafe`: turning the pointers a C caller passes into references and slices.
//! Each function's contract is the one shaderport.h states for the argument: a pointer is null or
//! valid for the stated length, properly aligned, and not written by another thread during the
//! call.
#![allow(unsafe_code)]

use std::ffi::{c_char, CStr};

use crate::error::Failure;

/// The value behind `ptr`, or a null-pointer failure naming `what`.
///
/// # Safety
/// `ptr` is null or points to a valid, aligned `T` that lives for the call.
pub(crate) unsafe fn input<'a, T>(ptr: *const T, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller's contract.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(what))
}

/// The value behind `ptr`, or `None` for null (an optional argument).
///
/// # Safety
/// As `input`.
pub(crate) unsafe fn optional<'a, T>(ptr: *const T) -> Option<&'a T> {
    // SAFETY: the caller's contract.
    unsafe { ptr.as_ref() }
}

/// `len` elements at `ptr`; a null `ptr` is an empty slice when `len` is 0 and a failure naming
/// `what` otherwise.
///
/// # Safety
/// When `len` is not 0, `ptr` points to `len` valid, aligned `T`s that live for the call.
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: the caller's contract; `len` was bounded by the caller of this function.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `len` writable elements at `ptr`; a null `ptr` is an empty slice when `len` is 0 and a
/// failure naming `what` otherwise.
///
/// # Safety
/// When `len` is not 0, `ptr` points to `len` valid, aligned, writable `T`s that no one else
/// accesses during the call.
pub(crate) unsafe fn out_slice<'a, T>(ptr: *mut T, len: usize, what: &str) -> Result<&'a mut [T], Failure> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// The NUL-terminated UTF-8 string at `ptr`.
///
/// # Safety
/// `ptr` is null or points to a NUL-terminated string that lives for the call.
pub(crate) unsafe fn string<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: the caller's contract.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str().map_err(|_| Failure::invalid(format!("{what} is not UTF-8")))
}

/// The place behind an out-pointer, or `None` for null.
///
/// # Safety
/// `ptr` is null or points to a valid, aligned, writable `T` that no one else accesses during
/// the call.
pub(crate) unsafe fn out_ref<'a, T>(ptr: *mut T) -> Option<&'a mut T> {
    // SAFETY: the caller's contract.
    unsafe { ptr.as_mut() }
}

/// Moves `value` to the heap and gives the caller its pointer (freed by `take_box`).
pub(crate) fn give_box<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Takes back a pointer made by `give_box`; null is `None`.
///
/// # Safety
/// `ptr` is null or came from `give_box` for the same `T` and was not taken back before.
pub(crate) unsafe fn take_box<T>(ptr: *mut T) -> Option<Box<T>> {
    // SAFETY: the caller's contract.
    (!ptr.is_null()).then(|| unsafe { Box::from_raw(ptr) })
}

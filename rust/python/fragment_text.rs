//! A str fragment's text as the stream reads it: UTF-8, or WTF-8 when the str holds lone
//! surrogates, read from the str's own storage (its kind and data: the public C API).
//!
//! `PyUnicode_AsUTF8AndSize` gives an ASCII str's own bytes at no cost, but any other str it
//! encodes whole and caches the result on the str: an allocation for every non-ASCII fragment,
//! kept as long as the caller keeps the fragment. A str holding a lone surrogate it refuses,
//! and the fragment was then encoded again by a Python call (`surrogatepass`). Encoding here,
//! into a buffer on the stack for a fragment of the usual size, costs neither.

use std::mem::MaybeUninit;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::keys::words;

/// A fragment whose UTF-8 takes up to this many bytes is encoded on the stack; a longer one
/// into a buffer of its own (its reading costs far more than the allocation).
const ON_STACK: usize = 256;

/// Calls `read` with the UTF-8 of `text` (WTF-8 when it holds a surrogate, each encoded
/// alone as `surrogatepass` does, and then `true`) and its number of characters, the str's
/// length (a lone surrogate is one character of three bytes there too).
pub fn with_utf8<R>(
    text: &Bound<'_, PyString>,
    read: impl FnOnce(&[u8], u64, bool) -> R,
) -> PyResult<R> {
    let string = text.as_ptr();
    // SAFETY: `string` is a live str (the Bound holds it) and the interpreter is held. Made
    // ready first (before 3.12 a str made by the legacy API may not be yet), its length, kind
    // and data describe its characters, `len` units of that kind, which stay put while the
    // Bound keeps the str alive.
    unsafe {
        #[cfg(not(Py_3_12))]
        if ffi::PyUnicode_READY(string) != 0 {
            return Err(PyErr::fetch(text.py()));
        }
        let len = ffi::PyUnicode_GET_LENGTH(string) as usize;
        let data = ffi::PyUnicode_DATA(string);
        Ok(match ffi::PyUnicode_KIND(string) {
            ffi::PyUnicode_1BYTE_KIND => {
                let units = std::slice::from_raw_parts(data as *const u8, len);
                if is_ascii(units) {
                    read(units, len as u64, false) // ASCII is its own UTF-8
                } else {
                    encoded(units, read)
                }
            }
            ffi::PyUnicode_2BYTE_KIND => {
                encoded(std::slice::from_raw_parts(data as *const u16, len), read)
            }
            _ => encoded(std::slice::from_raw_parts(data as *const u32, len), read),
        })
    }
}

/// Whether Latin-1 `units` are ASCII: a fragment of up to 16 (most of a stream's) in two
/// overlapping loads that cover every byte, not `is_ascii`'s byte at a time below a word.
#[inline(always)]
fn is_ascii(units: &[u8]) -> bool {
    if units.len() <= 16 {
        let (head, tail) = words(units);
        (head | tail) & 0x8080_8080_8080_8080 == 0
    } else {
        units.is_ascii()
    }
}

/// A unit of a str's storage: Latin-1, UCS-2 or UCS-4.
trait Unit: Copy + Into<u32> {
    /// The most UTF-8 bytes a character of this kind takes.
    const MAX_UTF8: usize;
}

impl Unit for u8 {
    const MAX_UTF8: usize = 2;
}

impl Unit for u16 {
    const MAX_UTF8: usize = 3;
}

impl Unit for u32 {
    const MAX_UTF8: usize = 4;
}

/// Calls `read` with the UTF-8 of `units`, encoded on the stack when it fits there. The
/// buffer is not zeroed first (a fragment's encoding wrote a 256-byte memset before it): only
/// the bytes `encode` wrote are read.
fn encoded<U: Unit, R>(units: &[U], read: impl FnOnce(&[u8], u64, bool) -> R) -> R {
    let chars = units.len() as u64;
    let most = units.len() * U::MAX_UTF8;
    if most <= ON_STACK {
        let mut buffer = [MaybeUninit::<u8>::uninit(); ON_STACK];
        let (len, surrogates) = encode(units, &mut buffer);
        read(written(&buffer, len), chars, surrogates)
    } else {
        let mut buffer = Vec::<u8>::with_capacity(most);
        let (len, surrogates) = encode(units, buffer.spare_capacity_mut());
        read(written(buffer.spare_capacity_mut(), len), chars, surrogates)
    }
}

/// The first `len` bytes of `buffer`, all written by `encode`.
#[inline]
fn written(buffer: &[MaybeUninit<u8>], len: usize) -> &[u8] {
    let buffer = &buffer[..len];
    // SAFETY: `encode` wrote each of the first `len` bytes it returned (it writes every byte
    // from 0 to its returned length, in order, and returns how far it wrote), and the slice
    // above stops there; `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), len) }
}

/// Writes the UTF-8 of `units` into `out` (room for `MAX_UTF8` bytes a unit): its length,
/// and whether a surrogate was among them (written as three bytes, alone). Every byte before
/// the length returned is written, none after it.
#[inline]
fn encode<U: Unit>(units: &[U], out: &mut [MaybeUninit<u8>]) -> (usize, bool) {
    let mut at = 0;
    let mut surrogates = false;
    for &unit in units {
        let code: u32 = unit.into();
        if code < 0x80 {
            out[at].write(code as u8);
            at += 1;
        } else if code < 0x800 {
            out[at].write(0xc0 | (code >> 6) as u8);
            out[at + 1].write(0x80 | (code & 0x3f) as u8);
            at += 2;
        } else if code < 0x10000 {
            surrogates |= (0xd800..0xe000).contains(&code);
            out[at].write(0xe0 | (code >> 12) as u8);
            out[at + 1].write(0x80 | (code >> 6 & 0x3f) as u8);
            out[at + 2].write(0x80 | (code & 0x3f) as u8);
            at += 3;
        } else {
            out[at].write(0xf0 | (code >> 18) as u8);
            out[at + 1].write(0x80 | (code >> 12 & 0x3f) as u8);
            out[at + 2].write(0x80 | (code >> 6 & 0x3f) as u8);
            out[at + 3].write(0x80 | (code & 0x3f) as u8);
            at += 4;
        }
    }
    (at, surrogates)
}

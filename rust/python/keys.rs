//! A small cache of Python strings for object keys: records repeat the same few keys, and a
//! cached key is neither created nor hashed again (CPython keeps a str's hash). Values are not
//! cached: in a direct-mapped cache they evict the keys (measured on github_events.json).
//!
//! A slot keeps a key's length and two words of its bytes beside the string, so that keys of
//! up to 16 bytes (nearly all of them) are matched without reading the string or calling
//! `memcmp`, and no copy of the bytes is allocated. Longer keys are cached when ASCII only:
//! then the str's own data is their bytes, to compare with.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Longer keys are created every time (they seldom repeat, and would hash slowly).
const MAX_KEY_LEN: usize = 64;

/// Up to this length, a key's length and its two words are its bytes.
const WORDS_HOLD_ALL: usize = 16;

struct Slot {
    len: usize,
    head: u64,
    tail: u64,
    /// The str of these bytes; compact ASCII when longer than `WORDS_HOLD_ALL`.
    string: Option<Py<PyString>>,
}

pub struct KeyCache {
    slots: Vec<Slot>,
    /// log2 of the number of slots.
    bits: u32,
}

/// Two words that, with the length, determine a key of up to 16 bytes: overlapping loads of its
/// first and last bytes (fewer for short keys), without a byte-by-byte loop.
#[inline]
fn words(bytes: &[u8]) -> (u64, u64) {
    let len = bytes.len();
    let load8 = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let load4 =
        |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as u64;
    match len {
        8.. => (load8(0), load8(len - 8)),
        4..=7 => (load4(0), load4(len - 4)),
        1..=3 => {
            let spread =
                bytes[0] as u64 | (bytes[len / 2] as u64) << 8 | (bytes[len - 1] as u64) << 16;
            (spread, 0)
        }
        0 => (0, 0),
    }
}

impl KeyCache {
    /// An empty cache of `1 << bits` slots, allocated on first use (most parsers read few
    /// keys).
    pub fn new(bits: u32) -> Self {
        KeyCache {
            slots: Vec::new(),
            bits,
        }
    }

    /// The str of `key`, from the cache or created.
    pub fn get<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        // SAFETY: the token proves the interpreter is held; the bytes are UTF-8 and flagged
        // ASCII only when they are. `lookup` gives a new reference or NULL, which panics
        // here as PyString::new would.
        unsafe {
            let string = self.lookup(key.as_bytes(), key.is_ascii());
            Bound::from_owned_ptr(py, string).cast_into_unchecked()
        }
    }

    /// A new reference to the str of `key`, from the cache or created; NULL with an exception
    /// set when the interpreter cannot make one.
    ///
    /// # Safety
    /// The interpreter must be held by this thread, `key` must be UTF-8, and ASCII if `ascii`.
    #[inline]
    pub unsafe fn lookup(&mut self, key: &[u8], ascii: bool) -> *mut ffi::PyObject {
        let len = key.len();
        if len > MAX_KEY_LEN || (len > WORDS_HOLD_ALL && !ascii) {
            // SAFETY: as the caller promised.
            return unsafe { new_string(key, ascii) };
        }
        if self.slots.is_empty() {
            self.slots = (0..1usize << self.bits)
                .map(|_| Slot {
                    len: 0,
                    head: 0,
                    tail: 0,
                    string: None,
                })
                .collect();
        }
        let (head, tail) = words(key);
        let mixed = (head ^ tail.rotate_left(29) ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.slots[(mixed >> (64 - self.bits)) as usize];
        if let Some(string) = &slot.string {
            let string = string.as_ptr();
            if slot.len == len
                && slot.head == head
                && slot.tail == tail
                // SAFETY: a string cached with more than WORDS_HOLD_ALL bytes is compact
                // ASCII of `len` characters, kept alive by the slot.
                && (len <= WORDS_HOLD_ALL || unsafe { ascii_bytes(string, len) } == key)
            {
                // SAFETY: the slot keeps its reference; this new one is the caller's.
                unsafe { ffi::Py_INCREF(string) };
                return string;
            }
        }
        // SAFETY: as the caller promised.
        let string = unsafe { new_string(key, ascii) };
        if !string.is_null() {
            // SAFETY: a new reference to a str: one for the slot, one for the caller.
            unsafe { ffi::Py_INCREF(string) };
            *slot = Slot {
                len,
                head,
                tail,
                // SAFETY: as above, with the interpreter held; the slot's old string, if any,
                // is released by its drop.
                string: Some(unsafe {
                    Bound::from_owned_ptr(Python::assume_attached(), string)
                        .cast_into_unchecked()
                        .unbind()
                }),
            };
        }
        string
    }
}

/// A new str from UTF-8 `bytes`, or NULL with an exception set.
///
/// # Safety
/// The interpreter must be held, `bytes` must be UTF-8, and ASCII if `ascii`.
#[inline]
unsafe fn new_string(bytes: &[u8], ascii: bool) -> *mut ffi::PyObject {
    // SAFETY: as the caller promised; the pointer and length describe `bytes`.
    unsafe {
        if ascii {
            ascii_string(bytes)
        } else {
            ffi::PyUnicode_FromStringAndSize(bytes.as_ptr().cast(), bytes.len() as ffi::Py_ssize_t)
        }
    }
}

/// A new compact ASCII str holding `bytes`, or NULL with an exception set.
///
/// # Safety
/// The interpreter must be held, and `bytes` must be ASCII.
#[inline]
pub unsafe fn ascii_string(bytes: &[u8]) -> *mut ffi::PyObject {
    // SAFETY: PyUnicode_New(len, 127) gives a fresh compact ASCII str whose data buffer holds
    // exactly `len` bytes; ASCII bytes are its final content.
    unsafe {
        let string = ffi::PyUnicode_New(bytes.len() as ffi::Py_ssize_t, 127);
        if !string.is_null() {
            let data = ffi::PyUnicode_DATA(string) as *mut u8;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len());
        }
        string
    }
}

/// The `len` bytes of a compact ASCII str.
///
/// # Safety
/// `string` must be a live compact ASCII str of length `len`, outliving the slice.
unsafe fn ascii_bytes<'a>(string: *mut ffi::PyObject, len: usize) -> &'a [u8] {
    // SAFETY: as the caller promised.
    unsafe { std::slice::from_raw_parts(ffi::PyUnicode_DATA(string) as *const u8, len) }
}

//! A small cache of Python strings for object keys: records repeat the same few keys, and a
//! cached key is neither created nor hashed again (CPython keeps a str's hash). Values are not
//! cached: in a direct-mapped cache they evict the keys (measured on github_events.json).

use pyo3::prelude::*;
use pyo3::types::PyString;

const MAX_KEY_LEN: usize = 64;

/// A key's UTF-8 bytes and the Python string made from them.
type Entry = (Box<[u8]>, Py<PyString>);

pub struct KeyCache {
    slots: Vec<Option<Entry>>,
    size: usize,
}

/// A cheap hash of a short key: its length and its first and last eight bytes, mixed.
fn spread(bytes: &[u8]) -> u64 {
    let head = word(bytes, 0);
    let tail = if bytes.len() > 8 {
        word(bytes, bytes.len() - 8)
    } else {
        0
    };
    let mixed =
        (head ^ tail.rotate_left(29) ^ bytes.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    mixed >> 40
}

/// Bytes `at..at + 8` of `bytes`, zero-padded past its end, as one word.
#[inline]
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut buf = [0u8; 8];
    let end = bytes.len().min(at + 8);
    buf[..end - at].copy_from_slice(&bytes[at..end]);
    u64::from_le_bytes(buf)
}

/// Equality of two short byte strings, a word at a time (a libc call costs more than the
/// comparison for keys this short).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && (0..a.len()).step_by(8).all(|at| word(a, at) == word(b, at))
}

impl KeyCache {
    /// An empty cache of `size` slots, allocated on first use (most parsers read few keys).
    pub fn new(size: usize) -> Self {
        KeyCache {
            slots: Vec::new(),
            size,
        }
    }

    /// The cached string for `key` (valid UTF-8), creating it on a miss.
    pub fn get<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        let bytes = key.as_bytes();
        if bytes.len() > MAX_KEY_LEN {
            return PyString::new(py, key);
        }
        if self.slots.is_empty() {
            self.slots = (0..self.size).map(|_| None).collect();
        }
        let hash = spread(bytes);
        let slot = &mut self.slots[hash as usize % self.size];
        if let Some((cached, string)) = slot {
            if same_bytes(cached, bytes) {
                return string.bind(py).clone();
            }
        }
        let string = PyString::new(py, key);
        *slot = Some((bytes.into(), string.clone().unbind()));
        string
    }
}

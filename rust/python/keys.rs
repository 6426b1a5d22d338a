//! A small cache of Python strings for object keys: records repeat the same few keys, and a
//! cached key is neither decoded nor hashed again (CPython keeps a str's hash).

use pyo3::prelude::*;
use pyo3::types::PyString;

const SLOTS: usize = 512;
const MAX_KEY_LEN: usize = 64;

/// A key's UTF-8 bytes and the Python string made from them.
type Entry = (Box<[u8]>, Py<PyString>);

pub struct KeyCache {
    slots: Vec<Option<Entry>>,
}

/// A cheap hash of a short key: its length and its first and last eight bytes, mixed.
fn spread(bytes: &[u8]) -> u64 {
    let word = |at: usize| {
        let mut buf = [0u8; 8];
        let end = bytes.len().min(at + 8);
        buf[..end - at].copy_from_slice(&bytes[at..end]);
        u64::from_le_bytes(buf)
    };
    let head = word(0);
    let tail = if bytes.len() > 8 {
        word(bytes.len() - 8)
    } else {
        0
    };
    let mixed =
        (head ^ tail.rotate_left(29) ^ bytes.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    mixed >> 40
}

/// Equality of two short byte strings, eight bytes at a time (a libc call costs more than
/// the comparison for keys this short).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut chunks_a = a.chunks_exact(8);
    let mut chunks_b = b.chunks_exact(8);
    for (x, y) in chunks_a.by_ref().zip(chunks_b.by_ref()) {
        if u64::from_le_bytes(x.try_into().expect("8"))
            != u64::from_le_bytes(y.try_into().expect("8"))
        {
            return false;
        }
    }
    chunks_a.remainder() == chunks_b.remainder()
}

impl KeyCache {
    /// An empty cache; its slots are allocated on first use (most parsers read a few keys).
    pub fn new() -> Self {
        KeyCache { slots: Vec::new() }
    }

    /// The cached string for `key` (valid UTF-8), creating it on a miss.
    pub fn get<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        let bytes = key.as_bytes();
        if bytes.len() > MAX_KEY_LEN {
            return PyString::new(py, key);
        }
        if self.slots.is_empty() {
            self.slots = (0..SLOTS).map(|_| None).collect();
        }
        let hash = spread(bytes);
        let slot = &mut self.slots[hash as usize % SLOTS];
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

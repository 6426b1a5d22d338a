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

impl KeyCache {
    pub fn new() -> Self {
        KeyCache {
            slots: (0..SLOTS).map(|_| None).collect(),
        }
    }

    /// The cached string for `key` (valid UTF-8), creating it on a miss.
    pub fn get<'py>(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        let bytes = key.as_bytes();
        if bytes.len() > MAX_KEY_LEN {
            return PyString::new(py, key);
        }
        // FNV-1a: cheap and good enough to spread short keys over the slots.
        let hash = bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
            (h ^ b as u32).wrapping_mul(0x0100_0193)
        });
        let slot = &mut self.slots[hash as usize % SLOTS];
        if let Some((cached, string)) = slot {
            if **cached == *bytes {
                return string.bind(py).clone();
            }
        }
        let string = PyString::new(py, key);
        *slot = Some((bytes.into(), string.clone().unbind()));
        string
    }
}

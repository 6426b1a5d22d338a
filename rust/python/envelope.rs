//! `ChunkMatcher`: the envelope shortcut's quick check (`crate::envelope`) for Python. Twin:
//! `ChunkMatcher` in `src/jsondrip/toolcalls/shortcut.py`.

use std::borrow::Cow;

use pyo3::prelude::*;

use crate::envelope::ChunkMatch;

/// An SSE chunk framed as the last routed one: `ChunkMatcher(prefix, middle, suffix)`, then
/// `fragment(chunk)` is the chunk's decoded fragment literal, or None.
#[pyclass(frozen, module = "jsondrip._native")]
pub struct ChunkMatcher {
    pub(super) inner: ChunkMatch,
}

#[pymethods]
impl ChunkMatcher {
    #[new]
    #[pyo3(signature = (prefix, middle, suffix))]
    fn new(prefix: &str, middle: Option<&str>, suffix: &str) -> Self {
        ChunkMatcher {
            inner: ChunkMatch::new(
                prefix.as_bytes(),
                middle.map(str::as_bytes),
                suffix.as_bytes(),
            ),
        }
    }

    /// The decoded fragment literal of `chunk` (bytes) if it is framed as this matcher's
    /// with valid literals, else None.
    fn fragment(&self, chunk: &[u8]) -> Option<String> {
        self.inner.fragment(chunk).map(Cow::into_owned)
    }
}

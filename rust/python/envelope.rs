//! `ChunkMatcher`: the envelope shortcut's quick check (`crate::envelope`) for Python. Twin:
//! `ChunkMatcher` in `src/jsondrip/toolcalls/shortcut.py`.

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::envelope::{ChunkMatch, Hole};

/// An SSE chunk framed as the last routed one: `ChunkMatcher(texts, holes)`, the chunk's text
/// around its holes (`texts`, one more than the holes) and what each hole holds (`holes`, a
/// str of one letter a hole: `f` the fragment literal, `h` the stream's own string value,
/// `s` an ignored string literal, `n` an ignored number, `v` value mode's JSON value). Then
/// `fragment(chunk, head)` is the chunk's decoded fragment literal, or None.
#[pyclass(frozen, module = "jsondrip._native")]
pub struct ChunkMatcher {
    pub(super) inner: ChunkMatch,
}

#[pymethods]
impl ChunkMatcher {
    #[new]
    #[pyo3(signature = (texts, holes))]
    fn new(texts: Vec<String>, holes: &str) -> PyResult<Self> {
        if texts.len() != holes.len() + 1 {
            return Err(PyValueError::new_err("one text more than the holes"));
        }
        let mut texts = texts.into_iter();
        let prefix = texts.next().unwrap_or_default();
        let holes = holes
            .bytes()
            .zip(texts)
            .map(|(hole, text)| {
                let hole = match hole {
                    b'f' => Hole::Fragment,
                    b'h' => Hole::Head,
                    b's' => Hole::Text,
                    b'n' => Hole::Number,
                    b'v' => Hole::Value,
                    _ => return Err(PyValueError::new_err("a hole is one of f, h, s, n, v")),
                };
                Ok((hole, text.into_bytes()))
            })
            .collect::<PyResult<_>>()?;
        Ok(ChunkMatcher {
            inner: ChunkMatch::new(prefix.as_bytes(), holes),
        })
    }

    /// The decoded fragment literal of `chunk` (bytes) if it is framed as this matcher's
    /// with valid literals, and its head hole (if any) decodes to `head`, else None.
    #[pyo3(signature = (chunk, head = None))]
    fn fragment(&self, chunk: &[u8], head: Option<&Bound<'_, PyAny>>) -> Option<String> {
        // a head that is no str matches no literal; one holding a lone surrogate is no UTF-8:
        // None here and in the twin, the long way decides
        let head = match head.map(|head| head.cast::<PyString>()) {
            Some(Ok(head)) => Some(head.to_str().ok()?.as_bytes()),
            _ => None,
        };
        self.inner.fragment(chunk, head).map(Cow::into_owned)
    }
}

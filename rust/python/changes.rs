//! Change mode of the builder: every event also records a `jsondrip.Change(op, path, value)`
//! with its JSON Pointer. Twin: the `changes` parts of `src/jsondrip/twin/builder.py`.

use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use super::builder::PySink;
use crate::core::{Stop, Str};

static CHANGE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Where each open container sits in its parent, innermost last, kept in plain feeds too
/// (modes may mix). Keys live in one byte arena, so nesting costs no allocation per level and
/// memory stays linear in the depth; a pointer is joined only when a change is recorded.
#[derive(Default)]
pub struct Path {
    arena: Vec<u8>,
    segments: Vec<Segment>,
}

#[derive(Clone, Copy)]
enum Segment {
    /// The root container.
    Root,
    /// A property: its key is `arena[start..end]` (WTF-8 when `surrogates`).
    Key {
        start: usize,
        end: usize,
        surrogates: bool,
    },
    /// An array element.
    Index(usize),
}

impl Path {
    fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    pub fn push_key(&mut self, key: &[u8], surrogates: bool) {
        let start = self.arena.len();
        self.arena.extend_from_slice(key);
        self.push(Segment::Key {
            start,
            end: self.arena.len(),
            surrogates,
        });
    }

    pub fn push_index(&mut self, index: usize) {
        self.push(Segment::Index(index));
    }

    pub fn push_root(&mut self) {
        self.push(Segment::Root);
    }

    pub fn pop(&mut self) {
        if let Some(Segment::Key { start, .. }) = self.segments.pop() {
            self.arena.truncate(start);
        }
    }

    /// The JSON Pointer of the innermost container, then `last` (a key or index) if given.
    fn pointer(&self, last: Option<(&[u8], bool)>, index: Option<usize>) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        let mut surrogates = false;
        for segment in &self.segments {
            match *segment {
                Segment::Root => {}
                Segment::Key {
                    start,
                    end,
                    surrogates: s,
                } => {
                    out.push(b'/');
                    escape_into(&mut out, &self.arena[start..end]);
                    surrogates |= s;
                }
                Segment::Index(i) => push_index(&mut out, i),
            }
        }
        if let Some((key, s)) = last {
            out.push(b'/');
            escape_into(&mut out, key);
            surrogates |= s;
        }
        if let Some(i) = index {
            push_index(&mut out, i);
        }
        (out, surrogates)
    }
}

/// Appends `/` and an array index in decimal. By hand: `write!` goes through `core::fmt`,
/// which cost more than the rest of the pointer (a change is recorded per value).
fn push_index(out: &mut Vec<u8>, mut index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    out.push(b'/');
    out.extend_from_slice(&digits[at..]);
}

/// Appends a key as a reference token: `~` -> `~0`, `/` -> `~1`.
fn escape_into(out: &mut Vec<u8>, key: &[u8]) {
    for &b in key {
        match b {
            b'~' => out.extend_from_slice(b"~0"),
            b'/' => out.extend_from_slice(b"~1"),
            _ => out.push(b),
        }
    }
}

impl<'py> PySink<'_, 'py> {
    /// The position of the open slot in its container: its key, or its index (a new element
    /// when `appending`); None at the root.
    fn slot(&self, appending: bool) -> Option<Result<(&[u8], bool), usize>> {
        let b = &self.b;
        let (top, is_dict) = b.containers.last()?;
        if *is_dict {
            return Some(Ok((&b.key_bytes, b.key_surrogates)));
        }
        let len = top
            .bind(self.py)
            .cast::<PyList>()
            .expect("recorded as a list")
            .len();
        Some(Err(if appending { len } else { len - 1 }))
    }

    /// Remembers where a container about to be inserted will sit (before the insert).
    pub(super) fn push_path(&mut self) {
        match self.slot(true) {
            None => self.b.path.push_root(),
            Some(Err(index)) => self.b.path.push_index(index),
            Some(Ok(_)) => {
                let b = &mut *self.b;
                b.path.push_key(&b.key_bytes, b.key_surrogates);
            }
        }
    }

    /// The JSON Pointer of the open slot as a Python str.
    pub(super) fn slot_path(&mut self, appending: bool) -> Result<Bound<'py, PyAny>, Stop> {
        let (bytes, surrogates) = match self.slot(appending) {
            None => (Vec::new(), false),
            Some(Ok((key, s))) => self.b.path.pointer(Some((key, s)), None),
            Some(Err(index)) => self.b.path.pointer(None, Some(index)),
        };
        self.string_object(Str {
            bytes: &bytes,
            surrogates,
        })
    }

    /// Records a change, in change mode.
    pub(super) fn record(
        &mut self,
        op: &str,
        path: Bound<'py, PyAny>,
        value: Bound<'py, PyAny>,
    ) -> Result<(), Stop> {
        if self.b.changes.is_none() {
            return Ok(());
        }
        let py = self.py;
        let op = match op {
            "add" => intern!(py, "add"),
            "append" => intern!(py, "append"),
            "replace" => intern!(py, "replace"),
            _ => intern!(py, "remove"),
        };
        let class = CHANGE
            .import(py, "jsondrip._changes", "Change")
            .map_err(|e| self.stop(e))?;
        let items = [op.clone().into_any(), path, value];
        // SAFETY: Change is a tuple subclass (a NamedTuple, no fields of its own), so its
        // tp_alloc gives an instance with room for three items, as tuple's tp_new does for a
        // subclass before it copies the items in; PyTuple_SetItem fills each slot once (it
        // steals the reference). One allocation per change, where building it through
        // tp_new from a tuple of fields took three. NULL means an exception is set.
        let change = unsafe {
            let class = class.as_ptr().cast::<ffi::PyTypeObject>();
            let alloc = (*class).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            let change = Bound::from_owned_ptr_or_err(py, alloc(class, 3));
            change.and_then(|change| {
                for (at, item) in items.into_iter().enumerate() {
                    if ffi::PyTuple_SetItem(change.as_ptr(), at as ffi::Py_ssize_t, item.into_ptr())
                        != 0
                    {
                        return Err(PyErr::fetch(py));
                    }
                }
                Ok(change)
            })
        }
        .map_err(|e| self.stop(e))?;
        self.b
            .changes
            .as_mut()
            .expect("checked above")
            .push(change.unbind());
        Ok(())
    }

    /// Records a value taking a new slot: `add`, or `replace` for a repeated key.
    pub(super) fn record_new(&mut self, value: Bound<'py, PyAny>) -> Result<(), Stop> {
        if self.b.changes.is_none() {
            return Ok(());
        }
        let mut op = "add";
        if let Some((top, true)) = self.b.containers.last() {
            let key = self.b.key.as_ref().expect("a key precedes every property");
            // SAFETY: a live dict and a str key; Contains returns 1, 0 or -1 with an error.
            match unsafe { ffi::PyDict_Contains(top.as_ptr(), key.as_ptr()) } {
                1 => op = "replace",
                0 => {}
                _ => return Err(self.stop(PyErr::fetch(self.py))),
            }
        }
        let path = self.slot_path(true)?;
        self.record(op, path, value)
    }

    /// An empty container of the kind just opened, for its `add` (never the live one).
    pub(super) fn empty_like(&self, object: bool) -> Bound<'py, PyAny> {
        if object {
            PyDict::new(self.py).into_any()
        } else {
            PyList::empty(self.py).into_any()
        }
    }
}

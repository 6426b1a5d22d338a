//! Change mode of the builder: every event also records a `jsondrip.Change(op, path, value)`
//! with its JSON Pointer. Twin: the `changes` parts of `src/jsondrip/twin/builder.py`.
//!
//! The lazy form (`feed_pending`, with `Builder::pending` set) keeps each change as data (its
//! op, its pointer's bytes, its value) and makes the `Change` objects only when
//! `PendingChanges.build()` is called: a tool-call delta whose changes nobody reads costs no
//! pointer string, no `Change` and no list. Twin: `PendingChanges` in `twin/stream.py`.

use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::builder::PySink;
use crate::core::{Stop, Str};

/// Where each open container sits, kept in plain feeds too (modes may mix): the JSON Pointer
/// of the innermost one, written as containers open and cut back as they close, so that a
/// change's pointer is this text and its last token (one copy, not a walk of the levels).
/// Memory stays linear in the depth.
#[derive(Default)]
pub struct Path {
    /// The innermost open container's pointer (WTF-8 when `surrogates`).
    text: Vec<u8>,
    surrogates: bool,
    /// For each open container, innermost last: the pointer's length and flag before it.
    opened: Vec<(usize, bool)>,
}

impl Path {
    fn open(&mut self) {
        self.opened.push((self.text.len(), self.surrogates));
    }

    pub fn push_key(&mut self, key: &[u8], surrogates: bool) {
        self.open();
        self.text.push(b'/');
        escape_into(&mut self.text, key);
        self.surrogates |= surrogates;
    }

    pub fn push_index(&mut self, index: usize) {
        self.open();
        push_index(&mut self.text, index);
    }

    pub fn push_root(&mut self) {
        self.open();
    }

    pub fn pop(&mut self) {
        if let Some((len, surrogates)) = self.opened.pop() {
            self.text.truncate(len);
            self.surrogates = surrogates;
        }
    }

    /// Writes into `out` the JSON Pointer of the innermost container, then `last` (a key or
    /// index) if given; whether it holds lone surrogates (WTF-8).
    fn write_pointer(
        &self,
        out: &mut Vec<u8>,
        last: Option<(&[u8], bool)>,
        index: Option<usize>,
    ) -> bool {
        out.extend_from_slice(&self.text);
        let mut surrogates = self.surrogates;
        if let Some((key, s)) = last {
            out.push(b'/');
            escape_into(out, key);
            surrogates |= s;
        }
        if let Some(i) = index {
            push_index(out, i);
        }
        surrogates
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

    /// Writes into `out` the JSON Pointer of the open slot: its UTF-8 (WTF-8 when the flag
    /// returned is set) bytes.
    fn write_slot_pointer(&self, out: &mut Vec<u8>, appending: bool) -> bool {
        match self.slot(appending) {
            None => false,
            Some(Ok((key, s))) => self.b.path.write_pointer(out, Some((key, s)), None),
            Some(Err(index)) => self.b.path.write_pointer(out, None, Some(index)),
        }
    }

    /// The JSON Pointer of the open slot as a Python str.
    pub(super) fn slot_path(&mut self, appending: bool) -> Result<Bound<'py, PyAny>, Stop> {
        let mut bytes = Vec::new();
        let surrogates = self.write_slot_pointer(&mut bytes, appending);
        self.string_object(Str {
            bytes: &bytes,
            surrogates,
        })
    }

    /// Records a change, in change mode (kept as data in the lazy form).
    pub(super) fn record(
        &mut self,
        op: &str,
        path: Bound<'py, PyAny>,
        value: Bound<'py, PyAny>,
    ) -> Result<(), Stop> {
        if self.b.changes.is_none() {
            return Ok(());
        }
        if let Some(pending) = self.b.pending.as_mut() {
            pending.items.push(Item {
                op: Op::of(op),
                path: PathRef::Object(path.unbind()),
                value: Kept::Object(value.unbind()),
            });
            return Ok(());
        }
        let change = new_change(self.py, Op::of(op), path, value).map_err(|e| self.stop(e))?;
        self.b
            .changes
            .as_mut()
            .expect("checked above")
            .push(change.unbind());
        Ok(())
    }

    /// Records a value taking a new slot: `add`, or `replace` for a repeated key.
    pub(super) fn record_new(&mut self, value: Bound<'py, PyAny>) -> Result<(), Stop> {
        self.record_new_of(New::Value(value))
    }

    /// Records a container taking a new slot, announced empty (`object`: a dict).
    pub(super) fn record_new_container(&mut self, object: bool) -> Result<(), Stop> {
        self.record_new_of(New::Empty(object))
    }

    fn record_new_of(&mut self, value: New<'py>) -> Result<(), Stop> {
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
        if let Some(mut pending) = self.b.pending.take() {
            let start = pending.arena.len();
            let surrogates = self.write_slot_pointer(&mut pending.arena, true);
            let path = PathRef::Text(pending.span_from(start, surrogates));
            pending.items.push(Item {
                op: Op::of(op),
                path,
                value: match value {
                    New::Value(value) => Kept::Object(value.unbind()),
                    New::Empty(object) => Kept::Empty(object),
                },
            });
            self.b.pending = Some(pending);
            return Ok(());
        }
        let value = match value {
            New::Value(value) => value,
            New::Empty(object) => self.empty_like(object),
        };
        let path = self.slot_path(true)?;
        self.record(op, path, value)
    }

    /// Records an `append` of `text` to the open string at `path`; kept as bytes in the lazy
    /// form (the str is made only if the changes are built).
    pub(super) fn record_append(&mut self, path: Bound<'py, PyAny>, text: Str) -> Result<(), Stop> {
        if let Some(pending) = self.b.pending.as_mut() {
            let start = pending.arena.len();
            pending.arena.extend_from_slice(text.bytes);
            let value = Kept::Text(pending.span_from(start, text.surrogates));
            pending.items.push(Item {
                op: Op::Append,
                path: PathRef::Object(path.unbind()),
                value,
            });
            return Ok(());
        }
        let text = self.string_object(text)?;
        self.record("append", path, text)
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

/// A change's op, as the lazy form keeps it.
#[derive(Clone, Copy)]
enum Op {
    Add,
    Append,
    Replace,
    Remove,
}

impl Op {
    fn of(op: &str) -> Op {
        match op {
            "add" => Op::Add,
            "append" => Op::Append,
            "replace" => Op::Replace,
            _ => Op::Remove,
        }
    }

    fn name<'py>(self, py: Python<'py>) -> &'py Bound<'py, PyString> {
        match self {
            Op::Add => intern!(py, "add"),
            Op::Append => intern!(py, "append"),
            Op::Replace => intern!(py, "replace"),
            Op::Remove => intern!(py, "remove"),
        }
    }
}

/// A `jsondrip.Change(op, path, value)`.
fn new_change<'py>(
    py: Python<'py>,
    op: Op,
    path: Bound<'py, PyAny>,
    value: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let class = super::engine::change_class(py)?;
    let items = [op.name(py).clone().into_any(), path, value];
    // SAFETY: Change is a tuple subclass (a NamedTuple, no fields of its own), so its
    // tp_alloc gives an instance with room for three items, as tuple's tp_new does for a
    // subclass before it copies the items in; PyTuple_SetItem fills each slot once (it
    // steals the reference). One allocation per change, where building it through
    // tp_new from a tuple of fields took three. NULL means an exception is set.
    unsafe {
        let class = class.as_ptr().cast::<ffi::PyTypeObject>();
        let alloc = (*class).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
        let change = Bound::from_owned_ptr_or_err(py, alloc(class, 3))?;
        for (at, item) in items.into_iter().enumerate() {
            if ffi::PyTuple_SetItem(change.as_ptr(), at as ffi::Py_ssize_t, item.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(change)
    }
}

/// Where a kept change's pointer is: bytes in the arena, or a str made already (the open
/// string's, shared by its appends).
enum PathRef {
    Text(Span),
    Object(Py<PyAny>),
}

/// Text kept in a `Pending`'s arena: `arena[start..end]`, WTF-8 when `surrogates`.
struct Span {
    start: usize,
    end: usize,
    surrogates: bool,
}

impl Span {
    fn decode<'py>(&self, py: Python<'py>, arena: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        decode(py, &arena[self.start..self.end], self.surrogates)
    }
}

/// A new value as a change announces it: a value, or an empty container of a kind.
enum New<'py> {
    Value(Bound<'py, PyAny>),
    Empty(bool),
}

/// A kept change's value: an object, text in the arena (an `append`), or an empty container
/// (`true`: a dict) made when built.
enum Kept {
    Object(Py<PyAny>),
    Text(Span),
    Empty(bool),
}

struct Item {
    op: Op,
    path: PathRef,
    value: Kept,
}

/// The changes of one `feed_pending`, as data; pointers' bytes share one arena.
#[derive(Default)]
pub struct Pending {
    arena: Vec<u8>,
    items: Vec<Item>,
}

impl Pending {
    /// Empty, with room in the arena for a fragment's usual pointers and text (a 20-byte
    /// fragment of records makes two or three changes), so that it is not grown while
    /// recording them.
    pub fn new() -> Self {
        Pending {
            arena: Vec::with_capacity(64),
            items: Vec::new(),
        }
    }

    /// The text written into the arena since `start`, as a span.
    fn span_from(&self, start: usize, surrogates: bool) -> Span {
        Span {
            start,
            end: self.arena.len(),
            surrogates,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// The changes one fragment made, made into `Change`s only when asked (`build`).
#[pyclass(frozen, module = "jsondrip._native")]
pub struct PendingChanges {
    pending: Pending,
}

impl From<Pending> for PendingChanges {
    fn from(pending: Pending) -> Self {
        PendingChanges { pending }
    }
}

#[pymethods]
impl PendingChanges {
    /// The changes as a tuple of `jsondrip.Change`, a new one at each call (the same as
    /// `feed_changes` would have listed).
    fn build<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let pending = &self.pending;
        let mut changes = Vec::with_capacity(pending.items.len());
        for item in &pending.items {
            let path = match &item.path {
                PathRef::Object(path) => path.bind(py).clone(),
                PathRef::Text(span) => span.decode(py, &pending.arena)?,
            };
            let value = match &item.value {
                Kept::Object(value) => value.bind(py).clone(),
                Kept::Text(span) => span.decode(py, &pending.arena)?,
                Kept::Empty(true) => PyDict::new(py).into_any(),
                Kept::Empty(false) => PyList::empty(py).into_any(),
            };
            changes.push(new_change(py, item.op, path, value)?);
        }
        PyTuple::new(py, changes)
    }

    fn __len__(&self) -> usize {
        self.pending.items.len()
    }
}

/// A pointer's bytes as a str: UTF-8, or WTF-8 (lone surrogates) when `surrogates`.
fn decode<'py>(py: Python<'py>, bytes: &[u8], surrogates: bool) -> PyResult<Bound<'py, PyAny>> {
    if !surrogates {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return Ok(PyString::new(py, text).into_any());
        }
    }
    // SAFETY: the pointer and length describe `bytes`; the codec name is a C string literal;
    // the result is a new reference or NULL with an exception set.
    unsafe {
        let object = ffi::PyUnicode_DecodeUTF8(
            bytes.as_ptr().cast(),
            bytes.len() as ffi::Py_ssize_t,
            c"surrogatepass".as_ptr(),
        );
        Bound::from_owned_ptr_or_err(py, object)
    }
}

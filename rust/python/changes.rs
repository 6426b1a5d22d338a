//! Change mode of the builder: every event also records a `jsondrip.Change(op, path, value)`
//! with its JSON Pointer. Twin: the `changes` parts of `src/jsondrip/twin/builder.py`.
//!
//! The lazy form (`feed_pending`, with `Recorder::pending` set) keeps each change as data (its
//! op, its pointer's bytes, its value) and makes the `Change` objects only when
//! `PendingChanges.build()` is called: a tool-call delta whose changes nobody reads costs no
//! pointer string, no `Change` and no list. Twin: `PendingChanges` in `twin/engine.py`.

use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::core::escape::push_pointer_token;
use crate::core::Str;

/// Where each open container sits, kept in plain feeds too (modes may mix): the JSON Pointer
/// of the innermost one, written as containers open and cut back as they close, then the
/// token of the key read last in it (an object's), so that a change's pointer is this text,
/// or this text and an index (one copy, not a walk of the levels). Memory stays linear in
/// the depth, and is this one buffer (#28: memory per open stream), the key's bytes included:
/// every token begins with the text's last `/` (a `/` inside a key is escaped as `~1`), so
/// dropping one cuts the text back to that `/`.
#[derive(Default)]
pub struct Path {
    /// The pointer (WTF-8 when a key held a lone surrogate: such text is not UTF-8, and
    /// `decode` reads it as WTF-8 then).
    text: Vec<u8>,
}

impl Path {
    /// The bytes it holds outside itself.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity()
    }

    fn push_key(&mut self, key: &[u8]) {
        self.text.push(b'/');
        push_pointer_token(&mut self.text, key);
    }

    /// Drops the last token (none left: the root's empty pointer stays).
    fn pop(&mut self) {
        let start = self.text.iter().rposition(|&b| b == b'/').unwrap_or(0);
        self.text.truncate(start);
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

/// The open slot a change is about: the root, the key of the innermost object read last,
/// or an index of the innermost array.
#[derive(Clone, Copy)]
pub enum Slot {
    Root,
    Key,
    Index(usize),
}

/// Change mode's part of the builder: where each open container sits (kept in plain feeds
/// too: modes may mix), and the changes of the current feed when it records them. The builder
/// tells it where each event's slot is; it knows nothing of the builder.
#[derive(Default)]
pub struct Recorder {
    path: Path,
    /// Change mode: the changes recorded by the current `feed_changes`.
    pub changes: Option<Vec<Py<PyAny>>>,
    /// The lazy form of change mode (`feed_pending`): the changes kept as data instead
    /// (boxed: set only during such a feed, and handed over whole to `PendingChanges`).
    pub pending: Option<Box<Pending>>,
}

impl Recorder {
    /// The bytes it holds outside itself: the path, and the changes while a feed records them.
    pub fn heap_bytes(&self) -> usize {
        self.path.heap_bytes()
            + self.changes.as_ref().map_or(0, |changes| {
                changes.capacity() * std::mem::size_of::<Py<PyAny>>()
            })
            + self.pending.as_ref().map_or(0, |pending| {
                std::mem::size_of::<Pending>()
                    + pending.arena.capacity()
                    + pending.items.capacity() * std::mem::size_of::<Item>()
            })
    }

    /// True in change mode (either form).
    pub fn active(&self) -> bool {
        self.changes.is_some()
    }

    /// A key of the innermost object was read: its token ends the path, in place of the
    /// token of the key before it (`replacing`: one was read since the object opened or
    /// since its last container closed).
    pub fn set_key(&mut self, key: &[u8], replacing: bool) {
        if replacing {
            self.path.pop();
        }
        self.path.push_key(key);
    }

    /// Remembers where a container about to be inserted at `slot` will sit: the path as it
    /// is (after a key, its token ends it) or, in an array, the path and the index.
    pub fn open(&mut self, slot: Slot) {
        if let Slot::Index(index) = slot {
            push_index(&mut self.path.text, index);
        }
    }

    /// The innermost container ended: the token of the key read last in it goes (`keyed`:
    /// an object that read one since it opened or since its last container closed), then its
    /// own (a key's or an index's; the root has none), so that its parent has no key.
    pub fn close(&mut self, keyed: bool) {
        if keyed {
            self.path.pop();
        }
        self.path.pop();
    }

    /// Writes into `out` the JSON Pointer of `slot`: UTF-8 bytes, or WTF-8 when a key held a
    /// lone surrogate.
    fn write_slot_pointer(&self, out: &mut Vec<u8>, slot: Slot) {
        out.extend_from_slice(&self.path.text);
        if let Slot::Index(index) = slot {
            push_index(out, index);
        }
    }

    /// The JSON Pointer of `slot` as a Python str.
    pub fn slot_path<'py>(&self, py: Python<'py>, slot: Slot) -> PyResult<Bound<'py, PyAny>> {
        let mut bytes = Vec::new();
        self.write_slot_pointer(&mut bytes, slot);
        decode(py, &bytes, false)
    }

    /// Records a change, in change mode (kept as data in the lazy form).
    pub fn record<'py>(
        &mut self,
        py: Python<'py>,
        op: Op,
        path: Bound<'py, PyAny>,
        value: Bound<'py, PyAny>,
    ) -> PyResult<()> {
        let Some(changes) = self.changes.as_mut() else {
            return Ok(());
        };
        if let Some(pending) = self.pending.as_mut() {
            pending.items.push(Item {
                op,
                path: PathRef::Object(path.unbind()),
                value: Kept::Object(value.unbind()),
            });
            return Ok(());
        }
        changes.push(new_change(py, op, path, value)?.unbind());
        Ok(())
    }

    /// Records a value taking the new slot `slot`: `add`, or `replace` when `replacing` (a
    /// repeated key).
    pub fn record_new<'py>(
        &mut self,
        py: Python<'py>,
        slot: Slot,
        replacing: bool,
        value: New<'py>,
    ) -> PyResult<()> {
        if self.changes.is_none() {
            return Ok(());
        }
        let op = if replacing { Op::Replace } else { Op::Add };
        if let Some(mut pending) = self.pending.take() {
            let start = pending.arena.len();
            self.write_slot_pointer(&mut pending.arena, slot);
            let path = PathRef::Text(pending.span_from(start, false));
            pending.items.push(Item {
                op,
                path,
                value: match value {
                    New::Value(value) => Kept::Object(value.unbind()),
                    New::Empty(object) => Kept::Empty(object),
                },
            });
            self.pending = Some(pending);
            return Ok(());
        }
        let value = match value {
            New::Value(value) => value,
            New::Empty(object) => empty(py, object),
        };
        let path = self.slot_path(py, slot)?;
        self.record(py, op, path, value)
    }

    /// In the lazy form (`feed_pending`), records an `append` of `text` to the open string
    /// at `slot`, its path and text kept as bytes (their strs are made only if the changes
    /// are built): no path object is kept for the open string (#28: an open stream's
    /// memory). False outside the lazy form.
    pub fn record_pending_append(&mut self, slot: Slot, text: Str) -> bool {
        let Some(mut pending) = self.pending.take() else {
            return false;
        };
        let start = pending.arena.len();
        self.write_slot_pointer(&mut pending.arena, slot);
        let path = PathRef::Text(pending.span_from(start, false));
        let start = pending.arena.len();
        pending.arena.extend_from_slice(text.bytes);
        let value = Kept::Text(pending.span_from(start, text.surrogates));
        pending.items.push(Item {
            op: Op::Append,
            path,
            value,
        });
        self.pending = Some(pending);
        true
    }

    /// Records an `append` of `text` to the open string at `path`; kept as bytes in the lazy
    /// form (the str is made only if the changes are built).
    pub fn record_append<'py>(
        &mut self,
        py: Python<'py>,
        path: Bound<'py, PyAny>,
        text: Str,
    ) -> PyResult<()> {
        if let Some(pending) = self.pending.as_mut() {
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
        let text = decode(py, text.bytes, text.surrogates)?;
        self.record(py, Op::Append, path, text)
    }
}

/// An empty container of a kind (`object`: a dict), for a container's `add` (never the live
/// one) and for the builder's new containers.
pub fn empty(py: Python<'_>, object: bool) -> Bound<'_, PyAny> {
    if object {
        PyDict::new(py).into_any()
    } else {
        PyList::empty(py).into_any()
    }
}

/// A change's op.
#[derive(Clone, Copy)]
pub enum Op {
    Add,
    Append,
    Replace,
    Remove,
}

impl Op {
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
    let class = super::configured::change_class(py)?;
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
pub enum New<'py> {
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
    pending: Box<Pending>,
}

impl From<Box<Pending>> for PendingChanges {
    fn from(pending: Box<Pending>) -> Self {
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

/// A pointer's (or an append's) bytes as a str: UTF-8, or WTF-8 (lone surrogates) when
/// `surrogates` or when they are not UTF-8 (a pointer does not say whether its keys held any).
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

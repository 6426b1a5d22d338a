//! `NativeEngine`: one JSON stream, driven from Python: the native implementation of the
//! engine contract (`jsondrip._engine.Engine`, the same names). Twin: `src/jsondrip/twin/
//! engine.py`'s `PythonEngine` (and `twin/schema/checked.py`'s `CheckedEngine` with a schema);
//! `jsondrip.Parser` delegates to either.

use std::cell::{Cell, UnsafeCell};
use std::ops::{Deref, DerefMut};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};
use pyo3::{PyTraverseError, PyVisit};

use super::builder::Builder;
use super::changes::{Pending, PendingChanges};
use super::configured::{configured, dialect_of, fresh_copy, missing};
use super::fragment_text::with_utf8;
use super::schema::SchemaCheck;
use crate::core::Sink;
use crate::core::{Failure, Mode, ParseError, Stream};

/// `jsondrip.JSONDecodeError` for a core error, or `IncompleteJSONError` when the text only
/// ended too early; `doc` is the text around the position that the stream still had.
fn decode_error(py: Python<'_>, e: &ParseError) -> PyErr {
    let made = (|| {
        let doc = PyBytes::new(py, &e.doc).call_method1("decode", ("utf-8", "surrogatepass"))?;
        let msg = e.kind.to_string();
        let classes = configured(py)?;
        match e.expected {
            Some(expected) => classes.incomplete_error.bind(py).call1((
                msg,
                doc,
                e.pos,
                e.line,
                e.column,
                e.doc_start,
                expected,
            )),
            None => classes.decode_error.bind(py).call1((
                msg,
                doc,
                e.pos,
                e.line,
                e.column,
                e.doc_start,
            )),
        }
    })();
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(err) => err,
    }
}

/// Why a stream failed, kept to raise again on every later call. Each raise is a fresh
/// exception: one object raised again and again would grow its traceback at every raise, and
/// its traceback holds the caller's frame, which holds the parser (a cycle).
enum Failed {
    /// Invalid JSON: the core's error, turned into a new `JSONDecodeError` each time.
    Invalid(ParseError),
    /// A Python exception (say MemoryError) that stopped the builder: a copy taken before the
    /// first raise, copied again at each raise (`__traverse__` lets the collector see it).
    Raised(Py<PyAny>),
}

impl Failed {
    fn raise(&self, py: Python<'_>) -> PyErr {
        match self {
            Failed::Invalid(e) => decode_error(py, e),
            Failed::Raised(exception) => PyErr::from_value(fresh_copy(exception.bind(py))),
        }
    }
}

/// The native engine of one stream. Use it through `jsondrip.Parser`.
#[pyclass(frozen, module = "jsondrip._native")]
pub struct NativeEngine {
    /// Reached only through `enter`, one method at a time.
    state: UnsafeCell<EngineState>,
    /// A method is running: a finalizer that an allocation of the builder runs may call the
    /// engine again, and is refused, as pyo3's borrow check refuses it. A plain flag, not
    /// pyo3's: its atomic `cmpxchg` was a tenth of an empty `feed` (#28 item 3).
    busy: Cell<bool>,
}

// SAFETY: the state is reached only through `enter`, which pyo3's methods call with the
// interpreter attached, and which refuses a second entry while one is alive; the module is
// `gil_used` (mod.rs), so on a free-threaded build its import turns the GIL back on: one
// thread at a time. `__traverse__` reads the state only when no method is running (the
// collector may run inside one, from an allocation).
unsafe impl Sync for NativeEngine {}

/// The engine's state while a method runs (`NativeEngine::enter`).
pub(super) struct Entered<'a>(&'a NativeEngine);

impl Deref for Entered<'_> {
    type Target = EngineState;

    fn deref(&self) -> &EngineState {
        // SAFETY: this guard is the only way to the state while it lives (`enter`).
        unsafe { &*self.0.state.get() }
    }
}

impl DerefMut for Entered<'_> {
    fn deref_mut(&mut self) -> &mut EngineState {
        // SAFETY: as `deref`: one guard at a time, and it is borrowed mutably here.
        unsafe { &mut *self.0.state.get() }
    }
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        self.0.busy.set(false);
    }
}

impl NativeEngine {
    /// The state, for one method; RuntimeError ("Already borrowed", as pyo3 says it) while
    /// another method of this engine is running.
    #[inline]
    pub(super) fn enter(&self) -> PyResult<Entered<'_>> {
        if self.busy.replace(true) {
            return Err(PyRuntimeError::new_err("Already borrowed"));
        }
        Ok(Entered(self))
    }
}

/// What a `NativeEngine` holds: its stream, the value's builder, why it failed, its check.
pub(super) struct EngineState {
    stream: Stream,
    builder: Builder,
    /// Boxed, as the rest of the rarely used state: an open stream's size is what a server
    /// holding many pays for each (#28).
    failed: Option<Box<Failed>>,
    /// With `schema=`: the check, fed the machine's events by the sink of each read.
    schema: Option<Box<SchemaCheck>>,
}

impl EngineState {
    fn failed(&mut self, py: Python<'_>, failure: Failure) -> PyErr {
        match failure {
            Failure::Invalid(e) => {
                let err = decode_error(py, &e);
                self.failed = Some(Box::new(Failed::Invalid(*e)));
                err
            }
            Failure::Stopped => {
                let err = self
                    .builder
                    .error
                    .take()
                    .expect("a stopped sink keeps its error");
                let err = *err;
                let kept = fresh_copy(err.value(py)).unbind();
                self.failed = Some(Box::new(Failed::Raised(kept)));
                err
            }
            Failure::Closed => PyValueError::new_err("the parser is closed: feed() after close()"),
        }
    }

    /// The value, a string slot left stale by change mode brought up to date first.
    fn value_of(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.refresh(py)?;
        match &self.builder.root {
            Some(root) => Ok(root.clone_ref(py)),
            None => missing(py),
        }
    }

    /// Brings a string slot left stale by change mode up to date (inline: every `feed` asks,
    /// and only change mode leaves one stale).
    #[inline]
    fn refresh(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.builder.stale {
            return self.refresh_stale(py);
        }
        Ok(())
    }

    #[cold]
    fn refresh_stale(&mut self, py: Python<'_>) -> PyResult<()> {
        if let Some(text) = self.stream.open_string() {
            if self.builder.sink(py).refresh(text).is_err() {
                return Err(*self
                    .builder
                    .error
                    .take()
                    .expect("a stopped sink keeps its error"));
            }
        }
        Ok(())
    }

    /// `feed`, for `EngineFront.feed` too (front.rs), which calls it without a Python call.
    #[inline(always)]
    pub(super) fn feed_value(
        &mut self,
        py: Python<'_>,
        chunk: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        if self.read(py, chunk)? {
            return Ok(py.NotImplemented());
        }
        self.value_of(py)
    }

    /// `feed_changes`, for `EngineFront.feed_changes` too (front.rs).
    pub(super) fn feed_changes_list(
        &mut self,
        py: Python<'_>,
        chunk: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        self.builder.recorder.changes = Some(Vec::new());
        let read = self.read(py, chunk);
        let changes = self.builder.recorder.changes.take().unwrap_or_default();
        read?;
        Ok(PyList::new(py, changes)?.into_any().unbind())
    }

    /// `progress(path)`, for `EngineFront.progress` too (front.rs): read after every
    /// fragment by a typed reader, so it gets the same native call as `feed`.
    pub(super) fn progress_at(
        &mut self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        self.progress(py, Some(path))
    }

    /// `progress(path)` (see the method).
    fn progress(&mut self, py: Python<'_>, path: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let Some(schema) = &self.schema else {
            return Err(PyValueError::new_err(
                "progress() needs a Parser made with schema=...",
            ));
        };
        schema.check_failed(py)?;
        self.check_failed(py)?;
        self.refresh(py)?;
        let schema = self.schema.as_mut().expect("checked above");
        match path {
            Some(path) => schema.progress(py, self.builder.root.as_ref(), path),
            None => schema.progress(py, self.builder.root.as_ref(), intern!(py, "").as_any()),
        }
    }

    fn check_failed(&self, py: Python<'_>) -> PyResult<()> {
        match &self.failed {
            Some(failed) => Err(failed.raise(py)),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl NativeEngine {
    /// `NativeEngine(options)`: `options` is a `jsondrip._engine.EngineOptions` (its `mode`,
    /// `max_depth`, `max_size`, `dialect` and `schema`, read once here; the schema's node
    /// table and callables come from its `native_table()`).
    #[new]
    fn new(py: Python<'_>, options: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mode: String = options.getattr(intern!(py, "mode"))?.extract()?;
        let mode = match mode.as_str() {
            "stable" => Mode::Stable,
            "jiter" => Mode::Jiter,
            other => {
                return Err(PyValueError::new_err(format!(
                    "mode must be 'stable' or 'jiter', not {other:?}"
                )))
            }
        };
        let max_depth: usize = options.getattr(intern!(py, "max_depth"))?.extract()?;
        let max_size: Option<u64> = options.getattr(intern!(py, "max_size"))?.extract()?;
        let dialect: Option<(bool, bool)> = options.getattr(intern!(py, "dialect"))?.extract()?;
        let stop_at_end: bool = options.getattr(intern!(py, "stop_at_end"))?.extract()?;
        let schema = options.getattr(intern!(py, "schema"))?;
        let schema = if schema.is_none() {
            None
        } else {
            let table = schema.call_method0(intern!(py, "native_table"))?;
            Some(Box::new(SchemaCheck::new(&table)?))
        };
        let mut stream = Stream::with_dialect(mode, max_depth, max_size, dialect_of(py, dialect)?);
        if stop_at_end {
            stream.set_stop_at_end();
        }
        Ok(NativeEngine {
            state: UnsafeCell::new(EngineState {
                stream,
                builder: Builder::new(),
                failed: None,
                schema,
            }),
            busy: Cell::new(false),
        })
    }

    /// With `schema=`: the typed view of the value at the JSON Pointer `path` (a
    /// `jsondrip.schema.Progress`), read from the checker's open frames.
    /// `path` is taken as any object (no extraction: this runs after every fragment) and
    /// refused with the twin's TypeError unless it is a str; None is the root.
    #[pyo3(signature = (path = None))]
    fn progress(&self, py: Python<'_>, path: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        self.enter()?.progress(py, path)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if self.busy.get() {
            // A method runs (the collector came from one of its allocations): its state may
            // be half-changed. Nothing visited is as if held from outside: nothing is freed.
            return Ok(());
        }
        // SAFETY: no method is running, and the collector runs no method of this engine
        // while it visits.
        let state = unsafe { &*self.state.get() };
        if let Some(Failed::Raised(exception)) = state.failed.as_deref() {
            visit.call(exception)?;
        }
        state.builder.traverse(&visit)
    }

    fn __clear__(&self) {
        // The collector clears only garbage, never an engine a running method holds.
        let Ok(mut this) = self.enter() else { return };
        if let Some(Failed::Raised(_)) = this.failed.as_deref() {
            this.failed = None;
        }
        this.builder.clear();
    }

    /// Read one fragment (str, or UTF-8 bytes) and return the current best-effort value;
    /// with `stop_at_end`, `NotImplemented` instead when the document ended in this fragment
    /// (`end` and `end_index` say where).
    fn feed(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let mut this = self.enter()?;
        this.feed_value(py, chunk)
    }

    /// Read one fragment and return the list of `jsondrip.Change`s it made to the value.
    fn feed_changes(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let mut this = self.enter()?;
        this.feed_changes_list(py, chunk)
    }

    /// Read one fragment like `feed_changes`, and return its changes as a `PendingChanges`
    /// (made into `Change`s by its `build()`), or None when it made none.
    fn feed_pending(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let mut this = self.enter()?;
        this.builder.recorder.changes = Some(Vec::new());
        this.builder.recorder.pending = Some(Box::new(Pending::new()));
        let read = this.read(py, chunk);
        this.builder.recorder.changes = None;
        let pending = this.builder.recorder.pending.take().unwrap_or_default();
        read?;
        if pending.is_empty() {
            return Ok(py.None());
        }
        Ok(Py::new(py, PendingChanges::from(pending))?.into_any())
    }

    /// The current best-effort value (live: updated in place by later feeds); after a
    /// `SchemaViolation`, that violation again (the value broke the schema).
    #[getter]
    fn value(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut this = self.enter()?;
        if let Some(schema) = &this.schema {
            schema.check_failed(py)?;
        }
        this.value_of(py)
    }

    /// With `options.stop_at_end`, once a fragment held the document's end: the index in
    /// that fragment (in characters) of `end`'s position, else None.
    #[getter]
    fn end_index(&self) -> PyResult<Option<u64>> {
        let this = self.enter()?;
        Ok(this.stream.end_index())
    }

    /// True once a complete document has been read.
    #[getter]
    fn done(&self) -> PyResult<bool> {
        let this = self.enter()?;
        Ok(this.stream.done())
    }

    /// With `options.stop_at_end`: where the document ended, once a fragment held its end
    /// (the first character after it that is not whitespace: its position from the stream's
    /// start, line and column), else None. Nothing after it is read.
    #[getter]
    fn end(&self) -> PyResult<Option<(u64, u64, u64)>> {
        let this = self.enter()?;
        Ok(this.stream.end())
    }

    /// How many values along the live value's last path are still arriving (the open
    /// containers, and the string or jiter-mode number shown at their end): every other
    /// value shown is complete.
    #[getter]
    fn open_depth(&self) -> PyResult<usize> {
        let this = self.enter()?;
        Ok(this.stream.open_depth())
    }

    /// The machine's state as a dict (`rust/core/machine.rs` `DebugState`): `state`,
    /// `number` (the sub-state while in a number), `stack` (`{` and `[`, outermost first),
    /// `in_key`, `literal` and `hex` (characters read of a literal, of a `\u` escape),
    /// `high` (a high surrogate waiting for its low half), `line`, `offset`. The twin's
    /// `debug_state()` gives the same.
    fn debug_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let this = self.enter()?;
        let state = this.stream.debug_state();
        let dict = PyDict::new(py);
        dict.set_item("state", state.state)?;
        dict.set_item("number", state.number)?;
        dict.set_item("depth", state.depth)?;
        dict.set_item("stack", state.stack)?;
        dict.set_item("in_key", state.in_key)?;
        dict.set_item("key", state.key)?;
        dict.set_item("token_start", state.token_start)?;
        dict.set_item("literal", state.literal)?;
        dict.set_item("hex", state.hex)?;
        dict.set_item("hex_value", state.hex_value)?;
        dict.set_item("high", state.high)?;
        dict.set_item("escape_end", state.escape_end)?;
        dict.set_item("number_len", state.number_len)?;
        dict.set_item("number_valid", state.number_valid)?;
        dict.set_item("line", state.line)?;
        dict.set_item("line_start", state.line_start)?;
        dict.set_item("comma", state.comma)?;
        dict.set_item("bom_skipped", state.bom_skipped)?;
        dict.set_item("offset", state.offset)?;
        Ok(dict)
    }

    /// What this engine holds, in bytes, by part (the value's Python objects excluded: they
    /// are the user's): `object` (the engine itself, its fixed-size state), `buffers` (what
    /// its stream, machine and builder hold outside it: capacities, grown with need),
    /// `keys` (the key cache's tables) and `schema` (the boxed schema check, when there is
    /// one; its own tables are the `Schema`'s). A new engine's `buffers` and `keys` are 0.
    fn debug_memory<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let this = self.enter()?;
        let dict = PyDict::new(py);
        dict.set_item("object", std::mem::size_of::<NativeEngine>())?;
        let failed = this
            .failed
            .as_ref()
            .map_or(0, |_| std::mem::size_of::<Failed>());
        dict.set_item(
            "buffers",
            this.stream.heap_bytes() + this.builder.heap_bytes() + failed,
        )?;
        dict.set_item("keys", this.builder.keys_bytes())?;
        dict.set_item(
            "schema",
            this.schema
                .as_ref()
                .map_or(0, |_| std::mem::size_of::<SchemaCheck>()),
        )?;
        Ok(dict)
    }

    /// End the stream: the final value, or JSONDecodeError if it is incomplete or invalid.
    fn close(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut this = self.enter()?;
        this.finish(py)?;
        this.value_of(py)
    }

    /// End the stream like `close`, and return the `jsondrip.Change`s that completing the
    /// document made (say the `add` of a top-level number).
    fn close_changes(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut this = self.enter()?;
        this.builder.recorder.changes = Some(Vec::new());
        let ended = this.finish(py);
        let changes = this.builder.recorder.changes.take().unwrap_or_default();
        ended?;
        Ok(PyList::new(py, changes)?.into_any().unbind())
    }
}

impl EngineState {
    /// Ends the stream (again: a closed stream stays closed), or raises why it cannot end.
    fn finish(&mut self, py: Python<'_>) -> PyResult<()> {
        if let Some(schema) = &self.schema {
            schema.check_failed(py)?;
        }
        self.check_failed(py)?;
        let closed = match self.schema.as_mut() {
            None => self.stream.close(&mut self.builder.sink(py)),
            Some(schema) => self.stream.close(&mut schema.sink(self.builder.sink(py))),
        };
        if let Err(failure) = closed {
            return Err(self.failed(py, failure));
        }
        match self.schema.as_mut() {
            Some(schema) => schema.end_read(py), // what waited for the end (a root number)
            None => Ok(()),
        }
    }

    /// Reads one fragment into the stream (and with `schema=`, checks it as it goes);
    /// true when the document ended in it (with `stop_at_end`: `end_index` is set then).
    /// Inline: a frame of its own (its prologue, epilogue and result) between `feed_value`
    /// and the stream cost more than its own work on a 4-character fragment.
    #[inline(always)]
    fn read(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<bool> {
        let ended_before = self.stream.end().is_some();
        self.read_fragment(py, chunk)?;
        Ok(!ended_before && self.stream.end().is_some())
    }

    fn read_fragment(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Some(schema) = &self.schema {
            schema.check_failed(py)?;
        }
        self.check_failed(py)?;
        let result = match self.schema.as_mut() {
            None => feed_chunk(&mut self.stream, py, chunk, &mut self.builder.sink(py))?,
            Some(schema) => {
                let mut sink = schema.sink(self.builder.sink(py));
                feed_chunk(&mut self.stream, py, chunk, &mut sink)?
            }
        };
        if let Err(failure) = result {
            return Err(self.failed(py, failure));
        }
        match self.schema.as_mut() {
            Some(schema) => schema.end_read(py),
            None => Ok(()),
        }
    }
}

/// Feeds a str (as UTF-8, or WTF-8 when it holds lone surrogates: `fragment_text.rs`) or a
/// bytes-like chunk.
fn feed_chunk<S: Sink>(
    stream: &mut Stream,
    py: Python<'_>,
    chunk: &Bound<'_, PyAny>,
    sink: &mut S,
) -> PyResult<Result<(), Failure>> {
    Ok(if let Ok(text) = chunk.cast::<PyString>() {
        with_utf8(text, |text, chars, wtf8| {
            stream.feed_counted(text, chars, wtf8, sink)
        })?
    } else if let Ok(bytes) = chunk.cast::<PyBytes>() {
        stream.feed_bytes(bytes.as_bytes(), sink)
    } else if let Ok(array) = chunk.cast::<PyByteArray>() {
        stream.feed_bytes(&array.to_vec(), sink)
    } else if chunk.is_instance_of::<pyo3::types::PyMemoryView>() {
        let bytes = py.get_type::<PyBytes>().call1((chunk,))?;
        stream.feed_bytes(bytes.cast::<PyBytes>()?.as_bytes(), sink)
    } else {
        let kind = chunk.get_type().name()?;
        return Err(PyTypeError::new_err(format!(
            "feed() takes str, bytes, bytearray or memoryview, not {kind}"
        )));
    })
}

//! `EngineFront`: the base of `jsondrip.Parser` and `jsondrip.OutputParser`, holding the
//! engine that reads the next fragments and forwarding `feed` (and `feed_changes`, and
//! `progress`, which a typed reader calls after every fragment) to it in one native call. A
//! Python method that only delegates (`return self._engine.feed(chunk)`) costs a frame per
//! fragment, as much as the engine's own work on a 4-character fragment (#28 item 3); this is
//! that method, native. Twin: `_engine.py`'s `PythonFront` (the same rules in Python, for
//! pure builds).

use std::cell::{Cell, UnsafeCell};

use pyo3::exceptions::PyAttributeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::{PyTraverseError, PyVisit};

use super::engine::{EngineState, NativeEngine};

/// The base of `jsondrip.Parser` and `jsondrip.OutputParser`: holds the engine that reads
/// the next fragments (`_engine`) and forwards `feed` (and `feed_changes`) to it.
///
/// A subclass that sets `_hooks = True` (`OutputParser`) reads only str fragments the fast
/// way, and only while `_engine` is set; it takes over in Python where the engine stops:
/// `_feed_slow(chunk)` without an engine or for bytes, `_feed_ended(chunk)` when the engine's
/// `feed` returned `NotImplemented` (its document ended in `chunk`), `_feed_failed(chunk,
/// error)` when it raised.
#[pyclass(frozen, subclass, weakref, module = "jsondrip._native")]
pub struct EngineFront {
    /// `_engine`: read (a reference taken for the call) and replaced whole, only with the
    /// interpreter held. Not pyo3's borrow flag: its atomic `cmpxchg` and decrement were a
    /// tenth of an empty `feed` (#28 item 3), for a field no call keeps a reference into.
    engine: UnsafeCell<Option<Py<PyAny>>>,
    /// `_engine` is a `NativeEngine`: found once when it is set, not at every call.
    native: Cell<bool>,
    hooks: Cell<bool>,
}

// SAFETY: the cells are read and written only by this class's methods, which pyo3 runs with
// the interpreter attached; the module is `gil_used` (mod.rs), so on a free-threaded build its
// import turns the GIL back on: one thread at a time. No method keeps a reference into
// `engine` across a call that can run Python code: `held` clones the engine out, and the
// setter swaps the new one in before the old one is released (its release may run a
// finalizer, which may set `_engine` again).
unsafe impl Sync for EngineFront {}

/// A front's engine for the length of one call: a reference of its own (the call may run
/// Python code that sets `_engine` again), as a `Bound`, whose release is a plain decref (a
/// `Py`'s drop first reads pyo3's thread-local attach count).
enum Target<'py> {
    /// A native engine: fed without a Python call.
    Native(Bound<'py, NativeEngine>),
    /// Any other (the twin's, `multiple=`'s reader): its methods called through Python.
    Other(Bound<'py, PyAny>),
}

#[pymethods]
impl EngineFront {
    /// Takes any arguments, for the subclass's `__init__` (which sets `_engine`).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyAny>, _kwargs: Option<&Bound<'_, PyAny>>) -> Self {
        EngineFront {
            engine: UnsafeCell::new(None),
            native: Cell::new(false),
            hooks: Cell::new(false),
        }
    }

    /// The engine that reads the next fragments (`jsondrip._engine.Engine`), or None.
    #[getter(_engine)]
    fn engine(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.held(py).map(Bound::unbind)
    }

    #[setter(_engine)]
    fn set_engine(&self, py: Python<'_>, engine: Option<Py<PyAny>>) {
        let native = engine
            .as_ref()
            .is_some_and(|engine| engine.bind(py).is_instance_of::<NativeEngine>());
        self.native.set(native);
        // SAFETY: see the `Sync` impl: no reference into the cell is alive here, and the old
        // engine is released after the swap, when the cell no longer holds it.
        let old = unsafe { std::mem::replace(&mut *self.engine.get(), engine) };
        drop(old);
    }

    /// Whether the subclass takes over where the engine stops (see the class).
    #[getter(_hooks)]
    fn hooks(&self) -> bool {
        self.hooks.get()
    }

    #[setter(_hooks)]
    fn set_hooks(&self, hooks: bool) {
        self.hooks.set(hooks);
    }

    /// Read a fragment (str, or UTF-8 bytes) and return the current best-effort value.
    ///
    /// Raises `JSONDecodeError` as soon as the text cannot be the start of a valid document,
    /// and again on every later call. With `schema=`, raises `SchemaViolation` as soon as
    /// the text cannot be completed into a document the schema accepts (and again later).
    fn feed(slf: &Bound<'_, Self>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let front = slf.get();
        let engine = front.target_or_none(py);
        let name: MethodName = |py| intern!(py, "feed");
        if !front.hooks.get() {
            let engine = engine.ok_or_else(no_engine)?;
            return forward(&engine, chunk, name, EngineState::feed_value);
        }
        let engine = match engine {
            Some(engine) if chunk.is_exact_instance_of::<PyString>() => engine,
            _ => {
                return Ok(slf
                    .call_method1(intern!(py, "_feed_slow"), (chunk,))?
                    .unbind())
            }
        };
        match forward(&engine, chunk, name, EngineState::feed_value) {
            Ok(value) if !value.is(py.NotImplemented()) => Ok(value),
            Ok(_) => Ok(slf
                .call_method1(intern!(py, "_feed_ended"), (chunk,))?
                .unbind()),
            Err(error) => Ok(slf
                .call_method1(intern!(py, "_feed_failed"), (chunk, error.into_value(py)))?
                .unbind()),
        }
    }

    /// Read a fragment like `feed`, and return the changes it made to the value.
    ///
    /// Each is a `Change(op, path, value)` with a JSON Pointer `path`: `add` (a new property,
    /// element or root, containers announced empty), `append` (text added to a string:
    /// `value` is only the new text), `replace` (a value set anew: a repeated key, or in
    /// jiter mode a number whose digits grew) and, in jiter mode only, `remove` (a number
    /// taken back). `apply_changes` replays them. A string growing in this mode costs only
    /// its new text: its slot in the live value is brought up to date when `value` is read.
    fn feed_changes(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let engine = self.target(py)?;
        let name: MethodName = |py| intern!(py, "feed_changes");
        forward(&engine, chunk, name, EngineState::feed_changes_list)
    }

    /// The typed view of the value at a JSON Pointer `path` (needs `schema=`): whether it
    /// is missing, still arriving or final (and valid), its live value, and for an enum
    /// string still arriving the members it can still become. After a `SchemaViolation` it
    /// raises that violation again.
    #[pyo3(signature = (path = None))]
    fn progress(&self, py: Python<'_>, path: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let engine = self.target(py)?;
        // `intern!`: made once, not a str made and interned on every call
        let path = path.unwrap_or(intern!(py, "").as_any());
        let name: MethodName = |py| intern!(py, "progress");
        forward(&engine, path, name, EngineState::progress_at)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        // SAFETY: the collector runs with the interpreter held, and no method of this class
        // holds a reference into the cell while Python code (the collector) can run.
        if let Some(engine) = unsafe { &*self.engine.get() } {
            visit.call(engine)?;
        }
        Ok(())
    }

    fn __clear__(&self, py: Python<'_>) {
        self.set_engine(py, None);
    }
}

impl EngineFront {
    /// `_engine`, a reference of the caller's own, or None.
    fn held<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        // SAFETY: see the `Sync` impl: the shared reference ends with the clone (an incref,
        // which runs no Python code).
        unsafe { &*self.engine.get() }
            .as_ref()
            .map(|engine| engine.bind(py).clone())
    }

    /// The engine for one call, or None.
    fn target_or_none<'py>(&self, py: Python<'py>) -> Option<Target<'py>> {
        let engine = self.held(py)?;
        Some(if self.native.get() {
            // SAFETY: `native` was set with this engine, found an instance of NativeEngine.
            Target::Native(unsafe { engine.cast_into_unchecked::<NativeEngine>() })
        } else {
            Target::Other(engine)
        })
    }

    /// The engine for one call, or the AttributeError of a front without one.
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Target<'py>> {
        self.target_or_none(py).ok_or_else(no_engine)
    }
}

/// The error of a front whose `_engine` is not set (as reading the attribute would raise).
fn no_engine() -> PyErr {
    PyAttributeError::new_err("_engine")
}

type NativeCall =
    for<'py> fn(&mut EngineState, Python<'py>, &Bound<'py, PyAny>) -> PyResult<Py<PyAny>>;

/// The name of the method that `forward` calls on an engine that is not native (interned
/// only then).
type MethodName = for<'py> fn(Python<'py>) -> &'py Bound<'py, PyString>;

/// Calls the engine's method `name` with `chunk`: a native engine directly, any other (the
/// twin's, `multiple=`'s reader) through Python.
fn forward(
    engine: &Target<'_>,
    chunk: &Bound<'_, PyAny>,
    name: MethodName,
    native: NativeCall,
) -> PyResult<Py<PyAny>> {
    match engine {
        Target::Native(engine) => native(&mut *engine.get().enter()?, engine.py(), chunk),
        Target::Other(engine) => Ok(engine.call_method1(name(engine.py()), (chunk,))?.unbind()),
    }
}

//! `EngineFront`: the base of `jsondrip.Parser` and `jsondrip.OutputParser`, holding the
//! engine that reads the next fragments and forwarding `feed` (and `feed_changes`, and
//! `progress`, which a typed reader calls after every fragment) to it in one native call. A
//! Python method that only delegates (`return self._engine.feed(chunk)`) costs a frame per
//! fragment, as much as the engine's own work on a 4-character fragment (#28 item 3); this is
//! that method, native. Twin: `_engine.py`'s `PythonFront` (the same rules in Python, for
//! pure builds).

use pyo3::exceptions::PyAttributeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::{PyTraverseError, PyVisit};

use super::engine::NativeEngine;

/// The base of `jsondrip.Parser` and `jsondrip.OutputParser`: holds the engine that reads
/// the next fragments (`_engine`) and forwards `feed` (and `feed_changes`) to it.
///
/// A subclass that sets `_hooks = True` (`OutputParser`) reads only str fragments the fast
/// way, and only while `_engine` is set; it takes over in Python where the engine stops:
/// `_feed_slow(chunk)` without an engine or for bytes, `_feed_ended(chunk)` when the engine's
/// `feed` returned `NotImplemented` (its document ended in `chunk`), `_feed_failed(chunk,
/// error)` when it raised.
#[pyclass(subclass, weakref, module = "jsondrip._native")]
pub struct EngineFront {
    engine: Option<Py<PyAny>>,
    hooks: bool,
}

/// A front's engine for the length of one call: a reference of its own (the call may run
/// Python code that sets `_engine` again), as a `Bound`, whose release is a plain decref (a
/// `Py`'s drop first reads pyo3's thread-local attach count).
enum Target<'py> {
    /// A native engine: fed without a Python call.
    Native(Bound<'py, NativeEngine>),
    /// Any other (the twin's, `multiple=`'s reader): its methods called through Python.
    Other(Bound<'py, PyAny>),
}

/// The engine `held` for one call, or None.
fn target<'py>(held: &Option<Py<PyAny>>, py: Python<'py>) -> Option<Target<'py>> {
    let engine = held.as_ref()?.bind(py).clone();
    Some(match engine.cast_into::<NativeEngine>() {
        Ok(native) => Target::Native(native),
        Err(other) => Target::Other(other.into_inner()),
    })
}

#[pymethods]
impl EngineFront {
    /// Takes any arguments, for the subclass's `__init__` (which sets `_engine`).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyAny>, _kwargs: Option<&Bound<'_, PyAny>>) -> Self {
        EngineFront {
            engine: None,
            hooks: false,
        }
    }

    /// The engine that reads the next fragments (`jsondrip._engine.Engine`), or None.
    #[getter(_engine)]
    fn engine(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.engine.as_ref().map(|engine| engine.clone_ref(py))
    }

    #[setter(_engine)]
    fn set_engine(&mut self, engine: Option<Py<PyAny>>) {
        self.engine = engine;
    }

    /// Whether the subclass takes over where the engine stops (see the class).
    #[getter(_hooks)]
    fn hooks(&self) -> bool {
        self.hooks
    }

    #[setter(_hooks)]
    fn set_hooks(&mut self, hooks: bool) {
        self.hooks = hooks;
    }

    /// Read a fragment (str, or UTF-8 bytes) and return the current best-effort value.
    ///
    /// Raises `JSONDecodeError` as soon as the text cannot be the start of a valid document,
    /// and again on every later call. With `schema=`, raises `SchemaViolation` as soon as
    /// the text cannot be completed into a document the schema accepts (and again later).
    fn feed(slf: &Bound<'_, Self>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let (engine, hooks) = {
            let front = slf.try_borrow()?;
            (target(&front.engine, py), front.hooks)
        };
        let name: MethodName = |py| intern!(py, "feed");
        if !hooks {
            let engine = engine.ok_or_else(no_engine)?;
            return forward(&engine, chunk, name, NativeEngine::feed_value);
        }
        let engine = match engine {
            Some(engine) if chunk.is_exact_instance_of::<PyString>() => engine,
            _ => {
                return Ok(slf
                    .call_method1(intern!(py, "_feed_slow"), (chunk,))?
                    .unbind())
            }
        };
        match forward(&engine, chunk, name, NativeEngine::feed_value) {
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
        forward(&engine, chunk, name, NativeEngine::feed_changes_list)
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
        forward(&engine, path, name, NativeEngine::progress_at)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(engine) = &self.engine {
            visit.call(engine)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.engine = None;
    }
}

impl EngineFront {
    /// The engine for one call, or the AttributeError of a front without one.
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Target<'py>> {
        target(&self.engine, py).ok_or_else(no_engine)
    }
}

/// The error of a front whose `_engine` is not set (as reading the attribute would raise).
fn no_engine() -> PyErr {
    PyAttributeError::new_err("_engine")
}

type NativeCall =
    for<'py> fn(&mut NativeEngine, Python<'py>, &Bound<'py, PyAny>) -> PyResult<Py<PyAny>>;

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
        Target::Native(engine) => native(&mut *engine.try_borrow_mut()?, engine.py(), chunk),
        Target::Other(engine) => Ok(engine.call_method1(name(engine.py()), (chunk,))?.unbind()),
    }
}

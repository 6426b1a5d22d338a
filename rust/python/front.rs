//! `EngineFront`: the base of `jsondrip.Parser`, holding its engine and forwarding `feed` to
//! it in one native call. A Python method that delegates (`return self._engine.feed(chunk)`)
//! costs a frame per fragment, as much as the engine's own work on a 4-character fragment
//! (#28 item 3); this is that method, native. Twin: `_engine.py`'s `EngineFront` (the same
//! method in Python, for pure builds).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::{PyTraverseError, PyVisit};

use super::engine::NativeEngine;

/// The base of `jsondrip.Parser`: holds its engine (`_engine`) and forwards `feed` to it.
#[pyclass(subclass, weakref, module = "jsondrip._native")]
pub struct EngineFront {
    engine: Option<Py<PyAny>>,
}

#[pymethods]
impl EngineFront {
    /// Takes any arguments, for the subclass's `__init__` (which sets `_engine`).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyAny>, _kwargs: Option<&Bound<'_, PyAny>>) -> Self {
        EngineFront { engine: None }
    }

    /// The engine every method delegates to (`jsondrip._engine.Engine`).
    #[getter(_engine)]
    fn engine(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.engine {
            Some(engine) => Ok(engine.clone_ref(py)),
            None => Err(pyo3::exceptions::PyAttributeError::new_err("_engine")),
        }
    }

    #[setter(_engine)]
    fn set_engine(&mut self, engine: Py<PyAny>) {
        self.engine = Some(engine);
    }

    /// Read a fragment (str, or UTF-8 bytes) and return the current best-effort value.
    ///
    /// Raises `JSONDecodeError` as soon as the text cannot be the start of a valid document,
    /// and again on every later call. With `schema=`, raises `SchemaViolation` as soon as
    /// the text cannot be completed into a document the schema accepts (and again later).
    fn feed(&self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.forward(py, chunk, intern!(py, "feed"), NativeEngine::feed_value)
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
        let name = intern!(py, "feed_changes");
        self.forward(py, chunk, name, NativeEngine::feed_changes_list)
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

type NativeCall =
    for<'py> fn(&mut NativeEngine, Python<'py>, &Bound<'py, PyAny>) -> PyResult<Py<PyAny>>;

impl EngineFront {
    /// Calls the engine's method `name` with `chunk`: a native engine directly, any other
    /// (the twin's, `multiple=`'s reader) through Python.
    fn forward(
        &self,
        py: Python<'_>,
        chunk: &Bound<'_, PyAny>,
        name: &Bound<'_, pyo3::types::PyString>,
        native: NativeCall,
    ) -> PyResult<Py<PyAny>> {
        let Some(engine) = &self.engine else {
            return Err(pyo3::exceptions::PyAttributeError::new_err("_engine"));
        };
        let engine = engine.bind(py);
        match engine.cast::<NativeEngine>() {
            Ok(found) => native(&mut *found.try_borrow_mut()?, py, chunk),
            Err(_) => Ok(engine.call_method1(name, (chunk,))?.unbind()),
        }
    }
}

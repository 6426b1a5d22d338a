//! What `jsondrip._engine` hands the extension once, at import (`configure`): the running
//! interpreter's json dialect and the classes the engines' results are made of. Every other
//! module of the pyo3 layer reads them here, so that none depends on the engine's module.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::core::Dialect;

/// What `jsondrip._engine` tells the extension once, at import ([`configure`]): the running
/// interpreter's json dialect and the classes the engines' results are made of. The
/// extension never imports a jsondrip module: it is given what it makes.
pub(super) struct Configured {
    pub(super) dialect: Dialect,
    pub(super) missing: Py<PyAny>,
    pub(super) decode_error: Py<PyAny>,
    pub(super) incomplete_error: Py<PyAny>,
    pub(super) change: Py<PyAny>,
}

static CONFIGURED: PyOnceLock<Configured> = PyOnceLock::new();

/// Tells the extension, once, what its engines need: `dialect` is the running interpreter's
/// json dialect `(trailing_comma, escape_at_end_unterminated)`; `missing` is
/// `jsondrip.MISSING`; `decode_error` and `incomplete_error` the two error classes
/// (`JSONDecodeError`, `IncompleteJSONError`); `change` the `Change` class. A second call
/// changes nothing.
#[pyfunction]
pub fn configure(
    py: Python<'_>,
    dialect: (bool, bool),
    missing: Py<PyAny>,
    decode_error: Py<PyAny>,
    incomplete_error: Py<PyAny>,
    change: Py<PyAny>,
) {
    let (trailing_comma, escape_at_end_unterminated) = dialect;
    CONFIGURED.get_or_init(py, || Configured {
        dialect: Dialect {
            trailing_comma,
            escape_at_end_unterminated,
        },
        missing,
        decode_error,
        incomplete_error,
        change,
    });
}

pub(super) fn configured(py: Python<'_>) -> PyResult<&Configured> {
    CONFIGURED.get(py).ok_or_else(|| {
        PyRuntimeError::new_err(
            "jsondrip._native is used through jsondrip._engine, which configures it",
        )
    })
}

pub(super) fn dialect_of(py: Python<'_>, flags: Option<(bool, bool)>) -> PyResult<Dialect> {
    Ok(match flags {
        Some((trailing_comma, escape_at_end_unterminated)) => Dialect {
            trailing_comma,
            escape_at_end_unterminated,
        },
        None => configured(py)?.dialect,
    })
}

pub(super) fn missing(py: Python<'_>) -> PyResult<Py<PyAny>> {
    Ok(configured(py)?.missing.clone_ref(py))
}

/// The `Change` class (changes.rs makes its instances).
pub(super) fn change_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    Ok(configured(py)?.change.bind(py))
}

/// `copy.copy(exception)`: the same type and arguments, no traceback; the exception itself
/// where it cannot be copied.
pub(super) fn fresh_copy<'py>(exception: &Bound<'py, PyAny>) -> Bound<'py, PyAny> {
    let py = exception.py();
    py.import("copy")
        .and_then(|copy| copy.call_method1("copy", (exception,)))
        .unwrap_or_else(|_| exception.clone())
}

//! Pausing the cyclic garbage collector around a one-shot `loads`.
//!
//! CPython 3.10 added `PyGC_Disable`/`PyGC_Enable` to the C API; on 3.9 (and on any build
//! without them) the same switch is the `gc` module's `disable`/`enable`, looked up once.

use pyo3::prelude::*;

#[cfg(all(Py_3_10, not(any(PyPy, GraalPy))))]
use pyo3::ffi;

/// Turns the collector off; true if it was on (then [`resume`] must be called).
pub fn pause(py: Python<'_>) -> bool {
    #[cfg(all(Py_3_10, not(any(PyPy, GraalPy))))]
    {
        let _ = py;
        // SAFETY: the interpreter is held (a `Python` token proves it).
        unsafe { ffi::PyGC_Disable() == 1 }
    }
    #[cfg(not(all(Py_3_10, not(any(PyPy, GraalPy)))))]
    {
        module::call(py, "isenabled").is_some_and(|on| on.is_truthy().unwrap_or(false))
            && module::call(py, "disable").is_some()
    }
}

/// Turns the collector back on after a [`pause`] that returned true; an exception set
/// meanwhile stays set.
pub fn resume(py: Python<'_>) {
    #[cfg(all(Py_3_10, not(any(PyPy, GraalPy))))]
    {
        let _ = py;
        // SAFETY: as in `pause`.
        unsafe { ffi::PyGC_Enable() };
    }
    #[cfg(not(all(Py_3_10, not(any(PyPy, GraalPy)))))]
    {
        // The parse may have left an exception set (a RecursionError, a hook's error): a call
        // into Python must not see it, and it must survive the call.
        let pending = PyErr::take(py);
        module::call(py, "enable");
        if let Some(err) = pending {
            err.restore(py);
        }
    }
}

#[cfg(not(all(Py_3_10, not(any(PyPy, GraalPy)))))]
mod module {
    use pyo3::prelude::*;
    use pyo3::sync::PyOnceLock;

    static GC: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

    /// `gc.<name>()`, or None if the module or the call failed (the collector is then left
    /// as it is: pausing it is an optimisation, never a condition).
    pub fn call<'py>(py: Python<'py>, name: &str) -> Option<Bound<'py, PyAny>> {
        let gc = GC
            .get_or_try_init(py, || py.import("gc").map(Bound::unbind))
            .ok()?;
        gc.bind(py).call_method0(name).ok()
    }
}

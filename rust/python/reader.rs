//! `NativeEngine.progress_reader()`: the typed view as a plain C function bound to the engine
//! (METH_FASTCALL | METH_KEYWORDS), which `Parser.progress` is. Read after every fragment,
//! the call itself is most of its cost: this skips pyo3's generic argument parsing and
//! trampoline (measured: about a quarter of a call), and does the same checks by hand.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::null_mut;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::engine::NativeEngine;

/// `progress(path="")`: the arguments read by hand, then the engine's own `progress`.
unsafe extern "C" fn progress(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a METH_FASTCALL function with the interpreter attached.
    let py = unsafe { Python::assume_attached() };
    let outcome = catch_unwind(AssertUnwindSafe(|| -> PyResult<Py<PyAny>> {
        // SAFETY: `slf` is the engine this function was bound to (a live, owned reference
        // held by the function object); `args` holds `nargs` positional then the keyword
        // values named by `kwnames`, as the fastcall protocol says.
        let engine = unsafe { Bound::from_borrowed_ptr(py, slf) }.cast_into::<NativeEngine>()?;
        let positional = nargs as usize;
        let keywords = if kwnames.is_null() {
            0
        } else {
            // SAFETY: kwnames is a tuple of str when it is not NULL.
            unsafe { Bound::from_borrowed_ptr(py, kwnames) }
                .cast_into::<PyTuple>()?
                .len()
        };
        if positional + keywords > 1 {
            return Err(PyTypeError::new_err(
                "progress() takes at most one argument (path)",
            ));
        }
        if keywords == 1 {
            // SAFETY: as above: a one-element tuple of str.
            let names = unsafe { Bound::from_borrowed_ptr(py, kwnames) };
            if !names.get_item(0)?.eq("path")? {
                return Err(PyTypeError::new_err(
                    "progress() got an unexpected keyword argument",
                ));
            }
        }
        let path = if positional + keywords == 1 {
            // SAFETY: the one argument, positional or keyword, is args[0].
            let arg = unsafe { Bound::from_borrowed_ptr(py, *args) };
            Some(
                arg.cast_into::<PyString>()
                    .map_err(|_| PyTypeError::new_err("progress() takes a JSON Pointer str"))?,
            )
        } else {
            None
        };
        let mut engine = engine.try_borrow_mut()?;
        engine.progress(py, path)
    }));
    let result = outcome.unwrap_or_else(|_| Err(PanicException::new_err("progress() panicked")));
    match result {
        Ok(value) => value.into_ptr(),
        Err(err) => {
            err.restore(py);
            null_mut()
        }
    }
}

static mut DEF: ffi::PyMethodDef = ffi::PyMethodDef {
    ml_name: c"progress".as_ptr(),
    ml_meth: ffi::PyMethodDefPointer {
        PyCFunctionFastWithKeywords: progress,
    },
    ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
    ml_doc: c"progress(path='') -> Progress: the typed view of the value at a JSON Pointer"
        .as_ptr(),
};

/// The engine's `progress`, as a C function bound to it.
pub fn reader<'py>(engine: &Bound<'py, NativeEngine>) -> PyResult<Bound<'py, PyAny>> {
    let py = engine.py();
    if !engine.borrow().has_schema() {
        return Err(PyValueError::new_err(
            "progress() needs a Parser made with schema=...",
        ));
    }
    // SAFETY: DEF is a static definition CPython only reads; the function object keeps a
    // reference to the engine; the result is a new reference or NULL with an error set.
    unsafe {
        let function = ffi::PyCFunction_NewEx(&raw mut DEF, engine.as_ptr(), null_mut());
        Bound::from_owned_ptr_or_err(py, function)
    }
}

//! A new dict with room for a known number of entries.
//!
//! CPython's `_PyDict_NewPresized` (what its own BUILD_MAP uses) is exported but outside the
//! limited API and pyo3's bindings: it is used where it is known to exist (CPython 3.9 to
//! 3.14, full API), and elsewhere an ordinary dict grows as it is filled.

use pyo3::ffi;

#[cfg(not(any(PyPy, GraalPy, Py_LIMITED_API, Py_3_15)))]
extern "C" {
    fn _PyDict_NewPresized(minused: ffi::Py_ssize_t) -> *mut ffi::PyObject;
}

/// A new empty dict that takes `len` entries without growing, or NULL with an exception set.
///
/// # Safety
/// The interpreter must be held.
#[inline]
pub unsafe fn presized_dict(len: usize) -> *mut ffi::PyObject {
    #[cfg(not(any(PyPy, GraalPy, Py_LIMITED_API, Py_3_15)))]
    // SAFETY: as the caller promised; returns a new dict or NULL.
    return unsafe { _PyDict_NewPresized(len as ffi::Py_ssize_t) };
    #[cfg(any(PyPy, GraalPy, Py_LIMITED_API, Py_3_15))]
    {
        let _ = len;
        // SAFETY: as the caller promised; returns a new dict or NULL.
        unsafe { ffi::PyDict_New() }
    }
}

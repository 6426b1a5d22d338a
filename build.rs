//! With the `python` feature: tells the crate which Python it is built for, as pyo3's cfgs
//! (`Py_3_x`, `PyPy`, `Py_LIMITED_API`...), for the CPython functions it calls beside pyo3's
//! bindings (see `rust/python/dicts.rs`).

fn main() {
    #[cfg(feature = "python")]
    pyo3_build_config::use_pyo3_cfgs();
}

//! The pyo3 layer: `jsondrip._native`. It adapts Python arguments to the core and builds
//! live Python objects from the core's events; no parsing happens here.

mod builder;
mod changes;
mod dict_match;
mod dicts;
mod engine;
mod envelope;
mod gc;
mod keys;
mod lane;
mod loads;
mod partial_args;
mod schema;
mod strings;

use pyo3::prelude::*;

/// The native backend of jsondrip (the Rust core). Use it through `jsondrip.Parser`.
///
/// `gil_used = true`: on a free-threaded interpreter the import turns the GIL back on, so the
/// extension runs as on a regular build. Running without it is not claimed: no free-threaded
/// build has been available to test it (docs/hostile.md).
#[pymodule(gil_used = true)]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<engine::NativeEngine>()?;
    m.add_function(wrap_pyfunction!(engine::set_dialect, m)?)?;
    m.add_class::<envelope::ChunkMatcher>()?;
    m.add_class::<partial_args::PartialArgs>()?;
    m.add_class::<changes::PendingChanges>()?;
    m.add_class::<lane::DeltaLayout>()?;
    m.add_class::<dict_match::DictMatcher>()?;
    m.add_class::<lane::FragmentLane>()?;
    m.add_function(wrap_pyfunction!(loads::loads_fast, m)?)?;
    Ok(())
}

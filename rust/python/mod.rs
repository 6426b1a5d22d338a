//! The pyo3 layer: `jsondrip._native`. It adapts Python arguments to the core and builds
//! live Python objects from the core's events; no parsing happens here. It takes values and
//! returns values: it imports no jsondrip module (`jsondrip._engine` configures it, a schema
//! brings its own callables) and touches no Python object's private state.

mod builder;
mod changes;
mod configured;
mod dict_match;
mod dicts;
mod engine;
mod envelope;
mod fragment_text;
mod front;
mod gc;
mod keys;
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
    m.add_class::<schema::SchemaTable>()?;
    m.add_class::<front::EngineFront>()?;
    front::add_entries(&m.py().get_type::<front::EngineFront>())?;
    m.add_function(wrap_pyfunction!(configured::configure, m)?)?;
    m.add_class::<envelope::ChunkMatcher>()?;
    m.add_class::<partial_args::PartialArgs>()?;
    m.add_class::<changes::PendingChanges>()?;
    m.add_class::<dict_match::DictMatcher>()?;
    m.add_function(wrap_pyfunction!(loads::loads_fast, m)?)?;
    Ok(())
}

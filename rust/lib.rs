//! jsondrip: an incremental partial-JSON parser.
//!
//! `core` is the parser itself and knows nothing of Python: a state machine that reads UTF-8
//! fragments and tells a [`core::Sink`] what it found. `python` (behind the `python` feature)
//! is the thin pyo3 layer that turns those events into live Python objects.

pub mod core;

#[cfg(feature = "python")]
mod python;

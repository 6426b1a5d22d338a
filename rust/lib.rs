//! jsondrip: an incremental partial-JSON parser.
//!
//! `core` is the parser itself and knows nothing of Python: a state machine that reads UTF-8
//! fragments and tells a [`core::Sink`] what it found. `python` (behind the `python` feature)
//! is the thin pyo3 layer that turns those events into live Python objects. `envelope` is the
//! tool-call accumulator's per-event quick check (an SSE chunk framed as the last one), also
//! without Python.

pub mod core;
pub mod envelope;

#[cfg(feature = "python")]
mod python;

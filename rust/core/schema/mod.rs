//! The schema check of one stream, without Python: a compiled node table (`node`) and the
//! incremental checker (`checker`), which fails a check only when no continuation of the text
//! can satisfy it. The machine drives it: its positioned events (`Sink::EVENTS`: where each
//! value, key and container begins and ends, string content decoded) reach the checker
//! through the sink that builds the value (in the Python layer, `CheckedSink`).
//! Twin: `src/jsondrip/twin/schema/checker.py`.
//!
//! Keywords that compare whole Python values (`pattern` with Python's `re`, `uniqueItems`
//! and `enum`/`const` of containers, `multipleOf`, integers past 64 bits) are asked of an
//! [`Oracle`] when their value is complete; the Python layer answers with the same functions
//! the twin calls (`src/jsondrip/schema/complete.py`), so both backends agree by construction.

pub mod checker;
pub mod node;
pub mod numbers;

pub use checker::{prepare, AtomText, Checker, Fail, Oracle, Seg, Shown, Violation};
pub use node::{Bound, Enum, Evaluated, Node, Scalar};

#[cfg(test)]
mod tests;

//! The parser core: no Python here, so `cargo test` needs no interpreter.
//!
//! - [`escape`]: string escapes, code points as WTF-8, JSON Pointer tokens: once for all.
//! - [`machine`]: the state machine over complete code points (twin: `src/jsondrip/twin/machine.py`).
//! - [`number`]: a long number shown while it arrives, read once (jiter mode).
//! - [`stream`]: bytes in any chunking (UTF-8 decoding, BOM, `max_size`, sticky errors).
//! - [`sink`]: the events the machine emits, implemented by whoever builds values.
//! - [`schema`]: the schema check of a stream, fed the machine's positioned events.
//! - [`value`]: a plain Rust value tree built from those events.
//! - [`scanner`]: a pull scanner over one whole document, the fast path of `loads` (with
//!   `float`, decimal digits to f64, and its table `pow5_table`).

pub mod error;
pub mod escape;
mod float;
pub mod machine;
pub mod number;
mod pow5_table;
pub mod scanner;
pub mod schema;
pub mod sink;
pub mod stream;
pub mod value;

pub use error::{Dialect, ErrorKind, Failure, ParseError};
pub use machine::{DebugState, Machine, Mode};
pub use sink::{Atom, Cursor, Sink, Stop, Str};
pub use stream::Stream;

#[cfg(test)]
mod error_tests;
#[cfg(test)]
mod tests;

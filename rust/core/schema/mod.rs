//! The schema check of one stream, without Python: a compiled node table (`node`), a lexer of
//! the text the machine accepted (`scanner`), and the incremental checker it drives
//! (`checker`), which fails a check only when no continuation of the text can satisfy it.
//! Twin: `src/jsondrip/twin/schema/` (`checker.py`, `scanner.py`), file for file.
//!
//! Keywords that compare whole Python values (`pattern` with Python's `re`, `uniqueItems`
//! and `enum`/`const` of containers, `multipleOf`, integers past 64 bits) are asked of an
//! [`Oracle`] when their value is complete; the Python layer answers with the same functions
//! the twin calls (`src/jsondrip/schema/complete.py`), so both backends agree by construction.

pub mod checker;
pub mod node;
pub mod numbers;
pub mod scanner;

pub use checker::{AtomText, Checker, Fail, Oracle, Seg, Shown, Violation};
pub use node::{Bound, Enum, Evaluated, Node, Scalar};
pub use scanner::Scanner;

#[cfg(test)]
mod tests;

//! Errors: a json-compatible message and a position counted in characters.

use std::fmt;

/// Invalid or incomplete JSON. `pos` counts characters (code points) from the stream's start;
/// `line` and `column` are 1-based, as in Python's `json.JSONDecodeError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub msg: String,
    pub pos: u64,
    pub line: u64,
    pub column: u64,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: line {} column {} (char {})",
            self.msg, self.line, self.column, self.pos
        )
    }
}

impl std::error::Error for ParseError {}

/// Why a call on a [`crate::core::Stream`] did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The text cannot be (the start of) a valid document.
    Invalid(ParseError),
    /// The sink stopped (the Python layer holds the exception).
    Stopped,
    /// `feed` after `close`.
    Closed,
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure::Invalid(e)
    }
}

//! Errors: what went wrong (a typed kind whose `Display` is json's exact message), where (a
//! position counted in characters), and whether the text was only cut short. Twin:
//! `src/jsondrip/twin/errors.py`.

use std::fmt;

/// What is wrong with the text. `Display` gives the message `json.loads` gives for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A value must start here (or, for a literal or number, the one started is no value).
    ExpectingValue,
    /// After a value in an array or object: `,` or the container's end must follow.
    ExpectingComma,
    /// A key in double quotes must start here.
    ExpectingPropertyName,
    /// A `:` must follow the key.
    ExpectingColon,
    /// Text after the complete document.
    ExtraData,
    /// The string opened here is never closed.
    UnterminatedString,
    /// A raw control character (below U+0020) inside a string.
    InvalidControlCharacter,
    /// A backslash followed by a letter that makes no escape.
    InvalidEscape,
    /// `\u` not followed by four hex digits.
    InvalidUnicodeEscape,
    /// A str that opens with U+FEFF.
    UnexpectedBom,
    /// json 3.13+: a `,` right before `]` (the position is the comma's).
    TrailingCommaInArray,
    /// json 3.13+: a `,` right before `}` (the position is the comma's).
    TrailingCommaInObject,
    /// More containers open than `max_depth` allows.
    MaxDepth(usize),
    /// More characters than `max_size` allows.
    MaxSize(u64),
    /// A byte that no UTF-8 text holds here.
    InvalidUtf8(u8),
    /// The sink refused a value (an integer past the interpreter's digit limit): its message.
    Refused(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::ExpectingValue => f.write_str("Expecting value"),
            ErrorKind::ExpectingComma => f.write_str("Expecting ',' delimiter"),
            ErrorKind::ExpectingPropertyName => {
                f.write_str("Expecting property name enclosed in double quotes")
            }
            ErrorKind::ExpectingColon => f.write_str("Expecting ':' delimiter"),
            ErrorKind::ExtraData => f.write_str("Extra data"),
            ErrorKind::UnterminatedString => f.write_str("Unterminated string starting at"),
            ErrorKind::InvalidControlCharacter => f.write_str("Invalid control character at"),
            ErrorKind::InvalidEscape => f.write_str("Invalid \\escape"),
            ErrorKind::InvalidUnicodeEscape => f.write_str("Invalid \\uXXXX escape"),
            ErrorKind::UnexpectedBom => {
                f.write_str("Unexpected UTF-8 BOM (decode using utf-8-sig)")
            }
            ErrorKind::TrailingCommaInArray => {
                f.write_str("Illegal trailing comma before end of array")
            }
            ErrorKind::TrailingCommaInObject => {
                f.write_str("Illegal trailing comma before end of object")
            }
            ErrorKind::MaxDepth(limit) => write!(f, "Maximum nesting depth of {limit} exceeded"),
            ErrorKind::MaxSize(limit) => {
                write!(f, "Document exceeds max_size of {limit} characters")
            }
            ErrorKind::InvalidUtf8(byte) => write!(f, "Invalid UTF-8 byte 0x{byte:02x}"),
            ErrorKind::Refused(msg) => f.write_str(msg),
        }
    }
}

/// Where json versions differ in what they report; the Python layer reads the running
/// interpreter's `json` and says which (`Default` is json of CPython 3.9 to 3.12).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dialect {
    /// `[1,]` is [`ErrorKind::TrailingCommaInArray`] at the comma (json 3.13+), not
    /// [`ErrorKind::ExpectingValue`] at the `]`.
    pub trailing_comma: bool,
    /// A text ending right after a whole `\uXXXX` escape is an unterminated string (json with
    /// CPython gh-152052), not [`ErrorKind::InvalidUnicodeEscape`].
    pub escape_at_end_unterminated: bool,
}

/// Invalid or incomplete JSON. `pos` counts characters (code points) from the stream's start;
/// `line` and `column` are 1-based, as in Python's `json.JSONDecodeError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub kind: ErrorKind,
    pub pos: u64,
    pub line: u64,
    pub column: u64,
    /// What would have continued the text, when it was a valid prefix that ended too early
    /// (the error came from `close`); None for invalid text.
    pub expected: Option<&'static str>,
    /// The text around `pos` (UTF-8, or WTF-8 where a str held lone surrogates): at most
    /// [`DOC_WINDOW`] characters either side of it, of what the stream still had (the fragment
    /// being read, and the last DOC_WINDOW characters of the one before it).
    pub doc: Vec<u8>,
    /// The position of `doc`'s first character in the stream.
    pub doc_start: u64,
}

/// At most this many characters either side of the position go into [`ParseError::doc`]; a
/// stream keeps at most this many of the fragment before the one it reads.
pub const DOC_WINDOW: usize = 1024;

impl ParseError {
    /// True when the text was a valid prefix of a document, only cut short.
    pub fn incomplete(&self) -> bool {
        self.expected.is_some()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: line {} column {} (char {})",
            self.kind, self.line, self.column, self.pos
        )
    }
}

impl std::error::Error for ParseError {}

/// Why a call on a [`crate::core::Stream`] did not succeed.
///
/// Two words: the error is boxed, so that `Result<(), Failure>`, which every fragment's read
/// returns through three calls, comes back in registers rather than as a hundred-byte value
/// written to memory and copied on the way out (under `perf`, those copies showed in the
/// engine's own frames on every fragment: #28).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The text cannot be (the start of) a valid document, or ended before one was complete.
    Invalid(Box<ParseError>),
    /// The sink stopped (the Python layer holds the exception).
    Stopped,
    /// `feed` after `close`.
    Closed,
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure::Invalid(Box::new(e))
    }
}

//! Reading a `partialArgs` array from the JSON text of a Vertex chunk into [`Piece`]s, as
//! Python's `json` decodes it and `PartialArgsWriter` reads the result. Only what the native
//! writer writes exactly as the twin does is read; anything else is `None`, "the long way"
//! (the chunk is then decoded in Python and the twin decides). `None` is always safe, so it is
//! the answer wherever there is a doubt:
//!
//! - blanks other than space and tab (a line break would split an SSE chunk's data line);
//! - an entry that is not an object, a repeated key, a key spelled with an escape, any key
//!   but `jsonPath`, `stringValue`, `numberValue`, `boolValue`, `nullValue`, `willContinue`
//!   (snake_case twins included), more than one value key, no `jsonPath`;
//! - a path that is not plain (`$` then `.name` or `[digits]` steps, names ASCII identifiers:
//!   the twin's `_PLAIN`), an index past `u64`;
//! - a `stringValue` holding a lone surrogate (no Rust string holds one);
//! - a `numberValue` that is not a finite number of at most [`MAX_INT_DIGITS`] digits if an
//!   integer (`NaN`, `Infinity`, an overflow to infinity), a `boolValue` that is not a bool,
//!   a `nullValue` that is not a string or null, a `willContinue` that is not a bool or null.

use std::borrow::Cow;

use super::repr::{float_repr, int_repr};
use super::scan_literal;

/// A step of a piece's path, borrowed from the text that named it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    Name(&'a str),
    Index(u64),
}

/// What a piece writes at its path.
#[derive(Clone, Debug, PartialEq)]
pub enum Leaf {
    /// A `stringValue` (decoded): escaped as `json.dumps` escapes it, the string left open
    /// while `willContinue` is true.
    Str(String),
    /// A number, `true`, `false` or `null`, as the text to write.
    Literal(String),
    /// A piece with no value: nothing to write.
    Nothing,
}

/// One `partialArgs` entry the native writer can write exactly as the twin would.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece<'a> {
    pub path: Vec<Step<'a>>,
    pub leaf: Leaf,
    pub more: bool,
}

/// The most digits of an integer read natively: CPython's `sys.set_int_max_str_digits` cannot
/// go below 640, so `json.loads` reads any integer this long, on every setting.
pub const MAX_INT_DIGITS: usize = 640;

/// The pieces of the JSON array at `at` in `text` (valid UTF-8), and where the array ends;
/// None: the long way.
pub fn read_pieces(text: &[u8], at: usize) -> Option<(Vec<Piece<'_>>, usize)> {
    let mut reader = Reader { text, at };
    reader.eat(b'[')?;
    let mut pieces = Vec::new();
    reader.blanks();
    if reader.peek() == Some(b']') {
        return Some((pieces, reader.at + 1));
    }
    loop {
        reader.blanks();
        pieces.push(reader.piece()?);
        reader.blanks();
        match reader.next()? {
            b',' => continue,
            b']' => return Some((pieces, reader.at)),
            _ => return None,
        }
    }
}

/// A plain path's steps (`$.a.b[0]`: the twin's `_PLAIN`), or None.
pub fn plain_path(path: &str) -> Option<Vec<Step<'_>>> {
    let bytes = path.as_bytes();
    if bytes.first() != Some(&b'$') || bytes.len() == 1 {
        return None;
    }
    let mut steps = Vec::with_capacity(4);
    let mut at = 1;
    while at < bytes.len() {
        let start = at + 1;
        match bytes[at] {
            b'.' => {
                let len = bytes[start..]
                    .iter()
                    .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
                    .unwrap_or(bytes.len() - start);
                if len == 0 || bytes[start].is_ascii_digit() {
                    return None;
                }
                at = start + len;
                steps.push(Step::Name(&path[start..at]));
            }
            b'[' => {
                let len = bytes[start..].iter().position(|b| !b.is_ascii_digit())?;
                if len == 0 || bytes[start + len] != b']' {
                    return None;
                }
                let index = path[start..start + len].parse::<u64>().ok()?;
                at = start + len + 1;
                steps.push(Step::Index(index));
            }
            _ => return None,
        }
    }
    Some(steps)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Field {
    Path,
    Str,
    Number,
    Bool,
    Null,
    More,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn eat(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    fn piece(&mut self) -> Option<Piece<'a>> {
        self.eat(b'{')?;
        let mut seen = [false; 6];
        let mut path: Option<Cow<'a, str>> = None;
        let mut leaf: Option<Leaf> = None;
        let mut more = false;
        self.blanks();
        if self.peek() == Some(b'}') {
            return None; // no jsonPath: the twin's error
        }
        loop {
            self.blanks();
            let field = self.field()?;
            let slot = &mut seen[field as usize];
            if std::mem::replace(slot, true) {
                return None; // a repeated key: json keeps the last, the long way decides
            }
            self.blanks();
            self.eat(b':')?;
            self.blanks();
            match field {
                Field::Path => path = Some(self.string()?),
                Field::More => more = self.bool_or_null()? == Some(true),
                _ if leaf.is_some() => return None, // two values: the long way decides
                Field::Str => {
                    let text = match self.peek()? {
                        b'n' => self.word(b"null").map(|_| Cow::Borrowed(""))?,
                        _ => self.string()?,
                    };
                    leaf = Some(Leaf::Str(text.into_owned()));
                }
                Field::Number => leaf = Some(Leaf::Literal(self.number()?)),
                Field::Bool => {
                    let value = self.bool_or_null()??;
                    leaf = Some(Leaf::Literal(if value { "true" } else { "false" }.into()));
                }
                Field::Null => {
                    match self.peek()? {
                        b'n' => self.word(b"null")?,
                        _ => {
                            self.string()?;
                        }
                    }
                    leaf = Some(Leaf::Literal("null".into()));
                }
            }
            self.blanks();
            match self.next()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
        let path = match path? {
            Cow::Borrowed(path) => plain_path(path)?,
            Cow::Owned(_) => return None, // escapes in a path: rare, the long way
        };
        Some(Piece {
            path,
            leaf: leaf.unwrap_or(Leaf::Nothing),
            more,
        })
    }

    /// A key this reader knows, spelled without escapes.
    fn field(&mut self) -> Option<Field> {
        self.eat(b'"')?;
        let rest = &self.text[self.at..];
        let len = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
        if rest[len] != b'"' {
            return None;
        }
        let field = match &rest[..len] {
            b"jsonPath" => Field::Path,
            b"stringValue" => Field::Str,
            b"numberValue" => Field::Number,
            b"boolValue" => Field::Bool,
            b"nullValue" => Field::Null,
            b"willContinue" => Field::More,
            _ => return None,
        };
        self.at += len + 1;
        Some(field)
    }

    /// A string literal's value: borrowed when it holds no escape.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.eat(b'"')?;
        let text = self.text;
        let rest = &text[self.at..];
        let len = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest[len] == b'"' {
            let start = self.at;
            self.at += len + 1;
            // the caller checked the whole text is UTF-8, and a quote is a char boundary
            return std::str::from_utf8(&text[start..start + len])
                .ok()
                .map(Cow::Borrowed);
        }
        let (value, end) = scan_literal(text, self.at)?;
        self.at = end;
        Some(Cow::Owned(value))
    }

    fn word(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.text.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// `true`, `false` or `null` (None).
    fn bool_or_null(&mut self) -> Option<Option<bool>> {
        match self.peek()? {
            b't' => self.word(b"true").map(|_| Some(true)),
            b'f' => self.word(b"false").map(|_| Some(false)),
            b'n' => self.word(b"null").map(|_| None),
            _ => None,
        }
    }

    /// A JSON number (`-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`, what `json` reads) as the text
    /// Python's `repr` gives the value `json` makes of it: an `int` without a fraction or
    /// exponent, else a `float`.
    fn number(&mut self) -> Option<String> {
        let text = self.text;
        let start = self.at;
        let digits = |at: usize| text[at..].iter().take_while(|b| b.is_ascii_digit()).count();
        let mut at = start + usize::from(text.get(start) == Some(&b'-'));
        let whole = digits(at);
        if whole == 0 || (text[at] == b'0' && whole > 1) {
            return None; // `-`, or a leading zero json reads as `0` and then stops at
        }
        at += whole;
        let mut float = false;
        if text.get(at) == Some(&b'.') {
            let fraction = digits(at + 1);
            if fraction == 0 {
                return None;
            }
            at += 1 + fraction;
            float = true;
        }
        if matches!(text.get(at), Some(b'e' | b'E')) {
            let signed = usize::from(matches!(text.get(at + 1), Some(b'+' | b'-')));
            let exponent = digits(at + 1 + signed);
            if exponent == 0 {
                return None;
            }
            at += 1 + signed + exponent;
            float = true;
        }
        self.at = at;
        // the number is ASCII, and ends before a byte json's grammar cannot continue it with
        let literal = std::str::from_utf8(&text[start..at]).ok()?;
        if float {
            float_repr(literal.parse::<f64>().ok()?)
        } else if whole <= MAX_INT_DIGITS {
            Some(int_repr(literal))
        } else {
            None
        }
    }
}

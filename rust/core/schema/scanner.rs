//! Feeds one document's events to the [`Checker`]: a lexer of text the machine already
//! accepted, so it needs no error handling, only the structure (where each value, key and
//! container begins and ends), string content decoded as `json.loads` decodes it, and the
//! character position of each event. Twin: `src/jsondrip/twin/schema/scanner.py`.

use super::checker::{AtomText, Checker, Fail, Kind, Oracle};
use super::node::{BOOLEAN, NULL, NUMBER};
use crate::core::escape::{
    hex4, is_high_surrogate, is_low_surrogate, join_surrogates, push_wtf8, unescape,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Between,
    InString,
    InEscape,
    InNumber,
    InLiteral,
}

/// The lexer of one stream's accepted text (WTF-8, whole code points per fragment).
pub struct Scanner {
    /// Characters read before the current fragment.
    offset: u64,
    state: State,
    /// Open containers, `true` for an object.
    stack: Vec<bool>,
    /// In an object, the next string is a key.
    expect_key: bool,
    /// The escape read so far, after its backslash.
    escape: Vec<u8>,
    /// A high surrogate (code, pos) awaiting its low half.
    high: Option<(u32, u64)>,
    number: String,
    literal_left: usize,
    literal: (&'static str, u8),
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}

impl Scanner {
    pub fn new() -> Self {
        Scanner {
            offset: 0,
            state: State::Between,
            stack: Vec::new(),
            expect_key: false,
            escape: Vec::new(),
            high: None,
            number: String::new(),
            literal_left: 0,
            literal: ("", NULL),
        }
    }

    fn one(checker: &mut Checker, code: u32, pos: u64) -> Result<(), Fail> {
        let mut buf = Vec::with_capacity(4);
        push_wtf8(&mut buf, code);
        checker.text(&buf, pos, false, false)
    }

    fn lone_high(&mut self, checker: &mut Checker) -> Result<(), Fail> {
        if let Some((code, pos)) = self.high.take() {
            Self::one(checker, code, pos)?;
        }
        Ok(())
    }

    /// Read one fragment (the machine accepted it already).
    pub fn feed(
        &mut self,
        text: &[u8],
        checker: &mut Checker,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let mut chars = 0u64; // characters of `text` before `i`
        let result = self.run(text, &mut chars, checker, oracle);
        if result.is_ok() {
            self.offset += chars;
        }
        result
    }

    fn run(
        &mut self,
        text: &[u8],
        ci: &mut u64,
        checker: &mut Checker,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let off = self.offset;
        let n = text.len();
        let mut i = 0;
        while i < n {
            match self.state {
                State::InString => {
                    let j = text[i..]
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\')
                        .map_or(n, |k| i + k);
                    let start = *ci;
                    if j > i {
                        self.lone_high(checker)?;
                        let run = &text[i..j];
                        *ci += run.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64;
                        checker.text(run, off + start, true, j < n && text[j] == b'"')?;
                    }
                    if j == n {
                        break;
                    }
                    i = j + 1;
                    let at = *ci;
                    *ci += 1;
                    if text[j] == b'"' {
                        self.lone_high(checker)?;
                        checker.end_string(off + at, oracle)?;
                        self.state = State::Between;
                    } else {
                        self.escape.clear();
                        self.state = State::InEscape;
                    }
                }
                State::InEscape => {
                    if self.escape.is_empty() {
                        let c = text[i];
                        i += 1;
                        *ci += 1;
                        if c != b'u' {
                            self.lone_high(checker)?;
                            let decoded = unescape(c).expect("the machine accepted the escape");
                            checker.text(&[decoded], off + *ci - 1, false, false)?;
                            self.state = State::InString;
                            continue;
                        }
                        self.escape.push(b'u');
                    }
                    let take = (5 - self.escape.len()).min(n - i);
                    self.escape.extend_from_slice(&text[i..i + take]);
                    i += take;
                    *ci += take as u64;
                    if self.escape.len() == 5 {
                        self.state = State::InString;
                        let code = hex4(&self.escape, 1).expect("the machine accepted the escape");
                        self.escaped(code, off + *ci - 1, checker)?;
                    }
                }
                State::InNumber => {
                    let j = text[i..]
                        .iter()
                        .position(|&b| !matches!(b, b'0'..=b'9' | b'e' | b'E' | b'+' | b'-' | b'.'))
                        .map_or(n, |k| i + k);
                    if j > i {
                        // ASCII: the machine accepted it as a number
                        self.number
                            .push_str(std::str::from_utf8(&text[i..j]).unwrap_or(""));
                        *ci += (j - i) as u64;
                    }
                    i = j;
                    if i < n {
                        if text[i] == b'I' {
                            // -Infinity
                            self.literal_left = "Infinity".len();
                            self.literal = ("-Infinity", NUMBER);
                            self.state = State::InLiteral;
                            continue;
                        }
                        self.end_number(off + *ci, checker, oracle)?;
                        self.state = State::Between;
                    }
                }
                State::InLiteral => {
                    let take = self.literal_left.min(n - i);
                    i += take;
                    *ci += take as u64;
                    self.literal_left -= take;
                    if self.literal_left == 0 {
                        self.state = State::Between;
                        let (word, kind) = self.literal;
                        let atom = AtomText {
                            text: word,
                            kind,
                            float: kind == NUMBER,
                        };
                        checker.end_atom(atom, off + *ci - 1, oracle)?;
                    }
                }
                State::Between => {
                    while i < n && matches!(text[i], b' ' | b'\t' | b'\n' | b'\r') {
                        i += 1;
                        *ci += 1;
                    }
                    if i == n {
                        break;
                    }
                    let c = text[i];
                    let pos = off + *ci;
                    match c {
                        b'"' => {
                            if self.expect_key {
                                checker.begin_key(pos)?;
                                self.expect_key = false;
                            } else {
                                checker.begin(Kind::String, pos, false, oracle)?;
                            }
                            self.state = State::InString;
                        }
                        b'{' => {
                            checker.begin(Kind::Object, pos, false, oracle)?;
                            self.stack.push(true);
                            self.expect_key = true;
                        }
                        b'[' => {
                            checker.begin(Kind::Array, pos, false, oracle)?;
                            self.stack.push(false);
                        }
                        b'}' | b']' => {
                            self.stack.pop();
                            self.expect_key = false;
                            checker.end_container(pos, oracle)?;
                        }
                        b',' => self.expect_key = self.stack.last() == Some(&true),
                        b':' => {}
                        b'-' | b'0'..=b'9' => {
                            checker.begin(Kind::Number, pos, c == b'-', oracle)?;
                            self.number.clear();
                            self.state = State::InNumber;
                            continue; // the number's state reads c
                        }
                        _ => {
                            let (word, kind, value_kind) = match c {
                                b't' => ("true", Kind::Boolean, BOOLEAN),
                                b'f' => ("false", Kind::Boolean, BOOLEAN),
                                b'n' => ("null", Kind::Null, NULL),
                                b'N' => ("NaN", Kind::Number, NUMBER),
                                _ => ("Infinity", Kind::Number, NUMBER),
                            };
                            checker.begin(kind, pos, false, oracle)?;
                            self.literal_left = word.len();
                            self.literal = (word, value_kind);
                            self.state = State::InLiteral;
                            continue;
                        }
                    }
                    i += 1;
                    *ci += 1;
                }
            }
        }
        Ok(())
    }

    /// A \uXXXX escape ending at `pos`: a character, a pair's halves joined, or a lone half.
    fn escaped(&mut self, code: u32, pos: u64, checker: &mut Checker) -> Result<(), Fail> {
        if let Some((high, _)) = self.high {
            if is_low_surrogate(code) {
                self.high = None;
                let joined = join_surrogates(high, code);
                return Self::one(checker, joined, pos);
            }
            self.lone_high(checker)?;
        }
        if is_high_surrogate(code) {
            self.high = Some((code, pos));
            return Ok(());
        }
        Self::one(checker, code, pos)
    }

    fn end_number(
        &mut self,
        pos: u64,
        checker: &mut Checker,
        oracle: &mut dyn Oracle,
    ) -> Result<(), Fail> {
        let text = std::mem::take(&mut self.number);
        let float = text.contains(['.', 'e', 'E']);
        let atom = AtomText {
            text: &text,
            kind: NUMBER,
            float,
        };
        let result = checker.end_atom(atom, pos, oracle);
        self.number = text;
        self.number.clear();
        result
    }

    /// The stream ended (the machine found the document complete): finish a root number.
    pub fn close(&mut self, checker: &mut Checker, oracle: &mut dyn Oracle) -> Result<(), Fail> {
        if self.state == State::InNumber {
            self.state = State::Between;
            return self.end_number(self.offset, checker, oracle);
        }
        Ok(())
    }
}

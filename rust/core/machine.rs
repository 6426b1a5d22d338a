//! The partial-JSON state machine. Twin: `src/jsondrip/twin/machine.py`, whose docstring
//! states the rules; the states, their names and the transitions are the same here.
//!
//! The machine reads complete code points (UTF-8, or WTF-8 for a Python str holding lone
//! surrogates) a fragment at a time and keeps between fragments everything it needs: the
//! state, the stack of open containers, and the token it is inside.

use super::error::{Dialect, ErrorKind};
use super::number::NumberDigest;
use super::sink::{Atom, Sink, Stop, Str};

/// jiter mode shows a float longer than this through its digest, not its whole text.
const LONG_NUMBER: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    Value,
    ArrayFirst,
    ArrayNext,
    ObjectFirst,
    ObjectKey,
    ObjectColon,
    ObjectNext,
    Done,
    String,
    Escape,
    Unicode,
    SurrogateBackslash,
    SurrogateU,
    Number,
    Literal,
}

/// What a value looks like while it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Never retract: numbers appear once complete.
    Stable,
    /// As `jiter.from_json(prefix, partial_mode="trailing-strings")`: a number shows as soon
    /// as its digits so far are a number, and disappears while they are not.
    Jiter,
}

fn expecting(state: State) -> ErrorKind {
    match state {
        State::Value | State::ArrayFirst => ErrorKind::ExpectingValue,
        State::ArrayNext | State::ObjectNext => ErrorKind::ExpectingComma,
        State::ObjectFirst | State::ObjectKey => ErrorKind::ExpectingPropertyName,
        State::ObjectColon => ErrorKind::ExpectingColon,
        State::Done => ErrorKind::ExtraData,
        _ => unreachable!("only structural states expect a character"),
    }
}

/// Number sub-states; accepting: Zero, Int, Frac, ExpDigits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

impl Num {
    fn accepting(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }

    /// The sub-state after `b`, or None when `b` cannot continue the number.
    #[inline]
    fn next(self, b: u8) -> Option<Num> {
        use Num::*;
        Some(match (self, b) {
            (Minus, b'0') => Zero,
            (Minus, b'1'..=b'9') => Int,
            (Int, b'0'..=b'9') => Int,
            (Zero | Int, b'.') => Dot,
            (Dot | Frac, b'0'..=b'9') => Frac,
            (Zero | Int | Frac, b'e' | b'E') => Exp,
            (Exp, b'+' | b'-') => ExpSign,
            (Exp | ExpSign | ExpDigits, b'0'..=b'9') => ExpDigits,
            _ => return None,
        })
    }
}

/// The literal a letter starts, and its value.
fn literal_for(b: u8) -> Option<(&'static [u8], Atom<'static>)> {
    Some(match b {
        b't' => (b"true", Atom::True),
        b'f' => (b"false", Atom::False),
        b'n' => (b"null", Atom::Null),
        b'N' => (b"NaN", Atom::NaN),
        b'I' => (b"Infinity", Atom::Infinity),
        _ => return None,
    })
}

fn escape_char(b: u8) -> Option<u8> {
    Some(match b {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// Bytes that a string holds as they are: not `"`, not `\`, not a control character.
static PLAIN: [bool; 256] = {
    let mut table = [true; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = false;
        b += 1;
    }
    table[b'"' as usize] = false;
    table[b'\\' as usize] = false;
    table
};

#[inline]
fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Characters in UTF-8 (or WTF-8) bytes: every byte but continuation bytes starts one.
pub fn count_chars(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64
}

/// Appends a code point, surrogates included (as WTF-8), to `out`.
pub(crate) fn push_code_point(out: &mut Vec<u8>, cp: u32) {
    match cp {
        0..=0x7f => out.push(cp as u8),
        0x80..=0x7ff => out.extend_from_slice(&[0xc0 | (cp >> 6) as u8, 0x80 | (cp & 0x3f) as u8]),
        0x800..=0xffff => out.extend_from_slice(&[
            0xe0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]),
        _ => out.extend_from_slice(&[
            0xf0 | (cp >> 18) as u8,
            0x80 | ((cp >> 12) & 0x3f) as u8,
            0x80 | ((cp >> 6) & 0x3f) as u8,
            0x80 | (cp & 0x3f) as u8,
        ]),
    }
}

/// Why the machine stopped reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// Invalid text: what is wrong, and the character position.
    Syntax(ErrorKind, u64),
    /// The sink refused a value: `feed` and `close` position it at the value's first
    /// character (the token start) before it leaves the machine.
    Refused(String),
    /// The sink stopped.
    Stopped,
}

impl From<Stop> for Halt {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Raised => Halt::Stopped,
            Stop::Invalid(msg) => Halt::Refused(msg),
        }
    }
}

/// A position remembered across fragments: a byte index into the fragment being read, made
/// a character position when the fragment ends (so positions cost nothing on the hot path).
#[derive(Debug, Clone, Copy)]
enum Mark {
    Byte(usize),
    Char(u64),
}

pub struct Machine {
    pub(crate) state: State,
    stack: Vec<bool>, // true for an object, false for an array
    mode: Mode,
    max_depth: usize,
    dialect: Dialect,
    /// Characters read before the current fragment.
    pub(crate) offset: u64,
    /// A bytes stream opened with a BOM (then U+FEFF is no BOM).
    pub(crate) bom_skipped: bool,
    pub(crate) line: u64,
    line_start: Mark,
    /// The last `,` between values, with its line (json 3.13+ reports a trailing comma there).
    comma: Mark,
    comma_line: u64,
    comma_line_start: Mark,
    // The token in progress.
    token_start: Mark,
    in_key: bool,
    scratch: Vec<u8>, // string content so far, once it spans fragments or has escapes
    string_dirty: bool,
    string_surrogates: bool,
    hex: u32,
    hex_len: u32,
    high: u32,
    /// Just after the last `\u` escape.
    escape_end: Option<Mark>,
    number: Vec<u8>,
    number_state: Num,
    number_float: bool,
    number_valid: usize,
    /// jiter mode: the value of a long float still arriving, read once.
    number_digest: NumberDigest,
    literal: &'static [u8],
    literal_value: Atom<'static>,
    literal_len: usize,
}

type Step = Result<State, Halt>;

impl Machine {
    pub fn new(mode: Mode, max_depth: usize, dialect: Dialect) -> Self {
        Machine {
            state: State::Value,
            stack: Vec::new(),
            mode,
            max_depth,
            dialect,
            offset: 0,
            bom_skipped: false,
            line: 1,
            line_start: Mark::Char(0),
            comma: Mark::Char(0),
            comma_line: 1,
            comma_line_start: Mark::Char(0),
            token_start: Mark::Char(0),
            in_key: false,
            scratch: Vec::new(),
            string_dirty: false,
            string_surrogates: false,
            hex: 0,
            hex_len: 0,
            high: 0,
            escape_end: None,
            number: Vec::new(),
            number_state: Num::Minus,
            number_float: false,
            number_valid: 0,
            number_digest: NumberDigest::default(),
            literal: b"",
            literal_value: Atom::Null,
            literal_len: 0,
        }
    }

    pub fn done(&self) -> bool {
        self.state == State::Done
    }

    /// The content of the string value still open, as read so far (escapes decoded), or None.
    pub fn open_string(&self) -> Option<Str<'_>> {
        let in_string = (State::String..=State::SurrogateU).contains(&self.state);
        (in_string && !self.in_key).then_some(Str {
            bytes: &self.scratch,
            surrogates: self.string_surrogates,
        })
    }

    /// The line and column (1-based) of a position on the current line, or (json 3.13+'s
    /// trailing comma) of the last comma.
    pub(crate) fn locate(&self, pos: u64) -> (u64, u64) {
        let resolved = |mark: Mark| match mark {
            Mark::Char(c) => c,
            Mark::Byte(_) => unreachable!("marks are resolved when a fragment ends"),
        };
        let line_start = resolved(self.line_start);
        if pos < line_start && pos == resolved(self.comma) {
            return (self.comma_line, pos - resolved(self.comma_line_start) + 1);
        }
        (self.line, pos - line_start + 1)
    }

    /// What would continue the text where it stands (after `close` found it incomplete).
    pub(crate) fn expected_next(&self) -> &'static str {
        match self.state {
            State::Value => "a value",
            State::ArrayFirst => "a value or ']'",
            State::ArrayNext => "',' or ']'",
            State::ObjectFirst => "'\"' (a property name) or '}'",
            State::ObjectKey => "'\"' (a property name)",
            State::ObjectColon => "':'",
            State::ObjectNext => "',' or '}'",
            State::Done => "nothing",
            State::String | State::SurrogateBackslash | State::SurrogateU => {
                "the rest of the string and its closing '\"'"
            }
            State::Escape => "an escape character after '\\'",
            State::Unicode => "the hex digits of a \\uXXXX escape",
            State::Number => match self.number_state {
                Num::Exp => "a digit, '+' or '-' of the exponent",
                n if !n.accepting() => "a digit",
                _ if self.stack.last() == Some(&true) => "',' or '}'",
                _ => "',' or ']'",
            },
            State::Literal => match self.literal {
                b"true" => "the rest of 'true'",
                b"false" => "the rest of 'false'",
                b"null" => "the rest of 'null'",
                b"NaN" => "the rest of 'NaN'",
                b"Infinity" => "the rest of 'Infinity'",
                _ => "the rest of '-Infinity'",
            },
        }
    }

    /// A halt as it leaves the machine: a refused value positioned at its first character.
    fn positioned(&self, halt: Halt) -> Halt {
        match halt {
            Halt::Refused(msg) => {
                Halt::Syntax(ErrorKind::Refused(msg), self.resolve(self.token_start, b""))
            }
            other => other,
        }
    }

    fn resolve(&self, mark: Mark, chunk: &[u8]) -> u64 {
        match mark {
            Mark::Char(c) => c,
            Mark::Byte(i) => self.offset + count_chars(&chunk[..i]),
        }
    }

    fn syntax(&self, kind: ErrorKind, pos: u64) -> Halt {
        Halt::Syntax(kind, pos)
    }

    fn after_value(&self) -> State {
        match self.stack.last() {
            None => State::Done,
            Some(true) => State::ObjectNext,
            Some(false) => State::ArrayNext,
        }
    }

    fn begin_value<S: Sink>(&mut self, b: u8, i: usize, chunk: &[u8], sink: &mut S) -> Step {
        match b {
            b'"' => {
                self.token_start = Mark::Byte(i);
                self.in_key = false;
                self.scratch.clear();
                self.string_surrogates = false;
                self.string_dirty = true;
                Ok(State::String)
            }
            b'{' | b'[' => {
                if self.stack.len() >= self.max_depth {
                    let kind = ErrorKind::MaxDepth(self.max_depth);
                    return Err(self.syntax(kind, self.resolve(Mark::Byte(i), chunk)));
                }
                let object = b == b'{';
                self.stack.push(object);
                sink.begin_container(object)?;
                Ok(if object {
                    State::ObjectFirst
                } else {
                    State::ArrayFirst
                })
            }
            b'-' | b'0'..=b'9' => {
                self.token_start = Mark::Byte(i);
                self.number.clear();
                self.number.push(b);
                self.number_digest.reset();
                (self.number_state, self.number_valid) = match b {
                    b'-' => (Num::Minus, 0),
                    b'0' => (Num::Zero, 1),
                    _ => (Num::Int, 1),
                };
                self.number_float = false;
                Ok(State::Number)
            }
            _ => {
                if let Some((literal, value)) = literal_for(b) {
                    self.token_start = Mark::Byte(i);
                    self.literal = literal;
                    self.literal_value = value;
                    self.literal_len = 1;
                    return Ok(State::Literal);
                }
                if b == b']' && self.dialect.trailing_comma && self.stack.last() == Some(&false) {
                    // A value is awaited inside an array only after a comma.
                    let comma = self.resolve(self.comma, chunk);
                    return Err(self.syntax(ErrorKind::TrailingCommaInArray, comma));
                }
                let pos = self.resolve(Mark::Byte(i), chunk);
                if pos == 0 && !self.bom_skipped && chunk[i..].starts_with("\u{feff}".as_bytes()) {
                    return Err(self.syntax(ErrorKind::UnexpectedBom, 0));
                }
                Err(self.syntax(ErrorKind::ExpectingValue, pos))
            }
        }
    }

    fn end_container<S: Sink>(&mut self, sink: &mut S) -> State {
        self.stack.pop();
        sink.end_container();
        self.after_value()
    }

    fn number_atom(&self) -> Atom<'_> {
        // SAFETY: number text is ASCII (digits, sign, dot, exponent letters).
        let text = unsafe { std::str::from_utf8_unchecked(&self.number) };
        if self.number_float {
            Atom::Float(text)
        } else {
            Atom::Int(text)
        }
    }

    fn end_number<S: Sink>(&mut self, sink: &mut S) -> Step {
        sink.atom(self.number_atom())?;
        Ok(self.after_value())
    }

    /// The number stopped being one: json reports what follows its longest valid prefix.
    fn number_error(&self, chunk: &[u8]) -> Halt {
        let start = self.resolve(self.token_start, chunk);
        if self.number_valid == 0 {
            return self.syntax(ErrorKind::ExpectingValue, start);
        }
        self.syntax(
            expecting(self.after_value()),
            start + self.number_valid as u64,
        )
    }

    fn push_lone_high(&mut self) {
        push_code_point(&mut self.scratch, self.high);
        self.high = 0;
        self.string_surrogates = true;
        self.string_dirty = true;
    }

    /// Four hex digits read: a character, a held-back high surrogate, or a pair.
    fn end_escape(&mut self, mut code: u32) -> State {
        if self.high != 0 {
            if (0xdc00..=0xdfff).contains(&code) {
                code = 0x10000 + ((self.high - 0xd800) << 10) + (code - 0xdc00);
                self.high = 0;
            } else {
                self.push_lone_high();
            }
        }
        if (0xd800..=0xdbff).contains(&code) {
            self.high = code;
            return State::SurrogateBackslash;
        }
        if (0xdc00..=0xdfff).contains(&code) {
            self.string_surrogates = true;
        }
        push_code_point(&mut self.scratch, code);
        self.string_dirty = true;
        State::String
    }

    fn end_string<S: Sink>(&mut self, text: Str, sink: &mut S) -> Step {
        if self.in_key {
            sink.set_key(text)?;
            return Ok(State::ObjectColon);
        }
        sink.string(text, true)?;
        Ok(self.after_value())
    }

    /// Read one fragment of whole code points. `wtf8` says it may hold lone surrogates.
    pub fn feed<S: Sink>(&mut self, chunk: &[u8], wtf8: bool, sink: &mut S) -> Result<(), Halt> {
        let mut state = self.state;
        let result = self.run(&mut state, chunk, wtf8, sink);
        self.state = state;
        // Marks into this fragment become character positions before it goes away.
        if let Mark::Byte(_) = self.line_start {
            self.line_start = Mark::Char(self.resolve(self.line_start, chunk));
        }
        if let Mark::Byte(_) = self.token_start {
            self.token_start = Mark::Char(self.resolve(self.token_start, chunk));
        }
        if let Some(mark @ Mark::Byte(_)) = self.escape_end {
            self.escape_end = Some(Mark::Char(self.resolve(mark, chunk)));
        }
        if let Mark::Byte(_) = self.comma {
            self.comma = Mark::Char(self.resolve(self.comma, chunk));
        }
        if let Mark::Byte(_) = self.comma_line_start {
            self.comma_line_start = Mark::Char(self.resolve(self.comma_line_start, chunk));
        }
        self.offset += count_chars(chunk);
        result.map_err(|halt| self.positioned(halt))?;
        self.flush(sink).map_err(|halt| self.positioned(halt))
    }

    fn run<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        wtf8: bool,
        sink: &mut S,
    ) -> Result<(), Halt> {
        let n = chunk.len();
        let mut i = 0;
        while i < n {
            if *state == State::String {
                let start = i;
                let mut j = i;
                while j < n && PLAIN[chunk[j] as usize] {
                    j += 1;
                }
                if wtf8 && j > start {
                    self.string_surrogates = true;
                }
                if j == n {
                    if j > start {
                        self.scratch.extend_from_slice(&chunk[start..j]);
                        self.string_dirty = true;
                    }
                    return Ok(());
                }
                i = j + 1;
                match chunk[j] {
                    b'"' => {
                        let surrogates = self.string_surrogates;
                        *state = if self.scratch.is_empty() {
                            self.end_string(
                                Str {
                                    bytes: &chunk[start..j],
                                    surrogates,
                                },
                                sink,
                            )?
                        } else {
                            self.scratch.extend_from_slice(&chunk[start..j]);
                            let scratch = std::mem::take(&mut self.scratch);
                            let next = self.end_string(
                                Str {
                                    bytes: &scratch,
                                    surrogates,
                                },
                                sink,
                            );
                            self.scratch = scratch;
                            self.scratch.clear();
                            next?
                        };
                    }
                    b'\\' => {
                        self.scratch.extend_from_slice(&chunk[start..j]);
                        self.string_dirty |= j > start;
                        *state = State::Escape;
                    }
                    _ => {
                        let pos = self.resolve(Mark::Byte(j), chunk);
                        return Err(self.syntax(ErrorKind::InvalidControlCharacter, pos));
                    }
                }
                continue;
            }

            let b = chunk[i];
            if *state <= State::Done {
                if is_whitespace(b) {
                    while i < n && is_whitespace(chunk[i]) {
                        if chunk[i] == b'\n' {
                            self.line += 1;
                            self.line_start = Mark::Byte(i + 1);
                        }
                        i += 1;
                    }
                    continue;
                }
                let s = *state;
                *state = match s {
                    State::Value => self.begin_value(b, i, chunk, sink)?,
                    State::ArrayNext | State::ObjectNext if b == b',' => {
                        if self.dialect.trailing_comma {
                            self.comma = Mark::Byte(i);
                            self.comma_line = self.line;
                            self.comma_line_start = self.line_start;
                        }
                        if s == State::ArrayNext {
                            State::Value
                        } else {
                            State::ObjectKey
                        }
                    }
                    State::ArrayNext | State::ObjectNext => match b {
                        b']' if s == State::ArrayNext => self.end_container(sink),
                        b'}' if s == State::ObjectNext => self.end_container(sink),
                        _ => {
                            return Err(
                                self.syntax(expecting(s), self.resolve(Mark::Byte(i), chunk))
                            )
                        }
                    },
                    State::ObjectColon => {
                        if b != b':' {
                            return Err(
                                self.syntax(expecting(s), self.resolve(Mark::Byte(i), chunk))
                            );
                        }
                        State::Value
                    }
                    State::ObjectKey | State::ObjectFirst => {
                        if b == b'"' {
                            self.token_start = Mark::Byte(i);
                            self.in_key = true;
                            self.scratch.clear();
                            self.string_surrogates = false;
                            State::String
                        } else if b == b'}' && s == State::ObjectFirst {
                            self.end_container(sink)
                        } else if b == b'}' && self.dialect.trailing_comma {
                            let comma = self.resolve(self.comma, chunk);
                            return Err(self.syntax(ErrorKind::TrailingCommaInObject, comma));
                        } else {
                            return Err(
                                self.syntax(expecting(s), self.resolve(Mark::Byte(i), chunk))
                            );
                        }
                    }
                    State::ArrayFirst => {
                        if b == b']' {
                            self.end_container(sink)
                        } else {
                            self.begin_value(b, i, chunk, sink)?
                        }
                    }
                    _ => {
                        return Err(
                            self.syntax(expecting(State::Done), self.resolve(Mark::Byte(i), chunk))
                        )
                    }
                };
                i += 1;
                continue;
            }

            match *state {
                State::Number => {
                    let mut sub = self.number_state;
                    let start = i;
                    while i < n {
                        match sub.next(chunk[i]) {
                            Some(next) => sub = next,
                            None => break,
                        }
                        i += 1;
                        if sub.accepting() {
                            self.number_valid = self.number.len() + i - start;
                        }
                    }
                    self.number.extend_from_slice(&chunk[start..i]);
                    self.number_state = sub;
                    if sub >= Num::Dot {
                        self.number_float = true;
                    }
                    if i < n {
                        // The byte at i cannot continue the number.
                        if sub == Num::Minus && chunk[i] == b'I' {
                            self.literal = b"-Infinity";
                            self.literal_value = Atom::NegInfinity;
                            self.literal_len = 1;
                            *state = State::Literal;
                        } else if !sub.accepting() {
                            return Err(self.number_error(chunk));
                        } else {
                            *state = self.end_number(sink)?;
                        }
                    }
                }
                State::Literal => {
                    if b != self.literal[self.literal_len] {
                        let start = self.resolve(self.token_start, chunk);
                        return Err(self.syntax(ErrorKind::ExpectingValue, start));
                    }
                    self.literal_len += 1;
                    i += 1;
                    if self.literal_len == self.literal.len() {
                        sink.atom(self.literal_value)?;
                        *state = self.after_value();
                    }
                }
                State::Escape => {
                    i += 1;
                    if b == b'u' {
                        self.hex = 0;
                        self.hex_len = 0;
                        *state = State::Unicode;
                    } else {
                        let Some(decoded) = escape_char(b) else {
                            let pos = self.resolve(Mark::Byte(i), chunk) - 2;
                            return Err(self.syntax(ErrorKind::InvalidEscape, pos));
                        };
                        self.scratch.push(decoded);
                        self.string_dirty = true;
                        *state = State::String;
                    }
                }
                State::Unicode => {
                    let Some(digit) = (b as char).to_digit(16) else {
                        let pos = self.resolve(Mark::Byte(i), chunk) - self.hex_len as u64 - 1;
                        return Err(self.syntax(ErrorKind::InvalidUnicodeEscape, pos));
                    };
                    i += 1;
                    self.hex = self.hex << 4 | digit;
                    self.hex_len += 1;
                    if self.hex_len == 4 {
                        self.escape_end = Some(Mark::Byte(i));
                        *state = self.end_escape(self.hex);
                    }
                }
                State::SurrogateBackslash => {
                    if b == b'\\' {
                        i += 1;
                        *state = State::SurrogateU;
                    } else {
                        // No low half: keep the lone surrogate, read b as string content.
                        self.push_lone_high();
                        *state = State::String;
                    }
                }
                State::SurrogateU => {
                    if b == b'u' {
                        i += 1;
                        self.hex = 0;
                        self.hex_len = 0;
                        *state = State::Unicode;
                    } else {
                        // Another escape: keep the lone surrogate; b is the escape's letter.
                        self.push_lone_high();
                        *state = State::Escape;
                    }
                }
                _ => unreachable!("structural and string states are handled above"),
            }
        }
        Ok(())
    }

    /// End of a fragment: show the string value still open, and in jiter mode the number.
    fn flush<S: Sink>(&mut self, sink: &mut S) -> Result<(), Halt> {
        let state = self.state;
        if (State::String..=State::SurrogateU).contains(&state) {
            if !self.in_key && self.string_dirty {
                let text = Str {
                    bytes: &self.scratch,
                    surrogates: self.string_surrogates,
                };
                sink.string(text, false)?;
                self.string_dirty = false;
            }
        } else if state == State::Number && self.mode == Mode::Jiter {
            if self.number_state.accepting() {
                let shown = if self.number_float && self.number.len() > LONG_NUMBER {
                    let short = self.number_digest.short_text(&self.number);
                    sink.show_tentative(Atom::Float(&short))
                } else {
                    sink.show_tentative(self.number_atom())
                };
                shown?;
            } else {
                sink.hide_tentative()?;
            }
        }
        Ok(())
    }

    /// The stream ended: finish a number, then insist that the document is complete.
    pub fn close<S: Sink>(&mut self, sink: &mut S) -> Result<(), Halt> {
        self.finish(sink).map_err(|halt| self.positioned(halt))
    }

    fn finish<S: Sink>(&mut self, sink: &mut S) -> Result<(), Halt> {
        let end = self.offset;
        if self.state == State::Number {
            if !self.number_state.accepting() {
                return Err(self.number_error(b""));
            }
            if !self.stack.is_empty() {
                // Cut inside a container: the number may be cut too, so it is never shown.
                return Err(self.syntax(expecting(self.after_value()), end));
            }
            self.state = self.end_number(sink)?;
        }
        let state = self.state;
        let token_start = self.resolve(self.token_start, b"");
        match state {
            State::Done => Ok(()),
            s if s <= State::ObjectNext => Err(self.syntax(expecting(s), end)),
            State::Unicode => Err(self.syntax(
                ErrorKind::InvalidUnicodeEscape,
                end - self.hex_len as u64 - 1,
            )),
            State::Literal => Err(self.syntax(ErrorKind::ExpectingValue, token_start)),
            // json's quirk before CPython gh-152052: a \uXXXX escape that ends the text is
            // reported as invalid.
            _ if !self.dialect.escape_at_end_unterminated
                && self.escape_end.map(|mark| self.resolve(mark, b"")) == Some(end) =>
            {
                Err(self.syntax(ErrorKind::InvalidUnicodeEscape, end - 5))
            }
            _ => Err(self.syntax(ErrorKind::UnterminatedString, token_start)),
        }
    }
}

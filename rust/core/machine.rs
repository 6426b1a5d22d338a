//! The partial-JSON state machine. Twin: `src/jsondrip/twin/machine.py`, whose docstring
//! states the rules; the states, their names and the transitions are the same here.
//!
//! The machine reads complete code points (UTF-8, or WTF-8 for a Python str holding lone
//! surrogates) a fragment at a time and keeps between fragments everything it needs: the
//! state, the stack of open containers, and the token it is inside.

use std::num::NonZeroU64;

use super::error::{Dialect, ErrorKind};
use super::escape::{
    hex_digit, is_high_surrogate, is_low_surrogate, join_surrogates, push_wtf8, unescape,
};
use super::number::NumberDigest;
use super::sink::{Atom, Cursor, Sink, Stop, Str};

/// jiter mode shows a float longer than this through its digest, not its whole text.
const LONG_NUMBER: usize = 32;

/// The machine's states. The order of declaration matters, and only these methods rely on
/// it: the structural states come first, ending with `Done` (`is_structural`), then the
/// string's states from `String` to `SurrogateU` (`in_string`), then `Number` and `Literal`.
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

impl State {
    /// Between tokens: waits for one character (whitespace skipped); `Done` included.
    #[inline]
    pub fn is_structural(self) -> bool {
        self <= State::Done
    }

    /// Inside a string: its plain run, an escape, or a surrogate waiting for its low half.
    #[inline]
    pub fn in_string(self) -> bool {
        (State::String..=State::SurrogateU).contains(&self)
    }

    /// The state's name, as the twin spells it (`STATE_NAMES`).
    pub fn name(self) -> &'static str {
        match self {
            State::Value => "VALUE",
            State::ArrayFirst => "ARRAY_FIRST",
            State::ArrayNext => "ARRAY_NEXT",
            State::ObjectFirst => "OBJECT_FIRST",
            State::ObjectKey => "OBJECT_KEY",
            State::ObjectColon => "OBJECT_COLON",
            State::ObjectNext => "OBJECT_NEXT",
            State::Done => "DONE",
            State::String => "STRING",
            State::Escape => "ESCAPE",
            State::Unicode => "UNICODE",
            State::SurrogateBackslash => "SURROGATE_BACKSLASH",
            State::SurrogateU => "SURROGATE_U",
            State::Number => "NUMBER",
            State::Literal => "LITERAL",
        }
    }
}

/// Where the machine is, for debugging and for the differential tests that hold the two
/// engines to the same states. Twin: `Machine.debug_state()` (a dict of the same names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugState {
    /// The state's name.
    pub state: &'static str,
    /// The number's sub-state while in a number.
    pub number: Option<&'static str>,
    /// How many containers are open.
    pub depth: usize,
    /// The open containers, outermost first: `{` an object, `[` an array.
    pub stack: String,
    /// The string being read is a key.
    pub in_key: bool,
    /// In a key: how many of its characters were read (escapes decoded; a high surrogate
    /// waiting for its low half not yet).
    pub key: Option<u64>,
    /// In a string, a number or a literal: the position of its first character.
    pub token_start: Option<u64>,
    /// In a literal: the part of it read so far (which literal, and how far).
    pub literal: Option<&'static str>,
    /// In a `\u` escape: how many of its hex digits were read.
    pub hex: Option<u32>,
    /// In a `\u` escape: the value of its hex digits read so far.
    pub hex_value: Option<u32>,
    /// A high surrogate waiting for its low half (0: none).
    pub high: u32,
    /// Just after the last `\u` escape read (None: none yet).
    pub escape_end: Option<u64>,
    /// In a number: how many characters of it were read.
    pub number_len: Option<usize>,
    /// In a number: the length of its longest prefix that is a number.
    pub number_valid: Option<usize>,
    /// The line being read (1-based).
    pub line: u64,
    /// The position of the line's first character.
    pub line_start: u64,
    /// The last `,` between values that json 3.13+ would report as trailing (0: none).
    pub comma: u64,
    /// A bytes stream opened with a BOM, skipped.
    pub bom_skipped: bool,
    /// Characters read before the current fragment (after a feed: all of them).
    pub offset: u64,
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

/// Number sub-states; accepting: Zero, Int, Frac, ExpDigits. The order of declaration
/// matters to `is_float` only: every state from `Dot` on has seen a `.` or an exponent.
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
    /// The sub-state's name, as the twin spells it (`NUMBER_NAMES`).
    fn name(self) -> &'static str {
        match self {
            Num::Minus => "MINUS",
            Num::Zero => "ZERO",
            Num::Int => "INT",
            Num::Dot => "DOT",
            Num::Frac => "FRAC",
            Num::Exp => "EXP",
            Num::ExpSign => "EXP_SIGN",
            Num::ExpDigits => "EXP_DIGITS",
        }
    }

    fn accepting(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }

    /// The number has a fraction or an exponent: a float.
    #[inline]
    fn is_float(self) -> bool {
        self >= Num::Dot
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

/// The literals: a byte in the machine, its text and value told by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Literal {
    True,
    False,
    Null,
    NaN,
    Infinity,
    NegInfinity,
}

impl Literal {
    /// The literal a letter starts (`-Infinity` is a number's `-` followed by `I`).
    fn starting(b: u8) -> Option<Literal> {
        Some(match b {
            b't' => Literal::True,
            b'f' => Literal::False,
            b'n' => Literal::Null,
            b'N' => Literal::NaN,
            b'I' => Literal::Infinity,
            _ => return None,
        })
    }

    #[inline]
    fn text(self) -> &'static [u8] {
        match self {
            Literal::True => b"true",
            Literal::False => b"false",
            Literal::Null => b"null",
            Literal::NaN => b"NaN",
            Literal::Infinity => b"Infinity",
            Literal::NegInfinity => b"-Infinity",
        }
    }

    /// Its value, once read whole.
    fn value(self) -> Atom<'static> {
        match self {
            Literal::True => Atom::True,
            Literal::False => Atom::False,
            Literal::Null => Atom::Null,
            Literal::NaN => Atom::NaN,
            Literal::Infinity => Atom::Infinity,
            Literal::NegInfinity => Atom::NegInfinity,
        }
    }
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

/// A mark's character position, between fragments (when every mark is one).
fn char_of(mark: Mark) -> u64 {
    match mark.at() {
        At::Char(c) => c,
        At::Byte(_) => unreachable!("marks are resolved when a fragment ends"),
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
/// One word (#28: an open stream's size), never zero so that `Option<Mark>` is one word too:
/// the top bit tags a byte index, the next one a character position (a stream never reads
/// 2^62 characters).
#[derive(Debug, Clone, Copy)]
struct Mark(NonZeroU64);

/// A `Mark` unpacked.
enum At {
    Byte(usize),
    Char(u64),
}

const BYTE_MARK: u64 = 1 << 63;
const CHAR_MARK: u64 = 1 << 62;

impl Mark {
    #[inline]
    fn byte(i: usize) -> Mark {
        Mark(NonZeroU64::new(i as u64 | BYTE_MARK).expect("tagged"))
    }

    #[inline]
    fn char(c: u64) -> Mark {
        Mark(NonZeroU64::new(c | CHAR_MARK).expect("tagged"))
    }

    #[inline]
    fn at(self) -> At {
        let word = self.0.get();
        if word & BYTE_MARK != 0 {
            At::Byte((word & !BYTE_MARK) as usize)
        } else {
            At::Char(word & !CHAR_MARK)
        }
    }
}

/// `Machine::end` while the document has not ended in the fragment being read.
const NO_END: usize = usize::MAX;

pub struct Machine {
    pub(crate) state: State,
    stack: Vec<bool>, // true for an object, false for an array
    mode: Mode,
    /// The most containers open at once (saturated at u32::MAX, more than any text opens:
    /// the fields are as narrow as their values, #28).
    max_depth: u32,
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
    /// The token's text so far: a string's content once it spans fragments or has escapes,
    /// or a number's characters (one buffer: a number and a string are never read at once).
    scratch: Vec<u8>,
    string_dirty: bool,
    string_surrogates: bool,
    /// A `\u` escape's hex digits so far (their value, how many).
    hex: u16,
    hex_len: u8,
    /// A high surrogate waiting for its low half (0: none).
    high: u16,
    /// Just after the last `\u` escape.
    escape_end: Option<Mark>,
    /// The number's sub-state (a float's from `Num::Dot` on: `Num::is_float`).
    number_state: Num,
    number_valid: usize,
    /// jiter mode: the value of a long float still arriving, read once; made for the first
    /// long float (a stream without one never pays for it).
    number_digest: Option<Box<NumberDigest>>,
    /// The literal being read and how much of it was read.
    literal: Literal,
    literal_len: u8,
    /// Stop at the end of the document (`set_stop_at_end`) instead of failing on what
    /// follows it.
    stop_at_end: bool,
    /// Where the document ended in the fragment being read: the byte index of the first
    /// character after it that is not whitespace (the machine read no further), or
    /// `NO_END` (`take_end`).
    end: usize,
}

type Step = Result<State, Halt>;

impl Machine {
    pub fn new(mode: Mode, max_depth: usize, dialect: Dialect) -> Self {
        Machine {
            state: State::Value,
            stack: Vec::new(),
            mode,
            max_depth: u32::try_from(max_depth).unwrap_or(u32::MAX),
            dialect,
            offset: 0,
            bom_skipped: false,
            line: 1,
            line_start: Mark::char(0),
            comma: Mark::char(0),
            comma_line: 1,
            comma_line_start: Mark::char(0),
            token_start: Mark::char(0),
            in_key: false,
            scratch: Vec::new(),
            string_dirty: false,
            string_surrogates: false,
            hex: 0,
            hex_len: 0,
            high: 0,
            escape_end: None,
            number_state: Num::Minus,
            number_valid: 0,
            number_digest: None,
            literal: Literal::Null,
            literal_len: 0,
            stop_at_end: false,
            end: NO_END,
        }
    }

    /// Where the document ended in the fragment just read (with `set_stop_at_end`): the byte
    /// index of the first character after it that is not whitespace; taken once.
    pub(crate) fn take_end(&mut self) -> Option<usize> {
        let end = std::mem::replace(&mut self.end, NO_END);
        (end != NO_END).then_some(end)
    }

    /// Once the document is complete, the first character after it that is not whitespace
    /// ends the reading (`end` says where) instead of being "Extra data": the text that
    /// follows a document (a model's prose, the next document) is the caller's.
    pub fn set_stop_at_end(&mut self) {
        self.stop_at_end = true;
    }

    /// How many values along the live value's last path are still arriving: the open
    /// containers, and the string (or, in jiter mode, the number) shown at the end of them.
    /// Every value shown off that path, and deeper on it, is complete.
    pub fn open_depth(&self) -> usize {
        let open_scalar = (self.state.in_string() && !self.in_key)
            || (self.state == State::Number
                && self.mode == Mode::Jiter
                && self.number_state.accepting());
        self.stack.len() + usize::from(open_scalar)
    }

    pub fn done(&self) -> bool {
        self.state == State::Done
    }

    /// The bytes this machine holds outside itself: its buffers' capacities (the stack, the
    /// token's text) and the long-float digest once made. A new machine holds none.
    pub fn heap_bytes(&self) -> usize {
        self.stack.capacity()
            + self.scratch.capacity()
            + self.number_digest.as_ref().map_or(0, |digest| {
                std::mem::size_of::<NumberDigest>() + digest.heap_bytes()
            })
    }

    /// Where the machine is (see `DebugState`), between fragments.
    pub fn debug_state(&self) -> DebugState {
        let state = self.state;
        let in_key = state.in_string() && self.in_key;
        let in_number = state == State::Number;
        let in_token = state.in_string() || in_number || state == State::Literal;
        let unicode = state == State::Unicode;
        DebugState {
            state: state.name(),
            number: in_number.then(|| self.number_state.name()),
            depth: self.stack.len(),
            stack: self
                .stack
                .iter()
                .map(|&object| if object { '{' } else { '[' })
                .collect(),
            in_key,
            key: in_key.then(|| count_chars(&self.scratch)),
            token_start: in_token.then(|| char_of(self.token_start)),
            literal: (state == State::Literal).then(|| {
                // SAFETY: literals are ASCII.
                unsafe {
                    std::str::from_utf8_unchecked(&self.literal.text()[..self.literal_len as usize])
                }
            }),
            hex: unicode.then_some(u32::from(self.hex_len)),
            hex_value: unicode.then_some(u32::from(self.hex)),
            high: u32::from(self.high),
            escape_end: self.escape_end.map(char_of),
            number_len: in_number.then_some(self.scratch.len()),
            number_valid: in_number.then_some(self.number_valid),
            line: self.line,
            line_start: char_of(self.line_start),
            comma: char_of(self.comma),
            bom_skipped: self.bom_skipped,
            offset: self.offset,
        }
    }

    /// The content of the string value still open, as read so far (escapes decoded), or None.
    pub fn open_string(&self) -> Option<Str<'_>> {
        (self.state.in_string() && !self.in_key).then_some(Str {
            bytes: &self.scratch,
            surrogates: self.string_surrogates,
        })
    }

    /// The line and column (1-based) of a position on the current line, or (json 3.13+'s
    /// trailing comma) of the last comma.
    pub(crate) fn locate(&self, pos: u64) -> (u64, u64) {
        let line_start = char_of(self.line_start);
        if pos < line_start && pos == char_of(self.comma) {
            return (self.comma_line, pos - char_of(self.comma_line_start) + 1);
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
                Literal::True => "the rest of 'true'",
                Literal::False => "the rest of 'false'",
                Literal::Null => "the rest of 'null'",
                Literal::NaN => "the rest of 'NaN'",
                Literal::Infinity => "the rest of 'Infinity'",
                Literal::NegInfinity => "the rest of '-Infinity'",
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
        match mark.at() {
            At::Char(c) => c,
            At::Byte(i) => self.offset + count_chars(&chunk[..i]),
        }
    }

    /// The character position of byte `i` of the fragment being read, for an event: events
    /// come in the text's order, so each counts on from the last one (the sink's `Cursor`: a
    /// whole fragment costs one count); an earlier byte (a lone surrogate's escape) is
    /// counted from the start.
    fn char_at<S: Sink>(&self, i: usize, chunk: &[u8], sink: &mut S) -> u64 {
        let cursor = sink.cursor();
        let chars = if i >= cursor.byte {
            cursor.chars + count_chars(&chunk[cursor.byte..i])
        } else {
            count_chars(&chunk[..i])
        };
        *cursor = Cursor { byte: i, chars };
        self.offset + chars
    }

    /// Every syntax error leaves the machine here. The twin's counterpart is `reject`, which
    /// also names the error site (`errors.Site`) so that PyPy's table (twin/pypy.py, a
    /// dialect the native backend never serves) can word and place it otherwise; the sites
    /// are the same places in both machines.
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
        let step = self.value_step(b, i, chunk, sink)?;
        if S::EVENTS {
            let pos = self.char_at(i, chunk, sink);
            sink.value_begins(b, pos);
        }
        Ok(step)
    }

    /// `begin_value`'s transition.
    fn value_step<S: Sink>(&mut self, b: u8, i: usize, chunk: &[u8], sink: &mut S) -> Step {
        match b {
            b'"' => {
                self.token_start = Mark::byte(i);
                self.in_key = false;
                self.scratch.clear();
                self.string_surrogates = false;
                self.string_dirty = true;
                Ok(State::String)
            }
            b'{' | b'[' => {
                if self.stack.len() >= self.max_depth as usize {
                    let kind = ErrorKind::MaxDepth(self.max_depth as usize);
                    return Err(self.syntax(kind, self.resolve(Mark::byte(i), chunk)));
                }
                let object = b == b'{';
                self.stack.push(object);
                self.token_start = Mark::byte(i);
                sink.begin_container(object)?;
                Ok(if object {
                    State::ObjectFirst
                } else {
                    State::ArrayFirst
                })
            }
            b'-' | b'0'..=b'9' => {
                self.token_start = Mark::byte(i);
                self.scratch.clear();
                self.scratch.push(b);
                if let Some(digest) = &mut self.number_digest {
                    digest.reset();
                }
                (self.number_state, self.number_valid) = match b {
                    b'-' => (Num::Minus, 0),
                    b'0' => (Num::Zero, 1),
                    _ => (Num::Int, 1),
                };
                Ok(State::Number)
            }
            _ => {
                if let Some(literal) = Literal::starting(b) {
                    self.token_start = Mark::byte(i);
                    self.literal = literal;
                    self.literal_len = 1;
                    return Ok(State::Literal);
                }
                if b == b']' && self.dialect.trailing_comma && self.stack.last() == Some(&false) {
                    // A value is awaited inside an array only after a comma.
                    let comma = self.resolve(self.comma, chunk);
                    return Err(self.syntax(ErrorKind::TrailingCommaInArray, comma));
                }
                let pos = self.resolve(Mark::byte(i), chunk);
                if pos == 0 && !self.bom_skipped && chunk[i..].starts_with("\u{feff}".as_bytes()) {
                    return Err(self.syntax(ErrorKind::UnexpectedBom, 0));
                }
                Err(self.syntax(ErrorKind::ExpectingValue, pos))
            }
        }
    }

    /// `}` or `]` at byte `i`.
    fn end_container<S: Sink>(&mut self, i: usize, chunk: &[u8], sink: &mut S) -> State {
        self.stack.pop();
        sink.end_container();
        if S::EVENTS {
            let pos = self.char_at(i, chunk, sink);
            sink.container_ends(pos);
        }
        self.after_value()
    }

    fn number_atom(&self) -> Atom<'_> {
        // SAFETY: number text is ASCII (digits, sign, dot, exponent letters).
        let text = unsafe { std::str::from_utf8_unchecked(&self.scratch) };
        if self.number_state.is_float() {
            Atom::Float(text)
        } else {
            Atom::Int(text)
        }
    }

    /// The number is complete: at `pos`, the character after it (or the stream's end).
    fn end_number<S: Sink>(&mut self, pos: u64, sink: &mut S) -> Step {
        sink.atom(self.number_atom())?;
        if S::EVENTS {
            sink.atom_ends(self.number_atom(), pos);
        }
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

    /// The high surrogate held found no low half: it is kept alone.
    fn push_lone_high<S: Sink>(&mut self, chunk: &[u8], sink: &mut S) {
        let from = self.scratch.len();
        push_wtf8(&mut self.scratch, u32::from(self.high));
        self.high = 0;
        self.string_surrogates = true;
        self.string_dirty = true;
        if S::EVENTS {
            // Its escape is the last one ended: at `escape_end` - 1.
            let end = match self.escape_end.map(Mark::at) {
                Some(At::Byte(k)) => self.char_at(k, chunk, sink),
                Some(At::Char(c)) => c,
                None => unreachable!("a high surrogate came from an escape"),
            };
            sink.string_text(&self.scratch[from..], end - 1, false, false);
        }
    }

    /// Four hex digits read, the last at byte `i - 1`: a character, a held-back high
    /// surrogate, or a pair.
    fn end_escape<S: Sink>(
        &mut self,
        mut code: u32,
        i: usize,
        chunk: &[u8],
        sink: &mut S,
    ) -> State {
        if self.high != 0 {
            if is_low_surrogate(code) {
                code = join_surrogates(u32::from(self.high), code);
                self.high = 0;
            } else {
                self.push_lone_high(chunk, sink);
            }
        }
        if is_high_surrogate(code) {
            self.high = code as u16; // a high surrogate: 0xD800 to 0xDBFF
            return State::SurrogateBackslash;
        }
        if is_low_surrogate(code) {
            self.string_surrogates = true;
        }
        let from = self.scratch.len();
        push_wtf8(&mut self.scratch, code);
        self.string_dirty = true;
        if S::EVENTS {
            let pos = self.char_at(i - 1, chunk, sink);
            sink.string_text(&self.scratch[from..], pos, false, false);
        }
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

    /// The marks into `chunk` made character positions (`feed`, as the fragment ends).
    /// `ascii`: every byte of `chunk` is a character, so a byte index needs no count.
    fn settle_marks(&mut self, chunk: &[u8], ascii: bool) {
        let settle = |mark: Mark| match mark.at() {
            At::Char(_) => mark,
            At::Byte(i) if ascii => Mark::char(self.offset + i as u64),
            At::Byte(_) => Mark::char(self.resolve(mark, chunk)),
        };
        let (line_start, token_start) = (settle(self.line_start), settle(self.token_start));
        let escape_end = self.escape_end.map(settle);
        let (comma, comma_line_start) = (settle(self.comma), settle(self.comma_line_start));
        self.line_start = line_start;
        self.token_start = token_start;
        self.escape_end = escape_end;
        self.comma = comma;
        self.comma_line_start = comma_line_start;
    }

    /// Read one fragment of whole code points, `chars` of them (`count_chars(chunk)`, which
    /// the caller may know without counting). `wtf8` says it may hold lone surrogates.
    pub fn feed<S: Sink>(
        &mut self,
        chunk: &[u8],
        chars: u64,
        wtf8: bool,
        sink: &mut S,
    ) -> Result<(), Halt> {
        if S::EVENTS {
            *sink.cursor() = Cursor::default();
        }
        let mut state = self.state;
        let result = self.run(&mut state, chunk, wtf8, sink);
        self.state = state;
        // Marks into this fragment become character positions before it goes away: most
        // fragments set none (a string's middle), and one test of the five tags tells.
        let tags = self.line_start.0.get()
            | self.token_start.0.get()
            | self.escape_end.map_or(0, |mark| mark.0.get())
            | self.comma.0.get()
            | self.comma_line_start.0.get();
        if tags & BYTE_MARK != 0 {
            self.settle_marks(chunk, chars == chunk.len() as u64);
        }
        // Stopped at the document's end: only what it read counts.
        self.offset += if self.end == NO_END {
            chars
        } else {
            count_chars(&chunk[..self.end])
        };
        result.map_err(|halt| self.positioned(halt))?;
        self.flush(sink).map_err(|halt| self.positioned(halt))
    }

    /// Reads the fragment, handing each stretch to the piece for its state's family; each
    /// piece reads while the state stays in its family and returns where it stopped.
    fn run<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        wtf8: bool,
        sink: &mut S,
    ) -> Result<(), Halt> {
        let mut i = 0;
        while i < chunk.len() {
            i = match *state {
                State::String => self.read_string(state, chunk, i, wtf8, sink)?,
                s if s.is_structural() => self.read_structure(state, chunk, i, sink)?,
                State::Number => self.read_number(state, chunk, i, sink)?,
                State::Literal => self.read_literal(state, chunk, i, sink)?,
                _ => self.read_escape(state, chunk, i, sink)?,
            };
        }
        Ok(())
    }

    /// `String`: plain bytes in bulk, up to the closing quote or a backslash (to `Escape`).
    fn read_string<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        i: usize,
        wtf8: bool,
        sink: &mut S,
    ) -> Result<usize, Halt> {
        let n = chunk.len();
        let start = i;
        let mut j = i;
        while j < n && PLAIN[chunk[j] as usize] {
            j += 1;
        }
        if wtf8 && j > start {
            self.string_surrogates = true;
        }
        if S::EVENTS && j > start {
            let pos = self.char_at(start, chunk, sink);
            sink.string_text(&chunk[start..j], pos, true, j < n && chunk[j] == b'"');
        }
        if j == n {
            if j > start {
                self.scratch.extend_from_slice(&chunk[start..j]);
                self.string_dirty = true;
            }
            return Ok(n);
        }
        match chunk[j] {
            b'"' => {
                if S::EVENTS {
                    let pos = self.char_at(j, chunk, sink);
                    sink.string_ends(pos);
                }
                let surrogates = self.string_surrogates;
                *state = if self.scratch.is_empty() {
                    let text = Str {
                        bytes: &chunk[start..j],
                        surrogates,
                    };
                    self.end_string(text, sink)?
                } else {
                    self.scratch.extend_from_slice(&chunk[start..j]);
                    let scratch = std::mem::take(&mut self.scratch);
                    let text = Str {
                        bytes: &scratch,
                        surrogates,
                    };
                    let next = self.end_string(text, sink);
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
                let pos = self.resolve(Mark::byte(j), chunk);
                return Err(self.syntax(ErrorKind::InvalidControlCharacter, pos));
            }
        }
        Ok(j + 1)
    }

    /// The structural states: whitespace skipped, then one character's transition, while
    /// the state stays structural.
    fn read_structure<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Halt> {
        let n = chunk.len();
        while i < n && state.is_structural() {
            let b = chunk[i];
            if is_whitespace(b) {
                if b == b'\n' {
                    self.line += 1;
                    self.line_start = Mark::byte(i + 1);
                }
                i += 1;
                continue;
            }
            if *state == State::Done && self.stop_at_end {
                self.end = i;
                return Ok(n);
            }
            *state = self.structure_step(*state, b, i, chunk, sink)?;
            i += 1;
        }
        Ok(i)
    }

    /// One structural state's transition on the non-whitespace byte `b` at `i`.
    fn structure_step<S: Sink>(
        &mut self,
        s: State,
        b: u8,
        i: usize,
        chunk: &[u8],
        sink: &mut S,
    ) -> Step {
        let unexpected = |m: &Self| Err(m.syntax(expecting(s), m.resolve(Mark::byte(i), chunk)));
        Ok(match (s, b) {
            (State::Value, _) => self.begin_value(b, i, chunk, sink)?,
            (State::ArrayFirst, b']') | (State::ArrayNext, b']') => {
                self.end_container(i, chunk, sink)
            }
            (State::ArrayFirst, _) => self.begin_value(b, i, chunk, sink)?,
            (State::ArrayNext | State::ObjectNext, b',') => {
                if self.dialect.trailing_comma {
                    self.comma = Mark::byte(i);
                    self.comma_line = self.line;
                    self.comma_line_start = self.line_start;
                }
                if s == State::ArrayNext {
                    State::Value
                } else {
                    State::ObjectKey
                }
            }
            (State::ObjectFirst, b'}') | (State::ObjectNext, b'}') => {
                self.end_container(i, chunk, sink)
            }
            (State::ObjectColon, b':') => State::Value,
            (State::ObjectFirst | State::ObjectKey, b'"') => {
                self.token_start = Mark::byte(i);
                self.in_key = true;
                self.scratch.clear();
                self.string_surrogates = false;
                if S::EVENTS {
                    let pos = self.char_at(i, chunk, sink);
                    sink.key_begins(pos);
                }
                State::String
            }
            (State::ObjectKey, b'}') if self.dialect.trailing_comma => {
                let comma = self.resolve(self.comma, chunk);
                return Err(self.syntax(ErrorKind::TrailingCommaInObject, comma));
            }
            _ => return unexpected(self),
        })
    }

    /// `Number`: the sub-machine in `Num::next` until a byte cannot continue the number,
    /// which ends it (that byte is read again in the state after the value).
    fn read_number<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Halt> {
        let n = chunk.len();
        let mut sub = self.number_state;
        let start = i;
        while i < n {
            match sub.next(chunk[i]) {
                Some(next) => sub = next,
                None => break,
            }
            i += 1;
            if sub.accepting() {
                self.number_valid = self.scratch.len() + i - start;
            }
        }
        self.scratch.extend_from_slice(&chunk[start..i]);
        self.number_state = sub;
        if i < n {
            if sub == Num::Minus && chunk[i] == b'I' {
                self.literal = Literal::NegInfinity;
                self.literal_len = 1;
                *state = State::Literal;
            } else if !sub.accepting() {
                return Err(self.number_error(chunk));
            } else {
                let pos = if S::EVENTS {
                    self.char_at(i, chunk, sink)
                } else {
                    0
                };
                *state = self.end_number(pos, sink)?;
            }
        }
        Ok(i)
    }

    /// `Literal`: true, false, null, NaN, Infinity, -Infinity, letter by letter.
    fn read_literal<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Halt> {
        while i < chunk.len() && *state == State::Literal {
            let text = self.literal.text();
            if chunk[i] != text[self.literal_len as usize] {
                let start = self.resolve(self.token_start, chunk);
                return Err(self.syntax(ErrorKind::ExpectingValue, start));
            }
            self.literal_len += 1;
            i += 1;
            if self.literal_len as usize == text.len() {
                let value = self.literal.value();
                sink.atom(value)?;
                if S::EVENTS {
                    let pos = self.char_at(i - 1, chunk, sink);
                    sink.atom_ends(value, pos);
                }
                *state = self.after_value();
            }
        }
        Ok(i)
    }

    /// The string's other states: `Escape`, `Unicode` (four hex digits), and after a high
    /// surrogate `SurrogateBackslash` and `SurrogateU` (looking for its low half's `\u`).
    fn read_escape<S: Sink>(
        &mut self,
        state: &mut State,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Halt> {
        while i < chunk.len() && state.in_string() && *state != State::String {
            let b = chunk[i];
            *state = match *state {
                State::Escape => {
                    i += 1;
                    if b == b'u' {
                        self.hex = 0;
                        self.hex_len = 0;
                        State::Unicode
                    } else {
                        let Some(decoded) = unescape(b) else {
                            let pos = self.resolve(Mark::byte(i), chunk) - 2;
                            return Err(self.syntax(ErrorKind::InvalidEscape, pos));
                        };
                        self.scratch.push(decoded);
                        self.string_dirty = true;
                        if S::EVENTS {
                            let pos = self.char_at(i - 1, chunk, sink);
                            sink.string_text(&[decoded], pos, false, false);
                        }
                        State::String
                    }
                }
                State::Unicode => {
                    let Some(digit) = hex_digit(b) else {
                        let pos = self.resolve(Mark::byte(i), chunk) - self.hex_len as u64 - 1;
                        return Err(self.syntax(ErrorKind::InvalidUnicodeEscape, pos));
                    };
                    i += 1;
                    self.hex = self.hex << 4 | digit as u16; // four hex digits: 16 bits
                    self.hex_len += 1;
                    if self.hex_len < 4 {
                        continue;
                    }
                    // The escape before this one is still `escape_end` while it is ended: a
                    // lone high surrogate it held is placed there.
                    let next = self.end_escape(u32::from(self.hex), i, chunk, sink);
                    self.escape_end = Some(Mark::byte(i));
                    next
                }
                State::SurrogateBackslash if b == b'\\' => {
                    i += 1;
                    State::SurrogateU
                }
                State::SurrogateU if b == b'u' => {
                    i += 1;
                    self.hex = 0;
                    self.hex_len = 0;
                    State::Unicode
                }
                // No low half: keep the lone surrogate; b is string content, or the letter
                // of another escape.
                State::SurrogateBackslash => {
                    self.push_lone_high(chunk, sink);
                    State::String
                }
                _ => {
                    self.push_lone_high(chunk, sink);
                    State::Escape
                }
            };
        }
        Ok(i)
    }

    /// End of a fragment: show the string value still open, and in jiter mode the number.
    fn flush<S: Sink>(&mut self, sink: &mut S) -> Result<(), Halt> {
        let state = self.state;
        if state.in_string() {
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
                let shown = if self.number_state.is_float() && self.scratch.len() > LONG_NUMBER {
                    let short = self
                        .number_digest
                        .get_or_insert_with(Default::default)
                        .short_text(&self.scratch);
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
            self.state = self.end_number(end, sink)?;
        }
        let state = self.state;
        let token_start = self.resolve(self.token_start, b"");
        match state {
            State::Done => Ok(()),
            s if s.is_structural() => Err(self.syntax(expecting(s), end)),
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

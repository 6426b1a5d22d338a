//! A JSON stream: fragments of text or UTF-8 bytes in any chunking. Twin:
//! `src/jsondrip/twin/stream.py`.
//!
//! Holds back a code point cut between fragments, skips a BOM at the start of a bytes
//! stream, enforces `max_size`, stays failed after an error, and keeps the last fragment read
//! (at most DOC_WINDOW characters of it) so that an error can show the text around its
//! position.

use super::error::{Dialect, ErrorKind, Failure, ParseError, DOC_WINDOW};
use super::machine::{count_chars, DebugState, Halt, Machine, Mode};
use super::sink::Sink;

const BOM: &[u8] = b"\xef\xbb\xbf";

pub struct Stream {
    machine: Machine,
    /// `max_size`, or `NO_LIMIT`.
    max_size: u64,
    /// Bytes of a code point (or of a BOM) not yet whole.
    pending: HeldBack,
    /// Nothing read yet: a bytes stream may open with a BOM.
    at_start: bool,
    /// Boxed: a stream seldom fails, and the error is large.
    error: Option<Box<ParseError>>,
    closed: bool,
    /// The last fragment read (its last DOC_WINDOW characters), for an error's `doc`: its
    /// first `last_len` bytes (`remembered`). A copy per fragment costs little, more history
    /// costs every small feed (measured); a short fragment's copy is two word moves into a
    /// buffer of at least SMALL bytes, not a `memcpy` call (`remember`).
    last: Vec<u8>,
    /// How many bytes of `last` are the last fragment's (at most 4 * DOC_WINDOW).
    last_len: u16,
    /// With `set_stop_at_end`: where the document ended, once it has (see `end`); nothing
    /// after it is read.
    /// Boxed: set once, and only with `set_stop_at_end`.
    end: Option<Box<DocumentEnd>>,
}

/// Where a document ended (`Stream::end`, `Stream::end_index`).
struct DocumentEnd {
    /// Position (characters from the stream's start), line and column (1-based).
    at: (u64, u64, u64),
    /// The position's index in the fragment that held it, in characters.
    index: u64,
}

/// A fragment of up to this many bytes is kept for an error's `doc` without a `memcpy` call
/// (`Stream::remember`).
const SMALL: usize = 16;

/// Copies `from` (at most SMALL bytes) to the start of `to` as two overlapping loads and
/// stores of a fixed width, no call: bytes past `from.len()` in `to` are left as they were
/// or overwritten, never read back (`Stream::remembered` stops at `last_len`).
#[inline(always)]
fn copy_small(from: &[u8], to: &mut [u8; SMALL]) {
    let n = from.len();
    if n >= 8 {
        let (head, tail) = (word::<8>(from, 0), word::<8>(from, n - 8));
        *slot::<8>(to, n - 8) = tail;
        *slot::<8>(to, 0) = head;
    } else if n >= 4 {
        let (head, tail) = (word::<4>(from, 0), word::<4>(from, n - 4));
        *slot::<4>(to, n - 4) = tail;
        *slot::<4>(to, 0) = head;
    } else if n > 0 {
        to[0] = from[0];
        to[n / 2] = from[n / 2];
        to[n - 1] = from[n - 1];
    }
}

/// The `N` bytes of `bytes` from `at`, by value (one load: `copy_from_slice` is a call to
/// `memcpy` wherever the standard library's slice code is not inlined).
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes[at..at + N].try_into().expect("N bytes")
}

/// The `N` bytes of `bytes` from `at`, to store a `word` into.
#[inline(always)]
fn slot<const N: usize>(bytes: &mut [u8], at: usize) -> &mut [u8; N] {
    (&mut bytes[at..at + N]).try_into().expect("N bytes")
}

/// `Stream::last_len` holds the bytes of DOC_WINDOW characters.
const _LAST_FITS: () = assert!(4 * DOC_WINDOW <= u16::MAX as usize);

/// `Stream::max_size` without a limit (one word, not an `Option`'s two: #28).
const NO_LIMIT: u64 = u64::MAX;

/// The bytes of a code point cut by the end of a bytes fragment (or of a BOM cut short): at
/// most three, held in place rather than in a buffer of their own.
#[derive(Default)]
struct HeldBack {
    bytes: [u8; 3],
    len: u8,
}

impl HeldBack {
    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn set(&mut self, bytes: &[u8]) {
        self.bytes[..bytes.len()].copy_from_slice(bytes);
        self.len = bytes.len() as u8;
    }
}

/// The byte index where the last `chars` characters of `text` start.
fn last_chars_start(text: &[u8], chars: usize) -> usize {
    let mut seen = 0;
    for (i, &b) in text.iter().enumerate().rev() {
        if (b as i8) >= -0x40 {
            seen += 1;
            if seen == chars {
                return i;
            }
        }
    }
    0
}

/// The byte index where character number `chars` of `text` starts (or its length).
fn char_index(text: &[u8], chars: u64) -> usize {
    let mut seen = 0;
    for (i, &b) in text.iter().enumerate() {
        if (b as i8) >= -0x40 {
            if seen == chars {
                return i;
            }
            seen += 1;
        }
    }
    text.len()
}

impl Stream {
    /// A stream reporting errors as json of CPython 3.9 to 3.12 does (see `with_dialect`).
    pub fn new(mode: Mode, max_depth: usize, max_size: Option<u64>) -> Self {
        Self::with_dialect(mode, max_depth, max_size, Dialect::default())
    }

    /// A stream reporting errors in the given json dialect.
    pub fn with_dialect(
        mode: Mode,
        max_depth: usize,
        max_size: Option<u64>,
        dialect: Dialect,
    ) -> Self {
        Stream {
            machine: Machine::new(mode, max_depth, dialect),
            max_size: max_size.unwrap_or(NO_LIMIT),
            pending: HeldBack::default(),
            at_start: true,
            error: None,
            closed: false,
            last: Vec::new(),
            last_len: 0,
            end: None,
        }
    }

    /// The bytes this stream holds outside itself (the machine's buffers, the last fragment
    /// kept for an error's `doc`, the error, the document's end once found): see
    /// `Machine::heap_bytes`.
    pub fn heap_bytes(&self) -> usize {
        self.machine.heap_bytes()
            + self
                .end
                .as_ref()
                .map_or(0, |_| std::mem::size_of::<DocumentEnd>())
            + self.last.capacity()
            + self.error.as_ref().map_or(0, |error| {
                std::mem::size_of::<ParseError>() + error.doc.capacity()
            })
    }

    /// Stop at the end of the document instead of failing on what follows it ("Extra
    /// data"): see `end`.
    pub fn set_stop_at_end(&mut self) {
        self.machine.set_stop_at_end();
    }

    /// With `set_stop_at_end`: where the document ended, once a fragment held its end: the
    /// first character after it that is not whitespace, as its position (in characters from
    /// the stream's start), line and column (1-based). Later fragments are not read.
    pub fn end(&self) -> Option<(u64, u64, u64)> {
        self.end.as_ref().map(|end| end.at)
    }

    /// With `set_stop_at_end`, once a fragment held the document's end: `end`'s position as
    /// an index into that fragment, in characters (a code point held back from the fragment
    /// before counts as the fragment's).
    pub fn end_index(&self) -> Option<u64> {
        self.end.as_ref().map(|end| end.index)
    }

    /// How many characters the machine has read (the position of the next one).
    pub fn offset(&self) -> u64 {
        self.machine.offset
    }

    /// How many values along the live value's last path are still arriving (see
    /// `Machine::open_depth`).
    pub fn open_depth(&self) -> usize {
        self.machine.open_depth()
    }

    /// True once a complete document has been read.
    pub fn done(&self) -> bool {
        self.machine.done()
    }

    /// Where the machine is, for debugging (see `DebugState`).
    pub fn debug_state(&self) -> DebugState {
        self.machine.debug_state()
    }

    /// The content of the string value still open, or None.
    pub fn open_string(&self) -> Option<super::sink::Str<'_>> {
        self.machine.open_string()
    }

    /// The error the stream failed with, if it did.
    pub fn error(&self) -> Option<&ParseError> {
        self.error.as_deref()
    }

    /// Fails the stream. `current` is the text of the fragment being read, which `recent`
    /// does not hold yet; `expected` is set when the text only ended too early.
    fn fail(
        &mut self,
        kind: ErrorKind,
        pos: u64,
        current: &[u8],
        expected: Option<&'static str>,
    ) -> Failure {
        let (line, column) = self.machine.locate(pos);
        let (doc, doc_start) = self.window(pos, current);
        let error = ParseError {
            kind,
            pos,
            line,
            column,
            expected,
            doc,
            doc_start,
        };
        let error = Box::new(error);
        self.error = Some(error.clone());
        Failure::Invalid(error)
    }

    /// The text read around `pos`: at most DOC_WINDOW characters either side, of what the
    /// stream still has (the fragment being read, and before it the last one read), and the
    /// position of its first character. A position before all of that (a string opened long
    /// before the end) gets the last DOC_WINDOW characters.
    fn window(&self, pos: u64, current: &[u8]) -> (Vec<u8>, u64) {
        let mut text = self.remembered().to_vec();
        text.extend_from_slice(current);
        // The machine has counted `current` already, whether or not it read all of it.
        let end = self.machine.offset;
        let start = end - count_chars(&text).min(end);
        let window = DOC_WINDOW as u64;
        let (mut from, mut to) = (
            pos.saturating_sub(window).max(start),
            (pos + window).min(end),
        );
        if to < from {
            (from, to) = (end.saturating_sub(window).max(start), end);
        }
        let first = char_index(&text, from - start);
        let last = char_index(&text, to - start);
        (text[first..last].to_vec(), from)
    }

    /// The last fragment read, as `remember` kept it.
    fn remembered(&self) -> &[u8] {
        &self.last[..usize::from(self.last_len)]
    }

    /// Keeps the fragment just read (its last DOC_WINDOW characters) for a later error's `doc`.
    /// A fragment of up to SMALL bytes (most of a stream's: a model's tokens) is copied as
    /// two overlapping moves of a word (or half one) each, with no call: `extend_from_slice`
    /// took a capacity check and a call to `memcpy`, 30-odd instructions of a 4-character
    /// feed's few hundred. Internal: the twin keeps its last fragment as a str.
    #[inline(always)]
    fn remember(&mut self, text: &[u8]) {
        if text.len() <= SMALL && self.last.len() >= SMALL {
            let last: &mut [u8; SMALL] = (&mut self.last[..SMALL]).try_into().expect("SMALL");
            copy_small(text, last);
            self.last_len = text.len() as u16;
        } else {
            self.remember_long(text);
        }
    }

    /// `remember` of a fragment longer than SMALL bytes, or the first one.
    #[inline(never)]
    fn remember_long(&mut self, text: &[u8]) {
        let from = if text.len() > DOC_WINDOW {
            last_chars_start(text, DOC_WINDOW)
        } else {
            0
        };
        let kept = &text[from..];
        if kept.len() <= SMALL {
            // The first fragment: room for every short one after it.
            self.last.resize(SMALL, 0);
            let last: &mut [u8; SMALL] = (&mut self.last[..SMALL]).try_into().expect("SMALL");
            copy_small(kept, last);
        } else {
            self.last.clear();
            self.last.extend_from_slice(kept);
        }
        // At most DOC_WINDOW characters of at most 4 bytes (LAST_FITS).
        self.last_len = kept.len() as u16;
    }

    fn halt(&mut self, halt: Halt, current: &[u8], expected: Option<&'static str>) -> Failure {
        match halt {
            // A refused value is complete: never a text cut short.
            Halt::Syntax(kind @ ErrorKind::Refused(_), pos) => self.fail(kind, pos, current, None),
            Halt::Syntax(kind, pos) => self.fail(kind, pos, current, expected),
            Halt::Refused(msg) => unreachable!("the machine positions a refusal: {msg}"),
            Halt::Stopped => Failure::Stopped,
        }
    }

    fn check_open(&self) -> Result<(), Failure> {
        if let Some(error) = &self.error {
            return Err(Failure::Invalid(error.clone()));
        }
        if self.closed {
            return Err(Failure::Closed);
        }
        Ok(())
    }

    /// Give whole code points to the machine, within max_size; `chars` is how many `text`
    /// holds.
    fn read<S: Sink>(
        &mut self,
        text: &[u8],
        chars: u64,
        wtf8: bool,
        sink: &mut S,
    ) -> Result<(), Failure> {
        debug_assert_eq!(
            chars,
            count_chars(text),
            "the caller counted the characters"
        );
        let start = self.machine.offset;
        let mut text = text;
        let mut chars = chars;
        let mut over = None;
        if self.max_size != NO_LIMIT {
            let limit = self.max_size;
            let room = limit.saturating_sub(self.machine.offset);
            if chars > room {
                // Cut before the character numbered `room`.
                let mut seen = 0;
                let cut = text
                    .iter()
                    .position(|&b| {
                        if (b as i8) >= -0x40 {
                            seen += 1;
                        }
                        seen > room
                    })
                    .unwrap_or(text.len());
                text = &text[..cut];
                chars = room;
                over = Some(limit);
            }
        }
        if let Err(halt) = self.machine.feed(text, chars, wtf8, sink) {
            return Err(self.halt(halt, text, None));
        }
        if let Some(end) = self.machine.take_end() {
            // The document ended in this fragment: what follows it is not the stream's.
            text = &text[..end];
            over = None;
            let pos = self.machine.offset;
            let (line, column) = self.machine.locate(pos);
            self.end = Some(Box::new(DocumentEnd {
                at: (pos, line, column),
                index: pos - start,
            }));
        }
        self.remember(text);
        if let Some(limit) = over {
            return Err(self.fail(ErrorKind::MaxSize(limit), limit, b"", None));
        }
        Ok(())
    }

    /// A fragment of a Python str (or any text): whole code points, WTF-8 if `wtf8`.
    pub fn feed_text<S: Sink>(
        &mut self,
        text: &[u8],
        wtf8: bool,
        sink: &mut S,
    ) -> Result<(), Failure> {
        self.feed_counted(text, count_chars(text), wtf8, sink)
    }

    /// `feed_text` of a fragment whose characters the caller has counted: `chars`, as
    /// `count_chars(text)` would (a Python str's length, for its UTF-8 or WTF-8: each lone
    /// surrogate is one character of three bytes), which the machine then need not count.
    pub fn feed_counted<S: Sink>(
        &mut self,
        text: &[u8],
        chars: u64,
        wtf8: bool,
        sink: &mut S,
    ) -> Result<(), Failure> {
        self.check_open()?;
        if self.end.is_some() {
            return Ok(());
        }
        if !self.pending.is_empty() {
            return Err(self.invalid_pending(None));
        }
        if !text.is_empty() {
            self.at_start = false;
        }
        self.read(text, chars, wtf8, sink)
    }

    /// A fragment of UTF-8 bytes, cut anywhere.
    pub fn feed_bytes<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), Failure> {
        self.check_open()?;
        if self.end.is_some() {
            return Ok(());
        }
        let joined;
        let mut data = bytes;
        if !self.pending.is_empty() {
            joined = [self.pending.as_slice(), bytes].concat();
            self.pending.clear();
            data = &joined;
        }
        if self.at_start {
            if data.len() < 3 && BOM.starts_with(data) {
                self.pending.set(data);
                return Ok(());
            }
            self.at_start = false;
            if data.starts_with(BOM) {
                data = &data[3..];
                self.machine.bom_skipped = true;
            }
        }
        let (valid, surrogates, end) = scan_wtf8(data);
        match end {
            End::Whole => self.read(data, count_chars(data), surrogates, sink),
            End::Incomplete => {
                // A code point cut at the end of the fragment: hold it back.
                self.pending.set(&data[valid..]);
                let data = &data[..valid];
                self.read(data, count_chars(data), surrogates, sink)
            }
            End::Invalid => {
                let read = &data[..valid];
                self.read(read, count_chars(read), surrogates, sink)?;
                if self.end.is_some() {
                    return Ok(()); // the document ended before the invalid byte
                }
                let kind = ErrorKind::InvalidUtf8(data[valid]);
                Err(self.fail(kind, self.machine.offset, b"", None))
            }
        }
    }

    /// The bytes held back were never completed: invalid before more text, and at the end a
    /// character cut short (`expected` says so).
    fn invalid_pending(&mut self, expected: Option<&'static str>) -> Failure {
        let first = self.pending.as_slice()[0];
        self.pending.clear();
        let pos = self.machine.offset;
        self.fail(ErrorKind::InvalidUtf8(first), pos, b"", expected)
    }

    /// End the stream: Ok if the document is complete.
    pub fn close<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        if let Some(error) = &self.error {
            return Err(Failure::Invalid(error.clone()));
        }
        if self.closed {
            return Ok(());
        }
        if self.end.is_some() {
            self.pending.clear(); // bytes after the document's end are not the stream's
        }
        if !self.pending.is_empty() {
            return Err(self.invalid_pending(Some("the rest of a UTF-8 character")));
        }
        if let Err(halt) = self.machine.close(sink) {
            // The text read was a valid prefix (feed raised nothing): it ended too early.
            let expected = self.machine.expected_next();
            return Err(self.halt(halt, b"", Some(expected)));
        }
        self.closed = true;
        Ok(())
    }
}

/// How a fragment of bytes ends, after its longest valid prefix.
#[derive(Debug, PartialEq, Eq)]
enum End {
    Whole,
    /// A code point cut by the end of the fragment.
    Incomplete,
    /// A byte that no continuation can make valid.
    Invalid,
}

/// The longest prefix of `data` that is UTF-8 with surrogates allowed (what Python's
/// `bytes.decode("utf-8", "surrogatepass")`, and so `json.loads`, reads), whether it holds a
/// surrogate (then it is WTF-8-like and the machine must be told), and how `data` ends.
fn scan_wtf8(data: &[u8]) -> (usize, bool, End) {
    let mut start = 0;
    let mut surrogates = false;
    loop {
        let rest = &data[start..];
        let error = match std::str::from_utf8(rest) {
            Ok(_) => return (data.len(), surrogates, End::Whole),
            Err(error) => error,
        };
        let at = start + error.valid_up_to();
        let tail = &data[at..];
        // ED A0..BF 80..BF encodes U+D800..U+DFFF, which strict UTF-8 refuses.
        let surrogate_lead = tail.len() >= 2 && tail[0] == 0xED && (0xA0..=0xBF).contains(&tail[1]);
        if surrogate_lead && tail.len() >= 3 && (0x80..=0xBF).contains(&tail[2]) {
            surrogates = true;
            start = at + 3;
            continue;
        }
        let cut = error.error_len().is_none() || (surrogate_lead && tail.len() == 2);
        return (
            at,
            surrogates,
            if cut { End::Incomplete } else { End::Invalid },
        );
    }
}

#[cfg(test)]
mod wtf8_tests {
    use super::{scan_wtf8, End};

    #[test]
    fn surrogates_encoded_in_utf8_are_read_as_python_reads_them() {
        assert_eq!(scan_wtf8(b"a\xed\xa0\x80b"), (5, true, End::Whole));
        assert_eq!(
            scan_wtf8(b"\xed\xa0\xbd\xed\xb8\x80"),
            (6, true, End::Whole)
        );
        assert_eq!(scan_wtf8("é".as_bytes()), (2, false, End::Whole));
    }

    #[test]
    fn a_cut_surrogate_waits_and_a_broken_one_is_invalid() {
        assert_eq!(scan_wtf8(b"a\xed"), (1, false, End::Incomplete));
        assert_eq!(scan_wtf8(b"a\xed\xa2"), (1, false, End::Incomplete));
        assert_eq!(
            scan_wtf8(b"\xed\xa0\x80\xed\xbf"),
            (3, true, End::Incomplete)
        );
        assert_eq!(scan_wtf8(b"a\xed\xa0A"), (1, false, End::Invalid));
        assert_eq!(scan_wtf8(b"a\xc0\x80"), (1, false, End::Invalid));
        assert_eq!(scan_wtf8(b"a\xff"), (1, false, End::Invalid));
    }
}

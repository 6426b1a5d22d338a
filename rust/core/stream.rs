//! A JSON stream: fragments of text or UTF-8 bytes in any chunking. Twin:
//! `src/jsondrip/twin/stream.py`.
//!
//! Holds back a code point cut between fragments, skips a BOM at the start of a bytes
//! stream, enforces `max_size`, and stays failed after an error.

use super::error::{Failure, ParseError};
use super::machine::{count_chars, DebugState, Halt, Machine, Mode};
use super::sink::Sink;

const BOM: &[u8] = b"\xef\xbb\xbf";

pub struct Stream {
    machine: Machine,
    max_size: Option<u64>,
    /// Bytes of a code point (or of a BOM) not yet whole.
    pending: Vec<u8>,
    /// Nothing read yet: a bytes stream may open with a BOM.
    at_start: bool,
    error: Option<ParseError>,
    closed: bool,
}

impl Stream {
    pub fn new(mode: Mode, max_depth: usize, max_size: Option<u64>) -> Self {
        Stream {
            machine: Machine::new(mode, max_depth),
            max_size,
            pending: Vec::new(),
            at_start: true,
            error: None,
            closed: false,
        }
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
        self.error.as_ref()
    }

    fn fail(&mut self, msg: impl Into<String>, pos: u64) -> Failure {
        let line_start = self.machine.line_start();
        let error = ParseError {
            msg: msg.into(),
            pos,
            line: self.machine.line,
            column: pos - line_start + 1,
        };
        self.error = Some(error.clone());
        Failure::Invalid(error)
    }

    fn halt(&mut self, halt: Halt) -> Failure {
        match halt {
            Halt::Syntax(msg, pos) => self.fail(msg, pos),
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

    /// Give whole code points to the machine, within max_size.
    fn read<S: Sink>(&mut self, text: &[u8], wtf8: bool, sink: &mut S) -> Result<(), Failure> {
        let mut text = text;
        let mut over = None;
        if let Some(limit) = self.max_size {
            let room = limit.saturating_sub(self.machine.offset);
            if count_chars(text) > room {
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
                over = Some(limit);
            }
        }
        if let Err(halt) = self.machine.feed(text, wtf8, sink) {
            return Err(self.halt(halt));
        }
        if let Some(limit) = over {
            return Err(self.fail(
                format!("Document exceeds max_size of {limit} characters"),
                limit,
            ));
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
        self.check_open()?;
        if !self.pending.is_empty() {
            return Err(self.invalid_pending());
        }
        if !text.is_empty() {
            self.at_start = false;
        }
        self.read(text, wtf8, sink)
    }

    /// A fragment of UTF-8 bytes, cut anywhere.
    pub fn feed_bytes<S: Sink>(&mut self, bytes: &[u8], sink: &mut S) -> Result<(), Failure> {
        self.check_open()?;
        let joined;
        let mut data = bytes;
        if !self.pending.is_empty() {
            let mut pending = std::mem::take(&mut self.pending);
            pending.extend_from_slice(bytes);
            joined = pending;
            data = &joined;
        }
        if self.at_start {
            if data.len() < 3 && BOM.starts_with(data) {
                self.pending = data.to_vec();
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
            End::Whole => self.read(data, surrogates, sink),
            End::Incomplete => {
                // A code point cut at the end of the fragment: hold it back.
                self.pending = data[valid..].to_vec();
                self.read(&data[..valid], surrogates, sink)
            }
            End::Invalid => {
                self.read(&data[..valid], surrogates, sink)?;
                let msg = format!("Invalid UTF-8 byte 0x{:02x}", data[valid]);
                Err(self.fail(msg, self.machine.offset))
            }
        }
    }

    /// The bytes held back were never completed.
    fn invalid_pending(&mut self) -> Failure {
        let first = self.pending[0];
        self.pending.clear();
        self.fail(
            format!("Invalid UTF-8 byte 0x{first:02x}"),
            self.machine.offset,
        )
    }

    /// End the stream: Ok if the document is complete.
    pub fn close<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        if let Some(error) = &self.error {
            return Err(Failure::Invalid(error.clone()));
        }
        if self.closed {
            return Ok(());
        }
        if !self.pending.is_empty() {
            return Err(self.invalid_pending());
        }
        if let Err(halt) = self.machine.close(sink) {
            return Err(self.halt(halt));
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

//! A JSON stream: fragments of text or UTF-8 bytes in any chunking. Twin:
//! `src/jsondrip/twin/stream.py`.
//!
//! Holds back a code point cut between fragments, skips a BOM at the start of a bytes
//! stream, enforces `max_size`, and stays failed after an error.

use super::error::{Failure, ParseError};
use super::machine::{count_chars, Halt, Machine, Mode};
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
        match std::str::from_utf8(data) {
            Ok(_) => self.read(data, false, sink),
            Err(e) => {
                let valid = e.valid_up_to();
                match e.error_len() {
                    None => {
                        // An incomplete code point at the end: hold it back.
                        self.pending = data[valid..].to_vec();
                        self.read(&data[..valid], false, sink)
                    }
                    Some(_) => {
                        self.read(&data[..valid], false, sink)?;
                        let msg = format!("Invalid UTF-8 byte 0x{:02x}", data[valid]);
                        Err(self.fail(msg, self.machine.offset))
                    }
                }
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

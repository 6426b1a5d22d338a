//! The tool-call envelope shortcut's quick check, without Python: is an SSE chunk the last
//! routed chunk again, with new string literals in the same places, and what does its
//! fragment literal decode to? Twin: `ChunkMatcher` in `src/jsondrip/toolcalls/shortcut.py`
//! (the module docstring there proves why the check is exact); `tests/toolcalls/
//! test_shortcut.py` runs both on the same chunks. In value mode (Vertex) the cut-out is a
//! `partialArgs` array, which `partial_args` reads and writes as argument text in the same
//! pass (`pieces` reads it, `repr` prints its numbers as Python does).

use std::borrow::Cow;

use crate::core::escape::{unescape, unicode_escape};

pub mod partial_args;
pub mod pieces;
pub mod repr;

#[cfg(test)]
mod partial_args_tests;
#[cfg(test)]
mod tests;

/// What a hole of a [`ChunkMatch`] holds, read where the text before it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hole {
    /// The fragment's string literal (after its opening quote, to its closing quote):
    /// decoded, what `fragment` returns.
    Fragment,
    /// The stream's own string value (OpenAI's chunk `id`): a valid literal that decodes to
    /// the `head` given to `fragment`, else no match.
    Head,
    /// A string literal the format never reads (OpenAI's `obfuscation`): any valid one.
    Text,
    /// A JSON number the format never reads (OpenAI's `created`): any of at most
    /// [`MAX_NUMBER`] characters.
    Number,
    /// Value mode (Vertex's `partialArgs` array): any JSON value, read by the caller
    /// ([`ChunkMatch::value_start`], [`ChunkMatch::suffix_at`]), never by `fragment`.
    Value,
}

/// The longest number a [`Hole::Number`] takes: CPython's `int` reads at least 640 digits on
/// every setting (`sys.set_int_max_str_digits`), so `json.loads` reads any number this long.
pub const MAX_NUMBER: usize = 640;

/// The text of the last routed chunk around its holes: `prefix`, then each hole and the text
/// after it (the last one's is the chunk's end). A string hole begins just after its opening
/// quote (the text before it ends with `"`) and ends with its closing quote.
pub struct ChunkMatch {
    prefix: Vec<u8>,
    holes: Vec<(Hole, Vec<u8>)>,
}

impl ChunkMatch {
    /// A matcher for chunks framed as `prefix`, then each hole followed by its text.
    pub fn new(prefix: &[u8], holes: Vec<(Hole, Vec<u8>)>) -> Self {
        ChunkMatch {
            prefix: prefix.to_vec(),
            holes,
        }
    }

    /// The decoded fragment literal of `chunk` if the chunk is valid UTF-8 framed exactly as
    /// this matcher's, with valid literals and numbers in its holes and `head` (the stream's
    /// own value, UTF-8) in its head hole; None otherwise (the caller then reads the chunk
    /// the long way, which decides). The common literal, without an escape, is borrowed from
    /// the chunk.
    pub fn fragment<'c>(&self, chunk: &'c [u8], head: Option<&[u8]>) -> Option<Cow<'c, str>> {
        let rest = chunk.strip_prefix(self.prefix.as_slice())?;
        let text = std::str::from_utf8(rest).ok()?; // the prefix is text already
        let start = self.prefix.len();
        let mut fragment = None;
        let mut at = start;
        for (hole, after) in &self.holes {
            at = match hole {
                Hole::Fragment => {
                    let plain = chunk[at..]
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
                    if chunk[at + plain] == b'"' {
                        // a quote is a char boundary
                        fragment = Some(Cow::Borrowed(&text[at - start..at - start + plain]));
                        at + plain + 1
                    } else {
                        let (value, end) = scan_literal(chunk, at)?;
                        fragment = Some(Cow::Owned(value));
                        end
                    }
                }
                Hole::Head => {
                    let head = head?;
                    let end = at + head.len();
                    // the common case, no scan of the chunk: the literal is the head's bytes
                    // as they stand (no quote, backslash or control byte in them, so the
                    // literal closes right after them)
                    if chunk.get(at..end) == Some(head)
                        && chunk.get(end) == Some(&b'"')
                        && is_plain(head)
                    {
                        end + 1
                    } else {
                        head_end(chunk, at, head)?
                    }
                }
                Hole::Text => literal_end(chunk, at)?,
                Hole::Number => number_end(chunk, at)?,
                Hole::Value => return None,
            };
            if !chunk[at..].starts_with(after) {
                return None;
            }
            at += after.len();
        }
        (at == chunk.len()).then_some(fragment?)
    }

    /// Where the value cut out of `chunk` begins, if the chunk starts with this matcher's
    /// prefix and is valid UTF-8 (value mode: Vertex's `partialArgs` array).
    pub fn value_start(&self, chunk: &[u8]) -> Option<usize> {
        let rest = chunk.strip_prefix(self.prefix.as_slice())?;
        std::str::from_utf8(rest).ok()?;
        Some(self.prefix.len())
    }

    /// Whether `chunk` ends at `end` with this matcher's suffix (value mode: the text after
    /// its one hole), and nothing after it.
    pub fn suffix_at(&self, chunk: &[u8], end: usize) -> bool {
        match self.holes.as_slice() {
            [(Hole::Value, suffix)] => chunk.get(end..) == Some(&suffix[..]),
            _ => false,
        }
    }
}

/// Whether `text` holds no byte a JSON string literal must escape or ends at (quote,
/// backslash, control): such text stands in a literal as itself. No early exit, so that the
/// loop runs as wide words.
fn is_plain(text: &[u8]) -> bool {
    !text.iter().fold(false, |stop, &b| {
        stop | (b == b'"') | (b == b'\\') | (b < 0x20)
    })
}

/// Where the literal at `start` ends, if it is valid and decodes to `head` (its bytes
/// escaped some other way than as they stand), else None.
fn head_end(chunk: &[u8], start: usize, head: &[u8]) -> Option<usize> {
    let end = literal_end(chunk, start)?;
    let literal = &chunk[start..end - 1];
    let same = if literal.contains(&b'\\') {
        scan_literal(chunk, start)?.0.as_bytes() == head
    } else {
        literal == head
    };
    same.then_some(end)
}

/// Where the JSON number at `start` ends (`-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`, read as far
/// as it goes, as `json` reads it), or None: no number there, or longer than [`MAX_NUMBER`].
pub fn number_end(text: &[u8], start: usize) -> Option<usize> {
    let digits = |at: usize| {
        text.get(at..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let mut at = start + usize::from(text.get(start) == Some(&b'-'));
    let whole = digits(at);
    if whole == 0 {
        return None;
    }
    at += if text[at] == b'0' { 1 } else { whole };
    if text.get(at) == Some(&b'.') && digits(at + 1) > 0 {
        at += 1 + digits(at + 1);
    }
    if matches!(text.get(at), Some(b'e' | b'E')) {
        let signed = usize::from(matches!(text.get(at + 1), Some(b'+' | b'-')));
        let exponent = digits(at + 1 + signed);
        if exponent > 0 {
            at += 1 + signed + exponent;
        }
    }
    (at - start <= MAX_NUMBER).then_some(at)
}

/// Reads the JSON string literal whose content begins at `start` (just after its opening
/// quote) in valid UTF-8 `text`, as Python's `json.decoder.scanstring(text, start)` (strict)
/// does: its decoded value and the index just after its closing quote. None when it is not a
/// valid literal (no closing quote, a control character, a bad escape), and also when it
/// holds a lone surrogate (`\ud800`), which no Rust string can hold: the caller then takes
/// the long way, which keeps it.
pub fn scan_literal(text: &[u8], start: usize) -> Option<(String, usize)> {
    let mut out = Vec::new();
    let end = scan(text, start, Some(&mut out))?;
    String::from_utf8(out).ok().map(|s| (s, end))
}

/// Where the valid string literal whose content begins at `start` ends (just after its
/// closing quote), or None: `scanstring`'s verdict, lone surrogates accepted as it does.
pub fn literal_end(text: &[u8], start: usize) -> Option<usize> {
    scan(text, start, None)
}

/// The literal's end; its decoded UTF-8 into `out` when given (then a lone surrogate is None).
fn scan(text: &[u8], start: usize, mut out: Option<&mut Vec<u8>>) -> Option<usize> {
    let mut at = start;
    loop {
        let run = text
            .get(at..)?
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if let Some(out) = out.as_deref_mut() {
            out.extend_from_slice(&text[at..at + run]);
        }
        at += run;
        match text[at] {
            b'"' => return Some(at + 1),
            b'\\' => {
                let escape = *text.get(at + 1)?;
                at += 2;
                let plain = match escape {
                    b'u' => {
                        let (code, next) = unicode_escape(text, at)?;
                        at = next;
                        if let Some(out) = out.as_deref_mut() {
                            let c = char::from_u32(code)?; // a lone surrogate is no char
                            out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes());
                        }
                        continue;
                    }
                    _ => unescape(escape)?,
                };
                if let Some(out) = out.as_deref_mut() {
                    out.push(plain);
                }
            }
            _ => return None, // a control character: strict JSON forbids it in a literal
        }
    }
}

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

/// The text of the last routed chunk around its literals: `prefix`, the fragment literal's
/// content, then (when the format ignores a second literal) `middle` and that literal, then
/// `suffix`. Both literals are cut out just after their opening quote and end with their
/// closing quote, so `prefix` ends with `"` and `middle` and `suffix` start after a `"`.
pub struct ChunkMatch {
    prefix: Vec<u8>,
    middle: Option<Vec<u8>>,
    suffix: Vec<u8>,
}

impl ChunkMatch {
    /// A matcher for chunks framed as `prefix`, literal, [`middle`, literal,] `suffix`.
    pub fn new(prefix: &[u8], middle: Option<&[u8]>, suffix: &[u8]) -> Self {
        ChunkMatch {
            prefix: prefix.to_vec(),
            middle: middle.map(<[u8]>::to_vec),
            suffix: suffix.to_vec(),
        }
    }

    /// The decoded fragment literal of `chunk` if the chunk is valid UTF-8 framed exactly as
    /// this matcher's, with valid string literals; None otherwise (the caller then reads the
    /// chunk the long way, which decides).
    /// The common literal, without an escape, is borrowed from the chunk.
    pub fn fragment<'c>(&self, chunk: &'c [u8]) -> Option<Cow<'c, str>> {
        let rest = chunk.strip_prefix(self.prefix.as_slice())?;
        let text = std::str::from_utf8(rest).ok()?; // the prefix is text already
        let start = self.prefix.len();
        let plain = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let (fragment, mut end) = if rest[plain] == b'"' {
            (Cow::Borrowed(&text[..plain]), start + plain + 1) // a quote is a char boundary
        } else {
            let (fragment, end) = scan_literal(chunk, start)?;
            (Cow::Owned(fragment), end)
        };
        if let Some(middle) = &self.middle {
            if !chunk[end..].starts_with(middle) {
                return None;
            }
            end = literal_end(chunk, end + middle.len())?;
        }
        (chunk[end..] == self.suffix[..]).then_some(fragment)
    }

    /// Where the value cut out of `chunk` begins, if the chunk starts with this matcher's
    /// prefix and is valid UTF-8 (value mode: Vertex's `partialArgs` array).
    pub fn value_start(&self, chunk: &[u8]) -> Option<usize> {
        let rest = chunk.strip_prefix(self.prefix.as_slice())?;
        std::str::from_utf8(rest).ok()?;
        Some(self.prefix.len())
    }

    /// Whether `chunk` ends at `end` with this matcher's suffix, and nothing after it.
    pub fn suffix_at(&self, chunk: &[u8], end: usize) -> bool {
        chunk.get(end..) == Some(&self.suffix[..])
    }
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

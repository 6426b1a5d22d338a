//! JSON's string escapes, the code points they make and JSON Pointer's escaping of a key,
//! written once for every reader of JSON text in the crate: the streaming machine
//! (`machine.rs`, which reads a `\u` escape a digit at a time, so it uses the pieces), the
//! one-shot scanner (`scanner.rs`), the envelope's literal reader (`rust/envelope`), and the
//! change events' pointers (`rust/python/changes.rs`). Twin: `src/jsondrip/twin/escape.py`
//! (and `_changes.escape_token`).

/// The byte a one-letter escape (`\n`, `\"`...) stands for; None for any other letter (`u`
/// included: its four hex digits follow).
#[inline]
pub fn unescape(letter: u8) -> Option<u8> {
    Some(match letter {
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

/// One hex digit, either case.
#[inline]
pub fn hex_digit(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// The four hex digits at `at` as a number.
#[inline]
pub fn hex4(text: &[u8], at: usize) -> Option<u32> {
    let digits = text.get(at..at + 4)?;
    digits
        .iter()
        .try_fold(0, |value, &b| Some(value << 4 | hex_digit(b)?))
}

/// A UTF-16 high surrogate: the first half of a pair.
#[inline]
pub fn is_high_surrogate(code: u32) -> bool {
    (0xd800..=0xdbff).contains(&code)
}

/// A UTF-16 low surrogate: the second half of a pair.
#[inline]
pub fn is_low_surrogate(code: u32) -> bool {
    (0xdc00..=0xdfff).contains(&code)
}

/// The code point a surrogate pair stands for.
#[inline]
pub fn join_surrogates(high: u32, low: u32) -> u32 {
    0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
}

/// The code point of a `\uXXXX` escape whose hex digits begin at `at`, and where the text
/// after it begins. As `json.loads`' `scanstring`: a high surrogate followed by `\u` and a
/// low one is one code point; followed by `\u` and bad digits it is an error (None); else it
/// stands alone (a lone surrogate, returned as such).
pub fn unicode_escape(text: &[u8], at: usize) -> Option<(u32, usize)> {
    let code = hex4(text, at)?;
    if is_high_surrogate(code) && text.get(at + 4..at + 6) == Some(b"\\u") {
        let low = hex4(text, at + 6)?;
        if is_low_surrogate(low) {
            return Some((join_surrogates(code, low), at + 10));
        }
    }
    Some((code, at + 4))
}

/// Appends a code point to `out` as UTF-8, a lone surrogate as WTF-8 (the same three-byte
/// form), which is how the crate holds text that may have one.
pub fn push_wtf8(out: &mut Vec<u8>, code: u32) {
    match code {
        0..=0x7f => out.push(code as u8),
        0x80..=0x7ff => {
            out.extend_from_slice(&[0xc0 | (code >> 6) as u8, 0x80 | (code & 0x3f) as u8])
        }
        0x800..=0xffff => out.extend_from_slice(&[
            0xe0 | (code >> 12) as u8,
            0x80 | ((code >> 6) & 0x3f) as u8,
            0x80 | (code & 0x3f) as u8,
        ]),
        _ => out.extend_from_slice(&[
            0xf0 | (code >> 18) as u8,
            0x80 | ((code >> 12) & 0x3f) as u8,
            0x80 | ((code >> 6) & 0x3f) as u8,
            0x80 | (code & 0x3f) as u8,
        ]),
    }
}

/// Appends a key as a JSON Pointer reference token (RFC 6901): `~` as `~0`, `/` as `~1`.
pub fn push_pointer_token(out: &mut Vec<u8>, key: &[u8]) {
    // Most keys need no escape: one copy, not a push (and its capacity check) per byte.
    if !key.iter().any(|&b| b == b'~' || b == b'/') {
        out.extend_from_slice(key);
        return;
    }
    for &b in key {
        match b {
            b'~' => out.extend_from_slice(b"~0"),
            b'/' => out.extend_from_slice(b"~1"),
            _ => out.push(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_code_points_and_pointers() {
        assert_eq!(unescape(b'n'), Some(b'\n'));
        assert_eq!(unescape(b'u'), None);
        assert_eq!(hex4(b"00e9", 0), Some(0xe9));
        assert_eq!(hex4(b"00g9", 0), None);
        assert_eq!(unicode_escape(b"d83d\\ude00!", 0), Some((0x1f600, 10)));
        assert_eq!(unicode_escape(b"d83d!", 0), Some((0xd83d, 4)));
        assert_eq!(unicode_escape(b"d83d\\u12g4", 0), None);
        for (code, text) in [(0x41, "A"), (0xe9, "é"), (0x20ac, "€"), (0x1f600, "😀")] {
            let mut out = Vec::new();
            push_wtf8(&mut out, code);
            assert_eq!(out, text.as_bytes());
        }
        let mut lone = Vec::new();
        push_wtf8(&mut lone, 0xd800);
        assert_eq!(lone, [0xed, 0xa0, 0x80]);
        let mut pointer = Vec::new();
        push_pointer_token(&mut pointer, b"a/b~c");
        assert_eq!(pointer, b"a~1b~0c");
    }
}

//! Python strs from the bytes of a JSON string, written straight into the str's own storage.
//!
//! ASCII is copied as it is. Other UTF-8 is measured first (its characters and its widest
//! one, which set the str's kind: Latin-1, UCS-2 or UCS-4) and then decoded once into place:
//! CPython's decoder writes Latin-1 and widens its buffer when a wider character comes, a
//! second copy (and a reallocation) for most non-Latin text. Bytes that are not UTF-8 (a lone
//! surrogate from an escape, encoded in WTF-8) are the decoder's, with `surrogatepass`.

use pyo3::ffi;

/// A new compact ASCII str holding `bytes`, or NULL with an exception set.
///
/// # Safety
/// The interpreter must be held, and `bytes` must be ASCII.
#[inline]
pub unsafe fn ascii_string(bytes: &[u8]) -> *mut ffi::PyObject {
    // SAFETY: PyUnicode_New(len, 127) gives a fresh compact ASCII str whose data buffer holds
    // exactly `len` bytes; ASCII bytes are its final content.
    unsafe {
        let string = ffi::PyUnicode_New(bytes.len() as ffi::Py_ssize_t, 127);
        if !string.is_null() {
            let data = ffi::PyUnicode_DATA(string) as *mut u8;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len());
        }
        string
    }
}

/// A new str of UTF-8 `bytes` (surrogates encoded in them read, as `surrogatepass` does),
/// or NULL with an exception set (also when `bytes` are not UTF-8).
///
/// # Safety
/// The interpreter must be held.
#[inline(never)]
pub unsafe fn utf8_string(bytes: &[u8]) -> *mut ffi::PyObject {
    let (chars, widest) = measure(bytes);
    // SAFETY: the interpreter is held; PyUnicode_New gives a str of `chars` characters of the
    // kind that holds `widest`, which valid `bytes` reach (so the str is in canonical form);
    // `write` writes at most `chars` units of that kind, and all of them when it succeeds.
    unsafe {
        let string = ffi::PyUnicode_New(chars as ffi::Py_ssize_t, widest as ffi::Py_UCS4);
        if string.is_null() {
            return string;
        }
        if write(bytes, ffi::PyUnicode_DATA(string), 0, widest, chars) {
            return string;
        }
        // Not UTF-8: CPython's decoder says what is wrong.
        ffi::Py_DECREF(string);
        ffi::PyUnicode_DecodeUTF8(
            bytes.as_ptr().cast(),
            bytes.len() as ffi::Py_ssize_t,
            c"surrogatepass".as_ptr(),
        )
    }
}

/// The characters of UTF-8 `bytes` and the widest one's class: 0x7f (ASCII), 0xff (Latin-1),
/// 0xffff (the BMP) or 0x10ffff, the `maxchar` PyUnicode_New takes for that kind.
#[inline(always)]
fn measure(bytes: &[u8]) -> (usize, u32) {
    // Every byte but a continuation byte starts a character; the highest lead byte tells the
    // widest character: below 0xc4 all are Latin-1, below 0xf0 all are in the BMP. (Bytes
    // that are not UTF-8 are refused by the decoding, whatever they count.)
    let mut continuations = 0;
    let mut top = 0;
    // In runs whose count fits a byte, so that the loop is vectorized.
    for run in bytes.chunks(255) {
        let mut count = 0u8;
        for &b in run {
            count += u8::from((b as i8) < -0x40);
            top = top.max(b);
        }
        continuations += usize::from(count);
    }
    let widest = match top {
        0..=0x7f => 0x7f,
        0x80..=0xc3 => 0xff,
        0xc4..=0xef => 0xffff,
        _ => 0x10ffff,
    };
    (bytes.len() - continuations, widest)
}

/// A new str of the UTF-8 `text`, made from `shown`, a str of its first `shown_len` bytes
/// (made by this module: compact, canonical), and the bytes after them: `shown`'s units are
/// copied as they are and only the new bytes decoded. A growing string, rebuilt for every
/// fragment, then costs the fragment's bytes and a copy, not a decoding of all its text.
/// When the new bytes need a wider kind than `shown`'s (at most twice in a string's life),
/// or are not UTF-8, it is `utf8_string(text)`. NULL with an exception set on failure.
///
/// # Safety
/// The interpreter must be held; `shown` must be a live str of exactly `text[..shown_len]`
/// decoded, and `shown_len` a character boundary of `text`.
pub unsafe fn grown_string(
    shown: *mut ffi::PyObject,
    text: &[u8],
    shown_len: usize,
) -> *mut ffi::PyObject {
    let delta = &text[shown_len..];
    let (delta_chars, delta_widest) = measure(delta);
    // SAFETY: (all of this block) `shown` is a live, ready str; its length, kind and data
    // describe its units. An ASCII str has as many characters as UTF-8 bytes, and a Latin-1
    // one that is not ASCII has fewer: the kind and the two lengths tell the widest class of
    // a canonical str without its `ascii` bit (which pyo3-ffi does not read on 3.14).
    unsafe {
        let shown_chars = ffi::PyUnicode_GET_LENGTH(shown) as usize;
        let kind = ffi::PyUnicode_KIND(shown);
        let shown_widest: u32 = match kind {
            ffi::PyUnicode_1BYTE_KIND if shown_chars == shown_len => 0x7f,
            ffi::PyUnicode_1BYTE_KIND => 0xff,
            ffi::PyUnicode_2BYTE_KIND => 0xffff,
            _ => 0x10ffff,
        };
        let widest = shown_widest.max(delta_widest);
        let unit = match widest {
            0x7f | 0xff => 1,
            0xffff => 2,
            _ => 4,
        };
        if unit != kind as usize {
            return utf8_string(text);
        }
        let chars = shown_chars + delta_chars;
        let string = ffi::PyUnicode_New(chars as ffi::Py_ssize_t, widest as ffi::Py_UCS4);
        if string.is_null() {
            return string;
        }
        // The new str has `shown`'s kind (checked above): its first `shown_chars` units are
        // `shown`'s, and `write` writes the rest, at most `delta_chars` of them.
        let data = ffi::PyUnicode_DATA(string);
        let from = ffi::PyUnicode_DATA(shown);
        std::ptr::copy_nonoverlapping(from.cast::<u8>(), data.cast::<u8>(), shown_chars * unit);
        if write(delta, data, shown_chars, widest, delta_chars) {
            return string;
        }
        ffi::Py_DECREF(string);
        utf8_string(text)
    }
}

/// Writes the `chars` characters of UTF-8 `bytes` at unit `at` of `data`, a str's storage of
/// the kind that `widest` (`measure`'s class) makes. False when they are not UTF-8.
///
/// # Safety
/// `data` must have room for `at + chars` units of that kind, and `widest` must be `bytes`'s
/// class or a wider one of the same kind.
#[inline(always)]
unsafe fn write(
    bytes: &[u8],
    data: *mut std::ffi::c_void,
    at: usize,
    widest: u32,
    chars: usize,
) -> bool {
    // SAFETY: as the caller promised.
    unsafe {
        match widest {
            // ASCII: no byte above 0x7f, so `chars` is the length and the bytes are the str's
            0x7f => {
                let out = data.cast::<u8>().add(at);
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, chars);
                true
            }
            0xff => decode(bytes, data.cast::<u8>().add(at), chars),
            0xffff => decode(bytes, data.cast::<u16>().add(at), chars),
            _ => decode(bytes, data.cast::<u32>().add(at), chars),
        }
    }
}

/// A unit of a str's storage: Latin-1, UCS-2 or UCS-4.
trait Unit: Copy + From<u8> {
    /// The unit of a code point that fits one.
    fn of(code: u32) -> Self;

    /// Writes sixteen ASCII bytes as sixteen units at `out`.
    ///
    /// # Safety
    /// `out` must have room for sixteen units.
    #[inline(always)]
    unsafe fn widen16(chunk: &[u8; 16], out: *mut Self) {
        for (j, &b) in chunk.iter().enumerate() {
            // SAFETY: as the caller promised.
            unsafe { out.add(j).write(Self::from(b)) };
        }
    }
}

impl Unit for u8 {
    #[inline(always)]
    fn of(code: u32) -> Self {
        code as u8
    }

    #[inline(always)]
    unsafe fn widen16(chunk: &[u8; 16], out: *mut Self) {
        // SAFETY: as the caller promised.
        unsafe { std::ptr::copy_nonoverlapping(chunk.as_ptr(), out, 16) };
    }
}

impl Unit for u16 {
    #[inline(always)]
    fn of(code: u32) -> Self {
        code as u16
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn widen16(chunk: &[u8; 16], out: *mut Self) {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in the x86_64 baseline; the load reads the sixteen bytes of `chunk`
        // and the stores write the 32 bytes the caller promised.
        unsafe {
            let bytes = _mm_loadu_si128(chunk.as_ptr().cast());
            let zero = _mm_setzero_si128();
            _mm_storeu_si128(out.cast(), _mm_unpacklo_epi8(bytes, zero));
            _mm_storeu_si128(out.add(8).cast(), _mm_unpackhi_epi8(bytes, zero));
        }
    }
}

impl Unit for u32 {
    #[inline(always)]
    fn of(code: u32) -> Self {
        code
    }
}

/// Decodes `bytes` as UTF-8 with surrogates allowed (what `surrogatepass` reads), one unit
/// per character at `out`. False when they are not that (then what was written is garbage).
///
/// Every unit written stands for a byte that is not a continuation byte, so at most `chars`
/// are written, whatever the bytes.
///
/// # Safety
/// `out` must have room for `chars` units, the bytes of `bytes` that are not continuation
/// bytes; the lead bytes of `bytes` must be of characters that fit a unit (below 0xc4 for
/// Latin-1, below 0xf0 for UCS-2).
#[inline(always)]
unsafe fn decode<U: Unit>(bytes: &[u8], out: *mut U, chars: usize) -> bool {
    let continuation = |b: u8| b & 0xc0 == 0x80;
    let len = bytes.len();
    let (mut i, mut k) = (0, 0);
    while i < len {
        let lead = bytes[i];
        if lead < 0x80 {
            // A run of ASCII (words, URLs, spaces between the wide text), sixteen at a time.
            while let Some(chunk) = bytes.get(i..i + 16) {
                let chunk: &[u8; 16] = chunk.try_into().expect("16 bytes");
                let (low, high) = chunk.split_at(8);
                let low = u64::from_le_bytes(low.try_into().expect("8 bytes"));
                let high = u64::from_le_bytes(high.try_into().expect("8 bytes"));
                if (low | high) & 0x8080_8080_8080_8080 != 0 {
                    break;
                }
                // SAFETY: sixteen more bytes that are not continuation bytes.
                unsafe { U::widen16(chunk, out.add(k)) };
                i += 16;
                k += 16;
            }
            if i == len || bytes[i] >= 0x80 {
                continue;
            }
            // SAFETY: one more byte that is not a continuation byte.
            unsafe { out.add(k).write(U::from(bytes[i])) };
            i += 1;
            k += 1;
            continue;
        }
        let (code, width) = match lead {
            0xc2..=0xdf => match bytes.get(i + 1) {
                Some(&b1) if continuation(b1) => {
                    ((lead as u32 & 0x1f) << 6 | (b1 as u32 & 0x3f), 2)
                }
                _ => return false,
            },
            0xe0..=0xef => match bytes.get(i + 1..i + 3) {
                // E0 must not be overlong; ED's surrogates are what `surrogatepass` allows.
                Some(&[b1, b2])
                    if continuation(b1) && continuation(b2) && (lead != 0xe0 || b1 >= 0xa0) =>
                {
                    let code = (lead as u32 & 0x0f) << 12 | (b1 as u32 & 0x3f) << 6;
                    (code | (b2 as u32 & 0x3f), 3)
                }
                _ => return false,
            },
            0xf0..=0xf4 => match bytes.get(i + 1..i + 4) {
                Some(&[b1, b2, b3])
                    if continuation(b1)
                        && continuation(b2)
                        && continuation(b3)
                        && (lead != 0xf0 || b1 >= 0x90)
                        && (lead != 0xf4 || b1 < 0x90) =>
                {
                    let code = (lead as u32 & 0x07) << 18 | (b1 as u32 & 0x3f) << 12;
                    (code | (b2 as u32 & 0x3f) << 6 | (b3 as u32 & 0x3f), 4)
                }
                _ => return false,
            },
            _ => return false,
        };
        debug_assert!(k < chars, "a lead byte more than counted");
        // SAFETY: one more lead byte; its character fits a unit, as the caller promised.
        unsafe { out.add(k).write(U::of(code)) };
        i += width;
        k += 1;
    }
    k == chars
}

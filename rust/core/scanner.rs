//! A pull scanner over one whole JSON document, for the one-shot `loads`. No Python here.
//!
//! The streaming [`super::machine::Machine`] keeps its state between fragments and reports
//! json-compatible errors; a whole buffer needs neither, so this scanner is the fast path: the
//! builder asks for the next token and recurses itself (as jiter does). Anything unexpected,
//! valid or not, is a [`Bail`]: the caller re-reads the text with a complete parser, which gives
//! the exact value or error (errors are rare; exactness is not negotiable).

use super::error::{Dialect, Failure, ParseError};
use super::escape::{push_wtf8, unescape, unicode_escape};
use super::float::decimal_to_f64;
use super::machine::Mode;
use super::stream::Stream;
use super::value::ValueBuilder;

/// The fast path cannot take this text here; read it again with the complete parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bail;

pub type Scan<T> = Result<T, Bail>;

/// What the next value is, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peek {
    Null,
    True,
    False,
    NaN,
    Infinity,
    String,
    Number,
    Array,
    Object,
}

/// A decoded string: borrowed from the input when it has no escape, else from the scratch
/// buffer. `ascii` lets the builder copy it without decoding; otherwise the bytes are meant to
/// be UTF-8, or WTF-8 where an escape gave a lone surrogate, and the builder's decoder checks
/// them.
#[derive(Debug, Clone, Copy)]
pub struct Text<'s> {
    pub bytes: &'s [u8],
    pub ascii: bool,
}

/// An object key: its text and, when it is ASCII, unescaped and shorter than sixteen bytes,
/// the sixteen input bytes from its first (the key, its closing quote, what follows). A key
/// cache reads those as two words without a loop over the key's length.
#[derive(Debug, Clone, Copy)]
pub struct Key<'s> {
    pub text: Text<'s>,
    pub window: Option<&'s [u8; 16]>,
}

/// A number: its exact text always (for `parse_int`/`parse_float` hooks and big integers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number<'a> {
    Int(i64, &'a str),
    BigInt(&'a str),
    /// A float's text, and its value when the exact fast methods computed it.
    Float(&'a str, Option<f64>),
    NegInfinity,
}

pub struct Scanner<'a> {
    data: &'a [u8],
    pos: usize,
    scratch: Vec<u8>,
}

/// Bytes a string holds as they are, with their ASCII-ness: 0 stops the scan
/// (`"`, `\`, a control character), 1 is plain ASCII, 2 is a UTF-8 byte.
static CLASS: [u8; 256] = {
    let mut table = [1u8; 256];
    let mut b = 0;
    while b < 256 {
        if b < 0x20 || b == b'"' as usize || b == b'\\' as usize {
            table[b] = 0;
        } else if b >= 0x80 {
            table[b] = 2;
        }
        b += 1;
    }
    table
};

/// Reads digits from `i` into `value` (wrapping past 19 digits: callers check the count);
/// returns the index after them.
///
/// A word of eight bytes at a time, with no branch per digit: its leading digits are counted
/// and their value computed in a few multiplications (a byte loop was a third of
/// numbers.json's time, waiting on the multiply chain and on its exit, mispredicted as
/// lengths vary).
#[inline(always)]
fn accumulate(data: &[u8], mut i: usize, value: &mut u64) -> usize {
    while let Some(chunk) = data.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let count = leading_digits(word);
        if count == 8 {
            // A whole word of digits: the next index is a constant step, which the CPU
            // takes ahead of the load's value (the position is then no data dependency).
            *value = value
                .wrapping_mul(POW10_U64[8])
                .wrapping_add(digits_value(word, 8));
            i += 8;
            continue;
        }
        if count == 0 {
            return i;
        }
        *value = value
            .wrapping_mul(POW10_U64[count])
            .wrapping_add(digits_value(word, count));
        return i + count;
    }
    while let Some(&b) = data.get(i) {
        if !b.is_ascii_digit() {
            break;
        }
        *value = value.wrapping_mul(10).wrapping_add((b - b'0') as u64);
        i += 1;
    }
    i
}

/// Exact powers of ten as integers, 10^0 to 10^15.
const POW10_U64: [u64; 16] = {
    let mut table = [1u64; 16];
    let mut k = 1;
    while k < 16 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// How many of the eight bytes of `word` (first byte lowest) are ASCII digits before the
/// first that is not.
#[inline]
fn leading_digits(word: u64) -> usize {
    // A byte above '9' gets its high bit from the addition, one below '0' from the
    // subtraction's borrow. Carries and borrows only start at a non-digit, so the lowest
    // flagged byte is exact.
    let above = word.wrapping_add(0x4646_4646_4646_4646);
    let below = word.wrapping_sub(0x3030_3030_3030_3030);
    ((above | below) & HIGH).trailing_zeros() as usize / 8
}

/// The value of the first `count` (1 to 8) bytes of `word`, which are ASCII digits, the
/// first most significant.
#[inline]
fn digits_value(word: u64, count: usize) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    // Digit values, moved up so that the bytes past the digits fall off and zeros (leading
    // zero digits) come in below.
    let digits = word.wrapping_sub(0x3030_3030_3030_3030) << (8 * (8 - count));
    let pairs = digits.wrapping_mul(10).wrapping_add(digits >> 8); // two-digit values, even bytes
    let low = (pairs & MASK).wrapping_mul(MUL1);
    let high = ((pairs >> 16) & MASK).wrapping_mul(MUL2);
    (low.wrapping_add(high) >> 32) as u32 as u64
}

/// One bit per byte of the sixteen from `window[at]` (`at` at most 9) that is an ASCII
/// digit, the first byte lowest: where a run of digits stops is the lowest bit of its
/// complement (16 when all sixteen are digits).
#[inline(always)]
fn digit_bits(window: &[u8; 40], at: usize) -> u32 {
    let bytes = window[at & 15..(at & 15) + 16]
        .try_into()
        .expect("16 bytes");
    range_bits(bytes, b'0', 10)
}

/// One bit per byte of `bytes` (the first byte lowest) from `first` to `first + len - 1`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn range_bits(bytes: &[u8; 16], first: u8, len: i8) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is in the x86_64 baseline; the unaligned load reads the 16 bytes.
    unsafe {
        // The range moved to the lowest signed bytes: one comparison.
        let bytes = _mm_loadu_si128(bytes.as_ptr().cast());
        let moved = _mm_add_epi8(bytes, _mm_set1_epi8((0x80 - first) as i8));
        _mm_movemask_epi8(_mm_cmplt_epi8(moved, _mm_set1_epi8(-128 + len))) as u32
    }
}

/// One bit per byte of `bytes` (the first byte lowest) from `first` to `first + len - 1` (a
/// loop the compiler turns into vector code).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn range_bits(bytes: &[u8; 16], first: u8, len: i8) -> u32 {
    bytes.iter().enumerate().fold(0, |bits, (i, &b)| {
        bits | ((b.wrapping_sub(first) < len as u8) as u32) << i
    })
}

/// `Scanner::float_run`'s number: from a window of the 49 bytes around the comma before it
/// (16 before, the comma, 32 after), the value and the length of a comma, one space or none,
/// and a float of the run's shape; None for anything else.
#[inline(always)]
fn packed_float(window: &[u8; 49]) -> Option<(f64, usize)> {
    let after: &[u8; 33] = window[16..].try_into().expect("33 bytes");
    if after[0] != b',' {
        return None;
    }
    // Bytes that may be part of the number (`-` to `9`: digits, the dot, minus and `/`), and
    // a space right after the comma, one bit each from the byte after the comma (bit i for
    // `after[1 + i]`). The second sixteen bytes only when the number goes on past the first
    // (the thirteen fraction digits of `0.0955351209269` do not).
    let space = (after[1] == b' ') as u32;
    let low = NumberMasks::of(after[1..17].try_into().expect("16 bytes"));
    let masks = if (low.part | space) & 0xffff != 0xffff {
        low
    } else {
        let high = NumberMasks::of(after[17..].try_into().expect("16 bytes"));
        NumberMasks {
            digits: low.digits | high.digits << 16,
            part: low.part | high.part << 16,
        }
    };
    // Positions from the byte after the comma; `end`, `at` and `dot` below are from the comma.
    let end_bit = (!(masks.part | space)).trailing_zeros() as usize; // 32 when all are
    let end = 1 + end_bit;
    let negative = after[1 + space as usize] == b'-';
    // The first integer digit; from it to the end, one byte that is no digit, a dot.
    let at_bit = space as usize + negative as usize;
    let at = 1 + at_bit;
    let range = ((1u32 << (end_bit & 31)) - 1) & (u32::MAX << at_bit);
    let others = masks.part & !masks.digits & range;
    let dot_bit = others.trailing_zeros() as usize; // 32 without one
    let dot = 1 + dot_bit;
    let int_digits = dot_bit.wrapping_sub(at_bit);
    let fraction = end_bit.wrapping_sub(dot_bit + 1);
    let shape = end < 32
        && others == 1 << (dot_bit & 31)
        && after[dot & 31] == b'.'
        && (1..=7).contains(&int_digits)
        && (1..=15).contains(&fraction)
        && int_digits + fraction <= 19
        && !(after[at] == b'0' && int_digits > 1)
        && !matches!(after[end & 31], b'e' | b'E');
    if !shape {
        return None;
    }
    // A lone integer digit (`0.5`, most fractions) needs no word's conversion.
    let int = if int_digits == 1 {
        (after[at] - b'0') as u64
    } else {
        // Offsets at most 3 here, bounded so the read is seen to fit.
        let at = at & 7;
        let bytes: [u8; 8] = after[at..at + 8].try_into().expect("8 bytes");
        digits_value(u64::from_le_bytes(bytes), int_digits)
    };
    // The sixteen bytes that end with the fraction's last digit (the comma is at 16).
    let tail: &[u8; 16] = window[end & 31..(end & 31) + 16]
        .try_into()
        .expect("16 bytes");
    let mantissa = int * POW10_U64[fraction & 15] + last_digits(tail, fraction & 15);
    let value = decimal_to_f64(mantissa, -(fraction as i64), negative)?;
    Some((value, end))
}

/// The value of the last `count` (0 to 15) bytes of sixteen ASCII digits' bytes, the first
/// most significant: sixteen at once (SSE2), whatever the count, where a word per eight
/// digits was shifted into place and converted.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn last_digits(bytes: &[u8; 16], count: usize) -> u64 {
    use std::arch::x86_64::*;
    /// Per count, the last `count` bytes of sixteen set.
    static KEEP: [[u8; 16]; 16] = {
        let mut table = [[0u8; 16]; 16];
        let mut count = 0;
        while count < 16 {
            let mut lane = 16 - count;
            while lane < 16 {
                table[count][lane] = 0xff;
                lane += 1;
            }
            count += 1;
        }
        table
    };
    // SAFETY: SSE2 is in the x86_64 baseline; the unaligned loads read the 16 bytes and the
    // table's row.
    unsafe {
        let digits = _mm_and_si128(
            _mm_sub_epi8(
                _mm_loadu_si128(bytes.as_ptr().cast()),
                _mm_set1_epi8(b'0' as i8),
            ),
            _mm_loadu_si128(KEEP[count].as_ptr().cast()),
        );
        // Sixteen digits (bytes), then eight two-digit values, four of four digits, two of
        // eight (words and doublewords, `pmaddwd` pairing each even lane times 10^k with
        // the odd one after it).
        let zero = _mm_setzero_si128();
        let pair = _mm_set1_epi32(1 << 16 | 10);
        let twos = _mm_packs_epi32(
            _mm_madd_epi16(_mm_unpacklo_epi8(digits, zero), pair),
            _mm_madd_epi16(_mm_unpackhi_epi8(digits, zero), pair),
        );
        let fours = _mm_madd_epi16(twos, _mm_set1_epi32(1 << 16 | 100));
        let eights = _mm_madd_epi16(
            _mm_packs_epi32(fours, fours),
            _mm_set1_epi32(1 << 16 | 10_000),
        );
        let both = _mm_cvtsi128_si64(eights) as u64;
        (both & 0xffff_ffff) * 100_000_000 + (both >> 32)
    }
}

/// The value of the last `count` (0 to 15) bytes of sixteen ASCII digits' bytes, the first
/// most significant.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn last_digits(bytes: &[u8; 16], count: usize) -> u64 {
    bytes[16 - count..]
        .iter()
        .fold(0, |value, &b| value * 10 + (b - b'0') as u64)
}

/// Per byte of sixteen (the first byte lowest), one bit in each mask: ASCII digits, and the
/// bytes from `-` to `9` (digits, `.`, `-` and `/`).
struct NumberMasks {
    digits: u32,
    part: u32,
}

impl NumberMasks {
    #[inline(always)]
    fn of(bytes: &[u8; 16]) -> Self {
        NumberMasks {
            digits: range_bits(bytes, b'0', 10),
            part: range_bits(bytes, b'-', 13),
        }
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Eight bytes at a time (first byte lowest): the high bit of each byte that is `"`, `\` or a
/// control character, where a string's plain run stops. Bits above the first one may be false
/// (borrows of the subtraction), the lowest one is exact.
#[inline]
fn stop_bits(word: u64) -> u64 {
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    control | zero_bytes(word ^ (ONES * b'"' as u64)) | zero_bytes(word ^ (ONES * b'\\' as u64))
}

/// Sixteen bytes at a time (SSE2, which every x86_64 has): one bit per byte that is `"`, `\`
/// or a control character, and one per non-ASCII byte.
#[cfg(target_arch = "x86_64")]
#[inline]
fn sse2_stop_bits(chunk: &[u8]) -> (u32, u32) {
    use std::arch::x86_64::*;
    assert!(chunk.len() >= 16);
    // SAFETY: SSE2 is in the x86_64 baseline, so these instructions exist on every target this
    // compiles for; the unaligned load reads 16 bytes, all inside `chunk`.
    unsafe {
        let bytes = _mm_loadu_si128(chunk.as_ptr().cast());
        let quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
        // Unsigned bytes below 0x20: those whose maximum with 0x1f is 0x1f.
        let below_space = _mm_set1_epi8(0x1f);
        let control = _mm_cmpeq_epi8(_mm_max_epu8(bytes, below_space), below_space);
        let stops = _mm_or_si128(_mm_or_si128(quote, backslash), control);
        (
            _mm_movemask_epi8(stops) as u32,
            _mm_movemask_epi8(bytes) as u32,
        )
    }
}

/// One bit per byte of the sixteen at the start of `chunk` that is JSON whitespace (SSE2).
#[cfg(target_arch = "x86_64")]
#[inline]
fn sse2_whitespace_bits(chunk: &[u8]) -> u32 {
    use std::arch::x86_64::*;
    assert!(chunk.len() >= 16);
    // SAFETY: SSE2 is in the x86_64 baseline; the unaligned load reads 16 bytes, all inside
    // `chunk`.
    unsafe {
        let bytes = _mm_loadu_si128(chunk.as_ptr().cast());
        let is = |b: u8| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b as i8));
        let space = _mm_or_si128(is(b' '), is(b'\n'));
        let other = _mm_or_si128(is(b'\t'), is(b'\r'));
        _mm_movemask_epi8(_mm_or_si128(space, other)) as u32
    }
}

/// Thirty-two bytes at a time (AVX2): where the first byte from `i` that is `"`, `\` or a
/// control character is (true), or where fewer than 32 bytes are left (false), noting
/// non-ASCII bytes before it in `class_or`.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2_plain_run(data: &[u8], mut i: usize, class_or: &mut u8) -> (usize, bool) {
    use std::arch::x86_64::*;
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let below_space = _mm256_set1_epi8(0x1f);
    let mut high_seen = 0u32;
    while let Some(chunk) = data.get(i..i + 32) {
        // SAFETY: the unaligned load reads 32 bytes, all inside `chunk`.
        let bytes = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let control = _mm256_cmpeq_epi8(_mm256_max_epu8(bytes, below_space), below_space);
        let stops = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_cmpeq_epi8(bytes, quote),
                _mm256_cmpeq_epi8(bytes, backslash),
            ),
            control,
        );
        let stops = _mm256_movemask_epi8(stops) as u32;
        let high = _mm256_movemask_epi8(bytes) as u32;
        if stops != 0 {
            high_seen |= high & ((stops & stops.wrapping_neg()) - 1);
            if high_seen != 0 {
                *class_or |= 2;
            }
            return (i + stops.trailing_zeros() as usize, true);
        }
        high_seen |= high;
        i += 32;
    }
    if high_seen != 0 {
        *class_or |= 2;
    }
    (i, false)
}

/// The index of the first byte from `i` that ends a plain run (`"`, `\`, a control
/// character), noting non-ASCII bytes in `class_or`; Bail at the end of the input.
#[inline]
fn plain_run(data: &[u8], mut i: usize, class_or: &mut u8) -> Scan<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        // Long strings (descriptions, text, code) take 32 bytes a step where the CPU can
        // (the check is a cached flag).
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            let (at, stopped) = unsafe { avx2_plain_run(data, i, class_or) };
            if stopped {
                return Ok(at);
            }
            i = at;
        }
        while let Some(chunk) = data.get(i..i + 16) {
            let (stops, high) = sse2_stop_bits(chunk);
            if stops != 0 {
                if high & ((stops & stops.wrapping_neg()) - 1) != 0 {
                    *class_or |= 2;
                }
                return Ok(i + stops.trailing_zeros() as usize);
            }
            if high != 0 {
                *class_or |= 2;
            }
            i += 16;
        }
    }
    while let Some(chunk) = data.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let stops = stop_bits(word);
        if stops != 0 {
            // The stop's byte is found by its bit, not a byte loop (a mispredicted branch for
            // nearly every string).
            let before = (stops & stops.wrapping_neg()) - 1;
            if word & HIGH & before != 0 {
                *class_or |= 2;
            }
            return Ok(i + (stops.trailing_zeros() / 8) as usize);
        }
        if word & HIGH != 0 {
            *class_or |= 2;
        }
        i += 8;
    }
    loop {
        let class = CLASS[*data.get(i).ok_or(Bail)? as usize];
        if class == 0 {
            return Ok(i);
        }
        *class_or |= class;
        i += 1;
    }
}

impl<'a> Scanner<'a> {
    /// A scanner over bytes. Outside strings only ASCII is accepted; string content is given
    /// as found (the `ascii` flag says when it needs decoding, which validates it).
    pub fn new(data: &'a [u8]) -> Self {
        Scanner {
            data,
            pos: 0,
            scratch: Vec::new(),
        }
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        let data = self.data;
        let i = self.pos;
        // Most tokens follow no whitespace or one space: answer those here, inlined. Bytes up
        // to the space are whitespace or not allowed here (then the caller finds no token).
        match data.get(i) {
            Some(&b) if b > b' ' => {}
            Some(b' ' | b'\n') if data.get(i + 1).is_some_and(|&b| b > b' ') => self.pos = i + 1,
            Some(_) => self.skip_more_whitespace(),
            None => {}
        }
    }

    /// Whitespace past the first byte: a newline and indentation, mostly. Inlined too: a
    /// call per newline was 4% of an indented document's time (instruments.json,
    /// apache_builds.json).
    #[inline(always)]
    fn skip_more_whitespace(&mut self) {
        let data = self.data;
        let mut i = self.pos;
        // Sixteen bytes at a time on x86_64: the first byte that is not whitespace is found
        // by its bit, so that the usual newline and indentation take one step and one
        // predictable branch, whatever their length.
        #[cfg(target_arch = "x86_64")]
        while let Some(chunk) = data.get(i..i + 16) {
            let other = !sse2_whitespace_bits(chunk) & 0xffff;
            if other != 0 {
                self.pos = i + other.trailing_zeros() as usize;
                return;
            }
            i += 16;
        }
        while let Some(&b) = data.get(i) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            i += 1;
        }
        self.pos = i;
    }

    #[inline(always)]
    fn next_byte(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.data.get(self.pos).copied()
    }

    /// The next byte past whitespace, where the scanner now stands (not consumed); None at
    /// the end of the input.
    #[inline(always)]
    pub fn peek_byte(&mut self) -> Option<u8> {
        self.next_byte()
    }

    /// Steps over the byte the scanner stands on (one `peek_byte` gave).
    #[inline(always)]
    pub fn bump(&mut self) {
        self.pos += 1;
    }

    /// `null`, `true`, `false`, `NaN` or `Infinity` (by its first byte, where the scanner
    /// stands), read and stepped over.
    #[inline(always)]
    pub fn word(&mut self, first: u8) -> Scan<Peek> {
        match first {
            b'n' => self.literal(b"null", Peek::Null),
            b't' => self.literal(b"true", Peek::True),
            b'f' => self.literal(b"false", Peek::False),
            b'N' => self.literal(b"NaN", Peek::NaN),
            b'I' => self.literal(b"Infinity", Peek::Infinity),
            _ => Err(Bail),
        }
    }

    /// The kind of the next value (whitespace skipped); the scanner stays on its first byte.
    #[inline(always)]
    pub fn peek(&mut self) -> Scan<Peek> {
        Ok(match self.next_byte().ok_or(Bail)? {
            b'"' => Peek::String,
            b'{' => Peek::Object,
            b'[' => Peek::Array,
            b'-' | b'0'..=b'9' => Peek::Number,
            b'n' => self.literal(b"null", Peek::Null)?,
            b't' => self.literal(b"true", Peek::True)?,
            b'f' => self.literal(b"false", Peek::False)?,
            b'N' => self.literal(b"NaN", Peek::NaN)?,
            b'I' => self.literal(b"Infinity", Peek::Infinity)?,
            _ => return Err(Bail),
        })
    }

    #[inline(always)]
    fn literal(&mut self, word: &[u8], peek: Peek) -> Scan<Peek> {
        if self.data.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(peek)
        } else {
            Err(Bail)
        }
    }

    /// After `[`: true if an element follows, false at `]`.
    #[inline(always)]
    pub fn array_first(&mut self) -> Scan<bool> {
        self.pos += 1;
        if self.next_byte() == Some(b']') {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// After an element: true if another follows (`,`), false at `]`.
    #[inline(always)]
    pub fn array_next(&mut self) -> Scan<bool> {
        match self.next_byte() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b']') => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(Bail),
        }
    }

    /// After `{`: the first key, or None at `}`. The `:` after the key is read too.
    #[inline(always)]
    pub fn object_first(&mut self) -> Scan<Option<Key<'_>>> {
        self.pos += 1;
        match self.next_byte() {
            Some(b'}') => {
                self.pos += 1;
                Ok(None)
            }
            Some(b'"') => self.key_token().map(Some),
            _ => Err(Bail),
        }
    }

    /// After a property: the next key (after `,`), or None at `}`.
    #[inline(always)]
    pub fn object_next(&mut self) -> Scan<Option<Key<'_>>> {
        match self.next_byte() {
            Some(b',') => {
                self.pos += 1;
                if self.next_byte() != Some(b'"') {
                    return Err(Bail);
                }
                self.key_token().map(Some)
            }
            Some(b'}') => {
                self.pos += 1;
                Ok(None)
            }
            _ => Err(Bail),
        }
    }

    /// A key (the scanner is on its opening quote), and the `:` after it.
    #[inline(always)]
    pub fn key_token(&mut self) -> Scan<Key<'_>> {
        let (start, end, ascii, escaped) = self.scan_string()?;
        self.colon()?;
        let window = match self.data.get(start..start + 16) {
            Some(window) if ascii && !escaped && end - start < 16 => window.try_into().ok(),
            _ => None,
        };
        Ok(Key {
            text: self.text(start, end, ascii, escaped),
            window,
        })
    }

    /// The `:` after a key, and one space after it. Printers write `":"`, `": "` or `" : "`:
    /// two bytes read at once answer the first two, and the common space before the value,
    /// without a whitespace scan per side.
    #[inline(always)]
    fn colon(&mut self) -> Scan<()> {
        let pos = self.pos;
        match self.data.get(pos..pos + 2) {
            Some(&[b':', b' ']) => self.pos = pos + 2,
            Some(&[b':', _]) => self.pos = pos + 1,
            Some(&[b' ', b':']) => {
                self.pos = pos + 2 + (self.data.get(pos + 2) == Some(&b' ')) as usize
            }
            _ => {
                if self.next_byte() != Some(b':') {
                    return Err(Bail);
                }
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// A string value (the scanner is on its opening quote).
    #[inline(always)]
    pub fn string(&mut self) -> Scan<Text<'_>> {
        let (start, end, ascii, escaped) = self.scan_string()?;
        Ok(self.text(start, end, ascii, escaped))
    }

    #[inline(always)]
    fn text(&self, start: usize, end: usize, ascii: bool, escaped: bool) -> Text<'_> {
        let bytes = if escaped {
            &self.scratch[..]
        } else {
            &self.data[start..end]
        };
        Text { bytes, ascii }
    }

    /// Reads a string from its opening quote to past its closing one. Returns the content's
    /// bounds in the input (when unescaped), whether it is ASCII, and whether it went to the
    /// scratch buffer.
    ///
    /// Most strings (keys above all) end within 32 bytes without an escape: one or two loads
    /// and masks answer those here, inlined; longer ones and escapes go out of line.
    #[inline(always)]
    fn scan_string(&mut self) -> Scan<(usize, usize, bool, bool)> {
        let data = self.data;
        let start = self.pos + 1;
        #[cfg(target_arch = "x86_64")]
        if let Some(chunk) = data.get(start..start + 32) {
            let (stops, high) = sse2_stop_bits(&chunk[..16]);
            let (stops, high) = if stops == 0 {
                // No stop in the first sixteen: the next sixteen (keys and values of 16 to 31
                // bytes: names, URLs, dates).
                let (more_stops, more_high) = sse2_stop_bits(&chunk[16..]);
                (more_stops << 16, high | more_high << 16)
            } else {
                (stops, high)
            };
            let len = stops.trailing_zeros() as usize; // 32 when there is no stop
            if len < 32 && chunk[len] == b'"' {
                self.pos = start + len + 1;
                let ascii = high & ((1u32 << len) - 1) == 0;
                return Ok((start, start + len, ascii, false));
            }
        }
        self.scan_long_string(start)
    }

    /// `scan_string` past its fast path: a string of 32 bytes or more, one with an escape,
    /// or one near the end of the input.
    #[inline(never)]
    fn scan_long_string(&mut self, start: usize) -> Scan<(usize, usize, bool, bool)> {
        let data = self.data;
        let mut class_or = 1u8;
        let i = plain_run(data, start, &mut class_or)?;
        if data[i] == b'"' {
            self.pos = i + 1;
            return Ok((start, i, class_or == 1, false));
        }
        self.scan_escaped_string(start, i, class_or)
    }

    /// The rest of a string from its first escape (or control character) at `i`, decoded
    /// into the scratch buffer.
    #[inline(never)]
    fn scan_escaped_string(
        &mut self,
        start: usize,
        mut i: usize,
        mut class_or: u8,
    ) -> Scan<(usize, usize, bool, bool)> {
        let data = self.data;
        self.scratch.clear();
        self.scratch.extend_from_slice(&data[start..i]);
        loop {
            match data[i] {
                b'"' => break,
                b'\\' => {
                    let escape = *data.get(i + 1).ok_or(Bail)?;
                    i += 2;
                    if escape == b'u' {
                        // a lone surrogate is kept, as `json.loads` keeps it
                        let (code, next) = unicode_escape(data, i).ok_or(Bail)?;
                        i = next;
                        if code >= 0x80 {
                            class_or |= 2;
                        }
                        push_wtf8(&mut self.scratch, code);
                    } else {
                        self.scratch.push(unescape(escape).ok_or(Bail)?);
                    }
                }
                _ => return Err(Bail), // a control character
            }
            let run = i;
            i = plain_run(data, run, &mut class_or)?;
            self.scratch.extend_from_slice(&data[run..i]);
        }
        self.pos = i + 1;
        Ok((0, 0, class_or == 1, true))
    }

    /// A number (the scanner is on its first byte), or `-Infinity`.
    #[inline(always)]
    pub fn number(&mut self) -> Scan<Number<'a>> {
        match self.short_number(self.pos) {
            Some(number) => Ok(number),
            None => self.any_number(),
        }
    }

    /// In an array, after an element: the next element when it is a comma, one space or
    /// none (`json.dumps` writes `, `), and a number, read (as `number` reads it), as packed
    /// arrays of numbers have them; None, the scanner where it was, for anything else (other
    /// whitespace, the array's end, another kind of value), which the general reading takes.
    #[inline(always)]
    pub fn packed_number(&mut self) -> Option<Scan<Number<'a>>> {
        let at = self.pos;
        let head: &[u8; 3] = self.data.get(at..at + 3)?.try_into().ok()?;
        let space = head[1] == b' ';
        if head[0] != b',' || !matches!(head[1 + space as usize], b'-' | b'0'..=b'9') {
            return None;
        }
        self.pos = at + 1 + space as usize;
        Some(self.number())
    }

    /// In an array, after an element (the scanner on what follows it): the floats packed
    /// after it, each a comma, one space or none, and a float of `short_number`'s shape with a
    /// fraction (an optional minus, one to seven integer digits, a dot, one to fifteen
    /// fraction digits, no exponent), each value given to `each` in order. Stops, the scanner
    /// on the comma before it, at anything else (an integer, an exponent, other whitespace,
    /// the array's end, the first 16 and the last 33 bytes of the input), which the general
    /// reading takes; or at `each`'s error (the scanner then anywhere).
    ///
    /// One number's end is where the next one starts, so that end is found in one short
    /// chain: the bytes after the comma compared sixteen at once, the first byte that is no
    /// part of a number found by its bit. The shape's checks and the value hang off that chain
    /// (the CPU runs them beside the next numbers), and the position stays in a register
    /// (a scanner's position lives in memory across the builder's calls).
    #[inline(always)]
    pub fn float_run<E>(&mut self, mut each: impl FnMut(f64) -> Result<(), E>) -> Result<(), E> {
        let data = self.data;
        let mut pos = self.pos;
        while let Some(window) = data.get(pos.wrapping_sub(16)..pos + 33) {
            let window: &[u8; 49] = window.try_into().expect("49 bytes");
            let Some((value, end)) = packed_float(window) else {
                break;
            };
            pos += end;
            if let Err(error) = each(value) {
                self.pos = pos;
                return Err(error);
            }
        }
        self.pos = pos;
        Ok(())
    }

    /// `number`'s common case, from a window of the 40 bytes from `start`: an optional minus,
    /// one to seven integer digits, and a fraction of one to fifteen digits or none, without
    /// an exponent (`0.696468466152`, `-65.613616999999977`, `255`). The integer digits are
    /// counted in one word, the fraction's in one mask of the sixteen bytes after the dot,
    /// and their words read at offsets the window bounds, in one straight run: no loop over
    /// the digits, no bound check per word (a float of numbers.json took ~80 instructions of
    /// digit reading and checks in the general loop).
    /// The number, the scanner after it; None for anything else (the scanner unmoved), which
    /// `any_number` reads.
    #[inline(always)]
    fn short_number(&mut self, start: usize) -> Option<Number<'a>> {
        let data = self.data;
        // Offsets are masked to 31 (they are at most 25), so that every read is seen to fit.
        let window: &[u8; 40] = data.get(start..start + 40)?.try_into().ok()?;
        let word = |at: usize| {
            let bytes: [u8; 8] = window[at & 31..(at & 31) + 8].try_into().expect("8 bytes");
            u64::from_le_bytes(bytes)
        };
        let negative = window[0] == b'-';
        let digits_at = negative as usize;
        let head = word(digits_at);
        let int_digits = leading_digits(head);
        // No digit, eight or more, or a leading zero before another digit (an error, which
        // the general reading leaves to the complete parser).
        if int_digits == 0 || int_digits >= 8 || (window[digits_at] == b'0' && int_digits > 1) {
            return None;
        }
        // A fraction's integer part is mostly a lone zero: nothing to convert.
        let mut mantissa = if int_digits == 1 && window[digits_at] == b'0' {
            0
        } else {
            digits_value(head, int_digits)
        };
        let mut end = digits_at + int_digits; // at most 8
        let float = window[end] == b'.';
        let mut exponent = 0;
        if float {
            // Its length from one mask of the sixteen bytes after the dot.
            let fraction = (!digit_bits(window, end + 1)).trailing_zeros() as usize;
            if fraction == 0 || fraction == 16 || int_digits + fraction > 19 {
                return None;
            }
            let (low, high) = (word(end + 1), word(end + 9)); // within the window: end + 17 <= 25
            if fraction <= 8 {
                mantissa = mantissa * POW10_U64[fraction] + digits_value(low, fraction);
            } else {
                let more = fraction - 8;
                mantissa = (mantissa * POW10_U64[8] + digits_value(low, 8)) * POW10_U64[more]
                    + digits_value(high, more);
            }
            end += 1 + fraction; // at most 24
            exponent = -(fraction as i64);
        }
        if matches!(window[end & 31], b'e' | b'E') {
            return None;
        }
        self.pos = start + end;
        // SAFETY: the bytes from start to end are a minus, ASCII digits and a dot.
        let text = unsafe { std::str::from_utf8_unchecked(&data[start..start + end]) };
        Some(if float {
            Number::Float(text, decimal_to_f64(mantissa, exponent, negative))
        } else {
            let value = mantissa as i64;
            Number::Int(if negative { -value } else { value }, text)
        })
    }

    /// Any number (the scanner is on its first byte), or `-Infinity`: digits read eight at a
    /// time, as many as there are.
    #[inline(never)]
    fn any_number(&mut self) -> Scan<Number<'a>> {
        let data = self.data;
        let start = self.pos;
        let mut i = start;
        let negative = data[i] == b'-';
        if negative {
            i += 1;
            if data.get(i) == Some(&b'I') {
                self.pos = i;
                self.literal(b"Infinity", Peek::Infinity)?;
                return Ok(Number::NegInfinity);
            }
        }
        let digits_start = i;
        let mut mantissa: u64 = 0;
        match data.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = accumulate(data, i, &mut mantissa),
            _ => return Err(Bail),
        }
        let int_digits = i - digits_start;
        let mut float = false;
        let mut exponent: i64 = 0;
        if data.get(i) == Some(&b'.') {
            float = true;
            let start = i + 1;
            i = accumulate(data, start, &mut mantissa);
            if i == start {
                return Err(Bail);
            }
            exponent = -((i - start) as i64);
        }
        let significant = i - digits_start - float as usize;
        if matches!(data.get(i), Some(b'e' | b'E')) {
            float = true;
            i += 1;
            let sign = match data.get(i) {
                Some(b'-') => -1,
                Some(b'+') => 1,
                _ => 0,
            };
            i += (sign != 0) as usize;
            let start = i;
            let mut written: u64 = 0;
            i = accumulate(data, start, &mut written);
            if i == start {
                return Err(Bail);
            }
            // Leading zeros add nothing (`1e000…01` is 10): only the digits after them can
            // make the exponent too large to hold, and then it only says overflow/underflow.
            let zeros = data[start..i].iter().take_while(|&&b| b == b'0').count();
            let written = if i - start - zeros > 18 {
                i64::MAX / 2
            } else {
                written as i64
            };
            exponent = exponent.saturating_add(if sign < 0 { -written } else { written });
        }
        self.pos = i;
        // SAFETY: the bytes from start to i are ASCII digits, signs, dots and exponent letters.
        let text = unsafe { std::str::from_utf8_unchecked(&data[start..i]) };
        if float {
            let exact = if significant <= 19 {
                decimal_to_f64(mantissa, exponent, negative)
            } else {
                None
            };
            return Ok(Number::Float(text, exact));
        }
        if int_digits <= 18 {
            let value = mantissa as i64;
            return Ok(Number::Int(if negative { -value } else { value }, text));
        }
        Ok(Number::BigInt(text))
    }

    /// After the document: only whitespace may remain.
    pub fn finish(&mut self) -> Scan<()> {
        match self.next_byte() {
            None => Ok(()),
            Some(_) => Err(Bail),
        }
    }
}

/// The error of a whole text (a str's UTF-8) that the scanner bailed on, typed and
/// positioned: the scanner keeps no error of its own (its hot path only bails), so its error
/// path re-reads the text with the streaming machine, whose errors are json's. None if the
/// text is valid.
pub fn diagnose(text: &[u8], dialect: Dialect) -> Option<ParseError> {
    let mut stream = Stream::with_dialect(Mode::Stable, usize::MAX, None, dialect);
    let mut sink = ValueBuilder::default();
    let result = stream
        .feed_text(text, false, &mut sink)
        .and_then(|()| stream.close(&mut sink));
    match result {
        Ok(()) => None,
        Err(Failure::Invalid(e)) => Some(*e),
        Err(other) => unreachable!("a value builder never stops: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{accumulate, plain_run, Bail, Number, Scanner, CLASS};

    #[test]
    fn digits_are_read_as_a_byte_loop_reads_them() {
        let tails: [&[u8]; 6] = [b"", b",", b".5", b"e9", b"\xff", b"/:"];
        for len in 0..=21 {
            for tail in tails {
                for fill in [b'0', b'9', b'5'] {
                    let mut text: Vec<u8> = (0..len)
                        .map(|k| (fill - b'0' + k as u8 * 7) % 10 + b'0')
                        .collect();
                    let want = text.iter().fold(0u64, |v, &b| {
                        v.wrapping_mul(10).wrapping_add((b - b'0') as u64)
                    });
                    text.extend_from_slice(tail);
                    text.extend_from_slice(b"  ");
                    let mut value = 0;
                    assert_eq!(accumulate(&text, 0, &mut value), len, "{text:?}");
                    assert_eq!(value, want, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn numbers_keep_their_text_and_value() {
        let mut scanner = Scanner::new(b"-65.613616999999977,");
        assert_eq!(
            scanner.number(),
            Ok(Number::Float(
                "-65.613616999999977",
                Some(-65.613_616_999_999_98) // the same f64
            ))
        );
        let mut scanner = Scanner::new(b"123456789012345678]");
        assert_eq!(
            scanner.number(),
            Ok(Number::Int(123456789012345678, "123456789012345678"))
        );
    }

    /// Number texts around every limit of the short reading: each sign, integer length (zero
    /// to nine digits, around the seven it takes), leading zero, fraction length (none, and
    /// zero to twenty digits, around eight and fifteen), digits low and high, exponent.
    fn number_texts() -> Vec<String> {
        let mut texts = Vec::new();
        let fractions = std::iter::once(None).chain((0..=20).map(Some));
        for sign in ["", "-"] {
            for int_len in 0..=9 {
                for fraction in fractions.clone() {
                    for (fill, step) in [(3, 7), (9, 0), (0, 0)] {
                        let digits = |len: usize, first: u8| -> String {
                            (0..len)
                                .map(|k| char::from(b'0' + (first + (k as u8) * step) % 10))
                                .collect()
                        };
                        // Zeros: a lone zero, a leading zero before another (an error),
                        // else ones, so that no integer has a leading zero by accident.
                        let int = digits(int_len, if fill == 0 && int_len > 2 { 1 } else { fill });
                        for exponent in ["", "e5", "E-3", "e"] {
                            let mut text = format!("{sign}{int}");
                            if let Some(len) = fraction {
                                text.push('.');
                                text.push_str(&digits(len, fill));
                            }
                            text.push_str(exponent);
                            texts.push(text);
                        }
                    }
                }
            }
        }
        texts.extend(["-Infinity".to_string(), "-".to_string(), "-a".to_string()]);
        texts.sort();
        texts.dedup();
        texts
    }

    /// What may follow a number: separators, bytes next to the digits in ASCII ('/' and
    /// ':'), a dot, a letter and a byte that is not ASCII.
    const TAILS: [&[u8]; 9] = [b",", b"]", b"}", b" ", b".", b"x", b"/", b":", b"\xff"];

    #[test]
    fn short_numbers_are_read_as_any_number_reads_them() {
        // Far from and near the end of the input (where the 40-byte window does not fit, or
        // just fits).
        for text in number_texts() {
            for tail in TAILS {
                for padding in [0, 12, 24, 30, 48] {
                    let mut input = text.as_bytes().to_vec();
                    input.extend_from_slice(tail);
                    input.extend(std::iter::repeat_n(b' ', padding));
                    let mut short = Scanner::new(&input);
                    let mut general = Scanner::new(&input);
                    let got = short.number().map(|n| (n, short.pos));
                    let want = general.any_number().map(|n| (n, general.pos));
                    assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&input));
                }
            }
        }
    }

    #[test]
    fn packed_numbers_are_read_as_the_general_reading_reads_them() {
        // After an element: a comma, a space or none, and a number read at once as `number`
        // reads it, or nothing read (then the general reading takes what follows: other
        // whitespace, another kind of value).
        let texts = number_texts();
        let seconds = texts.iter().map(String::as_str).step_by(7).chain([
            " 1.5", "  1.5", "\n1.5", " -2", "\"a\"", "]", "", "1.5 ", "1e5",
        ]);
        for second in seconds {
            for tail in TAILS {
                for padding in [0, 30, 48] {
                    let mut input = format!("7,{second}").into_bytes();
                    input.extend_from_slice(tail);
                    input.extend(std::iter::repeat_n(b' ', padding));
                    let mut packed = Scanner::new(&input);
                    assert!(packed.number().is_ok());
                    let got = packed.packed_number().map(|n| n.map(|n| (n, packed.pos)));
                    let mut general = Scanner::new(&input);
                    general.pos = 2 + second.starts_with(' ') as usize; // past "7," and a space
                    let want = general.number().map(|n| (n, general.pos));
                    let starts_number = matches!(
                        second.trim_start_matches(' ').as_bytes().first(),
                        Some(b'-' | b'0'..=b'9')
                    );
                    match got {
                        Some(read) => assert_eq!(read, want, "{input:?}"),
                        None => {
                            assert_eq!(packed.pos, 1, "{input:?}");
                            assert!(!starts_number || second.starts_with("  "), "{input:?}");
                        }
                    }
                }
            }
        }
        // Only a comma straight after the element (then one space at most) starts a packed number.
        for input in [&b"7 ,1.5]"[..], b"7]", b"7:1", b"7", b"7,", b"7, "] {
            let mut scanner = Scanner::new(input);
            assert!(scanner.number().is_ok());
            assert!(scanner.packed_number().is_none());
            assert_eq!(scanner.pos, 1);
        }
    }

    /// Whether `text` has the shape `float_run` is meant to take: an optional minus, one to
    /// seven integer digits without a leading zero before another, a dot, one to fifteen
    /// fraction digits, nineteen digits at most.
    fn run_shape(text: &str) -> bool {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let Some((int, fraction)) = digits.split_once('.') else {
            return false;
        };
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        all_digits(int)
            && all_digits(fraction)
            && (1..=7).contains(&int.len())
            && (1..=15).contains(&fraction.len())
            && int.len() + fraction.len() <= 19
            && !(int.starts_with('0') && int.len() > 1)
    }

    #[test]
    fn float_runs_are_read_as_packed_numbers_read_them() {
        // One element after "7": each separator (a comma, one space, more or other whitespace
        // after it, a space before it), each number text, each tail, at distances from the
        // input's end around the 33 bytes from the comma that the run reads. What the run takes is what `packed_number` takes (value, bits and the
        // scanner after it); what it declines leaves the scanner on the comma; and it takes
        // every text of its shape that the window holds.
        let texts = number_texts();
        let seconds = texts
            .iter()
            .map(String::as_str)
            .chain(["1.5e5", "1.5.5", "1.-5"]);
        let mut taken_count = 0;
        for second in seconds {
            for separator in [",", ", ", ",  ", ",\n", ",\t", " ,"] {
                for tail in TAILS.iter().copied().chain([&b"e"[..], b"E", b"-", b"0"]) {
                    for padding in [0, 8, 16, 24, 31, 32, 33, 48] {
                        // Sixteen bytes before the element: the run reads from 16 before
                        // the comma.
                        let mut input = format!("{:16}7{separator}{second}", "").into_bytes();
                        input.extend_from_slice(tail);
                        input.extend(std::iter::repeat_n(b' ', padding));
                        let mut run = Scanner::new(&input);
                        run.pos = 16;
                        assert!(run.number().is_ok());
                        let mut got = Vec::new();
                        let read = run.float_run(|value| {
                            got.push(value);
                            Ok::<(), ()>(())
                        });
                        assert_eq!(read, Ok(()));
                        let label = String::from_utf8_lossy(&input).into_owned();
                        match got[..] {
                            [] => assert_eq!(run.pos, 17, "{label:?}"),
                            [value] => {
                                let mut packed = Scanner::new(&input);
                                packed.pos = 16;
                                assert!(packed.number().is_ok());
                                let want = packed.packed_number().map(|n| (n, packed.pos));
                                let Some((Ok(Number::Float(_, Some(exact))), pos)) = want else {
                                    panic!("{label:?}: {want:?}");
                                };
                                assert_eq!(value.to_bits(), exact.to_bits(), "{label:?}");
                                assert_eq!(run.pos, pos, "{label:?}");
                            }
                            _ => panic!("{label:?}: {got:?}"),
                        }
                        let fits = input.len() >= 17 + 33;
                        let taken = fits
                            && matches!(separator, "," | ", ")
                            && run_shape(second)
                            && !matches!(tail, b"e" | b"E" | b"." | b"-" | b"0" | b"/" | b":")
                            && !(tail == b"." || second.ends_with('.'));
                        if taken {
                            assert_eq!(got.len(), 1, "{label:?}");
                            taken_count += 1;
                        }
                    }
                }
            }
        }
        assert!(taken_count > 10_000, "{taken_count}");
    }

    #[test]
    fn float_runs_stop_where_their_shape_stops() {
        let input = b"[0.5,-1.25, 3.0,0.696468466152,1234567.123456789012,2,4.5,6.5 ,7.5]";
        let mut padded = vec![b' '; 16];
        padded.extend_from_slice(input);
        padded.extend([b' '; 40]);
        let mut scanner = Scanner::new(&padded);
        scanner.pos = 16;
        assert_eq!(scanner.array_first(), Ok(true));
        assert!(scanner.number().is_ok());
        let mut got = Vec::new();
        let mut read = |scanner: &mut Scanner| {
            scanner
                .float_run(|value| {
                    got.push(value);
                    Ok::<(), ()>(())
                })
                .unwrap();
        };
        read(&mut scanner);
        // Stops on the comma before the integer.
        assert_eq!(&padded[scanner.pos..scanner.pos + 3], b",2,");
        let number = scanner.packed_number().expect("a number").expect("read");
        assert_eq!(number, Number::Int(2, "2"));
        read(&mut scanner);
        // Stops on the space before the last comma.
        assert_eq!(&padded[scanner.pos..scanner.pos + 2], b" ,");
        assert_eq!(
            got,
            [-1.25, 3.0, 0.696468466152, 1234567.123456789, 4.5, 6.5]
        );
        // An error of `each` stops the run and is given back.
        let mut scanner = Scanner::new(&padded);
        scanner.pos = 16;
        assert_eq!(scanner.array_first(), Ok(true));
        assert!(scanner.number().is_ok());
        let mut calls = 0;
        let read = scanner.float_run(|_| {
            calls += 1;
            if calls == 2 {
                Err("stop")
            } else {
                Ok(())
            }
        });
        assert_eq!((read, calls), (Err("stop"), 2));
        // Without 33 bytes from the comma, or 16 before it, nothing is read.
        let mut scanner = Scanner::new(b"7,0.5,0.25]");
        assert!(scanner.number().is_ok());
        assert_eq!(scanner.float_run(|_| Err(())), Ok(()));
        assert_eq!(scanner.pos, 1);
        let mut early = b"[0.5,0.25".to_vec();
        early.extend([b' '; 40]);
        let mut scanner = Scanner::new(&early);
        assert_eq!(scanner.array_first(), Ok(true));
        assert!(scanner.number().is_ok());
        assert_eq!(scanner.float_run(|_| Err(())), Ok(()));
        assert_eq!(scanner.pos, 4);
    }

    /// A byte at a time: the run's end and whether it held a non-ASCII byte.
    fn plain_run_bytewise(data: &[u8], start: usize) -> Result<(usize, bool), Bail> {
        let mut high = false;
        for (i, &b) in data.iter().enumerate().skip(start) {
            match CLASS[b as usize] {
                0 => return Ok((i, high)),
                class => high |= class == 2,
            }
        }
        Err(Bail)
    }

    #[test]
    fn plain_runs_end_where_a_byte_loop_ends_them() {
        // Every stop (quote, backslash, each control character) and a non-ASCII byte at
        // every place around the 8-, 16- and 32-byte steps, from every start offset.
        let stops: Vec<u8> = [b'"', b'\\'].into_iter().chain(0..0x20).collect();
        for len in 0..80usize {
            for &stop in &stops {
                for high_at in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
                    let mut data = vec![b'a'; len];
                    if let Some(at) = high_at.filter(|&at| at < len) {
                        data[at] = 0xc3;
                    }
                    data.push(stop);
                    data.extend_from_slice(b"tail");
                    for start in 0..data.len().min(3) {
                        let mut class_or = 1;
                        let got =
                            plain_run(&data, start, &mut class_or).map(|i| (i, class_or == 3));
                        assert_eq!(
                            got,
                            plain_run_bytewise(&data, start),
                            "{len} {stop} {start}"
                        );
                    }
                }
            }
            let unended = vec![b'x'; len];
            assert_eq!(plain_run(&unended, 0, &mut 1), Err(Bail));
        }
    }
}

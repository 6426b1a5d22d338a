//! A long number shown while it arrives (jiter mode), at a cost in proportion to its new
//! digits. Twin: `src/jsondrip/twin/number.py`.
//!
//! Converting the whole text at every fragment would cost its length each time (quadratic in
//! a number a byte at a time). A float's value depends only on its first `KEEP` significant
//! digits, whether any later digit is nonzero, and its decimal exponent: every value halfway
//! between two doubles has at most 767 significant digits, so the text cut after `KEEP` with a
//! nonzero digit standing for the rest rounds exactly as the whole text does. The digest reads
//! each new byte once and writes that short text.

/// Significant digits kept; enough to round as the whole text does (see above).
const KEEP: usize = 800;
/// Past this magnitude the decimal exponent only says "overflow" or "underflow".
const EXPONENT_CAP: i64 = 1_000_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Integer,
    Fraction,
    Exponent,
}

/// What a float's text so far says about its value, read a byte at a time.
#[derive(Debug, Clone)]
pub struct NumberDigest {
    /// Bytes of the text read so far.
    read: usize,
    part: Part,
    negative: bool,
    /// Significant digits (no leading zeros), at most `KEEP`.
    digits: String,
    /// A nonzero digit past the ones kept.
    sticky: bool,
    /// The value is `0.<digits> × 10^(shift + exponent)`.
    shift: i64,
    exponent_negative: bool,
    exponent: i64,
}

impl Default for NumberDigest {
    fn default() -> Self {
        NumberDigest {
            read: 0,
            part: Part::Integer,
            negative: false,
            digits: String::new(),
            sticky: false,
            shift: 0,
            exponent_negative: false,
            exponent: 0,
        }
    }
}

impl NumberDigest {
    /// The bytes it holds outside itself (its digits).
    pub fn heap_bytes(&self) -> usize {
        self.digits.capacity()
    }

    /// Forget the number read: a new one begins.
    pub fn reset(&mut self) {
        let mut digits = std::mem::take(&mut self.digits);
        digits.clear();
        *self = NumberDigest {
            digits,
            ..NumberDigest::default()
        };
    }

    /// A short text with the value of `text`, the float text this digest has followed since
    /// `reset` (it only ever grows). Reads only the bytes it has not read before.
    pub fn short_text(&mut self, text: &[u8]) -> String {
        for &byte in &text[self.read..] {
            self.read_byte(byte);
        }
        self.read = text.len();
        let sign = if self.negative { "-" } else { "" };
        if self.digits.is_empty() {
            return format!("{sign}0.0");
        }
        let exponent = if self.exponent_negative {
            -self.exponent
        } else {
            self.exponent
        };
        let sticky = if self.sticky { "1" } else { "" };
        format!("{sign}0.{}{sticky}e{}", self.digits, self.shift + exponent)
    }

    fn read_byte(&mut self, byte: u8) {
        let leading_zero = byte == b'0' && self.digits.is_empty();
        match (self.part, byte) {
            (Part::Integer, b'-') => self.negative = true,
            (Part::Exponent, b'-') => self.exponent_negative = true,
            (_, b'.') => self.part = Part::Fraction,
            (_, b'e' | b'E') => self.part = Part::Exponent,
            (Part::Exponent, b'0'..=b'9') => {
                self.exponent = (self.exponent * 10 + i64::from(byte - b'0')).min(EXPONENT_CAP);
            }
            // JSON's only leading zero before the point is a lone "0": not significant.
            (Part::Integer, b'0'..=b'9') if !leading_zero => {
                self.shift += 1;
                self.keep(byte);
            }
            (Part::Fraction, b'0'..=b'9') if leading_zero => self.shift -= 1,
            (Part::Fraction, b'0'..=b'9') => self.keep(byte),
            _ => {} // the integer part's "0", the exponent's '+'
        }
    }

    fn keep(&mut self, digit: u8) {
        if self.digits.len() < KEEP {
            self.digits.push(char::from(digit));
        } else {
            self.sticky |= digit != b'0';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NumberDigest;

    fn value(text: &str) -> f64 {
        NumberDigest::default()
            .short_text(text.as_bytes())
            .parse()
            .unwrap()
    }

    #[test]
    fn short_numbers_keep_their_value() {
        for text in [
            "0", "-0", "0.0", "-0.0", "1", "12.5", "0.5", "0.00123", "-7e3", "1E+2", "1e-2",
            "120.0e1", "100", "3.14159",
        ] {
            assert_eq!(value(text), text.parse::<f64>().unwrap(), "{text}");
            assert_eq!(
                value(text).is_sign_negative(),
                text.starts_with('-'),
                "{text}"
            );
        }
    }

    #[test]
    fn long_numbers_round_as_their_whole_text() {
        let halfway = format!("9007199254740993{}", "0".repeat(2000)); // 2^53 + 1, then zeros
        let above = format!("{halfway}1");
        let long_fraction = format!("0.{}", "1".repeat(5000));
        let long_integer = format!("{}.5", "7".repeat(400));
        for text in [&halfway, &above, &long_fraction, &long_integer] {
            assert_eq!(value(text), text.parse::<f64>().unwrap());
        }
        assert_eq!(value(&format!("1e{}1", "0".repeat(5000))), 10.0);
        assert_eq!(value(&format!("1e{}", "9".repeat(50))), f64::INFINITY);
        assert_eq!(value(&format!("-1e-{}", "9".repeat(50))), -0.0);
        assert_eq!(
            value(&format!("0.{}e{}", "0".repeat(3000), "9".repeat(30))),
            0.0
        );
    }

    #[test]
    fn reads_only_new_bytes_and_restarts_on_a_new_number() {
        let text = format!("0.{}", "1".repeat(3000));
        let mut digest = NumberDigest::default();
        for end in 3..text.len() {
            let shown = digest.short_text(&text.as_bytes()[..end]);
            assert_eq!(shown.parse::<f64>(), text[..end].parse::<f64>());
        }
        digest.reset();
        assert_eq!(digest.short_text(b"2.5"), "0.25e1");
    }
}

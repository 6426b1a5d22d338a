//! Decimal to binary floats for the scanner: the value of `mantissa * 10^exponent`, correctly
//! rounded, from the digits the scanner has already read (re-reading the number's text with
//! `str::parse` cost a fifth of canada.json's time).
//!
//! Two exact methods, as in fast_float and Rust's own parser: Clinger's fast path (one IEEE
//! operation), then Eisel-Lemire (a 128-bit product with a table of powers of five). Either
//! can decline; the caller then parses the text with the standard library.

use super::pow5_table::{LARGEST_POWER_OF_FIVE, POWER_OF_FIVE_128, SMALLEST_POWER_OF_FIVE};

/// Powers of ten that f64 holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

const MANTISSA_BITS: i32 = 52;
const MINIMUM_EXPONENT: i32 = -1023;
const INFINITE_POWER: i32 = 0x7ff;

/// The f64 nearest to `mantissa * 10^exponent` (negated if `negative`), or None when neither
/// method can tell. `mantissa` must hold all the significant digits (19 at most).
#[inline(always)]
pub fn decimal_to_f64(mantissa: u64, exponent: i64, negative: bool) -> Option<f64> {
    let value = match clinger(mantissa, exponent) {
        Some(value) => value,
        None => eisel_lemire(mantissa, exponent)?,
    };
    Some(if negative { -value } else { value })
}

/// Clinger's fast path: a mantissa below 2^53 times or over an exact power of ten is one
/// correctly rounded IEEE operation.
#[inline(always)]
fn clinger(mantissa: u64, exponent: i64) -> Option<f64> {
    if mantissa > 1 << 53 || !(-22..=22).contains(&exponent) {
        return None;
    }
    let m = mantissa as f64;
    Some(if exponent < 0 {
        m / POW10[(-exponent) as usize]
    } else {
        m * POW10[exponent as usize]
    })
}

/// Eisel-Lemire (Lemire, "Number Parsing at a Gigabyte per Second", 2021): the product of the
/// normalised mantissa and a 128-bit power of five gives the rounded result, unless it falls
/// too near a halfway point to tell (None).
#[inline(never)]
fn eisel_lemire(mut w: u64, q: i64) -> Option<f64> {
    if w == 0 || q < SMALLEST_POWER_OF_FIVE {
        return Some(0.0);
    }
    if q > LARGEST_POWER_OF_FIVE {
        return Some(f64::INFINITY);
    }
    let leading_zeros = w.leading_zeros();
    w <<= leading_zeros;
    let (low, high) = product(q, w);
    // The truncated power may be one too small: the product is then not known to 64 bits,
    // except where the power of five is exact.
    if low == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upper_bit = (high >> 63) as i32;
    let shift = upper_bit + 64 - MANTISSA_BITS - 3;
    let mut mantissa = high >> shift;
    let mut power2 =
        binary_exponent(q as i32) + upper_bit - leading_zeros as i32 - MINIMUM_EXPONENT;
    if power2 <= 0 {
        // Subnormal (or zero).
        if -power2 + 1 >= 64 {
            return Some(0.0);
        }
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        power2 = (mantissa >= 1 << MANTISSA_BITS) as i32;
        return Some(from_parts(mantissa, power2));
    }
    // Exactly halfway between two floats (possible only where 5^q is exact): round to even,
    // down here, rather than up below.
    if low <= 1 && (-4..=23).contains(&q) && mantissa & 3 == 1 && (mantissa << shift) == high {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= 2 << MANTISSA_BITS {
        mantissa = 1 << MANTISSA_BITS;
        power2 += 1;
    }
    mantissa &= !(1 << MANTISSA_BITS);
    if power2 >= INFINITE_POWER {
        return Some(f64::INFINITY);
    }
    Some(from_parts(mantissa, power2))
}

/// floor(log2(10^q)) + 63, as an integer approximation valid over the table's range.
#[inline]
fn binary_exponent(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65_536) >> 16) + 63
}

/// The high 128 bits of `w * 5^q` (low word, high word), to the precision the rounding needs:
/// a second multiplication only when the first leaves the rounding bits in doubt.
#[inline]
fn product(q: i64, w: u64) -> (u64, u64) {
    const MASK: u64 = u64::MAX >> (MANTISSA_BITS + 3);
    let (high5, low5) = POWER_OF_FIVE_128[(q - SMALLEST_POWER_OF_FIVE) as usize];
    let first = w as u128 * high5 as u128;
    let (mut low, mut high) = (first as u64, (first >> 64) as u64);
    if high & MASK == MASK {
        let second_high = ((w as u128 * low5 as u128) >> 64) as u64;
        low = low.wrapping_add(second_high);
        if second_high > low {
            high += 1;
        }
    }
    (low, high)
}

/// The f64 of a 52-bit mantissa and a biased exponent.
#[inline]
fn from_parts(mantissa: u64, biased_exponent: i32) -> f64 {
    f64::from_bits(mantissa | (biased_exponent as u64) << MANTISSA_BITS)
}

#[cfg(test)]
mod tests {
    use super::decimal_to_f64;

    /// Compares with the standard library's parser (correctly rounded, as Python's float()).
    fn check(mantissa: u64, exponent: i64) -> bool {
        let text = format!("{mantissa}e{exponent}");
        let want: f64 = text.parse().expect("valid");
        match decimal_to_f64(mantissa, exponent, false) {
            Some(got) => {
                assert_eq!(got.to_bits(), want.to_bits(), "{text}: {got:e} != {want:e}");
                true
            }
            None => false,
        }
    }

    /// A small deterministic generator (xorshift), so failures reproduce.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn every_exponent_with_random_mantissas() {
        let mut state = 0x2545_f491_4f6c_dd1d;
        let mut answered = 0;
        for exponent in -360..=330 {
            for _ in 0..400 {
                let bits = xorshift(&mut state) % 64 + 1;
                let mantissa = xorshift(&mut state) >> (64 - bits);
                let mantissa = mantissa.min(9_999_999_999_999_999_999);
                answered += check(mantissa, exponent) as usize;
            }
        }
        assert!(answered > 250_000, "answered {answered}");
    }

    #[test]
    fn typical_decimals_with_up_to_19_digits() {
        // What JSON documents hold: coordinates, prices, measurements.
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..300_000 {
            let digits = (xorshift(&mut state) % 19 + 1) as u32;
            let mantissa = xorshift(&mut state) % 10u64.pow(digits);
            let exponent = -((xorshift(&mut state) % 25) as i64);
            check(mantissa, exponent);
        }
    }

    #[test]
    fn halfway_and_edge_cases() {
        let cases: &[(u64, i64)] = &[
            (9_007_199_254_740_993, 0), // 2^53 + 1: halfway, rounds to even
            (9_007_199_254_740_995, 0),
            (18_014_398_509_481_990, 0),
            (2_225_073_858_507_201, -323), // near the smallest normal
            (4_940_656_458_412_465, -340), // near the smallest subnormal
            (2_470_328_229_206_232, -340), // halfway to zero
            (17_976_931_348_623_157, 292), // the largest finite
            (17_976_931_348_623_159, 292), // past it
            (1, 308),
            (1, -342),
            (0, 10),
            (7_450_580_596_923_828_125, -27),
            (1_000_000_000_000_000_001, -18),
            (65_613_616_999_999_977, -15), // canada.json
        ];
        for &(mantissa, exponent) in cases {
            check(mantissa, exponent);
        }
        assert_eq!(decimal_to_f64(5, -1, true), Some(-0.5));
        assert_eq!(
            decimal_to_f64(0, 0, true).map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
    }
}

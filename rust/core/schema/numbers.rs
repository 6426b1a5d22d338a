//! Numbers as Python compares them: an `int` and a `float` compare exactly (no rounding of
//! the integer to a float). Integers past 64 bits are left to the oracle. Twin: the plain
//! comparisons of `src/jsondrip/schema/complete.py`.

use std::cmp::Ordering;

/// A JSON number read as Python reads it: `int(text)` (when it fits i64) or `float(text)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Int(i64),
    Float(f64),
}

/// The number a JSON number's text is, or None for an integer past i64 (the oracle's case).
pub fn parse(text: &str, float: bool) -> Option<Num> {
    if float {
        // Correctly rounded, as Python's float(); past the range it is +-inf, as there.
        text.parse::<f64>().ok().map(Num::Float)
    } else {
        text.parse::<i64>().ok().map(Num::Int)
    }
}

fn int_float(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f >= 9_223_372_036_854_775_808.0 {
        return Some(Ordering::Less);
    }
    if f < -9_223_372_036_854_775_808.0 {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    match i.cmp(&(whole as i64)) {
        Ordering::Equal => (0.0).partial_cmp(&(f - whole)),
        other => Some(other),
    }
}

/// Python's comparison of two numbers (None: a NaN is involved, every comparison is false).
pub fn compare(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        (Num::Int(x), Num::Float(y)) => int_float(x, y),
        (Num::Float(x), Num::Int(y)) => int_float(y, x).map(Ordering::reverse),
    }
}

/// JSON Schema's "integer": any number with no fractional part (`1.0` is one; inf is not).
pub fn is_integer(n: Num) -> bool {
    match n {
        Num::Int(_) => true,
        Num::Float(f) => f.is_finite() && f.fract() == 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_and_floats_compare_exactly_as_python_does() {
        let big = Num::Int(9_007_199_254_740_993); // 2**53 + 1: rounds to 2**53 as a float
        assert_eq!(
            compare(big, Num::Float(9_007_199_254_740_992.0)),
            Some(Ordering::Greater)
        );
        assert_eq!(compare(Num::Int(1), Num::Float(1.0)), Some(Ordering::Equal));
        assert_eq!(compare(Num::Int(1), Num::Float(1.5)), Some(Ordering::Less));
        assert_eq!(
            compare(Num::Int(-2), Num::Float(-1.5)),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare(Num::Float(-1.5), Num::Int(-2)),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare(Num::Int(i64::MAX), Num::Float(1e19)),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare(Num::Int(i64::MIN), Num::Float(-1e19)),
            Some(Ordering::Greater)
        );
        assert_eq!(compare(Num::Int(0), Num::Float(f64::NAN)), None);
        assert!(is_integer(Num::Float(2.0)) && !is_integer(Num::Float(f64::INFINITY)));
        assert_eq!(parse("1e400", true), Some(Num::Float(f64::INFINITY)));
        assert_eq!(parse("99999999999999999999", false), None);
    }
}

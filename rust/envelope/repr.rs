//! Numbers as Python's `repr` writes them (`int.__repr__`, `float.__repr__`), which is how the
//! twin writes a `numberValue`.

/// An integer literal (`-?(0|[1-9]\d*)`) as `repr(int(literal))`: the same digits, but `-0`
/// is `0`.
pub fn int_repr(literal: &str) -> String {
    if literal == "-0" {
        "0".to_owned()
    } else {
        literal.to_owned()
    }
}

/// `repr(x)` of a finite float, or None where the native side cannot be sure of it (then the
/// twin writes it): infinities and NaN (which `json.dumps` spells), and a possible tie between
/// two shortest candidates ([`may_be_a_tie`]). The digits are the shortest that read back as
/// `x`, the nearest of those (Rust's `{:e}` and Python's `dtoa` mode 0 agree there), laid out
/// as Python's `float_repr_style = 'short'` does: positional when the decimal point falls
/// within `-4 < decpt <= 16` (with `.0` if the digits are whole), else `d.ddde+XX`.
pub fn float_repr(x: f64) -> Option<String> {
    if !x.is_finite() {
        return None;
    }
    if x == 0.0 {
        return Some(if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_owned());
    }
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    if may_be_a_tie(x, &digits) {
        return None;
    }
    let decpt = exponent + 1; // the value is 0.DIGITS times ten to decpt
    let mut out = String::with_capacity(digits.len() + 8);
    out.push_str(sign);
    if decpt <= -4 || decpt > 16 {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        out.push_str(&format!("e{sign}{:02}", exponent.unsigned_abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', decpt.unsigned_abs() as usize));
        out.push_str(&digits);
    } else if (decpt as usize) < digits.len() {
        let (whole, fraction) = digits.split_at(decpt as usize);
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    } else {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', decpt as usize - digits.len()));
        out.push_str(".0");
    }
    Some(out)
}

/// Whether `x` may lie halfway between the shortest digits `digits` and a neighbour one unit
/// away in their last place: its exact value has one digit more, a 5. There the two formatters
/// may part (`dtoa` mode 0 decides by the binary significand, Rust's shortest mode otherwise),
/// so such a float is left to Python; anywhere else the nearest shortest digits are unique.
fn may_be_a_tie(x: f64, digits: &str) -> bool {
    if digits.len() < 15 {
        // a neighbour half a unit away in the 15th digit or before is farther than half an
        // ulp of a normal float; a subnormal's exact value has hundreds of digits
        return false;
    }
    let Some(exact) = exact_digits(x) else {
        return false; // more than 38 significant digits: never a 17-digit tie's midpoint
    };
    let exact = exact.to_string();
    exact.len() == digits.len() + 1 && exact.ends_with('5')
}

/// The significant decimal digits of `|x|`'s exact value (`x` finite, not zero), as an
/// integer, when they fit in a `u128`: `x = m * 2^q`, so `m * 5^-q` for `q < 0`, else `m << q`
/// without its trailing zeros.
fn exact_digits(x: f64) -> Option<u128> {
    let bits = x.abs().to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mut m, mut q) = if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, exponent - 1075)
    };
    if m == 0 {
        return None;
    }
    let zeros = m.trailing_zeros();
    m >>= zeros;
    q += zeros as i32;
    if q < 0 {
        return 5u128
            .checked_pow(q.unsigned_abs())?
            .checked_mul(u128::from(m));
    }
    if q > 74 {
        return None; // 2^75 and more: too many digits to be a tie's midpoint
    }
    let mut n = u128::from(m) << q;
    while n % 10 == 0 {
        n /= 10;
    }
    Some(n)
}

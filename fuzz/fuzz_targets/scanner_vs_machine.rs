//! The one-shot scanner (the fast path of `loads`) against the streaming machine: whatever the
//! scanner accepts, driven as `rust/python/loads.rs` drives it, the machine accepts with the
//! same value. The scanner may bail on anything; it must never accept something else.
//! Numbers are checked too: an `Int`'s value is its text, and a float computed on the fast
//! path (Clinger) equals the correctly rounded parse of its text.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common.rs"]
mod common;

use _native::core::scanner::{Bail, Number, Peek, Scanner, Text};
use _native::core::value::Value;
use _native::core::Mode;
use common::*;

/// Deeper than this, the Python builder has hit the recursion limit long before.
const SCAN_DEPTH: usize = 2000;

/// A string as the Python builder makes it: ASCII as is, else decoded (invalid UTF-8 bails;
/// surrogates, escaped or encoded in UTF-8, come as WTF-8, as the machine gives them).
fn text(t: Text) -> Result<Vec<u8>, Bail> {
    if t.ascii {
        assert!(
            t.bytes.is_ascii(),
            "a string flagged ASCII is not: {:?}",
            t.bytes
        );
        return Ok(t.bytes.to_vec());
    }
    match std::str::from_utf8(t.bytes) {
        Ok(_) => Ok(t.bytes.to_vec()),
        // Lone surrogates from escapes come as WTF-8: the machine gives the same bytes.
        Err(_) if wtf8(t.bytes) => Ok(t.bytes.to_vec()),
        Err(_) => Err(Bail),
    }
}

/// UTF-8 where surrogate code points (ED A0..BF xx) are allowed.
fn wtf8(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let len = match b {
            0x00..=0x7f => 1,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return false,
        };
        let Some(seq) = bytes.get(i..i + len) else {
            return false;
        };
        if seq[1..].iter().any(|&c| c & 0xc0 != 0x80) {
            return false;
        }
        if (b == 0xe0 && seq[1] < 0xa0)
            || (b == 0xf0 && seq[1] < 0x90)
            || (b == 0xf4 && seq[1] > 0x8f)
        {
            return false;
        }
        i += len;
    }
    true
}

fn number(n: Number) -> Result<Value, Bail> {
    Ok(match n {
        Number::Int(value, text) => {
            assert_eq!(
                value.to_string(),
                int_value(text),
                "Int({value}) from {text:?}"
            );
            Value::Int(int_value(text))
        }
        Number::BigInt(text) => Value::Int(int_value(text)),
        Number::Float(text, exact) => {
            let parsed: f64 = text.parse().map_err(|_| Bail)?;
            if let Some(fast) = exact {
                assert_eq!(fast.to_bits(), parsed.to_bits(), "fast path of {text:?}");
            }
            Value::Float(parsed)
        }
        Number::NegInfinity => Value::Float(f64::NEG_INFINITY),
    })
}

/// An integer's text as Python's int() gives it back (no leading zeros, no "-0").
fn int_value(text: &str) -> String {
    let negative = text.starts_with('-');
    let digits = text.trim_start_matches('-').trim_start_matches('0');
    match (digits.is_empty(), negative) {
        (true, _) => "0".to_string(),
        (false, true) => format!("-{digits}"),
        (false, false) => digits.to_string(),
    }
}

fn value(scanner: &mut Scanner, depth: usize) -> Result<Value, Bail> {
    if depth > SCAN_DEPTH {
        return Err(Bail);
    }
    Ok(match scanner.peek()? {
        Peek::String => Value::Str(text(scanner.string()?)?),
        Peek::Number => number(scanner.number()?)?,
        Peek::Null => Value::Null,
        Peek::True => Value::Bool(true),
        Peek::False => Value::Bool(false),
        Peek::NaN => Value::Float(f64::NAN),
        Peek::Infinity => Value::Float(f64::INFINITY),
        Peek::Array => {
            let mut items = Vec::new();
            if scanner.array_first()? {
                loop {
                    items.push(value(scanner, depth + 1)?);
                    if !scanner.array_next()? {
                        break;
                    }
                }
            }
            Value::Array(items)
        }
        Peek::Object => {
            let mut props: Vec<(Vec<u8>, Value)> = Vec::new();
            let mut key = scanner.object_first()?.map(|k| text(k.text)).transpose()?;
            while let Some(k) = key {
                let v = value(scanner, depth + 1)?;
                match props.iter_mut().find(|(name, _)| *name == k) {
                    Some(slot) => slot.1 = v,
                    None => props.push((k, v)),
                }
                key = scanner.object_next()?.map(|k| text(k.text)).transpose()?;
            }
            Value::Object(props)
        }
    })
}

fuzz_target!(|data: &[u8]| {
    // Surrogates encoded in UTF-8 (ED A0..BF): the scanner's Python decoder takes them, as
    // json.loads does, and the machine refuses them. A known difference, tested in Python.
    if data.windows(2).any(|w| w[0] == 0xed && w[1] >= 0xa0) {
        return;
    }
    let mut scanner = Scanner::new(data);
    let scanned = value(&mut scanner, 0).and_then(|v| scanner.finish().map(|()| v));
    let Ok(scanned) = scanned else {
        return;
    };
    match run_stream(&[data], Mode::Stable, SCAN_DEPTH + 2, None) {
        Ok(Some(streamed)) => {
            assert!(
                same(&scanned, &streamed),
                "scanner {scanned:?} != machine {streamed:?}"
            )
        }
        other => panic!("the scanner accepted {scanned:?}, the machine answered {other:?}"),
    }
});

//! The streaming core against a simple reference, serde_json (numbers kept as their text).
//!
//! Both accept the same documents and give the same value, except where jsondrip follows
//! `json.loads` on purpose and serde_json does not: `NaN`/`Infinity` literals, lone
//! surrogate escapes, surrogates encoded in UTF-8 (json.loads decodes bytes with
//! surrogatepass), a leading UTF-8 BOM, nesting past serde_json's limit of 128. Inputs
//! with one of those features are compared only where serde_json accepts them.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common.rs"]
mod common;

use _native::core::value::Value;
use _native::core::Mode;
use common::*;

/// True if `data` holds a feature serde_json refuses and json.loads (so jsondrip) accepts.
fn json_only_feature(data: &[u8]) -> bool {
    let has = |needle: &[u8]| data.windows(needle.len()).any(|w| w == needle);
    has(b"NaN")
        || has(b"Infinity")
        || data.starts_with(b"\xef\xbb\xbf")
        || data
            .windows(2)
            .any(|w| w[0] == 0xed && (0xa0..=0xbf).contains(&w[1]))
        || data.windows(3).any(|w| {
            w[0] == b'u'
                && matches!(w[1], b'd' | b'D')
                && matches!(w[2], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
        })
}

/// The integer text as jsondrip keeps it ("-0" is "0").
fn int_text(text: &str) -> String {
    if text.starts_with('-') && text[1..].bytes().all(|b| b == b'0') {
        "0".to_string()
    } else {
        text.to_string()
    }
}

fn matches(ours: &Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (ours, theirs) {
        (Value::Null, J::Null) => true,
        (Value::Bool(a), J::Bool(b)) => a == b,
        (Value::Int(a), J::Number(n)) => {
            let text = n.to_string();
            !text.contains(['.', 'e', 'E']) && *a == int_text(&text)
        }
        (Value::Float(a), J::Number(n)) => {
            let text = n.to_string();
            let b: f64 = text.parse().expect("a JSON number parses as f64");
            text.contains(['.', 'e', 'E']) && a.to_bits() == b.to_bits()
        }
        (Value::Str(a), J::String(b)) => a == b.as_bytes(),
        (Value::Array(a), J::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| matches(x, y))
        }
        (Value::Object(a), J::Object(b)) => {
            // jsondrip keeps insertion order, serde_json sorts: compare as maps (both keep the
            // last value of a repeated key).
            a.len() == b.len()
                && a.iter().all(|(k, v)| {
                    std::str::from_utf8(k)
                        .ok()
                        .and_then(|k| b.get(k))
                        .is_some_and(|w| matches(v, w))
                })
        }
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let ours = run_stream(&[data], Mode::Stable, MAX_DEPTH, None);
    let theirs = serde_json::from_slice::<serde_json::Value>(data);
    match (&ours, &theirs) {
        (Ok(Some(a)), Ok(b)) => assert!(matches(a, b), "values differ: {a:?} vs {b:?}"),
        (Ok(None), Ok(b)) => panic!("serde_json read {b:?} where jsondrip read nothing"),
        (Err(e), Ok(b)) => panic!("jsondrip refused ({e:?}) what serde_json read: {b:?}"),
        (Ok(a), Err(e)) => {
            let depth = e.to_string().contains("recursion limit");
            assert!(
                depth || json_only_feature(data),
                "jsondrip read {a:?} where serde_json refused: {e}"
            );
        }
        (Err(_), Err(_)) => {}
    }
});

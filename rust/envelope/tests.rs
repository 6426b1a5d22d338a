//! The quick check against hand-worked chunks; the Python twin is compared with it on random
//! chunks in `tests/toolcalls/test_shortcut.py`.

use super::{literal_end, number_end, scan_literal, ChunkMatch, Hole};

fn lit(text: &str) -> Option<(String, usize)> {
    scan_literal(text.as_bytes(), 1)
}

#[test]
fn literals_decode_as_scanstring_does() {
    assert_eq!(lit(r#""abc"x"#), Some(("abc".into(), 5)));
    assert_eq!(lit(r#""""#), Some(("".into(), 2)));
    assert_eq!(
        lit(r#""a\"b\\c\/d\b\f\n\r\t""#),
        Some(("a\"b\\c/d\u{8}\u{c}\n\r\t".into(), 22))
    );
    assert_eq!(lit(r#""\u00e9\u00E9é""#), Some(("ééé".into(), 16)));
    assert_eq!(lit(r#""\ud83d\ude00""#), Some(("😀".into(), 14)));
    assert_eq!(lit("\"\u{7f}\""), Some(("\u{7f}".into(), 3))); // DEL is no control here
}

#[test]
fn invalid_literals_and_lone_surrogates_are_refused() {
    for bad in [
        "\"abc",             // no closing quote
        "\"a\nb\"",          // a raw line break
        "\"a\u{1f}b\"",      // a control character
        r#""\x41""#,         // no such escape
        r#""\u12""#,         // too few digits
        r#""\u12g4""#,       // not hex
        r#""\u+123""#,       // not hex either (int() would take it)
        r#""\ud800""#,       // a lone high surrogate
        r#""\ude00""#,       // a lone low surrogate
        r#""\ud800\u0041""#, // a high surrogate then no low one
        r#""\"#,             // cut inside an escape
        r#""\ud800\u12g4""#, // a high surrogate then a bad escape
    ] {
        assert_eq!(lit(bad), None, "{bad:?}");
    }
}

#[test]
fn chunks_match_only_with_the_same_frame() {
    let m = ChunkMatch::new(
        b"data: {\"a\":\"",
        vec![(Hole::Fragment, b"}\n\n".to_vec())],
    );
    assert_eq!(
        m.fragment(b"data: {\"a\":\"x\\ny\"}\n\n", None),
        Some("x\ny".into())
    );
    assert_eq!(m.fragment(b"data: {\"a\":\"x\"} \n\n", None), None); // another suffix
    assert_eq!(m.fragment(b"data: {\"b\":\"x\"}\n\n", None), None); // another prefix
    assert_eq!(m.fragment(b"data: {\"a\":\"x\"}\n", None), None); // cut
    assert_eq!(m.fragment(b"data: {\"a\":\"\xff\"}\n\n", None), None); // not UTF-8
    assert_eq!(m.fragment(b"data: {\"a\":\"x\"}\n\n\xc3", None), None); // not UTF-8 after the end
    assert_eq!(m.fragment(b"data: {\"a\":\"x\"}\n\n{}", None), None); // more after the suffix
}

#[test]
fn the_ignored_literal_may_change_but_must_be_valid() {
    let m = ChunkMatch::new(
        b"data: {\"a\":\"",
        vec![
            (Hole::Fragment, b",\"o\":\"".to_vec()),
            (Hole::Text, b"}\n\n".to_vec()),
        ],
    );
    assert_eq!(
        m.fragment(b"data: {\"a\":\"x\",\"o\":\"pad\"}\n\n", None),
        Some("x".into())
    );
    assert_eq!(
        m.fragment(b"data: {\"a\":\"x\",\"o\":\"\\q\"}\n\n", None),
        None
    );
    let lone = b"data: {\"a\":\"x\",\"o\":\"\\ud800\"}\n\n";
    assert_eq!(m.fragment(lone, None), Some("x".into())); // valid as scanstring says
    let lone = b"data: {\"a\":\"x\",\"o\":\"\\ud800\"}\n\n";
    assert_eq!(m.fragment(lone, None), Some("x".into())); // not decoded: valid as scanstring says
    assert_eq!(
        m.fragment(b"data: {\"a\":\"x\",\"p\":\"pad\"}\n\n", None),
        None
    );
}

#[test]
fn lone_surrogates_end_a_literal_that_is_not_decoded() {
    for (text, end) in [
        (r#""\ud800"x"#, 8),
        (r#""\ude00""#, 8),
        (r#""\ud800\u0041""#, 14),
        (r#""\ud83d\ude00""#, 14),
    ] {
        assert_eq!(literal_end(text.as_bytes(), 1), Some(end), "{text:?}");
    }
    assert_eq!(literal_end(br#""\ud800\u12g4""#, 1), None);
    assert_eq!(literal_end(br#""a\qb""#, 1), None);
}

#[test]
fn the_head_must_be_the_streams_own() {
    // {"id":"<head>","created":<number>,"a":"<fragment>"}
    let m = ChunkMatch::new(
        b"{\"id\":\"",
        vec![
            (Hole::Head, b",\"created\":".to_vec()),
            (Hole::Number, b",\"a\":\"".to_vec()),
            (Hole::Fragment, b"}".to_vec()),
        ],
    );
    let chunk = b"{\"id\":\"c-1\",\"created\":17,\"a\":\"x\"}";
    assert_eq!(m.fragment(chunk, Some(b"c-1")), Some("x".into()));
    assert_eq!(m.fragment(chunk, Some(b"c-2")), None); // another stream's
    assert_eq!(m.fragment(chunk, Some(b"c-")), None);
    assert_eq!(m.fragment(chunk, None), None); // no head known yet
    let escaped = b"{\"id\":\"c\\u002d1\",\"created\":17,\"a\":\"x\"}";
    assert_eq!(m.fragment(escaped, Some(b"c-1")), Some("x".into())); // decoded, then compared

    // A head whose bytes would not stand as themselves in a literal is never taken as they
    // stand: the literal `c` is followed by a quote, but the head `c"` is not what it decodes to.
    let quoted = ChunkMatch::new(
        b"{\"id\":\"",
        vec![
            (Hole::Head, b",\"a\":\"".to_vec()),
            (Hole::Fragment, b"}".to_vec()),
        ],
    );
    assert_eq!(
        quoted.fragment(b"{\"id\":\"c\"\",\"a\":\"x\"}", Some(b"c\"")),
        None
    );
    assert_eq!(
        quoted.fragment(b"{\"id\":\"c\\\"\",\"a\":\"x\"}", Some(b"c\"")),
        Some("x".into())
    );
    let control = b"{\"id\":\"c\x01\",\"a\":\"x\"}"; // a raw control byte: no literal
    assert_eq!(quoted.fragment(control, Some(b"c\x01")), None);
    for created in ["-1.5e+3", "0", "0.25", "1E9"] {
        let chunk = format!("{{\"id\":\"c-1\",\"created\":{created},\"a\":\"x\"}}");
        assert_eq!(
            m.fragment(chunk.as_bytes(), Some(b"c-1")),
            Some("x".into()),
            "{created}"
        );
    }
    for created in [
        "01", "1.", "-", "\"1\"", "NaN", "Infinity", "1e", "+1", "null",
    ] {
        let chunk = format!("{{\"id\":\"c-1\",\"created\":{created},\"a\":\"x\"}}");
        assert_eq!(
            m.fragment(chunk.as_bytes(), Some(b"c-1")),
            None,
            "{created}"
        );
    }
}

#[test]
fn numbers_end_where_json_stops_reading_them() {
    for (text, end) in [
        ("12,", Some(2)),
        ("-0.5e-7}", Some(7)),
        ("01", Some(1)),
        ("1.x", Some(1)),
    ] {
        assert_eq!(number_end(text.as_bytes(), 0), end, "{text}");
    }
    assert_eq!(number_end(b"-x", 0), None);
    assert_eq!(number_end(b"", 0), None);
    let long = "9".repeat(super::MAX_NUMBER);
    assert_eq!(number_end(long.as_bytes(), 0), Some(super::MAX_NUMBER));
    assert_eq!(number_end(format!("{long}9").as_bytes(), 0), None); // json might refuse it
}

//! The error table shared with the Python tests (`tests/data/error_cases.json`): for every
//! case and both json dialects, the kind and position of the error, whether a character-at-a-
//! time feed raises it at the same character, whether it says "cut short" exactly when
//! `close` raises it, and that the one-shot scanner bails on the text and diagnoses the same.

use super::error::{Dialect, ErrorKind, ParseError};
use super::machine::Mode;
use super::scanner::{diagnose, Bail, Peek, Scan, Scanner};
use super::stream::Stream;
use super::value::{Value, ValueBuilder};
use super::Failure;

const TABLE: &str = include_str!("../../tests/data/error_cases.json");

struct Case {
    text: String,
    kind: String,
    pos: u64,
    raise_at: Option<usize>,
    trailing_comma: Option<(String, u64)>,
    escape_at_end: Option<(String, u64)>,
}

fn field<'v>(object: &'v [(Vec<u8>, Value)], name: &str) -> Option<&'v Value> {
    object
        .iter()
        .find(|(k, _)| k == name.as_bytes())
        .map(|(_, v)| v)
}

fn text(value: &Value) -> String {
    match value {
        Value::Str(bytes) => String::from_utf8(bytes.clone()).expect("the table is UTF-8"),
        other => panic!("not a string: {other:?}"),
    }
}

fn number(value: &Value) -> u64 {
    match value {
        Value::Int(digits) => digits.parse().expect("a position"),
        other => panic!("not an integer: {other:?}"),
    }
}

fn override_of(object: &[(Vec<u8>, Value)], name: &str) -> Option<(String, u64)> {
    match field(object, name)? {
        Value::Object(o) => Some((
            text(field(o, "kind").unwrap()),
            number(field(o, "pos").unwrap()),
        )),
        other => panic!("not an object: {other:?}"),
    }
}

fn cases() -> Vec<Case> {
    let mut stream = Stream::new(Mode::Stable, 64, None);
    let mut sink = ValueBuilder::default();
    stream.feed_bytes(TABLE.as_bytes(), &mut sink).unwrap();
    stream.close(&mut sink).unwrap();
    let Some(Value::Object(top)) = sink.root else {
        panic!("the table is an object")
    };
    let Some(Value::Array(rows)) = field(&top, "cases") else {
        panic!("the table has cases")
    };
    rows.iter()
        .map(|row| {
            let Value::Object(o) = row else {
                panic!("a case is an object")
            };
            Case {
                text: text(field(o, "text").unwrap()),
                kind: text(field(o, "kind").unwrap()),
                pos: number(field(o, "pos").unwrap()),
                raise_at: match field(o, "raise_at").unwrap() {
                    Value::Null => None,
                    v => Some(number(v) as usize),
                },
                trailing_comma: override_of(o, "trailing_comma"),
                escape_at_end: override_of(o, "escape_at_end_unterminated"),
            }
        })
        .collect()
}

/// The variant's name, as the table writes it.
fn name(kind: &ErrorKind) -> String {
    let debug = format!("{kind:?}");
    debug.split('(').next().unwrap().to_string()
}

/// Feeds the chunks then closes: the error, and the index of the chunk that raised it (None:
/// close).
fn run(chunks: &[&str], dialect: Dialect) -> (ParseError, Option<usize>) {
    let mut stream = Stream::with_dialect(Mode::Stable, 1024, None, dialect);
    let mut sink = ValueBuilder::default();
    for (index, chunk) in chunks.iter().enumerate() {
        if let Err(failure) = stream.feed_text(chunk.as_bytes(), false, &mut sink) {
            return (invalid(failure), Some(index));
        }
    }
    let failure = stream.close(&mut sink).expect_err("every case is an error");
    (invalid(failure), None)
}

fn invalid(failure: Failure) -> ParseError {
    match failure {
        Failure::Invalid(e) => *e,
        other => panic!("{other:?}"),
    }
}

const DIALECTS: [Dialect; 3] = [
    Dialect {
        trailing_comma: false,
        escape_at_end_unterminated: false,
    },
    Dialect {
        trailing_comma: true,
        escape_at_end_unterminated: false,
    },
    Dialect {
        trailing_comma: true,
        escape_at_end_unterminated: true,
    },
];

fn want(case: &Case, dialect: Dialect) -> (String, u64) {
    let mut want = (case.kind.clone(), case.pos);
    if dialect.trailing_comma {
        want = case.trailing_comma.clone().unwrap_or(want);
    }
    if dialect.escape_at_end_unterminated {
        want = case.escape_at_end.clone().unwrap_or(want);
    }
    want
}

#[test]
fn the_table_holds_cases_of_every_dialect() {
    let cases = cases();
    assert!(cases.len() > 100);
    assert!(cases.iter().any(|c| c.trailing_comma.is_some()));
    assert!(cases.iter().any(|c| c.escape_at_end.is_some()));
}

#[test]
fn errors_have_the_tables_kind_and_position_fed_whole_or_a_character_at_a_time() {
    for case in cases() {
        for dialect in DIALECTS {
            let want = want(&case, dialect);
            let (whole, index) = run(&[&case.text], dialect);
            assert_eq!(
                (name(&whole.kind), whole.pos),
                want,
                "{:?} {dialect:?}",
                case.text
            );
            assert_eq!(index.is_none(), case.raise_at.is_none(), "{:?}", case.text);
            let chars: Vec<String> = case.text.chars().map(String::from).collect();
            let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
            let (single, index) = run(&chars, dialect);
            assert_eq!(single.kind, whole.kind, "{:?}", case.text);
            assert_eq!(single.pos, whole.pos, "{:?}", case.text);
            assert_eq!(index, case.raise_at, "{:?}", case.text);
            // Cut short exactly when close() raised; the message is json's either way.
            assert_eq!(
                whole.incomplete(),
                case.raise_at.is_none(),
                "{:?}",
                case.text
            );
            assert_eq!(single.expected, whole.expected, "{:?}", case.text);
        }
    }
}

#[test]
fn lines_and_columns_are_counted_as_json_counts_them() {
    for case in cases() {
        for dialect in DIALECTS {
            let (e, _) = run(&[&case.text], dialect);
            let before: Vec<char> = case.text.chars().take(e.pos as usize).collect();
            let line = 1 + before.iter().filter(|&&c| c == '\n').count() as u64;
            let line_start = before.iter().rposition(|&c| c == '\n').map_or(0, |i| i + 1);
            let column = e.pos - line_start as u64 + 1;
            assert_eq!((e.line, e.column), (line, column), "{:?}", case.text);
        }
    }
}

/// Reads a whole document with the one-shot scanner, as the `loads` builder does.
fn scan(scanner: &mut Scanner) -> Scan<()> {
    match scanner.peek()? {
        Peek::String => drop(scanner.string()?),
        Peek::Number => drop(scanner.number()?),
        Peek::Array => {
            let mut more = scanner.array_first()?;
            while more {
                scan(scanner)?;
                more = scanner.array_next()?;
            }
        }
        Peek::Object => {
            let mut more = scanner.object_first()?.is_some();
            while more {
                scan(scanner)?;
                more = scanner.object_next()?.is_some();
            }
        }
        _ => {}
    }
    Ok(())
}

#[test]
fn the_scanner_bails_and_diagnoses_the_same_error() {
    for case in cases() {
        let bytes = case.text.as_bytes();
        let mut scanner = Scanner::new(bytes);
        let scanned = scan(&mut scanner).and_then(|()| scanner.finish());
        assert_eq!(scanned, Err(Bail), "{:?}", case.text);
        for dialect in DIALECTS {
            let e = diagnose(bytes, dialect).expect("every case is an error");
            assert_eq!(
                (name(&e.kind), e.pos),
                want(&case, dialect),
                "{:?}",
                case.text
            );
        }
    }
}

#[test]
fn doc_holds_the_text_around_the_position_within_the_window() {
    let mut text = "[".to_string() + &"1, ".repeat(5000);
    text.push('x');
    let (e, _) = run(&[&text], Dialect::default());
    assert_eq!(e.pos as usize, text.len() - 1);
    let doc = String::from_utf8(e.doc.clone()).unwrap();
    assert_eq!(doc.chars().count(), super::error::DOC_WINDOW + 1);
    assert_eq!(&doc[(e.pos - e.doc_start) as usize..], "x");
    // Fed in small pieces, closed cut short: the doc is the last piece.
    let cut = &text[..text.len() - 1];
    let chunks: Vec<&str> = (0..cut.len())
        .step_by(7)
        .map(|i| &cut[i..(i + 7).min(cut.len())])
        .collect();
    let (e, index) = run(&chunks, Dialect::default());
    assert_eq!(
        (index, e.kind, e.pos),
        (None, ErrorKind::ExpectingValue, cut.len() as u64)
    );
    let kept = chunks[chunks.len() - 1];
    assert_eq!(e.doc, kept.as_bytes());
    assert_eq!(e.doc_start, (cut.len() - kept.len()) as u64);
}

#[test]
fn an_error_at_a_fragments_start_shows_the_whole_fragment_before_it() {
    // The stream keeps the last fragment for an error's `doc` (a short one copied in two
    // word moves into a buffer that may hold a longer one's bytes): whatever its length, the
    // doc of an error on the next fragment's first character is that fragment and the
    // character, never stale bytes of a fragment before it.
    let long = "[\"".to_string() + &"\u{fc}".repeat(40) + "\", ";
    let content = "a\u{e9}\u{20ac}\u{1f600}bcdefghijklmnopq";
    let mut previous: Vec<String> = vec![" ".into(), " \n  ".into(), "1, ".into()];
    for (cut, _) in content.char_indices().chain([(content.len(), ' ')]) {
        previous.push(format!("\"{}\", ", &content[..cut]));
        previous.push(format!("{}, ", &"7".repeat(cut + 1)));
    }
    for before in &previous {
        for chunks in [
            vec![long.as_str(), before.as_str(), "x"],
            vec!["[", before.as_str(), "x"],
            vec![long.as_str(), "1, ", before.as_str(), "x"],
        ] {
            let (e, index) = run(&chunks, Dialect::default());
            let chars = |s: &str| s.chars().count() as u64;
            let pos: u64 = chunks[..chunks.len() - 1].iter().map(|c| chars(c)).sum();
            assert_eq!(
                (index, e.kind.clone(), e.pos),
                (Some(chunks.len() - 1), ErrorKind::ExpectingValue, pos),
                "{chunks:?}"
            );
            assert_eq!(
                String::from_utf8(e.doc.clone()).unwrap(),
                format!("{before}x"),
                "{chunks:?}"
            );
            assert_eq!(e.doc_start, pos - chars(before), "{chunks:?}");
        }
    }
}

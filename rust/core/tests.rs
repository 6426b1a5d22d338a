//! Core tests without Python: values after each fragment, final values, errors.

use super::value::{Value, ValueBuilder};
use super::{DebugState, Failure, Mode, Stream};

fn parse(chunks: &[&[u8]], mode: Mode) -> (Result<(), Failure>, Option<Value>) {
    let mut stream = Stream::new(mode, 1024, None);
    let mut sink = ValueBuilder::default();
    for chunk in chunks {
        if let Err(e) = stream.feed_bytes(chunk, &mut sink) {
            return (Err(e), sink.root);
        }
    }
    (Ok(()), sink.root)
}

fn partial(text: &str, mode: Mode) -> Option<Value> {
    let (result, value) = parse(&[text.as_bytes()], mode);
    result.expect("valid prefix");
    value
}

fn closed(text: &str) -> Result<Option<Value>, Failure> {
    let mut stream = Stream::new(Mode::Stable, 1024, None);
    let mut sink = ValueBuilder::default();
    stream.feed_bytes(text.as_bytes(), &mut sink)?;
    stream.close(&mut sink)?;
    Ok(sink.root)
}

fn int(text: &str) -> Value {
    Value::Int(text.to_string())
}

fn s(text: &str) -> Value {
    Value::Str(text.as_bytes().to_vec())
}

#[test]
fn numbers_are_atomic_in_stable_mode_and_tentative_in_jiter_mode() {
    assert_eq!(
        partial("[1, 2", Mode::Stable),
        Some(Value::Array(vec![int("1")]))
    );
    assert_eq!(
        partial("[1, 2", Mode::Jiter),
        Some(Value::Array(vec![int("1"), int("2")]))
    );
    assert_eq!(
        partial("[1, 2.", Mode::Jiter),
        Some(Value::Array(vec![int("1")]))
    );
    assert_eq!(partial("12", Mode::Stable), None);
    assert_eq!(partial("12", Mode::Jiter), Some(int("12")));
    assert_eq!(closed("12").unwrap(), Some(int("12")));
}

#[test]
fn strings_grow_and_hold_back_incomplete_escapes() {
    let object = |v: Value| Some(Value::Object(vec![(b"a".to_vec(), v)]));
    assert_eq!(partial(r#"{"a": "x"#, Mode::Stable), object(s("x")));
    assert_eq!(partial(r#"{"a": ""#, Mode::Stable), object(s("")));
    assert_eq!(partial(r#""ab\u00"#, Mode::Stable), Some(s("ab")));
    assert_eq!(partial(r#""\ud83d"#, Mode::Stable), Some(s("")));
    assert_eq!(partial(r#""\ud83d\ude00"#, Mode::Stable), Some(s("😀")));
    // A lone surrogate is kept, as json.loads keeps it (WTF-8).
    assert_eq!(
        closed(r#""\ud800""#).unwrap(),
        Some(Value::Str(vec![0xed, 0xa0, 0x80]))
    );
}

#[test]
fn code_points_cut_between_fragments_are_held_back() {
    let text = "\"中文\"".as_bytes();
    let (result, value) = parse(&[&text[..2], &text[2..5]], Mode::Stable);
    result.unwrap();
    assert_eq!(value, Some(s("中")));
}

#[test]
fn literals_show_when_complete() {
    assert_eq!(partial("[tr", Mode::Stable), Some(Value::Array(vec![])));
    assert_eq!(
        partial("[true", Mode::Stable),
        Some(Value::Array(vec![Value::Bool(true)]))
    );
    assert_eq!(
        closed("-Infinity").unwrap(),
        Some(Value::Float(f64::NEG_INFINITY))
    );
}

fn error(text: &str) -> (String, u64, u64, u64) {
    match closed(text) {
        Err(Failure::Invalid(e)) => (e.kind.to_string(), e.pos, e.line, e.column),
        other => panic!("expected an error for {text:?}, got {other:?}"),
    }
}

#[test]
fn errors_match_json_loads() {
    let expect = |text: &str, msg: &str, pos: u64| {
        let (got_msg, got_pos, _, _) = error(text);
        assert_eq!((got_msg.as_str(), got_pos), (msg, pos), "{text:?}");
    };
    expect("[1,]", "Expecting value", 3);
    assert_eq!(error("1.x"), ("Extra data".into(), 1, 1, 2));
    assert_eq!(error("\"\\x\""), ("Invalid \\escape".into(), 1, 1, 2));
    assert_eq!(
        error("\"ab\\u12x4\""),
        ("Invalid \\uXXXX escape".into(), 4, 1, 5)
    );
    assert_eq!(
        error("\n\n  [1,\n  x]"),
        ("Expecting value".into(), 10, 4, 3)
    );
    assert_eq!(
        error("\"abc"),
        ("Unterminated string starting at".into(), 0, 1, 1)
    );
    assert_eq!(
        error("{\"a\" 1}"),
        ("Expecting ':' delimiter".into(), 5, 1, 6)
    );
    assert_eq!(error("[\"é\", x]").1, 6);
    expect("-", "Expecting value", 0);
}

#[test]
fn invalid_utf8_is_an_error_with_its_position() {
    let (result, _) = parse(&[b"[\"\xc3\xa9\", \xff]"], Mode::Stable);
    match result {
        Err(Failure::Invalid(e)) => {
            assert_eq!(
                (e.kind.to_string().as_str(), e.pos),
                ("Invalid UTF-8 byte 0xff", 6)
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn deep_nesting_is_limited_without_recursion() {
    let text = "[".repeat(1_000_000);
    let (result, _) = parse(&[text.as_bytes()], Mode::Stable);
    match result {
        Err(Failure::Invalid(e)) => assert_eq!(
            (e.kind.to_string().as_str(), e.pos),
            ("Maximum nesting depth of 1024 exceeded", 1024)
        ),
        other => panic!("{other:?}"),
    }
}

/// The machine's whole state at the start: the fields each step below does not name.
fn start_state() -> DebugState {
    DebugState {
        state: "VALUE",
        number: None,
        depth: 0,
        stack: String::new(),
        in_key: false,
        key: None,
        token_start: None,
        literal: None,
        hex: None,
        hex_value: None,
        high: 0,
        escape_end: None,
        number_len: None,
        number_valid: None,
        line: 1,
        line_start: 0,
        comma: 0,
        bom_skipped: false,
        offset: 0,
    }
}

#[test]
fn the_state_is_exposed_after_every_fragment() {
    // The same table as tests/test_values.py's STATE_STEPS.
    let mut stream = Stream::new(Mode::Stable, 1024, None);
    let mut sink = ValueBuilder::default();
    let start = start_state();
    let in_number = DebugState {
        state: "NUMBER",
        number: Some("INT"),
        depth: 2,
        stack: "{[".into(),
        token_start: Some(7),
        ..start.clone()
    };
    let in_string = DebugState {
        depth: 2,
        stack: "{[".into(),
        token_start: Some(14),
        ..start.clone()
    };
    let after_escape = DebugState {
        depth: 1,
        stack: "{".into(),
        escape_end: Some(22),
        ..start.clone()
    };
    let steps: Vec<(&[u8], DebugState)> = vec![
        (b"", start.clone()),
        (
            b"{\"a\": [1",
            DebugState {
                number_len: Some(1),
                number_valid: Some(1),
                ..in_number.clone()
            },
        ),
        (
            b".5e",
            DebugState {
                number: Some("EXP"),
                number_len: Some(4),
                number_valid: Some(3),
                ..in_number
            },
        ),
        (
            b"3, \"x\\",
            DebugState {
                state: "ESCAPE",
                ..in_string.clone()
            },
        ),
        (
            b"u12",
            DebugState {
                state: "UNICODE",
                hex: Some(2),
                hex_value: Some(0x12),
                ..in_string
            },
        ),
        (
            b"34\"], \"k",
            DebugState {
                state: "STRING",
                in_key: true,
                key: Some(1),
                token_start: Some(26),
                ..after_escape.clone()
            },
        ),
        (
            b"\": tr",
            DebugState {
                state: "LITERAL",
                token_start: Some(31),
                literal: Some("tr"),
                ..after_escape
            },
        ),
        (
            b"ue}",
            DebugState {
                state: "DONE",
                escape_end: Some(22),
                ..start
            },
        ),
    ];
    let mut offset = 0;
    for (chunk, want) in steps {
        stream.feed_bytes(chunk, &mut sink).expect("valid prefix");
        offset += chunk.len() as u64;
        let want = DebugState { offset, ..want };
        assert_eq!(
            stream.debug_state(),
            want,
            "after {:?}",
            String::from_utf8_lossy(chunk)
        );
    }
}

/// What a stream stopping at its document's end read: where it ended (position, line,
/// column), the value, and how closing went.
struct Stopped {
    end: Option<(u64, u64, u64)>,
    value: Option<Value>,
    closed: Result<(), Failure>,
}

/// Feeds `chunks` to a stream stopping at its document's end, then closes it.
fn stopping(chunks: &[&str]) -> Stopped {
    let mut stream = Stream::new(Mode::Stable, 1024, None);
    stream.set_stop_at_end();
    let mut sink = ValueBuilder::default();
    for chunk in chunks {
        stream
            .feed_bytes(chunk.as_bytes(), &mut sink)
            .expect("valid");
    }
    let closed = stream.close(&mut sink);
    Stopped {
        end: stream.end(),
        value: sink.root,
        closed,
    }
}

#[test]
fn a_stream_stopping_at_the_end_of_its_document_reads_nothing_after_it() {
    let object = Some(Value::Object(vec![(b"a".to_vec(), int("1"))]));
    // the first character after the document that is not whitespace: where it ended
    let read = stopping(&["{\"a\": 1}  \n", "x {\"b\""]);
    assert_eq!((read.end, &read.value), (Some((11, 2, 1)), &object));
    assert!(read.closed.is_ok());
    let read = stopping(&["{\"a\":\n 1}  \n", "  x"]);
    assert_eq!(read.end, Some((14, 3, 3)));
    let read = stopping(&["{\"a\": 1}{\"b\": 2}"]);
    assert_eq!((read.end, read.value), (Some((8, 1, 9)), object));
    // a top-level number ends at the character after it, a literal at its last letter
    let read = stopping(&["12", "3 ", "é"]);
    assert_eq!((read.end, read.value), (Some((4, 1, 5)), Some(int("123"))));
    let read = stopping(&["nullnull"]);
    assert_eq!((read.end, read.value), (Some((4, 1, 5)), Some(Value::Null)));
    // no end yet: the document is complete at close, or cut short
    assert_eq!(stopping(&["[1] "]).end, None);
    assert!(stopping(&["[1, "]).closed.is_err());
}

#[test]
fn the_bytes_after_the_end_are_not_the_streams() {
    let mut stream = Stream::new(Mode::Stable, 1024, None);
    stream.set_stop_at_end();
    let mut sink = ValueBuilder::default();
    // an invalid byte, and a character cut short, after the document: not read
    stream.feed_bytes(b"[1] x\xff", &mut sink).unwrap();
    assert_eq!(stream.end(), Some((4, 1, 5)));
    stream.feed_bytes(b"\xc3", &mut sink).unwrap();
    assert!(stream.close(&mut sink).is_ok());
    let mut stream = Stream::new(Mode::Stable, 1024, None);
    stream.set_stop_at_end();
    stream.feed_bytes(b"[1] \xc3", &mut sink).unwrap();
    stream.feed_bytes(b"\xa9", &mut sink).unwrap();
    assert_eq!(stream.end(), Some((4, 1, 5)));
}

#[test]
fn open_depth_counts_the_values_still_arriving_on_the_last_path() {
    let depth = |text: &str, mode: Mode| {
        let mut stream = Stream::new(mode, 1024, None);
        let mut sink = ValueBuilder::default();
        stream.feed_bytes(text.as_bytes(), &mut sink).unwrap();
        stream.open_depth()
    };
    assert_eq!(depth("", Mode::Stable), 0);
    assert_eq!(depth("{\"a\": [1, \"x", Mode::Stable), 3);
    assert_eq!(depth("{\"a\": [1, 2", Mode::Stable), 2); // a number is not shown yet
    assert_eq!(depth("{\"a\": [1, 2", Mode::Jiter), 3); // ... in jiter mode it is
    assert_eq!(depth("{\"a\": [1, -", Mode::Jiter), 2);
    assert_eq!(depth("{\"a\": [1], \"k", Mode::Stable), 1); // a key is not a value
    assert_eq!(depth("\"ab", Mode::Stable), 1);
    assert_eq!(depth("{\"a\": {}}", Mode::Stable), 0);
}

/// The machine and the stream are what every open stream holds (the native engine adds its
/// builder): their fixed size, pinned so that a new field is a choice (#28: memory per open
/// stream; rare state goes in a box).
#[test]
fn open_stream_sizes() {
    use crate::core::machine::Machine;
    use crate::core::stream::Stream;
    assert_eq!(std::mem::size_of::<Machine>(), 160);
    assert_eq!(std::mem::size_of::<Stream>(), 216);
}

/// The positioned events a checking sink gets (`Sink::EVENTS`), one line each; string content
/// one character a line with its position, so that every split of the text gives the same
/// lines (a plain run's characters follow on from its start).
#[derive(Default)]
struct Events(Vec<String>, super::Cursor);

impl super::Sink for Events {
    const EVENTS: bool = true;

    fn cursor(&mut self) -> &mut super::Cursor {
        &mut self.1
    }

    fn begin_container(&mut self, _: bool) -> Result<(), super::Stop> {
        Ok(())
    }
    fn end_container(&mut self) {}
    fn set_key(&mut self, _: super::Str) -> Result<(), super::Stop> {
        Ok(())
    }
    fn string(&mut self, _: super::Str, _: bool) -> Result<(), super::Stop> {
        Ok(())
    }
    fn atom(&mut self, _: super::Atom) -> Result<(), super::Stop> {
        Ok(())
    }
    fn show_tentative(&mut self, _: super::Atom) -> Result<(), super::Stop> {
        Ok(())
    }
    fn hide_tentative(&mut self) -> Result<(), super::Stop> {
        Ok(())
    }

    fn value_begins(&mut self, first: u8, pos: u64) {
        self.0.push(format!("value {} {pos}", first as char));
    }
    fn key_begins(&mut self, pos: u64) {
        self.0.push(format!("key {pos}"));
    }
    fn string_text(&mut self, piece: &[u8], start: u64, plain: bool, _closes: bool) {
        // WTF-8 for a lone surrogate: shown by its bytes
        let text = String::from_utf8(piece.to_vec()).unwrap_or_else(|_| format!("{piece:x?}"));
        if plain {
            for (k, c) in text.chars().enumerate() {
                self.0.push(format!("char {c} {}", start + k as u64));
            }
        } else {
            self.0.push(format!("escape {text} {start}"));
        }
    }
    fn string_ends(&mut self, pos: u64) {
        self.0.push(format!("end string {pos}"));
    }
    fn atom_ends(&mut self, atom: super::Atom, pos: u64) {
        self.0.push(format!("end {atom:?} {pos}"));
    }
    fn container_ends(&mut self, pos: u64) {
        self.0.push(format!("end container {pos}"));
    }
}

fn events(chunks: &[&[u8]]) -> Vec<String> {
    let mut stream = Stream::new(Mode::Stable, 1024, None);
    let mut sink = Events::default();
    for chunk in chunks {
        stream.feed_bytes(chunk, &mut sink).expect("valid JSON");
    }
    stream.close(&mut sink).expect("a complete document");
    sink.0
}

#[test]
fn a_checking_sink_gets_every_token_positioned_in_characters_whatever_the_split() {
    let text = r#"{"é": [1.5, "a\n\u00e9\ud83d\ude00\ud800b\udc00", true,-Infinity], "k": {}}"#;
    let whole = events(&[text.as_bytes()]);
    let expected = [
        "value { 0",
        "key 1",
        "char é 2",
        "end string 3",
        "value [ 6",
        "value 1 7",
        "end Float(\"1.5\") 10",
        "value \" 12",
        "char a 13",
        "escape \n 15",
        "escape é 21",
        "escape 😀 33",
        "escape [ed, a0, 80] 39",
        "char b 40",
        "escape [ed, b0, 80] 46",
        "end string 47",
        "value t 50",
        "end True 53",
        "value - 55",
        "end NegInfinity 63",
        "end container 64",
        "key 67",
        "char k 68",
        "end string 69",
        "value { 72",
        "end container 73",
        "end container 74",
    ];
    assert_eq!(whole, expected);
    let bytes = text.as_bytes();
    for cut in 1..bytes.len() {
        assert_eq!(
            events(&[&bytes[..cut], &bytes[cut..]]),
            whole,
            "cut at byte {cut}"
        );
    }
    let singles: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(events(&singles), whole);
    // a root number ends with the stream
    assert_eq!(events(&[b"1", b"2"]), ["value 1 0", "end Int(\"12\") 2"]);
}

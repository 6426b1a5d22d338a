//! The core checker without Python, fed by the machine's events: a node table built by hand,
//! an oracle that is never asked (these schemas need none), the violation's parts as the
//! Python layer receives them.
//! The twin and the Python-facing answers are compared in tests/schema/.

use super::checker::{AtomText, Fail, Failure, Kind, Oracle, Raised, Seg, Shown};
use super::node::{Bound, Enum, Node, ARRAY, NUMBER, STRING};
use super::Checker;
use crate::core::{Atom, Cursor, Mode, Sink, Stop, Str, Stream};

struct NoOracle;

impl Oracle for NoOracle {
    fn pattern(&mut self, _: usize, _: &[u8]) -> Result<bool, Raised> {
        unreachable!("no pattern here")
    }
    fn pattern_property(&mut self, _: usize, _: usize, _: &[u8]) -> Result<bool, Raised> {
        unreachable!("no patternProperties here")
    }
    fn atom(&mut self, _: usize, _: AtomText) -> Result<Failure, Raised> {
        unreachable!("every number here is compared natively")
    }
    fn container(&mut self, _: usize, _: &[Seg]) -> Result<Failure, Raised> {
        unreachable!("no uniqueItems or container enum here")
    }
}

/// `{"type": "array", "items": {"enum": ["C", "F"]}}` and
/// `{"type": "array", "items": {"type": "number", "maximum": 10}}`.
fn table(item: Node) -> Vec<Node> {
    let root = Node {
        types: Some(ARRAY),
        types_shown: "array".into(),
        items: Some(1),
        has_array_keywords: true,
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    };
    vec![root, item]
}

fn units() -> Node {
    Node {
        enumeration: Some(Enum {
            is_const: false,
            kinds: STRING,
            strings: vec![b"C".to_vec(), b"F".to_vec()],
            scalars: vec![],
            native: true,
            shown: "'C', 'F'".into(),
        }),
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    }
}

/// A sink that builds nothing and hands the machine's events to the checker, as the Python
/// layer's `CheckedSink` does (it keeps the first failure; the machine reads on).
struct Checking {
    checker: Checker,
    failure: Option<Fail>,
    cursor: Cursor,
}

impl Checking {
    fn event(&mut self, run: impl FnOnce(&mut Checker) -> Result<(), Fail>) {
        if self.failure.is_none() {
            self.failure = run(&mut self.checker).err();
        }
    }
}

impl Sink for Checking {
    const EVENTS: bool = true;

    fn cursor(&mut self) -> &mut Cursor {
        &mut self.cursor
    }

    fn begin_container(&mut self, _: bool) -> Result<(), Stop> {
        Ok(())
    }
    fn end_container(&mut self) {}
    fn set_key(&mut self, _: Str) -> Result<(), Stop> {
        Ok(())
    }
    fn string(&mut self, _: Str, _: bool) -> Result<(), Stop> {
        Ok(())
    }
    fn atom(&mut self, _: Atom) -> Result<(), Stop> {
        Ok(())
    }
    fn show_tentative(&mut self, _: Atom) -> Result<(), Stop> {
        Ok(())
    }
    fn hide_tentative(&mut self) -> Result<(), Stop> {
        Ok(())
    }

    fn value_begins(&mut self, first: u8, pos: u64) {
        let (kind, negative) = Kind::of_first(first);
        self.event(|c| c.begin(kind, pos, negative, &mut NoOracle));
    }
    fn key_begins(&mut self, pos: u64) {
        self.event(|c| c.begin_key(pos));
    }
    fn string_text(&mut self, piece: &[u8], start: u64, plain: bool, closes: bool) {
        self.event(|c| c.text(piece, start, plain, closes));
    }
    fn string_ends(&mut self, pos: u64) {
        self.event(|c| c.end_string(pos, &mut NoOracle));
    }
    fn atom_ends(&mut self, atom: Atom, pos: u64) {
        self.event(|c| c.end_atom(AtomText::of(atom), pos, &mut NoOracle));
    }
    fn container_ends(&mut self, pos: u64) {
        self.event(|c| c.end_container(pos, &mut NoOracle));
    }
}

/// The check of `pieces` read by a stream, fragment by fragment, then closed.
fn run(nodes: Vec<Node>, pieces: &[&str]) -> Result<(), Fail> {
    let mut sink = Checking {
        checker: Checker::new(nodes),
        failure: None,
        cursor: Cursor::default(),
    };
    let mut stream = Stream::new(Mode::Stable, 100, None);
    for piece in pieces {
        stream
            .feed_text(piece.as_bytes(), false, &mut sink)
            .expect("valid JSON");
        if let Some(failure) = sink.failure.take() {
            return Err(failure);
        }
    }
    stream.close(&mut sink).expect("a complete document");
    sink.failure.map_or(Ok(()), Err)
}

fn violation(result: Result<(), Fail>) -> (String, u64, String, Option<Shown>, String) {
    match result {
        Err(Fail::Violation(v)) => (
            String::from_utf8(v.path).unwrap(),
            v.pos,
            v.keyword,
            v.shown,
            String::from_utf8(v.before).unwrap() + &String::from_utf8(v.after).unwrap(),
        ),
        other => panic!("expected a violation, got {other:?}"),
    }
}

#[test]
fn an_enum_string_fails_at_its_first_impossible_character() {
    let (path, pos, keyword, shown, text) =
        violation(run(table(units()), &["[\"C\", \"ke", "lvin\"]"]));
    assert_eq!((path.as_str(), pos, keyword.as_str()), ("/1", 7, "enum"));
    assert_eq!(
        shown,
        Some(Shown::Str {
            text: b"ke".to_vec(),
            dots: true
        })
    );
    assert_eq!(text, "/1:  is not one of 'C', 'F'"); // the shown value goes between
    assert!(run(table(units()), &["[\"C\",", " \"F\"]"]).is_ok());
}

#[test]
fn a_number_is_settled_at_the_character_after_it_or_at_the_end() {
    let bounded = Node {
        types: Some(NUMBER),
        types_shown: "number".into(),
        maximum: Some(Bound::Int(10)),
        maximum_shown: "10".into(),
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    };
    let (path, pos, keyword, shown, _) = violation(run(table(bounded.clone()), &["[1, 10.5]"]));
    assert_eq!((path.as_str(), pos, keyword.as_str()), ("/1", 8, "maximum"));
    assert_eq!(shown, Some(Shown::Atom("10.5".into())));
    assert!(run(table(bounded.clone()), &["[1, 1", "0]"]).is_ok());
    // a root number completes only when the stream ends
    let (_, pos, keyword, _, _) = violation(run(vec![bounded], &["1", "1"]));
    assert_eq!((pos, keyword.as_str()), (2, "maximum"));
}

#[test]
fn a_wrong_type_fails_at_the_values_first_character() {
    let (path, pos, keyword, _, text) = violation(run(table(units()), &["[\"C\", {"]));
    assert_eq!((path.as_str(), pos, keyword.as_str()), ("/1", 6, "enum"));
    assert_eq!(text, "/1: a object is not one of 'C', 'F'");
}

/// `{"type": "array", "items": {"if": {"type": "string"}, "then": {"maxLength": 2}}}`, with
/// `"else": {"type": "number"}` when `with_else`.
fn conditional(with_else: bool) -> Vec<Node> {
    let mut nodes = table(Node {
        if_: Some(2),
        then: Some(3),
        else_: with_else.then_some(4),
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    });
    let string = Node {
        types: Some(STRING),
        types_shown: "string".into(),
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    };
    let short = Node {
        max_length: Some(2),
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    };
    let number = Node {
        types: Some(NUMBER),
        types_shown: "number".into(),
        numbers_native: true,
        min_contains: 1,
        ..Node::default()
    };
    nodes.extend([string, short, number]);
    nodes
}

#[test]
fn then_fails_when_if_is_known_to_hold_and_else_as_soon_as_if_fails() {
    assert!(run(conditional(true), &["[\"ab\", 3]"]).is_ok());
    // `then` fails at the `c`, but `if` is known to hold only at the closing quote
    let (path, pos, keyword, _, text) = violation(run(conditional(false), &["[\"abc\"]"]));
    assert_eq!((path.as_str(), pos, keyword.as_str()), ("/0", 5, "then"));
    assert_eq!(
        text,
        "/0: valid under 'if' but not under 'then': /0:  is longer than 2 characters"
    );
    // with `else` already failed at the quote, the `c` is certain
    let (path, pos, keyword, _, _) = violation(run(conditional(true), &["[\"abc\"]"]));
    assert_eq!((path.as_str(), pos, keyword.as_str()), ("/0", 4, "if"));
    // `if` and `else` both fail at the `[`: certain there
    let (path, pos, keyword, _, text) = violation(run(conditional(true), &["[1, [", "]]"]));
    assert_eq!((path.as_str(), pos, keyword.as_str()), ("/1", 4, "else"));
    assert_eq!(
        text,
        "/1: not valid under 'if' nor under 'else': /1: expected number, got an array"
    );
}

//! The native partialArgs writer against hand-worked pieces (what the twin writes for them);
//! `tests/toolcalls/test_partial_args_native.py` compares the two on random pieces.

use super::partial_args::{PartialArgs, Written};
use super::pieces::plain_path;
use super::repr::{float_repr, int_repr};
use super::{ChunkMatch, Hole};

fn text(out: Written) -> String {
    match out {
        Written::Text(text) => text,
        other => panic!("{other:?}"),
    }
}

/// Each array's text in turn, then the end, all joined.
fn written(arrays: &[&str]) -> String {
    let mut writer = PartialArgs::new();
    let mut out = String::new();
    for array in arrays {
        out += &text(writer.feed_json(array.as_bytes()));
    }
    out + &writer.end()
}

#[test]
fn pieces_write_the_text_of_json_dumps() {
    let got = written(&[
        r#"[{"jsonPath":"$.recipe.name","stringValue":"Lasa","willContinue":true}]"#,
        r#"[{"jsonPath":"$.recipe.name","stringValue":"gna \"x\"\n"}]"#,
        r#"[{"jsonPath":"$.recipe.steps[0]","stringValue":"Boil"}]"#,
        r#"[{"jsonPath":"$.recipe.steps[1]","stringValue":"é😀\u0001"}]"#,
        r#"[{"jsonPath":"$.recipe.serves","numberValue":4},
            {"jsonPath":"$.recipe.ok","boolValue":false}]"#
            .replace('\n', "")
            .as_str(),
        r#"[ { "jsonPath" : "$.top" , "nullValue" : "NULL_VALUE" } ]"#,
        r#"[{"jsonPath":"$.n[0][0]","numberValue":1.5e-7},{"jsonPath":"$.n[0][1]","numberValue":-0}]"#,
        r#"[{"jsonPath":"$.n[1]","numberValue":100E-2,"willContinue":false}]"#,
        r#"[]"#,
        r#"[{"jsonPath":"$.s","stringValue":"open","willContinue":true}]"#,
    ]);
    let want = concat!(
        r#"{"recipe": {"name": "Lasagna \"x\"\n", "steps": ["Boil", "é😀\u0001"], "#,
        r#""serves": 4, "ok": false}, "top": null, "n": [[1.5e-07, 0], 1.0], "s": "open"}"#
    );
    assert_eq!(got, want);
}

#[test]
fn a_string_continues_until_will_continue_is_not_true() {
    let got = written(&[
        r#"[{"jsonPath":"$.a","stringValue":"x","willContinue":true}]"#,
        r#"[{"jsonPath":"$.a","stringValue":null,"willContinue":true}]"#,
        r#"[{"jsonPath":"$.a","stringValue":"y","willContinue":null}]"#,
        r#"[{"jsonPath":"$.b","willContinue":true}]"#, // no value: nothing
        r#"[{"jsonPath":"$.b","stringValue":"z","willContinue":true}]"#,
        r#"[{"jsonPath":"$.c[0]","numberValue":1}]"#, // closes the open string
    ]);
    assert_eq!(got, r#"{"a": "xy", "b": "z", "c": [1]}"#);
}

#[test]
fn nothing_at_all_is_an_empty_object() {
    assert_eq!(written(&[]), "{}");
    assert_eq!(written(&["[]"]), "{}");
}

fn error(arrays: &[&str]) -> String {
    let mut writer = PartialArgs::new();
    for array in arrays {
        match writer.feed_json(array.as_bytes()) {
            Written::Text(_) => {}
            Written::Invalid(message) => return message,
            Written::LongWay => panic!("long way for {array}"),
        }
    }
    panic!("no error");
}

#[test]
fn out_of_order_pieces_are_the_twins_errors() {
    let n = |path: &str| format!(r#"[{{"jsonPath":"{path}","numberValue":1}}]"#);
    assert_eq!(
        error(&[&n("$[0]")]),
        "$[0]: the arguments are an object, not an array"
    );
    assert_eq!(
        error(&[&n("$.a[1]")]),
        "$.a[1]: element 1 cannot follow 0 element(s) already written"
    );
    assert_eq!(
        error(&[&n("$.a[0]"), &n("$.a.b")]),
        "$.a.b: element b cannot follow 1 element(s) already written"
    );
    assert_eq!(
        error(&[&n("$.a.b"), &n("$.a[0]")]),
        "$.a[0]: an index where an object is open"
    );
    assert_eq!(
        error(&[&n("$.a"), &n("$.a")]),
        "$.a: the key 'a' was already written"
    );
    assert_eq!(
        error(&[&n("$.a.x"), &n("$.b"), &n("$.a.y")]),
        "$.a.y: the key 'a' was already written"
    );
}

#[test]
fn what_the_twin_must_decide_is_the_long_way_and_changes_nothing() {
    for array in [
        r#"[{"json_path":"$.a","stringValue":"x"}]"#, // snake_case
        r#"[{"jsonPath":"$.a","string_value":"x"}]"#, // snake_case
        r#"[{"jsonPath":"$['a b']","stringValue":"x"}]"#, // a quoted step
        r#"[{"jsonPath":"$.1a","stringValue":"x"}]"#, // not an identifier
        r#"[{"jsonPath":"$","stringValue":"x"}]"#,    // the arguments themselves
        r#"[{"jsonPath":"a","stringValue":"x"}]"#,    // no $
        r#"[{"jsonPath":"$.a[99999999999999999999]","numberValue":1}]"#,
        r#"[{"jsonPath":"$.\u0061","stringValue":"x"}]"#, // an escape in the path
        r#"[{"jsonPath":"$.a","stringValue":"\ud800"}]"#, // a lone surrogate
        r#"[{"jsonPath":"$.a","numberValue":NaN}]"#,
        r#"[{"jsonPath":"$.a","numberValue":1e400}]"#, // infinity
        r#"[{"jsonPath":"$.a","numberValue":"1"}]"#,
        r#"[{"jsonPath":"$.a","numberValue":01}]"#,
        r#"[{"jsonPath":"$.a","numberValue":1.}]"#,
        r#"[{"jsonPath":"$.a","boolValue":1}]"#,
        r#"[{"jsonPath":"$.a","nullValue":{}}]"#,
        r#"[{"jsonPath":"$.a","stringValue":"x","stringValue":"y"}]"#, // a repeated key
        r#"[{"jsonPath":"$.a","stringValue":"x","numberValue":1}]"#,   // two values
        r#"[{"jsonPath":"$.a","stringValue":"x","extra":1}]"#,
        r#"[{"jsonPath":"$.a","stringValue":"x","willContinue":1}]"#,
        r#"[{"stringValue":"x"}]"#,
        r#"[{}]"#,
        r#"[1]"#,
        "[\n]",
        r#"[{"jsonPath":"$.a","stringValue":"a	b"}]"#, // a control character
        r#"[{"jsonPath":"$.a","stringValue":"x"},]"#,
        r#"[{"jsonPath":"$.a","stringValue":"x"}"#,
        r#"[{"jsonPath":"$.a","stringValue":"x"}] "#, // more after the array
        r#"{"jsonPath":"$.a","stringValue":"x"}"#,
    ] {
        let mut writer = PartialArgs::new();
        assert_eq!(
            writer.feed_json(array.as_bytes()),
            Written::LongWay,
            "{array}"
        );
        assert_eq!(writer.state, PartialArgs::new().state, "{array}");
    }
    let huge = format!(
        r#"[{{"jsonPath":"$.a","numberValue":{}}}]"#,
        "9".repeat(641)
    );
    assert_eq!(
        PartialArgs::new().feed_json(huge.as_bytes()),
        Written::LongWay
    );
    let big = format!(
        r#"[{{"jsonPath":"$.a","numberValue":-{}}}]"#,
        "9".repeat(640)
    );
    let want = format!(r#"{{"a": -{}"#, "9".repeat(640));
    assert_eq!(text(PartialArgs::new().feed_json(big.as_bytes())), want);
}

#[test]
fn plain_paths_are_the_twins_plain_paths() {
    use super::pieces::Step::{Index, Name};
    assert_eq!(
        plain_path("$.a_1.B[007][0]"),
        Some(vec![Name("a_1"), Name("B"), Index(7), Index(0)])
    );
    for bad in [
        "$", "$.", "$..a", "$[]", "$[1", "$[a]", "$.a-b", "$.é", "$[١]", "$a", "",
    ] {
        assert_eq!(plain_path(bad), None, "{bad}");
    }
}

#[test]
fn numbers_print_as_python_repr() {
    for (x, want) in [
        (1.5, "1.5"),
        (15.0, "15.0"),
        (0.1, "0.1"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (1e16, "1e+16"),
        (1e15, "1000000000000000.0"),
        (9999999999999998.0, "9999999999999998.0"),
        (123456789012345680.0, "1.2345678901234568e+17"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1.5e-7, "1.5e-07"),
        (-2.5e300, "-2.5e+300"),
        (5e-324, "5e-324"),
        (f64::MAX, "1.7976931348623157e+308"),
        (1.0 / 3.0, "0.3333333333333333"),
        (2.0 / 3.0, "0.6666666666666666"),
    ] {
        assert_eq!(float_repr(x).as_deref(), Some(want), "{x:e}");
    }
    // halfway between two shortest candidates: dtoa picks .2 here, 063 for 2^-24
    assert_eq!(float_repr(-1743746592103460.0 - 0.25), None); // exact: ULP 0.25 there
    assert_eq!(float_repr(2f64.powi(-24)), None);
    assert_eq!(float_repr(0.25).as_deref(), Some("0.25")); // exact, no tie
    assert_eq!(float_repr(f64::INFINITY), None);
    assert_eq!(float_repr(f64::NAN), None);
    assert_eq!(int_repr("-0"), "0");
    assert_eq!(int_repr("-10"), "-10");
}

#[test]
fn a_chunk_framed_as_the_last_one_is_written_in_one_pass() {
    let frame = ChunkMatch::new(
        b"data: {\"p\":",
        vec![(Hole::Value, b",\"w\":true}\n\n".to_vec())],
    );
    let mut writer = PartialArgs::new();
    let chunk = b"data: {\"p\":[{\"jsonPath\":\"$.a\",\"numberValue\":1}],\"w\":true}\n\n";
    assert_eq!(
        writer.feed_chunk(&frame, chunk),
        Written::Text("{\"a\": 1".into())
    );
    let before = writer.state.clone();
    for other in [
        &b"data: {\"p\":[{\"jsonPath\":\"$.b\",\"numberValue\":1}],\"w\":false}\n\n"[..],
        b"data: {\"q\":[{\"jsonPath\":\"$.b\",\"numberValue\":1}],\"w\":true}\n\n",
        b"data: {\"p\":[{\"jsonPath\":\"$.b\",\"stringValue\":\"\xff\"}],\"w\":true}\n\n",
        b"data: {\"p\":[{\"jsonPath\":\"$.b\",\"numberValue\":1}],\"w\":true}\n\n\n",
    ] {
        assert_eq!(writer.feed_chunk(&frame, other), Written::LongWay);
        assert_eq!(writer.state, before);
    }
}

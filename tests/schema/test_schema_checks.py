"""Each early check of the issue, with its exact path, position, keyword and message; the
typed view; refusals; both backends."""

from __future__ import annotations

import pytest
from _schema_support import run

import jsondrip
from jsondrip import MISSING, Schema, SchemaViolation
from jsondrip.schema import Progress, UnsupportedSchema

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "maxLength": 12},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
        "units": {"type": "array", "items": {"enum": ["C", "F"]}, "maxItems": 2},
        "mode": {"const": "daily"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "tags": {"type": "array", "uniqueItems": True},
    },
    "required": ["city", "days"],
    "additionalProperties": False,
}


def violation_of(text: str, backend: str, schema: object = WEATHER) -> SchemaViolation:
    found, _ = run(Schema(schema), [text], backend)
    assert found is not None, text
    return found


@pytest.mark.parametrize(
    ("text", "path", "pos", "keyword", "message"),
    [
        # A string that is no prefix of any member: certain at its first wrong character.
        (
            '{"units": ["C", "kelvin"]}',
            "/units/1",
            17,
            "enum",
            "/units/1: 'kelvin' is not one of 'C', 'F'",
        ),
        ('{"units": ["C", "Ck', "/units/1", 18, "enum", "/units/1: 'Ck'... is not one of 'C', 'F'"),
        # The wrong type: certain at the value's first character.
        ('{"days": "3"', "/days", 9, "type", "/days: expected integer, got a string"),
        ('{"city": [', "/city", 9, "type", "/city: expected string, got an array"),
        # A key no property allows: certain once no allowed name starts with what arrived.
        (
            '{"citx": 1}',
            "",
            5,
            "additionalProperties",
            "(root): additional properties are not allowed"
            " ('citx' is not one of 'city', 'days', 'units', 'mode', 'code', 'tags')",
        ),
        (
            '{"cit": 1}',
            "",
            5,
            "additionalProperties",
            "(root): additional properties are not allowed ('cit' was unexpected)",
        ),
        # Numbers: the sign already rules out minimum 1; a complete number out of range.
        (
            '{"days": -',
            "/days",
            9,
            "minimum",
            "/days: a negative number is less than the minimum of 1",
        ),
        ('{"days": 15,', "/days", 11, "maximum", "/days: 15 is greater than the maximum of 14"),
        ('{"days": 2.5}', "/days", 12, "type", "/days: 2.5 is not of type 'integer'"),
        # A closing brace with a required property missing.
        ('{"city": "Paris"}', "", 16, "required", "(root): 'days' is a required property"),
        # An array past maxItems: certain at the extra element's first character.
        (
            '{"units": ["C", "F", "C"',
            "/units",
            21,
            "maxItems",
            "/units: the array has more than 2 items",
        ),
        # const, and a string past maxLength at the character that passes it.
        ('{"mode": "weekly"}', "/mode", 10, "const", "/mode: 'weekly' is not one of 'daily'"),
        (
            '{"city": "Llanfairpwllgwyngyll',
            "/city",
            22,
            "maxLength",
            "/city: 'Llanfairpwllgwyngyll'... is longer than 12 characters",
        ),
        # Keywords checked when the value completes.
        ('{"code": "PARIS"}', "/code", 15, "pattern", "/code: 'PARIS' does not match '^[A-Z]{3}$'"),
        (
            '{"tags": [1, 2, 1]}',
            "/tags",
            17,
            "uniqueItems",
            "/tags: the array has non-unique elements",
        ),
    ],
)
def test_each_violation_where_it_becomes_certain(
    text: str, path: str, pos: int, keyword: str, message: str, backend: str
) -> None:
    violation = violation_of(text, backend)
    assert (violation.path, violation.pos, violation.keyword, str(violation)) == (
        path,
        pos,
        keyword,
        message,
    )
    assert isinstance(violation, ValueError) and not isinstance(violation, jsondrip.JSONDecodeError)
    # Fed a character at a time, it is reported at the same character, not before it.
    single, fed = run(Schema(WEATHER), text, backend)
    assert single is not None and (single.path, single.pos, single.keyword) == (path, pos, keyword)
    assert fed - 1 == min(pos, len(text) - 1) or fed > len(text)


def test_a_discriminator_settles_a_union_at_its_first_wrong_character(backend: str) -> None:
    shape = {
        "oneOf": [
            {
                "type": "object",
                "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                "required": ["kind", "r"],
            },
            {
                "type": "object",
                "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                "required": ["kind", "side"],
            },
        ]
    }
    violation = violation_of('{"kind": "triangle", "sides": 3}', backend, shape)
    assert (violation.path, violation.pos, violation.keyword) == ("", 10, "oneOf")
    assert str(violation).startswith(
        "(root): not valid under any of the given schemas (oneOf); the last ruled out: /kind: "
    )
    assert run(Schema(shape), ['{"kind": "square", "side": 2}'], backend)[0] is None


def test_after_a_violation_every_call_raises_it_again(backend: str) -> None:
    """As docs/schema.md says, `value` and `progress()` included (#30 item 6)."""
    parser = jsondrip.Parser(schema=WEATHER, backend=backend)
    with pytest.raises(SchemaViolation) as first:
        parser.feed('{"days": 0')
        parser.feed(",")
    calls = (
        lambda: parser.feed("1"),
        lambda: parser.feed_changes("1"),
        lambda: parser.value,  # #30 item 6: the value broke the schema, it is not shown
        lambda: parser.progress("/days"),  # #30 item 6
        lambda: parser.progress(),
        parser.close,
        parser.close_changes,
    )
    for call in calls:
        with pytest.raises(SchemaViolation) as again:
            call()
        assert (again.value.path, again.value.pos, str(again.value)) == (
            first.value.path,
            first.value.pos,
            str(first.value),
        )
        assert again.value is not first.value  # a fresh copy: no traceback grows


def test_a_violation_at_the_end_is_sticky_too(backend: str) -> None:
    """#30 item 6: a keyword settled only by `close()` (a top-level number's `maximum`: a
    digit could still follow) fails the parser too."""
    parser = jsondrip.Parser(schema={"type": "integer", "maximum": 5}, backend=backend)
    assert parser.feed("12") is MISSING
    message = "12 is greater than the maximum of 5"
    with pytest.raises(SchemaViolation, match=message):
        parser.close()
    for call in (lambda: parser.value, lambda: parser.progress(), parser.close):
        with pytest.raises(SchemaViolation, match=message):
            call()


def test_after_a_decode_error_the_value_stays_readable(backend: str) -> None:
    """A `JSONDecodeError` is sticky for feed, close and progress; `value` keeps what was
    valid (the text never reached it), as without a schema."""
    parser = jsondrip.Parser(schema=WEATHER, backend=backend)
    parser.feed('{"city": "Oslo", ')
    with pytest.raises(jsondrip.JSONDecodeError):
        parser.feed("}")
    assert parser.value == {"city": "Oslo"}
    for call in (lambda: parser.feed("1"), lambda: parser.progress("/city"), parser.close):
        with pytest.raises(jsondrip.JSONDecodeError):
            call()


@pytest.mark.parametrize("chunk", ["[1, x", b"[1, x", '[1, "a" 2'])
def test_a_syntax_error_in_the_same_fragment_comes_before_a_violation(
    backend: str, chunk: str | bytes
) -> None:
    """The machine reads the whole fragment before a violation in it is raised, so the text's
    own error wins, as `json` reports it; a fragment that stops before it raises the
    violation, where it is certain."""
    schema = Schema({"type": "array", "items": {"type": "string"}})
    with pytest.raises(jsondrip.JSONDecodeError) as error:
        jsondrip.Parser(schema=schema, backend=backend).feed(chunk)
    assert not isinstance(error.value, SchemaViolation)
    assert error.value.pos == (4 if "x" in str(chunk) else 8)
    with pytest.raises(SchemaViolation) as violation:
        jsondrip.Parser(schema=schema, backend=backend).feed(chunk[:4])
    assert (violation.value.pos, violation.value.path) == (1, "/0")


def test_bytes_and_changes_give_the_same_answer(backend: str) -> None:
    text = '{"city": "Zürich", "units": ["C", "kelvin"]}'
    data = text.encode()
    parser = jsondrip.Parser(schema=WEATHER, backend=backend)
    with pytest.raises(SchemaViolation) as caught:
        for i in range(len(data)):
            parser.feed_changes(data[i : i + 1])
    assert (caught.value.path, caught.value.pos) == ("/units/1", text.index("kelvin"))


def test_a_valid_stream_gives_its_value(backend: str) -> None:
    parser = jsondrip.Parser(schema=WEATHER, backend=backend)
    text = '{"units": ["F"], "days": 3, "city": "Oslo", "tags": [1, "1"], "code": "OSL"}'
    for ch in text:
        parser.feed(ch)
    assert parser.close() == {
        "units": ["F"],
        "days": 3,
        "city": "Oslo",
        "tags": [1, "1"],
        "code": "OSL",
    }


def test_progress_says_missing_arriving_or_final(backend: str) -> None:
    parser = jsondrip.Parser(
        schema={
            "type": "object",
            "properties": {"unit": {"enum": ["Celsius", "Fahrenheit", "Kelvin"]}},
        },
        backend=backend,
    )
    parser.feed('{"days": 3, "unit": "')
    assert parser.progress("/days") == ("final", 3, None)
    assert parser.progress("/unit") == ("arriving", "", ["Celsius", "Fahrenheit", "Kelvin"])
    assert parser.progress("/city") == ("missing", MISSING, None)
    assert parser.progress("").state == "arriving"
    parser.feed("C")
    assert parser.progress("/unit").candidates == ["Celsius"]
    parser.feed('elsius"}')
    assert parser.progress("/unit") == ("final", "Celsius", None)
    assert parser.progress("").state == "final"
    with pytest.raises(ValueError, match="JSON Pointer"):
        parser.progress("unit")
    # the path by keyword or left out (the root), as the signature says; one path at most
    assert parser.progress(path="/unit") == parser.progress("/unit")
    assert (
        parser.progress() == parser.progress("") == ("final", {"days": 3, "unit": "Celsius"}, None)
    )
    assert type(parser.progress()) is type(parser.progress("/unit")) is Progress
    with pytest.raises(TypeError):
        parser.progress("/unit", "/days")  # type: ignore[call-arg]


@pytest.mark.parametrize(("path", "kind"), [(0, "int"), (b"/unit", "bytes"), (["unit"], "list")])
def test_progress_refuses_a_path_that_is_not_a_str(backend: str, path: object, kind: str) -> None:
    parser = jsondrip.Parser(schema={"properties": {"unit": {"enum": ["C", "F"]}}}, backend=backend)
    parser.feed('{"unit": "C')
    assert parser.progress("/unit").state == "arriving"  # a cached path first: still checked
    message = f"progress() takes a str path (a JSON Pointer such as '/records/0'), not {kind}"
    with pytest.raises(TypeError) as refused:
        parser.progress(path)  # type: ignore[arg-type]
    assert str(refused.value) == message
    assert parser.progress(None) == parser.progress("")  # type: ignore[arg-type]  # the root
    assert parser.progress("/unit") == ("arriving", "C", ["C"])


def test_a_number_is_arriving_until_its_end_is_certain(backend: str) -> None:
    parser = jsondrip.Parser(schema={"type": "array"}, backend=backend)
    parser.feed("[12")
    assert parser.progress("/0").state == "arriving"
    parser.feed("]")
    assert parser.progress("/0") == ("final", 12, None)


@pytest.mark.parametrize(
    ("schema", "named"),
    [
        ({"$recursiveRef": "#"}, "'$recursiveRef'"),
        ({"properties": {"a": {"dependencies": {"b": ["c"]}}}}, "'dependencies' at #/properties/a"),
        ({"$ref": "https://example.com/schema.json"}, "$ref 'https://example.com/schema.json'"),
        (
            {"$id": "https://example.com/a/", "properties": {"b": {"$ref": "b.json#/x"}}},
            "$ref 'b.json#/x' at #/properties/b: it names 'https://example.com/a/b.json'",
        ),
        ({"$dynamicRef": "https://example.com/s#meta"}, "$dynamicRef 'https://example.com/s#meta'"),
        ({"items": [{"type": "string"}]}, "'items' as an array"),
        ({"pattern": "\\p{L}"}, "pattern at #/pattern"),
    ],
)
def test_unsupported_keywords_are_refused_by_name(schema: object, named: str) -> None:
    with pytest.raises(UnsupportedSchema) as refused:
        Schema(schema)
    assert named in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_annotations_and_unknown_words_are_ignored_as_jsonschema_ignores_them(backend: str) -> None:
    schema = {
        "title": "t",
        "description": "d",
        "format": "email",
        "x-extra": 1,
        "discriminator": {},
        "type": "string",
    }
    assert run(Schema(schema), ['"not an email"'], backend)[0] is None


def test_a_recursive_schema_through_defs(backend: str) -> None:
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    }
    assert run(Schema(tree), ['{"children": [{"children": []}]}'], backend)[0] is None
    violation = violation_of('{"children": [{"children": [{"name": 1}]}]}', backend, tree)
    assert (violation.path, violation.pos, violation.keyword) == (
        "/children/0/children/0",
        30,
        "additionalProperties",
    )


def test_jiter_mode_reports_the_same_violations(backend: str) -> None:
    for text in ('{"days": 15, "city": "x"}', '{"units": ["C", "kelvin"]}', '{"city": "Paris"}'):
        stable, _ = run(Schema(WEATHER), text, backend)
        parser = jsondrip.Parser(schema=WEATHER, backend=backend, mode="jiter")
        with pytest.raises(SchemaViolation) as jiter:
            for ch in text:
                parser.feed(ch)
            parser.close()
        assert stable is not None
        assert (jiter.value.path, jiter.value.pos, jiter.value.keyword) == (
            stable.path,
            stable.pos,
            stable.keyword,
        )


def test_a_second_thread_is_refused_before_anything_is_read(backend: str) -> None:
    if backend == "native":
        pytest.skip(
            "the native engine reads and checks in one call: its reentrancy flag refuses a "
            "second thread (tests/hostile/test_concurrency.py)"
        )
    parser = jsondrip.Parser(schema=WEATHER, backend=backend)
    parser.feed('{"city": "Os')
    token = parser._engine.token.pop()  # as another thread inside feed() would hold it
    for call in (lambda: parser.feed('lo"'), lambda: parser.feed_changes('lo"'), parser.close):
        with pytest.raises(RuntimeError, match="another thread"):
            call()
    parser._engine.token.append(token)
    parser.feed('lo", "days": 2}')  # nothing was lost or read twice
    assert parser.close() == {"city": "Oslo", "days": 2}


def test_close_changes_checks_what_only_the_end_settles(backend: str) -> None:
    parser = jsondrip.Parser(schema={"type": "integer", "minimum": 5}, backend=backend)
    assert parser.feed_changes("3") == []
    with pytest.raises(SchemaViolation) as caught:
        parser.close_changes()
    assert (caught.value.path, caught.value.pos, caught.value.keyword) == ("", 1, "minimum")
    good = jsondrip.Parser(schema={"type": "integer", "minimum": 5}, backend=backend)
    good.feed_changes("7")
    assert good.close_changes() == [("add", "", 7)]


def test_parsers_of_one_schema_share_its_table_and_check_apart() -> None:
    """A schema's table is converted for the native checker once (`Schema.native_table()` keeps
    it) and every parser of that schema shares it: interleaved streams still keep their own
    frames, string filters and failures."""
    from conftest import skip_unless_native

    skip_unless_native()
    schema = Schema(
        {
            "type": "object",
            # not in their bytes' order: candidates come in the schema's
            "properties": {"mood": {"enum": ["curious", "calm", "cross"]}},
            "additionalProperties": False,
        }
    )
    table = schema.native_table()
    assert schema.native_table() is table
    bad = jsondrip.Parser(schema=schema, backend="native")
    good = jsondrip.Parser(schema=schema, backend="native")
    assert schema.native_table() is table
    good.feed('{"mood": "c')
    bad.feed('{"mo')
    assert good.progress("/mood").candidates == ["curious", "calm", "cross"]
    good.feed("r")
    with pytest.raises(SchemaViolation) as caught:
        bad.feed('od": "calm", "x')
    assert caught.value.keyword == "additionalProperties"
    assert good.progress("/mood").candidates == ["cross"]
    assert good.feed('oss"}') == {"mood": "cross"}
    assert good.close() == {"mood": "cross"}

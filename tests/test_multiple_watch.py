"""`Parser(multiple=True)` and `Parser(watch=...)` / `.completed` (issue 26 items 2 and 3):
several documents in one stream as one virtual array, and the values completed by each
feed, on both backends, whatever the cuts; `Engine.end` and `Engine.open_depth`, the two
contract operations they stand on."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jsondrip import (
    IncompleteJSONError,
    JSONDecodeError,
    Parser,
    SchemaViolation,
    apply_changes,
)
from jsondrip._engine import EngineOptions, make_engine


def pieces(text: str, cuts: list[int]) -> list[str]:
    bounds = [0, *sorted(set(cuts)), len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


# -- the contract: a document's end inside a fragment, what is still arriving -----------------


@pytest.mark.parametrize(
    ("chunks", "end", "value"),
    [
        (['{"a": 1}  \n', "x {"], (11, 2, 1), {"a": 1}),
        (['{"a": 1}{"b": 2}'], (8, 1, 9), {"a": 1}),
        (["12", "3 ", "é"], (4, 1, 5), 123),
        (["nullnull"], (4, 1, 5), None),
        (['"a\\"b" x'], (7, 1, 8), 'a"b'),
        (["[1] \n\n  ```"], (8, 3, 3), [1]),
    ],
)
def test_an_engine_stopping_at_the_end_reads_nothing_after_it(
    backend: str, chunks: list[str], end: tuple[int, int, int], value: object
) -> None:
    engine = make_engine(backend, EngineOptions(stop_at_end=True))
    for chunk in chunks:
        engine.feed(chunk)
    assert engine.end == end
    engine.feed("} more [ text")  # after the end: not read
    assert engine.close() == value


def test_an_engine_not_told_to_stop_fails_on_extra_data(backend: str) -> None:
    engine = make_engine(backend, EngineOptions())
    with pytest.raises(JSONDecodeError, match="Extra data"):
        engine.feed('{"a": 1} x')
    assert make_engine(backend, EngineOptions(stop_at_end=True)).end is None


def test_the_end_with_a_schema_leaves_the_rest_unchecked(backend: str) -> None:
    from jsondrip import Schema

    schema = Schema({"type": "object", "required": ["a"]})
    engine = make_engine(backend, EngineOptions(schema=schema, stop_at_end=True))
    engine.feed('{"a": 1}\n{"b": 2}')
    assert engine.end == (9, 2, 1)
    assert engine.close() == {"a": 1}


def test_bytes_after_the_end_are_not_read(backend: str) -> None:
    engine = make_engine(backend, EngineOptions(stop_at_end=True))
    engine.feed(b"[1] x\xff")
    engine.feed(b"\xc3")
    assert engine.end == (4, 1, 5)
    assert engine.close() == [1]


@pytest.mark.parametrize(
    ("text", "mode", "depth"),
    [
        ("", "stable", 0),
        ('{"a": [1, "x', "stable", 3),
        ('{"a": [1, 2', "stable", 2),
        ('{"a": [1, 2', "jiter", 3),
        ('{"a": [1, -', "jiter", 2),
        ('{"a": [1], "k', "stable", 1),
        ('{"a": [1], "k": ', "stable", 1),
        ('"ab', "stable", 1),
        ('{"a": {}}', "stable", 0),
    ],
)
def test_open_depth_counts_the_values_arriving_on_the_last_path(
    backend: str, text: str, mode: str, depth: int
) -> None:
    engine = make_engine(backend, EngineOptions(mode=mode))
    engine.feed(text)
    assert engine.open_depth == depth


# -- several documents --------------------------------------------------------------------------

JSONL = '{"id": 1, "tags": ["a"]}\n{"id": 2}\n\n[3, "x"]\n"four"\n5\ntrue\n{}'
DOCS = [{"id": 1, "tags": ["a"]}, {"id": 2}, [3, "x"], "four", 5, True, {}]


def test_json_lines_read_as_one_list_that_only_grows(backend: str) -> None:
    parser = Parser(multiple=True, backend=backend)
    assert parser.value == []
    seen: list[list[object]] = []
    for char in JSONL:
        value = parser.feed(char)
        snapshot = json.loads(json.dumps(value))
        if seen:  # it only appends, and only its last document grows
            before = seen[-1]
            assert snapshot[: max(len(before) - 1, 0)] == before[: max(len(before) - 1, 0)]
            assert len(snapshot) >= len(before)
        seen.append(snapshot)
        assert all(doc == DOCS[i] for i, doc in enumerate(snapshot[:-1]))
    assert parser.close() == DOCS


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}{"b": 2}[3]"x"',
        '{"a": 1} {"b": 2}\t[3]\r\n"x"',
        '\n\n{"a": 1}\n{"b": 2}\n[3]\n"x"\n\n',
    ],
)
def test_concatenated_documents_whatever_the_cuts(backend: str, text: str) -> None:
    expected = [{"a": 1}, {"b": 2}, [3], "x"]
    rng = random.Random(text)
    for _ in range(30):
        cuts = rng.sample(range(1, len(text)), rng.randint(0, min(12, len(text) - 1)))
        parser = Parser(multiple=True, backend=backend)
        for piece in pieces(text, cuts):
            parser.feed(piece)
        assert parser.close() == expected


def test_numbers_and_literals_end_where_the_next_document_starts(backend: str) -> None:
    parser = Parser(multiple=True, backend=backend)
    parser.feed("1 2")
    assert parser.value == [1]
    parser.feed("3\ntrue")
    assert parser.value == [1, 23, True]
    assert parser.close() == [1, 23, True]


def test_changes_are_those_of_the_list(backend: str) -> None:
    parser = Parser(multiple=True, backend=backend)
    target: list[object] = []
    made = []
    for piece in ['{"a": [1', ", 2]}\n", '{"b": "x', 'y"}\n7']:
        made += parser.feed_changes(piece)
    made += parser.close_changes()
    assert made[0] == ("add", "", [])
    assert any(path.startswith("/1/") for _, path, _ in made)
    assert apply_changes(target, made) == [{"a": [1, 2]}, {"b": "xy"}, 7]


def test_a_blank_stream_is_an_empty_list_and_a_cut_document_is_incomplete(backend: str) -> None:
    parser = Parser(multiple=True, backend=backend)
    parser.feed(" \n ")
    assert not parser.done
    assert parser.close() == []
    parser = Parser(multiple=True, backend=backend)
    parser.feed('{"a": 1}\n{"b": ')
    assert parser.value == [{"a": 1}, {}]
    with pytest.raises(IncompleteJSONError) as cut:
        parser.close()
    assert (cut.value.pos, cut.value.lineno, cut.value.colno) == (15, 2, 7)


def test_errors_are_positioned_in_the_whole_stream(backend: str) -> None:
    parser = Parser(multiple=True, backend=backend)
    parser.feed('{"a": 1}\n{"b": 2}\n')
    with pytest.raises(JSONDecodeError) as broken:
        parser.feed("[1, 2 x]")
    error = broken.value
    try:  # json's own words on this interpreter (PyPy's differ)
        json.loads("[1, 2 x]")
    except json.JSONDecodeError as words:
        expected = words.msg
    assert (error.msg, error.pos, error.lineno, error.colno) == (
        expected,
        24,
        3,
        7,
    )
    with pytest.raises(JSONDecodeError):  # sticky
        parser.feed("]")


def test_done_means_no_document_has_begun_since_the_last_one(backend: str) -> None:
    parser = Parser(multiple=True, backend=backend)
    parser.feed('{"a": 1}')
    assert parser.done
    parser.feed("\n{")
    assert not parser.done
    parser.feed("}")
    assert parser.done


def test_a_schema_checks_each_document(backend: str) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    parser = Parser(multiple=True, schema=schema, backend=backend)
    parser.feed('{"n": 1}\n{"n": 2}\n')
    assert parser.progress("/1/n").state == "final"
    with pytest.raises(SchemaViolation) as broke:
        parser.feed('{"n": "x"}')
    assert broke.value.path == "/2/n"
    assert broke.value.pos == 24
    parser = Parser(multiple=True, schema=schema, backend=backend)
    with pytest.raises(SchemaViolation) as missing:
        parser.feed('{"n": 1}\n{"m": 2}\n{')
    assert missing.value.path == "/1"


def test_bytes_cut_inside_characters(backend: str) -> None:
    data = '{"é": 1}\n["ü"]'.encode()
    parser = Parser(multiple=True, backend=backend)
    for i in range(len(data)):
        parser.feed(data[i : i + 1])
    assert parser.close() == [{"é": 1}, ["ü"]]


def test_typed_documents() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Item(pydantic.BaseModel):
        id: int
        name: str = "?"

    from jsondrip import Schema

    parser = Parser(multiple=True, schema=Schema.from_model(Item))
    parser.feed('{"id": 1}\n{"id": 2, "name": "b')
    first, second = parser.partial()
    assert first == Item(id=1)
    assert second.id == 2 and second.name == "b" and "name" in second.model_fields_set
    parser.feed('"}')
    assert parser.close() == [Item(id=1), Item(id=2, name="b")]


# -- completed values ---------------------------------------------------------------------------

PLAN = {
    "title": "trip",
    "steps": [
        {"do": "pack", "items": ["a", "b"]},
        {"do": "go", "items": []},
        {"do": "rest", "items": ["c"]},
    ],
    "n": 3,
}
PATTERNS = ["/steps/*", "/steps/*/items/*", "/title", ""]
EXPECTED = [
    ("/title", "trip"),
    ("/steps/0/items/0", "a"),
    ("/steps/0/items/1", "b"),
    ("/steps/0", PLAN["steps"][0]),
    ("/steps/1", PLAN["steps"][1]),
    ("/steps/2/items/0", "c"),
    ("/steps/2", PLAN["steps"][2]),
    ("", PLAN),
]


def completed_of(parser: Parser, chunks: list[str]) -> list[tuple[str, object]]:
    seen: list[tuple[str, object]] = []
    for chunk in chunks:
        parser.feed(chunk)
        seen += parser.completed
    parser.close()
    seen += parser.completed
    return seen


def test_completed_lists_each_watched_value_once_in_the_order_they_complete(
    backend: str,
) -> None:
    text = json.dumps(PLAN)
    assert completed_of(Parser(watch=PATTERNS, backend=backend), [text]) == EXPECTED
    assert completed_of(Parser(watch=PATTERNS, backend=backend), list(text)) == EXPECTED


def test_a_value_is_complete_only_once_the_text_says_so(backend: str) -> None:
    parser = Parser(watch="/*", backend=backend)
    parser.feed('[1, "ab", [2')
    assert parser.completed == [("/0", 1), ("/1", "ab")]
    parser.feed("]")
    assert parser.completed == [("/2", [2])]
    parser.feed(", 4")  # 4 may go on: not complete
    assert parser.completed == []
    parser.feed("]")
    assert parser.completed == [("/3", 4)]
    assert Parser().completed == []


def test_a_top_level_number_completes_at_close(backend: str) -> None:
    parser = Parser(watch="", backend=backend)
    parser.feed("12")
    assert parser.completed == []
    assert parser.close() == 12
    assert parser.completed == [("", 12)]


def test_each_document_is_watched_with_multiple(backend: str) -> None:
    parser = Parser(multiple=True, watch=["/*", "/*/id"], backend=backend)
    seen = completed_of(parser, ['{"id": 1}\n{"id"', ": 2}\n3"])
    assert seen == [("/0/id", 1), ("/0", {"id": 1}), ("/1/id", 2), ("/1", {"id": 2}), ("/2", 3)]


def test_completed_items_are_validated_models() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Step(pydantic.BaseModel):
        do: str
        items: list[str] = pydantic.Field(default_factory=list)

    class Plan(pydantic.BaseModel):
        title: str
        steps: list[Step]
        n: int

    from jsondrip import Schema

    parser = Parser(schema=Schema.from_model(Plan), watch=["/steps/*", "/title"])
    seen = completed_of(parser, list(json.dumps(PLAN)))
    assert seen[0] == ("/title", "trip")
    assert [value for path, value in seen[1:]] == [Step(**step) for step in PLAN["steps"]]


def test_patterns_are_json_pointers() -> None:
    with pytest.raises(ValueError, match="JSON Pointer"):
        Parser(watch="steps/*")
    parser = Parser(watch="/a~1b/*")
    parser.feed('{"a/b": [1, 2]}')
    assert parser.completed == [("/a~1b/0", 1), ("/a~1b/1", 2)]


@st.composite
def documents(draw: st.DrawFn) -> object:
    leaves = st.one_of(
        st.integers(-5, 500), st.text(max_size=4), st.booleans(), st.none(), st.floats(0, 9)
    )
    return draw(
        st.recursive(
            leaves,
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(st.sampled_from("abc"), inner, max_size=3)
            ),
            max_leaves=12,
        )
    )


def _at(value: object, path: str) -> object:
    for token in path.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        value = value[int(token)] if isinstance(value, list) else value[token]  # type: ignore[index]
    return value


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    docs=st.lists(documents(), min_size=1, max_size=3),
    data=st.data(),
)
def test_chunking_never_changes_the_completed_sequence(
    backend: str, docs: list[object], data: st.DataObject
) -> None:
    text = "\n".join(json.dumps(doc) for doc in docs)
    patterns = ["/*", "/*/*", "/*/*/*", "/*/a/*", ""]
    whole = completed_of(Parser(multiple=True, watch=patterns), [text])
    final = json.loads("[" + ",".join(json.dumps(doc) for doc in docs) + "]")
    for path, value in whole:  # never ahead: each is the final value at its path
        assert value == _at(final, path)
    cuts = data.draw(st.lists(st.integers(1, max(len(text) - 1, 1)), max_size=10))
    parser = Parser(multiple=True, watch=patterns, backend=backend)
    assert completed_of(parser, pieces(text, cuts)) == whole

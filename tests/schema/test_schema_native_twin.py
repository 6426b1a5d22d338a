"""The native checker (rust/core/schema) against its twin (src/jsondrip/twin/schema).

Random schemas over every supported keyword (bounds past 64 bits, `multipleOf`, `pattern`,
`if`/`then`/`else`, `dependentSchemas`, `unevaluated*`, `$anchor` and `$dynamicRef`,
`uniqueItems`, enums of mixed members: the cases the native checker hands to its Python
oracle included), random documents (conforming ones and arbitrary ones), cut at random
characters (str) or bytes: both backends must raise the same violation (message, path, pos,
keyword) after the same chunk and report the same `progress()` for every path of the
document after every chunk.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from _support import same, snapshot
from conftest import NO_NATIVE, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_schema_properties import SCHEMA_AND_VALUE, cuts, render

import jsondrip
from jsondrip.schema import Schema, SchemaViolation

pytestmark = pytest.mark.skipif(
    NO_NATIVE is not None, reason="compares the native backend with the twin"
)

KEYS = st.sampled_from(["a", "b", "x1", "xy", "é", "a/b", "ab"])
TEXTS = st.text(alphabet='abcC"\\\né😀\ud800', max_size=5)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([2**70, -(2**70), 10**20, 0.5, 1.0, -0.0, 1e300, 2.5]),
    TEXTS,
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(KEYS, children, max_size=4)
    ),
    max_leaves=10,
)

EXTRA_KEYWORDS: list[dict[str, Any]] = [
    {"pattern": "^[a-c]*$"},
    {"minLength": 2},
    {"maxLength": 1},
    {"multipleOf": 0.5},
    {"multipleOf": 3},
    {"minimum": 2**70},
    {"maximum": -(2**70)},
    {"exclusiveMaximum": 1},
    {"exclusiveMinimum": -1.5},
    {"enum": [1, 1.0, True, None, "C", "ab", [1], {"a": 1}, 2**70]},
    {"const": "ab"},
    {"const": [1, {"a": None}]},
    {"type": "integer"},
    {"type": ["string", "null"]},
    {"not": {"type": "null"}},
    {"uniqueItems": True},
    {"contains": {"type": "integer"}, "minContains": 1, "maxContains": 2},
    {"prefixItems": [{"type": "string"}, {"const": 1}]},
    {"items": False},
    {"propertyNames": {"maxLength": 2}},
    {"propertyNames": {"enum": ["a", "b", "ab"]}},
    {"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": False},
    {"additionalProperties": {"type": "string"}},
    {"dependentRequired": {"a": ["b"]}},
    {"minProperties": 2},
    {"required": ["a", "é"]},
    {"allOf": [{"$ref": "#/$defs/small"}]},
    {"anyOf": [{"type": "array"}, {"maxLength": 2}]},
    {"oneOf": [{"type": "number"}, {"multipleOf": 2}]},
    # issue #30 item 18: conditional and unevaluated keywords, references by anchor
    {"if": {"type": "string"}, "then": {"maxLength": 2}, "else": {"type": ["array", "object"]}},
    {"if": {"required": ["a"]}, "then": {"properties": {"b": {"type": "string"}}}},
    {"if": {"items": {"type": "integer"}}, "else": {"maxItems": 1}},
    {"dependentSchemas": {"a": {"properties": {"b": {"type": "integer"}}}, "b": False}},
    {"dependentSchemas": {"x1": {"required": ["xy"]}}},
    {"allOf": [{"properties": {"a": True}}], "unevaluatedProperties": False},
    {
        "anyOf": [{"properties": {"x1": {"type": "string"}}}, {"patternProperties": {"^b": True}}],
        "unevaluatedProperties": {"type": "integer"},
    },
    {
        "oneOf": [{"additionalProperties": {"type": "null"}}, {"type": "array"}],
        "unevaluatedProperties": False,
    },
    {
        "prefixItems": [True],
        "anyOf": [{"contains": {"type": "null"}}, {"prefixItems": [True, True]}],
        "unevaluatedItems": False,
    },
    {"contains": {"const": 1}, "unevaluatedItems": {"type": "string"}},
    {
        "if": {"prefixItems": [{"type": "string"}]},
        "then": {"prefixItems": [True, True]},
        "unevaluatedItems": False,
    },
    {"anyOf": [{"$anchor": "s", "type": "string"}, {"items": {"$ref": "#s"}}]},
    {"$dynamicAnchor": "t", "anyOf": [{"type": "null"}, {"items": {"$dynamicRef": "#t"}}]},
]


@st.composite
def schemas(draw: Any) -> dict[str, Any]:
    """A schema from the property tests' builder, with extra keywords sprinkled in."""
    schema, _ = draw(SCHEMA_AND_VALUE)
    extras = draw(st.lists(st.sampled_from(EXTRA_KEYWORDS), max_size=3))

    def sprinkle(node: Any, rnd: random.Random) -> Any:
        if isinstance(node, dict):
            node = {k: sprinkle(v, rnd) for k, v in node.items()}
            if extras and rnd.random() < 0.5:
                node.update(rnd.choice(extras))
        elif isinstance(node, list):
            node = [sprinkle(v, rnd) for v in node]
        return node

    schema = sprinkle(schema, draw(st.randoms(use_true_random=False)))
    if isinstance(schema, dict):
        schema = {**schema, "$defs": {"small": {"maxLength": 3, "maxItems": 2}}}
    return schema


@st.composite
def flat_schemas(draw: Any) -> dict[str, Any]:
    """A few extra keywords on one node, alone, under `items` or under a property."""
    node: dict[str, Any] = {}
    for extra in draw(st.lists(st.sampled_from(EXTRA_KEYWORDS), min_size=1, max_size=3)):
        node.update(extra)
    place = draw(st.sampled_from(["root", "items", "property"]))
    if place == "items":
        node = {"type": "array", "items": node}
    elif place == "property":
        node = {"type": "object", "properties": {"a": node, "b": node}}
    return {**node, "$defs": {"small": {"maxLength": 3, "maxItems": 2}}}


def paths(value: Any, prefix: str = "") -> list[str]:
    """The JSON Pointer of every value in a document."""
    out = [prefix]
    if isinstance(value, dict):
        for key, sub in value.items():
            token = key.replace("~", "~0").replace("/", "~1")
            out += paths(sub, f"{prefix}/{token}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            out += paths(sub, f"{prefix}/{i}")
    return out


def trace(schema: Schema, pieces: list[Any], backend: str, polled: list[str]) -> list[Any]:
    """Everything a caller sees: each feed's progress at every polled path, then the end."""
    parser = jsondrip.Parser(schema=schema, backend=backend)
    seen: list[Any] = []
    try:
        for piece in pieces:
            parser.feed(piece)
            for path in polled:
                state, value, candidates = parser.progress(path)
                seen.append((path, state, value if state == "final" else None, candidates))
        seen.append(("close", parser.close()))
    except SchemaViolation as violation:
        seen.append(
            (type(violation), str(violation), violation.path, violation.pos, violation.keyword)
        )
    return seen


def trace_one(schema: Schema, pieces: list[Any], backend: str, path: str) -> list[Any]:
    """One path polled after every feed, its whole answer (the live value copied as it is
    then): the reader the native glue keeps its last answer for while the path stays open."""
    parser = jsondrip.Parser(schema=schema, backend=backend)
    seen: list[Any] = []
    try:
        for piece in pieces:
            parser.feed(piece)
            state, value, candidates = parser.progress(path)
            seen.append([state, snapshot(value), candidates])
        seen.append(["close", parser.close()])
    except SchemaViolation as violation:
        seen.append([str(violation), violation.path, violation.pos, violation.keyword])
    return seen


def _byte_cuts(text: str, rnd: random.Random) -> list[bytes]:
    data = text.encode("utf-8", "surrogatepass")
    points = sorted(rnd.sample(range(1, len(data)), min(len(data) - 1, 6))) if len(data) > 1 else []
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(schemas(), flat_schemas()),
    st.one_of(DOCUMENTS, SCHEMA_AND_VALUE.map(lambda pair: pair[1])),
    st.randoms(use_true_random=False),
)
def test_native_and_twin_agree_on_every_chunk(
    schema: Any, document: Any, rnd: random.Random
) -> None:
    try:
        compiled = Schema(schema)
    except ValueError:
        return  # refused the same way on both backends: the schema compiler is shared
    text = render(document, rnd)
    polled = [*paths(json.loads(text)), "/nope"]
    for pieces in (cuts(text, rnd), list(text), _byte_cuts(text, rnd)):
        native = trace(compiled, pieces, "native", polled)
        twin = trace(compiled, pieces, "python", polled)
        assert len(native) == len(twin), (schema, text, native[-1], twin[-1])
        for one, other in zip(native, twin):
            assert same(list(one), list(other)), (schema, text, one, other)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(schemas(), flat_schemas()),
    st.one_of(DOCUMENTS, SCHEMA_AND_VALUE.map(lambda pair: pair[1])),
    st.randoms(use_true_random=False),
)
def test_native_and_twin_agree_on_one_path_polled_throughout(
    schema: Any, document: Any, rnd: random.Random
) -> None:
    try:
        compiled = Schema(schema)
    except ValueError:
        return
    text = render(document, rnd)
    every = paths(json.loads(text))
    for path in {every[0], rnd.choice(every), rnd.choice(every)}:
        for pieces in (cuts(text, rnd), list(text)):
            native = trace_one(compiled, pieces, "native", path)
            twin = trace_one(compiled, pieces, "python", path)
            assert same(native, twin), (schema, text, path, native, twin)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, [2]], "a": [3, {"b": 4}], "c": {"d": [5]}}',  # a repeated key: a new list
        '[[1, 2], [3, [4, 5]], {"x": [6]}]',
        '{"a": {"a": {"a": []}}, "b": {"a": {}}}',
    ],
)
@pytest.mark.parametrize("path", ["", "/a", "/1", "/a/a", "/c", "/1/1"])
def test_one_container_path_polled_after_every_character(text: str, path: str) -> None:
    schema = Schema({})
    native = trace_one(schema, list(text), "native", path)
    twin = trace_one(schema, list(text), "python", path)
    assert same(native, twin), (text, path, native, twin)


def test_the_comparison_bites() -> None:
    """A difference in a violation's position is seen (the check above can fail)."""
    schema = Schema({"type": "array", "items": {"enum": ["C", "F"]}})
    one = trace(schema, ['["C", "kel', 'vin"]'], "native", ["", "/0"])
    other = trace(schema, ['["C", "kelvin"]'], "python", ["", "/0"])
    assert one[-1][1] == "/1: 'kel'... is not one of 'C', 'F'"
    assert other[-1][1] == "/1: 'kelvin' is not one of 'C', 'F'"
    assert not same(list(one[-1]), list(other[-1]))

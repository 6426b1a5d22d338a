"""Random schemas built from the supported keywords, with random documents, on both backends.

- A document the schema accepts (jsonschema is the oracle) is never flagged, on any prefix,
  whatever its key order, whitespace and cuts.
- Any document gets jsonschema's final verdict.
- A leaf replaced by a value of another type (or a string outside its enum) is reported no
  later than the end of that token, and not before it begins.
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
from _schema_support import run
from conftest import examples, installed_backends
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jsondrip.schema import Schema

NAMES = st.sampled_from(["a", "b", "id", "name", "unit", "units", "kind", "x/y", "é"])
TEXT = st.text(alphabet='abcCFé"\\\n😀', max_size=6)


@st.composite
def leaf(draw: Any) -> tuple[dict[str, Any], Any]:
    """A scalar schema and a value it accepts."""
    kind = draw(st.sampled_from(["string", "enum", "integer", "number", "boolean", "null"]))
    if kind == "string":
        value = draw(TEXT)
        schema: dict[str, Any] = {"type": "string"}
        if draw(st.booleans()):
            schema["maxLength"] = len(value) + draw(st.integers(0, 2))
        if draw(st.booleans()):
            schema["minLength"] = max(0, len(value) - draw(st.integers(0, 2)))
        return schema, value
    if kind == "enum":
        members = draw(st.lists(TEXT, min_size=1, max_size=4, unique=True))
        return {"enum": members}, draw(st.sampled_from(members))
    if kind == "integer":
        value = draw(st.integers(-1000, 1000))
        schema = {"type": "integer"}
        if draw(st.booleans()):
            schema["minimum"] = value - draw(st.integers(0, 5))
        if draw(st.booleans()):
            schema["maximum"] = value + draw(st.integers(0, 5))
        return schema, value
    if kind == "number":
        value = draw(st.floats(-1e6, 1e6, allow_nan=False))
        schema = {"type": "number"}
        if draw(st.booleans()):
            schema["exclusiveMinimum"] = value - 1
        return schema, value
    if kind == "boolean":
        return {"type": "boolean"}, draw(st.booleans())
    return {"type": "null"}, None


def _object(children: Any) -> Any:
    @st.composite
    def build(draw: Any) -> tuple[dict[str, Any], Any]:
        names = draw(st.lists(NAMES, max_size=4, unique=True))
        props, value = {}, {}
        for name in names:
            sub, sub_value = draw(children)
            props[name] = sub
            if draw(st.integers(0, 3)):
                value[name] = sub_value
        schema: dict[str, Any] = {"type": "object", "properties": props}
        if draw(st.booleans()):
            schema["required"] = [n for n in value if draw(st.booleans())]
        if draw(st.booleans()):
            schema["additionalProperties"] = False
        if draw(st.booleans()):
            schema["maxProperties"] = len(value) + draw(st.integers(0, 1))
        return schema, value

    return build()


def _array(children: Any) -> Any:
    @st.composite
    def build(draw: Any) -> tuple[dict[str, Any], Any]:
        sub, first = draw(children)
        items = [first] * draw(st.integers(0, 3))
        schema: dict[str, Any] = {"type": "array", "items": sub}
        if draw(st.booleans()):
            schema["maxItems"] = len(items) + draw(st.integers(0, 1))
        if draw(st.booleans()):
            schema["minItems"] = max(0, len(items) - 1)
        return schema, items

    return build()


def _union(children: Any) -> Any:
    @st.composite
    def build(draw: Any) -> tuple[dict[str, Any], Any]:
        (one, value), (other, _) = draw(children), draw(children)
        branches = [one, other]
        draw(st.randoms()).shuffle(branches)
        keyword = draw(st.sampled_from(["anyOf", "oneOf", "both"]))
        if keyword == "both":  # one node with both: each group is counted on its own
            return {"anyOf": branches, "oneOf": [one]}, value
        return {keyword: branches}, value

    return build()


def _conditional(children: Any) -> Any:
    """The keywords of issue #30 item 18 around a value its first child accepts."""

    @st.composite
    def build(draw: Any) -> tuple[dict[str, Any], Any]:
        (one, value), (other, other_value) = draw(children), draw(children)
        kind = draw(st.sampled_from(["if", "dependent", "properties", "items"]))
        if kind == "if":  # `value` passes `one`, so whichever way `if` goes it passes
            if draw(st.booleans()):
                return {"if": one, "then": one, "else": other}, value
            return {"if": other, "then": one, "else": one}, value
        if kind == "dependent":
            name, second = draw(st.lists(NAMES, min_size=2, max_size=2, unique=True))
            schema: dict[str, Any] = {
                "type": "object",
                "properties": {name: one},
                "dependentSchemas": {name: {"properties": {second: other}}, second: False},
            }
            document = {name: value}
            if draw(st.booleans()):
                document[second + "x"] = other_value
            return schema, document
        if kind == "properties":  # keys evaluated by the parts, the rest closed or typed
            name, second = draw(st.lists(NAMES, min_size=2, max_size=2, unique=True))
            parts = [{"properties": {name: one}}, {"properties": {second: other}}]
            schema = {
                "type": "object",
                draw(st.sampled_from(["allOf", "anyOf", "oneOf"])): parts,
                "unevaluatedProperties": draw(st.sampled_from([False, one, {"type": "null"}])),
            }
            return schema, {name: value}
        schema = {
            "prefixItems": [one],
            "anyOf": [{"contains": other}, {"prefixItems": [True, one]}],
            "unevaluatedItems": draw(st.sampled_from([False, one])),
        }
        return schema, [value, value]

    return build()


def _named(tree: tuple[dict[str, Any], Any], ref: str) -> tuple[dict[str, Any], Any]:
    """The schema reached by reference: a resource of its own, with an anchor."""
    schema, value = tree
    part = {"$id": "part", "$anchor": "it", "allOf": [schema]}
    return {"$id": "https://example.com/root", "$defs": {"part": part}, "$ref": ref}, value


TREES = st.recursive(
    leaf(),
    lambda children: st.one_of(
        _object(children), _array(children), _union(children), _conditional(children)
    ),
    max_leaves=8,
)
SCHEMA_AND_VALUE = st.one_of(
    TREES,
    st.builds(_named, TREES, st.sampled_from(["part", "part#it", "#/$defs/part"])),
)


def render(value: Any, rnd: random.Random) -> str:
    """JSON text with shuffled keys and random whitespace and escaping."""

    def shuffle(v: Any) -> Any:
        if isinstance(v, dict):
            keys = list(v)
            rnd.shuffle(keys)
            return {k: shuffle(v[k]) for k in keys}
        if isinstance(v, list):
            return [shuffle(x) for x in v]
        return v

    indent = rnd.choice([None, 0, 1, 2])
    separators = rnd.choice([(",", ":"), (", ", ": "), (" ,", " : ")]) if indent is None else None
    return json.dumps(
        shuffle(value), indent=indent, separators=separators, ensure_ascii=rnd.random() < 0.5
    )


def cuts(text: str, rnd: random.Random) -> list[str]:
    points = (
        sorted(rnd.sample(range(1, len(text)), min(len(text) - 1, rnd.randint(0, 6))))
        if len(text) > 1
        else []
    )
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMA_AND_VALUE, st.randoms(use_true_random=False))
def test_accepted_documents_are_never_flagged(schema_and_value: Any, rnd: random.Random) -> None:
    schema, value = schema_and_value
    assume(jsonschema.Draft202012Validator(schema).is_valid(value))
    compiled = Schema(schema)
    text = render(value, rnd)
    for backend in installed_backends():
        assert run(compiled, text, backend)[0] is None, (schema, text)  # every prefix
        assert run(compiled, cuts(text, rnd), backend)[0] is None, (schema, text)


def _mutate(value: Any, rnd: random.Random, replacement: Any) -> tuple[Any, list[Any]]:
    """The value with one leaf (or empty container) swapped for `replacement`, and its path."""
    path: list[Any] = []
    root = holder = [value]
    slot: Any = 0
    while True:
        current = holder[slot]
        children = (
            list(current)
            if isinstance(current, dict)
            else range(len(current))
            if isinstance(current, list)
            else []
        )
        if not children or (rnd.random() < 0.3 and path):
            break
        child = rnd.choice(list(children))
        path.append(child)
        holder, slot = current, child
    holder[slot] = replacement
    return root[0], path


OTHERS = st.sampled_from([True, None, 12345, -7.5, "zzz-not-a-member", [], {}])


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMA_AND_VALUE, OTHERS, st.randoms(use_true_random=False))
def test_final_verdict_and_early_report_of_a_broken_leaf(
    schema_and_value: Any, other: Any, rnd: random.Random
) -> None:
    schema, value = schema_and_value
    validator = jsonschema.Draft202012Validator(schema)
    assume(validator.is_valid(value))  # the text before the broken leaf is then valid
    mutated, _path = _mutate(json.loads(json.dumps(value)), rnd, "\x00MARK\x00")
    marked = render(mutated, rnd)
    token = json.dumps(other)
    start = marked.index(json.dumps("\x00MARK\x00"))
    text = marked[:start] + token + marked[start + len(json.dumps("\x00MARK\x00")) :]
    broken = json.loads(text)
    valid = validator.is_valid(broken)
    compiled = Schema(schema)
    answers = []
    for backend in installed_backends():
        violation, _ = run(compiled, text, backend)
        assert (violation is None) == valid, (schema, text, violation)
        answers.append(
            None
            if violation is None
            else (violation.path, violation.pos, violation.keyword, str(violation))
        )
        if violation is not None:
            assert violation.pos >= start, (schema, text, violation)  # the prefix before is valid
            errors = list(validator.iter_errors(broken))
            local = not any(
                k in json.dumps(schema)
                for k in (
                    '"anyOf"',
                    '"oneOf"',
                    '"if"',
                    "dependentSchemas",
                    "unevaluated",
                    "minItems",
                    "required",
                    "minLength",
                    "minimum",
                    "maximum",
                )
            )
            if local and all(e.validator in ("type", "enum") for e in errors):
                # The offending token's end (a number is certain at the character after it).
                assert violation.pos <= start + len(token), (schema, text, violation)
    assert all(answer == answers[0] for answer in answers)  # the backends agree

# ruff: noqa: UP045 - pydantic evaluates annotations at run time (3.9: no X | None)
"""`OutputParser` with several documents (issue 26 item 2), a schema or a pydantic model
(item 4), and change events."""

from __future__ import annotations

import json
import random
from typing import Optional

import pytest
from _output_support import splits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jsondrip
from jsondrip import MISSING, Change, OutputParser, SchemaViolation, apply_changes

MULTIPLE = [
    ('{"a": 1}\n{"b": 2}\n{"c": [3]}\n', [{"a": 1}, {"b": 2}, {"c": [3]}], ""),
    (
        'First:\n```json\n{"a": 1}\n```\nSecond:\n```json\n{"b": 2}\n```\n',
        [{"a": 1}, {"b": 2}],
        "First:\n\nSecond:\n\n",
    ),
    ('{"a": 1}{"b": 2}[3]', [{"a": 1}, {"b": 2}, [3]], ""),
    ('<think>x</think>{"a": 1}\n<think>y</think>\n{"b": 2}', [{"a": 1}, {"b": 2}], "\n"),
    ('```\n{"a": 1}\n{"b": 2}\n```', [{"a": 1}, {"b": 2}], ""),
    ("1\n2\n3", [1, 2, 3], ""),
    ('Results: {"a": 1} and then {"b": 2}.', [{"a": 1}, {"b": 2}], "Results: and then ."),
]


@pytest.mark.parametrize(("text", "documents", "prose"), MULTIPLE)
def test_several_documents_make_a_list_that_only_grows(
    backend: str, text: str, documents: list, prose: str
) -> None:
    for way, pieces in splits(text).items():
        parser = OutputParser(multiple=True, backend=backend)
        assert parser.value == []
        lengths = []
        for piece in pieces:
            value = parser.feed(piece)
            lengths.append(len(value))
            assert value == documents[: len(value)] or value[:-1] == documents[: len(value) - 1]
        assert lengths == sorted(lengths), way  # it only appends
        assert parser.close() == documents, way
        assert parser.text == prose, way


@pytest.mark.parametrize("multiple", [False, True])
@pytest.mark.parametrize("text", ['Sure:\n```json\n{"a": [1, {"b": "x\\ny"}], "n": 12}\n```', "7"])
def test_changes_rebuild_every_value(backend: str, multiple: bool, text: str) -> None:
    for way, pieces in splits(text).items():
        parser = OutputParser(multiple=multiple, backend=backend)
        rebuilt = MISSING
        for piece in pieces:
            rebuilt = apply_changes(rebuilt, parser.feed_changes(piece))
            assert rebuilt == parser.value, way
        rebuilt = apply_changes(rebuilt, parser.close_changes())
        assert rebuilt == parser.value, way
        final = json.loads(text.split("```json\n")[-1].split("\n```")[0])
        assert rebuilt == ([final] if multiple else final), way


def test_changes_of_several_documents_are_under_their_index(backend: str) -> None:
    parser = OutputParser(multiple=True, backend=backend)
    assert parser.feed_changes('{"a": 1}\n{"b"') == [
        Change("add", "", []),
        Change("add", "/0", {}),
        Change("add", "/0/a", 1),
        Change("add", "/1", {}),
    ]


def test_a_prose_candidate_hands_out_its_changes_once_proven(backend: str) -> None:
    parser = OutputParser(backend=backend)
    assert parser.feed_changes('see {"a') == []
    made = parser.feed_changes('": "x')
    assert made[0] == Change("add", "", {})
    assert apply_changes(MISSING, made) == {"a": "x"}


SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "units": {"enum": ["C", "F"]}},
    "required": ["city"],
    "additionalProperties": False,
}


def test_a_schema_rules_out_candidates_before_they_are_proven(backend: str) -> None:
    text = 'Try {"town": "x"} or [1] or {"city": "Oslo", "units": "F"}'
    for way, pieces in splits(text).items():
        parser = OutputParser(SCHEMA, backend=backend)
        for piece in pieces:
            parser.feed(piece)
        assert parser.close() == {"city": "Oslo", "units": "F"}, way
        assert parser.text == 'Try {"town": "x"} or [1] or ', way


def test_a_violation_of_the_document_is_positioned_in_the_text(backend: str) -> None:
    text = '<think>ok</think>\n```json\n{"city": "Oslo", "units": "K"}\n```'
    for way, pieces in splits(text).items():
        parser = OutputParser(SCHEMA, backend=backend)
        with pytest.raises(SchemaViolation) as caught:
            for piece in pieces:
                parser.feed(piece)
        violation = caught.value
        assert (violation.path, violation.keyword) == ("/units", "enum"), way
        assert violation.pos == text.index('"K"') + 1, way


def test_a_violation_in_several_documents_names_the_document(backend: str) -> None:
    parser = OutputParser(SCHEMA, multiple=True, backend=backend)
    parser.feed('{"city": "a"}\n')
    with pytest.raises(SchemaViolation) as caught:
        parser.feed('{"units": "C"}')
    assert caught.value.path == "/1" and str(caught.value).startswith("/1: 'city'")


pydantic = pytest.importorskip("pydantic")


class Weather(pydantic.BaseModel):
    city: str
    units: str = "C"
    note: Optional[str] = None


def test_a_model_gives_typed_partials_and_the_model(backend: str) -> None:
    text = '<think>hm</think>Here you go:\n```json\n{"city": "Paris", "note": "hot"}\n```'
    parser = OutputParser(Weather, backend=backend)
    assert parser.partial().model_fields_set == set()
    seen = []
    for char in text:
        parser.feed(char)
        partial = parser.partial()
        if not parser.done:
            assert partial.units is None  # never the default while the document arrives
        seen.append(partial.model_dump(exclude_unset=True))
    assert {"city": "Pa"} in seen and {"city": "Paris", "note": "ho"} in seen
    assert parser.close() == Weather(city="Paris", note="hot")


def test_several_models(backend: str) -> None:
    parser = OutputParser(Weather, multiple=True, backend=backend)
    parser.feed('{"city": "A"}\n{"city": "B')
    first, second = parser.partial()
    assert first == Weather(city="A") and second.city == "B"
    parser.feed('"}')
    assert parser.close() == [Weather(city="A"), Weather(city="B")]


def test_progress_of_the_document(backend: str) -> None:
    parser = OutputParser(SCHEMA, backend=backend)
    assert parser.progress("/city").state == "missing"
    parser.feed('x {"city": "Os')
    assert parser.progress("/city")[:2] == ("arriving", "Os")
    many = OutputParser(SCHEMA, multiple=True, backend=backend)
    many.feed('{"city": "a"}\n{"city": "b')
    assert many.progress("/0/city")[:2] == ("final", "a")
    assert many.progress("/1/city")[:2] == ("arriving", "b")


# -- typed partials of random plans in random wrappers, at random cuts ---------------------


class Step(pydantic.BaseModel):
    title: str
    minutes: int
    tags: list[str] = pydantic.Field(default_factory=list)


class Plan(pydantic.BaseModel):
    goal: str
    steps: list[Step]
    done: bool = False


def _shown(value: object) -> object:
    """A partial as plain JSON values, unset fields left out."""
    if isinstance(value, pydantic.BaseModel):
        return {n: _shown(getattr(value, n)) for n in value.model_fields_set}
    if isinstance(value, list):
        return [_shown(v) for v in value]
    return value


words = st.text(alphabet='ab {}"`<\\é\n', max_size=6)
plans = st.fixed_dictionaries(
    {
        "goal": words,
        "steps": st.lists(
            st.fixed_dictionaries(
                {"title": words, "minutes": st.integers(0, 999)},
                optional={"tags": st.lists(words, max_size=2)},
            ),
            max_size=3,
        ),
    },
    optional={"done": st.booleans()},
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plan=plans,
    head=st.sampled_from(["", "<think>{x}</think>\n", "Sure! [1] {see}:\n```json\n", "```\n"]),
    seed=st.integers(0, 2**32),
)
def test_partials_in_wrappers_are_never_ahead(plan: dict, head: str, seed: int) -> None:
    body = json.dumps(plan, ensure_ascii=seed % 2 == 0)
    text = head + body + ("\n```\nDone." if "`" in head else "")
    start, end = len(head), len(head) + len(body)
    rng = random.Random(seed)
    for backend in ("native", "python"):
        if backend not in jsondrip.available_backends():
            continue
        parser = OutputParser(Plan, backend=backend)
        plain = jsondrip.Parser(backend=backend)
        fed = 0
        while fed < len(text):
            piece = text[fed : fed + rng.randint(1, 8)]
            parser.feed(piece)
            plain.feed(text[max(fed, start) : min(fed + len(piece), end)])
            fed += len(piece)
            shown = _shown(parser.partial())
            if parser.done:
                assert parser.partial() == Plan.model_validate(plan)
            else:  # exactly the stable value of the document read so far: nothing else
                assert shown == ({} if plain.value is MISSING else plain.value)
        assert parser.close() == Plan.model_validate(plan)

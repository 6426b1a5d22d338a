# ruff: noqa: UP007, UP045 - pydantic evaluates annotations at run time (3.9: no X | None)
"""Typed partials (`Parser.partial()`, issue 26 item 4 and issue 30 item 1): never a default
shown as data, arriving fields shown as they arrive, validators only on complete values, a
change whenever the stable value changes, and no finished item read twice."""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Literal, Optional, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pydantic")
from pydantic import BaseModel, Field, field_validator, model_validator

import jsondrip
from jsondrip import MISSING, Schema


class Weather(BaseModel):
    city: str
    note: Optional[str] = None
    units: Literal["C", "F"] = "C"


def test_issue_30_item_1_no_default_is_shown_and_arriving_fields_are(backend: str) -> None:
    """`units` is never its default 'C' (the model chose 'F'), `note` shows "hot" while it
    arrives (not None), and an unstarted field is unset."""
    parser = jsondrip.Parser(schema=Schema.from_model(Weather), backend=backend)
    text = '{"city": "Paris", "units": "F", "note": "hot'
    for end in range(1, len(text) + 1):
        parser = jsondrip.Parser(schema=Schema.from_model(Weather), backend=backend)
        parser.feed(text[:end])
        partial = parser.partial()
        assert partial.units != "C"
        if "units" not in partial.model_fields_set:
            assert partial.units is None
    assert parser.partial().note == "hot"
    assert parser.partial().model_fields_set == {"city", "units", "note"}
    assert parser.partial().model_dump(exclude_unset=True) == {
        "city": "Paris",
        "units": "F",
        "note": "hot",
    }


def test_an_unstarted_field_is_unset_and_none(backend: str) -> None:
    parser = jsondrip.Parser(schema=Schema.from_model(Weather), backend=backend)
    assert parser.partial().model_fields_set == set()  # nothing began
    parser.feed('{"city": "Os')
    partial = parser.partial()
    assert partial.model_fields_set == {"city"}
    assert (partial.city, partial.note, partial.units) == ("Os", None, None)
    assert partial.model_dump(exclude_unset=True) == {"city": "Os"}
    parser.feed('lo"}')
    assert parser.close() == Weather(city="Oslo")  # the defaults belong to the final model


class Step(BaseModel):
    title: str
    minutes: int
    tags: list[str] = []


class Plan(BaseModel):
    goal: str
    steps: list[Step]
    done: bool = False
    extras: dict[str, int] = {}


PLAN = (
    '{"goal": "dinner", "steps": [{"title": "boil water", "minutes": 5, "tags": ["a", "b"]},'
    ' {"title": "cook \\"pasta\\"", "minutes": 10}], "extras": {"salt": 1, "oil": 2},'
    ' "done": true}'
)


def _plain(value: Any) -> Any:
    """What a partial shows, as plain JSON values (unset fields left out)."""
    if isinstance(value, BaseModel):
        return {
            (info.alias or name): _plain(getattr(value, name))
            for name, info in type(value).model_fields.items()
            if name in value.model_fields_set
        }
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("size", [1, 3, 7])
def test_the_partial_is_the_stable_value_at_every_prefix(backend: str, size: int) -> None:
    """With types pydantic keeps as they are, the partial shows exactly the stable value
    (nested models partial, finished list items validated), and changes whenever it does."""
    parser = jsondrip.Parser(schema=Schema.from_model(Plan), backend=backend)
    shown, values = [], []
    for start in range(0, len(PLAN), size):
        value = copy.deepcopy(parser.feed(PLAN[start : start + size]))
        partial = _plain(parser.partial())
        if value is MISSING:
            assert partial == {}
        else:
            assert partial == value
        shown.append(json.dumps(partial))
        values.append(json.dumps(value, default=str))
    # a change of the stable value is a change of the partial, and the other way round
    for i in range(1, len(values)):
        assert (values[i] != values[i - 1]) == (shown[i] != shown[i - 1])
    assert parser.close() == Plan.model_validate_json(PLAN)


def test_finished_items_are_validated_models_and_the_open_one_is_partial(backend: str) -> None:
    parser = jsondrip.Parser(schema=Schema.from_model(Plan), backend=backend)
    parser.feed(PLAN[: PLAN.index('"cook') + 3])
    partial = parser.partial()
    first, second = partial.steps
    assert first == Step(title="boil water", minutes=5, tags=["a", "b"])
    assert first.model_fields_set == {"title", "minutes", "tags"}
    assert isinstance(second, Step) and second.model_fields_set == {"title"}
    assert (second.title, second.minutes, second.tags) == ("co", None, None)


class Audited(BaseModel):
    """Records every value its validators see."""

    name: str
    size: int
    seen: list[Any] = []

    @field_validator("name")
    @classmethod
    def name_seen(cls, value: str) -> str:
        SEEN.append(("name", value))
        return value.upper()

    @model_validator(mode="after")
    def whole_seen(self) -> Audited:
        SEEN.append(("model", self.name, self.size))
        return self


class Outer(BaseModel):
    label: str
    items: list[Audited]

    @field_validator("label")
    @classmethod
    def label_seen(cls, value: str) -> str:
        SEEN.append(("label", value))
        return value

    @model_validator(mode="after")
    def outer_seen(self) -> Outer:
        SEEN.append(("outer",))
        return self


SEEN: list[Any] = []
OUTER = '{"label": "box", "items": [{"name": "pen", "size": 2}, {"name": "ink", "size": 3}]}'


def test_validators_run_only_on_complete_values(backend: str) -> None:
    """Read after every character: each validator sees only complete values (never "bo" or
    "pe"), the field validator's result is what the partial shows, and no finished item is
    validated again at each read (each item's model validator runs a bounded number of
    times: when the item completes and when the list and the document complete)."""
    SEEN.clear()
    parser = jsondrip.Parser(schema=Schema.from_model(Outer), backend=backend)
    for char in OUTER:
        parser.feed(char)
        partial = parser.partial()
        if "items" in partial.model_fields_set and partial.items:
            first = partial.items[0]
            if isinstance(first, Audited) and "name" in first.model_fields_set:
                assert first.name in ("", "p", "pe", "pen", "PEN")
    model = parser.close()
    assert model.items[0].name == "PEN"
    assert ("label", "bo") not in SEEN and ("name", "pe") not in SEEN
    assert {entry for entry in SEEN if entry[0] == "label"} == {("label", "box")}
    assert {entry for entry in SEEN if entry[0] == "name"} == {("name", "pen"), ("name", "ink")}
    assert SEEN.count(("model", "PEN", 2)) <= 4
    assert SEEN.count(("outer",)) <= 2


def test_a_nested_model_and_a_recursive_one(backend: str) -> None:
    class Node(BaseModel):
        name: str
        children: list[Node] = []

    Node.model_rebuild()
    text = '{"name": "root", "children": [{"name": "a", "children": [{"name": "a1"}]}]}'
    parser = jsondrip.Parser(schema=Schema.from_model(Node), backend=backend)
    parser.feed(text[: text.index("a1") + 1])
    partial = parser.partial()
    inner = partial.children[0].children[0]
    assert isinstance(inner, Node) and inner.name == "a" and inner.model_fields_set == {"name"}
    parser.feed(text[text.index("a1") + 1 :])
    assert parser.close() == Node.model_validate_json(text)


def test_aliases_and_a_list_root(backend: str) -> None:
    class Row(BaseModel):
        full_name: str = Field(alias="fullName")
        age: int = 0

    parser = jsondrip.Parser(schema=Schema.from_model(list[Row]), backend=backend)
    assert parser.partial() is MISSING
    parser.feed('[{"fullName": "Ada", "age": 36}, {"fullName": "Al')
    rows = parser.partial()
    assert rows[0] == Row(fullName="Ada", age=36)
    assert rows[1].full_name == "Al" and rows[1].model_fields_set == {"full_name"}
    assert rows[1].age is None


def test_a_union_is_shown_as_it_arrives_and_validated_once_complete(backend: str) -> None:
    class Cat(BaseModel):
        kind: Literal["cat"]
        lives: int

    class Dog(BaseModel):
        kind: Literal["dog"]
        good: bool

    class Pets(BaseModel):
        pets: list[Union[Cat, Dog]]

    parser = jsondrip.Parser(schema=Schema.from_model(Pets), backend=backend)
    parser.feed('{"pets": [{"kind": "dog", "good": true}, {"kind": "c')
    pets = parser.partial().pets
    assert pets[0] == Dog(kind="dog", good=True)
    assert pets[1] == {"kind": "c"}  # which model it is is not known yet: the value itself


def test_partial_needs_a_model(backend: str) -> None:
    parser = jsondrip.Parser(schema={"type": "object"}, backend=backend)
    with pytest.raises(ValueError, match="from_model"):
        parser.partial()


def test_after_the_document_completes_the_partial_is_the_validated_model(backend: str) -> None:
    parser = jsondrip.Parser(schema=Schema.from_model(Plan), backend=backend)
    parser.feed(PLAN)
    assert parser.partial() == Plan.model_validate_json(PLAN)


# -- random documents, random cuts ---------------------------------------------------------

words = st.text(alphabet='ab "\\é🎉\n', max_size=6)
steps = st.lists(
    st.fixed_dictionaries(
        {"title": words, "minutes": st.integers(-5, 10**6)},
        optional={"tags": st.lists(words, max_size=3)},
    ),
    max_size=4,
)
plans = st.fixed_dictionaries(
    {"goal": words, "steps": steps},
    optional={"done": st.booleans(), "extras": st.dictionaries(words, st.integers(), max_size=3)},
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans, seed=st.integers(0, 2**32), indent=st.sampled_from([None, 1]))
def test_random_plans_at_random_cuts_are_never_ahead(plan: dict, seed: int, indent: Any) -> None:
    keys = list(plan)
    random.Random(seed).shuffle(keys)
    text = json.dumps({k: plan[k] for k in keys}, indent=indent, ensure_ascii=seed % 2 == 0)
    rng = random.Random(seed)
    for backend in ("native", "python"):
        if backend not in jsondrip.available_backends():
            continue
        parser = jsondrip.Parser(schema=Schema.from_model(Plan), backend=backend)
        start = 0
        while start < len(text):
            end = start + rng.randint(1, 9)
            value = copy.deepcopy(parser.feed(text[start:end]))
            start = end
            shown = _plain(parser.partial())
            assert shown == ({} if value is MISSING else value)
        assert parser.close() == Plan.model_validate_json(text)


# -- incremental reads: the same as a read from scratch, finished items kept --------------


def test_a_finished_item_is_the_same_object_in_every_later_read(backend: str) -> None:
    """A finished list item is validated once, when it completes, and kept: every later read
    (the rest of the list, the list's end, other fields, the document's end) shows that very
    model object, not a copy."""
    second = PLAN.index('{"title": "cook')
    for make in (jsondrip.Parser, jsondrip.OutputParser):
        parser = make(schema=Schema.from_model(Plan), backend=backend)
        parser.feed(PLAN[: second + 1])
        first = parser.partial().steps[0]
        assert first == Step(title="boil water", minutes=5, tags=["a", "b"])
        for char in PLAN[second + 1 :]:
            parser.feed(char)
            assert parser.partial().steps[0] is first
        assert parser.partial() == Plan.model_validate_json(PLAN)


class Checked(BaseModel):
    """A field validator that changes what it validates, a list of models, a dict of lists,
    an optional nested model: what a read shows depends on when each value was settled."""

    name: str
    items: list[Step]
    groups: dict[str, list[int]] = {}
    inner: Optional[Step] = None

    @field_validator("name")
    @classmethod
    def shout(cls, value: str) -> str:
        return value.upper()


def _shown(value: Any) -> Any:
    """A partial as plain data that keeps what equality of models hides: each model's class
    and which fields are set."""
    if isinstance(value, BaseModel):
        fields = {name: _shown(getattr(value, name)) for name in sorted(value.model_fields_set)}
        return (type(value).__name__, fields)
    if isinstance(value, list):
        return [_shown(v) for v in value]
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    return value


step_values = st.fixed_dictionaries(
    {"title": words, "minutes": st.integers(-5, 10**6)},
    optional={"tags": st.lists(words, max_size=3)},
)
checked_docs = st.fixed_dictionaries(
    {"name": words, "items": st.lists(step_values, max_size=3)},
    optional={
        "groups": st.dictionaries(words, st.lists(st.integers(), max_size=3), max_size=2),
        "inner": step_values | st.none(),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=checked_docs, seed=st.integers(0, 2**32), indent=st.sampled_from([None, 1]))
def test_reading_after_every_delta_equals_reading_the_prefix_from_scratch(
    doc: dict, seed: int, indent: Any
) -> None:
    """`partial()` after every delta (each read carrying on from the last one) shows exactly
    what a fresh parser fed the same text at once shows: the incremental bookkeeping (items
    kept, the walk resumed where the text changed, growing strings updated in place) never
    differs from a build from scratch."""
    keys = list(doc)
    random.Random(seed).shuffle(keys)
    text = json.dumps({k: doc[k] for k in keys}, indent=indent, ensure_ascii=seed % 2 == 0)
    rng = random.Random(seed)
    schema = Schema.from_model(Checked)
    for backend in jsondrip.available_backends():
        if backend == "jiter":
            continue
        live = jsondrip.Parser(schema=schema, backend=backend)
        start = 0
        while start < len(text):
            end = start + rng.randint(1, 9)
            live.feed(text[start:end])
            start = end
            fresh = jsondrip.Parser(schema=schema, backend=backend)
            fresh.feed(text[:end])
            assert _shown(live.partial()) == _shown(fresh.partial()), text[:end]
        assert live.close() == Checked.model_validate_json(text)

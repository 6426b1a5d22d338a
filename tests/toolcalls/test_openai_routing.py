"""OpenAI Chat's routing holds a response's one call alone, without maps (#28: memory per open
stream), and makes the maps by choice, index and id from its second call on: with the maps
made from the start instead, every chunk gives the same events and the calls end the same,
whatever the chunks' choices, indexes, ids, names and finish reasons (malformed ones too)."""

from __future__ import annotations

from typing import Any

import pytest
from _toolcall_support import snapshot_events
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from jsondrip.toolcalls import ToolCallAccumulator
from jsondrip.toolcalls.openai_chat import OpenAIChatHandler

ARGUMENTS = st.sampled_from([None, "", "{", '{"a": 1}', "}", '"x"', "[1", "]", "{}", "x"])
KEYS = st.sampled_from([None, 0, 1, 0.0, False, True, [0]])  # [0]: unhashable (malformed)
# (a fragment's index: none as often as one, so that ids and the last call route too)
POSITIONS = st.one_of(st.none(), st.sampled_from([0, 1, 0.0, True, [0]]))
IDS = st.sampled_from([None, "", "call_a", "call_a", "call_b", 7, ["id"]])
NAMES = st.sampled_from([None, "", "f", "g", "fg"])


@st.composite
def fragments(draw: Any) -> dict[str, Any]:
    fragment: dict[str, Any] = {}
    for key, values in (("index", POSITIONS), ("id", IDS)):
        value = draw(values)
        if value is not None:
            fragment[key] = value
    function = {}
    for key, values in (("name", NAMES), ("arguments", ARGUMENTS)):
        value = draw(values)
        if value is not None:
            function[key] = value
    if function or draw(st.booleans()):
        fragment["function"] = function
    return fragment


@st.composite
def chunks(draw: Any) -> Any:
    if draw(st.integers(0, 15)) == 0:
        return "[DONE]"
    choices = []
    for _ in range(draw(st.integers(1, 2))):
        choice: dict[str, Any] = {
            "index": draw(KEYS),
            "delta": {"tool_calls": draw(st.lists(fragments(), max_size=2))},
        }
        if draw(st.integers(0, 5)) == 0:
            choice["finish_reason"] = draw(st.sampled_from(["tool_calls", "length", "stop"]))
        choices.append(choice)
    return {"id": draw(st.sampled_from(["r1", "r2"])), "choices": choices}


def run(events: list[Any]) -> list[Any]:
    accumulator = ToolCallAccumulator(format="openai-chat", clock=lambda: 0.0)
    out: list[Any] = []
    for event in events:
        try:
            out.append(snapshot_events(accumulator.feed(event)))
        except ValueError as error:  # a malformed chunk: said the same way
            out.append(("error", str(error)))
    out.append(snapshot_events(accumulator.finish()))
    out.append([repr(call) for call in accumulator.tool_calls])
    return out


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(chunks(), max_size=12))
def test_one_call_alone_routes_as_the_maps_do(events: list[Any]) -> None:
    alone = run(events)
    started = OpenAIChatHandler._started

    def maps_first(self: Any, choice: Any, position: Any, call_id: Any, state: Any) -> None:
        self._maps(choice)  # the maps made before the first call is put in them
        started(self, choice, position, call_id, state)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(OpenAIChatHandler, "_started", maps_first)
        assert run(events) == alone

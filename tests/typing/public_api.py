"""A program using jsondrip's public API as a user's would, for the type checker only
(`nox -s types`: mypy against the installed package's `py.typed` and `_native.pyi`). Never run
by the suite: what it checks is that each call type-checks and each `assert_type` holds, so
that users' own checkers see the types the docs promise.
"""

from __future__ import annotations

import json
from typing import Any

from typing_extensions import assert_type

import jsondrip
from jsondrip import (
    MISSING,
    Change,
    IncompleteJSONError,
    Parser,
    Progress,
    Schema,
    SchemaViolation,
    ToolCall,
    ToolCallAccumulator,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)
from jsondrip.toolcalls import Event
from jsondrip.web import SSEEncoder, SSELog


def stream(fragments: list[str]) -> Any:
    parser = Parser(mode="stable", max_depth=64, max_size=1 << 20)
    for fragment in fragments:
        parser.feed(fragment)
        parser.feed(fragment.encode())
    assert_type(parser.done, bool)
    assert parser.value is not MISSING
    return parser.close()


def changes(fragments: list[str]) -> Any:
    parser = Parser()
    doc: Any = MISSING
    for fragment in fragments:
        made = parser.feed_changes(fragment)
        assert_type(made, list[Change])
        for op, path, _value in made:
            assert_type(op, str)
            assert_type(path, str)
        doc = jsondrip.apply_changes(doc, made)
    return jsondrip.apply_changes(doc, parser.close_changes())


def documents(fragments: list[str]) -> list[Any]:
    parser = Parser(multiple=True, watch=["/*", "/steps/*"])
    for fragment in fragments:
        parser.feed(fragment)
        for path, _value in parser.completed:
            assert_type(path, str)
    output = jsondrip.OutputParser(watch="/*", multiple=True)
    output.feed("".join(fragments))
    assert_type(output.completed, list[tuple[str, Any]])
    done: list[Any] = parser.close()
    return done


def errors(text: str) -> str:
    try:
        jsondrip.parse_partial(text, final=True)
    except IncompleteJSONError as error:
        assert_type(error.expected, str)
        return error.expected
    except json.JSONDecodeError as error:  # jsondrip's errors are json's
        assert_type(error.pos, int)
    return ""


def typed(text: str) -> Progress:
    schema = Schema({"type": "object", "properties": {"units": {"enum": ["C", "F"]}}})
    parser = Parser(schema=schema)
    try:
        parser.feed(text)
    except SchemaViolation as violation:
        assert_type(violation.path, str)
        assert_type(violation.pos, int)
    progress = parser.progress("/units")
    assert_type(progress.state, str)
    tools = Schema.from_tools([{"name": "f", "input_schema": {"type": "object"}}])
    assert_type(tools, dict[str, Schema])
    return progress


def tool_calls(body: bytes) -> list[ToolCall]:
    acc = ToolCallAccumulator(tools=[{"name": "f", "input_schema": {"type": "object"}}])
    ran: list[ToolCall] = []
    for event in [*acc.feed_sse(body), *acc.finish()]:
        if isinstance(event, ToolCallStarted):
            assert_type(event.kind, str)
        elif isinstance(event, ToolCallDelta):
            assert_type(event.arguments_delta, str)
            assert_type(event.changes, tuple[Change, ...])
            assert_type(event.snapshot(), ToolCallDelta)
        elif isinstance(event, ToolCallDone):
            call = event.tool_call
            assert_type(call.complete, bool)
            if call.complete and call.kind == "function":
                ran.append(call)
    # The events are dataclasses a test can build.
    made = ToolCallDelta(0, "call_1", "f", "{", {}, ())
    assert_type(made.index, int)
    assert_type(acc.tool_calls, list[ToolCall])
    return ran


def text_tools(deltas: list[str]) -> list[ToolCall]:
    """Tool calls written in a model's own text (`text_tools=`)."""
    acc = ToolCallAccumulator(text_tools="hermes")
    events = [event for delta in deltas for event in acc.feed_text(delta)]
    events += acc.finish()
    assert_type(events, list[Event])
    provider = ToolCallAccumulator(format="openai-chat", text_tools="auto")
    assert_type(provider.feed_sse(b""), list[Event])
    return [call for call in acc.tool_calls if call.complete]


def browser(body: bytes) -> list[str]:
    acc = ToolCallAccumulator()
    log = SSELog()
    log.add(acc.feed_sse(body))
    log.add(acc.finish())
    log.close()
    frames = SSEEncoder().encode(acc.finish())
    return [*frames, *log.follow(None)]


def drop_in(data: bytes) -> Any:
    value = jsondrip.loads(data)
    jsondrip.dumps(value)
    return jsondrip.loads(data.decode(), parse_float=float, object_hook=dict)

"""`ToolCallAccumulator(tools=...)`: calls checked against their tool's schema as they stream.

Every recorded stream of the shared corpus, with a schema per tool made from what the call
holds (types, required keys, no other keys): never flagged, however the stream is cut; the
same schema with one string narrowed to an enum that excludes its value: the call ends at
once, before the stream does, with the path and the message.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _toolcall_support import (  # noqa: F401 - make_acc is a fixture
    anthropic_tool,
    as_sse,
    chat,
    feed_all,
    frag,
    make_acc_fixture,
    outcome,
    random_cuts,
    run_sse,
    stream_files,
    stream_path,
)
from conftest import corpus_dir

from jsondrip.toolcalls import ToolCallDelta, ToolCallDone


def schema_of(value: Any) -> dict[str, Any]:
    """A strict schema that `value` satisfies: its types, its keys required, no other keys."""
    if isinstance(value, dict):
        return {
            "type": "object",
            "properties": {k: schema_of(v) for k, v in value.items()},
            "required": list(value),
            "additionalProperties": False,
        }
    if isinstance(value, list):
        items = [schema_of(v) for v in value]
        return (
            {"type": "array", "items": {"anyOf": items}}
            if items
            else {"type": "array", "maxItems": 0}
        )
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, (int, float)):
        return {"type": "number", "minimum": value, "maximum": value}
    if isinstance(value, str):
        return {"type": "string", "maxLength": len(value)}
    return {"type": "null"}


def tools_for(calls: list[Any]) -> list[dict[str, Any]]:
    """An Anthropic-shaped tool list: each tool's schema allows every call made to it."""
    schemas: dict[str, Any] = {}
    for call in calls:
        if call.kind != "function":
            continue
        # A call cut short is never complete: its tool takes anything, it stays listed.
        one = schema_of(call.arguments) if call.complete else {}
        schemas[call.name] = {"anyOf": [schemas[call.name], one]} if call.name in schemas else one
    return [{"name": name, "input_schema": schema} for name, schema in schemas.items()]


def first_string(
    schema: dict[str, Any], value: Any, path: str = ""
) -> tuple[dict[str, Any], str] | None:
    """A string property of a call: its schema (to narrow) and its path."""
    if isinstance(value, dict):
        for key, sub in value.items():
            found = first_string(schema["properties"][key], sub, f"{path}/{key}")
            if found:
                return found
    elif isinstance(value, str) and value:
        return schema, path
    return None


@pytest.mark.parametrize("name", stream_files())
def test_recorded_calls_pass_their_schema_and_a_narrowed_one_stops_them(
    make_acc, name: str
) -> None:
    corpus_dir("streams")  # skips, or fails in CI, saying how to get it
    data = as_sse(stream_path(name))
    plain = make_acc()
    run_sse(plain, [data])
    tools = tools_for(plain.tool_calls)  # the provider's own (server) tools are never listed
    for seed in range(3):
        typed = make_acc(tools=tools)
        run_sse(typed, list(random_cuts(data, seed)))
        assert outcome(typed) == outcome(plain), seed
    # One string narrowed to an enum without its value: that call ends early, the rest do not.
    stringy = [
        c
        for c in plain.tool_calls
        if c.complete and c.kind == "function" and first_string(schema_of(c.arguments), c.arguments)
    ]
    if not stringy:
        return  # no string argument to narrow (the recorded calls carry only numbers)
    call = stringy[0]
    if len({c.name for c in plain.tool_calls}) < len(plain.tool_calls):
        return  # a tool called twice: the narrowed schema would stop the other calls too
    narrowed = json.loads(json.dumps(tools))
    tool = next(t for t in narrowed if t["name"] == call.name)
    target, path = first_string(tool["input_schema"], call.arguments)  # type: ignore[misc]
    target.clear()
    target["enum"] = ["\x00never"]
    typed = make_acc(tools=narrowed)
    events: list[Any] = []
    for chunk in random_cuts(data, 7):
        events += typed.feed_sse(chunk)
    ended = typed.tool_calls[call.index]
    assert ended.finished and not ended.complete  # before finish(): the stream could stop here
    assert ended.error is not None and ended.error.startswith(f"schema: {path}: "), ended.error
    assert ended.error.endswith("is not one of '\\x00never'")
    done = [e for e in events if type(e) is ToolCallDone and e.tool_call.index == call.index]
    assert len(done) == 1
    later = events[events.index(done[0]) :]
    assert not any(type(e) is ToolCallDelta and e.index == call.index for e in later)
    for other in typed.tool_calls:
        if other.index != call.index and other.finished:
            assert other.error is None or not other.error.startswith("schema:")


WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "units": {"type": "array", "items": {"enum": ["C", "F"]}},
            },
            "required": ["city"],
            "additionalProperties": False,
        },
    },
}


def test_a_bad_fragment_ends_the_call_at_once(make_acc) -> None:
    acc = make_acc(tools=[WEATHER_TOOL])
    events = acc.feed(
        chat(frag(0, "call_1", "get_weather", '{"city": "Paris", "units": ["C", "kel'))
    )
    assert [type(e).__name__ for e in events] == [
        "ToolCallStarted",
        "ToolCallDelta",
        "ToolCallDone",
    ]
    call = events[-1].tool_call
    assert (call.complete, call.error) == (
        False,
        "schema: /units/1: 'kel'... is not one of 'C', 'F'",
    )
    assert acc.feed(chat(frag(0, args='vin"]}'))) == []  # the call takes nothing more


def test_an_unknown_tool_is_refused_when_its_name_is_complete(make_acc) -> None:
    acc = make_acc(tools=[WEATHER_TOOL])
    events = feed_all(acc, anthropic_tool('{"q": 1}', name="search"))
    call = acc.tool_calls[0]
    assert (call.complete, call.error) == (
        False,
        "schema: unknown tool 'search' (the tools are 'get_weather')",
    )
    assert [type(e).__name__ for e in events if type(e).__name__.startswith("ToolCall")] == [
        "ToolCallStarted",
        "ToolCallDone",
    ]


def test_a_call_without_arguments_must_accept_an_empty_object(make_acc) -> None:
    acc = make_acc(
        tools=[{"name": "get_weather", "input_schema": WEATHER_TOOL["function"]["parameters"]}]
    )
    feed_all(acc, anthropic_tool(name="get_weather"))
    call = acc.tool_calls[0]
    assert (call.complete, call.error) == (False, "schema: (root): 'city' is a required property")


def test_a_valid_call_is_unchanged(make_acc) -> None:
    acc = make_acc(tools=[WEATHER_TOOL])
    feed_all(acc, anthropic_tool('{"units": ["F"], ', '"city": "Oslo"}', name="get_weather"))
    call = acc.tool_calls[0]
    assert (call.complete, call.error, call.arguments) == (
        True,
        None,
        {"units": ["F"], "city": "Oslo"},
    )


# -- provider-defined tools (#30 item 9) -------------------------------------------------------

PROVIDER_TOOLS = [
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},  # Anthropic, server
    {"type": "code_execution_20250825", "name": "code_execution"},  # Anthropic, server
    {"type": "bash_20250124", "name": "bash"},  # Anthropic-defined, run by the client
    {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
    {"type": "web_search"},  # OpenAI Responses built-ins: no name
    {"type": "code_interpreter", "container": {"type": "auto"}},
    {"type": "mcp", "server_label": "docs", "server_url": "https://example.com/mcp"},
    {"type": "custom", "name": "sql", "format": {"type": "text"}},  # free-form text input
    {"googleSearch": {}},  # Gemini
    {"codeExecution": {}},
]
OWN_TOOLS = [
    {"name": "get_weather", "input_schema": {"type": "object", "required": ["city"]}},
    {"type": "custom", "name": "lookup", "input_schema": {"type": "object"}},  # Anthropic
    {"type": "function", "function": {"name": "ping"}},  # OpenAI Chat, no parameters
    {"type": "function", "name": "add", "parameters": {"type": "object"}},  # Responses
    {"functionDeclarations": [{"name": "now", "parameters": {"type": "OBJECT"}}]},  # Gemini
]


def test_item9_from_tools_leaves_out_provider_defined_tools() -> None:
    """#30 item 9: `Schema.from_tools` gave `web_search_20250305` and friends an empty object
    schema, which passes anything while claiming a check; they are left out now."""
    from jsondrip import Schema
    from jsondrip.schema.tools import provider_tool_names

    schemas = Schema.from_tools(PROVIDER_TOOLS + OWN_TOOLS)
    assert sorted(schemas) == ["add", "get_weather", "lookup", "now", "ping"]
    assert provider_tool_names(PROVIDER_TOOLS + OWN_TOOLS) == {
        "web_search",
        "code_execution",
        "bash",
        "str_replace_based_edit_tool",
        "sql",
    }


def test_item9_calls_of_provider_defined_tools_are_parsed_not_refused(make_acc) -> None:
    """#30 item 9: with `tools=` holding Anthropic's bash tool (run by the client, schema
    Anthropic's), a `bash` call is not an unknown tool: parsed, unchecked, complete; a
    name in no list is still refused, and the message lists every known name."""
    acc = make_acc(tools=PROVIDER_TOOLS + OWN_TOOLS)
    feed_all(acc, anthropic_tool('{"command": "ls"}', name="bash"))
    assert outcome(acc)[0][3:] == ({"command": "ls"}, '{"command": "ls"}', None, True)
    acc = make_acc(tools=PROVIDER_TOOLS + OWN_TOOLS)
    feed_all(acc, anthropic_tool("{}", name="rm_rf"))
    (call,) = acc.tool_calls
    assert call.error is not None and call.error.startswith("schema: unknown tool 'rm_rf' (the ")
    assert "'get_weather'" in call.error and "'bash'" in call.error

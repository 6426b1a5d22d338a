"""Every recorded stream, whole, line by line and cut at random bytes: the same tool calls,
equal to what the stream really contains.

What a stream contains is worked out here independently, the simplest way (concatenate each
call's fragments, `json.loads` them), and pinned by a hand-checked table of ids and names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _toolcall_support import (  # noqa: F401 - make_acc is a fixture
    as_sse,
    check_lifecycle,
    jsonl_events,
    make_acc_fixture,
    outcome,
    random_cuts,
    run_sse,
    stream_done,
    stream_files,
    stream_path,
    texts,
)

# (id, name) of every tool call, in order, read off the files by hand
CALLS = {
    "anthropic_server-tool-use_code-execution_909-deltas.chunks.jsonl": [
        ("srvtoolu_01VjmbsCAfwDbQqZ1vMT2TXb", "text_editor_code_execution"),
        ("srvtoolu_012YoPmsXAV9uamn7ihJQ4Tq", "bash_code_execution"),
        ("srvtoolu_016pjVUw18ZvdBcGYojw9V4a", "bash_code_execution"),
    ],
    "anthropic_text-then-tool-use.sse": [("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather")],
    "anthropic_thinking_mcp-tool-use_sonnet-4-5.sse": [
        ("mcptoolu_01FZmJ5UspaX5BB9uU339UT1", "ask_question")
    ],
    "anthropic_thinking_server-tool-use_escaped-quotes_sonnet-4-6.sse": [
        ("srvtoolu_01MwXaweAHve88x6s3Fc8x6Q", "bash_code_execution")
    ],
    "anthropic_tool-use_max-tokens-truncated.sse": [
        ("toolu_01EKqbqmZrGRXy18eN7m9kvY", "make_file")
    ],
    "anthropic_two-tool-blocks_nested-json-args.chunks.jsonl": [
        ("toolu_01U8pzAHj2vNdPCA2Kf8JjeN", "readNoteTree"),
        ("srvtoolu_01FjZe9o4YXXJjGxLmfj44Rf", "tool_search_tool_bm25"),
        ("toolu_01QoRrvXNv6w4vZSyo9cnxP2", "executeEditorOperation"),
    ],
    "azure-openai-responses_function-call_obfuscation.chunks.jsonl": [
        ("call_H5DxLSFnsGhiROnUiDHmgyc8", "weather")
    ],
    "deepseek-chat_reasoning-content_tool-calls.chunks.jsonl": [
        ("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", "weather")
    ],
    "openai-chat_json-content_max-tokens-truncated_gpt-4o.sse": [],
    "openai-chat_json-content_n3-choices_gpt-4o.sse": [],
    "openai-chat_parallel-tool-calls_gpt-4o.sse": [
        ("call_JMW1whyEaYG438VE1OIflxA2", "GetWeatherArgs"),
        ("call_DNYTawLBoN8fj3KN6qU9N1Ou", "get_stock_price"),
    ],
    "openai-chat_parallel-tool-calls_gpt-4o_b.sse": [
        ("call_q2UyBRP7eXNTzAoR8lEhjc9Z", "get_country"),
        ("call_b51ijcpFkDiTQG1bQzsrmtW5", "get_product_name"),
    ],
    "openai-chat_tool-call-strict_gpt-4o.sse": [("call_CTf1nWJLqSeRgDqaCG27xZ74", "get_weather")],
    "openai-responses_function-call_gpt-4o.sse": [("call_kL0PCQV7M2WMoVX8V8OtYSAL", "get_capital")],
    "openai-responses_reasoning-summary_function-calls_multi-turn.chunks.jsonl": [
        ("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "calculator"),
        ("call_Q6pW65MUgW9vF59BmItYGos3", "calculator"),
        ("call_Zl5vIMnD7dVAjgU6FkhmiCZh", "calculator"),
    ],
}
TRUNCATED = "anthropic_tool-use_max-tokens-truncated.sse"
TRUNCATED_PREVIEW = {
    "filename": "taxes.txt",
    "lines_of_text": [
        "# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",
        "",
        "## INTRODUCTION",
        "",
        "Filing taxes",
    ],
}
TRUNCATED_ERROR = (
    "truncated by the token limit ('max_tokens'): "
    "Unterminated string starting at: line 6 column 1 (char 136)"
)
FINISH = {
    "anthropic_server-tool-use_code-execution_909-deltas.chunks.jsonl": ["end_turn"],
    "anthropic_text-then-tool-use.sse": ["tool_use"],
    "anthropic_thinking_mcp-tool-use_sonnet-4-5.sse": ["end_turn"],
    "anthropic_thinking_server-tool-use_escaped-quotes_sonnet-4-6.sse": ["end_turn"],
    TRUNCATED: ["max_tokens"],
    "anthropic_two-tool-blocks_nested-json-args.chunks.jsonl": ["tool_use", "tool_use", "end_turn"],
    "azure-openai-responses_function-call_obfuscation.chunks.jsonl": ["completed"],
    "deepseek-chat_reasoning-content_tool-calls.chunks.jsonl": ["tool_calls"],
    "openai-chat_json-content_max-tokens-truncated_gpt-4o.sse": ["length"],
    "openai-chat_json-content_n3-choices_gpt-4o.sse": ["stop"],
    "openai-chat_parallel-tool-calls_gpt-4o.sse": ["tool_calls"],
    "openai-chat_parallel-tool-calls_gpt-4o_b.sse": ["tool_calls"],
    "openai-chat_tool-call-strict_gpt-4o.sse": ["tool_calls"],
    "openai-responses_function-call_gpt-4o.sse": ["completed"],
    "openai-responses_reasoning-summary_function-calls_multi-turn.chunks.jsonl": ["completed"] * 4,
}


def decoded_events(path: Path) -> list[dict[str, Any]]:
    """The JSON events of a stream file (SSE `data:` lines, or JSON lines)."""
    if path.suffix == ".jsonl":
        return jsonl_events(path)
    out = []
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("data: ") and line != "data: [DONE]":
            out.append(json.loads(line[6:]))
    return out


def contents(path: Path) -> tuple[list[tuple[str, str, str]], dict[int, str], str]:
    """What the stream contains: (id, name, raw arguments) per call, text per choice, reasoning.

    The simplest reading: key each call by what the API says identifies it, concatenate.
    """
    calls: dict[Any, list[str]] = {}
    text: dict[int, str] = {}
    reasoning = ""
    message = 0
    for event in decoded_events(path):
        kind = event.get("type")
        for choice in event.get("choices") or []:  # Chat Completions
            delta = choice["delta"]
            if delta.get("content"):
                text[choice["index"]] = text.get(choice["index"], "") + delta["content"]
            reasoning += delta.get("reasoning_content") or ""
            for tc in delta.get("tool_calls") or []:
                fn = tc.get("function", {})
                entry = calls.setdefault((choice["index"], tc["index"]), [tc.get("id"), "", ""])
                entry[1] += fn.get("name") or ""
                entry[2] += fn.get("arguments") or ""
        if kind in ("message_start", "response.created"):
            message += 1
        elif kind == "content_block_start" and "tool_use" in event["content_block"]["type"]:
            block = event["content_block"]
            calls[(message, event["index"])] = [block["id"], block["name"], ""]
        elif kind == "content_block_delta":
            delta = event["delta"]
            if delta["type"] == "input_json_delta":
                calls[(message, event["index"])][2] += delta["partial_json"]
            elif delta["type"] == "text_delta":
                text[0] = text.get(0, "") + delta["text"]
            elif delta["type"] == "thinking_delta":
                reasoning += delta["thinking"]
        elif kind == "response.output_item.added" and event["item"]["type"] == "function_call":
            item = event["item"]
            calls[item["id"]] = [item["call_id"], item["name"], ""]
        elif kind == "response.function_call_arguments.delta":
            calls[event["item_id"]][2] += event["delta"]
        elif kind == "response.function_call_arguments.done":
            assert calls[event["item_id"]][2] == event["arguments"]
        elif kind == "response.output_text.delta":
            text[0] = text.get(0, "") + event["delta"]
        elif kind == "response.reasoning_summary_text.delta":
            reasoning += event["delta"]
    return [tuple(v) for v in calls.values()], text, reasoning  # type: ignore[misc]


def expected(name: str) -> list[tuple[Any, ...]]:
    """The final calls the accumulator must report for a corpus file."""
    found, _, _ = contents(stream_path(name))
    assert [(i, n) for i, n, _ in found] == CALLS[name]
    out = []
    for index, (call_id, tool, raw) in enumerate(found):
        if name == TRUNCATED:
            out.append((index, call_id, tool, TRUNCATED_PREVIEW, raw, TRUNCATED_ERROR, False))
        else:
            value = json.loads(raw) if raw.strip() else {}
            out.append((index, call_id, tool, value, raw, None, True))
    return out


def feedings(path: Path) -> dict[str, list[Any]]:
    """The ways each file is fed: whole, line by line, and cut at random bytes (3 seeds)."""
    data = as_sse(path)
    lines = data.splitlines(keepends=True)
    ways: dict[str, list[Any]] = {"whole": [data], "lines": lines}
    for seed in range(3):
        ways[f"cut{seed}"] = list(random_cuts(data, seed))
    ways["bytes"] = [data[i : i + 1] for i in range(len(data))] if len(data) < 20_000 else []
    return ways


@pytest.mark.parametrize("name", stream_files())
def test_recorded_stream_gives_the_same_calls_however_it_is_cut(make_acc, name: str) -> None:
    path = stream_path(name)
    want = expected(name)
    want_text, want_reasoning = contents(path)[1:]
    for way, chunks in feedings(path).items():
        if not chunks:
            continue
        acc = make_acc()
        events = run_sse(acc, chunks)
        assert outcome(acc) == want, way
        check_lifecycle(acc, events)
        assert stream_done(events) == FINISH[name], way
        got_text, got_reasoning = texts(events)
        assert got_text == want_text, way
        assert got_reasoning == want_reasoning, way


@pytest.mark.parametrize("name", [n for n in stream_files() if n.endswith(".jsonl")])
def test_recorded_events_fed_one_by_one_as_dicts_and_as_json_text(make_acc, name: str) -> None:
    path = stream_path(name)
    want = expected(name)
    lines = [line for line in path.read_text("utf-8").splitlines() if line.strip()]
    for as_text in (False, True):
        acc = make_acc()
        events: list[Any] = []
        for line in lines:
            events += acc.feed(line if as_text else json.loads(line))
        events += acc.finish()
        assert outcome(acc) == want
        check_lifecycle(acc, events)
        assert stream_done(events) == FINISH[name]


def test_n3_choices_are_kept_apart_and_each_is_the_recorded_json(make_acc) -> None:
    name = "openai-chat_json-content_n3-choices_gpt-4o.sse"
    acc = make_acc()
    events = run_sse(acc, [as_sse(stream_path(name))])
    text, _ = texts(events)
    assert text == {
        0: '{"city":"San Francisco","temperature":65,"units":"f"}',
        1: '{"city":"San Francisco","temperature":61,"units":"f"}',
        2: '{"city":"San Francisco","temperature":59,"units":"f"}',
    }

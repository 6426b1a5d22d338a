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
from _corpus_reader import contents, final_value
from _toolcall_support import (  # noqa: F401 - make_acc is a fixture
    as_sse,
    check_lifecycle,
    make_acc_fixture,
    random_cuts,
    run_sse,
    stream_done,
    stream_files,
    stream_path,
    texts,
)

# (id, name[, "server"]) of every tool call, in order, read off the files by hand and checked
# against SOURCE.md's description of each recording (what its SDK or test says the calls are)
S = "server"
CALLS: dict[str, list[tuple[Any, ...]]] = {
    "alibaba-qwen_tool-call_empty-id-continuations.chunks.jsonl": [
        ("call_eee11723464a4b9eb8cee71d", "weather")
    ],
    "anthropic_programmatic-tool-calling_input-in-block-start.chunks.jsonl": [
        ("srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK", "code_execution", S),
        ("toolu_019jKkXz4jAdwHweHBw92CVY", "rollDie"),
        ("toolu_015dGLMbwBKv1ZRQr6KdJzeH", "rollDie"),
        ("toolu_01YYqBNq5mk1wMtv3PAqY44m", "rollDie"),
        ("toolu_018WxjDkQG8h7i63poySGT2x", "rollDie"),
        ("toolu_014ch4D3vbx928ddwxMvMvF1", "rollDie"),
        ("toolu_01QtZ46GWS93Z5ZaSifgGNnq", "rollDie"),
        ("toolu_012Zvp8FdgvjVGkmbHSU4EZk", "rollDie"),
        ("toolu_01CMz8Jhv6EfnzHQzEMdpHut", "rollDie"),
        ("toolu_01PfH6ADzq8Yct5jeRY9QkS2", "rollDie"),
        ("toolu_013DE3qaKvBMheZXUhwkvpdF", "rollDie"),
        ("toolu_01MTRMy9BEvFHWR7hpCWc4nJ", "rollDie"),
        ("toolu_01CXqv27ozPihE5nj6eA3Joc", "rollDie"),
        ("toolu_01K6ST6orjmPHHwM8rwLj1n9", "rollDie"),
        ("toolu_01QcWWQcQ1pd7nx9xohX4zAr", "rollDie"),
    ],
    "anthropic_server-tool-use_code-execution_909-deltas.chunks.jsonl": [
        ("srvtoolu_01VjmbsCAfwDbQqZ1vMT2TXb", "text_editor_code_execution", S),
        ("srvtoolu_012YoPmsXAV9uamn7ihJQ4Tq", "bash_code_execution", S),
        ("srvtoolu_016pjVUw18ZvdBcGYojw9V4a", "bash_code_execution", S),
    ],
    "anthropic_text-then-tool-use.sse": [("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather")],
    "anthropic_thinking_mcp-tool-use_sonnet-4-5.sse": [
        ("mcptoolu_01FZmJ5UspaX5BB9uU339UT1", "ask_question", S)
    ],
    "anthropic_thinking_server-tool-use_escaped-quotes_sonnet-4-6.sse": [
        ("srvtoolu_01MwXaweAHve88x6s3Fc8x6Q", "bash_code_execution", S)
    ],
    "anthropic_three-parallel-tool-use_padded.chunks.jsonl": [
        ("toolu_01LtEf4h1QW7KCKLsYMuhTNB", "searchDocs"),
        ("toolu_016tfZE7otAFSBjhc67wu189", "searchDocs"),
        ("toolu_01XkU35z8BVWqqc9tijDuLrA", "searchDocs"),
    ],
    "anthropic_tool-use-no-args_pings.chunks.jsonl": [
        ("toolu_01QE1WLsSVp5hy5Q3GmGTmjP", "updateIssueList")
    ],
    "anthropic_tool-use_max-tokens-truncated.sse": [
        ("toolu_01EKqbqmZrGRXy18eN7m9kvY", "make_file")
    ],
    "anthropic_two-tool-blocks_nested-json-args.chunks.jsonl": [
        ("toolu_01U8pzAHj2vNdPCA2Kf8JjeN", "readNoteTree"),
        ("srvtoolu_01FjZe9o4YXXJjGxLmfj44Rf", "tool_search_tool_bm25", S),
        ("toolu_01QoRrvXNv6w4vZSyo9cnxP2", "executeEditorOperation"),
    ],
    "azure-openai-responses_function-call_obfuscation.chunks.jsonl": [
        ("call_H5DxLSFnsGhiROnUiDHmgyc8", "weather")
    ],
    "bedrock-converse_kimi-k2_tool-call-leaked-into-text.chunks.jsonl": [],
    "bedrock-converse_nova-micro_thinking-tags-text_tool-use_p-padding.chunks.jsonl": [
        ("tooluse_lAG_zP8QRHmSYOwZzzaCqA", "get_temperature")
    ],
    "bedrock-converse_nova_server-tool-use_tool-result_then-tool-use.chunks.jsonl": [
        ("tooluse_VQNZJRUFMoqZzszVsRd4og", "nova_code_interpreter", S),
        ("tooluse_ptgCcZ0uQu-UUMz0abqoWw", "final_result"),
    ],
    "bedrock-converse_redacted-reasoning_tool-use_26-fragments.chunks.jsonl": [
        ("call_61f8fcbe423a58699163c53e076f1a06", "propose")
    ],
    "bedrock-mantle-responses_data-before-event_function-call.sse": [("call_0", "first_tool")],
    "cerebras-chat_glm-4.7_reasoning_two-responses_tool-calls.chunks.jsonl": [
        ("bbd2b9d98", "nonUsefulTool"),
        ("e0ecf32e0", "nonUsefulTool"),
    ],
    "cohere-v2_thinking-content-deltas.chunks.jsonl": [],
    "cohere-v2_tool-plan_two-tool-calls.chunks.jsonl": [
        ("weather_e8p4pn45zt0t", "weather"),
        ("cityAttractions_pyxssbwnq9fq", "cityAttractions"),
    ],
    "deepseek-chat_reasoning-content_tool-calls.chunks.jsonl": [
        ("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", "weather")
    ],
    "deepseek-responses_reasoning-text_function-call_uuid-ids.sse": [
        ("call_00_xjY8Z2BvSlzgEmmw0DtH0464", "get_temperature")
    ],
    "gemini-interactions_function-call_arguments-delta.chunks.jsonl": [("61nzpsv4", "getWeather")],
    "gemini_no-args-tool-call_crlf_gemini-3-pro.sse": [(None, "get_country")],
    "gemini_thought-summaries_no-args-tool-call_gemini-2.5-flash.sse": [(None, "now")],
    "gemini_tool-call-with-id_crlf_gemini-3-flash.sse": [("96c1su3s", "get_user_country")],
    "gemini_tool-call_thought-signature_gemini-3-pro.chunks.jsonl": [(None, "weather")],
    "groq_gpt-oss_reasoning-channel_tool-call-whole.sse": [
        ("fc_bfb39741-3748-4def-9886-a93fc9c64a90", "get_something_by_name")
    ],
    "groq_gpt-oss_tool-use-failed-error-event.sse": [],
    "groq_llama-3.3_tool-call-args-empty-object.chunks.jsonl": [("tk85n1k4m", "weather")],
    "lmstudio-responses_function-call_no-argument-deltas.chunks.jsonl": [
        ("call_2025306790300011", "weather")
    ],
    "mistral_magistral_thinking-content-array.chunks.jsonl": [],
    "mistral_tool-call_no-index_whole-args.chunks.jsonl": [("gSIMJiOkT", "weather")],
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
    "openai-chat_refusal-deltas_gpt-4o.sse": [],
    "openai-chat_text-then-tool-call_gpt-4o.chunks.jsonl": [
        ("call_NZa7xqfefoaMI2YYHowVXVlU", "weather")
    ],
    "openai-chat_tool-call-strict_gpt-4o.sse": [("call_CTf1nWJLqSeRgDqaCG27xZ74", "get_weather")],
    "openai-compat_claude-haiku_tool-call-index-starts-at-1_sanitized.sse": [
        ("toolu_sanitized", "read_file")
    ],
    "openai-responses_function-call_gpt-4o.sse": [("call_kL0PCQV7M2WMoVX8V8OtYSAL", "get_capital")],
    "openai-responses_program-caller_function-call.chunks.jsonl": [
        ("call_VgDSZztLociNcutQZWkC2fmL", "getInventory")
    ],
    "openai-responses_reasoning-summary_function-calls_multi-turn.chunks.jsonl": [
        ("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "calculator"),
        ("call_Q6pW65MUgW9vF59BmItYGos3", "calculator"),
        ("call_Zl5vIMnD7dVAjgU6FkhmiCZh", "calculator"),
    ],
    "openrouter-chat_sse-comment-lines_duplicate-finish.sse": [],
    "snowflake-cortex-chat_null-tool-calls_no-finish-reason.sse": [],
    "vertex-gemini_partial-args_nested-json-paths_gemini-3.1-pro.chunks.jsonl": [
        (None, "cookRecipe")
    ],
    "vertex-gemini_partial-args_two-parallel-calls_gemini-3.1-pro.chunks.jsonl": [
        (None, "getWeather"),
        (None, "getWeather"),
    ],
    "vertex-gemini_thought_no-args-call_then-3-partial-args-calls_gemini-3-flash.chunks.jsonl": [
        (None, "read_theme"),
        (None, "read_screen"),
        (None, "read_screen"),
        (None, "read_screen"),
    ],
    "xai-chat_grok-3-mini_reasoning-content_tool-call-whole.chunks.jsonl": [
        ("call_55117580", "weather")
    ],
    "xai-responses_function-call-complete-in-item-added.chunks.jsonl": [
        ("call_25342192", "getWeather")
    ],
    "xai-responses_parallel-server-tool-calls_out-of-order-done.chunks.jsonl": [
        ("xs_call_24148162", "x_keyword_search", S),
        ("xs_call_14963218", "view_x_video", S),
        ("ws_b7b464ea-cc85-d44a-0f2f-1f7320e703c3_call_55360208", "web_search", S),
        ("ws_b7b464ea-cc85-d44a-0f2f-1f7320e703c3_call_63718660", "web_search", S),
        ("ws_b7b464ea-cc85-d44a-0f2f-1f7320e703c3_call_09546004", "web_search", S),
        ("ws_b7b464ea-cc85-d44a-0f2f-1f7320e703c3_call_45339693", "web_search", S),
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
    "anthropic_programmatic-tool-calling_input-in-block-start.chunks.jsonl": ["tool_use"] * 14
    + ["end_turn"],
    "anthropic_two-tool-blocks_nested-json-args.chunks.jsonl": ["tool_use", "tool_use", "end_turn"],
    "cerebras-chat_glm-4.7_reasoning_two-responses_tool-calls.chunks.jsonl": ["tool_calls"] * 2,
    "openai-responses_reasoning-summary_function-calls_multi-turn.chunks.jsonl": ["completed"] * 4,
    "groq_gpt-oss_tool-use-failed-error-event.sse": ["error"],
    "snowflake-cortex-chat_null-tool-calls_no-finish-reason.sse": [None],
    "gemini-interactions_function-call_arguments-delta.chunks.jsonl": ["requires_action"],
}
# the one finish reason of every other file, by the provider's own word for it
FINISH_BY_PREFIX = {
    "anthropic_server": "end_turn",
    "anthropic_thinking": "end_turn",
    "anthropic_tool-use_max": "max_tokens",
    "anthropic": "tool_use",
    "bedrock-converse_kimi": "end_turn",
    "bedrock-converse": "tool_use",
    "cohere-v2_thinking": "COMPLETE",
    "cohere-v2": "TOOL_CALL",
    "gemini": "STOP",
    "vertex": "STOP",
    "openai-chat_json-content_max": "length",
    "openai-chat_json-content": "stop",
    "openai-chat_refusal": "stop",
    "openrouter": "stop",
    "mistral_magistral": "stop",
}
NO_TEXT_CHECK = {  # text holding a `<think>` tag: the splitter's own tests cover it
    "bedrock-converse_kimi-k2_tool-call-leaked-into-text.chunks.jsonl",
}


def finish_reasons(name: str) -> list[str | None]:
    """The finish reason of each response of a file, in order."""
    if name in FINISH:
        return FINISH[name]
    for prefix, reason in FINISH_BY_PREFIX.items():
        if name.startswith(prefix):
            return [reason]
    return ["completed" if "responses" in name else "tool_calls"]


def expected(name: str) -> list[tuple[Any, ...]]:
    """The final calls the accumulator must report for a corpus file: (index, id, name,
    kind, arguments, raw, error, complete)."""
    found, _, _ = contents(stream_path(name))
    table = [(c[0], c[1]) if c[2] == "function" else (c[0], c[1], c[2]) for c in found]
    assert table == CALLS[name]
    out = []
    for index, call in enumerate(found):
        call_id, tool, kind = call[:3]
        if name == TRUNCATED:
            out.append(
                (index, call_id, tool, kind, TRUNCATED_PREVIEW, call[3], TRUNCATED_ERROR, False)
            )
        else:
            value, raw = final_value(call)
            out.append((index, call_id, tool, kind, value, raw, None, True))
    return out


def outcome_with_kind(acc: Any) -> list[tuple[Any, ...]]:
    """Each call as (index, id, name, kind, arguments, raw, error, complete)."""
    return [
        (c.index, c.id, c.name, c.kind, c.arguments, c.raw, c.error, c.complete)
        for c in acc.tool_calls
    ]


def feedings(path: Path) -> dict[str, tuple[str, list[Any]]]:
    """The ways each file is fed: `feed_sse` whole, line by line, cut at random bytes (3
    seeds) and byte by byte; JSON-lines files also through `feed_lines` whole, at random cuts
    and byte by byte."""
    data = as_sse(path)
    ways: dict[str, tuple[str, list[Any]]] = {
        "whole": ("feed_sse", [data]),
        "lines": ("feed_sse", data.splitlines(keepends=True)),
    }
    for seed in range(3):
        ways[f"cut{seed}"] = ("feed_sse", list(random_cuts(data, seed)))
    if len(data) < 40_000:
        ways["bytes"] = ("feed_sse", [data[i : i + 1] for i in range(len(data))])
    if path.suffix == ".jsonl":
        raw = path.read_bytes()
        ways["ndjson whole"] = ("feed_lines", [raw])
        ways["ndjson cut"] = ("feed_lines", list(random_cuts(raw, 7)))
        if len(raw) < 40_000:
            ways["ndjson bytes"] = ("feed_lines", [raw[i : i + 1] for i in range(len(raw))])
    return ways


@pytest.mark.parametrize("name", stream_files())
def test_recorded_stream_gives_the_same_calls_however_it_is_cut(make_acc, name: str) -> None:
    path = stream_path(name)
    want = expected(name)
    want_text, want_reasoning = contents(path)[1:]
    for way, (method, chunks) in feedings(path).items():
        acc = make_acc()
        events: list[Any] = []
        for chunk in chunks:
            events += getattr(acc, method)(chunk)
        events += acc.finish()
        assert outcome_with_kind(acc) == want, way
        check_lifecycle(acc, events)
        assert stream_done(events) == finish_reasons(name), way
        if name not in NO_TEXT_CHECK:
            got_text, got_reasoning = texts(events)
            assert got_text == {k: v for k, v in want_text.items() if v}, way
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
        assert outcome_with_kind(acc) == want
        check_lifecycle(acc, events)
        assert stream_done(events) == finish_reasons(name)


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


def test_vertex_partial_args_raw_is_the_arguments_serialised(make_acc) -> None:
    name = "vertex-gemini_partial-args_nested-json-paths_gemini-3.1-pro.chunks.jsonl"
    acc = make_acc()
    acc.feed_lines(stream_path(name).read_bytes())
    acc.finish()
    (call,) = acc.tool_calls
    assert call.raw == json.dumps(call.arguments, ensure_ascii=False)
    assert list(call.arguments["recipe"]) == ["ingredients", "name", "steps"]
    assert call.arguments["recipe"]["steps"][4] == (
        "In a 9x13 baking dish, spread a thin layer of meat sauce."
    )
    assert len(call.arguments["recipe"]["ingredients"]) == 10

"""The providers beyond OpenAI and Anthropic, and the entry points: exact calls, previews and
changes, server-run calls, NDJSON and SDK objects (duck-typed stand-ins: the SDKs are never
imported by the library, nor needed here)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from _toolcall_support import anthropic_tool, feed_all, make_acc_fixture  # noqa: F401

import jsondrip
from jsondrip.toolcalls import StreamDone, ToolCallDelta, ToolCallDone, ToolCallStarted
from jsondrip.toolcalls.partial_args import PartialArgsWriter, parse_json_path


def gemini(*parts: dict[str, Any], finish: str | None = None, rid: str = "r1") -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "responseId": rid}


def fc(**call: Any) -> dict[str, Any]:
    return {"functionCall": call}


def piece(path: str, more: bool = False, **value: Any) -> dict[str, Any]:
    out = {"jsonPath": path, **value}
    if more:
        out["willContinue"] = True
    return out


ARGS = {"city": "Paris \"12e\" ü", "days": 3, "ok": True, "none": None,
        "tags": ["a", "b"], "nested": {"x": [{"y": 1.5}]}}  # fmt: skip
VERTEX = [
    gemini(fc(name="plan", willContinue=True)),
    gemini(fc(partialArgs=[piece("$.city", True, stringValue="Paris \"1")], willContinue=True)),
    gemini(fc(partialArgs=[piece("$.city", True, stringValue="2e\" ü")], willContinue=True)),
    gemini(fc(partialArgs=[piece("$.city", stringValue="")], willContinue=True)),
    gemini(fc(partialArgs=[piece("$.days", numberValue=3), piece("$.ok", boolValue=True),
                           piece("$.none", nullValue="NULL_VALUE")], willContinue=True)),
    gemini(fc(partialArgs=[piece("$.tags[0]", stringValue="a"), piece("$.tags[1]",
                                                                      stringValue="b")],
              willContinue=True)),
    gemini(fc(willContinue=True)),
    gemini(fc(partialArgs=[piece("$.nested.x[0].y", numberValue=1.5)], willContinue=True)),
    gemini(fc()),
    gemini({"text": ""}, finish="STOP"),
]  # fmt: skip


def test_vertex_partial_args_give_the_previews_and_changes_of_json_text(make_acc) -> None:
    acc = make_acc()
    events = feed_all(acc, VERTEX)
    (call,) = acc.tool_calls
    assert (call.name, call.arguments, call.complete, call.error) == ("plan", ARGS, True, None)
    assert call.raw == json.dumps(ARGS, ensure_ascii=False)
    deltas = [e for e in events if type(e) is ToolCallDelta]
    # the same text fed as Anthropic fragments gives the same previews and changes
    text = [e.arguments_delta for e in deltas]
    acc2 = make_acc()
    twin = [e for ev in anthropic_tool(*text) for e in acc2.feed(ev)] + acc2.finish()
    twin_deltas = [e for e in twin if type(e) is ToolCallDelta]
    assert [d.changes for d in deltas] == [d.changes for d in twin_deltas]
    replayed: Any = jsondrip.MISSING
    for delta in deltas:
        replayed = jsondrip.apply_changes(replayed, list(delta.changes))
    assert replayed == ARGS
    assert [type(e).__name__ for e in events][-2:] == ["ToolCallDone", "StreamDone"]


def test_vertex_call_whose_will_continue_never_ended_is_incomplete(make_acc) -> None:
    for finish, error in [
        ("STOP", "incomplete JSON: the call ended early (STOP): willContinue never ended"),
        ("MAX_TOKENS", "truncated by the token limit ('MAX_TOKENS'): willContinue never ended"),
        (None, "incomplete: the stream ended before the provider closed the call"),
    ]:
        acc = make_acc()
        events = VERTEX[:6]
        if finish:
            events = [*events, gemini(finish=finish)]
        feed_all(acc, events)
        (call,) = acc.tool_calls
        assert (call.complete, call.error) == (False, error)
        assert call.arguments == {k: ARGS[k] for k in ("city", "days", "ok", "none", "tags")}


def test_partial_args_out_of_document_order_is_an_error_naming_the_paths() -> None:
    writer = PartialArgsWriter()
    writer.feed([piece("$.a[0]", numberValue=1)])
    with pytest.raises(ValueError, match=r"\$\.a\[2\]: element 2 cannot follow 1 element"):
        writer.feed([piece("$.a[2]", numberValue=1)])
    writer = PartialArgsWriter()
    writer.feed([piece("$.a.b", numberValue=1), piece("$.c", numberValue=2)])
    with pytest.raises(ValueError, match=r"\$\.a\.d: the key 'a' was already written"):
        writer.feed([piece("$.a.d", numberValue=1)])
    assert parse_json_path("$['a b'].c[3][\"d\"]") == ["a b", "c", 3, "d"]
    with pytest.raises(ValueError, match="does not start with"):
        parse_json_path("a.b")


def test_an_out_of_order_piece_ends_the_call_with_an_error(make_acc) -> None:
    acc = make_acc()
    feed_all(
        acc,
        [
            gemini(fc(name="f", willContinue=True)),
            gemini(fc(partialArgs=[piece("$.a[1]", numberValue=1)], willContinue=True)),
            gemini(fc(), finish="STOP"),
        ],
    )
    (call,) = acc.tool_calls
    assert call.complete is False
    assert call.error == (
        "invalid JSON: partialArgs $.a[1]: element 1 cannot follow 0 element(s) already written"
    )


def test_partial_args_writer_random_documents_round_trip() -> None:
    rng = random.Random(5)
    for _ in range(200):
        value = _random_object(rng, 3)
        pieces = list(_pieces(value, "$", rng))
        writer = PartialArgsWriter()
        text = writer.feed(pieces) + writer.end()
        assert json.loads(text) == value and text == json.dumps(value, ensure_ascii=False)


def _random_object(rng: random.Random, depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i in range(rng.randint(1, 4)):
        out[rng.choice(["k", "ключ", 'q"', "a b"]) + str(i)] = _random_value(rng, depth)
    return out


def _random_value(rng: random.Random, depth: int) -> Any:
    roll = rng.randrange(7 if depth else 4)
    if roll == 0:
        return "".join(rng.choice('ab"\\\n😀é') for _ in range(rng.randint(0, 6)))
    if roll == 1:
        return rng.choice([0, -3, 2.5, 1e20])
    if roll == 2:
        return rng.choice([True, False])
    if roll == 3:
        return None
    if roll in (4, 5):
        return _random_object(rng, depth - 1)
    return [_random_value(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def _pieces(value: Any, path: str, rng: random.Random) -> Any:
    def step(key: Any) -> str:
        if isinstance(key, int):
            return f"{path}[{key}]"
        return f"{path}.{key}" if key.isalnum() else f"{path}[{json.dumps(key)}]"

    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        where = step(key)
        if isinstance(child, (dict, list)) and child:
            yield from _pieces(child, where, rng)
        elif isinstance(child, str):
            cut = rng.randint(0, len(child))
            if cut:
                yield piece(where, True, stringValue=child[:cut])
            yield piece(where, stringValue=child[cut:])
        elif isinstance(child, bool):
            yield piece(where, boolValue=child)
        elif child is None:
            yield piece(where, nullValue="NULL_VALUE")
        elif isinstance(child, (dict, list)):
            pytest.skip("an empty container cannot be sent as partialArgs")
        else:
            yield piece(where, numberValue=child)


def test_gemini_parallel_whole_calls_code_execution_and_snake_case(make_acc) -> None:
    acc = make_acc()
    events = feed_all(
        acc,
        [
            gemini({"text": "thinking...", "thought": True}, {"text": "Sure. "}),
            gemini(
                fc(name="a", args={"x": 1}, id="id1"),
                fc(name="b"),
                {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
            ),
            {  # google-genai's to_json_dict() spelling
                "candidates": [
                    {
                        "content": {"parts": [{"function_call": {"name": "c", "args": {}}}]},
                        "finish_reason": "STOP",
                    }
                ],
                "response_id": "r1",
            },
        ],
    )
    got = [(c.id, c.name, c.kind, c.arguments, c.raw, c.complete) for c in acc.tool_calls]
    assert got == [
        ("id1", "a", "function", {"x": 1}, '{"x": 1}', True),
        (None, "b", "function", {}, "", True),
        (None, "code_execution", "server", {"language": "PYTHON", "code": "print(1)"},
         '{"language": "PYTHON", "code": "print(1)"}', True),
        (None, "c", "function", {}, "{}", True),
    ]  # fmt: skip
    assert [e for e in events if type(e) is StreamDone] == [StreamDone("STOP")]
    started = [e for e in events if type(e) is ToolCallStarted]
    assert [e.kind for e in started] == ["function", "function", "server", "function"]


def test_gemini_max_tokens_and_malformed_function_call(make_acc) -> None:
    acc = make_acc()
    events = feed_all(acc, [gemini({"text": "x"}, finish="MALFORMED_FUNCTION_CALL")])
    assert acc.tool_calls == [] and stream_reasons(events) == ["MALFORMED_FUNCTION_CALL"]
    acc = make_acc()
    events = feed_all(acc, [gemini(fc(name="f", args={"a": 1}), finish="MAX_TOKENS")])
    assert [(c.complete, c.arguments) for c in acc.tool_calls] == [(True, {"a": 1})]


def stream_reasons(events: list[Any]) -> list[Any]:
    return [e.finish_reason for e in events if type(e) is StreamDone]


OLLAMA = [
    {"model": "m", "created_at": "t", "message": {"role": "assistant", "content": "",
                                                  "thinking": "hmm"}, "done": False},
    {"model": "m", "created_at": "t", "message": {"role": "assistant", "content": "",
     "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Tōkyō"}}},
                    {"id": "call_2", "function": {"index": 1, "name": "get_time",
                                                  "arguments": {}}}]}, "done": False},
    {"model": "m", "created_at": "t", "message": {"role": "assistant", "content": "ok"},
     "done": True, "done_reason": "stop"},
]  # fmt: skip


def test_ollama_ndjson_cut_anywhere(make_acc) -> None:
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in OLLAMA).encode()
    want = [
        (None, "get_weather", {"city": "Tōkyō"}, '{"city": "Tōkyō"}', True),
        ("call_2", "get_time", {}, "{}", True),
    ]
    rng = random.Random(1)
    for cuts in ([len(body)], range(1, len(body) + 1), sorted(rng.sample(range(len(body)), 9))):
        acc = make_acc()
        events: list[Any] = []
        start = 0
        for cut in [*cuts, len(body)]:
            events += acc.feed_lines(body[start:cut])
            start = cut
        events += acc.finish()
        assert acc.format == "ollama"
        assert [(c.id, c.name, c.arguments, c.raw, c.complete) for c in acc.tool_calls] == want
        assert stream_reasons(events) == ["stop"]


def test_feed_lines_reads_a_last_line_without_newline_and_names_a_bad_line(make_acc) -> None:
    acc = make_acc()
    acc.feed_lines(json.dumps(OLLAMA[1]) + "\n\n")
    acc.feed_lines(json.dumps(OLLAMA[2]))
    acc.finish()
    assert [c.complete for c in acc.tool_calls] == [True, True]
    acc = make_acc()
    with pytest.raises(ValueError, match=r"^line 3: "):
        acc.feed_lines('{"choices": []}\n\nnot json\n')


def test_a_raw_sse_body_passed_to_feed_names_feed_sse(make_acc) -> None:
    for body in ("data: {}\n\n", b"event: message_start\ndata: {}\n\n", ": keep-alive\n"):
        with pytest.raises(ValueError, match=r"pass it to feed_sse\(\)"):
            make_acc().feed(body)


class _Model:
    """A stand-in for a pydantic SDK object (google-genai, cohere, ollama): `model_dump`."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def model_dump(self, *, by_alias: bool = False, exclude_none: bool = False) -> Any:
        assert by_alias and exclude_none
        return copy.deepcopy(self._data)


def test_sdk_objects_are_read_through_model_dump(make_acc) -> None:
    acc = make_acc()
    feed_all(acc, [_Model(e) for e in OLLAMA])
    assert [c.complete for c in acc.tool_calls] == [True, True]
    acc = make_acc()
    feed_all(acc, [_Model(e) for e in VERTEX])
    assert acc.tool_calls[0].arguments == ARGS


COHERE = [
    {"type": "message-start", "id": "m1", "delta": {"message": {"role": "assistant"}}},
    {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": "I will"}}},
    {"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": {
        "id": "t1", "type": "function", "function": {"name": "f", "arguments": ""}}}}},
    {"type": "tool-call-delta", "index": 0,
     "delta": {"message": {"tool_calls": {"function": {"arguments": '{"a": '}}}}},
]  # fmt: skip


def test_cohere_max_tokens_cut_is_truncated(make_acc) -> None:
    acc = make_acc()
    feed_all(acc, [*COHERE, {"type": "message-end", "delta": {"finish_reason": "MAX_TOKENS"}}])
    (call,) = acc.tool_calls
    assert call.complete is False
    assert call.error.startswith("truncated by the token limit ('MAX_TOKENS')")


BEDROCK = [
    {"messageStart": {"role": "assistant"}},
    {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "r"}}}},
    {"contentBlockStart": {"contentBlockIndex": 1, "start": {"toolUse": {
        "toolUseId": "t1", "name": "f"}}}},
    {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": '{"a": "'}}}},
    {"contentBlockStop": {"contentBlockIndex": 1}},
]  # fmt: skip


def test_bedrock_block_cut_by_max_tokens_and_an_exception_event(make_acc) -> None:
    acc = make_acc()
    events = feed_all(acc, [*BEDROCK, {"messageStop": {"stopReason": "max_tokens"}}])
    (call,) = acc.tool_calls
    assert call.error.startswith("truncated by the token limit ('max_tokens')")
    assert stream_reasons(events) == ["max_tokens"]
    acc = make_acc()
    feed_all(acc, [*BEDROCK[:4], {"modelStreamErrorException": {"message": "boom"}}])
    assert acc.tool_calls[0].error == (
        "aborted: the API sent an error: modelStreamErrorException: boom"
    )


def test_responses_server_items_are_server_calls_with_their_arguments(make_acc) -> None:
    def ev(kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": kind, **fields}

    acc = make_acc()
    feed_all(
        acc,
        [
            ev("response.created", response={"id": "r"}),
            ev("response.output_item.added", output_index=0,
               item={"type": "mcp_call", "id": "mcp_1", "name": "ask", "arguments": ""}),
            ev("response.mcp_call_arguments.delta", item_id="mcp_1", delta='{"q": 1}'),
            ev("response.output_item.done", output_index=0,
               item={"type": "mcp_call", "id": "mcp_1", "name": "ask", "arguments": '{"q": 1}'}),
            ev("response.output_item.added", output_index=1,
               item={"type": "web_search_call", "id": "ws_1", "status": "in_progress"}),
            ev("response.output_item.done", output_index=1,
               item={"type": "web_search_call", "id": "ws_1",
                     "action": {"type": "search", "query": "jsondrip"}}),
            ev("response.output_item.added", output_index=2,
               item={"type": "code_interpreter_call", "id": "ci_1", "code": ""}),
            ev("response.output_item.done", output_index=2,
               item={"type": "code_interpreter_call", "id": "ci_1", "code": "1+1",
                     "container_id": "cn"}),
            ev("response.completed", response={"status": "completed"}),
        ],
    )  # fmt: skip
    got = [(c.id, c.name, c.kind, c.arguments, c.complete) for c in acc.tool_calls]
    assert got == [
        ("mcp_1", "ask", "server", {"q": 1}, True),
        ("ws_1", "web_search", "server", {"type": "search", "query": "jsondrip"}, True),
        ("ci_1", "code_interpreter", "server", {"code": "1+1", "container_id": "cn"}, True),
    ]


def test_xai_server_tool_items_are_server_calls(make_acc) -> None:
    """xAI's Responses items for its own tools (the shapes the Vercel AI SDK's xAI provider
    reads): `custom_tool_call` named in XAI_SERVER_TOOLS, and `x_search_call`,
    `code_execution_call`, `view_image_call`, `view_x_video_call`, `code_interpreter_call`
    with a `name` and JSON `arguments`; an unknown `custom_tool_call` is no call."""
    items = [
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "xs_1",
         "name": "x_semantic_search", "input": '{"query": "a"}'},
        {"type": "custom_tool_call", "id": "ctc_2", "call_id": "c_2", "name": "my_grammar",
         "input": "free text"},
        {"type": "x_search_call", "id": "xs_2", "name": "x_user_search",
         "arguments": '{"query": "b"}'},
        {"type": "code_execution_call", "id": "ce_1", "arguments": '{"code": "1"}'},
        {"type": "view_image_call", "id": "vi_1", "name": "view_image",
         "arguments": '{"image_url": "u"}'},
        {"type": "view_x_video_call", "id": "vv_1", "arguments": '{"video_url": "v"}'},
        {"type": "code_interpreter_call", "id": "ci_1", "name": "code_execution",
         "arguments": '{"code": "2"}'},
    ]  # fmt: skip
    events: list[dict[str, Any]] = [{"type": "response.created", "response": {"id": "r"}}]
    for at, item in enumerate(items):
        events.append({"type": "response.output_item.added", "output_index": at, "item": item})
        events.append({"type": "response.output_item.done", "output_index": at, "item": item})
    events.append({"type": "response.completed", "response": {"status": "completed"}})
    acc = make_acc(format="openai-responses")
    feed_all(acc, events)
    got = [(c.id, c.name, c.kind, c.arguments, c.complete) for c in acc.tool_calls]
    assert got == [
        ("xs_1", "x_semantic_search", "server", {"query": "a"}, True),
        ("xs_2", "x_user_search", "server", {"query": "b"}, True),
        ("ce_1", "code_execution", "server", {"code": "1"}, True),
        ("vi_1", "view_image", "server", {"image_url": "u"}, True),
        ("vv_1", "view_x_video", "server", {"video_url": "v"}, True),
        ("ci_1", "code_execution", "server", {"code": "2"}, True),
    ]


def test_done_events_say_who_runs_the_call(make_acc) -> None:
    acc = make_acc()
    events = feed_all(acc, anthropic_tool('{"a": 1}'))
    (done,) = [e for e in events if type(e) is ToolCallDone]
    assert done.tool_call.kind == "function"
    assert "kind" not in repr(done.tool_call)


def test_feed_lines_drops_a_bom_and_reads_crlf(make_acc) -> None:
    body = "\ufeff" + "".join(json.dumps(line) + "\r\n" for line in OLLAMA)
    for data in (body, body.encode("utf-8")):
        acc = make_acc()
        acc.feed_lines(data[:1])
        acc.feed_lines(data[1:])
        acc.finish()
        assert [c.complete for c in acc.tool_calls] == [True, True]


def test_malformed_events_are_a_clear_error_never_a_crash(make_acc) -> None:
    """Every recorded event with fields dropped or replaced by the wrong type, fed to every
    format: the only error is a ValueError (a `malformed ... event` naming it, or the format
    not told), never an AttributeError or TypeError from inside."""
    from _corpus_reader import decoded_events
    from _toolcall_support import stream_files, stream_path

    from jsondrip.toolcalls.formats import FORMATS

    junk = [None, 0, 1.5, "", "x", [], {}, [None], {"a": None}, True]

    def mutate(value: Any, rng: random.Random) -> Any:
        if rng.random() < 0.08:
            return rng.choice(junk)
        if isinstance(value, dict):
            return {k: mutate(v, rng) for k, v in value.items() if rng.random() > 0.05}
        if isinstance(value, list):
            return [mutate(v, rng) for v in value if rng.random() > 0.05]
        return value

    rng = random.Random(3)
    malformed = 0
    for name in stream_files():
        events = [e for e in decoded_events(stream_path(name))[:60] if isinstance(e, dict)]
        for fmt in ("auto", *FORMATS):
            acc = make_acc(format=fmt)
            try:
                for event in events:
                    mutated = mutate(event, rng)
                    if isinstance(mutated, dict):
                        acc.feed(mutated)
                acc.finish()
            except ValueError as error:
                assert str(error).startswith(("malformed", "cannot tell")), error
                malformed += str(error).startswith("malformed")
    assert malformed > 0


def test_a_malformed_event_names_its_format(make_acc) -> None:
    acc = make_acc()
    with pytest.raises(ValueError, match=r"^malformed openai-chat event \(AttributeError: "):
        acc.feed({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": 5}]})


def test_chat_arguments_sent_as_an_object_are_serialised(make_acc) -> None:
    from _toolcall_support import chat, frag

    acc = make_acc()
    feed_all(acc, [chat(frag(0, "c1", "f", {"a": 1}), finish="tool_calls")])
    assert [(c.arguments, c.raw, c.complete) for c in acc.tool_calls] == [
        ({"a": 1}, '{"a": 1}', True)
    ]


def test_a_usage_chunk_with_another_id_is_not_a_new_response(make_acc) -> None:
    from _toolcall_support import chat, frag

    first = chat(frag(0, "c1", "f", "{}"), finish="tool_calls")
    usage = {"id": "other", "object": "chat.completion.chunk", "choices": [], "usage": {}}
    second = {**chat(frag(0, "c2", "g", "{}"), finish="tool_calls"), "id": "next"}
    acc = make_acc()
    events = feed_all(acc, [first, usage, second, "[DONE]"])
    assert stream_reasons(events) == ["tool_calls", "tool_calls"]
    assert [(c.id, c.complete) for c in acc.tool_calls] == [("c1", True), ("c2", True)]


def test_several_json_lines_passed_to_feed_name_feed_lines(make_acc) -> None:
    body = "".join(json.dumps(line) + "\n" for line in OLLAMA)
    with pytest.raises(ValueError, match=r"^Extra data: line 2 column 1 .*feed_lines\(\)"):
        make_acc().feed(body)

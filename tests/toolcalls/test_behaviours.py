"""One table test per behaviour the issue lists, each on both parser backends."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest
from _support import json_error
from _toolcall_support import (  # noqa: F401 - make_acc is a fixture
    anthropic_tool,
    chat,
    check_lifecycle,
    feed_all,
    frag,
    make_acc_fixture,
    outcome,
    texts,
)

import jsondrip
from jsondrip import MISSING, Change, Parser
from jsondrip.toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

DONE = "[DONE]"

# -- which call a fragment belongs to (Chat Completions) -----------------------------------

ROUTING: dict[str, tuple[list[Any], list[tuple[Any, ...]]]] = {
    "parallel calls interleaved by index, id and name only in the first fragment": (
        [
            chat(frag(0, "call_a", "get_weather", "")),
            chat(frag(1, "call_b", "get_time", "")),
            chat(frag(0, args='{"city": ')),
            chat(frag(1, args='{"tz": "UTC"}')),
            chat(frag(0, args='"Paris"}')),
            chat(finish="tool_calls"),
        ],
        [
            ("call_a", "get_weather", {"city": "Paris"}, '{"city": "Paris"}'),
            ("call_b", "get_time", {"tz": "UTC"}, '{"tz": "UTC"}'),
        ],
    ),
    "a name split over fragments": (
        [
            chat(frag(0, "call_a", "get_")),
            chat(frag(0, name="weather", args="")),
            chat(frag(0, args="{}")),
        ],
        [("call_a", "get_weather", {}, "{}")],
    ),
    "id and name repeated on every fragment": (
        [
            chat(frag(0, "call_a", "get_weather", '{"a"')),
            chat(frag(0, "call_a", "get_weather", ": 1}")),
        ],
        [("call_a", "get_weather", {"a": 1}, '{"a": 1}')],
    ),
    "a name sent whole so far on every fragment": (
        [chat(frag(0, "call_a", "get")), chat(frag(0, "call_a", "get_time", "{}"))],
        [("call_a", "get_time", {}, "{}")],
    ),
    "no index: routed by id": (
        [
            chat(frag(None, "call_a", "f", "")),
            chat(frag(None, "call_b", "g", "")),
            chat(frag(None, "call_a", args="[1]")),
            chat(frag(None, "call_b", args="[2]")),
        ],
        [("call_a", "f", [1], "[1]"), ("call_b", "g", [2], "[2]")],
    ),
    "no index, no id: routed by order": (
        [
            chat(frag(name="f", args='{"x"')),
            chat(frag(args=": 1}")),
            chat(frag(name="g", args="{}")),
        ],
        [(None, "f", {"x": 1}, '{"x": 1}'), (None, "g", {}, "{}")],
    ),
    "a new id on every fragment of the same index": (
        [
            chat(frag(0, "call_1", "f", '{"x"')),
            chat(frag(0, "call_2", args=": ")),
            chat(frag(0, "call_3", args="2}")),
        ],
        [("call_1", "f", {"x": 2}, '{"x": 2}')],
    ),
    "every call at index 0 (whole arguments, new id and name)": (
        [chat(frag(0, "call_1", "f", "{}")), chat(frag(0, "call_2", "g", "[3]"))],
        [("call_1", "f", {}, "{}"), ("call_2", "g", [3], "[3]")],
    ),
}


@pytest.mark.parametrize("case", list(ROUTING))
def test_chat_fragments_are_routed_to_the_right_call(make_acc, case: str) -> None:
    events, want = ROUTING[case]
    acc = make_acc()
    out = feed_all(acc, [*events, DONE])
    assert [(c.id, c.name, c.arguments, c.raw) for c in acc.tool_calls] == want
    assert all(c.complete and c.error is None for c in acc.tool_calls)
    check_lifecycle(acc, out)


def test_choices_are_kept_apart(make_acc) -> None:
    acc = make_acc()
    feed_all(
        acc,
        [
            chat(frag(0, "c0", "f", '{"n": 0'), choice=0),
            chat(frag(0, "c1", "f", '{"n": 1'), choice=1),
            chat(frag(0, args="}"), choice=1),
            chat(frag(0, args="}"), choice=0),
        ],
    )
    assert [(c.id, c.choice, c.arguments) for c in acc.tool_calls] == [
        ("c0", 0, {"n": 0}),
        ("c1", 1, {"n": 1}),
    ]


def test_started_waits_for_a_split_name_and_carries_the_first_id(make_acc) -> None:
    acc = make_acc()
    assert acc.feed(chat(frag(0, "call_a", "get_"))) == []
    assert acc.feed(chat(frag(0, name="weather", args=""))) == [
        ToolCallStarted(0, "call_a", "get_weather")
    ]


# -- what the arguments look like ---------------------------------------------------------

ARGUMENTS: dict[str, tuple[list[str], Any]] = {
    "first fragment empty": (["", '{"a"', ": [1, 2]}"], {"a": [1, 2]}),
    "arriving whole": (['{"a": {"b": null}}'], {"a": {"b": None}}),
    "empty: a tool without parameters": ([""], {}),
    "nothing at all": ([], {}),
    "only blanks": ([" ", "\n"], {}),
    "whitespace padding": (["  \n", ' {"a": 1} ', "\n\t"], {"a": 1}),
    "a fence": (['```json\n{"a": "x`y"}\n```'], {"a": "x`y"}),
    "a fence without a language": (['```\n[1, "```"]\n```\n'], [1, "```"]),
    "a fence left open": (['```json\n{"a": 1}'], {"a": 1}),
    "a fence, blanks before it": (['\n ```json\n{"a": 1}```'], {"a": 1}),
}


@pytest.mark.parametrize("case", list(ARGUMENTS))
def test_arguments_shapes(make_acc, case: str) -> None:
    parts, want = ARGUMENTS[case]
    acc = make_acc(format="anthropic")
    feed_all(acc, anthropic_tool(*parts))
    assert outcome(acc) == [(0, "toolu_1", "f", want, "".join(parts), None, True)]


@pytest.mark.parametrize("text", ['```json\n{"a": [1, "`"]}\n```\n', '  ```\n{"b": 2}```'])
def test_a_fence_cut_at_every_position(make_acc, text: str) -> None:
    want = json.loads(text.strip().strip("`").removeprefix("json"))
    for i in range(len(text) + 1):
        for j in range(i, len(text) + 1):
            acc = make_acc(format="anthropic")
            feed_all(acc, anthropic_tool(text[:i], text[i:j], text[j:]))
            assert outcome(acc) == [(0, "toolu_1", "f", want, text, None, True)], (i, j)


def test_the_preview_grows_at_every_fragment(make_acc) -> None:
    acc = make_acc(format="anthropic")
    previews = []
    for event in anthropic_tool("", '{"city": "Pa', 'ris", "days": 3', "}"):
        for out in acc.feed(event):
            if type(out) is ToolCallDelta:
                previews.append((out.arguments_delta, json.dumps(out.preview)))
    assert previews == [
        ('{"city": "Pa', '{"city": "Pa"}'),
        ('ris", "days": 3', '{"city": "Paris"}'),
        ("}", '{"city": "Paris", "days": 3}'),
    ]


# -- cut by the token limit: never a valid-looking call ------------------------------------


def test_chat_cut_by_length(make_acc) -> None:
    acc = make_acc()
    out = feed_all(acc, [chat(frag(0, "c", "f", '{"a": 1, "b": "x')), chat(finish="length")])
    assert outcome(acc) == [
        (
            0,
            "c",
            "f",
            {"a": 1, "b": "x"},
            '{"a": 1, "b": "x',
            "truncated by the token limit ('length'): "
            "Unterminated string starting at: line 1 column 15 (char 14)",
            False,
        )
    ]
    assert out[-1] == StreamDone("length")


def json_says(text: str) -> str:
    """json's error for `text`, as str(error) words it."""
    msg, pos, line, column = json_error(text)  # type: ignore[misc]
    return f"{msg}: line {line} column {column} (char {pos})"


def test_anthropic_cut_by_max_tokens(make_acc) -> None:
    acc = make_acc()
    feed_all(acc, anthropic_tool('{"a": [1, 2', stop="max_tokens"))
    assert outcome(acc) == [
        (
            0,
            "toolu_1",
            "f",
            {"a": [1]},
            '{"a": [1, 2',
            "truncated by the token limit ('max_tokens'): " + json_says('{"a": [1, 2'),
            False,
        )
    ]


def test_responses_cut_by_max_output_tokens(make_acc) -> None:
    acc = make_acc()
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f"}
    feed_all(
        acc,
        [
            {"type": "response.created", "response": {"id": "resp_1"}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "delta": "[1"},
            {
                "type": "response.incomplete",
                "response": {"incomplete_details": {"reason": "max_output_tokens"}},
            },
        ],
    )
    assert [(c.id, c.arguments, c.error, c.complete) for c in acc.tool_calls] == [
        (
            "call_1",
            [],
            "truncated by the token limit ('max_output_tokens'): " + json_says("[1"),
            False,
        )
    ]


def test_a_stream_that_just_stops_is_incomplete_not_complete(make_acc) -> None:
    acc = make_acc()
    feed_all(acc, [chat(frag(0, "c", "f", '{"a": '))])
    assert [(c.error, c.complete) for c in acc.tool_calls] == [
        ("incomplete: the stream ended before the provider closed the call", False)
    ]


# -- invalid JSON ---------------------------------------------------------------------------


def test_invalid_json_says_where_keeps_raw_and_spares_the_others(make_acc) -> None:
    """The call ends on the fragment that proves it invalid (#30 item 3): its raw text
    stops there, and the fragment after it is counted as ignored."""
    acc = make_acc()
    out = feed_all(
        acc,
        [
            chat(frag(0, "bad", "f", '{"a": 1,\n "b": tru')),
            chat(frag(1, "good", "g", '{"ok": ')),
            chat(frag(0, args="x}")),
            chat(frag(0, args=" more")),
            chat(frag(1, args="true}")),
            chat(finish="tool_calls"),
        ],
    )
    assert outcome(acc) == [
        (
            0,
            "bad",
            "f",
            {"a": 1},
            '{"a": 1,\n "b": trux}',
            "invalid JSON: " + json_says('{"a": 1,\n "b": trux}'),
            False,
        ),
        (1, "good", "g", {"ok": True}, '{"ok": true}', None, True),
    ]
    assert acc.ignored_fragments == 1
    check_lifecycle(acc, out)


def test_invalid_json_after_a_fence_counts_raw_positions(make_acc) -> None:
    acc = make_acc(format="anthropic")
    feed_all(acc, anthropic_tool('```json\n{"a": 1} x'))
    assert acc.tool_calls[0].error == "invalid JSON: Extra data: line 2 column 10 (char 17)"


# -- replays and double endings: one ToolCallDone per call ---------------------------------


def _dones(events: list[Any]) -> list[int]:
    return [e.tool_call.index for e in events if type(e) is ToolCallDone]


def test_replayed_events_end_each_call_once(make_acc) -> None:
    acc = make_acc()
    events = anthropic_tool('{"a": 1}')
    replayed = events[:2] + events[1:3] + events[3:4] * 2 + events[4:] + events[5:]
    out = feed_all(acc, replayed)
    assert _dones(out) == [0]
    assert [(c.raw, c.complete) for c in acc.tool_calls] == [('{"a": 1}', True)]
    assert acc.finish() == []
    assert acc.abort() == []


def test_responses_done_twice_and_replayed_sequence_numbers(make_acc) -> None:
    acc = make_acc()
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f"}
    delta = {
        "type": "response.function_call_arguments.delta",
        "item_id": "fc_1",
        "delta": '{"a": 1}',
        "sequence_number": 3,
    }
    done = {"type": "response.function_call_arguments.done", "item_id": "fc_1"}
    item_done = {"type": "response.output_item.done", "item": {**item, "arguments": '{"a": 1}'}}
    out = feed_all(
        acc,
        [
            {"type": "response.created", "response": {"id": "r"}, "sequence_number": 0},
            {"type": "response.output_item.added", "item": item, "sequence_number": 1},
            {"type": "response.output_item.added", "item": item, "sequence_number": 2},
            delta,
            delta,
            {**done, "arguments": '{"a": 1}', "sequence_number": 4},
            {**item_done, "sequence_number": 5},
            {"type": "response.completed", "response": {"status": "completed"}},
        ],
    )
    assert _dones(out) == [0]
    assert outcome(acc) == [(0, "call_1", "f", {"a": 1}, '{"a": 1}', None, True)]


def test_arguments_sent_only_whole_in_the_done_event(make_acc) -> None:
    acc = make_acc()
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f"}
    feed_all(
        acc,
        [
            {"type": "response.output_item.added", "item": item},
            {
                "type": "response.function_call_arguments.done",
                "item_id": "fc_1",
                "arguments": "[7]",
            },
        ],
    )
    assert outcome(acc) == [(0, "call_1", "f", [7], "[7]", None, True)]


# -- limits: too large, idle ----------------------------------------------------------------


def test_too_large_ends_that_call_and_releases_it(make_acc) -> None:
    acc = make_acc(max_arguments_size=10)
    out = feed_all(
        acc,
        [
            chat(frag(0, "big", "f", '{"a": "')),
            chat(frag(1, "small", "g", "[1]")),
            chat(frag(0, args="0123456789")),
            chat(frag(0, args='"}')),
            chat(finish="tool_calls"),
        ],
    )
    assert outcome(acc) == [
        (
            0,
            "big",
            "f",
            MISSING,
            "",
            "too large: the arguments exceed max_arguments_size (10 characters); 17 received",
            False,
        ),
        (1, "small", "g", [1], "[1]", None, True),
    ]
    assert _dones(out) == [0, 1]


def test_idle_calls_time_out_on_the_next_call_and_the_others_go_on(make_acc) -> None:
    now = [100.0]
    acc = make_acc(idle_timeout=5.0, clock=lambda: now[0])
    acc.feed(chat(frag(0, "slow", "f", '{"a": ')))
    acc.feed(chat(frag(1, "done", "g", "{}")))  # complete: waits only for finish_reason
    now[0] = 104.0
    assert acc.feed(chat(frag(2, "fast", "h", "["))) == [
        ToolCallStarted(2, "fast", "h"),
        ToolCallDelta(2, "fast", "h", "[", [], (Change("add", "", []),)),
    ]
    now[0] = 106.0
    out = acc.feed_sse(b"")
    assert _dones(out) == [0]
    assert (acc.tool_calls[0].error, acc.tool_calls[0].raw) == (
        "timed out: no arguments for 6.0 s (idle_timeout 5.0 s)",
        "",
    )
    acc.feed(chat(frag(0, args="1}")))  # too late: dropped
    acc.feed(chat(frag(2, args="2]")))
    acc.feed(chat(finish="tool_calls"))
    assert [(c.arguments, c.complete) for c in acc.tool_calls] == [
        (MISSING, False),
        ({}, True),
        ([2], True),
    ]


def test_finish_checks_the_clock_too(make_acc) -> None:
    now = [0.0]
    acc = make_acc(idle_timeout=1.0, clock=lambda: now[0])
    acc.feed(anthropic_tool('{"a"')[0])
    acc.feed(anthropic_tool('{"a"')[1])
    now[0] = 2.0
    acc.finish()
    assert acc.tool_calls[0].error == "timed out: no arguments for 2.0 s (idle_timeout 1.0 s)"


# -- abort and the end of the stream --------------------------------------------------------


def test_abort_never_parses_a_pending_call_as_complete(make_acc) -> None:
    acc = make_acc()
    acc.feed(chat(frag(0, "c", "f", '{"a": 1}')))
    out = acc.abort()
    assert [type(e) for e in out] == [ToolCallDone]
    assert outcome(acc) == [
        (
            0,
            "c",
            "f",
            {"a": 1},
            '{"a": 1}',
            "aborted: the stream was cut before the call was complete",
            False,
        )
    ]
    with pytest.raises(RuntimeError, match=r"abort\(\) was called"):
        acc.feed(chat(finish="stop"))


def test_stream_errors_abort_open_calls(make_acc) -> None:
    acc = make_acc()
    events = anthropic_tool('{"a": 1')[:3]
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    out = feed_all(acc, [*events, error])
    assert acc.tool_calls[0].error == "aborted: the API sent an error: overloaded_error: Overloaded"
    assert out[-1] == StreamDone("error")


# -- text and reasoning ---------------------------------------------------------------------


def test_reasoning_content_and_thinking_deltas(make_acc) -> None:
    acc = make_acc()
    out = feed_all(acc, [chat(reasoning_content="hmm "), chat(reasoning="ok"), chat(content="A")])
    assert out == [
        ReasoningDelta("hmm "),
        ReasoningDelta("ok"),
        TextDelta("A"),
        StreamDone(None),
    ]
    acc = make_acc()
    thinking = {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}}
    delta = {"type": "thinking_delta", "thinking": "let me see"}
    out = feed_all(acc, [thinking, {"type": "content_block_delta", "index": 0, "delta": delta}])
    assert out == [ReasoningDelta("let me see"), StreamDone(None)]


THINK = "Hi <b> <think>plan: a<b</think>answer <thin"


def test_think_tags_cut_at_every_position(make_acc) -> None:
    for i in range(len(THINK) + 1):
        for j in range(i, len(THINK) + 1):
            acc = make_acc()
            parts = [THINK[:i], THINK[i:j], THINK[j:]]
            out = feed_all(acc, [chat(content=p) for p in parts if p])
            text, reasoning = texts(out)
            assert (text, reasoning) == ({0: "Hi <b> answer <thin"}, "plan: a<b"), (i, j)


def test_text_is_passed_on_as_soon_as_it_cannot_be_a_tag(make_acc) -> None:
    acc = make_acc()
    steps = ["a <", "th", "x", "<think", ">r</", "think> b<t"]
    got = [[(type(e).__name__, e.text) for e in acc.feed(chat(content=s))] for s in steps]
    assert got == [
        [("TextDelta", "a ")],
        [],
        [("TextDelta", "<thx")],
        [],
        [("ReasoningDelta", "r")],
        [("TextDelta", " b")],
    ]
    assert acc.finish() == [TextDelta("<t"), StreamDone(None)]


# -- formats --------------------------------------------------------------------------------


def test_format_detection_and_naming(make_acc) -> None:
    for first, name in [
        (chat(content="x"), "openai-chat"),
        ({"type": "response.created", "response": {}}, "openai-responses"),
        ({"type": "ping"}, "anthropic"),
        ({"type": "message_start", "message": {}}, "anthropic"),
        ({"candidates": [{"content": {"parts": [{"text": "x"}]}}]}, "gemini"),
        ({"messageStart": {"role": "assistant"}}, "bedrock"),
        ({"type": "message-start", "id": "1", "delta": {}}, "cohere"),
        ({"model": "m", "created_at": "t", "message": {}, "done": False}, "ollama"),
        ({"event_type": "interaction.created", "interaction": {}}, "gemini-interactions"),
    ]:
        acc = make_acc()
        acc.feed(first)
        assert acc.format == name
    assert make_acc(format="deepseek").format == "openai-chat"
    assert make_acc(format="mistral").format == "openai-chat"
    assert make_acc(format="vertex").format == "gemini"
    with pytest.raises(ValueError, match="unknown format 'palm'"):
        make_acc(format="palm")
    with pytest.raises(ValueError, match="cannot tell the stream format"):
        make_acc().feed({"hello": 1})
    with pytest.raises(TypeError, match="cannot read an event of type int"):
        make_acc().feed(3)


# -- change events are made when read (the native parser keeps them as data until then) ---

LAZY_PARTS = ['{"a/~": "h', "i\\ud83d", "\\ude00 there", '", "n": [1, 2', ".5, tr", "ue, {", "}]}"]


def test_delta_changes_read_late_are_those_read_at_once(make_acc) -> None:
    acc = make_acc()
    late = [e for e in feed_all(acc, anthropic_tool(*LAZY_PARTS)) if type(e) is ToolCallDelta]
    now: list[tuple[Change, ...]] = []
    other = make_acc()
    for event in anthropic_tool(*LAZY_PARTS):
        now += [e.changes for e in other.feed(event) if type(e) is ToolCallDelta]
    parser = Parser()  # the same fragments through the public change events
    assert [d.changes for d in late] == now == [tuple(parser.feed_changes(p)) for p in LAZY_PARTS]
    assert now[1] == (Change("append", "/a~1~0", "i"),)  # a lone high surrogate waits
    for delta in late:
        assert type(delta.changes) is tuple and all(type(c) is Change for c in delta.changes)
        assert delta.changes is delta.changes  # built once, then kept


def test_a_delta_with_pending_changes_behaves_as_any_delta(make_acc) -> None:
    acc = make_acc()
    deltas = [e for e in feed_all(acc, anthropic_tool(*LAZY_PARTS)) if type(e) is ToolCallDelta]
    first, second = deltas[0], deltas[1]
    unread = pickle.loads(pickle.dumps(second))  # pickled before its changes were read
    assert unread == second and unread.changes == (Change("append", "/a~1~0", "i"),)
    expected = ToolCallDelta(0, "toolu_1", "f", LAZY_PARTS[0], first.preview, first.changes)
    assert first == expected and repr(first) == repr(expected)
    assert dataclasses.replace(deltas[2]).changes == deltas[2].changes
    assert first.snapshot().changes == first.changes
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.changes = ()  # type: ignore[misc]
    assert ToolCallDelta(0, None, "f", "x", 1).changes == ()
    assert ToolCallDelta(0, None, "f", "x", 1, [Change("add", "", 1)]).changes == [
        Change("add", "", 1)
    ]  # what a caller gives is kept as given


def test_item14_one_batch_shows_its_end_and_the_changes_give_each_delta(make_acc) -> None:
    """#30 item 14: the deltas of one `feed_sse` batch share the live preview (the state at
    the batch's end; `snapshot()` then copies that), and their changes, applied in order,
    give the state right after each delta (docs/toolcalls.md's recipe)."""
    body = "".join(
        f"event: {e['type']}\ndata: {json.dumps(e)}\n\n"
        for e in anthropic_tool('{"q": "a', "b", 'c", "n": [1', ", 2]}")
    ).encode()
    deltas = [e for e in make_acc().feed_sse(body) if type(e) is ToolCallDelta]
    final = {"q": "abc", "n": [1, 2]}
    assert [d.preview for d in deltas] == [final] * 4
    assert [d.snapshot().preview for d in deltas] == [final] * 4
    states, doc = [], jsondrip.MISSING
    for delta in deltas:
        doc = jsondrip.apply_changes(doc, delta.changes)
        states.append(copy.deepcopy(doc))
    assert states == [{"q": "a"}, {"q": "ab"}, {"q": "abc", "n": []}, final]

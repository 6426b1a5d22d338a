"""Tool calls written as text (`text_tools=`): every fixture, every chunking, both backends.

The fixtures (`_text_fixtures.py`, written from each family's chat template) are read whole,
character by character, at random cuts and at every two-piece cut: the calls, the text and
the reasoning must be the same each time, and what the fixture says. Then the rules one by one:
text is passed on as soon as it cannot be a marker, and no marker text ever reaches the text,
a name or the arguments; calls that end without their closing marker are never complete; the
limits, the schemas, the provider streams whose text holds the calls.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from _text_fixtures import CASES, TOOLS, Call, Case, invalid_json
from _toolcall_support import (  # noqa: F401 - make_acc is a fixture
    MakeAcc,
    check_lifecycle,
    make_acc_fixture,
    texts,
)

from jsondrip import MISSING
from jsondrip.toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallAccumulator,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

# -- reading a case ------------------------------------------------------------------------


def read(make_acc: MakeAcc, case: Case, pieces: list[str], **options: Any) -> tuple[Any, list]:
    """Feed the pieces to a fresh accumulator, then finish; the accumulator and events."""
    acc = make_acc(text_tools=case.family, tools=case.tools, **{**case.options, **options})
    events: list[Any] = []
    for piece in pieces:
        events += acc.feed_text(piece)
    events += acc.finish()
    return acc, events


def refused(error: str | None) -> bool:
    """A call the parser refused (its JSON broke, or its schema): it ended at the fragment
    that proved it, so its `raw` and preview run to that fragment's end, which is where the
    text happened to be cut (docs/toolcalls.md)."""
    return (error or "").startswith(("invalid JSON", "schema"))


def outcome(acc: ToolCallAccumulator, events: list[Any]) -> tuple[Any, ...]:
    """What must not depend on the chunking: every call (but what a refused call had read
    past the point of its error), the text, the reasoning."""
    calls = tuple(
        (c.index, c.id, c.name)
        + ((None, None) if refused(c.error) else (c.arguments, c.raw))
        + (c.error, c.complete)
        for c in acc.tool_calls
    )
    text, reasoning = texts(events)
    return calls, text.get(0, ""), reasoning


def check(case: Case, acc: ToolCallAccumulator, events: list[Any]) -> None:
    """The case's calls, text and reasoning; every call's events in order, once."""
    calls = acc.tool_calls
    assert [c.name for c in calls] == [c.name for c in case.calls]
    for got, want in zip(calls, case.calls):
        assert got.id == want.id
        if (want.error or "").startswith("schema"):
            pass  # the engine shows no value past a violation: the preview is the last
            # fragment's before it, which depends on the cut (the error says what broke)
        elif want.arguments is MISSING:
            assert got.arguments is MISSING
        else:
            assert got.arguments == want.arguments
        if want.error is None:
            assert got.error is None and got.complete, got.error
            if not got.raw.startswith("`"):  # (DeepSeek V3's arguments are fenced)
                assert json.loads(got.raw or "{}") == got.arguments
        else:
            assert not got.complete
            assert got.error is not None and got.error.startswith(want.error), got.error
    text, reasoning = texts(events)
    assert text.get(0, "") == case.visible
    assert reasoning == case.reasoning
    check_lifecycle(acc, events)
    assert sum(type(e) is StreamDone for e in events) == 1


def random_pieces(text: str, seed: int) -> list[str]:
    """`text` cut at random places into pieces of 1 to 12 characters."""
    rng = random.Random(seed)
    pieces, at = [], 0
    while at < len(text):
        step = rng.randint(1, 12)
        pieces.append(text[at : at + step])
        at += step
    return pieces


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_whole_by_character_and_at_random_cuts(make_acc: MakeAcc, case: Case) -> None:
    acc, events = read(make_acc, case, [case.text])
    check(case, acc, events)
    first = outcome(acc, events)
    for pieces in [list(case.text)] + [random_pieces(case.text, seed) for seed in range(6)]:
        acc, events = read(make_acc, case, pieces)
        check(case, acc, events)
        assert outcome(acc, events) == first


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_at_every_two_piece_cut(make_acc: MakeAcc, case: Case) -> None:
    """Markers cut every way: at each position, and a begin and end marker in one piece."""
    first = outcome(*read(make_acc, case, [case.text]))
    for cut in range(1, len(case.text)):
        acc, events = read(make_acc, case, [case.text[:cut], case.text[cut:]])
        assert outcome(acc, events) == first, cut


# -- text goes out as soon as it cannot be markup --------------------------------------------

OUTSIDE_MARKERS = {
    "hermes": ["<tool_call>", "</tool_call>"],
    "qwen3-coder": ["<tool_call>", "</tool_call>"],
    "glm-4.5": ["<tool_call>", "</tool_call>"],
    "mistral": ["[TOOL_CALLS]"],
    "llama3-json": ["<|python_tag|>", "<|eom_id|>", "<|eot_id|>"],
    "pythonic": [
        "<|python_start|>",
        "<|python_end|>",
        "<|tool_call_start|>",
        "<|tool_call_end|>",
        "<function_calls>",
        "</function_calls>",
    ],
    "deepseek": ["<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁calls▁end｜>"],
    "kimi-k2": [
        "<|tool_calls_section_begin|>",
        "<|tool_call_section_begin|>",
        "<|tool_calls_section_end|>",
        "<|tool_call_section_end|>",
        "<|tool_call_begin|>",
    ],
    "harmony": [
        "<|start|>",
        "<|channel|>",
        "<|constrain|>",
        "<|message|>",
        "<|end|>",
        "<|call|>",
        "<|return|>",
    ],
}
OUTSIDE_MARKERS["auto"] = [
    "<tool_call>",
    "[TOOL_CALLS]",
    "<|python_tag|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_section_begin|>",
    "<|tool_call_begin|>",
    "<|channel|>",
    "<|start|>",
    "<|python_start|>",
    "<|tool_call_start|>",
    "<function_calls>",
]
FAMILY_NAMES = sorted(OUTSIDE_MARKERS)


def may_hold(text: str, markers: list[str]) -> int:
    """How many characters at the end of `text` could begin one of `markers`."""
    for start in range(max(0, len(text) - max(map(len, markers)) + 1), len(text)):
        tail = text[start:]
        if any(m.startswith(tail) and m != tail for m in markers):
            return len(text) - start
    return 0


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_text_is_passed_on_as_soon_as_it_cannot_be_a_marker(make_acc: MakeAcc, family: str) -> None:
    markers = OUTSIDE_MARKERS[family] + ([] if family == "harmony" else ["<think>"])
    for marker in markers:
        for cut in range(1, len(marker)):
            acc = make_acc(text_tools=family)
            shown = "".join(e.text for e in acc.feed_text("Hi " + marker[:cut]))
            assert shown == "Hi ", (marker, cut)  # the start of a marker waits
            shown += "".join(e.text for e in acc.feed_text("\x00"))
            assert shown == "Hi " + marker[:cut] + "\x00", (marker, cut)  # then goes at once
            events = acc.finish()
            assert not any(type(e) is TextDelta for e in events)


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_random_text_without_markers_is_held_only_while_it_may_be_one(
    make_acc: MakeAcc, family: str
) -> None:
    markers = OUTSIDE_MARKERS[family] + ([] if family == "harmony" else ["<think>"])
    rng = random.Random(family)
    alphabet = "ab <|>[]{}()_｜▁/\n" + "".join(markers)
    for _ in range(60):
        text = "x" + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        for marker in [*markers, "</think>"]:
            text = text.replace(marker, marker[:-1] + "#")
        acc = make_acc(text_tools=family)
        fed, shown = "", ""
        for piece in random_pieces(text, rng.randrange(1000)):
            fed += piece
            shown += "".join(e.text for e in acc.feed_text(piece) if type(e) is TextDelta)
            assert shown == fed[: len(fed) - may_hold(fed, markers)], (text, fed)
        shown += "".join(e.text for e in acc.finish() if type(e) is TextDelta)
        assert shown == text
        assert acc.tool_calls == []


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_no_marker_text_in_text_names_or_arguments(make_acc: MakeAcc, case: Case) -> None:
    markers = {m for family in OUTSIDE_MARKERS.values() for m in family} | {
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
        "[ARGS]",
        "[CALL_ID]",
        "<function=",
        "<parameter=",
        "</parameter>",
        "</function>",
        "<arg_key>",
        "<arg_value>",
    }
    acc, events = read(make_acc, case, list(case.text))
    allowed = case.visible + case.reasoning  # a fixture may say a marker is text
    for event in events:
        if type(event) in (TextDelta, ReasoningDelta):
            for marker in markers:
                assert marker not in event.text or marker in allowed, (marker, event)
        if type(event) is ToolCallStarted:
            assert not any(marker in event.name for marker in markers)
    for call in acc.tool_calls:
        if call.complete and not call.raw.startswith("`"):  # markup inside strings is theirs
            arguments = json.dumps(call.arguments, ensure_ascii=False)
            assert json.loads(call.raw or "{}") == call.arguments
            assert all(m not in call.raw or m in arguments for m in markers)


# -- starts, ends, cuts ----------------------------------------------------------------------


def test_a_call_starts_as_soon_as_its_name_is_known(make_acc: MakeAcc) -> None:
    starts = {
        "hermes": ('<tool_call>{"name": "get_time"', ', "arguments": {}}</tool_call>'),
        "qwen3-coder": ("<tool_call><function=get_time>", "</function></tool_call>"),
        "glm-4.5": ("<tool_call>get_time\n", "</tool_call>"),
        "mistral": ("[TOOL_CALLS]get_time[ARGS]", "{}"),
        "llama3-json": ('{"name": "get_time"', ', "parameters": {}}'),
        "pythonic": ("[get_time(", ")]"),
        "deepseek": (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>",
            "{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        ),
        "kimi-k2": (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time:0"
            "<|tool_call_argument_begin|>",
            "{}<|tool_call_end|>",
        ),
        "harmony": ("<|channel|>commentary to=functions.get_time ", "<|message|>{}<|call|>"),
    }
    for family, (head, rest) in starts.items():
        acc = make_acc(text_tools=family)
        events = acc.feed_text(head)
        assert [type(e) for e in events][:1] == [ToolCallStarted], family
        assert events[0].name == "get_time"
        events = acc.feed_text(rest) + acc.finish()
        assert acc.tool_calls[0].complete, (family, acc.tool_calls)
        assert any(type(e) is ToolCallDone for e in events)


def test_the_arguments_preview_grows_live(make_acc: MakeAcc) -> None:
    acc = make_acc(text_tools="hermes")
    acc.feed_text('<tool_call>{"name": "write", "arguments": {"path": "a.py", "text": "def')
    previews = []
    for piece in [" f():", "\\n    ", "return 1", '"}}</tool_call>']:
        deltas = [e for e in acc.feed_text(piece) if type(e) is ToolCallDelta]
        previews.append(dict(deltas[-1].preview))
    assert previews == [
        {"path": "a.py", "text": "def f():"},
        {"path": "a.py", "text": "def f():\n    "},
        {"path": "a.py", "text": "def f():\n    return 1"},
        {"path": "a.py", "text": "def f():\n    return 1"},
    ]
    assert acc.tool_calls[0].complete


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("hermes", '<tool_call>{"name": "f", "arguments": {"a": "x"}}'),
        ("qwen3-coder", "<tool_call><function=f><parameter=a>x</parameter></function>"),
        ("glm-4.5", "<tool_call>f<arg_key>a</arg_key><arg_value>x</arg_value>"),
        ("kimi-k2", '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": "x"}'),
        ("deepseek", '<｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": "x"}'),
        ("harmony", '<|channel|>commentary to=functions.f<|message|>{"a": "x"}'),
        ("llama3-json", '{"name": "f", "parameters": {"a": "x"}'),
        ("pythonic", "[f(a='x'"),
    ],
)
@pytest.mark.parametrize("reason", [None, "stop", "length"])
def test_a_call_without_its_closing_marker_is_never_complete(
    make_acc: MakeAcc, family: str, text: str, reason: str | None
) -> None:
    """Even when its JSON happens to be whole: the cut can fall right after a `}`."""
    acc = make_acc(format="openai-chat", text_tools=family)
    acc.feed({"id": "c", "choices": [{"index": 0, "delta": {"content": text}}]})
    if reason is not None:
        acc.feed({"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
        acc.feed("[DONE]")
    acc.finish()
    (call,) = acc.tool_calls
    assert not call.complete
    assert call.arguments == {"a": "x"}
    if reason == "length":
        assert call.error.startswith("truncated by the token limit ('length'): the text ended")
    else:
        assert call.error.startswith("incomplete: the text ended")


def test_abort_ends_an_open_call_as_aborted(make_acc: MakeAcc) -> None:
    acc = make_acc(text_tools="hermes")
    acc.feed_text('Hi <tool_call>{"name": "f", "arguments": {"a": 1}}<tool')
    events = acc.abort()
    (call,) = acc.tool_calls
    assert call.error.startswith("aborted") and not call.complete
    assert [type(e) for e in events] == [ToolCallDone]  # the held `<tool` was the call's


def test_feed_text_errors(make_acc: MakeAcc) -> None:
    acc = make_acc(text_tools="hermes")
    with pytest.raises(TypeError, match="feed_text takes str"):
        acc.feed_text(b"bytes")  # type: ignore[arg-type]
    acc.feed_text("hello")
    with pytest.raises(ValueError, match="feed_text"):
        acc.feed({"id": "c", "choices": []})
    acc.finish()
    with pytest.raises(RuntimeError, match="ended"):
        acc.feed_text("more")
    with pytest.raises(ValueError, match="unknown text_tools family 'qwen4'"):
        ToolCallAccumulator(text_tools="qwen4")
    assert ToolCallAccumulator(text_tools="gpt-oss").text_tools == "harmony"


def test_feed_text_without_text_tools_splits_only_think(make_acc: MakeAcc) -> None:
    acc = make_acc()
    events = acc.feed_text("<think>a</think>b<tool_call>{}</tool_call>") + acc.finish()
    assert texts(events) == ({0: "b<tool_call>{}</tool_call>"}, "a")
    assert acc.format == "text"
    assert acc.tool_calls == []


# -- limits, schemas, the clock ---------------------------------------------------------------


def test_max_arguments_size_applies_to_text_calls(make_acc: MakeAcc) -> None:
    acc = make_acc(text_tools="hermes", max_arguments_size=10)
    acc.feed_text('<tool_call>{"name": "f", "arguments": {"text": "0123456789"}}</tool_call>ok')
    events = acc.finish()
    (call,) = acc.tool_calls
    assert call.error.startswith("too large") and call.arguments is MISSING
    assert texts(events)[0] == {}  # "ok" came with the feed, before finish


def test_markup_longer_than_the_limit_is_an_error(make_acc: MakeAcc) -> None:
    acc = make_acc(text_tools="qwen3-coder")
    acc.feed_text("<tool_call><function=" + "f" * 2000)
    acc.feed_text("></function></tool_call>then")
    events = acc.finish()
    (call,) = acc.tool_calls
    assert call.name == ""
    assert call.error.startswith("invalid tool call: a function name longer than 1024")
    assert texts(events)[0] == {}


def test_schemas_check_text_calls(make_acc: MakeAcc) -> None:
    acc = make_acc(text_tools="hermes", tools=TOOLS)
    acc.feed_text('<tool_call>{"name": "nope", "arguments": {}}</tool_call>')
    acc.feed_text('<tool_call>{"name": "get_weather", "arguments": {"city": 3}}</tool_call>')
    acc.feed_text('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>')
    acc.finish()
    unknown, wrong, right = acc.tool_calls
    assert unknown.error.startswith("schema: unknown tool 'nope'")
    assert wrong.error.startswith("schema: /city")
    assert right.complete and right.arguments == {"city": "Oslo"}


def test_idle_timeout_ends_a_text_call(make_acc: MakeAcc) -> None:
    now = [0.0]
    acc = make_acc(text_tools="hermes", idle_timeout=5, clock=lambda: now[0])
    acc.feed_text('<tool_call>{"name": "f", "arguments": {"a": ')
    now[0] = 10.0
    acc.feed_text("1}}</tool_call>after")
    events = acc.finish()
    (call,) = acc.tool_calls
    assert call.error.startswith("timed out")
    assert sum(type(e) is ToolCallDone for e in events) == 0  # it ended before


# -- the same markup in a provider's stream -------------------------------------------------


def chat_chunks(text: str, pieces: list[str], choice: int = 0) -> list[dict[str, Any]]:
    return [
        {"id": "c1", "choices": [{"index": choice, "delta": {"content": piece}}]}
        for piece in pieces
    ]


@pytest.mark.parametrize("case", CASES[::3], ids=[c.id for c in CASES[::3]])
def test_provider_streams_whose_text_holds_the_calls(make_acc: MakeAcc, case: Case) -> None:
    expected = outcome(*read(make_acc, case, [case.text]))
    pieces = random_pieces(case.text, 7)

    acc = make_acc(format="openai-chat", text_tools=case.family, tools=case.tools)
    events = []
    for chunk in chat_chunks(case.text, pieces):
        events += acc.feed(chunk)
    events += acc.feed("[DONE]") + acc.finish()
    assert outcome(acc, events) == expected

    acc = make_acc(format="anthropic", text_tools=case.family, tools=case.tools)
    events = acc.feed({"type": "message_start", "message": {"id": "m", "content": []}})
    events += acc.feed(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
    )
    for piece in pieces:
        delta = {"type": "text_delta", "text": piece}
        events += acc.feed({"type": "content_block_delta", "index": 0, "delta": delta})
    events += acc.feed({"type": "content_block_stop", "index": 0})
    events += acc.feed({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})
    events += acc.feed({"type": "message_stop"}) + acc.finish()
    assert outcome(acc, events) == expected

    acc = make_acc(format="ollama", text_tools=case.family, tools=case.tools)
    lines = (
        "".join(
            json.dumps({"message": {"role": "assistant", "content": p}, "done": False}) + "\n"
            for p in pieces
        )
        + json.dumps({"message": {"role": "assistant", "content": ""}, "done": True})
        + "\n"
    )
    events = acc.feed_lines(lines.encode()) + acc.finish()
    assert outcome(acc, events) == expected


def test_each_choice_has_its_own_text_calls(make_acc: MakeAcc) -> None:
    acc = make_acc(format="openai-chat", text_tools="hermes")
    a = '<tool_call>{"name": "f", "arguments": {"n": 0}}</tool_call>'
    b = 'no <tool_call>{"name": "g", "arguments": {"n": 1}}</tool_call>'
    for x, y in zip(random_pieces(a, 1), random_pieces(b, 2)):
        acc.feed(chat_chunks("", [x], 0)[0])
        acc.feed(chat_chunks("", [y], 1)[0])
    for x in random_pieces(a, 1)[len(random_pieces(b, 2)) :]:
        acc.feed(chat_chunks("", [x], 0)[0])
    for y in random_pieces(b, 2)[len(random_pieces(a, 1)) :]:
        acc.feed(chat_chunks("", [y], 1)[0])
    acc.feed("[DONE]")
    acc.finish()
    calls = {(c.choice, c.name, json.dumps(c.arguments), c.complete) for c in acc.tool_calls}
    assert calls == {(0, "f", '{"n": 0}', True), (1, "g", '{"n": 1}', True)}


def test_provider_calls_and_text_calls_share_the_table(make_acc: MakeAcc) -> None:
    acc = make_acc(format="openai-chat", text_tools="hermes")
    acc.feed(chat_chunks("", ['<tool_call>{"name": "f", "arguments": {}}</tool_call>'])[0])
    tool = {"index": 0, "id": "call_1", "type": "function"}
    tool["function"] = {"name": "g", "arguments": "{}"}
    acc.feed({"id": "c1", "choices": [{"index": 0, "delta": {"tool_calls": [tool]}}]})
    acc.feed({"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    acc.feed("[DONE]")
    acc.finish()
    assert [(c.index, c.name, c.complete) for c in acc.tool_calls] == [
        (0, "f", True),
        (1, "g", True),
    ]


def test_a_call_cut_by_the_end_of_an_anthropic_message(make_acc: MakeAcc) -> None:
    """`message_delta` closes the provider's open calls: a text call is ended first, as
    what it is, never closed as if its marker had come."""
    acc = make_acc(format="anthropic", text_tools="hermes")
    acc.feed({"type": "message_start", "message": {"id": "m", "content": []}})
    text = '<tool_call>{"name": "f", "arguments": {"a": 1}}'
    acc.feed(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}
    )
    acc.feed({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}})
    (call,) = acc.tool_calls
    assert call.finished and not call.complete
    assert call.error.startswith("truncated by the token limit ('max_tokens')")


def test_expected_helpers_are_consistent() -> None:
    assert all(isinstance(c, Call) for case in CASES for c in case.calls)
    assert {case.family for case in CASES} == set(FAMILY_NAMES)


def test_a_fence_cut_between_its_backticks_keeps_the_error_position(make_acc: MakeAcc) -> None:
    """The fence stripper counted only the last piece's backticks as dropped (found by the
    DeepSeek V3 fixtures read by character): the error's position was off by the others."""

    def fragment(arguments: str, **start: Any) -> dict[str, Any]:
        call = {
            "index": 0,
            **start,
            "function": {**start.pop("function", {}), "arguments": arguments},
        }
        return {"id": "c1", "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}

    errors = set()
    for pieces in (["```json\n{x}\n```"], ["`", "`", "`json\n{x}\n```"], list("```json\n{x}")):
        acc = make_acc(format="openai-chat")
        acc.feed(fragment("", id="call_1", function={"name": "f"}))
        for piece in pieces:
            acc.feed(fragment(piece))
        acc.finish()
        errors.add(acc.tool_calls[0].error)
    assert errors == {f"{invalid_json('{x}')}: line 2 column 2 (char 9)"}


def reader_of(acc: ToolCallAccumulator) -> Any:
    """The text reader of choice 0 (the family's, once `auto` has chosen one)."""
    reader = (acc._handler._readers() or {}).get(0)  # type: ignore[union-attr]
    return getattr(reader, "chosen", None) or reader


@pytest.mark.parametrize("case", CASES[::2], ids=[c.id for c in CASES[::2]])
def test_what_is_held_stays_short_whatever_the_text(make_acc: MakeAcc, case: Case) -> None:
    """Only a possible marker's start, or markup bounded by MAX_MARKUP, waits for the next
    delta: long runs of blanks after markup, and long junk, never pile up (each delta would
    then cost the length of the pile: quadratic)."""
    from jsondrip.toolcalls.text.reader import MAX_MARKUP

    text = case.text
    spots = [k + 1 for k, c in enumerate(text) if c in ">]|\n{("][:8]
    for spot in reversed(spots):
        text = text[:spot] + " " * 3000 + text[spot:]
    for variant in (text, text.replace("Paris", "P" + "<" * 3000)):
        acc = make_acc(text_tools=case.family, tools=case.tools)
        for piece in random_pieces(variant, 3):
            acc.feed_text(piece)
            reader = reader_of(acc)
            if reader is not None:
                assert len(reader.held) <= MAX_MARKUP + 64, (case.id, len(reader.held))
        acc.finish()


def test_text_tools_with_structured_output(make_acc: MakeAcc) -> None:
    """`output=` reads the text outside the calls: a call written in the text, then a JSON
    answer after it, at every chunking; the end of `feed_text` is the response's normal end."""
    text = (
        '<think>plan</think><tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\n'
        'Answer: {"answer": [42, "<tool>"]}'
    )
    for pieces in ([text], list(text), random_pieces(text, 7)):
        acc = make_acc(text_tools="hermes", output=True)
        events: list[Any] = []
        for piece in pieces:
            events += acc.feed_text(piece)
        events += acc.finish()
        assert [(c.name, c.arguments, c.complete) for c in acc.tool_calls] == [
            ("f", {"a": 1}, True)
        ]
        done = [e for e in events if type(e).__name__ == "OutputDone"]
        assert [(e.value, e.complete, e.error) for e in done] == [
            ({"answer": [42, "<tool>"]}, True, None)
        ]
        text_out, reasoning = texts(events)
        assert (text_out.get(0, ""), reasoning) == ("\nAnswer: ", "plan")


def test_text_tools_with_structured_output_in_a_provider_stream(make_acc: MakeAcc) -> None:
    """The choice's finish reason ends its text calls, then its output."""
    acc = make_acc(format="openai-chat", text_tools="hermes", output=True)
    events: list[Any] = []
    for piece in ['<tool_call>\n{"name": "f", "arguments": {}}\n</tool', '_call>\n{"x": ', '"ab']:
        events += acc.feed({"id": "c1", "choices": [{"index": 0, "delta": {"content": piece}}]})
    events += acc.feed(
        {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}
    )
    events += acc.finish()
    done = [e for e in events if type(e).__name__ == "OutputDone"]
    assert [(e.value, e.complete) for e in done] == [({"x": "ab"}, False)]
    assert done[0].error.startswith("truncated by the token limit ('length')")
    assert [(c.name, c.complete) for c in acc.tool_calls] == [("f", True)]

"""The envelope shortcut's quick check has two twins, `jsondrip._native.ChunkMatcher` (Rust,
`rust/envelope`) and `shortcut.ChunkMatcher` (Python, `scanstring`): on any chunk they give
the same answer, and the accumulator uses the one of its backend."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _toolcall_support import make_acc_fixture  # noqa: F401 - make_acc is a fixture
from conftest import NO_NATIVE, examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jsondrip.toolcalls import shortcut
from jsondrip.toolcalls.shortcut import ChunkMatcher

if NO_NATIVE is not None:  # the twins compared here are the native one and the Python one
    pytest.skip(NO_NATIVE, allow_module_level=True)

PREFIX = 'event: x\ndata: {"t":"d","delta":{"partial_json":"'
MIDDLE = '},"obfuscation":"'  # the text between the two literals' quotes
SUFFIX = "}\n\n"

# pieces of literal text: plain, non-ASCII, every escape, and what makes a literal invalid
PIECES = st.sampled_from(
    [
        "a", "é", "😀", " ", "\x7f", '\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
        "\\u00e9", "\\u00E9", "\\ud83d\\ude00", "\\ud800", "\\udc00", "\\ud800\\u0041",
        "\\u12", "\\u12g4", "\\u+123", "\\x41", "\\", '"', "\n", "\x1f", "\x00",
    ]
)  # fmt: skip
LITERAL = st.lists(PIECES, max_size=6).map("".join)


def native() -> Any:
    from jsondrip import _native

    return _native


def both(texts: list[str], holes: str, chunk: bytes, head: Any = None) -> Any:
    """The two twins' answers for one chunk, asserted equal."""
    ours = ChunkMatcher(texts, holes).fragment(chunk, head)
    theirs = native().ChunkMatcher(texts, holes).fragment(chunk, head)
    assert ours == theirs, (chunk, ours, theirs)
    return ours


PLAIN = ([PREFIX, SUFFIX], "f")
# a chunk with a head and a number before the fragment: `{"id":"<head>","created":<n>,...`
HEADED = 'event: x\ndata: {"id":"'
CREATED = ',"created":'
NUMBERS = st.sampled_from(
    ["0", "-1", "17", "1.5", "-0.25e+3", "1E9", "01", "1.", "-", "", "NaN", "1e", '"1"', "9" * 641]
)


@settings(max_examples=examples(400), deadline=None)
@given(fragment=LITERAL, ignored=LITERAL, with_middle=st.booleans(), tail=st.binary(max_size=3))
@example(fragment="x\\u00e9", ignored="p", with_middle=True, tail=b"")
def test_the_twins_agree_on_any_chunk(
    fragment: str, ignored: str, with_middle: bool, tail: bytes
) -> None:
    texts, holes = ([PREFIX, MIDDLE, SUFFIX], "fs") if with_middle else PLAIN
    body = PREFIX + fragment + '"' + (MIDDLE + ignored + '"' if with_middle else "") + SUFFIX
    chunk = body.encode("utf-8", "surrogatepass") + tail
    got = both(texts, holes, chunk)
    if got is not None and not with_middle:  # the literal is then the whole fragment
        assert got == json.loads('"' + fragment + '"')


@settings(max_examples=examples(400), deadline=None)
@given(
    head=LITERAL,
    theirs=st.one_of(st.none(), st.just(1), LITERAL.map(lambda t: t.replace("\\", ""))),
    number=NUMBERS,
    fragment=LITERAL,
)
@example(head="c-1", theirs="c-1", number="17", fragment="x")
@example(head="c\\u002d1", theirs="c-1", number="17", fragment="x")
@example(head="\\ud800", theirs="\ud800", number="17", fragment="x")
def test_the_twins_agree_on_heads_and_numbers(
    head: str, theirs: Any, number: str, fragment: str
) -> None:
    """A head hole matches only the stream's own value (decoded), a number hole only a number
    as json reads it (at most 640 characters)."""
    texts = [HEADED, CREATED, ',"delta":{"partial_json":"', "}}\n\n"]
    body = HEADED + head + '"' + CREATED + number + texts[2] + fragment + '"' + texts[3]
    got = both(texts, "hnf", body.encode("utf-8", "surrogatepass"), theirs)
    if got is not None:
        assert json.loads('"' + head + '"') == theirs
        assert json.loads(body.split("data: ", 1)[1])["created"] == json.loads(number)


@pytest.mark.parametrize(
    ("chunk", "want"),
    [
        (PREFIX + 'a\\n\\u00e9😀"}\n\n', "a\né😀"),
        (PREFIX + '"}\n\n', ""),
        (PREFIX + 'a"} \n\n', None),  # another suffix
        (PREFIX.replace("x", "y") + 'a"}\n\n', None),  # another prefix
        (PREFIX + '\\ud800"}\n\n', None),  # a lone surrogate: the long way keeps it
        (PREFIX + 'a\tb"}\n\n', None),  # a control character
    ],
)
def test_the_twins_on_chosen_chunks(chunk: str, want: str | None) -> None:
    assert both(*PLAIN, chunk.encode()) == want


def test_invalid_utf8_is_refused_by_both() -> None:
    assert both(*PLAIN, PREFIX.encode() + b'\xff"}\n\n') is None
    assert both(*PLAIN, PREFIX.encode() + b'a"}\n\n\xc3') is None


def test_the_accumulator_uses_its_backends_matcher(make_acc, backend: str) -> None:
    acc = make_acc(format="anthropic")
    acc.feed_sse(b'data: {"type":"message_start","message":{"id":"m","type":"message"}}\n\n')
    block = '{"type":"tool_use","id":"t","name":"f","input":{}}'
    acc.feed_sse(
        f'data: {{"type":"content_block_start","index":0,"content_block":{block}}}\n\n'.encode()
    )
    for part in ['{"a"', ": ", "1}"]:
        delta = json.dumps({"type": "input_json_delta", "partial_json": part})
        event = f'{{"type":"content_block_delta","index":0,"delta":{delta}}}'
        acc.feed_sse(f"data: {event}\n\n".encode())
    matcher = acc._shortcut.chunk_matcher
    want = native().ChunkMatcher if backend == "native" else shortcut.ChunkMatcher
    assert type(matcher) is want
    assert acc.tool_calls[0].arguments == {"a": 1}

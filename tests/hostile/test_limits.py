"""Hostile input: the limits. Nesting depth, input size, integer digits, very long tokens.

Every limit answers with a positioned `JSONDecodeError` naming it, on both backends, and no
input overflows a stack: nesting never uses the call stack (docs/hostile.md).
"""

from __future__ import annotations

import json
import sys

import pytest
from _support import error_tuple, same
from conftest import installed_backends

import jsondrip
from jsondrip import JSONDecodeError, Parser

MILLION = 1_000_000
DEPTH_ERROR = ("Maximum nesting depth of 1024 exceeded", 1024, 1, 1025)


def test_default_depth_is_1024(backend: str) -> None:
    """The documented default: 1024 levels are fine, the 1025th opening bracket is not."""
    assert same(Parser(backend=backend).feed("[" * 1024 + "]" * 1024), _nested(1024))
    with pytest.raises(JSONDecodeError) as caught:
        Parser(backend=backend).feed("[" * 1025)
    assert error_tuple(caught.value) == DEPTH_ERROR


@pytest.mark.parametrize("kind", [str, bytes])
def test_a_million_brackets_in_one_feed(backend: str, kind: type) -> None:
    """A million `[` at once: the depth error at the 1025th, not a stack overflow."""
    parser = Parser(backend=backend)
    with pytest.raises(JSONDecodeError) as caught:
        parser.feed(kind("[" * MILLION, "ascii") if kind is bytes else "[" * MILLION)
    assert error_tuple(caught.value) == DEPTH_ERROR
    with pytest.raises(JSONDecodeError) as again:
        parser.close()
    assert error_tuple(again.value) == DEPTH_ERROR


def test_a_million_brackets_one_byte_at_a_time(backend: str) -> None:
    """A million one-byte feeds of `[`: 1024 succeed, every later one raises the same error.

    The twin takes a tenth (100,000 feeds): past the 1025th every feed takes the same path, and
    the twin's feeds are ten times slower.
    """
    count = MILLION if backend == "native" else MILLION // 10
    parser = Parser(backend=backend)
    feed = parser.feed
    errors = set()
    failed = 0
    for _ in range(count):
        try:
            feed(b"[")
        except JSONDecodeError as e:
            failed += 1
            errors.add(error_tuple(e))
    assert failed == count - 1024
    assert errors == {DEPTH_ERROR}


def test_object_nesting_limit_positions_the_opening_brace(backend: str) -> None:
    """`{"a": ` nested past the limit: the position is that of the 1025th `{`."""
    with pytest.raises(JSONDecodeError) as caught:
        Parser(backend=backend).feed('{"a": ' * 2000)
    assert error_tuple(caught.value) == (
        "Maximum nesting depth of 1024 exceeded",
        1024 * 6,
        1,
        1024 * 6 + 1,
    )


def test_a_million_levels_with_the_limit_raised(backend: str) -> None:
    """max_depth raised: a million-deep value (the twin: 200,000, its per-character loop is
    slow; any recursion would fail at a thousand) is built, closed and freed without recursion.
    """
    depth = MILLION if backend == "native" else MILLION // 5
    parser = Parser(backend=backend, max_depth=depth)
    parser.feed("[" * depth)
    value = parser.feed("]" * depth)
    assert parser.done
    levels = 1
    while value != []:
        assert type(value) is list and len(value) == 1
        value = value[0]
        levels += 1
    assert levels == depth
    del value, parser  # freeing a deep value must not recurse either


@pytest.mark.parametrize("kind", [str, bytes])
def test_loads_with_a_million_brackets_raises_recursion_error_as_json(kind: type) -> None:
    """loads follows json.loads: RecursionError, never a crash (both engines)."""
    text = "[" * MILLION + "]" * MILLION
    doc = text.encode() if kind is bytes else text
    with pytest.raises(RecursionError) as expected:
        json.loads(doc)
    for backend in installed_backends():
        with pytest.raises(RecursionError) as caught:
            jsondrip.loads(doc, backend=backend)
        assert str(caught.value) == str(expected.value)


def test_max_size_error_is_exact(backend: str) -> None:
    """One character over max_size: the documented message, at position max_size."""
    parser = Parser(backend=backend, max_size=10)
    with pytest.raises(JSONDecodeError) as caught:
        parser.feed('{"a": "bcdefghij"}')
    assert error_tuple(caught.value) == ("Document exceeds max_size of 10 characters", 10, 1, 11)


def test_max_size_counts_characters_and_allows_exactly_the_limit(backend: str) -> None:
    """A document of exactly max_size characters is fine; sizes count code points."""
    text = '["日本語"]'
    parser = Parser(backend=backend, max_size=len(text))
    for byte in text.encode():
        parser.feed(bytes([byte]))
    assert parser.close() == ["日本語"]
    parser = Parser(backend=backend, max_size=len(text))
    parser.feed(text.encode())
    with pytest.raises(JSONDecodeError) as caught:
        parser.feed(b" ")
    assert error_tuple(caught.value) == ("Document exceeds max_size of 7 characters", 7, 1, 8)


def test_max_size_in_one_byte_feeds(backend: str) -> None:
    """Fed a byte at a time, the feed of the character past the limit raises."""
    parser = Parser(backend=backend, max_size=5)
    raised_at = None
    for i, byte in enumerate(b"[1, 2, 3]"):
        try:
            parser.feed(bytes([byte]))
        except JSONDecodeError as e:
            raised_at = i
            assert error_tuple(e) == ("Document exceeds max_size of 5 characters", 5, 1, 6)
            break
    assert raised_at == 5


def _digit_limit() -> int:
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


needs_digit_limit = pytest.mark.skipif(
    _digit_limit() == 0, reason="this interpreter has no integer digit limit (3.11+)"
)


@needs_digit_limit
def test_integers_up_to_the_digit_limit_are_exact(backend: str) -> None:
    """An integer of exactly sys.get_int_max_str_digits() digits reads as json.loads reads it."""
    text = "[-" + "7" * _digit_limit() + "]"
    assert Parser(backend=backend).feed(text) == json.loads(text)


@needs_digit_limit
@pytest.mark.parametrize(
    "text, pos", [("[" + "1" * 5000 + "]", 1), ("[1, -" + "2" * 5000 + "]", 4)]
)
def test_integer_past_the_digit_limit_is_a_positioned_decode_error(
    backend: str, text: str, pos: int
) -> None:
    """Past the interpreter's limit: a JSONDecodeError naming the limit, at the number."""
    limit = _digit_limit()
    parser = Parser(backend=backend)
    with pytest.raises(JSONDecodeError) as caught:
        parser.feed(text)
    msg = f"Exceeds the limit ({limit} digits) for integer string conversion: value has 5000 digits"
    assert error_tuple(caught.value) == (msg, pos, 1, pos + 1)


@needs_digit_limit
def test_loads_past_the_digit_limit_raises_what_json_raises() -> None:
    """loads is json.loads: the interpreter's ValueError, with its message."""
    text = "[" + "1" * 5000 + "]"
    with pytest.raises(ValueError) as expected:
        json.loads(text)
    for backend in installed_backends():
        with pytest.raises(ValueError) as caught:
            jsondrip.loads(text, backend=backend)
        assert type(caught.value) is type(expected.value)
        assert str(caught.value) == str(expected.value)


TEN_MB = 10 * 1024 * 1024
LONG_TOKENS = {
    "string": lambda n: '["' + "a" * n + '"]',
    "escaped-string": lambda n: '["' + "\\u00e9\\n" * (n // 8) + '"]',
    "key": lambda n: '{"' + "k" * n + '": 1}',
    "float-digits": lambda n: "[0." + "1" * n + "]",
    "exponent-digits": lambda n: "[1e" + "0" * n + "1]",
    "whitespace": lambda n: "[" + " " * n + "1]",
}
# The twin reads escapes and numbers a character at a time in Python: 1 MB of those is enough
# to show that no token length is bounded, and keeps the suite fast. That the cost of a long
# token stays linear is timed where timing belongs: benches/bench_hostile_time.py (its
# long-string, escape-heavy, long-float, long-exponent and whitespace shapes, N against 2N).
TWIN_SIZE = {k: TEN_MB // 10 for k in ("escaped-string", "float-digits", "exponent-digits")}


@pytest.mark.parametrize("kind", list(LONG_TOKENS))
def test_ten_megabyte_tokens(backend: str, kind: str) -> None:
    """10 MB in one token, fed in 64 KB chunks: the value json.loads gives."""
    size = TWIN_SIZE.get(kind, TEN_MB) if backend == "python" else TEN_MB
    doc = LONG_TOKENS[kind](size)
    parser = Parser(backend=backend)
    step = 64 * 1024
    for i in range(0, len(doc), step):
        parser.feed(doc[i : i + step])
    assert same(parser.close(), json.loads(doc))


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value

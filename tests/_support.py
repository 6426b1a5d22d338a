"""Helpers shared by the test modules: exact comparison, snapshots, feeding, error capture."""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any, Union

import jsondrip
from jsondrip._dialect import PYPY_DECODER

Chunk = Union[str, bytes, bytearray, memoryview]
ErrorTuple = tuple[str, int, int, int]


def same(a: Any, b: Any) -> bool:
    """Exact equality, type for type: 1 != 1.0 != True, NaN == NaN, -0.0 != 0.0, dict order.

    Iterative, so that deeply nested values do not hit the recursion limit.
    """
    stack: list[tuple[Any, Any]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is jsondrip.MISSING or y is jsondrip.MISSING:
            if x is not y:
                return False
            continue
        if type(x) is not type(y):
            return False
        if isinstance(x, float):
            if math.isnan(x) or math.isnan(y):
                if not (math.isnan(x) and math.isnan(y)):
                    return False
            elif x != y or math.copysign(1.0, x) != math.copysign(1.0, y):
                return False
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, dict):
            if list(x) != list(y):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


def snapshot(value: Any) -> Any:
    """A deep copy of a live value (MISSING stays MISSING)."""
    return value if value is jsondrip.MISSING else copy.deepcopy(value)


def error_tuple(error: json.JSONDecodeError) -> ErrorTuple:
    """The parts of a decode error that the contract fixes."""
    return (comparable_message(error.msg), error.pos, error.lineno, error.colno)


_NOT_ASCII = "<a character that is not ASCII>"
_PYPY_CLEAN = re.compile(
    r"Unexpected '[\x00-\x7f]'( when decoding (array|object))?"
    r"|Invalid \\escape: ([\x00-\x7f] )?\(char \d+\)"
)


def comparable_message(msg: str) -> str:
    """The message, with one exception: on PyPy, an error at a character that is not ASCII.

    PyPy's json puts that character's first UTF-8 byte alone into its message ("Unexpected
    '%s'" % byte), which makes an invalid str: what follows the byte is eaten, and the text
    changes from run to run (pytest even fails to print it). jsondrip names the character
    whole; both sides compare as the same placeholder, with what PyPy's message keeps after
    it (the "when decoding array", the "(char N)").
    """
    if not PYPY_DECODER or _PYPY_CLEAN.fullmatch(msg):
        return msg
    for head in ("Unexpected '", "Invalid \\escape: "):
        if msg.startswith(head):
            for tail in (" when decoding array", " when decoding object"):
                if msg.endswith(tail[2:]):
                    return head + _NOT_ASCII + tail
            number = re.search(r"char (\d+)\)$", msg)
            return head + _NOT_ASCII + (f" (char {number.group(1)})" if number else "")
    return msg


def json_error(text: str | bytes) -> ErrorTuple | None:
    """json.loads's error on a complete text, or None when it accepts the text."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return error_tuple(e)
    return None


def feed_all(
    chunks: Iterable[Chunk], *, backend: str, mode: str = "stable", **options: Any
) -> tuple[list[Any], Any, tuple[int, ErrorTuple] | None]:
    """Feed chunks one by one, then close.

    Returns the snapshots after each successful feed, the closed value (None on error) and,
    on error, (index of the failing feed, or -1 for close; the error's parts).
    """
    parser = jsondrip.Parser(mode=mode, backend=backend, **options)
    snaps: list[Any] = []
    for index, chunk in enumerate(chunks):
        try:
            value = parser.feed(chunk)
        except jsondrip.JSONDecodeError as e:
            return snaps, None, (index, error_tuple(e))
        snaps.append(snapshot(value))
    try:
        final = parser.close()
    except jsondrip.JSONDecodeError as e:
        return snaps, None, (-1, error_tuple(e))
    return snaps, final, None


def outcome(chunks: Sequence[Chunk], *, backend: str, mode: str = "stable", **options: Any) -> Any:
    """('ok', value) or ('error', msg, pos, lineno, colno) of feeding chunks then closing."""
    parser = jsondrip.Parser(mode=mode, backend=backend, **options)
    try:
        for chunk in chunks:
            parser.feed(chunk)
        return ("ok", parser.close())
    except jsondrip.JSONDecodeError as e:
        return ("error", *error_tuple(e))


def chars(text: str) -> list[str]:
    """The text in one-character chunks."""
    return list(text)


def single_bytes(data: bytes) -> list[bytes]:
    """The bytes in one-byte chunks."""
    return [data[i : i + 1] for i in range(len(data))]

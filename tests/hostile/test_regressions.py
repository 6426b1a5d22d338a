"""Inputs the fuzzers found, as plain tests (docs/hostile.md lists each with its run).

The cargo-fuzz targets found nothing in their runs. The atheris harness found the cases below;
the ones that need a change in the library are strict xfails that say which.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import jsondrip
from jsondrip import Parser


def answers(backend: str, chunks: list[bytes]) -> list[Any]:
    """What each feed, then close, answers: the value, or the error's message and position."""
    parser = Parser(backend=backend)
    out: list[Any] = []
    for step in [*(lambda c=c: parser.feed(c) for c in chunks), parser.close]:
        try:
            value = step()
            out.append(("value", value))
        except json.JSONDecodeError as e:
            out.append(("error", e.msg, e.pos))
    return out


@pytest.mark.xfail(
    strict=True,
    reason="needs twin change: the twin holds back ED A0..BF (CPython's incremental decoder"
    " waits for more bytes) where the native core raises at once",
)
@pytest.mark.parametrize("tail", [b"\xed\xa2", b"\xed\xa0", b"\xed\xbf"])
def test_encoded_surrogate_prefix_at_a_chunk_end_answers_alike(tail: bytes) -> None:
    """atheris, crash-cdd54a3c (`[#\\xed\\xa2\\x00`): a chunk ending in the first two bytes of a
    surrogate encoded in UTF-8. Both backends must raise at the same feed (native: at once)."""
    chunks = [b'["' + tail, b'"]']
    assert answers("python", chunks) == answers("native", chunks)


def test_encoded_surrogate_prefix_at_a_chunk_end_native_raises_at_once() -> None:
    """The native answer the twin should match (while both refuse encoded surrogates)."""
    pytest.importorskip("jsondrip._native")
    assert answers("native", [b'["\xed\xa2', b'"]'])[0] == ("error", "Invalid UTF-8 byte 0xed", 2)


def test_loads_deep_alternating_containers_raise_recursion_error_as_json() -> None:
    """atheris, crash-74cd97af: `[{"":` nested past the recursion limit. Both raise
    RecursionError; json names the object it was in, jsondrip.loads may name the array
    one level away (its Python frames differ from json's by two; docs/hostile.md)."""
    doc = '[{"":' * 1000
    with pytest.raises(RecursionError):
        json.loads(doc)
    with pytest.raises(RecursionError):
        jsondrip.loads(doc)

"""Inputs the fuzzers found, as plain tests (docs/hostile.md lists each with its run).

The cargo-fuzz targets found nothing in their runs. The atheris harness found the cases below;
each is a test here, the ones that needed a change in the library included.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from _support import same
from conftest import skip_unless_native

import jsondrip
from jsondrip import Parser


def answers(backend: str, chunks: list[bytes]) -> list[Any]:
    """What each feed, then close, answers: the value, or the error's message and position."""
    parser = Parser(backend=backend)
    out: list[Any] = []
    for step in [*(lambda c=c: parser.feed(c) for c in chunks), parser.close]:
        try:
            value = step()
            out.append(("value", copy.deepcopy(value)))  # the live value changes later
        except json.JSONDecodeError as e:
            out.append(("error", e.msg, e.pos))
    return out


@pytest.mark.parametrize("tail", [b"\xed\xa2", b"\xed\xa0", b"\xed\xbf"])
def test_encoded_surrogate_prefix_at_a_chunk_end_answers_alike(tail: bytes) -> None:
    """atheris, crash-cdd54a3c (`[#\\xed\\xa2\\x00`): a chunk ending in the first two bytes of a
    surrogate encoded in UTF-8, which the next chunk may complete: both backends wait, then
    read it as json.loads does (surrogatepass) or raise at the same feed."""
    skip_unless_native()
    chunks = [b'["' + tail, b'"]']
    assert answers("python", chunks) == answers("native", chunks)


@pytest.mark.parametrize(
    ("chunks", "final"),
    [
        ([b'["\xed\xa2', b'\x80"]'], ("value", ["\ud880"])),
        ([b'["\xed', b"\xa0", b'\x80"]'], ("value", ["\ud800"])),
        ([b'["\xed\xa2', b'"]'], ("error", "Invalid UTF-8 byte 0xed", 2)),
    ],
    ids=["completed", "three-chunks", "broken"],
)
def test_encoded_surrogate_cut_by_chunks(backend: str, chunks: list[bytes], final: Any) -> None:
    """A surrogate cut between chunks waits for its last byte: the value stays `[""]` until
    then; a byte that cannot complete it is invalid at its lead byte."""
    got = answers(backend, chunks)
    assert got[0] == ("value", [""])
    assert (final[0] == "error" and final in got) or got[-1] == final


@pytest.mark.parametrize("depth", [1000, 20_000])
def test_loads_deep_alternating_containers_raise_recursion_error_as_json(depth: int) -> None:
    """atheris, crash-74cd97af: `[{"":` nested deep. jsondrip.loads raises what this Python's
    json raises: RecursionError past json's depth (the recursion limit up to 3.12, 10000 on
    3.13, the C stack left from 3.14, where json's small frames take 20,000 levels that
    overflowed the native builder's: it hands such a text to json now), else the error of a
    document cut short. When both raise RecursionError, json names the object it was in,
    jsondrip.loads may name the array one level away (its Python frames differ from json's by
    two; docs/hostile.md)."""
    doc = '[{"":' * depth
    with pytest.raises((RecursionError, json.JSONDecodeError)) as want:
        json.loads(doc)
    expected = RecursionError if isinstance(want.value, RecursionError) else json.JSONDecodeError
    with pytest.raises(expected):
        jsondrip.loads(doc)


@pytest.mark.parametrize(
    "doc",
    ["[0.4e" + "0" * 38 + "]", "[1E-" + "0" * 30 + "5]", "[-2.5e+" + "0" * 25 + "1]"],
)
def test_loads_exponent_with_many_leading_zeros(doc: str) -> None:
    """cargo fuzz, scanner_vs_machine, crash-2e19eac7 and crash-c145895a (`[0.4e000...0`):
    the faster float path (Eisel-Lemire) took an exponent of more than 18 digits for an
    overflow, leading zeros included, and gave inf. Found on the branch that brought it, then
    in main once merged; fixed in the scanner."""
    assert same(jsondrip.loads(doc), json.loads(doc))
    assert same(jsondrip.loads(doc.encode()), json.loads(doc))

"""nst/JSONTestSuite: y_ files parse to json.loads's value, n_ files are rejected, i_ files do
what json.loads does (UTF-16/32 files belong to the drop-in `loads`, not to the stream parser).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support import error_tuple, same, single_bytes
from conftest import CORPUS, corpus_dir

import jsondrip

SUITE = "jsontestsuite"
MISSING_CORPUS = "(corpus missing)"


def names() -> list[str]:
    folder = CORPUS / SUITE
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.suffix == ".json")


def files(prefix: str) -> list[str]:
    """The suite's files with this prefix; one placeholder (the test skips) if it is missing."""
    return [name for name in names() if name.startswith(prefix)] or [MISSING_CORPUS]


def read(name: str) -> bytes:
    """A file's bytes; skips, saying where the corpus should be, when it is missing."""
    return (corpus_dir(SUITE) / name).read_bytes()


def run(chunks: list[bytes], backend: str) -> tuple[str, Any]:
    """('ok', value), or ('error', the JSONDecodeError) of feeding then closing."""
    parser = jsondrip.Parser(backend=backend)
    try:
        for chunk in chunks:
            parser.feed(chunk)
        return ("ok", parser.close())
    except jsondrip.JSONDecodeError as e:
        return ("error", e)


def chunkings(data: bytes) -> list[list[bytes]]:
    """Whole, and byte by byte (skipped for the two huge nesting files: whole is enough)."""
    if len(data) > 20000:
        return [[data], [data[i : i + 997] for i in range(0, len(data), 997)]]
    return [[data], single_bytes(data)]


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_utf16_or_32(name: str, data: bytes) -> bool:
    lowered = name.lower()
    if "utf16" in lowered or "utf-16" in lowered or "utf32" in lowered or "utf-32" in lowered:
        return True
    boms = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00")
    return not is_utf8(data) and data.startswith(boms)


@pytest.mark.parametrize("name", files("y_"))
def test_accepted(backend: str, name: str) -> None:
    data = read(name)
    want = json.loads(data)
    for chunks in chunkings(data):
        kind, got = run(chunks, backend)
        assert kind == "ok", (len(chunks), got)
        assert same(got, want), (len(chunks), got, want)


@pytest.mark.parametrize("name", files("n_"))
def test_rejected(backend: str, name: str) -> None:
    data = read(name)
    try:
        want: Any = json.loads(data)
    except (ValueError, RecursionError):
        want = None
        accepted_by_json = False
    else:
        # n_number_NaN, n_number_infinity, ...: json.loads accepts them, and so does jsondrip
        accepted_by_json = True
    for chunks in chunkings(data):
        kind, got = run(chunks, backend)
        if accepted_by_json:
            assert kind == "ok" and same(got, want), (len(chunks), got, want)
        else:
            assert kind == "error", (len(chunks), got)
            assert isinstance(got, json.JSONDecodeError)


@pytest.mark.parametrize("name", files("n_"))
def test_rejected_with_jsons_exact_error(backend: str, name: str) -> None:
    """Where this Python's json raises a JSONDecodeError on a UTF-8 n_ file, the parser raises
    the same one (msg, pos, lineno, colno), fed whole and a character at a time, and says
    IncompleteJSONError exactly when the text is a valid start cut short (no feed raised)."""
    data = read(name)
    if not is_utf8(data):
        pytest.skip("not UTF-8: json guesses another encoding or raises UnicodeDecodeError")
    text = data.decode("utf-8")
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        want = error_tuple(e)
    except (ValueError, RecursionError):
        pytest.skip("json raises no JSONDecodeError here (deep nesting)")
    else:
        pytest.skip("json accepts it (NaN, Infinity)")
    for chunks in ([text], list(text)) if len(text) < 20000 else ([text],):
        parser = jsondrip.Parser(backend=backend)
        cut_short = True
        try:
            for chunk in chunks:
                try:
                    parser.feed(chunk)
                except json.JSONDecodeError:
                    cut_short = False
                    raise
            parser.close()
        except jsondrip.JSONDecodeError as e:
            assert error_tuple(e) == want, len(chunks)
            assert isinstance(e, jsondrip.IncompleteJSONError) is cut_short
        else:
            raise AssertionError("accepted")


@pytest.mark.parametrize("name", files("i_"))
def test_implementation_defined(backend: str, name: str) -> None:
    data = read(name)
    try:
        want: Any = ("ok", json.loads(data))
    except ValueError as e:  # UnicodeDecodeError is a ValueError too
        want = ("error", e)
    for chunks in chunkings(data):
        kind, got = run(chunks, backend)
        if is_utf16_or_32(name, data):
            # the drop-in `loads` handles these; the stream parser reads UTF-8 only
            assert kind == "error" or (want[0] == "ok" and same(got, want[1])), got
        elif not is_utf8(data) and want[0] == "error":
            # json.loads raises UnicodeDecodeError; the Parser a positioned JSONDecodeError
            assert kind == "error", (len(chunks), got)
            assert "UTF-8" in got.msg, got.msg
        elif want[0] == "ok":
            assert kind == "ok" and same(got, want[1]), (len(chunks), got, want[1])
        else:
            assert kind == "error", (len(chunks), got)
            assert isinstance(want[1], json.JSONDecodeError)
            assert (got.msg, got.pos) == (want[1].msg, want[1].pos)


def test_suite_is_complete() -> None:
    """Guard against a silently empty or partial corpus."""
    corpus_dir(SUITE)
    found = names()
    assert len([n for n in found if n.startswith("y_")]) == 95
    assert len([n for n in found if n.startswith("n_")]) == 188
    assert len([n for n in found if n.startswith("i_")]) == 35

"""Hostile bytes: invalid UTF-8, overlong forms, surrogates encoded in UTF-8, NUL, BOMs.

Where json.loads answers (a value or a JSONDecodeError) the parser gives the same answer, fed
whole or a byte at a time; where json.loads raises UnicodeDecodeError the parser raises a
JSONDecodeError naming the byte, at the character where the bad sequence starts; loads gives
exactly what json.loads gives. The table is in docs/hostile.md.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support import error_tuple, json_error, same
from conftest import installed_backends

import jsondrip
from jsondrip import Parser


def parse(backend: str, doc: bytes | str, one_byte: bool) -> tuple[Any, ...]:
    """The parser's answer: ("value", v) or ("error", msg, pos, lineno, colno)."""
    parser = Parser(backend=backend)
    try:
        if one_byte:
            for i in range(len(doc)):
                parser.feed(doc[i : i + 1])
        else:
            parser.feed(doc)
        return ("value", parser.close())
    except json.JSONDecodeError as e:
        return ("error", *error_tuple(e))


def json_answer(doc: bytes | str) -> tuple[Any, ...]:
    """json.loads's answer, in the same shape (UnicodeDecodeError: its type and reason)."""
    try:
        return ("value", json.loads(doc))
    except json.JSONDecodeError as e:
        return ("error", *error_tuple(e))
    except UnicodeDecodeError as e:
        return ("UnicodeDecodeError", e.reason)


# (id, document, what the parser answers where json.loads raises UnicodeDecodeError)
INVALID_UTF8 = [
    ("lone-continuation", b'["\x80"]', 0x80, 2),
    ("ff-byte", b'["\xff"]', 0xFF, 2),
    ("truncated-2-byte", b'["\xc3"]', 0xC3, 2),
    ("truncated-3-byte-at-end", b'["\xe6\x97', 0xE6, 2),
    ("above-u10ffff", b'["\xf4\x90\x80\x80"]', 0xF4, 2),
    ("f5-lead", b'["\xf5\x80\x80\x80"]', 0xF5, 2),
    ("overlong-slash-2", b'["\xc0\xaf"]', 0xC0, 2),
    ("overlong-nul-2", b'["\xc0\x80"]', 0xC0, 2),
    ("overlong-c1", b'["\xc1\xbf"]', 0xC1, 2),
    ("overlong-slash-3", b'["\xe0\x80\xaf"]', 0xE0, 2),
    ("overlong-slash-4", b'["\xf0\x80\x80\xaf"]', 0xF0, 2),
    ("invalid-outside-string", b"[1, \xff]", 0xFF, 4),
    ("invalid-after-multibyte", '["日本'.encode() + b"\xff", 0xFF, 4),
    ("bom-prefix-only", b"\xef\xbb", 0xEF, 0),
]


@pytest.mark.parametrize("one_byte", [False, True], ids=["whole", "1-byte"])
@pytest.mark.parametrize(
    "doc, byte, pos", [case[1:] for case in INVALID_UTF8], ids=[case[0] for case in INVALID_UTF8]
)
def test_invalid_utf8_is_a_positioned_decode_error(
    backend: str, doc: bytes, byte: int, pos: int, one_byte: bool
) -> None:
    """json.loads raises UnicodeDecodeError; the parser names the byte and its position."""
    assert json_answer(doc)[0] == "UnicodeDecodeError"
    assert parse(backend, doc, one_byte) == (
        "error",
        f"Invalid UTF-8 byte 0x{byte:02x}",
        pos,
        1,
        pos + 1,
    )


# Documents json.loads answers, with a value or a JSONDecodeError: the parser answers the same.
SAME_AS_JSON = [
    ("nul-alone", b"\x00"),
    ("nul-after-space", b" \x00"),
    ("nul-in-array", b"[\x00]"),
    ("nul-in-string", b'["a\x00b"]'),
    ("nul-after-document", b"[1]\x00"),
    ("escaped-nul", b'["a\\u0000b"]'),
    ("bom-then-document", b"\xef\xbb\xbf[1]"),
    ("bom-alone", b"\xef\xbb\xbf"),
    ("bom-then-space", b"\xef\xbb\xbf \n[1]"),
    ("two-boms", b"\xef\xbb\xbf\xef\xbb\xbf[1]"),
    ("bom-after-document", b"[1] \xef\xbb\xbf"),
    ("bom-inside-array", b"[\xef\xbb\xbf1]"),
    ("bom-inside-string", b'["\xef\xbb\xbf"]'),
    ("str-bom", "\ufeff[1]"),
    ("str-bom-alone", "\ufeff"),
    ("noncharacters", '["\ufffe\uffff\U0010ffff"]'.encode()),
    ("escaped-lone-surrogates", b'["\\ud800", "\\udfff", "\\ud800\\ud800"]'),
    ("max-code-point", b'["\xf4\x8f\xbf\xbf"]'),
]


@pytest.mark.parametrize("one_byte", [False, True], ids=["whole", "1-byte"])
@pytest.mark.parametrize(
    "doc", [case[1] for case in SAME_AS_JSON], ids=[case[0] for case in SAME_AS_JSON]
)
def test_same_answer_as_json_loads(backend: str, doc: bytes | str, one_byte: bool) -> None:
    """Value for value, error for error (message and position)."""
    expected = json_answer(doc)
    got = parse(backend, doc, one_byte)
    assert got[0] == expected[0], (got, expected)
    assert same(got[1], expected[1]) if got[0] == "value" else got == expected


ENCODED_SURROGATES = [
    ("high", b'["\xed\xa0\x80"]'),
    ("low", b'["\xed\xbf\xbf"]'),
    ("pair-as-two", b'["\xed\xa0\xbd\xed\xb8\x80"]'),
]


@pytest.mark.parametrize("one_byte", [False, True], ids=["whole", "1-byte"])
@pytest.mark.parametrize(
    "doc", [case[1] for case in ENCODED_SURROGATES], ids=[case[0] for case in ENCODED_SURROGATES]
)
def test_surrogates_encoded_in_utf8_read_as_json_loads_reads_them(
    backend: str, doc: bytes, one_byte: bool
) -> None:
    """json.loads keeps them as lone surrogates (a pair stays two); so should the parser."""
    expected = json_answer(doc)
    assert expected[0] == "value"
    got = parse(backend, doc, one_byte)
    assert got[0] == "value" and same(got[1], expected[1])


def test_a_broken_encoded_surrogate_is_invalid_at_its_lead_byte(backend: str) -> None:
    """ED A0 followed by a byte that cannot continue it: not a surrogate, invalid UTF-8."""
    assert parse(backend, b'["\xed\xa0A"]', False) == (
        "error",
        "Invalid UTF-8 byte 0xed",
        2,
        1,
        3,
    )


UTF16_32 = [
    ("utf-16-le-bom", b"\xff\xfe" + "[1]".encode("utf-16-le"), "Invalid UTF-8 byte 0xff", 0),
    # json's message for a NUL where a value should be: "Expecting value", or PyPy's
    ("utf-16-be", "[1]".encode("utf-16-be"), json_error("\0")[0], 0),
    ("utf-32-le", "[1]".encode("utf-32-le"), json_error("[\0")[0], 1),
]


@pytest.mark.parametrize(
    "doc, msg, pos", [case[1:] for case in UTF16_32], ids=[case[0] for case in UTF16_32]
)
def test_utf16_and_utf32_are_refused_clearly(backend: str, doc: bytes, msg: str, pos: int) -> None:
    """json.loads detects UTF-16/32 from NULs and BOMs; the parser reads UTF-8 only (as
    documented): an invalid byte, or a NUL where a value should be."""
    assert json_answer(doc) == ("value", [1])
    assert parse(backend, doc, False) == ("error", msg, pos, 1, pos + 1)


ALL_DOCS = (
    [case[1] for case in INVALID_UTF8]
    + [case[1] for case in SAME_AS_JSON]
    + [case[1] for case in ENCODED_SURROGATES]
    + [case[1] for case in UTF16_32]
)


@pytest.mark.parametrize("doc", ALL_DOCS)
def test_loads_answers_exactly_as_json_loads(doc: bytes | str) -> None:
    """jsondrip.loads on every hostile document: json's value, or its exception and message."""
    for backend in installed_backends():
        try:
            expected: Any = ("value", json.loads(doc))
        except ValueError as e:
            expected = (type(e).__name__, str(e))
        try:
            got: Any = ("value", jsondrip.loads(doc, backend=backend))
        except jsondrip.IncompleteJSONError as e:  # json's error, said to be cut short
            got = ("JSONDecodeError", str(e))
        except ValueError as e:
            got = (type(e).__name__, str(e))
        assert got[0] == expected[0], (backend, got, expected)
        assert same(got[1], expected[1]) if got[0] == "value" else got == expected

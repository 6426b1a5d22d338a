"""Exact errors: message, position, line and column, as json.loads gives them, and the limits."""

from __future__ import annotations

import json
from typing import NamedTuple

import pytest
from _support import chars, error_tuple, json_error, outcome, same, single_bytes

import jsondrip


class Case(NamedTuple):
    text: str
    msg: str
    pos: int
    lineno: int
    colno: int
    raise_at: int | None  # index of the character whose feed raises; None: close() raises


CASES: list[Case] = [
    # a value was expected
    Case("", "Expecting value", 0, 1, 1, None),
    Case(" ", "Expecting value", 1, 1, 2, None),
    Case("\n\n", "Expecting value", 2, 3, 1, None),
    Case("[", "Expecting value", 1, 1, 2, None),
    Case("[1,", "Expecting value", 3, 1, 4, None),
    Case("[1,,2]", "Expecting value", 3, 1, 4, 3),
    Case("]", "Expecting value", 0, 1, 1, 0),
    Case("}", "Expecting value", 0, 1, 1, 0),
    Case("[}", "Expecting value", 1, 1, 2, 1),
    Case("\x00", "Expecting value", 0, 1, 1, 0),
    Case("[\x7f]", "Expecting value", 1, 1, 2, 1),
    Case(".5", "Expecting value", 0, 1, 1, 0),
    Case("+1", "Expecting value", 0, 1, 1, 0),
    Case("[\n1,\n  x]", "Expecting value", 7, 3, 3, 7),
    Case('{"a":\n\n  }', "Expecting value", 9, 3, 3, 9),
    Case("[\r\n1,\r\n x]", "Expecting value", 8, 3, 2, 8),
    Case('{"a":', "Expecting value", 5, 1, 6, None),
    Case("[NaN,", "Expecting value", 5, 1, 6, None),
    # literals that stop matching
    Case("tx", "Expecting value", 0, 1, 1, 1),
    Case("nul", "Expecting value", 0, 1, 1, None),
    Case("nulx", "Expecting value", 0, 1, 1, 3),
    Case("[nul]", "Expecting value", 1, 1, 2, 4),
    Case('{"a":tru}', "Expecting value", 5, 1, 6, 8),
    Case("Na", "Expecting value", 0, 1, 1, None),
    Case("Nb", "Expecting value", 0, 1, 1, 1),
    Case("nan", "Expecting value", 0, 1, 1, 1),
    Case("infinity", "Expecting value", 0, 1, 1, 0),
    Case("-Inf", "Expecting value", 0, 1, 1, None),
    Case("-inf", "Expecting value", 0, 1, 1, 1),
    Case("[-Infinityx]", "Expecting ',' delimiter", 10, 1, 11, 10),
    Case("truex", "Extra data", 4, 1, 5, 4),
    Case("[true x]", "Expecting ',' delimiter", 6, 1, 7, 6),
    # numbers that stop being one
    Case("-", "Expecting value", 0, 1, 1, None),
    Case("-x", "Expecting value", 0, 1, 1, 1),
    Case("[-]", "Expecting value", 1, 1, 2, 2),
    Case("[1.]", "Expecting ',' delimiter", 2, 1, 3, 3),
    Case("[1e]", "Expecting ',' delimiter", 2, 1, 3, 3),
    Case("[1.5e+]", "Expecting ',' delimiter", 4, 1, 5, 6),
    Case("[01]", "Expecting ',' delimiter", 2, 1, 3, 2),
    Case("01", "Extra data", 1, 1, 2, 1),
    Case("-01", "Extra data", 2, 1, 3, 2),
    Case("12x", "Extra data", 2, 1, 3, 2),
    Case("1.x", "Extra data", 1, 1, 2, 2),
    Case("1.", "Extra data", 1, 1, 2, None),
    Case("-0.", "Extra data", 2, 1, 3, None),
    Case("1e", "Extra data", 1, 1, 2, None),
    Case("1e+", "Extra data", 1, 1, 2, None),
    Case("1.5e", "Extra data", 3, 1, 4, None),
    Case("1.5E-", "Extra data", 3, 1, 4, None),
    Case("0x1", "Extra data", 1, 1, 2, 1),
    Case("1_000", "Extra data", 1, 1, 2, 1),
    # delimiters
    Case("[1", "Expecting ',' delimiter", 2, 1, 3, None),
    Case("[1 2]", "Expecting ',' delimiter", 3, 1, 4, 3),
    Case("{", "Expecting property name enclosed in double quotes", 1, 1, 2, None),
    Case('{"a":1,', "Expecting property name enclosed in double quotes", 7, 1, 8, None),
    Case("{1:2}", "Expecting property name enclosed in double quotes", 1, 1, 2, 1),
    Case("{'a':1}", "Expecting property name enclosed in double quotes", 1, 1, 2, 1),
    Case('{"a"', "Expecting ':' delimiter", 4, 1, 5, None),
    Case('{"a" 1}', "Expecting ':' delimiter", 5, 1, 6, 5),
    Case('{"a":1', "Expecting ',' delimiter", 6, 1, 7, None),
    Case('{"a":1 "b":2}', "Expecting ',' delimiter", 7, 1, 8, 7),
    Case('{"a":1]', "Expecting ',' delimiter", 6, 1, 7, 6),
    Case("[1}", "Expecting ',' delimiter", 2, 1, 3, 2),
    # after the document
    Case("[1] x", "Extra data", 4, 1, 5, 4),
    Case('"abc"x', "Extra data", 5, 1, 6, 5),
    Case("[]]", "Extra data", 2, 1, 3, 2),
    Case("{}}", "Extra data", 2, 1, 3, 2),
    Case("{} {}", "Extra data", 3, 1, 4, 3),
    Case("1 2", "Extra data", 2, 1, 3, 2),
    # strings
    Case('"abc', "Unterminated string starting at", 0, 1, 1, None),
    Case('["a", "b', "Unterminated string starting at", 6, 1, 7, None),
    Case('{"ab', "Unterminated string starting at", 1, 1, 2, None),
    Case('"\\', "Unterminated string starting at", 0, 1, 1, None),
    Case('"a\\', "Unterminated string starting at", 0, 1, 1, None),
    Case('"a\x01"', "Invalid control character at", 2, 1, 3, 2),
    Case('"\n"', "Invalid control character at", 1, 1, 2, 1),
    Case('"\x1f"', "Invalid control character at", 1, 1, 2, 1),
    Case('{"a\tb": 1}', "Invalid control character at", 3, 1, 4, 3),
    Case('"a\\x"', "Invalid \\escape", 2, 1, 3, 3),
    Case('"\\ud800\\x"', "Invalid \\escape", 7, 1, 8, 8),
    Case('"\\u12x4"', "Invalid \\uXXXX escape", 2, 1, 3, 5),
    Case('"\\uG000"', "Invalid \\uXXXX escape", 2, 1, 3, 3),
    Case('"\\u12', "Invalid \\uXXXX escape", 2, 1, 3, None),
    Case('"\\u0041', "Invalid \\uXXXX escape", 2, 1, 3, None),
    Case('"\\ud800', "Invalid \\uXXXX escape", 2, 1, 3, None),
    Case('"\\ud800\\u"', "Invalid \\uXXXX escape", 8, 1, 9, 9),
    Case('"\\ud800\\u12"', "Invalid \\uXXXX escape", 8, 1, 9, 11),
    Case('"\\ud800\\uzzzz"', "Invalid \\uXXXX escape", 8, 1, 9, 9),
    Case('"\\ud800\\u12', "Invalid \\uXXXX escape", 8, 1, 9, None),
    Case('"\\ud800\\udc00', "Invalid \\uXXXX escape", 8, 1, 9, None),
    # BOM in a str
    Case("\ufeff[1]", "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0, 1, 1, 0),
    Case(" \ufeff[1]", "Expecting value", 1, 1, 2, 1),
    # positions count characters, not bytes
    Case('["é", x]', "Expecting value", 6, 1, 7, 6),
    Case('{"日本": "😀😀" x}', "Expecting ',' delimiter", 12, 1, 13, 12),
    Case('["😀\n"]', "Invalid control character at", 3, 1, 4, 3),
]


def case_id(case: Case) -> str:
    return repr(case.text)


def expected(case: Case) -> tuple[str, int, int, int]:
    return (case.msg, case.pos, case.lineno, case.colno)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_table_is_what_json_loads_raises(case: Case) -> None:
    """The table is the standard library's own behaviour on the complete text."""
    assert json_error(case.text) == expected(case)


@pytest.mark.parametrize("mode", ["stable", "jiter"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_error_fed_whole(backend: str, mode: str, case: Case) -> None:
    parser = jsondrip.Parser(backend=backend, mode=mode)
    if case.raise_at is not None:
        with pytest.raises(jsondrip.JSONDecodeError) as info:
            parser.feed(case.text)
    else:
        parser.feed(case.text)
        with pytest.raises(jsondrip.JSONDecodeError) as info:
            parser.close()
    assert error_tuple(info.value) == expected(case)


@pytest.mark.parametrize("mode", ["stable", "jiter"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_error_fed_char_by_char(backend: str, mode: str, case: Case) -> None:
    """The error comes as soon as the text cannot be the start of a valid document."""
    parser = jsondrip.Parser(backend=backend, mode=mode)
    failed_at: int | None = None
    error: json.JSONDecodeError | None = None
    for index, char in enumerate(chars(case.text)):
        try:
            parser.feed(char)
        except jsondrip.JSONDecodeError as e:
            failed_at, error = index, e
            break
    if error is None:
        with pytest.raises(jsondrip.JSONDecodeError) as info:
            parser.close()
        error = info.value
    assert failed_at == case.raise_at
    assert error_tuple(error) == expected(case)


@pytest.mark.parametrize("case", [c for c in CASES if not c.text.startswith("\ufeff")], ids=case_id)
def test_error_fed_as_bytes(backend: str, case: Case) -> None:
    data = case.text.encode("utf-8")
    assert outcome([data], backend=backend) == ("error", *expected(case))
    assert outcome(single_bytes(data), backend=backend) == ("error", *expected(case))
    assert json_error(data) == expected(case)


@pytest.mark.parametrize(
    "text",
    ["[1,]", '{"a":1,}', "[1,\n]", '{"a": [1, 2,], "b": 1}'],
)
def test_trailing_comma_matches_json(backend: str, text: str) -> None:
    """Python 3.13 changed this message: whatever json.loads says on this Python."""
    want = json_error(text)
    assert want is not None
    assert outcome([text], backend=backend) == ("error", *want)
    assert outcome(chars(text), backend=backend) == ("error", *want)


@pytest.mark.parametrize("control", ["\x00", "\x1f", "\n"])
def test_control_character_ending_a_whole_fragment(backend: str, control: str) -> None:
    """A fragment of plain string text but its last character (the twin's shortcut declines)."""
    want = ("error", "Invalid control character at", 11, 1, 12)
    assert outcome(['{"a": "', "xy\u00a0", "z" + control, '"}'], backend=backend) == want


# --- near misses: valid documents with one character deleted, inserted or replaced ---------

SEEDS = [
    '{"a": [1, -2.5e+3, true, null], "b": {"c": "x\\u00e9\\n"}}',
    '[0, -0.0, 1E2, "\\ud83d\\ude00", false, {}, []]',
    '{"k": "v", "n": [NaN, -Infinity, 12]}',
    ' "s\\"\\\\t" ',
    "  123  ",
]
MUTATION_CHARS = ' ,:[]{}"\\0-1.eEtnuxN\x01'


def mutations(seed: str) -> list[str]:
    """Every one-character deletion, insertion and replacement (from MUTATION_CHARS)."""
    out = {seed[:i] + seed[i + 1 :] for i in range(len(seed))}
    for i in range(len(seed) + 1):
        for c in MUTATION_CHARS:
            out.add(seed[:i] + c + seed[i:])
            if i < len(seed):
                out.add(seed[:i] + c + seed[i + 1 :])
    return sorted(out)


@pytest.mark.parametrize("seed", SEEDS)
def test_near_misses_match_json(backend: str, seed: str) -> None:
    failures = []
    for text in mutations(seed):
        try:
            want = ("ok", json.loads(text))
        except json.JSONDecodeError as e:
            want = ("error", e.msg, e.pos, e.lineno, e.colno)
        for chunks in ([text], chars(text)):
            got = outcome(chunks, backend=backend)
            good = got[0] == "ok" and same(got[1], want[1]) if want[0] == "ok" else got == want
            if not good:
                failures.append((text, len(chunks), want, got))
    assert failures == []


# --- invalid UTF-8 -----------------------------------------------------------------------

UTF8_CASES: list[tuple[bytes, str, int]] = [
    (b'["\xff"]', "Invalid UTF-8 byte 0xff", 2),
    (b"[\xff]", "Invalid UTF-8 byte 0xff", 1),
    (b'["\x81"]', "Invalid UTF-8 byte 0x81", 2),
    (b'["\xc0\xaf"]', "Invalid UTF-8 byte 0xc0", 2),
    (b'["\xe9"]', "Invalid UTF-8 byte 0xe9", 2),
    (b'["\xed\xa0"]', "Invalid UTF-8 byte 0xed", 2),  # an encoded surrogate cut short
    (b'["\xf4\xbf\xbf\xbf"]', "Invalid UTF-8 byte 0xf4", 2),
    (b'["\xe0\xff"]', "Invalid UTF-8 byte 0xe0", 2),
    (b'["\xe6\x97\xa5\xd1\x88\xfa"]', "Invalid UTF-8 byte 0xfa", 4),
    (b'{"\xc3\xa9\xc3\xa9": "\xe2\x82"}', "Invalid UTF-8 byte 0xe2", 8),
    (b"\xe5", "Invalid UTF-8 byte 0xe5", 0),
    (b'"\xc3"', "Invalid UTF-8 byte 0xc3", 1),
    (b'"a\xe2\x82', "Invalid UTF-8 byte 0xe2", 2),  # cut short at close()
]


@pytest.mark.parametrize(("data", "msg", "pos"), UTF8_CASES, ids=lambda v: repr(v)[:40])
def test_invalid_utf8(backend: str, data: bytes, msg: str, pos: int) -> None:
    for chunks in ([data], single_bytes(data)):
        got = outcome(chunks, backend=backend)
        assert got == ("error", msg, pos, 1, pos + 1), chunks


def test_invalid_utf8_error_comes_at_the_bad_byte(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    assert parser.feed(b'["ab') == ["ab"]
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed(b"\xff")
    assert error_tuple(info.value) == ("Invalid UTF-8 byte 0xff", 4, 1, 5)


def test_json_error_before_bad_byte_wins(backend: str) -> None:
    assert outcome([b"[a\xe5]"], backend=backend) == ("error", "Expecting value", 1, 1, 2)


def test_held_back_bytes_then_str_is_invalid(backend: str) -> None:
    """A str after an incomplete code point: the held-back bytes can never be completed."""
    parser = jsondrip.Parser(backend=backend)
    parser.feed(b'"\xc3')
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed('"')
    assert error_tuple(info.value) == ("Invalid UTF-8 byte 0xc3", 1, 1, 2)


# --- limits --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "max_depth", "pos"),
    [
        ("[[[", 2, 2),
        ('{"a": [{"b": 1}]}', 2, 7),
        ('[{"a": [', 2, 7),
        ("[" * 1025, 1024, 1024),
        ("[{}]", 1, 1),
    ],
)
def test_max_depth(backend: str, text: str, max_depth: int, pos: int) -> None:
    want = ("error", f"Maximum nesting depth of {max_depth} exceeded", pos, 1, pos + 1)
    assert outcome([text], backend=backend, max_depth=max_depth) == want
    if max_depth < 10:
        assert outcome(chars(text), backend=backend, max_depth=max_depth) == want
        parser = jsondrip.Parser(backend=backend, max_depth=max_depth)
        with pytest.raises(jsondrip.JSONDecodeError) as info:
            parser.feed(text)
        assert error_tuple(info.value) == want[1:]


@pytest.mark.parametrize(("text", "max_depth"), [("[[]]", 2), ('{"a": [{}]}', 3), ("[1]", 1)])
def test_max_depth_allows_exactly_n(backend: str, text: str, max_depth: int) -> None:
    parser = jsondrip.Parser(backend=backend, max_depth=max_depth)
    parser.feed(text)
    assert parser.close() == json.loads(text)


def test_max_depth_default_allows_1024(backend: str) -> None:
    text = "[" * 1024 + "]" * 1024
    value = jsondrip.Parser(backend=backend).feed(text)
    depth = 0
    while value:
        assert type(value) is list and len(value) == 1
        value = value[0]
        depth += 1
    assert value == [] and depth == 1023


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deep_nesting_raises_cleanly(backend: str, opener: str) -> None:
    text = opener * 100000
    pos = len(opener) * 1024
    for chunks in ([text], [text[i : i + 4096] for i in range(0, len(text), 4096)]):
        got = outcome(chunks, backend=backend)
        assert got == ("error", "Maximum nesting depth of 1024 exceeded", pos, 1, pos + 1)


def test_deep_nesting_within_a_large_max_depth(backend: str) -> None:
    """No call-stack recursion: 100000 levels parse and close without RecursionError."""
    n = 100000
    parser = jsondrip.Parser(backend=backend, max_depth=n)
    parser.feed("[" * n)
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.close()
    assert error_tuple(info.value) == ("Expecting value", n, 1, n + 1)
    parser = jsondrip.Parser(backend=backend, max_depth=n)
    value = parser.feed("[" * n + "]" * n)
    assert parser.done is True
    for _ in range(n - 1):
        assert type(value) is list and len(value) == 1
        value = value[0]
    assert value == []


@pytest.mark.parametrize(
    ("chunks", "max_size"),
    [
        (["[1, 2]"], 5),
        (["[1, ", "2]"], 5),
        (list("[1, 2]"), 5),
        (['"ééé"'], 3),
        ([b'"\xc3\xa9\xc3\xa9\xc3\xa9"'], 3),
        (["   "], 0),
        (["[1]  \n"], 4),
    ],
)
def test_max_size(backend: str, chunks: list[str | bytes], max_size: int) -> None:
    parser = jsondrip.Parser(backend=backend, max_size=max_size)
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        for chunk in chunks:
            parser.feed(chunk)
    msg = f"Document exceeds max_size of {max_size} characters"
    assert (info.value.msg, info.value.pos) == (msg, max_size)
    with pytest.raises(jsondrip.JSONDecodeError) as again:
        parser.close()
    assert (again.value.msg, again.value.pos) == (msg, max_size)


@pytest.mark.parametrize(("data", "max_size"), [("[1, 2]", 6), (b'"\xc3\xa9"', 3), ("", 0)])
def test_max_size_allows_exactly_n(backend: str, data: str | bytes, max_size: int) -> None:
    parser = jsondrip.Parser(backend=backend, max_size=max_size)
    parser.feed(data)
    if data:
        assert parser.close() == json.loads(data)
    else:
        assert parser.value is jsondrip.MISSING


def test_error_is_the_same_on_every_later_call(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    with pytest.raises(jsondrip.JSONDecodeError) as first:
        parser.feed('{"a": 1 x')
    for call in (lambda: parser.feed("}"), lambda: parser.feed(b" "), parser.close):
        with pytest.raises(jsondrip.JSONDecodeError) as again:
            call()
        assert error_tuple(again.value) == error_tuple(first.value)
    assert error_tuple(first.value) == ("Expecting ',' delimiter", 8, 1, 9)


@pytest.mark.parametrize(
    "chunks",
    [[b"\xef\xbb\xbf\xef\xbb\xbf[1]"], [b"\xef\xbb\xbf", b"\xef\xbb\xbf[1]"]],
)
def test_second_bom_in_bytes_is_not_a_bom(backend: str, chunks: list[str | bytes]) -> None:
    """json.loads(bytes) drops one leading BOM and checks no more: a second is just a char."""
    assert json_error(b"\xef\xbb\xbf\xef\xbb\xbf[1]") == ("Expecting value", 0, 1, 1)
    assert outcome(chunks, backend=backend) == ("error", "Expecting value", 0, 1, 1)

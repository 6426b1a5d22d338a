"""Exact errors: message, position, line and column, as json.loads gives them, and the limits."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from _support import chars, error_tuple, json_error, outcome, same, single_bytes

import jsondrip
import jsondrip.twin
from jsondrip._dialect import DIALECT, PYPY_DECODER
from jsondrip.twin.errors import Dialect, ErrorKind

TABLE = Path(__file__).parent / "data" / "error_cases.json"


class Case(NamedTuple):
    """A row of the error table shared with rust/core/error_tests.rs."""

    text: str
    kind: str  # the ErrorKind in json of CPython 3.9 to 3.12
    pos: int
    raise_at: int | None  # index of the character whose feed raises; None: close() raises
    dialects: dict[str, dict[str, Any]]  # kind and pos where a json dialect differs

    def for_dialect(self, dialect: tuple[bool, bool]) -> tuple[str, int]:
        """(kind, pos) in a dialect (trailing_comma, escape_at_end_unterminated)."""
        want = (self.kind, self.pos)
        for name, on in zip(Dialect._fields, dialect):
            if on and name in self.dialects:
                want = (self.dialects[name]["kind"], self.dialects[name]["pos"])
        return want


def load_cases() -> list[Case]:
    rows = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
    return [
        Case(
            row["text"],
            row["kind"],
            row["pos"],
            row["raise_at"],
            {name: row[name] for name in Dialect._fields if name in row},
        )
        for row in rows
    ]


CASES = load_cases()


def case_id(case: Case) -> str:
    return repr(case.text)


def expected(case: Case) -> tuple[str, int, int, int]:
    """What the running interpreter's json.loads raises for the text (never a fixed string)."""
    want = json_error(case.text)
    assert want is not None, case
    return want


@pytest.mark.skipif(
    PYPY_DECODER,
    reason="the table holds CPython's json kinds; PyPy's decoder has its own, which the other "
    "tests here compare with the live json",
)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_table_is_what_json_loads_raises(case: Case) -> None:
    """The table's kind and position, in the running interpreter's dialect, are json's."""
    kind, pos = case.for_dialect(DIALECT)
    assert (ErrorKind[kind].message(), pos) == expected(case)[:2]


def check_cut_short(error: json.JSONDecodeError, case: Case) -> None:
    """IncompleteJSONError exactly when close() raised; doc holds the error's position."""
    assert isinstance(error, jsondrip.IncompleteJSONError) is (case.raise_at is None)
    assert isinstance(error, jsondrip.JSONDecodeError)
    doc_start = error.doc_start  # type: ignore[attr-defined]
    assert error.doc or not case.text  # empty only when nothing was read
    assert error.doc == case.text[doc_start : doc_start + len(error.doc)]
    read = len(case.text) if case.raise_at is None else case.raise_at + 1
    if error.pos < doc_start:  # a token that began before the text kept: the end of it
        assert doc_start + len(error.doc) == read
    elif not PYPY_DECODER:  # PyPy counts bytes, and points past a bad \uXXXX escape's end
        assert error.pos <= doc_start + len(error.doc)


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
    check_cut_short(info.value, case)
    assert info.value.doc == case.text  # short texts: the parser still has all of it


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
    check_cut_short(error, case)


@pytest.mark.parametrize("case", [c for c in CASES if not c.text.startswith("\ufeff")], ids=case_id)
def test_error_fed_as_bytes(backend: str, case: Case) -> None:
    data = case.text.encode("utf-8")
    assert outcome([data], backend=backend) == ("error", *expected(case))
    assert outcome(single_bytes(data), backend=backend) == ("error", *expected(case))
    assert json_error(data) == expected(case)


DIALECTS = [Dialect(False, False), Dialect(True, False), Dialect(True, True)]


def engine(backend: str, dialect: tuple[bool, bool]) -> Any:
    """An engine speaking the given json dialect, whatever the running interpreter's."""
    # (trailing_comma, escape_at_end_unterminated): CPython's dialects, which both engines speak
    options = jsondrip._engine.EngineOptions(dialect=dialect[:2])
    return jsondrip._engine.make_engine(backend, options)


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: f"trailing={d[0]},escape={d[1]}")
def test_every_dialect_gives_the_tables_kind_and_position(
    backend: str, dialect: tuple[bool, bool]
) -> None:
    """Each json dialect on every interpreter (the running one checks itself against json)."""
    wrong = []
    for case in CASES:
        for chunks in ([case.text], chars(case.text)):
            parser = engine(backend, dialect)
            try:
                for chunk in chunks:
                    parser.feed(chunk)
                parser.close()
            except jsondrip.JSONDecodeError as e:
                kind, pos = case.for_dialect(dialect)
                line = case.text.count("\n", 0, pos) + 1
                column = pos - case.text.rfind("\n", 0, pos)
                want = (ErrorKind[kind].message(), pos, line, column)
                if error_tuple(e) != want:
                    wrong.append((case.text, len(chunks), error_tuple(e), want))
            else:
                wrong.append((case.text, "no error"))
    assert wrong == []


def test_the_running_interpreters_dialect() -> None:
    """json added the trailing-comma message in 3.13; the dialect is read from json itself
    (PyPy's json.loads is its own decoder, _pypyjson, with its own words)."""
    assert DIALECT[0] is (sys.version_info >= (3, 13) and not PYPY_DECODER)
    assert PYPY_DECODER is (sys.implementation.name == "pypy")


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


@pytest.mark.parametrize("cut", [None, 1, 8, 10, 12, 14])
@pytest.mark.parametrize("text", ['["\u00e9", {\n"a":1', '{"\u00e9\u00e9":[1,\n\n2 x'])
def test_error_after_non_ascii_and_a_newline_matches_json(
    backend: str, text: str, cut: int | None
) -> None:
    """PyPy's json counts positions in UTF-8 bytes and lines up to that position, past the
    character at fault: the newlines there count, even when read in an earlier fragment
    (found by the hypothesis test on PyPy). CPython: the usual comparison."""
    want = json_error(text)
    assert want is not None
    chunks = [text] if cut is None else [text[:cut], text[cut:]]
    assert outcome(chunks, backend=backend) == ("error", *want)
    assert outcome(chars(text), backend=backend) == ("error", *want)


@pytest.mark.parametrize("control", ["\x00", "\x1f", "\n"])
def test_control_character_ending_a_whole_fragment(backend: str, control: str) -> None:
    """A fragment of plain string text but its last character (the twin's shortcut declines)."""
    chunks = ['{"a": "', "xy\u00a0", "z" + control, '"}']
    want = json_error("".join(chunks))
    assert want is not None
    assert outcome(chunks, backend=backend) == ("error", *want)


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
            want = ("error", *error_tuple(e))
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
    assert outcome([b"[a\xe5]"], backend=backend) == ("error", *json_error("[a]"))  # type: ignore[misc]


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
    message = json_error("[")[0]  # type: ignore[index]  # (json itself recurses too deep)
    assert error_tuple(info.value) == (message, n, 1, n + 1)
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
    assert error_tuple(first.value) == json_error('{"a": 1 x')


@pytest.mark.parametrize(
    "chunks",
    [[b"\xef\xbb\xbf\xef\xbb\xbf[1]"], [b"\xef\xbb\xbf", b"\xef\xbb\xbf[1]"]],
)
def test_second_bom_in_bytes_is_not_a_bom(backend: str, chunks: list[str | bytes]) -> None:
    """json.loads(bytes) drops one leading BOM and checks no more: a second is just a char."""
    want = json_error(b"\xef\xbb\xbf\xef\xbb\xbf[1]")
    assert want is not None and want[1:] == (0, 1, 1)
    assert outcome(chunks, backend=backend) == ("error", *want)

"""Exact values after each feed, in stable and jiter mode, and the helpers built on Parser."""

from __future__ import annotations

import asyncio
import copy
import json
import math
import pickle
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _support import Chunk, error_tuple, feed_all, json_error, same, snapshot
from conftest import need_module

import jsondrip
from jsondrip import MISSING
from jsondrip.bench.workloads import KB, records_text

NAN = float("nan")
INF = float("inf")
BIG = 123456789012345678901234567890

# (chunks, value after each feed). Chunks may be str or bytes.
STABLE: list[tuple[list[Chunk], list[Any]]] = [
    (["[1, 2"], [[1]]),
    (["[1, 2,"], [[1, 2]]),
    (["[", "1", ",", " 2", "]"], [[], [], [1], [1], [1, 2]]),
    (["[1, 2 "], [[1, 2]]),
    (['{"a": "x'], [{"a": "x"}]),
    (
        ['{"a', '"', ":", " ", '"', "x", 'y"', "}"],
        [{}, {}, {}, {}, {"a": ""}, {"a": "x"}, {"a": "xy"}, {"a": "xy"}],
    ),
    (['{"a": 1', "}"], [{}, {"a": 1}]),
    (
        ['{"a": 1,', ' "b": [', "tr", "ue"],
        [{"a": 1}, {"a": 1, "b": []}, {"a": 1, "b": []}, {"a": 1, "b": [True]}],
    ),
    (['{"a": {"b": nul', "l}"], [{"a": {}}, {"a": {"b": None}}]),
    (['"ab\\u00', '41"'], ["ab", "abA"]),
    (['"ab\\', "n", '"'], ["ab", "ab\n", "ab\n"]),
    (['"\\ud83d', "\\ude00", '"'], ["", "😀", "😀"]),
    (['"\\ud83d', "\\", "u", "de", "00"], ["", "", "", "", "😀"]),
    (['"\\ud800"'], ["\ud800"]),
    (['"\\ud800', '"'], ["", "\ud800"]),
    (['"\\ud800', "x"], ["", "\ud800x"]),
    (['"\\ud800\\u0041"'], ["\ud800A"]),
    (['"\\ud800\\n"'], ["\ud800\n"]),
    (['"\\ude00x"'], ["\ude00x"]),
    (['"\\ud83d\\ud83d\\ude00"'], ["\ud83d😀"]),
    (["tr"], [MISSING]),
    (["tr", "ue"], [MISSING, True]),
    (["[tr"], [[]]),
    (["[true"], [[True]]),
    (["[f", "alse", "]"], [[], [False], [False]]),
    (["nul", "l"], [MISSING, None]),
    (["12"], [MISSING]),
    (["12", " "], [MISSING, 12]),
    (["-"], [MISSING]),
    (["", " ", "\n\t\r "], [MISSING, MISSING, MISSING]),
    (['"'], [""]),
    (["NaN"], [NAN]),
    (["Na", "N"], [MISSING, NAN]),
    (["[NaN, Infinity, -Infinity]"], [[NAN, INF, -INF]]),
    (["[-Inf", "inity"], [[], [-INF]]),
    (["-Infinity"], [-INF]),
    ([f"[{BIG}, -{BIG}]"], [[BIG, -BIG]]),
    (["[1e400, -1e400, 1e-400]"], [[INF, -INF, 0.0]]),
    (["[-0, -0.0, 0.0, 0, 1.0, 1E2, 2e-3, 1.5e+1]"], [[0, -0.0, 0.0, 0, 1.0, 100.0, 0.002, 15.0]]),
    (['{"a": 1, "b": 2, "a": 3}'], [{"a": 3, "b": 2}]),
    (['{"a": 1, "a": 2'], [{"a": 1}]),
    (["[[], {}, [[]], [{}]"], [[[], {}, [[]], [{}]]]),
    (['["\\"\\\\\\/\\b\\f\\n\\r\\t"]'], [['"\\/\b\f\n\r\t']]),
    # UTF-8 bytes: a code point cut between feeds is held back until whole
    ([b'"\xc3', b'\xa9"'], ["", "é"]),
    ([b'["\xf0\x9f', b"\x98", b"\x80", b'"]'], [[""], [""], ["😀"], ["😀"]]),
    ([b'{"\xe6\x97', b'\xa5": "\xe6', b'\x97\xa5"}'], [{}, {"日": ""}, {"日": "日"}]),
    ([b'"a\xe2\x82', b"\xac", b'"'], ["a", "a€", "a€"]),
    # a BOM at the start of a bytes stream is skipped, even when cut
    ([b'\xef\xbb\xbf["x"]'], [["x"]]),
    ([b"\xef", b"\xbb", b"\xbf", b"{}"], [MISSING, MISSING, MISSING, {}]),
    ([bytearray(b"[1, "), memoryview(b"2]")], [[1], [1, 2]]),
]

JITER: list[tuple[list[Chunk], list[Any]]] = [
    (["[1, 2"], [[1, 2]]),
    (["[1, 2."], [[1]]),
    (["[1", ".", "5", "e", "3", "]"], [[1], [], [1.5], [], [1500.0], [1500.0]]),
    (["12"], [12]),
    (["1", "2", "."], [1, 12, MISSING]),
    (["-"], [MISSING]),
    (["[-"], [[]]),
    (["1e"], [MISSING]),
    (["tr"], [MISSING]),
    (["[tr"], [[]]),
    (['[1, {"a": [tr'], [[1, {"a": []}]]),
    (['{"a'], [{}]),
    (['{"a":'], [{}]),
    (['{"a": 1, "a": 2'], [{"a": 2}]),
    (['{"a": 1, "a": 2', "."], [{"a": 2}, {"a": 1}]),
    (['{"a": "x'], [{"a": "x"}]),
    (['"ab\\u00'], ["ab"]),
    (['"\\ud83d', "\\ude00"], ["", "😀"]),
    (["[-0", ".0]"], [[0], [-0.0]]),
    ([f"{BIG}"], [BIG]),
    (["1e400"], [INF]),
    (["[NaN"], [[NAN]]),
    (["[Na"], [[]]),
    ([b'["\xe2\x82'], [[""]]),
]

CLOSE: list[tuple[str, Any]] = [
    ("12", 12),
    ("-0", 0),
    ("-0.0", -0.0),
    ("1.5", 1.5),
    ("1E400", INF),
    (" [1, 2]\n ", [1, 2]),
    ('"x"', "x"),
    ("NaN", NAN),
    (str(BIG), BIG),
    ('{"a": 1, "b": 2, "a": 3}', {"a": 3, "b": 2}),
    ('"\\ud800"', "\ud800"),
    ('["\\udd1e\\ud834"]', ["\udd1e\ud834"]),
]


# Whole fragments inside a string value: printable text (the twin's shortcut) and text that is
# legal in a JSON string but not printable (the twin's loop).
STABLE += [
    (
        ['{"a": "', "xy", piece, "z" + piece, '"}'],
        [{"a": ""}, {"a": "xy"}, {"a": "xy" + piece}] + [{"a": f"xy{piece}z{piece}"}] * 2,
    )
    for piece in ["\u00a0", "\u2028", "\x7f", "\ud800", "\u200b", "\ue000"]
]


def ids(case: tuple[list[Chunk], Any]) -> str:
    # a memoryview's repr holds its address: the same id in every process (pytest-xdist)
    chunks = [bytes(c) if isinstance(c, memoryview) else c for c in case[0]]
    return repr(chunks)[:60]


@pytest.mark.parametrize("case", STABLE, ids=ids)
def test_stable_values(backend: str, case: tuple[list[Chunk], list[Any]]) -> None:
    chunks, expected = case
    parser = jsondrip.Parser(backend=backend)
    got = [snapshot(parser.feed(chunk)) for chunk in chunks]
    assert all(same(g, e) for g, e in zip(got, expected)), (got, expected)
    assert len(got) == len(expected)


@pytest.mark.parametrize("case", JITER, ids=ids)
def test_jiter_values(backend: str, case: tuple[list[Chunk], list[Any]]) -> None:
    chunks, expected = case
    parser = jsondrip.Parser(mode="jiter", backend=backend)
    got = [snapshot(parser.feed(chunk)) for chunk in chunks]
    assert all(same(g, e) for g, e in zip(got, expected)), (got, expected)


@pytest.mark.parametrize("case", JITER, ids=ids)
def test_jiter_table_is_what_jiter_gives(case: tuple[list[Chunk], list[Any]]) -> None:
    """The jiter-mode table above is checked against jiter itself, prefix by prefix."""
    jiter = need_module("jiter")
    chunks, expected = case
    prefix = b""
    for chunk, want in zip(chunks, expected):
        prefix += chunk.encode() if isinstance(chunk, str) else bytes(chunk)
        try:
            got = jiter.from_json(prefix, partial_mode="trailing-strings")
        except ValueError:
            got = MISSING
        assert same(got, want), (prefix, got, want)


LONG_FLOATS = [
    "[0." + "1" * 1200 + "]",
    "[1e" + "0" * 300 + "1]",
    "[-" + "7" * 900 + ".25e-5]",
    "[9007199254740993" + "0" * 900 + "1]",  # halfway between two doubles, then a 1
    '{"a": -0.' + "0" * 100 + "123e" + "9" * 40 + "}",
    "[12" + "3" * 50 + "e+" + "1" * 5 + ", 0.0e-" + "9" * 40 + "]",
]


@pytest.mark.parametrize("doc", LONG_FLOATS, ids=range(len(LONG_FLOATS)))
def test_jiter_mode_long_floats_are_jiters_at_every_byte(backend: str, doc: str) -> None:
    """A long float shown while it arrives is read through a digest of its digits, not
    converted whole at every feed (docs/hostile.md): the value must still be jiter's."""
    jiter = need_module("jiter")
    data = doc.encode()
    parser = jsondrip.Parser(mode="jiter", backend=backend)
    for end in range(1, len(data) + 1):
        got = snapshot(parser.feed(data[end - 1 : end]))
        try:
            want = jiter.from_json(data[:end], partial_mode="trailing-strings")
        except ValueError:
            want = MISSING
        assert same(got, want), (end, got, want)
    assert same(parser.close(), json.loads(doc))


@pytest.mark.parametrize("mode", ["stable", "jiter"])
@pytest.mark.parametrize("case", CLOSE, ids=lambda c: repr(c[0]))
def test_close_gives_json_value(backend: str, mode: str, case: tuple[str, Any]) -> None:
    text, expected = case
    assert same(json.loads(text), expected)
    _snaps, final, error = feed_all([text], backend=backend, mode=mode)
    assert error is None
    assert same(final, expected), final
    _snaps, final, error = feed_all(list(text), backend=backend, mode=mode)
    assert error is None
    assert same(final, expected), final


def test_duplicate_keys_keep_first_position(backend: str) -> None:
    value = jsondrip.Parser(backend=backend).feed('{"a": 1, "b": 2, "a": [3]}')
    assert list(value.items()) == [("a", [3]), ("b", 2)]


def test_top_level_number_needs_whitespace_or_close(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    assert parser.feed("12") is MISSING
    assert parser.done is False
    assert parser.value is MISSING
    result = parser.close()
    assert type(result) is int and result == 12
    assert parser.done is True


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("", False),
        ("  ", False),
        ("[1", False),
        ("[1]", True),
        ("[1] \n", True),
        ("12", False),
        ("12 ", True),
        ("12\n", True),
        ('"a', False),
        ('"a"', True),
        ("tru", False),
        ("true", True),
        ("NaN", True),
        ("-Infinity", True),
        ('{"a": {}', False),
        ('{"a": {}}', True),
    ],
)
def test_done(backend: str, text: str, done: bool) -> None:
    parser = jsondrip.Parser(backend=backend)
    parser.feed(text)
    assert parser.done is done
    char_parser = jsondrip.Parser(backend=backend)
    for char in text:
        char_parser.feed(char)
    assert char_parser.done is done


def test_whitespace_after_document_is_fine(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    assert parser.feed("[1]") == [1]
    assert parser.feed(" \n\t\r ") == [1]
    assert parser.done is True
    assert parser.close() == [1]


def test_text_after_document_is_extra_data(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    parser.feed("[1] ")
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed("x")
    assert error_tuple(info.value) == ("Extra data", 4, 1, 5)


def test_value_is_live(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    value = parser.feed('{"a": [1, ')
    assert value == {"a": [1]}
    inner = value["a"]
    assert parser.feed('2], "b": {') is value
    assert value == {"a": [1, 2], "b": {}}
    assert value["a"] is inner
    assert parser.value is value
    assert parser.feed("}}") is value
    assert parser.close() is value
    assert value == {"a": [1, 2], "b": {}}


def test_close_of_incomplete_raises(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    assert parser.feed('{"a": [1, "x') == {"a": [1, "x"]}
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.close()
    assert error_tuple(info.value) == ("Unterminated string starting at", 10, 1, 11)


def test_error_stays(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    before = snapshot(parser.feed("[1, "))
    with pytest.raises(jsondrip.JSONDecodeError) as first:
        parser.feed("x]")
    expected = json_error("[1, x]")
    assert error_tuple(first.value) == expected
    assert same(parser.value, before)
    with pytest.raises(jsondrip.JSONDecodeError) as again:
        parser.feed("2]")
    assert error_tuple(again.value) == expected
    with pytest.raises(jsondrip.JSONDecodeError) as at_close:
        parser.close()
    assert error_tuple(at_close.value) == expected
    assert parser.done is False
    # Each raise is a new exception: one object raised again would grow its traceback.
    assert len({id(first.value), id(again.value), id(at_close.value)}) == 3


@pytest.mark.parametrize(
    "doc",
    [
        '[{"a_key": 1, "b_\xe9": 2}, {"a_key": 3, "b_\xe9": 4}]',  # CPython's test_keys_reuse
        '[{"\u65e5\u672c": 1, "\u2603": 2}, {"\u65e5\u672c": 3, "\u2603": 4}]',
        '{"a": [{"k\\u00e9": 1}], "b": [{"k\u00e9": 2}]}',  # the same key, one escaped
    ],
)
def test_equal_keys_are_one_object(backend: str, doc: str) -> None:
    """#30 item 17: a streamed document shares equal keys between its objects, as
    `json.loads` does (CPython's test_keys_reuse), on both backends, whatever the cuts."""
    for chunks in ([doc], list(doc), [doc.encode()]):
        parser = jsondrip.Parser(backend=backend)
        for chunk in chunks:
            parser.feed(chunk)
        value = parser.close()
        assert value == json.loads(doc)
        objects = value if type(value) is list else [value["a"][0], value["b"][0]]
        keys = [sorted(o) for o in objects]
        for a, b in zip(*keys):
            assert a is b, (a, b)


def test_error_is_json_decode_error(backend: str) -> None:
    with pytest.raises(json.JSONDecodeError) as info:
        jsondrip.Parser(backend=backend).feed("[}")
    assert isinstance(info.value, jsondrip.JSONDecodeError)
    assert isinstance(info.value, ValueError)
    expected = json_error("[}")
    assert expected is not None and error_tuple(info.value) == expected
    assert str(info.value) == f"{expected[0]}: line 1 column 2 (char 1)"


def test_str_bom_raises(backend: str) -> None:
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        jsondrip.Parser(backend=backend).feed("\ufeff[1]")
    assert error_tuple(info.value) == ("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0, 1, 1)


def test_bytes_bom_positions_do_not_count_it(backend: str) -> None:
    data = b"\xef\xbb\xbf[1, x]"
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        jsondrip.Parser(backend=backend).feed(data)
    expected = error_tuple(_json_error(data))
    assert expected[1:] == (4, 1, 5)
    assert error_tuple(info.value) == expected


def _json_error(data: bytes) -> json.JSONDecodeError:
    try:
        json.loads(data)
    except json.JSONDecodeError as e:
        return e
    raise AssertionError("json.loads accepted the text")


def test_feed_rejects_other_types(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    with pytest.raises(TypeError):
        parser.feed(123)  # type: ignore[arg-type]


# --- MISSING -------------------------------------------------------------------------------


def test_missing_is_a_readable_sentinel() -> None:
    assert MISSING is not None
    assert "MISSING" in repr(MISSING)
    assert copy.deepcopy(MISSING) is MISSING
    assert copy.copy(MISSING) is MISSING
    assert pickle.loads(pickle.dumps(MISSING)) is MISSING
    assert jsondrip.MISSING is MISSING


# --- parse_partial -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "mode", "expected"),
    [
        ("[1, 2", "stable", [1]),
        ("[1, 2", "jiter", [1, 2]),
        ('{"a": "x', "stable", {"a": "x"}),
        (b'{"a": "\xc3\xa9', "stable", {"a": "é"}),
        (b'{"a": "\xc3', "stable", {"a": ""}),
        ("", "stable", MISSING),
        ("   ", "jiter", MISSING),
        ("12", "stable", MISSING),
        ("12", "jiter", 12),
        ("12 ", "stable", 12),
        ("[1]", "stable", [1]),
        ('"\\ud83d', "stable", ""),
        ("tr", "jiter", MISSING),
    ],
)
def test_parse_partial(backend: str, data: Chunk, mode: str, expected: Any) -> None:
    got = jsondrip.parse_partial(data, mode=mode, backend=backend)
    assert same(got, expected), got


def test_parse_partial_raises_on_invalid(backend: str) -> None:
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        jsondrip.parse_partial('{"a" 1', backend=backend)
    assert error_tuple(info.value) == json_error('{"a" 1')


# --- the two exceptions docs/semantics.md states ---------------------------------------------


@pytest.mark.parametrize("mode", ["stable", "jiter"])
def test_a_repeated_key_may_change_the_type_shown(backend: str, mode: str) -> None:
    """jsonriver's invariant 7 (the later value wins) over "no value changes type"."""
    parser = jsondrip.Parser(backend=backend, mode=mode)
    assert snapshot(parser.feed('{"a": "x", ')) == {"a": "x"}
    assert snapshot(parser.feed('"a": [1')) == ({"a": []} if mode == "stable" else {"a": [1]})
    assert snapshot(parser.feed("]}")) == {"a": [1]} == json.loads('{"a": "x", "a": [1]}')


@pytest.mark.parametrize("mode", ["stable", "jiter"])
def test_a_lone_surrogate_escape_gives_the_character_as_json_loads(backend: str, mode: str) -> None:
    """In jiter mode too, where jiter itself raises."""
    text = '["\\ud800", "\\udc00x"]'
    assert same(jsondrip.parse_partial(text, mode=mode, backend=backend), json.loads(text))
    assert same(jsondrip.parse_partial(text, mode=mode, backend=backend), ["\ud800", "\udc00x"])


# --- iter_values / aiter_values ------------------------------------------------------------


def test_iter_values(backend: str) -> None:
    chunks = ['{"a": [1', ", 2", '], "b": "x', 'y"}']
    got = [snapshot(v) for v in jsondrip.iter_values(chunks, backend=backend)]
    assert got == [{"a": []}, {"a": [1]}, {"a": [1, 2], "b": "x"}, {"a": [1, 2], "b": "xy"}]


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        (["123"], 123),
        (["12", "3"], 123),
        (["-0.5"], -0.5),
        (["1e3", " "], 1000.0),
        (["0"], 0),
        (["tr", "ue"], True),
        (['"a', 'b"'], "ab"),
        (["[1", "]"], [1]),
    ],
)
def test_iter_values_last_yield_is_the_whole_document(
    backend: str, chunks: list[str], expected: Any
) -> None:
    """jsonriver's rule: the last value yielded is the document, a top-level number too."""
    got = [snapshot(v) for v in jsondrip.iter_values(chunks, backend=backend)]
    assert same(got[-1], expected)
    assert len(got) <= len(chunks) + 1

    async def run() -> list[Any]:
        return [snapshot(v) async for v in jsondrip.aiter_values(_agen(chunks), backend=backend)]

    assert [repr(v) for v in asyncio.run(run())] == [repr(v) for v in got]


def test_item14_iter_values_copy_yields_snapshots_to_collect(backend: str) -> None:
    """#30 item 14: `list(iter_values(chunks))` is N references to the final value (the
    documented live-value trade); `copy=True` gives each value as it was, sync and async."""
    chunks = ['{"a": [1', ", 2", '], "b": {"c": "x', 'y"}}']
    expected = [
        {"a": []},
        {"a": [1]},
        {"a": [1, 2], "b": {"c": "x"}},
        {"a": [1, 2], "b": {"c": "xy"}},
    ]
    live = list(jsondrip.iter_values(chunks, backend=backend))
    assert all(value is live[-1] for value in live) and live[0] == expected[-1]
    collected = list(jsondrip.iter_values(chunks, copy=True, backend=backend))
    assert collected == expected
    assert len({id(v) for v in collected}) == len(collected)
    assert collected[2]["b"] is not collected[3]["b"]

    async def run() -> list[Any]:
        return [v async for v in jsondrip.aiter_values(_agen(chunks), copy=True, backend=backend)]

    assert asyncio.run(run()) == expected
    numbers = jsondrip.iter_values(["12", "3"], copy=True, backend=backend)
    assert list(numbers) == [MISSING, MISSING, 123]


def test_iter_values_yields_a_top_level_number_once_closed(backend: str) -> None:
    assert list(jsondrip.iter_values(["12", "3"], backend=backend)) == [MISSING, MISSING, 123]
    assert list(jsondrip.iter_values(["[1]"], backend=backend)) == [[1]]  # not twice


def test_iter_values_jiter_mode(backend: str) -> None:
    chunks = ["[1", ", 2", ".", "5]"]
    got = [snapshot(v) for v in jsondrip.iter_values(chunks, mode="jiter", backend=backend)]
    assert got == [[1], [1, 2], [1], [1, 2.5]]


def test_iter_values_raises_on_invalid_chunk(backend: str) -> None:
    seen: list[Any] = []
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        for value in jsondrip.iter_values(["[1, ", "2 3]"], backend=backend):
            seen.append(snapshot(value))
    assert seen == [[1]]
    assert error_tuple(info.value) == json_error("[1, 2 3]")


def test_iter_values_truncated_stream_raises(backend: str) -> None:
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        list(jsondrip.iter_values(["[1, ", "2"], backend=backend))
    assert error_tuple(info.value) == json_error("[1, 2")


async def _agen(chunks: list[Chunk]) -> AsyncIterator[Chunk]:
    for chunk in chunks:
        await asyncio.sleep(0)
        yield chunk


def test_aiter_values(backend: str) -> None:
    async def run() -> list[Any]:
        chunks: list[Chunk] = [b'["\xe6', b'\x97\xa5", tr', b"ue, 3", b"]"]
        return [snapshot(v) async for v in jsondrip.aiter_values(_agen(chunks), backend=backend)]

    assert asyncio.run(run()) == [[""], ["日"], ["日", True], ["日", True, 3]]


def test_aiter_values_jiter_mode_and_error(backend: str) -> None:
    async def run() -> list[Any]:
        seen: list[Any] = []
        values = jsondrip.aiter_values(_agen(["[1", "0", "x"]), mode="jiter", backend=backend)
        async for v in values:
            seen.append(snapshot(v))
        return seen

    with pytest.raises(jsondrip.JSONDecodeError) as info:
        asyncio.run(run())
    assert error_tuple(info.value) == json_error("[10x")


def test_nan_snapshots_compare_with_same() -> None:
    """Guard for the helper itself: `same` must tell these apart."""
    assert same([NAN], [NAN])
    assert not same(0.0, -0.0)
    assert not same(1, 1.0)
    assert not same(True, 1)
    assert not same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not same(MISSING, None)
    assert math.isinf(INF)


# The whole state between fragments: the fields of every step, then what each step changes.
STATE_START = {
    "state": "VALUE",
    "number": None,
    "depth": 0,
    "stack": "",
    "in_key": False,
    "key": None,
    "token_start": None,
    "literal": None,
    "hex": None,
    "hex_value": None,
    "high": 0,
    "escape_end": None,
    "number_len": None,
    "number_valid": None,
    "line": 1,
    "line_start": 0,
    "comma": 0,
    "bom_skipped": False,
    "offset": 0,
}
IN_NUMBER = {"state": "NUMBER", "number": "INT", "depth": 2, "stack": "{[", "token_start": 7}
IN_STRING = {"depth": 2, "stack": "{[", "token_start": 14}
AFTER_ESCAPE = {"depth": 1, "stack": "{", "escape_end": 22}
# Where json names a trailing comma (3.13+), both engines keep the last comma's position.
TRACKS_COMMA = (json_error("[1,]") or ("",))[0].startswith("Illegal trailing comma")
FIRST_COMMA = {"comma": 12} if TRACKS_COMMA else {}
SECOND_COMMA = {"comma": 24} if TRACKS_COMMA else {}
STATE_STEPS: list[tuple[str, dict[str, Any]]] = [
    ("", {}),
    ('{"a": [1', {**IN_NUMBER, "number_len": 1, "number_valid": 1}),
    (".5e", {**IN_NUMBER, "number": "EXP", "number_len": 4, "number_valid": 3}),
    ('3, "x\\', {**IN_STRING, **FIRST_COMMA, "state": "ESCAPE"}),
    ("u12", {**IN_STRING, **FIRST_COMMA, "state": "UNICODE", "hex": 2, "hex_value": 0x12}),
    (
        '34"], "k',
        {
            **AFTER_ESCAPE,
            **SECOND_COMMA,
            "state": "STRING",
            "in_key": True,
            "key": 1,
            "token_start": 26,
        },
    ),
    (
        '": tr',
        {**AFTER_ESCAPE, **SECOND_COMMA, "state": "LITERAL", "token_start": 31, "literal": "tr"},
    ),
    ("ue}", {**SECOND_COMMA, "state": "DONE", "escape_end": 22}),
]


def test_debug_state_after_each_fragment(backend: str) -> None:
    """Both engines give their whole state the same way (rust/core/tests.rs has the same
    table); the fields a step does not name keep their value at the start."""
    parser = jsondrip.Parser(backend=backend)
    offset = 0
    for fragment, fields in STATE_STEPS:
        parser.feed(fragment)
        offset += len(fragment)
        expected = {**STATE_START, **fields, "offset": offset}
        assert parser._engine.debug_state() == expected, fragment


def test_debug_state_lines_and_surrogates(backend: str) -> None:
    """The line, its start, a high surrogate held for its low half, a key read so far."""
    parser = jsondrip.Parser(backend=backend)
    parser.feed('[\n {"k\\u00e9y')
    want = {"state": "STRING", "depth": 2, "stack": "[{", "in_key": True, "key": 3}
    want.update(token_start=4, escape_end=12, line=2, line_start=2, offset=13)
    assert parser._engine.debug_state() == {**STATE_START, **want}
    parser.feed('": "\\ud83d')
    want = {"state": "SURROGATE_BACKSLASH", "depth": 2, "stack": "[{", "token_start": 16}
    want.update(high=0xD83D, escape_end=23, line=2, line_start=2, offset=23)
    assert parser._engine.debug_state() == {**STATE_START, **want}


def test_a_stream_of_records_shares_each_key(backend: str) -> None:
    """A stream's repeated keys stay one object each once its key cache has grown to them
    (memory per open stream: a record's keys are not new strs). Two keys whose hashes share
    their top bits once evicted each other at every record (`parent` and `tags` of the
    records benchmark), at every size of the native cache."""
    text = records_text(200 * KB)
    for size in (4, 1000):
        parser = jsondrip.Parser(backend=backend)
        for at in range(0, len(text), size):
            parser.feed(text[at : at + size])
        records = parser.feed("")["records"]
        assert len(records) > 300
        for key in records[100]:
            assert len({id(k) for r in records[100:] for k in r if k == key}) == 1, key

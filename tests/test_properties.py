"""Property tests (hypothesis) on random documents cut into random chunks.

(a) the native and python backends agree after every feed, errors included;
(b) stable mode never retracts what it showed;
(c) the value after close() is json.loads's, type for type;
(d) jiter mode is jiter.from_json(prefix, partial_mode="trailing-strings") on every prefix.
"""

from __future__ import annotations

import codecs
import json
from typing import Any, Callable, Union

import pytest
from _support import Chunk, error_tuple, same, snapshot
from conftest import examples, need_module, skip_unless_native
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import jsondrip
from jsondrip import MISSING
from jsondrip._dialect import PYPY_DECODER

SETTINGS = settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # `backend` is a plain name, never mutated
    ],
)

Draw = Callable[[st.SearchStrategy[Any]], Any]
Json = Union[None, bool, int, float, str, list[Any], dict[str, Any]]

# --- strategies ------------------------------------------------------------------------------

NASTY = [
    '"', "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "\x80", "\u2028",
    "é", "日", "本", "😀", "\U0010ffff", " ", "a", "u", "0", "\ufeff",
]  # fmt: skip
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00"]
WHITESPACE = st.text(alphabet=" \t\n\r", max_size=2)


def strings(surrogates: bool) -> st.SearchStrategy[str]:
    pieces = [st.sampled_from(NASTY), st.characters(codec="utf-8")]
    if surrogates:
        pieces.append(st.sampled_from(SURROGATES))
        pieces.append(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
    return st.lists(st.one_of(*pieces), max_size=8).map("".join)


NUMBERS = st.one_of(
    st.integers(-1000, 1000),
    st.integers(-(10**30), 10**30),
    st.sampled_from([0, -1, 2**63, -(2**63) - 1, 2**64, 10**40]),
    st.floats(),
    st.sampled_from([-0.0, 0.0, 5e-324, 1e-320, 1.7976931348623157e308, 1e22, 0.1, 1.5]),
)


def values(surrogates: bool) -> st.SearchStrategy[Json]:
    text = strings(surrogates)
    leaves = st.one_of(st.none(), st.booleans(), NUMBERS, text)
    return st.recursive(
        leaves,
        lambda kids: st.one_of(st.lists(kids, max_size=5), st.dictionaries(text, kids, max_size=5)),
        max_leaves=20,
    )


def render_char(draw: Draw, c: str) -> str:
    """One character of a string literal, raw or escaped in one of the ways JSON allows."""
    code = ord(c)
    hex4 = draw(st.sampled_from(["\\u{:04x}", "\\u{:04X}"]))
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r"}
    short.update({"\t": "\\t", "/": "\\/"})
    if c in short:
        options = [short[c], hex4.format(code)] + (["/"] if c == "/" else [])
        return draw(st.sampled_from(options))
    if code < 0x20:
        return hex4.format(code)
    if code > 0xFFFF:
        high = 0xD800 + ((code - 0x10000) >> 10)
        low = 0xDC00 + ((code - 0x10000) & 0x3FF)
        return draw(st.sampled_from([c, hex4.format(high) + hex4.format(low)]))
    return draw(st.sampled_from([c, hex4.format(code)]))


def render_number(draw: Draw, n: int | float) -> str:
    if isinstance(n, int):
        return str(n)
    if n != n:
        return "NaN"
    if n in (float("inf"), float("-inf")):
        sign = "-" if n < 0 else ""
        return sign + draw(st.sampled_from(["Infinity", "1e400", "1E+999", "12.5e0400"]))
    forms = [repr(n), f"{n:.17e}", f"{n:.17E}", repr(n).replace("e", "E")]
    if n == 0:
        forms += ["-0.0" if str(n).startswith("-") else "0e0", "0.000E-5"]
    return draw(st.sampled_from(forms))


def render(draw: Draw, value: Json) -> str:
    """Serialize with random escapes, number spellings and whitespace between tokens."""

    def ws() -> str:
        return draw(WHITESPACE)

    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return render_number(draw, value)
    if isinstance(value, str):
        return '"' + "".join(render_char(draw, c) for c in value) + '"'
    if isinstance(value, list):
        if not value:
            return "[" + ws() + "]"
        return "[" + ",".join(ws() + render(draw, v) + ws() for v in value) + "]"
    if not value:
        return "{" + ws() + "}"
    items = (
        ws() + render(draw, k) + ws() + ":" + ws() + render(draw, v) + ws()
        for k, v in value.items()
    )
    return "{" + ",".join(items) + "}"


@st.composite
def documents(draw: Draw, surrogates: bool = True) -> str:
    """A valid JSON text: json.dumps with random options, or the random renderer above."""
    value = draw(values(surrogates))
    if draw(st.booleans()):
        body = json.dumps(
            value,
            ensure_ascii=draw(st.booleans()),
            indent=draw(st.sampled_from([None, 0, 2, "\t"])),
            separators=draw(st.sampled_from([None, (",", ":"), (", ", ": "), (" , ", " :  ")])),
        )
    else:
        body = render(draw, value)
    return draw(WHITESPACE) + body + draw(st.sampled_from(["", " ", "\n", " \r\n\t"]))


GARBAGE = ' \t\n,:[]{}"\\/0123456789.eE+-truefalsnNIiyu\x01é😀'


@st.composite
def maybe_broken(draw: Draw) -> str:
    """A document, or one with a character deleted, inserted or replaced (maybe invalid)."""
    text = draw(documents())
    kind = draw(st.sampled_from(["keep", "delete", "insert", "replace", "truncate", "garbage"]))
    if kind == "garbage":
        return draw(st.text(alphabet=GARBAGE, max_size=30))
    if kind == "keep" or not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    c = draw(st.one_of(st.sampled_from(list(' ,:[]{}"\\0-1.eEtnu\x01') + NASTY), st.characters()))
    if kind == "delete":
        return text[:i] + text[i + 1 :]
    if kind == "insert":
        return text[:i] + c + text[i:]
    if kind == "replace":
        return text[:i] + c + text[i + 1 :]
    return text[:i]


def cut(draw: Draw, data: Any) -> list[Any]:
    """The str or bytes cut at random positions (bytes: inside code points too)."""
    n = len(data)
    if n == 0:
        return [data]
    how = draw(st.sampled_from(["random", "random", "each", "whole"]))
    if how == "whole":
        return [data]
    if how == "each":
        return [data[i : i + 1] for i in range(n)]
    cuts = sorted(set(draw(st.lists(st.integers(1, n - 1), max_size=12)))) if n > 1 else []
    bounds = [0, *cuts, n]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


def mixed(draw: Draw, text: str) -> list[Chunk]:
    """The str cut at random character positions, each piece sent as str or as UTF-8 bytes."""
    pieces = cut(draw, text)
    out: list[Chunk] = []
    for i, piece in enumerate(pieces):
        bom = i == 0 and piece.startswith("\ufeff")  # as bytes it would be skipped, not an error
        as_bytes = utf8(piece) is not None and not bom and draw(st.booleans())
        out.append(piece.encode("utf-8") if as_bytes else piece)
    return out


def utf8(text: str) -> bytes | None:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # raw lone surrogates: not representable in UTF-8
        return None


def trace(chunks: list[Chunk], backend: str, mode: str) -> list[Any]:
    """What a caller sees: a snapshot after each feed, then the close; stops at an error.

    After each feed, the machine's whole state too (`Engine.debug_state()`, STATE_FIELDS):
    the twin mirrors the core state for state, not only value for value.
    """
    parser = jsondrip.Parser(backend=backend, mode=mode)
    state = parser._engine.debug_state
    seen: list[Any] = []
    try:
        for chunk in chunks:
            seen.append(("feed", snapshot(parser.feed(chunk)), parser.done, state()))
        seen.append(("close", snapshot(parser.close())))
    except jsondrip.JSONDecodeError as e:
        # Everything the error says: type (cut short or invalid), str, doc window, expected.
        extra = (type(e).__name__, str(e), e.doc, e.doc_start, getattr(e, "expected", None))
        seen.append(("error", error_tuple(e), extra))
    return seen


def traces_equal(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(
        x[0] == y[0] and same(list(x[1:]), list(y[1:])) for x, y in zip(a, b)
    )


def extends(old: Any, new: Any) -> bool:
    """True when `new` only extends `old` (stable mode's promise)."""
    if old is MISSING:
        return True
    if type(old) is not type(new):
        return False
    if isinstance(old, str):
        return new.startswith(old)
    if isinstance(old, list):
        if len(new) < len(old) or not all(same(o, n) for o, n in zip(old[:-1], new)):
            return False
        return not old or extends(old[-1], new[len(old) - 1])
    if isinstance(old, dict):
        keys = list(old)
        if list(new)[: len(keys)] != keys:
            return False
        if not all(same(old[k], new[k]) for k in keys[:-1]):
            return False
        return not keys or extends(old[keys[-1]], new[keys[-1]])
    return same(old, new)


def bytes_loads(text: str) -> Any:
    """json.loads(text.encode()) as it would be for UTF-8 input: one leading BOM dropped, and
    no BOM check after that. PyPy's json.loads reads the text with its own decoder, bytes too."""
    text = text[1:] if text.startswith("\ufeff") else text
    if PYPY_DECODER:
        import _pypyjson  # type: ignore[import-not-found]

        return _pypyjson.loads(text, json.JSONDecodeError)
    return json.JSONDecoder().decode(text)


def has_duplicate_keys(text: str) -> bool:
    found = False

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        found = found or len({k for k, _ in pairs}) != len(pairs)
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return found


# --- (a) the two backends agree ---------------------------------------------------------------


@pytest.fixture
def both_backends() -> None:
    """Comparing the backends needs both (this test takes no `backend`: it runs each)."""
    skip_unless_native()


STATE_FIELDS = {
    "state", "number", "depth", "stack", "in_key", "key", "token_start", "literal", "hex",
    "hex_value", "high", "escape_end", "number_len", "number_valid", "line", "line_start",
    "comma", "bom_skipped", "offset",
}  # fmt: skip
"""The fields of `debug_state()` (rust/core/machine.rs `DebugState`): the machine's whole
state between fragments (what the builder holds is compared as the value)."""


@SETTINGS
@given(text=maybe_broken(), mode=st.sampled_from(["stable", "jiter"]), data=st.data())
def test_backends_agree(both_backends: None, text: str, mode: str, data: st.DataObject) -> None:
    """Value, state (every field of STATE_FIELDS) and error after every feed, the same on
    both backends: the text cut at random, each piece as str or bytes, then its UTF-8 bytes
    cut at random and at every byte."""
    for chunks in (cut(data.draw, text), mixed(data.draw, text)):
        assert traces_equal(trace(chunks, "native", mode), trace(chunks, "python", mode)), chunks
    raw = utf8(text)
    if raw is not None:
        for byte_chunks in (cut(data.draw, raw), [raw[i : i + 1] for i in range(len(raw))]):
            native = trace(byte_chunks, "native", mode)
            assert traces_equal(native, trace(byte_chunks, "python", mode)), byte_chunks


def test_debug_state_has_every_field(backend: str) -> None:
    """Both engines give every field of the state, and only those."""
    assert set(jsondrip.Parser(backend=backend)._engine.debug_state()) == STATE_FIELDS


# Fragments after which every field of the state is live (not None) at least once.
EVERY_FIELD_LIVE = ['{"a": [1', ".5e", '3, "x\\', "u12", '34"], "k', '": tr', "ue}"]


def planted(field: str, value: Any) -> Any:
    """A value of `field` that differs from `value`, as a bug would make it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return value + "x"


@pytest.mark.parametrize("field", sorted(STATE_FIELDS))
def test_a_planted_difference_in_any_field_fails(
    both_backends: None, field: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison of test_backends_agree catches a difference in each field of the state
    alone: the python engine's `debug_state` made wrong in that field, after one feed where
    the field is live, and the two traces no longer agree (and agree without it)."""
    chunks: list[Chunk] = list(EVERY_FIELD_LIVE)
    assert traces_equal(trace(chunks, "native", "stable"), trace(chunks, "python", "stable"))
    engine_class = type(jsondrip.Parser(backend="python")._engine)
    honest = engine_class.debug_state
    live = [i for i, (_, state) in enumerate(states_of(chunks)) if state[field] is not None]
    assert live, f"no feed leaves {field} live"
    calls = {"n": 0}

    def wrong_once(engine: Any) -> dict[str, Any]:
        state = honest(engine)
        if calls["n"] == live[-1]:
            state[field] = planted(field, state[field])
        calls["n"] += 1
        return state

    monkeypatch.setattr(engine_class, "debug_state", wrong_once)
    assert not traces_equal(trace(chunks, "native", "stable"), trace(chunks, "python", "stable"))


def states_of(chunks: list[Chunk]) -> list[tuple[Chunk, dict[str, Any]]]:
    parser = jsondrip.Parser(backend="python")
    return [(chunk, (parser.feed(chunk), parser._engine.debug_state())[1]) for chunk in chunks]


# --- (b) stable mode never retracts, (c) the final value is json.loads's ---------------------


@SETTINGS
@given(text=documents(), data=st.data())
def test_stable_never_retracts(backend: str, text: str, data: st.DataObject) -> None:
    assume(not has_duplicate_keys(text))
    raw = utf8(text)
    for chunks in [cut(data.draw, text)] + ([cut(data.draw, raw)] if raw is not None else []):
        parser = jsondrip.Parser(backend=backend)
        previous: Any = MISSING
        for chunk in chunks:
            current = snapshot(parser.feed(chunk))
            assert extends(previous, current), (chunk, previous, current)
            previous = current
        assert extends(previous, parser.close())


def test_extends_checker() -> None:
    """The checker itself: these must be told apart."""
    assert extends(MISSING, [1])
    assert extends({"a": "x"}, {"a": "xy", "b": 1})
    assert extends([1, [2]], [1, [2, 3], 4])
    assert not extends([1, 2], [1])
    assert not extends({"a": 1, "b": "x"}, {"b": "x", "a": 1})
    assert not extends({"a": "x", "b": 1}, {"a": "xy", "b": 1})
    assert not extends("ab", "b")
    assert not extends(1, 1.0)
    assert not extends([1, 2], [1, 3])


@SETTINGS
@given(text=documents(), mode=st.sampled_from(["stable", "jiter"]), data=st.data())
def test_final_value_is_json_loads(backend: str, text: str, mode: str, data: st.DataObject) -> None:
    want = json.loads(text)
    parser = jsondrip.Parser(backend=backend, mode=mode)
    for chunk in cut(data.draw, text):
        parser.feed(chunk)
    assert same(parser.close(), want)
    raw = utf8(text)
    if raw is not None:
        parser = jsondrip.Parser(backend=backend, mode=mode)
        for chunk in cut(data.draw, raw):
            parser.feed(chunk)
        assert same(parser.close(), want)


@SETTINGS
@given(text=maybe_broken(), mode=st.sampled_from(["stable", "jiter"]), data=st.data())
def test_outcome_is_json_loads(backend: str, text: str, mode: str, data: st.DataObject) -> None:
    """Valid or not, complete text gives json.loads's value or its exact error."""
    raw = utf8(text)
    # json.loads(bytes) is JSONDecoder().decode of the text decoded (a leading BOM dropped, no
    # BOM check after that); it would guess UTF-16 from a NUL byte, the Parser reads UTF-8 only
    by_str = [(json.loads, cut(data.draw, text)), (json.loads, mixed(data.draw, text))]
    by_bytes = [] if raw is None else [(bytes_loads, cut(data.draw, raw))]
    for decode, chunks in by_str + by_bytes:
        try:
            want: Any = ("ok", decode(text))
        except json.JSONDecodeError as e:
            want = ("error", error_tuple(e))
        parser = jsondrip.Parser(backend=backend, mode=mode)
        fed: list[Chunk] = []
        try:
            for chunk in chunks:
                fed.append(chunk)
                parser.feed(chunk)
            got: Any = ("ok", parser.close())
        except jsondrip.JSONDecodeError as e:
            got = ("error", error_tuple(e))
            if PYPY_DECODER and len(fed) < len(chunks) and got[1][:2] == want[1][:2]:
                want = ("error", pypy_streamed(want[1], fed))
            if PYPY_DECODER and {got[1][0], want[1][0]} == PYPY_KEY_NOT_STRING:
                # PyPy's own json spells this one error either way, as its process-wide
                # cache of key maps decides (twin/pypy.py): the same call can differ from one
                # run to the next. The position must still be json's.
                want = ("error", (got[1][0], *want[1][1:]))
        assert got[0] == want[0] and same(got[1], want[1]), (chunks, got, want)


PYPY_KEY_NOT_STRING = {"Key name must be string at char", "Key name must be string at char %d"}


def pypy_streamed(error: tuple[str, int, int, int], fed: list[Chunk]) -> tuple[str, int, int, int]:
    """PyPy's json error, as a parser that raised it before the end of the text can give it.

    PyPy's position (in UTF-8 bytes, or past a bad \\uXXXX escape) can lie past the character
    at fault, and json counts the newlines before the position for the line and column: those
    not read yet when the parser raised cannot count (docs/packaging.md)."""
    data = b"".join(c.encode("utf-8", "surrogatepass") if isinstance(c, str) else c for c in fed)
    if isinstance(fed[0], bytes) and data.startswith(codecs.BOM_UTF8):
        data = data[3:]  # skipped by the parser, dropped by json.loads(bytes)
    read = codecs.utf_8_decode(data, "surrogatepass", False)[0]
    located = json.JSONDecodeError(error[0], read, error[1])
    return (error[0], error[1], located.lineno, located.colno)


# --- (d) jiter mode is jiter -------------------------------------------------------------------


@SETTINGS
@given(text=documents(surrogates=False))
def test_jiter_mode_matches_jiter(backend: str, text: str) -> None:
    jiter = need_module("jiter")

    def from_jiter(prefix: bytes) -> Any:
        try:
            return jiter.from_json(prefix, partial_mode="trailing-strings")
        except ValueError:
            return MISSING

    raw = text.encode("utf-8")
    whole = from_jiter(raw)
    assume(whole is not MISSING and same(whole, json.loads(text)))
    by_bytes = jsondrip.Parser(backend=backend, mode="jiter")
    by_str = jsondrip.Parser(backend=backend, mode="jiter")
    prefix = b""
    for c in text:
        encoded = c.encode("utf-8")
        prefix += encoded
        want = from_jiter(prefix)
        got_bytes = snapshot(by_bytes.feed(encoded))
        got_str = snapshot(by_str.feed(c))
        assert same(got_bytes, want), (prefix, got_bytes, want)
        assert same(got_str, want), (prefix, got_str, want)

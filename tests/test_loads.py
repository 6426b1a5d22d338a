"""`jsondrip.loads` / `jsondrip.load`: the standard library's results on every engine.

Every test runs on each engine by name ("native", "jiter", "python" = the standard library)
and on the default one (`backend=None`), and compares with `json.loads` on this Python: values
type for type, `JSONDecodeError`s on msg/pos/lineno/colno/doc, other errors on type and text.
The fast engines hand what they cannot take to the standard library; those fallbacks are
checked one by one, by spying on `json.loads` (the reference calls below use the original).

Known differences from json.loads are `xfail(strict=True)` with the reproducer in the reason:
when one is fixed the test passes, strict xfail turns that into a failure, and the mark goes.
"""

from __future__ import annotations

import collections
import decimal
import gc
import inspect
import io
import itertools
import json
import os
import random
import subprocess
import sys
import textwrap
from functools import cache
from json import loads as json_loads  # the reference, kept from any spy on json.loads
from pathlib import Path
from typing import Any, Callable

import pytest
from _support import error_tuple, json_error, same
from conftest import CORPUS, ONLY_PYTHON, corpus_dir, need_module, skip_unless_native

import jsondrip

ENGINES = ["default", "native", "jiter", "python"]
HOOK_NAMES = ("object_hook", "parse_float", "parse_int", "parse_constant", "object_pairs_hook")
HAS_DIGIT_LIMIT = hasattr(sys, "set_int_max_str_digits")


def engines(**xfails: str) -> list[Any]:
    """The engine names as parameters for the `engine` fixture; `xfails` marks known bugs."""
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=xfails[name]))
        if name in xfails
        else name
        for name in ENGINES
    ]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """An engine name; "native" must be built (unless JSONDRIP_BACKEND=python), "jiter"
    installed (else skipped)."""
    name = request.param
    if name == "native":
        skip_unless_native()
    elif name == "jiter":
        need_module("jiter")
    return name


def backend_of(engine: str) -> str | None:
    """The `backend=` argument for an engine name."""
    return None if engine == "default" else engine


def loads(engine: str) -> Callable[..., Any]:
    """`jsondrip.loads` on one engine."""

    def call(doc: Any, **options: Any) -> Any:
        return jsondrip.loads(doc, backend=backend_of(engine), **options)

    return call


def outcome(parse: Callable[..., Any], doc: Any, **options: Any) -> tuple[Any, ...]:
    """("ok", value), ("JSONDecodeError", msg, pos, lineno, colno, doc) or (type, text)."""
    try:
        return ("ok", parse(doc, **options))
    except json.JSONDecodeError as e:
        if parse is not json_loads:
            assert isinstance(e, jsondrip.JSONDecodeError), type(e)
        return ("JSONDecodeError", e.msg, e.pos, e.lineno, e.colno, e.doc)
    except RecursionError:
        return ("RecursionError",)
    except (ValueError, TypeError) as e:  # UnicodeDecodeError and the digit limit included
        return (type(e).__name__, str(e))


def same_outcome(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Outcomes equal, values compared exactly."""
    if a[0] == "ok" or b[0] == "ok":
        return a[0] == b[0] and same(a[1], b[1])
    return a == b


def check(engine: str, doc: Any, **options: Any) -> tuple[Any, ...]:
    """Asserts jsondrip gives json.loads's outcome on this engine; returns it."""
    want = outcome(json_loads, doc, **options)
    got = outcome(loads(engine), doc, **options)
    assert same_outcome(got, want), (doc[:200], show(got), show(want))
    return got


def show(value: Any) -> str:
    """repr for an assertion message, even of an int past the digit limit."""
    try:
        return repr(value)[:2000]
    except ValueError:
        return f"<{type(value).__name__} too long to print>"


# --- import jsondrip as json ------------------------------------------------------------------


def test_drop_in_names() -> None:
    """`import jsondrip as json` keeps dumps, dump, the encoder and decoder classes."""
    assert jsondrip.dumps is json.dumps
    assert jsondrip.dump is json.dump
    assert jsondrip.JSONEncoder is json.JSONEncoder
    assert issubclass(jsondrip.JSONDecoder, json.JSONDecoder)
    assert issubclass(jsondrip.JSONDecodeError, json.JSONDecodeError)
    assert jsondrip.loads(jsondrip.dumps({"a": [1, 2.5, None]})) == {"a": [1, 2.5, None]}
    out = io.StringIO()
    jsondrip.dump([1, "é"], out)
    assert out.getvalue() == '[1, "\\u00e9"]'


@pytest.mark.parametrize("engine", ["native", "python", "jiter"], indirect=True)
def test_import_jsondrip_as_json_idioms(engine: str) -> None:
    """What code written for the standard module reaches for, with `json` being jsondrip."""
    import jsondrip as json_

    for error_class in (json_.decoder.JSONDecodeError, json_.JSONDecodeError):
        with pytest.raises(error_class) as info:
            json_.loads('{"a": 1,}', backend=engine)
        assert error_tuple(info.value) == json_error('{"a": 1,}')
        with pytest.raises(error_class):
            json_.JSONDecoder().decode("[1")  # the decoder class raises jsondrip's error too
        with pytest.raises(error_class):
            json_.decoder.JSONDecoder().raw_decode("x")
    assert json_.decoder.JSONDecodeError is jsondrip.JSONDecodeError
    assert json_.JSONDecoder().raw_decode("[1] x") == ([1], 3)
    assert json_.JSONDecoder(object_pairs_hook=list).decode('{"a": 1}') == [("a", 1)]
    assert json.loads("[1]", cls=json_.JSONDecoder) == [1]


def test_stdlib_submodules_and_names() -> None:
    """`decoder`, `encoder` and `scanner` as attributes and importable submodules."""
    import jsondrip.decoder
    import jsondrip.encoder
    import jsondrip.scanner
    from jsondrip.encoder import encode_basestring_ascii

    assert encode_basestring_ascii("é") == '"\\u00e9"'
    assert jsondrip.encoder.JSONEncoder is json.JSONEncoder
    assert jsondrip.encoder.INFINITY is json.encoder.INFINITY
    assert jsondrip.scanner.make_scanner is json.scanner.make_scanner
    assert jsondrip.decoder.scanstring is json.decoder.scanstring
    assert jsondrip.decoder.JSONDecoder is jsondrip.JSONDecoder
    assert jsondrip.detect_encoding is json.detect_encoding
    assert "encode_basestring_ascii" in jsondrip.encoder.__all__
    assert "scanstring" in dir(jsondrip.decoder)
    assert set(json.__all__) <= set(jsondrip.__all__)
    with pytest.raises(AttributeError, match=r"'jsondrip\.encoder' has no attribute 'nope'"):
        jsondrip.encoder.nope  # noqa: B018


def test_loads_signature_is_json_plus_backend() -> None:
    """Same parameters, kinds and defaults as json.loads, with `backend` before `**kw`."""
    ours = list(inspect.signature(jsondrip.loads).parameters.values())
    theirs = list(inspect.signature(json.loads).parameters.values())
    describe = [(p.name, p.kind, p.default) for p in theirs]
    assert [(p.name, p.kind, p.default) for p in ours if p.name != "backend"] == describe
    assert [p.name for p in ours][-2:] == ["backend", "kw"]


def test_native_is_present() -> None:
    """The native core is built, unless the run says it tests the Python path only."""
    skip_unless_native()
    assert jsondrip.available_backends()[0] == "native"


def assert_json_type_error(engine: str, bad: Any) -> None:
    """loads(bad) raises json's TypeError, text included."""
    with pytest.raises(TypeError) as want:
        json_loads(bad)
    with pytest.raises(TypeError) as got:
        loads(engine)(bad)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("bad", [1, [], {}], ids=lambda bad: type(bad).__name__)
def test_non_text_input_raises_json_type_error(engine: str, bad: Any) -> None:
    """The TypeError's text for a non-str/bytes/bytearray input is json's."""
    assert_json_type_error(engine, bad)


@pytest.mark.parametrize(
    "bad",
    [1.5, None, memoryview(b"[]"), [91, 93], object()],
    ids=lambda bad: type(bad).__name__ + ("[91, 93]" if bad == [91, 93] else ""),
)
@pytest.mark.parametrize(
    "engine",
    engines(),
    indirect=True,
)
def test_non_text_input_raises_json_type_error_on_jiter(engine: str, bad: Any) -> None:
    """Inputs bytes() would take or fail on differently: json's TypeError too."""
    assert_json_type_error(engine, bad)


def test_unknown_keyword_raises_as_json(engine: str) -> None:
    """Keywords json.loads passes to JSONDecoder go there too (and fail the same way)."""
    with pytest.raises(TypeError) as want:
        json_loads("[]", encoding="utf-8")
    with pytest.raises(TypeError) as got:
        loads(engine)("[]", encoding="utf-8")
    assert str(got.value) == str(want.value)


# --- load(fp) ---------------------------------------------------------------------------------

DOC = '{"a": [1, -2.5e3, true, null, "x\\u00e9\\ud83d\\ude00"], "é": {"b": NaN}}'


def test_load_text_and_binary_files(engine: str, tmp_path: Path) -> None:
    """load reads text files, binary files (UTF-8 and UTF-16) and in-memory streams."""
    backend = backend_of(engine)
    utf8 = tmp_path / "doc.json"
    utf8.write_text(DOC, encoding="utf-8")
    utf16 = tmp_path / "doc16.json"
    utf16.write_bytes(DOC.encode("utf-16"))
    want = json_loads(DOC)
    with open(utf8, encoding="utf-8") as fp:
        assert same(jsondrip.load(fp, backend=backend), want)
    for path in (utf8, utf16):
        with open(path, "rb") as fp:
            assert same(jsondrip.load(fp, backend=backend), want)
    assert same(jsondrip.load(io.StringIO(DOC), backend=backend), want)
    assert same(jsondrip.load(io.BytesIO(DOC.encode()), backend=backend), want)


def test_load_passes_hooks_and_errors(engine: str) -> None:
    """load takes every loads option, and raises loads's errors."""
    backend = backend_of(engine)
    options = {"parse_float": decimal.Decimal, "object_pairs_hook": collections.OrderedDict}
    got = jsondrip.load(io.StringIO(DOC), backend=backend, **options)
    want = json.load(io.StringIO(DOC), **options)
    assert same(got, want)
    assert type(got) is collections.OrderedDict
    assert type(got["a"][1]) is decimal.Decimal
    with pytest.raises(jsondrip.JSONDecodeError) as error:
        jsondrip.load(io.BytesIO(b'{"a": [1,]}'), backend=backend)
    # Whatever this Python's json says (3.13 reports the trailing comma, at the comma).
    assert outcome(json_loads, b'{"a": [1,]}') == (
        "JSONDecodeError",
        error.value.msg,
        error.value.pos,
        error.value.lineno,
        error.value.colno,
        '{"a": [1,]}',
    )


def _float_digits() -> str:
    """Floats past the one-operation fast path: long mantissas, every exponent, halfway cases
    (a seeded random list, the same on every run)."""
    rng = random.Random(20240601)
    items = []
    for _ in range(3000):
        digits = rng.randint(15, 20)
        mantissa = str(rng.randrange(10 ** (digits - 1), 10**digits))
        point = rng.randint(1, digits)
        sign = rng.choice(["", "-"])
        items.append(f"{sign}{mantissa[:point]}.{mantissa[point:] or 0}e{rng.randint(-340, 300)}")
    items += ["9007199254740993", "9007199254740993.0", "9007199254740995e0", "2.5e-324"]
    items += ["2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623158e308"]
    items += ["-65.613616999999977", "43.420273000000009", "0.30000000000000004"]
    return "[" + ", ".join(items) + "]"


# --- values json gives in its own way ---------------------------------------------------------

VALUES = {
    "escaped lone surrogates": '["\\ud800", "\\udfff", "\\ud800\\ud800", "a\\udc00b"]',
    "escaped pair": '"\\ud83d\\ude00"',
    "raw lone surrogate in str": '["\ud800", "x\udfff"]',
    "lone surrogate key": '{"\\ud800": 1, "\udc00": 2}',
    "constants": '[NaN, Infinity, -Infinity, {"NaN": -Infinity}]',
    "huge exponents": "[1e400, -1e400, 1E+999, 1e-400, -1e-400, 0e99999]",
    "negative zero": "[-0, -0.0, 0.0, -0e0, 0E-0]",
    "int edges": "[9223372036854775807, -9223372036854775808, 9223372036854775808, "
    "-9223372036854775809, 18446744073709551616, 999999999999999999, 1000000000000000000]",
    "big ints": "[" + "1" * 4300 + ", -" + "9" * 500 + ", " + "12345678901234567890" * 10 + "]",
    "float edges": "[5e-324, 2.2250738585072011e-308, 1.7976931348623157e308, 0.1, 1e22, 1e23,"
    " 9007199254740993, 9007199254740993.0, 1.00000000000000011102230246251565404236316680908203125"
    ", 123456789012345678901234567890.5e-10, 0.000000000000000000000000000001]",
    "long mantissa": "0." + "3" * 800,
    "floats of 15 to 20 digits": _float_digits(),
    "duplicate keys": '{"a": 1, "b": 2, "a": 3, "c": {"x": 1, "x": [2]}}',
    "whitespace": ' \t\n\r[ \t\n\r1 \t\n\r, \t\n\r{ "a" \t\n\r: \r\n2 } ] \n\t ',
    "empty containers": '[[], {}, [[]], [{}], {"": []}, ""]',
    "escapes": '"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0000 \\u001f \\u007f \\u0080 \\uFFFF \\uFEFF"',
    "unicode": '{"日本": "😀 é \u2028 \x7f", "k\u0080": "\U0010ffff"}',
    "scalars": '[true, false, null, 0, -1, 1.5, ""]',
    "bare scalar": "  -12.5e-3  ",
    "repeated keys across objects": '[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]',
    "nesting 600": "[" * 600 + "]" * 600,
    "objects 600": '{"a":' * 600 + "1" + "}" * 600,
}


@pytest.mark.parametrize("name", list(VALUES))
def test_value_is_json_loads(engine: str, name: str) -> None:
    """str, and where it encodes, UTF-8 bytes and bytearray: json.loads's value exactly."""
    doc = VALUES[name]
    assert check(engine, doc)[0] == "ok"
    try:
        data = doc.encode("utf-8")
    except UnicodeEncodeError:  # raw lone surrogates: no UTF-8 form
        data = doc.encode("utf-8", "surrogatepass")  # json.loads decodes with surrogatepass
    check(engine, data)
    check(engine, bytearray(data))


ENCODED = {
    "utf-8 bom": b"\xef\xbb\xbf" + DOC.encode(),
    "utf-16": DOC.encode("utf-16"),
    "utf-16-le": DOC.encode("utf-16-le"),
    "utf-16-be": DOC.encode("utf-16-be"),
    "utf-32": DOC.encode("utf-32"),
    "utf-32-le": DOC.encode("utf-32-le"),
    "utf-32-be": DOC.encode("utf-32-be"),
    "utf-16 scalar": b"1\x00",
    "utf-16-be scalar": b"\x001",
    "utf-8 surrogate bytes": b'"\xed\xa0\x80"',
    "utf-8 then invalid": b'["ok", "\xff"]',
    "truncated utf-8": b'"\xc3"',
    "double bom": b"\xef\xbb\xbf\xef\xbb\xbf[]",
    "utf-16 bom only": b"\xff\xfe",
    "empty bytes": b"",
    "nul": b"\x00",
}


@pytest.mark.parametrize("name", list(ENCODED))
def test_encodings_are_detected_as_json_does(engine: str, name: str) -> None:
    """UTF-8/16/32 with and without BOM, bad UTF-8: json's value, or its exact error."""
    check(engine, ENCODED[name])
    check(engine, bytearray(ENCODED[name]))


def utf8_sequences() -> list[bytes]:
    """Every one- and two-byte sequence, and three- and four-byte ones over every lead byte
    and every second byte (the byte that decides overlong forms, surrogates and the end of
    Unicode), with continuation bytes and their neighbours after them: valid, overlong,
    surrogate, truncated and stray."""
    singles = [bytes([a]) for a in range(256)]
    pairs = [bytes([a, b]) for a in range(0xC0, 0x100) for b in range(256)]
    thirds = (0x7F, 0x80, 0xBF, 0xC0)
    triples = [bytes([a, b, c]) for a in range(0xE0, 0xF0) for b in range(256) for c in thirds]
    quads = [
        bytes([a, b, c, d])
        for a in range(0xF0, 0xF8)
        for b in range(256)
        for c in (0x80, 0xBF, 0x7F)
        for d in (0x80, 0xC0)
    ]
    return singles + pairs + triples + quads


# What sets the kind of the str (Latin-1, UCS-2, UCS-4), and an ASCII run longer than 16.
UTF8_CONTEXTS = [b"", "é".encode(), "日本".encode(), "😀".encode(), b"abcdefghijklmnopqrst"]


@pytest.mark.parametrize("context", UTF8_CONTEXTS, ids=repr)
def test_every_utf8_sequence_in_strings_is_read_as_json_does(context: bytes) -> None:
    """Each sequence inside a string value and a key, after and before text of each kind,
    as bytes: json.loads's value (surrogates encoded in UTF-8 read as `surrogatepass` reads
    them) or its error."""
    parse = loads("default")
    for sequence in utf8_sequences():
        for doc in (
            b'["' + context + sequence + b'"]',
            b'["' + sequence + context + b'x"]',
            b'{"' + sequence + context + b'": 0}',
        ):
            want = outcome(json_loads, doc)
            got = outcome(parse, doc)
            assert same_outcome(got, want), (doc, show(got), show(want))


ERRORS = [
    "", " ", "\n\n  ", "[1,]", "[1 2]", '{"a" 1}', '{"a":1,}', '{"a":1 "b":2}', "{1:2}", "{,}",
    "[,1]", "tru", "nul", "fals", "truex", '"abc', '"\\x"', '"\\u12"', '"\\u12G4"',
    '"\\ud800\\u12"', "01", "-", "1.", "1e", "1e+", "-01", ".5", "+1", "[", "{", '{"a":', '{"a"',
    '"\x00"', '"a\tb"', '"\n"', "\ufeff[1]", "1 2", "[1]x", '{"a":1}}', "NaNa", "nan",
    "-Infinityx", "[-NaN]", "Infinit", "-Infinit", "\n\n  [1,\n  2,,]", '[1,\n"a\nb"]',
    '{"a": [1, {"b": tru}]}', "[1e400x]", "\x00", "'a'", "[1,\r\n\r\n]", "1\n\n\n#", "[1,\x0b2]",
    "\x0c[]", "\u00a0[]", "[\u2028]",
]  # fmt: skip


@pytest.mark.parametrize("doc", ERRORS, ids=repr)
def test_error_is_json_loads(engine: str, doc: str) -> None:
    """msg, pos, lineno, colno and doc equal json's, for str, bytes and bytearray input."""
    assert check(engine, doc)[0] == "JSONDecodeError"
    check(engine, doc.encode("utf-8"))
    check(engine, bytearray(doc.encode("utf-8")))


def test_error_is_a_json_decode_error(engine: str) -> None:
    """Caught by `except json.JSONDecodeError` and `except ValueError`, printed as json's."""
    with pytest.raises(json.JSONDecodeError) as got:
        loads(engine)('{"a":\n [1,, 2]}')
    with pytest.raises(json.JSONDecodeError) as want:
        json_loads('{"a":\n [1,, 2]}')
    assert isinstance(got.value, jsondrip.JSONDecodeError)
    assert isinstance(got.value, ValueError)
    assert str(got.value) == str(want.value)
    assert str(got.value).endswith(": line 2 column 5 (char 10)")


def test_many_similar_keys(engine: str) -> None:
    """Keys that share length, head and tail (a key cache's collisions), long keys, non-ASCII
    keys, escaped keys: each one itself, as json reads it."""
    keys = [f"prefix__{i:06d}__suffix" for i in range(3000)]
    keys += ["k" * n for n in range(70)] + [f"é{i}" for i in range(50)] + ["\n", "\ud800"]
    # One byte changed anywhere in a short key (the cache matches those by length and words).
    keys += ["k" * i + "j" + "k" * (n - i - 1) for n in range(1, 20) for i in range(n)]
    doc = json.dumps([{k: i} for i, k in enumerate(keys)] + [dict.fromkeys(keys, 0)])
    check(engine, doc)
    check(engine, doc.encode())
    check(engine, doc.replace("prefix", "pr\\u0065fix"))


@pytest.mark.parametrize(
    "doc",
    [
        '[{"a_key": 1, "b_\xe9": 2}, {"a_key": 3, "b_\xe9": 4}]',  # CPython's test_keys_reuse
        '[{"\u65e5\u672c": 1, "\u2603": 2}, {"\u65e5\u672c": 3, "\u2603": 4}]',
        '[{"\\ud800x": 1, "\U0001f600": 2}, {"\\ud800x": 3, "\U0001f600": 4}]',
    ],
)
def test_keys_reuse(engine: str, doc: str) -> None:
    """A repeated key is one str object, ASCII or not, as json.loads gives (memory)."""
    for data in (doc, doc.encode("utf-8", "surrogatepass")):
        first, second = loads(engine)(data)
        assert json.loads(data) == [first, second]
        for a, b in zip(sorted(first), sorted(second)):
            assert a is b, (a, b)


def test_repeated_integers(engine: str) -> None:
    """Integers repeated in a document, near and far apart, sharing the low bits a table of
    them may index by, at the edges of the small ints and of 64 bits: each one its value."""
    ints = [i * 256 + j for i in range(-20, 20) for j in (0, 1, 255)] * 3
    ints += list(range(-300, 300)) * 2 + [2**63 - 1, -(2**63), 2**63, 10**18, -(10**18)] * 2
    ints += [4278190080] * 500 + [3600 - i % 37 for i in range(2000)]
    random.Random(28).shuffle(ints)
    doc = json.dumps([ints, {"a": ints[:100], "b": [[i, i] for i in ints[:50]]}])
    check(engine, doc)
    check(engine, doc.encode())


def float_texts(rng: random.Random) -> list[str]:
    """Float texts around every limit of the native reader's run of floats: signs, integer
    parts of one to eight digits (a lone 0 to 9 among them), fractions of one to seventeen
    digits, digits low and high, and beside them integers and exponents."""
    texts = ["0.0", "-0.0", "0.5", "9.5", "8.999999999999999", "0.000000000000001"]
    for int_len in range(1, 9):
        for fraction in range(1, 18):
            for _ in range(3):
                first = rng.choice("123456789") if int_len > 1 else rng.choice("0123456789")
                int_part = first + "".join(rng.choice("0123456789") for _ in range(int_len - 1))
                digits = "".join(rng.choice("09" if rng.random() < 0.3 else "0123456789")
                                 for _ in range(fraction))  # fmt: skip
                texts.append(rng.choice(["", "-"]) + int_part + "." + digits)
    texts += ["1e5", "1.5e-3", "2.5E+2", "7", "-12", "123456789012345678901", "1.5e400"]
    return texts


def test_arrays_of_floats(engine: str) -> None:
    """Arrays of floats as printers write them (`,` and `, `), and mixed with other
    separators, integers, exponents and other values, at every distance from the input's
    start and end: each float bit for bit json.loads's (repr tells -0.0 and every bit)."""
    rng = random.Random(2811)
    texts = float_texts(rng)
    for separator_choice in ([","], [", "], [",", ", ", " , ", ",\n", ",\t  "]):
        for start in range(0, 20, 3):
            values = texts[:]
            rng.shuffle(values)
            body = values[0] + "".join(rng.choice(separator_choice) + v for v in values[1:])
            for doc in (
                " " * start + "[" + body + "]",
                "[" + body + "]" + " " * start,
                json.dumps({"a": "x" * start})[:-1] + ', "b": [' + body + "]}",
            ):
                check(engine, doc)
                check(engine, doc.encode())
                assert repr(loads(engine)(doc)) == repr(json_loads(doc))
    # Each text last in the input, with what may follow it, and the input's end at every
    # distance from it.
    for text in texts:
        for tail in ("]", "]   ", ", 1]", ",\n1.5]", "] " + " " * 40, ",", ", ", "", ".5]", "e]"):
            doc = "[" + "0.25," * 9 + text + tail
            check(engine, doc)
    # Invalid numbers inside a run of floats: json's error, at json's position.
    for bad in ("01.5", "-.5", "1.", "1.5e", "1.5.5", "--1.5", "1.-5", "1/5", ".5", "1.5x"):
        for after in ("", ",0.5" * 5):
            check(engine, "[" + "0.125," * 20 + bad + after + "]" + " " * 40)


def test_small_integers_are_the_interpreters_own(engine: str) -> None:
    """-5..=256 come back as the interpreter's own objects, as json.loads gives them (the
    native reader keeps references to them), and their neighbours as new ones: in arrays,
    as values of keys, signed, and with a hook that leaves the integers alone."""
    values = list(range(-8, 260))
    for doc in (json.dumps(values), json.dumps({"k": values, "n": [-0, 0, -5, 256, 257]})):
        ref = json_loads(doc)
        for options in ({}, {"parse_float": float}):
            got = loads(engine)(doc, **options)
            assert same(got, ref)
            flat = got if isinstance(got, list) else got["k"] + got["n"]
            want = ref if isinstance(ref, list) else ref["k"] + ref["n"]
            again = json_loads(doc)
            again = again if isinstance(again, list) else again["k"] + again["n"]
            assert [x is y for x, y in zip(flat, want)] == [x is y for x, y in zip(again, want)]


def test_repeated_strings(engine: str) -> None:
    """Short strings repeated in a document, of every length, differing in one byte, beside
    escaped and non-ASCII ones and at the very end of the text: each one its value."""
    words = ["", "a", "blue", "blue ", "disabled", "x" * 15, "x" * 16, "é", "\n", "\u00e9t"]
    words += ["k" * i + "j" + "k" * (n - i - 1) for n in range(1, 18) for i in range(0, n, 3)]
    words += [f"id{i}" for i in range(600)]  # more than a small table holds
    rng = random.Random(28)
    values = [rng.choice(words) for _ in range(5000)]
    for ascii_only in (True, False):
        doc = json.dumps([values, {"colour": values[:300]}, "blue"], ensure_ascii=ascii_only)
        check(engine, doc)
        check(engine, doc.encode())
    check(engine, '["ab", "ab"]')  # the last one ends within sixteen bytes of the end


@pytest.mark.parametrize(
    "doc",
    [
        "[1000, 7, 1000, 123456789012, 1000, 123456789012, -999]",
        '["blue", "a", "blue", "disabled", "blue", "disabled", "0123456789abcdefg"]',
    ],
)
def test_repeated_values_hold_no_reference(doc: str) -> None:
    """A repeated int or string may be one object; the value holds all its references, and
    nothing else does once `loads` returns (the native reader's tables of them are emptied)."""
    skip_unless_native()
    if not hasattr(sys, "getrefcount"):
        pytest.skip("no reference counts here")
    # What getrefcount reads for an object the list holds once, read by the same loop as
    # jsondrip's values (what a loop adds differs between versions: 3.14 borrows): json's
    # list holds each value once (but small ints and 1-character strings, the interpreter's
    # own, left out).
    shared = {7, "a"}

    def counts(values: list[Any]) -> list[int]:
        found = []  # counts only: holding the values here would add to later counts
        for x in values:
            found.append(0 if x in shared else sys.getrefcount(x))
        return found

    (alone,) = set(counts(json_loads(doc))) - {0}
    value = jsondrip.loads(doc, backend="native")
    assert same(value, json_loads(doc))
    for x, count in zip(value, counts(value)):
        if x not in shared:
            held = sum(y is x for y in value)
            assert count == alone - 1 + held, (x, held)


def test_threads(engine: str) -> None:
    """Calls from several threads at once each get their own document's value."""
    from concurrent.futures import ThreadPoolExecutor

    docs = [
        json.dumps([{f"key{t}_{i % 50}": [i, t, "x" * t]} for i in range(2000)]) for t in range(8)
    ]
    parse = loads(engine)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(parse, docs * 3))
    for doc, got in zip(docs * 3, results):
        assert same(got, json_loads(doc))


# --- near misses: one character deleted, inserted or replaced ---------------------------------

BASES = [
    '{"a": [1, -2.5e3, true, null, "x\\u00e9"], "b": {}}',
    '[\n  {"id": 10, "t": "é\\n"},\n  [false, 0.5, NaN]\n]',
    '"\\ud83d\\ude00 ok"',
    "-0.25E+12",
]
ALPHABET = ' ,:[]{}"\\0-1.eEtfnuI\x01é\n'


def near_misses(text: str) -> list[str]:
    """Every text one deletion, insertion or replacement (from ALPHABET) away."""
    out = {text[:i] + text[i + 1 :] for i in range(len(text))}
    for i, c in itertools.product(range(len(text) + 1), ALPHABET):
        out.add(text[:i] + c + text[i:])
        out.add(text[:i] + c + text[i + 1 :])
    return sorted(out)


def test_near_misses_give_json_outcome(engine: str) -> None:
    """Each near miss of a few valid documents: json's value, or its exact error."""
    parse = loads(engine)
    wrong = []
    count = 0
    for base in BASES:
        for text in near_misses(base):
            for doc in (text, text.encode("utf-8")):
                count += 1
                want, got = outcome(json_loads, doc), outcome(parse, doc)
                if not same_outcome(got, want):
                    wrong.append((doc, got, want))
    assert count > 4000
    assert wrong == []


# --- JSONTestSuite ----------------------------------------------------------------------------

SUITE = "jsontestsuite"


@cache
def suite_names() -> tuple[str, ...]:
    folder = CORPUS / SUITE
    if not folder.is_dir():
        return ("(corpus missing)",)
    return tuple(sorted(p.name for p in folder.iterdir() if p.name[:2] in ("y_", "n_", "i_")))


@pytest.mark.parametrize("name", suite_names())
def test_jsontestsuite(engine: str, name: str) -> None:
    """y_, n_ and i_ files, as bytes, bytearray and decoded str: json.loads's outcome exactly
    (n_ files: msg, pos, lineno, colno; RecursionError where json raises it)."""
    data = (corpus_dir(SUITE) / name).read_bytes()
    got = check(engine, data)
    check(engine, bytearray(data))
    if name.startswith("y_"):
        assert got[0] == "ok"
    try:
        text = data.decode(json.detect_encoding(data), "surrogatepass")
    except UnicodeDecodeError:
        return
    check(engine, text)


def test_jsontestsuite_is_complete() -> None:
    """Guard against a silently empty or partial corpus."""
    corpus_dir(SUITE)
    prefixes = collections.Counter(name[:2] for name in suite_names())
    assert prefixes == {"y_": 95, "n_": 188, "i_": 35}


# --- the bench documents ----------------------------------------------------------------------

BENCH_FILES = ["twitter.json", "citm_catalog.json", "canada.json", "github_events.json",
               "numbers.json"]  # fmt: skip


@cache
def bench_reference(name: str) -> tuple[bytes, str, Any]:
    data = (corpus_dir("bench") / name).read_bytes()
    return data, data.decode("utf-8"), json_loads(data)


@pytest.mark.parametrize("name", BENCH_FILES)
def test_bench_documents_round_trip(engine: str, name: str) -> None:
    """The benchmark's documents, as bytes and as str: json.loads's value exactly."""
    data, text, want = bench_reference(name)
    parse = loads(engine)
    assert same(parse(data), want)
    assert same(parse(text), want)


# --- hooks ------------------------------------------------------------------------------------

HOOK_DOC = (
    '{"a": [1, -0, 3.5, -0.0, 1e400, NaN, -Infinity, Infinity, 123456789012345678901234567890],'
    ' "b": {"c": {"d": null}, "e": true, "f": false, "a": 2}, "a": "dup", "": {},'
    ' "s": "\\ud800x\\u00e9", "n": [{"k": 1.25E-3}, [], {}]}'
)


def recording(names: tuple[str, ...]) -> tuple[dict[str, Callable[..., Any]], list[Any]]:
    """Hooks that record their calls (in one list, in order) and tag what they return."""
    calls: list[Any] = []

    def object_hook(d: dict[str, Any]) -> Any:
        calls.append(["object_hook", type(d).__name__, d])
        return {"object": d}

    def object_pairs_hook(pairs: list[tuple[str, Any]]) -> Any:
        calls.append(["object_pairs_hook", type(pairs).__name__, [list(p) for p in pairs]])
        return ["pairs", [list(p) for p in pairs]]

    def parse_float(text: str) -> Any:
        calls.append(["parse_float", text])
        return decimal.Decimal(text)

    def parse_int(text: str) -> Any:
        calls.append(["parse_int", text])
        return ["int", text]

    def parse_constant(text: str) -> Any:
        calls.append(["parse_constant", text])
        return ["constant", text]

    every = {
        "object_hook": object_hook,
        "object_pairs_hook": object_pairs_hook,
        "parse_float": parse_float,
        "parse_int": parse_int,
        "parse_constant": parse_constant,
    }
    return {name: every[name] for name in names}, calls


HOOK_SETS = [c for n in range(len(HOOK_NAMES) + 1) for c in itertools.combinations(HOOK_NAMES, n)]


@pytest.mark.parametrize("names", HOOK_SETS, ids=lambda names: "+".join(names) or "none")
def test_hooks_calls_and_value(engine: str, names: tuple[str, ...]) -> None:
    """Every combination of hooks: same calls, same order, same arguments, same value."""
    for doc in (HOOK_DOC, HOOK_DOC.encode("utf-8")):
        hooks, want_calls = recording(names)
        want = json_loads(doc, **hooks)
        hooks, got_calls = recording(names)
        got = loads(engine)(doc, **hooks)
        assert same(got, want)
        assert same(got_calls, want_calls)
        assert len(got_calls) == len(want_calls)


def test_standard_hooks(engine: str) -> None:
    """parse_float=Decimal, object_pairs_hook=OrderedDict, parse_int=float, parse_constant."""
    parse = loads(engine)
    doc = '{"x": 0.1, "y": [1, 2e0, Infinity], "x": -7}'
    cases: list[dict[str, Any]] = [
        {"parse_float": decimal.Decimal},
        {"object_pairs_hook": collections.OrderedDict},
        {"parse_int": float},
        {"parse_int": decimal.Decimal, "parse_float": decimal.Decimal},
        {"parse_constant": decimal.Decimal},
        {"object_hook": lambda d: sorted(d.items())},
        {"object_pairs_hook": list},
        {"parse_float": float, "parse_int": int},
    ]
    for options in cases:
        got, want = parse(doc, **options), json_loads(doc, **options)
        assert same(got, want), (options, got, want)
        assert repr(got) == repr(want)  # the types inside tuples and Decimals too


def test_pairs_hook_wins_over_object_hook(engine: str) -> None:
    """With both hooks, json calls only object_pairs_hook; so does jsondrip."""
    names = ("object_hook", "object_pairs_hook")
    hooks, want_calls = recording(names)
    want = json_loads('{"a": {"b": 1}, "a": 2}', **hooks)
    hooks, got_calls = recording(names)
    got = loads(engine)('{"a": {"b": 1}, "a": 2}', **hooks)
    assert same(got, want)
    assert same(got_calls, want_calls)
    assert {call[0] for call in got_calls} == {"object_pairs_hook"}


def test_hook_exception_propagates(engine: str) -> None:
    """A hook's exception reaches the caller unchanged, after the same calls as json's."""

    def run(parse: Callable[..., Any]) -> tuple[list[str], BaseException]:
        calls: list[str] = []

        def parse_int(text: str) -> int:
            calls.append(text)
            if text == "3":
                raise KeyError("three")
            return int(text)

        with pytest.raises(KeyError) as error:
            parse('[1, [2, {"a": 3}], 4]', parse_int=parse_int)
        return calls, error.value

    got_calls, got = run(loads(engine))
    want_calls, want = run(json_loads)
    assert got_calls == want_calls == ["1", "2", "3"]
    assert got.args == want.args


@pytest.mark.parametrize(
    "engine",
    engines(),
    indirect=True,
)
def test_hook_raising_stop_iteration(engine: str) -> None:
    """json's scanner reads a StopIteration as 'no value here': a hook raising one gives
    JSONDecodeError('Expecting value') at the StopIteration's value."""

    def parse_int(text: str) -> int:
        raise StopIteration(3)

    assert check(engine, "[1, 2]", parse_int=parse_int) == (
        "JSONDecodeError",
        "Expecting value",
        3,
        1,
        4,
        "[1, 2]",
    )


def test_hook_may_call_loads(engine: str) -> None:
    """A hook that parses JSON itself (re-entrant calls) gets json's value."""
    parse = loads(engine)

    def object_hook(d: dict[str, Any]) -> Any:
        inner = d.get("json")
        return parse(inner, object_hook=object_hook) if isinstance(inner, str) else d

    doc = json.dumps({"json": json.dumps({"json": json.dumps({"k": [1, {"z": None}]})})})
    assert same(parse(doc, object_hook=object_hook), {"k": [1, {"z": None}]})


@pytest.mark.parametrize(
    "engine",
    engines(),
    indirect=True,
)
def test_hooks_run_once_on_invalid_documents(engine: str) -> None:
    """On a document json rejects, hooks run exactly as often as json runs them."""
    names = HOOK_NAMES[:4]
    doc = '[1, 2.5, NaN, {"a": 3}, x]'
    hooks, want_calls = recording(names)
    want = outcome(json_loads, doc, **hooks)
    hooks, got_calls = recording(names)
    got = outcome(loads(engine), doc, **hooks)
    assert same_outcome(got, want)
    assert same(got_calls, want_calls)


def test_hooks_run_once_on_deep_documents(engine: str) -> None:
    """A valid document 600 levels deep: each hook called once, as json calls it."""
    doc = '[1, {"a": 2.5}, ' + "[" * 600 + "3" + "]" * 600 + "]"
    hooks, want_calls = recording(HOOK_NAMES[:4])
    want = json_loads(doc, **hooks)
    hooks, got_calls = recording(HOOK_NAMES[:4])
    got = loads(engine)(doc, **hooks)
    assert same(got, want)
    assert same(got_calls, want_calls)


def test_hooks_see_the_interpreter_as_json_leaves_it(engine: str) -> None:
    """Hooks run with the garbage collector as the caller left it (json does not touch it)."""
    assert gc.isenabled()
    seen: list[bool] = []

    def object_hook(d: dict[str, Any]) -> Any:
        seen.append(gc.isenabled())
        return d

    loads(engine)('{"a": {}}', object_hook=object_hook)
    assert seen == [True, True]
    assert gc.isenabled()


# --- the interpreter's limits -----------------------------------------------------------------


@pytest.fixture
def int_digits() -> Any:
    """sys.set_int_max_str_digits, restored after the test."""
    if not HAS_DIGIT_LIMIT:
        pytest.skip("this Python has no limit on integer digits")
    old = sys.get_int_max_str_digits()
    yield sys.set_int_max_str_digits
    sys.set_int_max_str_digits(old)


def test_int_digit_limit_default(engine: str, int_digits: Any) -> None:
    """At the default limit: 4300 digits parse, 4301 raise json's ValueError (same text)."""
    int_digits(4300)
    for doc in ("1" * 4300, "-" + "2" * 4300, "[" + "3" * 4300 + "]"):
        assert check(engine, doc)[0] == "ok"
    for doc in ("1" * 4301, "-" + "2" * 4301, '{"a": [' + "3" * 5000 + "]}"):
        got = check(engine, doc)
        assert got[0] == "ValueError" and "4300" in got[1], got
        check(engine, doc.encode())


def test_int_digit_limit_lowered(engine: str, int_digits: Any) -> None:
    """A lowered limit raises json's ValueError on every engine."""
    int_digits(1000)
    assert check(engine, "7" * 1000)[0] == "ok"
    got = check(engine, "[" + "7" * 2000 + "]")
    assert got[0] == "ValueError" and "1000" in got[1], got
    assert check(engine, '["' + "7" * 2000 + '", 0.' + "7" * 2000 + "]")[0] == "ok"


def test_int_digit_limit_raised_and_hooks(engine: str, int_digits: Any) -> None:
    """A raised limit (or none) lets long ints through; parse_int gets the text, no limit."""
    int_digits(0)
    assert check(engine, "[" + "8" * 6000 + "]")[0] == "ok"
    int_digits(20000)
    assert check(engine, "-" + "8" * 19000)[0] == "ok"
    int_digits(640)
    assert check(engine, "9" * 5000, parse_int=len)[1] == 5000


def first_too_deep(parse: Callable[[str], Any], make: Callable[[int], str]) -> int:
    """The least depth at which parse(make(depth)) raises RecursionError (binary search)."""
    low, high = 1, 4 * sys.getrecursionlimit()
    while low < high:
        middle = (low + high) // 2
        try:
            parse(make(middle))
        except RecursionError:
            high = middle
        else:
            low = middle + 1
    return low


@pytest.mark.parametrize(
    "make",
    [lambda d: "[" * d + "]" * d, lambda d: '{"a":' * d + "1" + "}" * d],
    ids=["arrays", "objects"],
)
def test_recursion_limit_is_jsons(engine: str, make: Callable[[int], str]) -> None:
    """RecursionError from about the depth where this Python's json raises it, give or take the
    few frames between the caller and each parser. That depth moved: the recursion limit up to
    3.11, about 1.5 times it on 3.12, the C recursion limit (10000) on 3.13, the C stack on
    3.14; jsondrip counts nesting through the same interpreter call as json."""
    want = first_too_deep(json_loads, make)
    got = first_too_deep(loads(engine), make)
    assert abs(got - want) <= 8, (got, want)
    assert want <= max(sys.getrecursionlimit(), 10_000)


@pytest.mark.parametrize("depth", [2000, 6000])
def test_deep_nesting_with_a_hook_calls_it_as_json_does(engine: str, depth: int) -> None:
    """Three objects closed (the hook called three times), then nesting past the recursion
    limit on 3.9 to 3.12 (within it from 3.13). Without hooks a native build that reaches the
    limit hands the text to json; with one it must not (the hook would run again for the same
    objects): it raises RecursionError itself, after as many calls as json makes."""
    doc = "[" + '{"a": 1}, ' * 3 + "[" * depth + "]" * depth + "]"

    def run(parse: Callable[..., Any]) -> tuple[Any, ...]:
        calls: list[dict[str, Any]] = []

        def hook(obj: dict[str, Any]) -> dict[str, Any]:
            calls.append(obj)
            return obj

        return (outcome(parse, doc, object_hook=hook)[0], len(calls))

    assert run(loads(engine)) == run(json_loads)


DEEP_SCRIPT = """
import json, sys
sys.path[:0] = {paths!r}
import jsondrip
docs = ["[" * 100000, "[" * 100000 + "]" * 100000, '{{"a":' * 100000,
        '{{"a":' * 100000 + "1" + "}}" * 100000, "[{{\\"a\\": " * 50000]
for engine in {engines!r}:
    for doc in docs:
        for data in (doc, doc.encode()):
            try:
                json.loads(data)
                want = "ok"
            except BaseException as e:
                want = type(e).__name__
            try:
                jsondrip.loads(data, backend=engine)
                got = "ok"
            except BaseException as e:
                got = type(e).__name__
                assert isinstance(e, (RecursionError, json.JSONDecodeError)), repr(e)
            print(engine, len(doc), type(data).__name__, got, want)
"""


def test_deep_nesting_never_crashes() -> None:
    """100000 levels: RecursionError (as json raises) or JSONDecodeError, never a crash.

    In a child process, so that a crash fails this test instead of the whole run.
    """
    names = ["native", "python"] if not ONLY_PYTHON else ["python"]
    names += ["jiter"] if "jiter" in jsondrip.available_backends() else []
    paths = [str(Path(__file__).parent)]
    script = DEEP_SCRIPT.format(paths=paths, engines=[None, *names])
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert len(lines) == (len(names) + 1) * 5 * 2
    for line in lines:
        *_, got, want = line.split()
        assert want == "RecursionError", line
        assert got in ("RecursionError", "JSONDecodeError"), line


# --- the fast paths and their fallbacks -------------------------------------------------------


@pytest.fixture
def stdlib_calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The documents passed to json.loads from now on (it still parses them)."""
    calls: list[Any] = []

    def spy(s: Any, **options: Any) -> Any:
        calls.append(s)
        return json_loads(s, **options)

    monkeypatch.setattr(json, "loads", spy)
    return calls


@pytest.fixture
def jiter_calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The documents passed to jiter.from_json from now on (it still parses them)."""
    jiter = need_module("jiter")
    real = jiter.from_json
    calls: list[Any] = []

    def spy(data: Any, *args: Any, **options: Any) -> Any:
        calls.append(data)
        return real(data, *args, **options)

    monkeypatch.setattr(jiter, "from_json", spy)
    return calls


def native() -> Any:
    """The native extension, or a skip when the run tests the Python path only."""
    skip_unless_native()
    from jsondrip import _native

    return _native


PLAIN = [
    '{"a": [1, 2.5, "é😀", null]}',
    b'{"a": [1, 2.5, "\xc3\xa9", null]}',
    "[" * 600 + "]" * 600,
    b'["\xed\xa0\x80", "\\udc00"]',
]


@pytest.mark.parametrize("doc", PLAIN, ids=["str", "bytes", "depth 600", "surrogate bytes"])
def test_native_takes_plain_documents(stdlib_calls: list[Any], doc: Any) -> None:
    """Valid UTF-8 (WTF-8 bytes too), deep or not: the native core answers alone, json is
    not asked."""
    fast = native().loads_fast
    for data in (doc, bytearray(doc) if isinstance(doc, bytes) else doc):
        assert fast(data) is not NotImplemented
        assert same(jsondrip.loads(data, backend="native"), json_loads(data))
        assert same(jsondrip.loads(data), json_loads(data))
    assert stdlib_calls == []


BAILS = {
    "invalid": "[1,]",
    "truncated": '{"a": [1, 2',
    "str bom": "\ufeff[]",
    "utf-8 bom bytes": b"\xef\xbb\xbf[1]",
    "utf-16": "[1]".encode("utf-16"),
    "utf-16-le": "[1]".encode("utf-16-le"),
    "utf-32": "[1]".encode("utf-32"),
    "utf-32-be": "[1]".encode("utf-32-be"),
    "bad utf-8": b'"\xff"',
    "raw lone surrogate": '"\ud800"',
    "deep and invalid": "[" * 600,
    "control character": '"a\x01b"',
}


@pytest.mark.parametrize("name", list(BAILS))
def test_native_bails_to_stdlib(stdlib_calls: list[Any], name: str) -> None:
    """What the native core refuses returns NotImplemented, and json answers: its value or
    its exact error, after exactly one json.loads call."""
    doc = BAILS[name]
    assert native().loads_fast(doc) is NotImplemented
    for engine in ("native", "default"):
        stdlib_calls.clear()
        check(engine, doc)
        assert len(stdlib_calls) == 1


def test_native_bails_with_hooks(stdlib_calls: list[Any]) -> None:
    """Hooks given, a bail still reaches json, with the hooks."""
    doc = '[{"a": 1.5}, [1, 2,]]'
    assert native().loads_fast(doc, object_hook=dict) is NotImplemented
    options = {"object_pairs_hook": collections.OrderedDict, "parse_float": decimal.Decimal}
    assert check("native", doc, **options)[0] == "JSONDecodeError"
    assert len(stdlib_calls) == 1


def test_strict_false_and_cls_go_to_json(engine: str, stdlib_calls: list[Any]) -> None:
    """strict=False and a custom cls only json understands: it gets them, on every engine."""
    doc = '{"a": "tab\there", "b": [1.5]}'
    assert same(loads(engine)(doc, strict=False), json_loads(doc, strict=False))
    assert len(stdlib_calls) == 1
    # json's words, checked by `check` (its pure-Python scanner, PyPy's here, names the char)
    assert check(engine, doc, strict=True)[1].startswith("Invalid control character")

    class Tagged(json.JSONDecoder):
        def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
            return ["tagged", super().decode(s, *args, **kwargs)]

    assert same(loads(engine)('{"b": [1.5]}', cls=Tagged), ["tagged", {"b": [1.5]}])
    got = loads(engine)('{"b": [1.5]}', cls=Tagged, parse_float=decimal.Decimal)
    assert same(got, ["tagged", {"b": [decimal.Decimal("1.5")]}])


def test_jiter_answers_plain_documents(jiter_calls: list[Any], stdlib_calls: list[Any]) -> None:
    """Valid UTF-8 without hooks: jiter answers alone."""
    for doc in PLAIN[:2]:  # 600 levels are too deep for jiter
        assert same(jsondrip.loads(doc, backend="jiter"), json_loads(doc))
    assert len(jiter_calls) == 2
    assert stdlib_calls == []


JITER_REFUSES = {
    "escaped lone surrogate": '["\\ud800", 1]',
    "escaped lone low surrogate": '{"\\udfff": "x"}',
    "raw lone surrogate": '"a\udc00"',
    "surrogate bytes": b'"\xed\xa0\x80"',
    "utf-16": '{"a": [1]}'.encode("utf-16"),
    "utf-8 bom bytes": b"\xef\xbb\xbf[1]",
    "too deep for jiter": "[" * 300 + "]" * 300,
    "too long an int for jiter": "1" * 4301,
    "invalid": '{"a": }',
}


@pytest.mark.parametrize("name", list(JITER_REFUSES))
def test_jiter_refusals_go_to_json(stdlib_calls: list[Any], name: str) -> None:
    """What jiter rejects (lone surrogates above all) gets json's value or error."""
    jiter = need_module("jiter")

    doc = JITER_REFUSES[name]
    raw = doc.encode("utf-8", "surrogatepass") if isinstance(doc, str) else doc
    with pytest.raises(ValueError):
        jiter.from_json(raw)
    check("jiter", doc)
    assert len(stdlib_calls) == 1


def test_jiter_with_hooks_uses_json(jiter_calls: list[Any], stdlib_calls: list[Any]) -> None:
    """jiter has no hooks: with any hook, json parses, and the hooks are json's calls."""
    for name in HOOK_NAMES:
        hooks, want_calls = recording((name,))
        want = json_loads(HOOK_DOC, **hooks)
        hooks, got_calls = recording((name,))
        assert same(jsondrip.loads(HOOK_DOC, backend="jiter", **hooks), want)
        assert same(got_calls, want_calls)
    assert jiter_calls == []
    assert len(stdlib_calls) == len(HOOK_NAMES)


def test_python_engine_is_json(stdlib_calls: list[Any]) -> None:
    """backend="python" is json.loads, one call per document, errors re-typed."""
    assert same(jsondrip.loads(DOC, backend="python"), json_loads(DOC))
    with pytest.raises(jsondrip.JSONDecodeError):
        jsondrip.loads("[", backend="python")
    assert stdlib_calls == [DOC, "["]


@pytest.mark.parametrize("env", ["python", "jiter", "native"])
def test_environment_picks_the_default_engine(
    monkeypatch: pytest.MonkeyPatch, stdlib_calls: list[Any], env: str
) -> None:
    """JSONDRIP_BACKEND picks the engine of calls without backend=."""
    if env == "native":
        native()
    if env == "jiter":
        need_module("jiter")
    monkeypatch.setenv("JSONDRIP_BACKEND", env)
    assert same(jsondrip.loads(DOC), json_loads(DOC))
    assert len(stdlib_calls) == (1 if env == "python" else 0)


def test_unknown_engine_is_refused() -> None:
    """A backend name that is not an engine raises ValueError, naming the usable ones."""
    with pytest.raises(ValueError, match="'fast' is not one of native, python, jiter"):
        jsondrip.loads("[]", backend="fast")


ENGINE_SCRIPT = """
import json, sys
for name in {blocked!r}:
    sys.modules[name] = None  # import fails: as if not installed
import jsondrip
used = []
try:
    import jiter
except ImportError:
    pass
else:
    real = jiter.from_json
    jiter.from_json = lambda data, *a, **k: used.append("jiter") or real(data, *a, **k)
real_loads = json.loads
json.loads = lambda s, **k: used.append("python") or real_loads(s, **k)
value = jsondrip.loads('{{"a": [1, 2.5, "\\\\ud800"]}}')
try:
    jsondrip.loads("[1,]")
except jsondrip.JSONDecodeError as e:
    error = [e.msg, e.pos]
hooked = jsondrip.loads('[1.5]', parse_float=lambda t: "float " + t)
print(json.dumps([jsondrip.available_backends(), used, value, error, hooked]))
"""


def engine_choice(blocked: list[str]) -> list[Any]:
    """In a child process without the given modules: backends, engines used, results."""
    script = ENGINE_SCRIPT.format(blocked=blocked)
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "JSONDRIP_BACKEND"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json_loads(run.stdout)


def test_without_native_the_default_is_jiter() -> None:
    """Native core missing, jiter installed: plain documents go to jiter; json gets the
    lone surrogate (jiter refuses it), the error and the hooks."""
    need_module("jiter")
    backends, used, value, error, hooked = engine_choice(["jsondrip._native"])
    assert backends[0] != "native"
    assert value == {"a": [1, 2.5, "\ud800"]}
    assert error == list(outcome(json_loads, "[1,]")[1:3])
    assert hooked == ["float 1.5"]
    assert used == ["jiter", "python", "jiter", "python", "python"]


def test_without_native_and_jiter_the_default_is_json() -> None:
    """Neither fast engine installed: json answers everything, hooks included."""
    backends, used, value, error, hooked = engine_choice(["jsondrip._native", "jiter"])
    assert backends == ["python"]
    assert value == {"a": [1, 2.5, "\ud800"]}
    assert error == list(outcome(json_loads, "[1,]")[1:3])
    assert hooked == ["float 1.5"]
    assert used == ["python", "python", "python"]

"""Truncated or invalid: IncompleteJSONError exactly when the text is a valid start cut short.

json's `msg`, `pos`, `lineno` and `colno` stay on every path (and `loads` keeps json's
`str(e)`); the streaming API adds the type, `expected` and its own `str(e)`; `doc` is the text
the position refers to, within a bounded window.
"""

from __future__ import annotations

import json
import pickle
import sys

import pytest
from _support import chars, error_tuple, json_error
from conftest import skip_unless_native

import jsondrip
from jsondrip._errors import DOC_WINDOW

SEEDS = [
    '{"a": [1, -2.5e+3, true, null], "b": {"c": "x\\u00e9\\n"}}',
    '[0, -0.0, 1E2, "\\ud83d\\ude00", false, {}, [], NaN, -Infinity]',
    '{\n  "k": "v",\n  "n": [12, 3]\n}',
    ' "s\\"\\\\t" ',
    "  123  ",
]


def closed_error(backend: str, chunks: list[str]) -> json.JSONDecodeError | None:
    """The error of feeding the chunks and closing, or None if the document is complete."""
    parser = jsondrip.Parser(backend=backend)
    try:
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
    except json.JSONDecodeError as e:
        return e
    return None


@pytest.mark.parametrize("seed", SEEDS)
def test_every_cut_of_a_valid_document_is_incomplete(backend: str, seed: str) -> None:
    """Every prefix that json refuses raises IncompleteJSONError with json's parts."""
    for end in range(len(seed)):
        prefix = seed[:end]
        want = json_error(prefix)
        for chunks in ([prefix], chars(prefix)):
            error = closed_error(backend, chunks)
            if want is None:
                assert error is None, prefix
                continue
            assert type(error) is jsondrip.IncompleteJSONError, prefix
            assert error_tuple(error) == want, prefix
            assert str(error).startswith("Unexpected end of document, expecting ")
            assert str(error).endswith(f": line {want[2]} column {want[3]} (char {want[1]})")
            # Fed whole, the parser has it all; a character at a time, the last character.
            kept = prefix if len(chunks) == 1 else prefix[-1:]
            assert error.doc == kept and error.doc_start == len(prefix) - len(kept)


def mutations(seed: str) -> list[str]:
    """Every one-character deletion and replacement (from a few JSON characters)."""
    out = {seed[:i] + seed[i + 1 :] for i in range(len(seed))}
    out |= {seed[:i] + c + seed[i + 1 :] for i in range(len(seed)) for c in ',:]}"\\x1'}
    return sorted(out)


@pytest.mark.parametrize("seed", SEEDS)
def test_invalid_text_is_not_incomplete(backend: str, seed: str) -> None:
    """An error raised by a feed is invalid text: plain JSONDecodeError, never the subclass;
    one raised by close() is the subclass. Both backends give the same, whole and char by
    char, and loads agrees with the streaming parser on which it is."""
    for text in mutations(seed):
        if json_error(text) is None:
            continue
        parser = jsondrip.Parser(backend=backend)
        try:
            parser.feed(text)
        except jsondrip.JSONDecodeError as e:
            assert type(e) is jsondrip.JSONDecodeError, text
            assert not isinstance(e, jsondrip.IncompleteJSONError)
            cut = False
        else:
            with pytest.raises(jsondrip.IncompleteJSONError):
                parser.close()
            cut = True
        with pytest.raises(jsondrip.JSONDecodeError) as info:
            jsondrip.loads(text)
        assert isinstance(info.value, jsondrip.IncompleteJSONError) is cut, text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": [1, 2', "',' or ']'"),
        ('{"a": [1, 2]', "',' or '}'"),
        ('{"a": 1', "',' or '}'"),
        ("[1", "',' or ']'"),
        ("[", "a value or ']'"),
        ("[1,", "a value"),
        ("", "a value"),
        ("{", "'\"' (a property name) or '}'"),
        ('{"a": 1,', "'\"' (a property name)"),
        ('{"a"', "':'"),
        ('"ab', "the rest of the string and its closing '\"'"),
        ('"ab\\', "an escape character after '\\'"),
        ('"\\u00', "the hex digits of a \\uXXXX escape"),
        ("tr", "the rest of 'true'"),
        ("-I", "the rest of '-Infinity'"),
        ("-", "a digit"),
        ("1.", "a digit"),
        ("1e", "a digit, '+' or '-' of the exponent"),
    ],
)
def test_expected_says_what_would_continue(backend: str, text: str, expected: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    parser.feed(text)
    with pytest.raises(jsondrip.IncompleteJSONError) as info:
        parser.close()
    assert info.value.expected == expected
    assert str(info.value).startswith(f"Unexpected end of document, expecting {expected}: ")
    assert error_tuple(info.value) == json_error(text)


def test_the_issues_example(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    parser.feed('{"a": [1, 2')
    with pytest.raises(json.JSONDecodeError) as info:  # `except json.JSONDecodeError` holds
        parser.close()
    e = info.value
    assert type(e) is jsondrip.IncompleteJSONError
    want = json_error('{"a": [1, 2')
    assert want is not None and error_tuple(e) == want
    where = f"line {want[2]} column {want[3]} (char {want[1]})"
    assert str(e) == f"Unexpected end of document, expecting ',' or ']': {where}"
    assert e.doc == '{"a": [1, 2' and e.doc_start == 0


def test_a_character_cut_short_in_bytes_is_incomplete(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    parser.feed(b'["a\xe2\x82')
    with pytest.raises(jsondrip.IncompleteJSONError) as info:
        parser.close()
    assert (info.value.msg, info.value.pos) == ("Invalid UTF-8 byte 0xe2", 3)
    assert info.value.expected == "the rest of a UTF-8 character"
    parser = jsondrip.Parser(backend=backend)
    with pytest.raises(jsondrip.JSONDecodeError) as invalid:
        parser.feed(b'["a\xe2\x82x')
    assert type(invalid.value) is jsondrip.JSONDecodeError


def test_a_refused_number_is_not_incomplete(backend: str) -> None:
    """Past the interpreter's digit limit a complete number is refused: invalid, not cut."""
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("Python before 3.11 has no limit on integer digits")
    parser = jsondrip.Parser(backend=backend)
    parser.feed("1" * 5000)
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.close()
    assert type(info.value) is jsondrip.JSONDecodeError
    assert info.value.msg.startswith("Exceeds the limit (4300 digits)")


# --- loads ---------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("text", ['{"a": [1, 2', "[", "", '"abc', "tru", "1.", b'{"a": [1'])
def test_loads_keeps_jsons_message_and_says_cut_short_by_type(engine: str, text: str) -> None:
    if engine == "native":
        skip_unless_native()
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads(text)
    with pytest.raises(jsondrip.IncompleteJSONError) as got:
        jsondrip.loads(text, backend=engine)
    assert str(got.value) == str(want.value)
    assert error_tuple(got.value) == error_tuple(want.value)
    assert got.value.doc == want.value.doc and got.value.doc_start == 0
    assert got.value.expected


@pytest.mark.parametrize("text", ['{"a": 1 x', "[1,,]", "]", '"a\\x"', "nulx"])
def test_loads_of_invalid_text_is_a_plain_decode_error(text: str) -> None:
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        jsondrip.loads(text)
    assert type(info.value) is jsondrip.JSONDecodeError
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads(text)
    assert str(info.value) == str(want.value)


# --- parse_partial ---------------------------------------------------------------------------


def test_parse_partial_final(backend: str) -> None:
    assert jsondrip.parse_partial('{"a": [1, 2', backend=backend) == {"a": [1]}
    assert jsondrip.parse_partial('{"a": [1]}', backend=backend, final=True) == {"a": [1]}
    assert jsondrip.parse_partial("12", backend=backend, final=True) == 12
    with pytest.raises(jsondrip.IncompleteJSONError) as info:
        jsondrip.parse_partial('{"a": [1', backend=backend, final=True)
    assert error_tuple(info.value) == json_error('{"a": [1')
    with pytest.raises(jsondrip.JSONDecodeError) as invalid:
        jsondrip.parse_partial('{"a": x', backend=backend, final=True)
    assert type(invalid.value) is jsondrip.JSONDecodeError


@pytest.mark.parametrize("data", [42, None, ["[1]"], 1.5])
def test_parse_partial_names_itself_in_its_type_error(backend: str, data: object) -> None:
    with pytest.raises(TypeError) as info:
        jsondrip.parse_partial(data, backend=backend)  # type: ignore[arg-type]
    kind = type(data).__name__
    assert str(info.value) == (
        f"parse_partial() takes str, bytes, bytearray or memoryview, not {kind}"
    )


# --- doc: the text around the position, bounded -----------------------------------------------


def test_doc_is_a_window_around_the_position_of_a_long_stream(backend: str) -> None:
    body = "[" + "1, " * 99_999 + "1,"
    assert len(body) % 1000 == 0
    parser = jsondrip.Parser(backend=backend)
    for i in range(0, len(body), 1000):
        parser.feed(body[i : i + 1000])
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed("2 x")
    e = info.value
    want = json_error(body + "2 x")
    assert want is not None and (e.msg, e.pos) == want[:2]
    assert e.pos == len(body) + 2
    # The fragment before (1000 characters) and the one being read: 100 KB were not kept.
    assert e.doc == body[-1000:] + "2 x" and e.doc_start == len(body) - 1000
    assert e.doc[e.pos - e.doc_start] == "x"


def test_doc_after_a_large_fragment_is_bounded_both_sides(backend: str) -> None:
    text = "[" + "1, " * 10_000 + "x" + ", 1" * 10_000 + "]"
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        jsondrip.Parser(backend=backend).feed(text)
    e = info.value
    assert len(e.doc) == 2 * DOC_WINDOW
    assert e.doc == text[e.pos - DOC_WINDOW : e.pos + DOC_WINDOW]
    assert e.doc_start == e.pos - DOC_WINDOW


def test_doc_at_close_after_many_small_feeds_is_the_end_of_the_text(backend: str) -> None:
    text = '{"a": "' + "é" * 50_000
    parser = jsondrip.Parser(backend=backend)
    for char in chars(text[:20_000]):
        parser.feed(char)
    parser.feed(text[20_000:])
    with pytest.raises(jsondrip.IncompleteJSONError) as info:
        parser.close()
    e = info.value
    assert (e.msg, e.pos) == ("Unterminated string starting at", 6)
    # The string began long ago: doc is the text's last DOC_WINDOW characters, documented.
    assert e.doc == text[-DOC_WINDOW:] and e.doc_start == len(text) - DOC_WINDOW


def test_doc_holds_the_last_fragment_read(backend: str) -> None:
    """The parser keeps the last fragment it read (to DOC_WINDOW characters): bounded."""
    text = "[" + "1," * 100
    parser = jsondrip.Parser(backend=backend)
    for char in chars(text):
        parser.feed(char)
    with pytest.raises(jsondrip.IncompleteJSONError) as info:
        parser.close()
    e = info.value
    assert e.pos == len(text)
    assert e.doc == text[-1:] and e.doc_start == len(text) - 1
    # An error while a fragment is read sees that fragment too.
    parser = jsondrip.Parser(backend=backend)
    for char in chars(text):
        parser.feed(char)
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed("2 ]x")
    assert info.value.doc == text[-1:] + "2 ]x"
    # A long fragment before: its last DOC_WINDOW characters.
    parser = jsondrip.Parser(backend=backend)
    parser.feed("[" + "1," * 2000)
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed("]")
    assert info.value.doc == ("1," * 2000)[-DOC_WINDOW:] + "]"


def test_max_size_error_has_the_same_doc_on_both_backends(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend, max_size=5)
    with pytest.raises(jsondrip.JSONDecodeError) as info:
        parser.feed("[1, 2]")
    assert (info.value.msg, info.value.pos, info.value.doc, info.value.doc_start) == (
        "Document exceeds max_size of 5 characters",
        5,
        "[1, 2",
        0,
    )


def test_errors_pickle_with_everything(backend: str) -> None:
    parser = jsondrip.Parser(backend=backend)
    parser.feed("[1")
    with pytest.raises(jsondrip.IncompleteJSONError) as info:
        parser.close()
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is jsondrip.IncompleteJSONError
    assert (str(again), again.expected, again.doc, again.doc_start) == (
        str(info.value),
        "',' or ']'",
        "[1",
        0,
    )
    assert error_tuple(again) == error_tuple(info.value)

"""str fragments of every storage kind read as json.loads reads the whole text.

A str holds Latin-1, UCS-2 or UCS-4 units (and may hold lone surrogates, which json.loads
reads as characters); the native engine reads a fragment's characters from the str itself
(rust/python/fragment_text.rs), on the stack up to 256 bytes of UTF-8, in a buffer of its own
past that. Every prefix cut into fragments of every size gives the value json.loads gives the
whole text, with the same errors, on both backends; and a fragment is left as it came (no
UTF-8 form cached on it: `sys.getsizeof` would count it).
"""

from __future__ import annotations

import json
import sys

import pytest
from _support import error_tuple
from conftest import skip_unless_native

from jsondrip import Parser

TEXTS = {
    "ascii": '{"a": "plain text", "b": [1, 2.5, true]}',
    "latin-1": '{"caf\u00e9": "na\u00efve \u00e9t\u00e9", "\u00ff": "\u00a0"}',
    "ucs-2": '{"\u6771\u4eac": "\u5929\u6c14\u9884\u62a5 \u2028 \u00e9", "k": "\uffff"}',
    "ucs-4": '{"mood": "\U0001f389\U0001f680 \u2603 \U0010ffff", "\U0001f600": 1}',
    "lone surrogates": '["\ud800", "x\udfff", "\udbff\udc00 two halves", "\udc00\ud800"]',
    "surrogate key": '{"\ud800": "\U0001f600\udfff"}',
    "long ucs-4 string": '["' + "\U0001f680 rocket " * 40 + '"]',
    "long latin-1 string": '["' + "\u00e9" * 300 + '"]',
    "escapes beside wide text": '["\\u00e9\u00e9\\ud83d\\ude00\U0001f600\\n\u6771"]',
    # A growing str made ASCII while every byte so far is (builder.rs, `grow`), then wider.
    "ascii growing wider": '{"a": "plain text\u00e9 then \\u00e9\\n \u6771 and \U0001f600 ok", '
    '"b": "x"}',
    # A growing str keeps its shown characters and decodes only the new bytes, in its own
    # kind, unless they need a wider one (builder.rs `grow`, strings.rs `grown_string`).
    "every widening": '["ab\u00e9cd\u6771ef\U0001f600gh", "\u00e9\U0001f600", "\u6771abc\u00e9",'
    ' "x\u00ffy", "\U0001f600 then ascii", "\u00e9\\u00e9\\u6771\\ud83d\\ude00"]',
    # ... and past 128 bytes the str shown is resized (`PyUnicode_Append`): wider at the limit.
    "widening at the rebuild limit": '["'
    + "a" * 126
    + "\u00e9\U0001f600"
    + "b" * 9
    + '", "'
    + "\u6771" * 42
    + "\U0001f600" * 3
    + '"]',
}

INVALID = {
    "control character in a wide string": '["\u6771\n"]',
    "wide character outside a string": "[1, \u6771]",
    "lone surrogate outside a string": '{"a": 1\ud800}',
}


def fed(backend: str, text: str, size: int) -> tuple[object, ...]:
    """The parser's answer to `text` in `size`-character fragments: its value at the end, or
    its error."""
    parser = Parser(backend=backend)
    try:
        for start in range(0, len(text), size):
            parser.feed(text[start : start + size])
        return ("value", parser.close())
    except json.JSONDecodeError as error:
        return ("error", *error_tuple(error))


def loaded(text: str) -> tuple[object, ...]:
    try:
        return ("value", json.loads(text))
    except json.JSONDecodeError as error:
        return ("error", *error_tuple(error))


def strings_in(value: object) -> list[str]:
    """Every str in a value: its keys and its strings."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for item in value.values() for s in strings_in(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def canonical(string: str) -> bool:
    """Whether a str is stored as CPython stores that text when it makes it: the narrowest
    kind, marked ASCII exactly when it is (`isascii` reads the mark), and nothing beside its
    characters. The size is compared with a fresh str of two of its widest character (a str of
    one character may be a shared one, which a UTF-8 form cached on it makes larger)."""
    widest = max(map(ord, string), default=0)
    width = 1 if widest < 0x100 else 2 if widest < 0x10000 else 4
    like = chr(widest) * 2
    size = sys.getsizeof(like) + (len(string) - 2) * width
    return string.isascii() == like.isascii() and sys.getsizeof(string) == size


@pytest.mark.parametrize("name", list(TEXTS) + list(INVALID))
@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 64, 100_000])
def test_str_fragments_of_every_kind_read_as_json_loads(backend: str, name: str, size: int) -> None:
    text = TEXTS.get(name) or INVALID[name]
    assert fed(backend, text, size) == loaded(text)


@pytest.mark.parametrize("name", list(TEXTS))
@pytest.mark.parametrize("size", [1, 3])
def test_both_backends_show_the_same_value_after_every_fragment(name: str, size: int) -> None:
    """Fragment by fragment, the native value is the twin's, and a string shown is a str
    whose own characters are right (`ascii()` reads them; `==` alone would pass a str
    mislabelled as ASCII whose bytes are wider)."""
    text = TEXTS[name]
    skip_unless_native()  # a pure build (PyPy) has no native backend to compare
    native, twin = Parser(backend="native"), Parser(backend="python")
    for start in range(0, len(text), size):
        piece = text[start : start + size]
        shown, expected = native.feed(piece), twin.feed(piece)
        assert shown == expected
        assert ascii(shown) == ascii(expected)
        assert all(map(canonical, strings_in(shown)))


@pytest.mark.parametrize("length", range(1, 21))
def test_a_latin_1_character_anywhere_in_a_short_fragment_is_read(
    backend: str, length: int
) -> None:
    """A Latin-1 fragment is tested for ASCII in two overlapping loads up to 16 bytes
    (fragment_text.rs): a character above 0x7f at any place of any length is seen."""
    for at in range(length):
        piece = "a" * at + "\u00e9" + "a" * (length - at - 1)
        parser = Parser(backend=backend)
        parser.feed('["')
        parser.feed(piece)
        assert parser.feed('"]') == [piece]


def test_a_str_subclass_fragment_reads_as_its_text(backend: str) -> None:
    class Text(str):
        pass

    parser = Parser(backend=backend)
    parser.feed(Text('{"\u6771": "\U0001f600'))
    parser.feed(Text('\ud800"}'))
    assert parser.close() == {"\u6771": "\U0001f600\ud800"}


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="sys.getsizeof: CPython")
def test_a_fragment_is_left_as_it_came() -> None:
    """The native engine does not ask CPython for a fragment's UTF-8, which CPython would
    keep on the fragment (memory held as long as the caller holds the fragment)."""
    pieces = ['{"\u00e9', '\u6771": "', "\U0001f600 ", 'x"}']
    skip_unless_native()  # on a pure build the twin reads fragments in Python
    sizes = [sys.getsizeof(piece) for piece in pieces]
    parser = Parser(backend="native")
    for piece in pieces:
        parser.feed(piece)
    assert parser.close() == {"\u00e9\u6771": "\U0001f600 x"}
    assert [sys.getsizeof(piece) for piece in pieces] == sizes


@pytest.mark.parametrize("wide", ["\u00e9", "\u6771", "\U0001f680", "\ud800"])
def test_fragments_around_the_stack_buffer_read_only_what_they_encode(
    backend: str, wide: str
) -> None:
    """A non-ASCII fragment is encoded into a buffer sized for its widest case (256 bytes on
    the stack, or one of its own past that), not zeroed first: mostly ASCII, it fills only
    the start of it. Fragments of every length around that size, one wide character among
    ASCII, and each read after a longer one, show exactly their text."""
    parser = Parser(backend=backend)
    parser.feed('{"k": [')
    expected: list[str] = []
    for length in [*range(1, 40), *range(60, 140), *range(250, 262), 300, 1100]:
        piece = (wide + "ab" * length)[:length]
        parser.feed('"')
        value = parser.feed(piece)
        assert value == {"k": [*expected, piece]}
        parser.feed('", ')
        expected.append(piece)
    parser.feed('"end"]}')
    assert parser.close() == {"k": [*expected, "end"]}


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 40])
def test_an_error_at_a_fragments_start_shows_the_fragment_before_it(
    backend: str, size: int
) -> None:
    """The last fragment is kept for an error's `doc` (a short one copied into a buffer a
    longer one may have filled before): an error on the first character of the next
    fragment shows all of that fragment, and nothing older."""
    before = ("\u00e9\u6771\U0001f680" + "1" * 40)[:size]
    parser = Parser(backend=backend)
    parser.feed('["' + "long text " * 20)
    parser.feed('", "' + before)
    parser.feed('", ')
    with pytest.raises(json.JSONDecodeError) as raised:
        parser.feed("x")
    assert raised.value.doc == '", x'
    parser = Parser(backend=backend)
    parser.feed('["' + "long text " * 20 + '", ')
    parser.feed('"' + before + '", ')
    with pytest.raises(json.JSONDecodeError) as raised:
        parser.feed("x")
    assert raised.value.doc == '"' + before + '", x'

"""JSON's string escapes and the code points they make, written once for the twin's reader
of JSON text (its machine). Twin of rust/core/escape.rs; Python's str
holds a lone surrogate as it is, so the twin needs no WTF-8 encoder, and a JSON Pointer's
reference token is `jsondrip._changes.escape_token` (`split_pointer` reads one back).
"""

from __future__ import annotations

ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
"""The character each one-letter escape stands for (`u` is not one: four hex digits follow)."""

HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def is_high_surrogate(code: int) -> bool:
    """A UTF-16 high surrogate: the first half of a pair."""
    return 0xD800 <= code <= 0xDBFF


def is_low_surrogate(code: int) -> bool:
    """A UTF-16 low surrogate: the second half of a pair."""
    return 0xDC00 <= code <= 0xDFFF


def join_surrogates(high: int, low: int) -> int:
    """The code point a surrogate pair stands for."""
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)

"""Tokens with their positions, for the checker: a lexer of text the parser already accepted.

Twin of rust/core/schema/scanner.rs.

The parser (either backend) reads each fragment first and raises on invalid JSON, so this
lexer only ever sees a prefix of a valid document: it needs no error handling, only the
structure (where each value, key and container begins and ends), string content decoded as
`json.loads` decodes it, and the character position of each event.
"""

from __future__ import annotations

import re
from typing import Any

from ..escape import ESCAPES, is_high_surrogate, is_low_surrogate, join_surrogates
from .checker import ARRAY, BOOLEAN, NO_LIMIT, NULL, NUMBER, OBJECT, STRING, Checker

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_PLAIN = re.compile(r'[^"\\]*')
_NUMBER = re.compile(r"[0-9eE+\-.]*")
_LITERALS = {
    "t": ("true", True, BOOLEAN),
    "f": ("false", False, BOOLEAN),
    "n": ("null", None, NULL),
    "N": ("NaN", float("nan"), NUMBER),
    "I": ("Infinity", float("inf"), NUMBER),
}

BETWEEN, IN_STRING, IN_ESCAPE, IN_NUMBER, IN_LITERAL = range(5)


class Scanner:
    """Feeds one document's events to a `Checker`."""

    __slots__ = (
        "checker",
        "escape",
        "expect_key",
        "high",
        "literal_left",
        "literal_value",
        "number",
        "offset",
        "stack",
        "state",
    )

    def __init__(self, checker: Checker) -> None:
        self.checker = checker
        self.offset = 0  # characters read before the current fragment
        self.state = BETWEEN
        self.stack: list[bool] = []  # True for an object
        self.expect_key = False  # in an object, the next string is a key
        self.escape = ""  # the escape read so far, after its backslash
        self.high: tuple[int, int] | None = (
            None  # a high surrogate (code, pos) awaiting its low half
        )
        self.number: list[str] = []
        self.literal_left = 0
        self.literal_value: Any = None

    def _lone_high(self) -> None:
        if self.high is not None:
            code, pos = self.high
            self.high = None
            self.checker.text(chr(code), pos, False, False)

    def feed(self, text: str) -> None:
        """Read one fragment (the parser accepted it already)."""
        if (
            self.state == IN_STRING and self.high is None and '"' not in text and "\\" not in text
        ):  # the common case while a long string streams: one plain run
            frame = self.checker.frames[-1]
            if frame.filters or frame.limit != NO_LIMIT:
                self.checker.text(text, self.offset, True, False)
            else:  # nothing to check before the string ends: keep the text
                frame.parts.append(text)
                frame.length += len(text)
            self.offset += len(text)
            return
        checker = self.checker
        off = self.offset
        n = len(text)
        i = 0
        state = self.state
        try:
            while i < n:
                if state == IN_STRING:
                    j = _PLAIN.match(text, i).end()  # type: ignore[union-attr]
                    if j > i:
                        if self.high is not None:
                            self._lone_high()
                        checker.text(text[i:j], off + i, True, j < n and text[j] == '"')
                    if j == n:
                        break
                    i = j + 1
                    if text[j] == '"':
                        if self.high is not None:
                            self._lone_high()
                        checker.end_string(off + j)
                        state = BETWEEN
                    else:
                        self.escape = ""
                        state = IN_ESCAPE
                elif state == IN_ESCAPE:
                    if not self.escape:
                        c = text[i]
                        i += 1
                        if c != "u":
                            self._lone_high()
                            checker.text(ESCAPES[c], off + i - 1, False, False)
                            state = IN_STRING
                            continue
                        self.escape = "u"
                    take = text[i : i + 5 - len(self.escape)]
                    self.escape += take
                    i += len(take)
                    if len(self.escape) == 5:
                        state = IN_STRING
                        self._escaped(int(self.escape[1:], 16), off + i - 1)
                elif state == IN_NUMBER:
                    j = _NUMBER.match(text, i).end()  # type: ignore[union-attr]
                    if j > i:
                        self.number.append(text[i:j])
                    i = j
                    if i < n:
                        if text[i] == "I":  # -Infinity
                            self.literal_left = len("Infinity")
                            self.literal_value = float("-inf")
                            state = IN_LITERAL
                            continue
                        self._end_number(off + i)
                        state = BETWEEN
                elif state == IN_LITERAL:
                    letters = min(self.literal_left, n - i)
                    i += letters
                    self.literal_left -= letters
                    if not self.literal_left:
                        checker.end_atom(self.literal_value, off + i - 1)
                        state = BETWEEN
                else:
                    i = _WHITESPACE.match(text, i).end()  # type: ignore[union-attr]
                    if i == n:
                        break
                    c = text[i]
                    pos = off + i
                    if c == '"':
                        if self.expect_key:
                            checker.begin_key(pos)
                            self.expect_key = False
                        else:
                            checker.begin(STRING, pos)
                        state = IN_STRING
                    elif c == "{":
                        checker.begin(OBJECT, pos)
                        self.stack.append(True)
                        self.expect_key = True
                    elif c == "[":
                        checker.begin(ARRAY, pos)
                        self.stack.append(False)
                    elif c == "}" or c == "]":
                        self.stack.pop()
                        self.expect_key = False
                        checker.end_container(pos)
                    elif c == ",":
                        self.expect_key = self.stack[-1]
                    elif c == ":":
                        pass
                    elif c == "-" or "0" <= c <= "9":
                        checker.begin(NUMBER, pos, c == "-")
                        self.number = []
                        state = IN_NUMBER
                        continue  # the number's state reads c
                    else:
                        word, value, kind = _LITERALS[c]
                        checker.begin(kind, pos)
                        self.literal_left = len(word)
                        self.literal_value = value
                        state = IN_LITERAL
                        continue
                    i += 1
        finally:
            self.state = state
            self.offset = off + n

    def _escaped(self, code: int, pos: int) -> None:
        """A \\uXXXX escape ending at `pos`: a character, a pair's halves joined, or a lone half."""
        if self.high is not None:
            high = self.high[0]
            if is_low_surrogate(code):
                self.high = None
                self.checker.text(chr(join_surrogates(high, code)), pos, False, False)
                return
            self._lone_high()
        if is_high_surrogate(code):
            self.high = (code, pos)
            return
        self.checker.text(chr(code), pos, False, False)

    def _end_number(self, pos: int) -> None:
        text = "".join(self.number)
        self.number = []
        is_float = "." in text or "e" in text or "E" in text
        self.checker.end_atom(float(text) if is_float else int(text), pos)

    def close(self) -> None:
        """The stream ended (the parser found the document complete): finish a root number."""
        if self.state == IN_NUMBER:
            self.state = BETWEEN
            self._end_number(self.offset)

"""The partial-JSON state machine in pure Python: the twin of rust/core/machine.rs.

Hold the two side by side: the states, their names and the transitions are the same. The
machine reads text (already decoded) a fragment at a time and keeps everything it needs to
resume between fragments: the state, the stack of open containers, and the token it is inside
(the string, number or literal read so far). It tells a `Builder` what happened.

The rules:

- Structural states wait for one character, after skipping whitespace:
  VALUE (a value must start), ARRAY_FIRST (a value or `]`), ARRAY_NEXT (`,` or `]`),
  OBJECT_FIRST (a key or `}`), OBJECT_KEY (a key), OBJECT_COLON (`:`), OBJECT_NEXT (`,` or
  `}`), DONE (nothing but whitespace). A character that fits none of a state's transitions is
  the error named in `EXPECTING`.
- STRING reads plain characters in bulk; ESCAPE follows a backslash; UNICODE reads the four hex
  digits of `\\u`; after a high surrogate, SURROGATE_BACKSLASH and SURROGATE_U look for the
  `\\u` of its low half (if it does not come, the lone surrogate is kept, as json.loads keeps it).
- NUMBER runs the sub-machine in `NUMBER_NEXT`; the first character that cannot continue the
  number ends it (and is read again in the state that follows the value).
- LITERAL matches true, false, null, NaN, Infinity and -Infinity letter by letter.
- After a value: ARRAY_NEXT, OBJECT_NEXT or DONE, by what is open (`after_value`).
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any

from .builder import Builder
from .errors import Dialect, ErrorKind, MachineError
from .number import NumberDigest

# Structural states, then token states. Numbered as in rust/core/machine.rs.
VALUE = 0
ARRAY_FIRST = 1
ARRAY_NEXT = 2
OBJECT_FIRST = 3
OBJECT_KEY = 4
OBJECT_COLON = 5
OBJECT_NEXT = 6
DONE = 7
STRING = 8
ESCAPE = 9
UNICODE = 10
SURROGATE_BACKSLASH = 11
SURROGATE_U = 12
NUMBER = 13
LITERAL = 14

STATE_NAMES = [
    "VALUE",
    "ARRAY_FIRST",
    "ARRAY_NEXT",
    "OBJECT_FIRST",
    "OBJECT_KEY",
    "OBJECT_COLON",
    "OBJECT_NEXT",
    "DONE",
    "STRING",
    "ESCAPE",
    "UNICODE",
    "SURROGATE_BACKSLASH",
    "SURROGATE_U",
    "NUMBER",
    "LITERAL",
]

EXPECTING = {
    VALUE: ErrorKind.ExpectingValue,
    ARRAY_FIRST: ErrorKind.ExpectingValue,
    ARRAY_NEXT: ErrorKind.ExpectingComma,
    OBJECT_FIRST: ErrorKind.ExpectingPropertyName,
    OBJECT_KEY: ErrorKind.ExpectingPropertyName,
    OBJECT_COLON: ErrorKind.ExpectingColon,
    OBJECT_NEXT: ErrorKind.ExpectingComma,
    DONE: ErrorKind.ExtraData,
}

EXPECTED_NEXT = {
    VALUE: "a value",
    ARRAY_FIRST: "a value or ']'",
    ARRAY_NEXT: "',' or ']'",
    OBJECT_FIRST: "'\"' (a property name) or '}'",
    OBJECT_KEY: "'\"' (a property name)",
    OBJECT_COLON: "':'",
    OBJECT_NEXT: "',' or '}'",
    DONE: "nothing",
    STRING: "the rest of the string and its closing '\"'",
    ESCAPE: "an escape character after '\\'",
    UNICODE: "the hex digits of a \\uXXXX escape",
    SURROGATE_BACKSLASH: "the rest of the string and its closing '\"'",
    SURROGATE_U: "the rest of the string and its closing '\"'",
}
"""What would continue the text, by state (NUMBER and LITERAL: `Machine.expected_next`)."""

# Number sub-states. Accepting: ZERO, INT, FRAC, EXP_DIGITS (the text so far is a number).
N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_EXP, N_EXP_SIGN, N_EXP_DIGITS = range(8)
NUMBER_ACCEPTING = (False, True, True, False, True, False, False, True)
_DIGITS = "0123456789"


def _number_table() -> dict[tuple[int, str], int]:
    table: dict[tuple[int, str], int] = {}
    for d in _DIGITS:
        table[N_MINUS, d] = N_ZERO if d == "0" else N_INT
        table[N_INT, d] = N_INT
        table[N_DOT, d] = N_FRAC
        table[N_FRAC, d] = N_FRAC
        table[N_EXP, d] = N_EXP_DIGITS
        table[N_EXP_SIGN, d] = N_EXP_DIGITS
        table[N_EXP_DIGITS, d] = N_EXP_DIGITS
    for state in (N_ZERO, N_INT):
        table[state, "."] = N_DOT
    for state in (N_ZERO, N_INT, N_FRAC):
        table[state, "e"] = N_EXP
        table[state, "E"] = N_EXP
    table[N_EXP, "+"] = N_EXP_SIGN
    table[N_EXP, "-"] = N_EXP_SIGN
    return table


NUMBER_NEXT = _number_table()
"""(sub-state, character) -> sub-state; a missing entry ends the number."""

LONG_NUMBER = 32
"""jiter mode shows a float longer than this through its digest, not its whole text."""
LITERALS = {"t": "true", "f": "false", "n": "null", "N": "NaN", "I": "Infinity"}
LITERAL_VALUES: dict[str, Any] = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": math.nan,
    "Infinity": math.inf,
    "-Infinity": -math.inf,
}
ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
HEX = frozenset("0123456789abcdefABCDEF")
WHITESPACE = " \t\n\r"

_STRING_PLAIN = re.compile(r'[^"\\\x00-\x1f]*').match
_WHITESPACE_RUN = re.compile(r"[ \t\n\r]*").match
_NUMBER_RUN = re.compile(r"[0-9.eE+-]*").match


CLASSIC = Dialect()
"""json of CPython 3.9 to 3.12 (the engine passes the running interpreter's)."""
MIN_DIGIT_LIMIT = 640  # CPython's smallest allowed limit: shorter integers never reach it


def parse_number(text: str, is_float: bool, start: int) -> Any:
    """The Python value json.loads gives for a complete number's text (which starts at
    `start`), within the interpreter's limit on integer digits."""
    if is_float:
        return float(text)
    digits = len(text) - (text[0] == "-")
    if digits > MIN_DIGIT_LIMIT:
        get_limit = getattr(sys, "get_int_max_str_digits", None)  # Python 3.11+
        limit = get_limit() if get_limit is not None else 0
        if limit and digits > limit:
            msg = (
                f"Exceeds the limit ({limit} digits) for integer string conversion: "
                f"value has {digits} digits"
            )
            raise MachineError(ErrorKind.Refused, start, msg)
    return int(text)


class Machine:
    """Reads text a fragment at a time; see the module docstring for the rules."""

    def __init__(
        self, builder: Builder, *, jiter_mode: bool, max_depth: int, dialect: Dialect = CLASSIC
    ) -> None:
        self.builder = builder
        self.jiter_mode = jiter_mode
        self.max_depth = max_depth
        self.dialect = dialect
        self.state = VALUE
        self.stack: list[bool] = []  # True for an object, False for an array
        self.offset = 0  # characters read before the current fragment
        self.bom_skipped = False  # a bytes stream opened with a BOM (then U+FEFF is no BOM)
        self.line = 1
        self.line_start = 0  # position of the first character of the current line
        # The last `,` between values and its line, recorded where json reports a trailing
        # comma there (3.13+): (position, line, line start).
        self.comma = (0, 1, 0)
        # The token in progress.
        self.token_start = 0  # position of its first character
        self.in_key = False
        self.shown = ""  # string content already shown (flushed)
        # Change mode: content recorded as changes since, not yet joined into `shown` (only a
        # read joins it; growing `shown` at every flush could copy it every time).
        self.recorded: list[str] = []
        self.parts: list[str] = []  # string content read since (decoded)
        self.string_dirty = False  # the string value grew since the last flush
        self.hex = ""  # hex digits of a \u escape so far
        self.high = 0  # a high surrogate waiting for its low half, or 0
        self.escape_end = -1  # position just after the last \u escape
        # The number's text so far, in pieces (a str grown by += on an attribute is copied at
        # every append: quadratic in a long number fed a byte at a time).
        self.number: list[str] = []
        self.number_len = 0
        self.number_digest = NumberDigest()  # jiter mode: a long float shown while it arrives
        self.number_state = N_MINUS
        self.number_float = False
        self.number_valid = 0  # length of the longest prefix that is a number
        self.literal = ""
        self.literal_len = 0

    # -- transitions shared by many states ---------------------------------------------------

    def after_value(self) -> int:
        """The state after a complete value, by what is open around it."""
        if not self.stack:
            return DONE
        return OBJECT_NEXT if self.stack[-1] else ARRAY_NEXT

    def fail(self, kind: ErrorKind, pos: int, detail: object = None) -> MachineError:
        return MachineError(kind, pos, detail)

    def locate(self, pos: int) -> tuple[int, int]:
        """The line and column (1-based) of a position on the current line, or (json 3.13+'s
        trailing comma) of the last comma."""
        comma, line, line_start = self.comma
        if pos < self.line_start and pos == comma:
            return line, pos - line_start + 1
        return self.line, pos - self.line_start + 1

    def expected_next(self) -> str:
        """What would continue the text where it stands (after `close` found it incomplete)."""
        state = self.state
        if state == NUMBER:
            sub = self.number_state
            if sub == N_EXP:
                return "a digit, '+' or '-' of the exponent"
            if not NUMBER_ACCEPTING[sub]:
                return "a digit"
            return "',' or '}'" if self.stack and self.stack[-1] else "',' or ']'"
        if state == LITERAL:
            return f"the rest of '{self.literal}'"
        return EXPECTED_NEXT[state]

    def begin_value(self, c: str, pos: int) -> int:
        """The first character of a value, in a state where a value may start."""
        if c == '"':
            self.token_start = pos
            self.in_key = False
            self.shown = ""
            self.recorded = []
            self.parts = []
            self.string_dirty = True
            return STRING
        if c == "{" or c == "[":
            if len(self.stack) >= self.max_depth:
                raise self.fail(ErrorKind.MaxDepth, pos, self.max_depth)
            is_object = c == "{"
            self.stack.append(is_object)
            self.builder.begin_container({} if is_object else [])
            return OBJECT_FIRST if is_object else ARRAY_FIRST
        if c == "-" or "0" <= c <= "9":
            self.token_start = pos
            self.number = [c]
            self.number_len = 1
            self.number_digest.reset()
            if c == "-":
                self.number_state, self.number_valid = N_MINUS, 0
            else:
                self.number_state = N_ZERO if c == "0" else N_INT
                self.number_valid = 1
            self.number_float = False
            return NUMBER
        literal = LITERALS.get(c)
        if literal is not None:
            self.token_start = pos
            self.literal = literal
            self.literal_len = 1
            return LITERAL
        if c == "]" and self.dialect.trailing_comma and self.stack and not self.stack[-1]:
            # A value is awaited inside an array only after a comma.
            raise self.fail(ErrorKind.TrailingCommaInArray, self.comma[0])
        if c == "\ufeff" and pos == 0 and not self.bom_skipped:
            raise self.fail(ErrorKind.UnexpectedBom, 0)
        raise self.fail(ErrorKind.ExpectingValue, pos)

    def end_container(self) -> int:
        self.stack.pop()
        self.builder.end_container()
        return self.after_value()

    def end_number(self) -> int:
        """The number is complete (its next character is not part of it)."""
        value = parse_number("".join(self.number), self.number_float, self.token_start)
        self.number = []
        self.builder.atom(value)
        return self.after_value()

    def number_error(self) -> MachineError:
        """The number stopped being one: json reports what follows its longest valid prefix."""
        if self.number_valid == 0:
            return self.fail(ErrorKind.ExpectingValue, self.token_start)
        return self.fail(EXPECTING[self.after_value()], self.token_start + self.number_valid)

    def push_lone_high(self) -> None:
        self.parts.append(chr(self.high))
        self.high = 0
        self.string_dirty = True

    def end_escape(self, code: int) -> int:
        """Four hex digits read: a character, a held-back high surrogate, or a pair."""
        if self.high:
            if 0xDC00 <= code <= 0xDFFF:
                code = 0x10000 + ((self.high - 0xD800) << 10) + (code - 0xDC00)
                self.high = 0
            else:
                self.push_lone_high()
        if 0xD800 <= code <= 0xDBFF:
            self.high = code
            return SURROGATE_BACKSLASH
        self.parts.append(chr(code))
        self.string_dirty = True
        return STRING

    def end_string(self, text: str) -> int:
        if self.in_key:
            if not self.stack or not self.stack[-1]:
                raise AssertionError("a key outside an object")
            self.builder.set_key(text)
            return OBJECT_COLON
        self.builder.string(text, True)
        return self.after_value()

    # -- the loop ----------------------------------------------------------------------------

    def feed(self, text: str) -> None:
        """Read one fragment. Raises MachineError at the first character that cannot fit."""
        state = self.state
        if (
            state == STRING
            and not self.in_key
            and '"' not in text
            and "\\" not in text
            and text.isprintable()
        ):
            # The STRING state's plain run covering the whole fragment: the common case
            # while a long value streams, so it skips the loop. A printable text holds no
            # control character; the rare legal unprintable ones (NBSP, U+2028) take the loop.
            # Nothing waits in `parts`: every feed ends by flushing the open string.
            self.offset += len(text)
            if text:
                self.show_string(text)
            return
        offset = self.offset
        n = len(text)
        i = 0
        try:
            while i < n:
                if state == STRING:
                    j = _STRING_PLAIN(text, i).end()
                    if j > i:
                        self.parts.append(text[i:j])
                        self.string_dirty = True
                    if j == n:
                        i = n
                        break
                    c = text[j]
                    i = j + 1
                    if c == '"':
                        parts = self.parts
                        shown = self._shown() if self.recorded else self.shown
                        state = self.end_string(shown + "".join(parts))
                        self.parts = []
                    elif c == "\\":
                        char = ESCAPES.get(text[i]) if i < n else None
                        if char is None:
                            state = ESCAPE
                        else:  # ESCAPE's transition, taken here while both are at hand
                            self.parts.append(char)
                            self.string_dirty = True
                            i += 1
                    else:
                        raise self.fail(ErrorKind.InvalidControlCharacter, offset + j)
                    continue

                c = text[i]
                if state <= DONE:
                    if c in WHITESPACE:
                        j = _WHITESPACE_RUN(text, i).end()
                        newlines = text.count("\n", i, j)
                        if newlines:
                            self.line += newlines
                            self.line_start = offset + text.rfind("\n", i, j) + 1
                        i = j
                        continue
                    pos = offset + i
                    if state == VALUE:
                        state = self.begin_value(c, pos)
                    elif state == ARRAY_NEXT:
                        if c == ",":
                            if self.dialect.trailing_comma:
                                self.comma = (pos, self.line, self.line_start)
                            state = VALUE
                        elif c == "]":
                            state = self.end_container()
                        else:
                            raise self.fail(EXPECTING[state], pos)
                    elif state == OBJECT_NEXT:
                        if c == ",":
                            if self.dialect.trailing_comma:
                                self.comma = (pos, self.line, self.line_start)
                            state = OBJECT_KEY
                        elif c == "}":
                            state = self.end_container()
                        else:
                            raise self.fail(EXPECTING[state], pos)
                    elif state == OBJECT_COLON:
                        if c != ":":
                            raise self.fail(EXPECTING[state], pos)
                        state = VALUE
                    elif state in (OBJECT_KEY, OBJECT_FIRST):
                        if c == '"':
                            self.token_start = pos
                            self.in_key = True
                            self.shown = ""
                            self.recorded = []
                            self.parts = []
                            state = STRING
                        elif c == "}" and state == OBJECT_FIRST:
                            state = self.end_container()
                        elif c == "}" and self.dialect.trailing_comma:
                            raise self.fail(ErrorKind.TrailingCommaInObject, self.comma[0])
                        else:
                            raise self.fail(EXPECTING[state], pos)
                    elif state == ARRAY_FIRST:
                        state = self.end_container() if c == "]" else self.begin_value(c, pos)
                    else:  # DONE
                        raise self.fail(EXPECTING[DONE], pos)
                    i += 1
                elif state == NUMBER:
                    j = _NUMBER_RUN(text, i).end()
                    sub = self.number_state
                    k = i
                    while k < j:
                        nxt = NUMBER_NEXT.get((sub, text[k]))
                        if nxt is None:
                            break
                        sub = nxt
                        k += 1
                        if NUMBER_ACCEPTING[sub]:
                            self.number_valid = self.number_len + k - i
                    if k > i:
                        self.number.append(text[i:k])
                        self.number_len += k - i
                    self.number_state = sub
                    if sub >= N_DOT:
                        self.number_float = True
                    i = k
                    if i < n:  # the character at i cannot continue the number
                        if sub == N_MINUS and text[i] == "I":
                            self.literal = "-Infinity"
                            self.literal_len = 1
                            state = LITERAL
                        elif not NUMBER_ACCEPTING[sub]:
                            raise self.number_error()
                        else:
                            state = self.end_number()
                elif state == LITERAL:
                    literal = self.literal
                    if c != literal[self.literal_len]:
                        raise self.fail(ErrorKind.ExpectingValue, self.token_start)
                    self.literal_len += 1
                    i += 1
                    if self.literal_len == len(literal):
                        self.builder.atom(LITERAL_VALUES[literal])
                        state = self.after_value()
                elif state == ESCAPE:
                    i += 1
                    if c == "u":
                        self.hex = ""
                        state = UNICODE
                    else:
                        char = ESCAPES.get(c)
                        if char is None:
                            raise self.fail(ErrorKind.InvalidEscape, offset + i - 2)
                        self.parts.append(char)
                        self.string_dirty = True
                        state = STRING
                elif state == UNICODE:
                    if c not in HEX:
                        pos = offset + i - len(self.hex) - 1
                        raise self.fail(ErrorKind.InvalidUnicodeEscape, pos)
                    i += 1
                    self.hex += c
                    if len(self.hex) == 4:
                        self.escape_end = offset + i
                        state = self.end_escape(int(self.hex, 16))
                elif state == SURROGATE_BACKSLASH:
                    if c == "\\":
                        i += 1
                        state = SURROGATE_U
                    else:  # no low half: keep the lone surrogate, read c as string content
                        self.push_lone_high()
                        state = STRING
                elif c == "u":  # SURROGATE_U: the low half may follow
                    i += 1
                    self.hex = ""
                    state = UNICODE
                else:  # SURROGATE_U, another escape: keep the lone surrogate
                    self.push_lone_high()
                    state = ESCAPE  # the backslash is read; c is the escape's letter
        except MachineError:
            self.offset = offset + n
            raise
        finally:
            self.state = state
        self.offset = offset + n
        self.flush()

    def open_string(self) -> str | None:
        """The content of the string value still open, or None."""
        if STRING <= self.state <= SURROGATE_U and not self.in_key:
            return self._shown() + "".join(self.parts)
        return None

    def _shown(self) -> str:
        """The content shown so far, the pieces recorded in change mode joined once."""
        if self.recorded:
            self.shown += "".join(self.recorded)
            self.recorded = []
        return self.shown

    def show_string(self, text: str) -> None:
        """The string value still open grows by `text` (read since the last flush).

        CPython appends to a str in place when the `+=` holds its only reference, so the
        slot and `self.shown` let go of it first: the growth then costs the fragment, not
        the whole string. A string that the reader still holds is copied, as it must be.
        """
        builder = self.builder
        containers = builder.containers
        if self.parts:
            self.parts = []
        self.string_dirty = False
        if builder.changes is not None and builder.string_shown:
            # Change mode records only `text`; the slot is refreshed when the value is read.
            self.recorded.append(text)
            builder.grow_string(text)
        elif builder.string_shown and containers:
            shown = self.shown
            self.shown = ""
            top = containers[-1]
            slot = builder.key if type(top) is dict else -1
            top[slot] = None
            shown += text
            top[slot] = shown
            self.shown = shown
        else:  # shown for the first time, or the string is the root
            self.shown += text
            builder.string(self.shown, False)

    def _jiter_tentative(self) -> None:
        if NUMBER_ACCEPTING[self.number_state]:
            if self.number_float and self.number_len > LONG_NUMBER:
                text = self.number_digest.short_text(self.number)
            else:  # short, or an integer (at most the interpreter's limit on digits)
                text = "".join(self.number)
            self.builder.show_tentative(parse_number(text, self.number_float, self.token_start))
        else:
            self.builder.hide_tentative()

    def flush(self) -> None:
        """End of a fragment: show the string value still open, and in jiter mode the number."""
        state = self.state
        if STRING <= state <= SURROGATE_U:
            if not self.in_key and self.string_dirty:
                self.show_string("".join(self.parts))
        elif state == NUMBER and self.jiter_mode:
            self._jiter_tentative()

    def close(self) -> None:
        """The stream ended: finish a number, then insist that the document is complete."""
        state = self.state
        end = self.offset
        if state == NUMBER:
            if not NUMBER_ACCEPTING[self.number_state]:
                raise self.number_error()
            if self.stack:  # cut inside a container: the number may be cut too, never show it
                raise self.fail(EXPECTING[self.after_value()], end)
            state = self.state = self.end_number()
        if state == DONE:
            return
        if state <= OBJECT_NEXT:
            raise self.fail(EXPECTING[state], end)
        if state == UNICODE:
            raise self.fail(ErrorKind.InvalidUnicodeEscape, end - len(self.hex) - 1)
        if state == LITERAL:
            raise self.fail(ErrorKind.ExpectingValue, self.token_start)
        if self.escape_end == end and not self.dialect.escape_at_end_unterminated:
            # json's quirk before CPython gh-152052: a \uXXXX escape that ends the text
            raise self.fail(ErrorKind.InvalidUnicodeEscape, end - 5)
        raise self.fail(ErrorKind.UnterminatedString, self.token_start)

    @property
    def done(self) -> bool:
        return self.state == DONE

    def describe(self) -> str:
        """The state's name, for debugging and error messages."""
        return STATE_NAMES[self.state]

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

Every failure goes through one of the machine's error sites (`errors.Site`: a structural
character that fits nothing, a control character, a bad escape, bad hex digits, a broken
number or literal, a string cut short), which makes json's error, or asks the dialect's table
(`Machine.rules`) for another: PyPy's decoder has its own words and positions (twin/pypy.py,
`PyPyMachine`, the same states with PyPy's table). CPython's dialects need no table: their
differences (`Dialect`) are two transitions, as in Rust.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .builder import ATOM_FLOAT, ATOM_INT, ATOM_LITERAL, Builder, Invalid
from .errors import Dialect, ErrorKind, MachineError, Site
from .escape import ESCAPES, HEX_DIGITS, is_high_surrogate, is_low_surrogate, join_surrogates
from .number import NumberDigest

Rule = Callable[[int, int, str], MachineError]
"""A dialect's error at one site: (state, position of the character at fault or of the end,
that character or NUL at the end) -> the error."""
Rules = dict[Site, Rule]
NO_RULES: Rules = {}  # json's own errors everywhere: one empty table, shared, never changed

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

# The state order that the code relies on, as explicit tables (Rust: `State::is_structural`,
# `State::in_string`): structural states wait for one character between tokens; ESCAPING
# are the string's states other than its plain run.
STRUCTURAL = frozenset(range(VALUE, DONE + 1))
IN_STRING = frozenset(range(STRING, SURROGATE_U + 1))
ESCAPING = IN_STRING - {STRING}

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

# The structural transitions, as a table: STRUCTURE_NEXT[state][character] is the next
# state, or CLOSE (`]` or `}`: end the container) or OPEN_KEY (`"`: a key begins). A
# character not in its state's row begins a value in BEGINS_VALUE's states and is the error
# named in EXPECTING in the others.
CLOSE, OPEN_KEY = -1, -2
STRUCTURE_NEXT: list[dict[str, int]] = [
    {},  # VALUE
    {"]": CLOSE},  # ARRAY_FIRST
    {"]": CLOSE, ",": VALUE},  # ARRAY_NEXT
    {"}": CLOSE, '"': OPEN_KEY},  # OBJECT_FIRST
    {'"': OPEN_KEY},  # OBJECT_KEY
    {":": VALUE},  # OBJECT_COLON
    {"}": CLOSE, ",": OBJECT_KEY},  # OBJECT_NEXT
    {},  # DONE
]
BEGINS_VALUE = frozenset((VALUE, ARRAY_FIRST))

# Number sub-states. Accepting: ZERO, INT, FRAC, EXP_DIGITS (the text so far is a number).
N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_EXP, N_EXP_SIGN, N_EXP_DIGITS = range(8)
NUMBER_NAMES = ["MINUS", "ZERO", "INT", "DOT", "FRAC", "EXP", "EXP_SIGN", "EXP_DIGITS"]
NUMBER_ACCEPTING = (False, True, True, False, True, False, False, True)
NUMBER_FLOAT = (False, False, False, True, True, True, True, True)
"""The sub-state has seen a `.` or an exponent: the number is a float (Rust: `Num::is_float`)."""
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
WHITESPACE = " \t\n\r"

# Each pattern matches the empty string, so each match always succeeds: typed so.
_Run = Callable[[str, int], "re.Match[str]"]
_STRING_PLAIN: _Run = re.compile(r'[^"\\\x00-\x1f]*').match  # type: ignore[assignment]
_WHITESPACE_RUN: _Run = re.compile(r"[ \t\n\r]*").match  # type: ignore[assignment]
_NUMBER_RUN: _Run = re.compile(r"[0-9.eE+-]*").match  # type: ignore[assignment]


CLASSIC = Dialect()
"""json of CPython 3.9 to 3.12 (the engine passes the running interpreter's)."""


class Machine:
    """Reads text a fragment at a time; see the module docstring for the rules."""

    # Slotted: a server holds many open streams, and an instance dict would cost each of them
    # more than the machine's own state (#28).
    __slots__ = (
        "bom_skipped",
        "builder",
        "comma",
        "dialect",
        "end",
        "escape_end",
        "events",
        "hex",
        "high",
        "in_key",
        "jiter_mode",
        "line",
        "line_start",
        "literal",
        "literal_len",
        "max_depth",
        "number",
        "number_digest",
        "number_float",
        "number_len",
        "number_state",
        "number_valid",
        "offset",
        "parts",
        "rules",
        "stack",
        "state",
        "stop_at_end",
        "string_dirty",
        "token_start",
    )

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
        # String content read (decoded) and not yet handed to the builder: a key's whole text,
        # a value's text since the last flush (the builder holds what it has shown).
        self.parts: list[str] = []
        self.string_dirty = False  # the string value grew since the last flush
        self.hex = ""  # hex digits of a \u escape so far
        self.high = 0  # a high surrogate waiting for its low half, or 0
        self.escape_end = -1  # position just after the last \u escape
        # The number's text so far, in pieces (a str grown by += on an attribute is copied at
        # every append: quadratic in a long number fed a byte at a time).
        self.number: list[str] = []
        self.number_len = 0
        # jiter mode: a long float shown while it arrives; made for the first long float
        self.number_digest: NumberDigest | None = None
        self.number_state = N_MINUS
        self.number_float = False
        self.number_valid = 0  # length of the longest prefix that is a number
        self.literal = ""
        self.literal_len = 0
        # `stop_at_end`: once the document is complete, the first character after it that is
        # not whitespace ends the reading instead of being "Extra data"; `end` is its index
        # in the fragment being read (Rust: `Machine::set_stop_at_end`).
        self.stop_at_end = False
        self.end: int | None = None
        # The dialect's errors where they are not json's, by site (`reject`); CPython's: none.
        self.rules: Rules = NO_RULES
        # The builder takes positioned events too (Rust: `Sink::EVENTS`): a check rides on it
        # (twin/schema/checked.py's `CheckedSink`). Read once per token, never per character.
        self.events = False

    # -- transitions shared by many states ---------------------------------------------------

    def after_value(self) -> int:
        """The state after a complete value, by what is open around it."""
        if not self.stack:
            return DONE
        return OBJECT_NEXT if self.stack[-1] else ARRAY_NEXT

    def fail(self, kind: ErrorKind, pos: int, detail: object = None) -> MachineError:
        return MachineError(kind, pos, detail)

    def reject(
        self, site: Site, kind: ErrorKind, pos: int, cur: int, c: str = "\0", state: int = VALUE
    ) -> MachineError:
        """The error at one of the machine's error sites: json's `kind` at `pos`, unless the
        dialect's table has a rule for `site`, given the state, the position `cur` of the
        character `c` at fault (NUL and the end's position: the text ended)."""
        rule = self.rules.get(site)
        if rule is not None:
            return rule(state, cur, c)
        return MachineError(kind, pos)

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
            self.parts = []
            self.string_dirty = True
            return STRING
        if c == "{" or c == "[":
            if len(self.stack) >= self.max_depth:
                raise self.fail(ErrorKind.MaxDepth, pos, self.max_depth)
            is_object = c == "{"
            self.stack.append(is_object)
            self.token_start = pos
            self.builder.begin_container(is_object)
            return OBJECT_FIRST if is_object else ARRAY_FIRST
        if c == "-" or "0" <= c <= "9":
            self.token_start = pos
            self.number = [c]
            self.number_len = 1
            if self.number_digest is not None:
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
        raise self.reject(Site.UNEXPECTED, ErrorKind.ExpectingValue, pos, pos, c)

    def end_container(self, pos: int) -> int:
        """`}` or `]` at `pos`."""
        self.stack.pop()
        self.builder.end_container()
        if self.events:
            self.builder.container_ends(pos)
        return self.after_value()

    def end_number(self, pos: int) -> int:
        """The number is complete: at `pos`, the character after it (or the stream's end)."""
        text = "".join(self.number)
        self.number = []
        kind = ATOM_FLOAT if self.number_float else ATOM_INT
        try:
            self.builder.atom(kind, text)
        except Invalid as e:  # past the digit limit: a syntax error at the number
            raise self.fail(ErrorKind.Refused, self.token_start, e.msg) from None
        if self.events:
            self.builder.atom_ends(kind, text, pos)
        return self.after_value()

    def number_error(self, cur: int) -> MachineError:
        """The number stopped being one (at `cur`, the character that cannot continue it, or
        the end): json reports what follows its longest valid prefix."""
        if self.number_valid == 0:
            kind, pos = ErrorKind.ExpectingValue, self.token_start
        else:
            kind, pos = EXPECTING[self.after_value()], self.token_start + self.number_valid
        return self.reject(Site.BAD_NUMBER, kind, pos, cur)

    def unicode_error(self, cur: int) -> MachineError:
        """A `\\u` escape without its four hex digits (at `cur`, or the end)."""
        pos = cur - len(self.hex) - 1
        return self.reject(Site.BAD_HEX, ErrorKind.InvalidUnicodeEscape, pos, cur)

    def push_lone_high(self) -> None:
        """The high surrogate held found no low half: it is kept alone."""
        char = chr(self.high)
        self.parts.append(char)
        self.high = 0
        self.string_dirty = True
        if self.events:  # its escape is the last one ended: at `escape_end` - 1
            self.builder.string_text(char, self.escape_end - 1, False, False)

    def end_escape(self, code: int, pos: int) -> int:
        """Four hex digits read, the last at `pos`: a character, a held-back high surrogate,
        or a pair."""
        if self.high:
            if is_low_surrogate(code):
                code = join_surrogates(self.high, code)
                self.high = 0
            else:
                self.push_lone_high()
        if is_high_surrogate(code):
            self.high = code
            return SURROGATE_BACKSLASH
        char = chr(code)
        self.parts.append(char)
        self.string_dirty = True
        if self.events:
            self.builder.string_text(char, pos, False, False)
        return STRING

    def end_string(self) -> int:
        text = "".join(self.parts)
        self.parts = []
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
            # Twin only: STRING's plain run covering the whole fragment, what the loop and the
            # flush would do, without them (Rust's loop is one byte scan and needs no shortcut).
            # A printable text holds no control character; the rare legal unprintable ones
            # (NBSP, U+2028) take the loop. Nothing waits in `parts`: every feed flushes it.
            self.offset += len(text)
            if text:
                if self.events:
                    self.builder.string_text(text, self.offset - len(text), True, False)
                self.builder.string(text, False)
            return
        n = len(text)
        i = 0
        try:
            while i < n:
                state = self.state
                if state == STRING:
                    i = self.read_string(text, i, n)
                elif state in STRUCTURAL:
                    i = self.read_structure(text, i, n)
                elif state == NUMBER:
                    i = self.read_number(text, i, n)
                elif state == LITERAL:
                    i = self.read_literal(text, i, n)
                else:
                    i = self.read_escape(text, i, n)
        finally:
            end = self.end
            if end is not None:  # stopped at the document's end: only what it read counts
                text = text[:end]
            self.offset += len(text)
        self.flush()

    # -- the pieces of `feed`, one per family of states (Rust: the `read_*` of `run`) --------
    # Each reads while the state stays in its family, keeps `self.state` at the last state
    # reached (also when it raises), and returns where it stopped.

    def read_string(self, text: str, i: int, n: int) -> int:
        """STRING: plain characters in bulk, up to the closing quote or a backslash."""
        while True:
            j = _STRING_PLAIN(text, i).end()
            if j > i:
                run = text[i:j]
                self.parts.append(run)
                self.string_dirty = True
                if self.events:
                    closes = j < n and text[j] == '"'
                    self.builder.string_text(run, self.offset + i, True, closes)
            if j == n:
                return n
            c = text[j]
            i = j + 1
            if c == '"':
                if self.events:
                    self.builder.string_ends(self.offset + j)
                self.state = self.end_string()
                return i
            if c != "\\":
                cur = self.offset + j
                raise self.reject(Site.CONTROL, ErrorKind.InvalidControlCharacter, cur, cur, c)
            char = ESCAPES.get(text[i]) if i < n else None
            if char is None:
                self.state = ESCAPE
                return i
            # twin only: ESCAPE's transition while both are at hand, one trip round the
            # Python loop saved (a Rust state change costs none)
            self.parts.append(char)
            self.string_dirty = True
            if self.events:
                self.builder.string_text(char, self.offset + i, False, False)
            i += 1

    def read_structure(self, text: str, i: int, n: int) -> int:
        """The structural states: whitespace skipped, then one character's transition, while
        the state stays structural."""
        offset = self.offset
        state = self.state
        events = self.events
        try:
            while i < n and state in STRUCTURAL:
                c = text[i]
                if c in WHITESPACE:
                    j = _WHITESPACE_RUN(text, i).end()
                    newlines = text.count("\n", i, j)
                    if newlines:
                        self.line += newlines
                        self.line_start = offset + text.rfind("\n", i, j) + 1
                    i = j
                    continue
                if state == DONE and self.stop_at_end:
                    self.end = i
                    return n
                pos = offset + i
                nxt = STRUCTURE_NEXT[state].get(c)
                if nxt is None:
                    if state in BEGINS_VALUE:
                        state = self.begin_value(c, pos)
                        if events:
                            self.builder.value_begins(c, pos)
                    elif c == "}" and state == OBJECT_KEY and self.dialect.trailing_comma:
                        raise self.fail(ErrorKind.TrailingCommaInObject, self.comma[0])
                    else:
                        raise self.reject(Site.UNEXPECTED, EXPECTING[state], pos, pos, c, state)
                elif nxt == CLOSE:
                    state = self.end_container(pos)
                elif nxt == OPEN_KEY:
                    self.token_start = pos
                    self.in_key = True
                    self.parts = []
                    if events:
                        self.builder.key_begins(pos)
                    state = STRING
                else:  # after `,` (VALUE, OBJECT_KEY) or `:` (VALUE)
                    if c == "," and self.dialect.trailing_comma:
                        self.comma = (pos, self.line, self.line_start)
                    state = nxt
                i += 1
            return i
        finally:
            self.state = state

    def open_depth(self) -> int:
        """How many values along the live value's last path are still arriving: the open
        containers, and the string (or, in jiter mode, the number) shown at the end of them.
        Every value shown off that path, and deeper on it, is complete."""
        state = self.state
        open_scalar = (state in IN_STRING and not self.in_key) or (
            state == NUMBER and self.jiter_mode and NUMBER_ACCEPTING[self.number_state]
        )
        return len(self.stack) + open_scalar

    def read_number(self, text: str, i: int, n: int) -> int:
        """NUMBER: the sub-machine in NUMBER_NEXT until a character cannot continue the
        number, which ends it (that character is read again in the state after the value)."""
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
        if NUMBER_FLOAT[sub]:
            self.number_float = True
        if k < n:  # the character at k cannot continue the number
            if sub == N_MINUS and text[k] == "I":
                self.literal = "-Infinity"
                self.literal_len = 1
                self.state = LITERAL
            elif not NUMBER_ACCEPTING[sub]:
                raise self.number_error(self.offset + k)
            else:
                self.state = self.end_number(self.offset + k)
        return k

    def read_literal(self, text: str, i: int, n: int) -> int:
        """LITERAL: true, false, null, NaN, Infinity, -Infinity, letter by letter."""
        literal = self.literal
        while i < n:
            if text[i] != literal[self.literal_len]:
                cur = self.offset + i
                raise self.reject(Site.BAD_LITERAL, ErrorKind.ExpectingValue, self.token_start, cur)
            self.literal_len += 1
            i += 1
            if self.literal_len == len(literal):
                self.builder.atom(ATOM_LITERAL, literal)
                if self.events:
                    self.builder.atom_ends(ATOM_LITERAL, literal, self.offset + i - 1)
                self.state = self.after_value()
                break
        return i

    def read_escape(self, text: str, i: int, n: int) -> int:
        """The string's other states: ESCAPE, UNICODE (four hex digits), and after a high
        surrogate SURROGATE_BACKSLASH and SURROGATE_U (looking for its low half's `\\u`)."""
        offset = self.offset
        state = self.state
        try:
            while i < n and state in ESCAPING:
                c = text[i]
                if state == ESCAPE:
                    i += 1
                    if c == "u":
                        self.hex = ""
                        state = UNICODE
                    else:
                        char = ESCAPES.get(c)
                        if char is None:
                            cur = offset + i - 1  # c's position; json's: its backslash's
                            kind = ErrorKind.InvalidEscape
                            raise self.reject(Site.BAD_ESCAPE, kind, cur - 1, cur, c)
                        self.parts.append(char)
                        self.string_dirty = True
                        if self.events:
                            self.builder.string_text(char, offset + i - 1, False, False)
                        state = STRING
                elif state == UNICODE:
                    if c not in HEX_DIGITS:
                        raise self.unicode_error(offset + i)
                    i += 1
                    self.hex += c
                    if len(self.hex) == 4:
                        # The escape before this one is still `escape_end` while it is
                        # ended: a lone high surrogate it held is placed there.
                        state = self.end_escape(int(self.hex, 16), offset + i - 1)
                        self.escape_end = offset + i
                elif state == SURROGATE_BACKSLASH and c == "\\":
                    i += 1
                    state = SURROGATE_U
                elif state == SURROGATE_U and c == "u":  # the low half may follow
                    i += 1
                    self.hex = ""
                    state = UNICODE
                else:  # no low half: keep the lone surrogate; c is string content, or the
                    # letter of another escape (its backslash is read)
                    self.push_lone_high()
                    state = STRING if state == SURROGATE_BACKSLASH else ESCAPE
            return i
        finally:
            self.state = state

    def _jiter_tentative(self) -> None:
        if NUMBER_ACCEPTING[self.number_state]:
            if self.number_float and self.number_len > LONG_NUMBER:
                digest = self.number_digest
                if digest is None:
                    digest = self.number_digest = NumberDigest()
                text = digest.short_text(self.number)
            else:  # short, or an integer (at most the interpreter's limit on digits)
                text = "".join(self.number)
            try:
                self.builder.show_tentative(ATOM_FLOAT if self.number_float else ATOM_INT, text)
            except Invalid as e:  # past the digit limit: a syntax error at the number
                raise self.fail(ErrorKind.Refused, self.token_start, e.msg) from None
        else:
            self.builder.hide_tentative()

    def flush(self) -> None:
        """End of a fragment: show the string value still open, and in jiter mode the number."""
        state = self.state
        if state in IN_STRING:
            if not self.in_key and self.string_dirty:
                self.string_dirty = False
                text = "".join(self.parts)
                self.parts = []
                self.builder.string(text, False)
        elif state == NUMBER and self.jiter_mode:
            self._jiter_tentative()

    def close(self) -> None:
        """The stream ended: finish a number, then insist that the document is complete."""
        state = self.state
        end = self.offset
        if state == NUMBER:
            if not NUMBER_ACCEPTING[self.number_state]:
                raise self.number_error(end)
            if self.stack:  # cut inside a container: the number may be cut too, never show it
                after = self.after_value()
                raise self.reject(Site.UNEXPECTED, EXPECTING[after], end, end, "\0", after)
            state = self.state = self.end_number(end)
        if state == DONE:
            return
        if state in STRUCTURAL:
            raise self.reject(Site.UNEXPECTED, EXPECTING[state], end, end, "\0", state)
        if state == UNICODE:
            raise self.unicode_error(end)
        if state == LITERAL:
            raise self.reject(Site.BAD_LITERAL, ErrorKind.ExpectingValue, self.token_start, end)
        if self.escape_end == end and not self.dialect.escape_at_end_unterminated:
            # json's quirk before CPython gh-152052: a \uXXXX escape that ends the text
            kind, pos = ErrorKind.InvalidUnicodeEscape, end - 5
        else:
            kind, pos = ErrorKind.UnterminatedString, self.token_start
        raise self.reject(Site.UNTERMINATED, kind, pos, end, "\0", state)

    @property
    def done(self) -> bool:
        return self.state == DONE

    def debug_state(self) -> dict[str, Any]:
        """Where the machine is between fragments, for debugging and for the differential
        tests: a dict of the fields of `Machine::debug_state` (rust/core/machine.rs
        `DebugState`, whose fields say what each means), by name."""
        state = self.state
        in_key = state in IN_STRING and self.in_key
        in_number = state == NUMBER
        in_token = in_number or state == LITERAL or state in IN_STRING
        unicode = state == UNICODE
        return {
            "state": STATE_NAMES[state],
            "number": NUMBER_NAMES[self.number_state] if in_number else None,
            "depth": len(self.stack),
            "stack": "".join("{" if obj else "[" for obj in self.stack),
            "in_key": in_key,
            "key": sum(map(len, self.parts)) if in_key else None,
            "token_start": self.token_start if in_token else None,
            "literal": self.literal[: self.literal_len] if state == LITERAL else None,
            "hex": len(self.hex) if unicode else None,
            "hex_value": int(self.hex or "0", 16) if unicode else None,
            "high": self.high,
            "escape_end": self.escape_end if self.escape_end >= 0 else None,
            "number_len": self.number_len if in_number else None,
            "number_valid": self.number_valid if in_number else None,
            "line": self.line,
            "line_start": self.line_start,
            "comma": self.comma[0],
            "bom_skipped": self.bom_skipped,
            "offset": self.offset,
        }

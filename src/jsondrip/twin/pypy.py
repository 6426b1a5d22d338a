"""PyPy's json dialect, as data for the twin's machine: what PyPy's own decoder (`_pypyjson`,
the one its `json.loads` uses without hooks) raises where the machine finds a text invalid.
Twin only: PyPy has no native build, so the Rust core never speaks this dialect.

`PyPyMachine` is the machine (twin/machine.py) with PyPy's table of errors (`RULES`: one rule
per error site, `errors.Site`); its states and transitions are the machine's, unchanged. What
the rules need to know besides the machine's own state (positions in UTF-8 bytes, where the
open containers began, an object's keys) `PyPyErrors` gathers at the machine's edges: each
fragment as it comes and goes (`PyPyMachine.feed`), and the events the machine tells its
builder (`PyPySink`: a container opened or closed, a key).

PyPy's decoder (pypy/module/_pypyjson/interp_decoder.py, release 7.3.11) reads the text as
UTF-8 bytes followed by a NUL, and:

- counts every position in UTF-8 bytes (`"é" x`: Extra data at 5, CPython says 4), in the
  messages' `(char N)` too; json's JSONDecodeError then takes that number as a character
  index for the line and column;
- takes a NUL character for the end of the text, except after a complete document (Extra
  data);
- has its own words, with the offending character in some ("Unexpected 'x' when decoding
  array"), and its own positions: an unterminated array or object at the character after
  its bracket, a bad literal at its second character, a control character in a string one
  before it unless a backslash came earlier in that string, a bad `\\uXXXX` at the fourth
  character after the `u` (the first escape's, for the low half of a surrogate pair);
- reads a number as its longest valid prefix (C's strtod), except that `-` and `.` must be
  followed by a digit ("Expected digit").

A key that is not a string, after a comma, in an object PyPy has moved to a plain dict reads
"Key name must be string at char %d": after a repeated key or past 100 keys (the twin counts
them), or when PyPy's process-wide cache of key maps has blocked that object's keys, which
only PyPy's history decides: the twin asks PyPy's json then, with an object of the same keys.

One message is not reproduced, on purpose (docs/packaging.md says why): where the offending
character is not ASCII, PyPy puts its first UTF-8 byte alone into the message, which makes
an invalid str (whose text differs from run to run); the twin names the whole character.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from typing import Any

from .builder import Builder
from .errors import Dialect, ErrorKind, MachineError, Site
from .machine import (
    ARRAY_FIRST,
    ARRAY_NEXT,
    ESCAPE,
    IN_STRING,
    N_DOT,
    N_MINUS,
    OBJECT_COLON,
    OBJECT_FIRST,
    OBJECT_KEY,
    OBJECT_NEXT,
    SURROGATE_U,
    VALUE,
    Machine,
)

_LITERAL_NAMES = {"-Infinity": "Infinity"}
_MAX_MAP_SIZE = 100  # PyPy's JSONDecoder.MAX_MAP_SIZE: past it, an object is a plain dict


def utf8_length(text: str) -> int:
    """The length of `text` in UTF-8 bytes (a lone surrogate takes three, as in PyPy)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class PyPyErrors:
    """The PyPy dialect of one machine: where tokens and containers began (in UTF-8 bytes),
    and the error for each site where the machine fails (`RULES`)."""

    __slots__ = (
        "bytes_before",
        "cursor",
        "escaped",
        "keys",
        "machine",
        "newlines",
        "starts",
        "string_start",
        "text",
    )

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.bytes_before = 0  # UTF-8 bytes of the fragments read before the current one
        self.text = ""  # the fragment being read
        self.cursor = (0, 0)  # (index in `text`, UTF-8 bytes of text[:index]), moving forward
        # Open containers: (byte position of the bracket, its character position, line,
        # line start)
        self.starts: list[tuple[int, int, int, int]] = []
        # The string open at the end of the last fragment, if it began before the current
        # one: its quote's byte position, and whether a backslash came in it
        self.string_start = 0
        self.escaped = False
        # Open containers: an object's keys while PyPy may keep it on a key map (None for an
        # array, and for an object PyPy has moved to a plain dict)
        self.keys: list[dict[str, None] | None] = []
        # Character positions of the newlines read since the first non-ASCII character, while
        # a container is open: PyPy's json counts lines up to a byte position, which then lies
        # past the character at fault, and the newlines between count (newlines_between).
        self.newlines: list[int] = []

    # -- bookkeeping: fragments (PyPyMachine.feed) and the builder's events (PyPySink) -------

    def reading(self, text: str) -> None:
        """A fragment begins."""
        self.text = text
        self.cursor = (0, 0)

    def read(self, text: str) -> None:
        """A fragment has been read (its characters counted in `machine.offset`)."""
        machine = self.machine
        end = machine.offset
        start = end - len(text)
        if machine.state in IN_STRING:  # a string goes on into the next fragment
            opened = machine.token_start - start
            if opened >= 0:  # it began in this one
                self.string_start = self.bytes_before + utf8_length(text[:opened])
                self.escaped = "\\" in text[opened:]
            else:
                self.escaped = self.escaped or "\\" in text
        self.bytes_before += utf8_length(text)
        if self.bytes_before > end and "\n" in text:  # a non-ASCII character came
            at = text.find("\n")
            while at >= 0:
                self.newlines.append(start + at)
                at = text.find("\n", at + 1)
        self.text = ""
        self.cursor = (0, 0)

    def byte(self, pos: int) -> int:
        """The byte position of character position `pos`, which is in the fragment being read
        or at its end."""
        index = pos - self.machine.offset
        if index <= 0:
            return self.bytes_before + index  # the end (the fragment read), or its start
        at, count = self.cursor
        if index < at:
            at, count = 0, 0
        count += utf8_length(self.text[at:index])
        self.cursor = (index, count)
        return self.bytes_before + count

    def container_opened(self, is_object: bool) -> None:
        """The machine opened a container at its `token_start`."""
        machine = self.machine
        pos = machine.token_start
        self.starts.append((self.byte(pos), pos, machine.line, machine.line_start))
        self.keys.append({} if is_object else None)

    def container_closed(self) -> None:
        self.starts.pop()
        self.keys.pop()
        if not self.starts:
            self.newlines.clear()  # no position before here can be at fault any more

    def newlines_between(self, first: int, last: int) -> tuple[int, int]:
        """How many newlines were read at character positions first..last-1, and the position
        of the last of them (-1 if none)."""
        newlines = self.newlines
        i, j = bisect_left(newlines, first), bisect_left(newlines, last)
        return j - i, newlines[j - 1] if j > i else -1

    def key(self, key: str) -> None:
        """A key of the innermost object: a repeated one, or one past 100, moves PyPy to a
        plain dict."""
        keys = self.keys[-1]
        if keys is not None:
            if key in keys or len(keys) >= _MAX_MAP_SIZE:
                self.keys[-1] = None
            else:
                keys[key] = None

    def key_not_string(self, cur: int, at: int) -> MachineError:
        """A key must start here, after a comma: PyPy's words depend on how it holds the
        object (`keys`), and on its cache of key maps, which its json tells."""
        keys = self.keys[-1]
        if keys is not None:
            same_keys = ",".join(json.dumps(key) + ":0" for key in keys)
            try:
                json.loads("{" + same_keys + ",0}")
            except json.JSONDecodeError as e:
                if e.msg != ErrorKind.PyPyKeyNotStringInDict.value:
                    return self.fail(ErrorKind.PyPyKeyNotString, cur, at)
        return self.fail(ErrorKind.PyPyKeyNotStringInDict, cur, at)

    def open_string(self, cur: int) -> tuple[int, bool]:
        """The open string's quote in bytes, and whether a backslash came in it before `cur`
        (the position being read in the current fragment, or the end)."""
        machine = self.machine
        opened = machine.token_start - machine.offset
        if opened >= 0:  # it began in the fragment being read
            return self.byte(machine.token_start), "\\" in self.text[opened : cur - machine.offset]
        return self.string_start, self.escaped or "\\" in self.text[: cur - machine.offset]

    # -- the errors --------------------------------------------------------------------------

    def fail(self, kind: ErrorKind, cur: int, at: int, detail: object = None) -> MachineError:
        """The error at character position `at`, counted in bytes from `cur` (the character
        being read, or the end): PyPy's positions near `cur` are `cur`'s byte position plus
        the characters between, which are ASCII (a token's), or which PyPy adds as bytes."""
        machine = self.machine
        pos = self.byte(cur) + at - cur
        return MachineError(kind, pos, detail, (at, cur, machine.line, machine.line_start))

    def unterminated(self, is_object: bool) -> MachineError:
        """The text ended (or a NUL came) after a value in the innermost container."""
        byte, pos, line, line_start = self.starts[-1]
        kind = ErrorKind.PyPyUnterminatedObject if is_object else ErrorKind.PyPyUnterminatedArray
        return MachineError(kind, byte + 1, None, (pos + 1, pos, line, line_start))

    def structural(self, state: int, cur: int, c: str, at: int | None = None) -> MachineError:
        """Site.UNEXPECTED: character `c` (NUL: the end) at `cur` fits no transition of
        structural `state` (reported at `at`, by default `cur`)."""
        at = cur if at is None else at
        if state in (VALUE, ARRAY_FIRST):
            return self.fail(ErrorKind.PyPyUnexpected, cur, at, c)
        if state == ARRAY_NEXT:
            if c == "\0":
                return self.unterminated(False)
            return self.fail(ErrorKind.PyPyUnexpectedInArray, cur, at, c)
        if state == OBJECT_NEXT:
            if c == "\0":
                return self.unterminated(True)
            return self.fail(ErrorKind.PyPyUnexpectedInObject, cur, at, c)
        if state == OBJECT_KEY:
            return self.key_not_string(cur, at)
        if state == OBJECT_FIRST:
            return self.fail(ErrorKind.PyPyKeyNotString, cur, at)
        if state == OBJECT_COLON:
            return self.fail(ErrorKind.PyPyNoColon, cur, at)
        return self.fail(ErrorKind.ExtraData, cur, at)

    def control(self, state: int, cur: int, c: str) -> MachineError:
        """Site.CONTROL: a control character in a string: NUL ends the text; another is
        reported one character early, unless a backslash came before it in the string."""
        if c == "\0":
            return self.unterminated_string(state, cur, c)
        at = cur if self.open_string(cur)[1] else cur - 1
        return self.fail(ErrorKind.InvalidControlCharacter, cur, at)

    def unterminated_string(self, state: int, cur: int, c: str) -> MachineError:
        """Site.UNTERMINATED: the text ended in a string; in an escape, a backslash before
        the end."""
        if state in (ESCAPE, SURROGATE_U):
            return self.escape(state, cur, "\0")
        machine = self.machine
        located = (machine.token_start, machine.token_start, machine.line, machine.line_start)
        byte = self.open_string(cur)[0]
        return MachineError(ErrorKind.UnterminatedString, byte, None, located)

    def escape(self, state: int, cur: int, c: str) -> MachineError:
        """Site.BAD_ESCAPE: a backslash (just before `cur`) followed by `c`, which makes no
        escape."""
        backslash = self.byte(cur) - 1
        detail = f"(char {backslash})" if c <= " " else f"{c} (char {backslash})"
        return self.fail(ErrorKind.PyPyInvalidEscape, cur, cur - 1, detail)

    def unicode_escape(self, state: int, cur: int, c: str) -> MachineError:
        """Site.BAD_HEX: a `\\u` escape not followed by four hex digits (the one after a high
        surrogate, whose low half is being read, is reported at the high surrogate's
        escape)."""
        machine = self.machine
        # the fourth character after the `u` of the escape (the first one's: its end, less 1)
        first_u = machine.escape_end - 5 if machine.high else cur - len(machine.hex) - 1
        at = first_u + 4
        return self.fail(ErrorKind.PyPyInvalidUnicodeEscape, cur, at)

    def literal(self, state: int, cur: int, c: str) -> MachineError:
        """Site.BAD_LITERAL: the literal being read is not one (the character at `cur`
        differs, or the end)."""
        machine = self.machine
        literal = machine.literal
        at = machine.token_start + (2 if literal == "-Infinity" else 1)
        return self.fail(ErrorKind.PyPyLiteral, cur, at, _LITERAL_NAMES.get(literal, literal))

    def number(self, state: int, cur: int, c: str) -> MachineError:
        """Site.BAD_NUMBER: the number stopped being one at `cur`: a `-` or a `.` without its
        digit; else an exponent without digits, which PyPy leaves out of the number, so that
        its `e` is what comes after the value."""
        machine = self.machine
        if machine.number_state in (N_MINUS, N_DOT):
            return self.fail(ErrorKind.PyPyExpectedDigit, cur, cur)
        valid = machine.number_valid
        e = "".join(machine.number)[valid]
        return self.structural(machine.after_value(), cur, e, machine.token_start + valid)


RULES = {
    Site.UNEXPECTED: PyPyErrors.structural,
    Site.CONTROL: PyPyErrors.control,
    Site.BAD_ESCAPE: PyPyErrors.escape,
    Site.BAD_HEX: PyPyErrors.unicode_escape,
    Site.BAD_NUMBER: PyPyErrors.number,
    Site.BAD_LITERAL: PyPyErrors.literal,
    Site.UNTERMINATED: PyPyErrors.unterminated_string,
}
"""PyPy's table: the rule for each of the machine's error sites (each called with the
state, the position at fault and the character there, NUL at the end)."""


class PyPySink:
    """The machine's builder in PyPy's dialect: the builder, told first to `PyPyErrors` where
    PyPy's errors need it (a container opened or closed, a key)."""

    __slots__ = ("atom", "builder", "errors", "hide_tentative", "show_tentative", "string")

    def __init__(self, builder: Builder, errors: PyPyErrors) -> None:
        self.builder = builder
        self.errors = errors
        self.string = builder.string
        self.atom = builder.atom
        self.show_tentative = builder.show_tentative
        self.hide_tentative = builder.hide_tentative

    def begin_container(self, is_object: bool) -> None:
        self.errors.container_opened(is_object)
        self.builder.begin_container(is_object)

    def end_container(self) -> None:
        self.errors.container_closed()
        self.builder.end_container()

    def set_key(self, key: str) -> None:
        self.errors.key(key)
        self.builder.set_key(key)


class PyPyMachine(Machine):
    """The machine speaking PyPy's json: the same states, PyPy's table of errors (`RULES`),
    and `PyPyErrors` told of each fragment and of the builder's events."""

    __slots__ = ("errors",)

    def __init__(
        self, builder: Builder, *, jiter_mode: bool, max_depth: int, dialect: Dialect
    ) -> None:
        super().__init__(builder, jiter_mode=jiter_mode, max_depth=max_depth, dialect=dialect)
        errors = self.errors = PyPyErrors(self)
        self.builder = PyPySink(builder, errors)  # type: ignore[assignment]
        self.rules = {site: getattr(errors, rule.__name__) for site, rule in RULES.items()}

    def feed(self, text: str) -> None:
        """Read one fragment (`Machine.feed`), its bytes counted."""
        errors = self.errors
        errors.reading(text)
        try:
            super().feed(text)
        finally:
            end = self.end  # stopped at the document's end: only what it read counts
            errors.read(text if end is None else text[:end])


def machine_for(dialect: Dialect) -> Any:
    """The machine class that speaks `dialect`."""
    return PyPyMachine if dialect.pypy else Machine

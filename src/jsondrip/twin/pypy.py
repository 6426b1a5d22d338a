"""PyPy's json errors, for the twin's machine: what PyPy's own decoder (`_pypyjson`, the one
its `json.loads` uses without hooks) raises where the machine finds a text invalid. Twin only:
PyPy has no native build, so the Rust core never speaks this dialect.

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

from .errors import ErrorKind, MachineError
from .machine import (
    ARRAY_FIRST,
    ARRAY_NEXT,
    DONE,
    ESCAPE,
    LITERAL,
    N_DOT,
    N_MINUS,
    NUMBER,
    NUMBER_ACCEPTING,
    OBJECT_COLON,
    OBJECT_FIRST,
    OBJECT_KEY,
    OBJECT_NEXT,
    STRUCTURAL,
    SURROGATE_U,
    UNICODE,
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
    and the error for each place the machine fails."""

    __slots__ = (
        "bytes_before",
        "cursor",
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
        self.string_start = 0  # byte position of the open string's quote
        # Open containers: an object's keys while PyPy may keep it on a key map (None for an
        # array, and for an object PyPy has moved to a plain dict)
        self.keys: list[dict[str, None] | None] = []
        # Character positions of the newlines read since the first non-ASCII character, while
        # a container is open: PyPy's json counts lines up to a byte position, which then lies
        # past the character at fault, and the newlines between count (newlines_between).
        self.newlines: list[int] = []

    # -- bookkeeping, called by the machine --------------------------------------------------

    def reading(self, text: str) -> None:
        """A fragment begins."""
        self.text = text
        self.cursor = (0, 0)

    def read(self, text: str) -> None:
        """A fragment has been read (its characters counted in `machine.offset`)."""
        self.bytes_before += utf8_length(text)
        end = self.machine.offset
        if self.bytes_before > end and "\n" in text:  # a non-ASCII character came
            start = end - len(text)
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

    def string_opened(self, pos: int) -> None:
        self.string_start = self.byte(pos)

    def container_opened(self, pos: int) -> None:
        machine = self.machine
        self.starts.append((self.byte(pos), pos, machine.line, machine.line_start))
        self.keys.append({} if machine.stack[-1] else None)

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

    def structural(self, state: int, c: str, cur: int, at: int) -> MachineError:
        """Character `c` (NUL: the end) at `at` fits no transition of structural `state`."""
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

    def control(self, c: str, cur: int) -> MachineError:
        """A control character in a string: NUL ends the text; another is reported one
        character early, unless a backslash came before it in the string."""
        if c == "\0":
            return self.unterminated_string()
        at = cur if self.machine.escaped else cur - 1
        return self.fail(ErrorKind.InvalidControlCharacter, cur, at)

    def unterminated_string(self) -> MachineError:
        machine = self.machine
        located = (machine.token_start, machine.token_start, machine.line, machine.line_start)
        return MachineError(ErrorKind.UnterminatedString, self.string_start, None, located)

    def escape(self, c: str, cur: int) -> MachineError:
        """A backslash (just before `cur`) followed by `c`, which makes no escape."""
        backslash = self.byte(cur) - 1
        detail = f"(char {backslash})" if c <= " " else f"{c} (char {backslash})"
        return self.fail(ErrorKind.PyPyInvalidEscape, cur, cur - 1, detail)

    def unicode_escape(self, cur: int) -> MachineError:
        """A `\\u` escape not followed by four hex digits (the one after a high surrogate
        is reported at the high surrogate's escape)."""
        machine = self.machine
        # the fourth character after the `u` of the escape (the first one's: its end, less 1)
        first_u = machine.escape_end - 5 if machine.high_lookahead else cur - len(machine.hex) - 1
        at = first_u + 4
        return self.fail(ErrorKind.PyPyInvalidUnicodeEscape, cur, at)

    def literal(self, cur: int) -> MachineError:
        """The literal being read is not one (the character at `cur` differs, or the end)."""
        machine = self.machine
        literal = machine.literal
        at = machine.token_start + (2 if literal == "-Infinity" else 1)
        return self.fail(ErrorKind.PyPyLiteral, cur, at, _LITERAL_NAMES.get(literal, literal))

    def number(self, cur: int) -> MachineError:
        """The number stopped being one at `cur`: a `-` or a `.` without its digit; else an
        exponent without digits, which PyPy leaves out of the number, so that its `e` is
        what comes after the value."""
        machine = self.machine
        if machine.number_state in (N_MINUS, N_DOT):
            return self.fail(ErrorKind.PyPyExpectedDigit, cur, cur)
        valid = machine.number_valid
        e = "".join(machine.number)[valid]
        return self.structural(machine.after_value(), e, cur, machine.token_start + valid)

    def close(self) -> None:
        """The text ended: complete, or PyPy's error for where it stands."""
        machine = self.machine
        state = machine.state
        end = machine.offset
        if state == NUMBER:
            if not NUMBER_ACCEPTING[machine.number_state]:
                raise self.number(end)
            if machine.stack:  # cut inside a container: never show the number
                raise self.structural(machine.after_value(), "\0", end, end)
            state = machine.state = machine.end_number()
        if state == DONE:
            return
        if state in STRUCTURAL:
            raise self.structural(state, "\0", end, end)
        if state == LITERAL:
            raise self.literal(end)
        if state == UNICODE:
            raise self.unicode_escape(end)
        if state in (ESCAPE, SURROGATE_U):  # a backslash, then the end
            raise self.escape("\0", end)
        raise self.unterminated_string()

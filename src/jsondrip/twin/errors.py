"""Error kinds and json dialects: the twin of rust/core/error.rs.

`ErrorKind` names what is wrong with the text (the members are named as the Rust variants, so
that the shared table tests/data/error_cases.json names both); `message` gives json's exact
words. `Dialect` says where json versions differ; `jsondrip._dialect` reads the running
interpreter's json and picks one.
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class ErrorKind(enum.Enum):
    """What is wrong with the text; the value is json's message (a template for the kinds
    that carry a detail)."""

    ExpectingValue = "Expecting value"
    """A value must start here (or, for a literal or number, the one started is no value)."""
    ExpectingComma = "Expecting ',' delimiter"
    """After a value in an array or object: `,` or the container's end must follow."""
    ExpectingPropertyName = "Expecting property name enclosed in double quotes"
    """A key in double quotes must start here."""
    ExpectingColon = "Expecting ':' delimiter"
    """A `:` must follow the key."""
    ExtraData = "Extra data"
    """Text after the complete document."""
    UnterminatedString = "Unterminated string starting at"
    """The string opened here is never closed."""
    InvalidControlCharacter = "Invalid control character at"
    """A raw control character (below U+0020) inside a string."""
    InvalidEscape = "Invalid \\escape"
    """A backslash followed by a letter that makes no escape."""
    InvalidUnicodeEscape = "Invalid \\uXXXX escape"
    """`\\u` not followed by four hex digits."""
    UnexpectedBom = "Unexpected UTF-8 BOM (decode using utf-8-sig)"
    """A str that opens with U+FEFF."""
    TrailingCommaInArray = "Illegal trailing comma before end of array"
    """json 3.13+: a `,` right before `]` (the position is the comma's)."""
    TrailingCommaInObject = "Illegal trailing comma before end of object"
    """json 3.13+: a `,` right before `}` (the position is the comma's)."""
    MaxDepth = "Maximum nesting depth of {} exceeded"
    """More containers open than `max_depth` allows (detail: the limit)."""
    MaxSize = "Document exceeds max_size of {} characters"
    """More characters than `max_size` allows (detail: the limit)."""
    InvalidUtf8 = "Invalid UTF-8 byte 0x{:02x}"
    """A byte that no UTF-8 text holds here (detail: the byte)."""
    Refused = "{}"
    """The builder refused a value (an integer past the digit limit; detail: its message)."""
    # PyPy's own decoder (_pypyjson, used by its json.loads): its words, which are not
    # CPython's; only the twin speaks them (PyPy has no native build). Positions are PyPy's too.
    PyPyUnexpected = "Unexpected '{}'"
    """A value must start here (detail: the character; at the end, NUL)."""
    PyPyUnexpectedInArray = "Unexpected '{}' when decoding array"
    """After a value in an array: neither `,` nor `]` (detail: the character)."""
    PyPyUnexpectedInObject = "Unexpected '{}' when decoding object"
    """After a value in an object: neither `,` nor `}` (detail: the character)."""
    PyPyUnterminatedArray = "Unterminated array starting at"
    """The text ends (or a NUL comes) after a value in the array opened just before here."""
    PyPyUnterminatedObject = "Unterminated object starting at"
    """The text ends (or a NUL comes) after a value in the object opened just before here."""
    PyPyKeyNotString = "Key name must be string at char"
    """A key in double quotes must start here."""
    PyPyKeyNotStringInDict = "Key name must be string at char %d"
    """The same, in an object PyPy has moved to a plain dict (PyPy leaves the `%d`)."""
    PyPyNoColon = "No ':' found at"
    """A `:` must follow the key."""
    PyPyLiteral = "Error when decoding {}"
    """The literal begun just before here is not one (detail: its name)."""
    PyPyExpectedDigit = "Expected digit"
    """After `-`, or after a `.`, a digit must come."""
    PyPyInvalidEscape = "Invalid \\escape: {}"
    """A backslash followed by a letter that makes no escape (detail: `x (char N)`, or
    `(char N)` for a character up to the space, N the backslash's position)."""
    PyPyInvalidUnicodeEscape = "Invalid \\uXXXX escape (char %d)"
    """`\\u` not followed by four hex digits (PyPy leaves the `%d` unformatted)."""

    def message(self, detail: object = None) -> str:
        """json's message for this kind."""
        return self.value if detail is None else self.value.format(detail)


class Site(enum.IntEnum):
    """Where the machine finds the text invalid: the keys of a dialect's table of errors
    (`Machine.rules`). At each site the machine makes json's error (rust/core/machine.rs
    makes the same there: the native backend speaks CPython's dialects only), unless the
    table has a rule for it: PyPy's (twin/pypy.py `RULES`)."""

    UNEXPECTED = 0
    """A structural state's character fits none of its transitions (NUL: the text ended)."""
    CONTROL = 1
    """A control character in a string."""
    BAD_ESCAPE = 2
    """A backslash, then a character that makes no escape."""
    BAD_HEX = 3
    """A `\\u` escape without its four hex digits."""
    BAD_NUMBER = 4
    """The number stopped being one (a character that cannot continue it, or the end)."""
    BAD_LITERAL = 5
    """The literal being read is not one."""
    UNTERMINATED = 6
    """The text ended inside a string (or one of its escapes)."""


class Dialect(NamedTuple):
    """Where json versions differ in what they report (the default: CPython 3.9 to 3.12)."""

    trailing_comma: bool = False
    """`[1,]` is TrailingCommaInArray at the comma (json 3.13+), not ExpectingValue at `]`."""
    escape_at_end_unterminated: bool = False
    """A text ending right after a whole `\\uXXXX` escape is an unterminated string (CPython
    gh-152052), not InvalidUnicodeEscape."""
    pypy: bool = False
    """PyPy's decoder (_pypyjson): its own messages, and positions counted in UTF-8 bytes
    (twin only: docs/packaging.md, "PyPy's json")."""


class MachineError(Exception):
    """Raised by the machine: a kind (with its detail) and a position; the stream turns it
    into the public JSONDecodeError with line, column and the text around the position."""

    def __init__(
        self,
        kind: ErrorKind,
        pos: int,
        detail: object = None,
        located: tuple[int, int, int, int] | None = None,
    ) -> None:
        super().__init__(kind, pos, detail)
        self.kind = kind
        self.pos = pos
        self.detail = detail
        # PyPy's errors, whose `pos` counts UTF-8 bytes: (the character position at fault, a
        # character position before the error's, the line of that one, that line's start)
        self.located = located

    @property
    def msg(self) -> str:
        """json's message."""
        return self.kind.message(self.detail)

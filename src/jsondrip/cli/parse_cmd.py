"""`jsondrip parse [FILE|-]`: the best-effort value of a possibly truncated JSON document.

The input may be a model's whole answer, as people paste it: the document is found as
`jsondrip.OutputParser` finds it, in a code fence, after `<think>` blocks, among prose; a
plain JSON document reads as before. Prints the value as JSON (indented, or one line with
`--compact`) and exits 0. Invalid JSON exits 1 with the message, the line and column, and
a caret under the offending character:

    jsondrip: <stdin>: invalid JSON: Expecting ',' delimiter at line 2, column 8 (character 14)
        2 |   "b": 2 "c": 3
          |          ^

The end of the input ends the document: a complete one prints its value (a top-level number
too: `printf 12` prints 12). An input that is only the start of a document prints its value;
with `--final` it is an error ("incomplete JSON: truncated at ...", the caret at the end of the
text). An input before any value has begun (empty, whitespace) has no value: exit 1 with a
message. The output is standard JSON: NaN or Infinity (also a number too large for a float,
`1e400`, which overflows to infinity, and is said so) is an error naming its path unless
`--allow-nan`. Works without rich.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import unicodedata

from .._changes import escape_token
from .._dialect import PYPY_DECODER
from .._errors import IncompleteJSONError, JSONDecodeError
from .._missing import MISSING
from .._parser import Parser
from ..output.parser import NO_DOCUMENT, OutputParser
from .errors import CLIError, UsageError, write_text
from .ndjson import dumps

__all__ = ["caret_excerpt", "format_error", "read_input", "run"]

_INCOMPLETE = IncompleteJSONError
LITERALS = ("true", "false", "null", "NaN", "Infinity")
"""The error of a valid start that ends too soon, once the library has one (else none)."""
GUTTER = 5
"""Width of the line-number column in the excerpt."""
WINDOW = 72
"""The most columns of the offending line that are shown; longer lines are cut around the caret."""


def read_input(name: str) -> bytes:
    """The bytes of file `name`, or of standard input for `-`; a file that cannot be read is a
    usage error."""
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror or error}") from error


def _char_width(char: str) -> int:
    """Terminal columns a character takes: 2 for wide East Asian characters, 0 for combining."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _visible(char: str) -> str:
    """A character as it can be shown on one line: a tab as a space (as the offending
    character, see caret_excerpt, as ␉), other control characters as their Unicode control
    pictures (U+2400...)."""
    code = ord(char)
    if char == "\t":
        return " "
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return char


def caret_excerpt(text: str, pos: int, lineno: int) -> str:
    """Two lines: the line holding character `pos` (numbered `lineno`), and a caret under it.

    A line wider than WINDOW columns is cut around the caret, the cuts marked with `…`.
    """
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start : len(text) if end == -1 else end]
    column = pos - start
    if line.endswith("\r") and column < len(line) - 1:
        line = line[:-1]
    chars = [_visible(char) for char in line]
    if column < len(line) and line[column] == "\t":
        chars[column] = "\u2409"  # the offending character itself: show that it is a tab
    widths = [_char_width(char) for char in chars]
    # Cut the line to at most WINDOW columns, keeping the caret about a third from the left.
    first, last = 0, len(chars)
    if sum(widths) > WINDOW:
        first = column
        used = widths[column] if column < len(chars) else 1
        while first > 0 and used + widths[first - 1] <= WINDOW // 3:
            first -= 1
            used += widths[first]
        last = column + 1 if column < len(chars) else column
        while last < len(chars) and used + widths[last] <= WINDOW - 2:
            used += widths[last]
            last += 1
    shown = ("…" if first > 0 else "") + "".join(chars[first:last])
    shown += "…" if last < len(chars) else ""
    offset = (1 if first > 0 else 0) + sum(widths[first:column])
    number = str(lineno).rjust(GUTTER)
    return f"{number} | {shown}\n{' ' * GUTTER} | {' ' * offset}^\n"


def format_error(text: str, error: JSONDecodeError, source: str, *, incomplete: bool) -> str:
    """The full message for a decoding error: what and where, then the caret excerpt.

    An incomplete document (a valid start that ends too soon) is shown where its text ends,
    after the last character that is not a blank, whatever the parser expected there.
    """
    if incomplete:
        return _truncated(text, error, source)
    pos, lineno, colno = error.pos, error.lineno, error.colno
    if PYPY_DECODER and not text.isascii():  # PyPy's json counts UTF-8 bytes: show characters
        pos = character_index(text, pos)
        lineno = text.count("\n", 0, pos) + 1
        colno = pos - text.rfind("\n", 0, pos)
    where = f"line {lineno}, column {colno} (character {pos})"
    head = f"jsondrip: {source}: invalid JSON: {error.msg}{_joint(error.msg)}{where}\n"
    return head + caret_excerpt(text, pos, lineno)


def character_index(text: str, byte_pos: int) -> int:
    """The index of the character at UTF-8 byte `byte_pos` of `text` (PyPy's positions)."""
    return len(text.encode("utf-8", "surrogatepass")[:byte_pos].decode("utf-8", "ignore"))


def _truncated(text: str, error: JSONDecodeError, source: str) -> str:
    end = len(text.rstrip(" \t\r\n"))
    lineno = text.count("\n", 0, end) + 1
    colno = end - (text.rfind("\n", 0, end) + 1) + 1
    where = f"line {lineno}, column {colno} (character {end})"
    expected = error.msg
    start = error.pos
    if PYPY_DECODER and not text.isascii():
        start = character_index(text, start)
    if start < end:  # where the unfinished part began ("Unterminated string starting at")
        expected += f"{_joint(error.msg)}character {start}"
    head = (
        f"jsondrip: {source}: incomplete JSON: truncated at {where}, before the document is "
        f"complete ({expected})\n"
    )
    return head + caret_excerpt(text[:end], end, lineno)


def _joint(msg: str) -> str:
    """What joins a message and its position: "Unterminated string starting at" and "Invalid
    control character at" end with "at" already."""
    return " " if msg.endswith(" at") else " at "


def _decoded(data: bytes) -> str:
    """The text the parser read: UTF-8 without its BOM (bad bytes shown as U+FFFD)."""
    return data.decode("utf-8-sig", errors="replace")


def _read(data: bytes, args: argparse.Namespace) -> object:
    """The value of the input: the document of an answer, as `OutputParser` finds it. The
    input has ended, so a document that only its end completes (a top-level `12`) is complete;
    without `--final` a cut one shows what it can. An input with no document in it that
    starts as a top-level literal (`true`, `NaN`...), which an answer is never taken for, is
    read as plain JSON."""
    parser = OutputParser(mode=args.mode)
    parser.feed(data)
    try:
        return parser.close()
    except JSONDecodeError as error:
        if not args.final and isinstance(error, _INCOMPLETE):
            return parser.value  # the start of a document: what can be shown of it
        if error.msg != NO_DOCUMENT or not _starts_as_literal(_decoded(data)):
            raise
    plain = Parser(mode=args.mode)
    plain.feed(data)
    try:
        return plain.close()
    except JSONDecodeError as error:
        if args.final or not isinstance(error, _INCOMPLETE):
            raise
        return plain.value


def _starts_as_literal(text: str) -> bool:
    """The text starts with a JSON literal, or is cut inside one."""
    text = text.lstrip(" \t\r\n")[:8]
    return any(text.startswith(word) or word.startswith(text) for word in LITERALS) and bool(text)


def run(args: argparse.Namespace) -> int:
    """Run `jsondrip parse`; returns the exit status."""
    data = read_input(args.file)
    source = "<stdin>" if args.file == "-" else args.file
    try:
        value = _read(data, args)
    except JSONDecodeError as error:
        if args.debug:
            import traceback

            traceback.print_exc()
        incomplete = isinstance(error, _INCOMPLETE)
        write_text(sys.stderr, format_error(_decoded(data), error, source, incomplete=incomplete))
        return 1
    if value is MISSING:
        raise CLIError(
            f"{source}: no value yet: the input ends before a value has begun or is complete"
        )
    if not args.allow_nan:
        where = non_finite(value)
        if where is not None:
            if _spells_non_finite(_decoded(data)):
                what = "is NaN or Infinity"
            else:  # no such literal in the text: a number too large for a float
                what = "is a number too large for a float: it overflowed to infinity"
            raise CLIError(
                f"{source}: the value at {where!r} {what}, which standard JSON "
                "cannot hold (jq and strict readers reject it): pass --allow-nan to print it "
                "as NaN, Infinity or -Infinity"
            )
    text = dumps(value, indent=None if args.compact else 2)
    write_text(sys.stdout, text + "\n")
    return 0


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NON_FINITE = re.compile(r"NaN|Infinity")


def _spells_non_finite(text: str) -> bool:
    """Whether the JSON text holds a `NaN` or `Infinity` literal (outside its strings); if not,
    an infinite value came from a number too large for a float (`1e400`)."""
    return _NON_FINITE.search(_STRING.sub('""', text)) is not None


def non_finite(value: object) -> str | None:
    """The JSON Pointer of the first NaN, Infinity or -Infinity in `value`, or None."""
    pending: list[tuple[str, object]] = [("", value)]
    while pending:
        path, item = pending.pop()
        if type(item) is float and not math.isfinite(item):
            return path
        if type(item) is dict:
            children = [(f"{path}/{escape_token(key)}", v) for key, v in item.items()]
        elif type(item) is list:
            children = [(f"{path}/{index}", v) for index, v in enumerate(item)]
        else:
            continue
        pending.extend(reversed(children))
    return None

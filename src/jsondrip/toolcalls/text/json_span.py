"""Where one JSON value ends, told as its text arrives: strings, nesting, a top-level scalar.

The families that write a call as JSON (hermes, llama3-json, mistral) need to know where the
arguments' value ends inside the call's JSON, so that the parser gets exactly the argument
text. `JsonSpan` follows only what decides that: whether the text is inside a string (and
after a backslash), and the nesting depth of `{`/`[` against `}`/`]`. It does not check the
JSON: the call's parser does, and says where it breaks.

Outside strings it also watches for the family's markers (`</tool_call>`, `[TOOL_CALLS]`):
markup there means the value was cut short (the parser then reports the call incomplete),
while the same text inside a string is just text. With `string_stops` it also stops at a
marker inside a string, so that the reader can check that the JSON before it is still valid
before reading on (a string that only looks open because the JSON broke earlier must not hide
the call's closing marker). The search jumps from one character that
matters to the next with a compiled pattern, so a fragment costs time in proportion to its
length.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .markers import Markers

if TYPE_CHECKING:
    from .reader import TextReader

__all__ = ["ENDED", "HELD", "IN_STRING", "MORE", "STOPPED", "JsonSpan", "scan_string"]

MORE, ENDED, STOPPED, HELD, IN_STRING = range(5)
"""What `JsonSpan.scan` found: the value goes on past the text; it ended; a marker cut it;
a marker may begin where it stopped (wait for the next fragment); with `string_stops`, a
marker inside a string (text, unless the JSON before it broke: see `Envelope`)."""

_BEFORE, _STRING, _CONTAINER, _SCALAR, _DONE = range(5)
_STRING_STOP = re.compile(r'["\\]')
_SCALAR_CHARS = re.compile(r"[0-9A-Za-z.+\-]*")
_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}


def scan_string(buf: str, i: int, escape: bool) -> tuple[int, bool, bool]:
    """Read string text from `i` (after its opening quote): `(j, closed, escape)` where
    `closed` says the closing quote is at `j - 1`, else `j == len(buf)`; `escape` says the
    text ended just after a backslash."""
    end = len(buf)
    while i < end:
        if escape:
            escape = False
            i += 1
            continue
        found = _STRING_STOP.search(buf, i)
        if found is None:
            return end, False, False
        i = found.end()
        if found.group() == '"':
            return i, True, False
        escape = True
    return end, False, escape


class JsonSpan:
    """The extent of one JSON value, read from its first character; see the module."""

    __slots__ = (
        "_hex_left",
        "_pattern",
        "_string_pattern",
        "content_at",
        "depth",
        "escape",
        "markers",
        "mode",
    )

    def __init__(self, markers: Markers | None = None, string_stops: bool = False) -> None:
        self.markers = markers
        firsts = markers.firsts if markers is not None else frozenset()
        pattern = _PATTERNS.get(firsts)
        if pattern is None:
            extra = "".join(re.escape(c) for c in sorted(firsts - set('"{}[]')))
            pattern = _PATTERNS[firsts] = re.compile(f'["{{}}\\[\\]{extra}]')
        self._pattern = pattern
        self._string_pattern: re.Pattern[str] | None = None
        if string_stops and firsts:
            extra = "".join(re.escape(c) for c in sorted(firsts - set('"\\')))
            self._string_pattern = re.compile(f'["\\\\{extra}]')
        self.content_at = -1  # the text position of a marker in a string read as text
        self._hex_left = 0  # hex digits a `\\u` escape still needs (with `string_stops`)
        self.mode = _BEFORE
        self.depth = 0
        self.escape = False

    @property
    def done(self) -> bool:
        """The value has ended."""
        return self.mode == _DONE

    @property
    def started(self) -> bool:
        """A first character of the value has been read."""
        return self.mode != _BEFORE

    def scan(self, reader: TextReader, buf: str, i: int) -> tuple[int, int]:
        """Read the value's text from `buf[i]`: `(j, what)`; `buf[i:j]` is the value's text
        and `what` is MORE (`j` is the end of `buf`), ENDED, STOPPED or HELD (a marker, whole
        or possibly cut, starts at `j`)."""
        end = len(buf)
        k = i
        markers = self.markers
        while k < end:
            mode = self.mode
            if mode == _STRING:
                if self._string_pattern is not None:
                    k, what = self._string_stops(reader, buf, k)
                    if what != ENDED:
                        return k, what
                    closed = True
                else:
                    k, closed, self.escape = scan_string(buf, k, self.escape)
                if not closed:
                    return end, MORE
                if self.depth == 0:
                    self.mode = _DONE
                    return k, ENDED
                self.mode = _CONTAINER
            elif mode == _CONTAINER:
                found = self._pattern.search(buf, k)
                if found is None:
                    return end, MORE
                k = found.start()
                c = found.group()
                if markers is not None and c in markers.firsts:
                    marker = reader.at(markers, buf, k)
                    if marker:
                        return k, STOPPED
                    if marker == "":
                        return k, HELD
                if c == '"':
                    self.mode = _STRING
                elif c == "{" or c == "[":
                    self.depth += 1
                elif c == "}" or c == "]":
                    self.depth -= 1
                    if self.depth == 0:
                        self.mode = _DONE
                        return k + 1, ENDED
                k += 1
            elif mode == _SCALAR:
                k = _SCALAR_CHARS.match(buf, k).end()  # type: ignore[union-attr]
                if k == end:
                    return end, MORE  # `12` may go on: only what follows ends it
                self.mode = _DONE
                return k, ENDED
            elif mode == _BEFORE:
                c = buf[k]
                if markers is not None and c in markers.firsts:
                    marker = reader.at(markers, buf, k)
                    if marker:
                        return k, STOPPED
                    if marker == "":
                        return k, HELD
                if c == "{" or c == "[":
                    self.mode = _CONTAINER
                    self.depth = 1
                    k += 1
                elif c == '"':
                    self.mode = _STRING
                    k += 1
                else:
                    self.mode = _SCALAR
            else:
                return k, ENDED
        return end, MORE

    def _string_stops(self, reader: TextReader, buf: str, k: int) -> tuple[int, int]:
        """String text with `string_stops`: `(j, ENDED)` after the closing quote, or where
        the text ends (MORE) or a marker stands (IN_STRING, or HELD if it may be one)."""
        end = len(buf)
        pattern = self._string_pattern
        markers = self.markers
        assert pattern is not None and markers is not None
        firsts = markers.firsts
        while k < end:
            if self.escape or self._hex_left:
                # inside an escape: a marker's first character there is an escape no JSON
                # has (`\<`, `\u00<`): stop before it (the JSON before it is checked) and
                # right after it (the parser refuses it before the marker is read as text)
                c = buf[k]
                if c in firsts and reader.position(k) != self.content_at:
                    return k, IN_STRING
                if self.escape:
                    self.escape = False
                    self._hex_left = 4 if c == "u" else 0
                else:
                    self._hex_left -= 1
                k += 1
                if c in firsts:
                    self._hex_left = 0
                    return k, IN_STRING
                continue
            found = pattern.search(buf, k)
            if found is None:
                return end, MORE
            k = found.start()
            c = found.group()
            if c == '"':
                return k + 1, ENDED
            if c == "\\":
                self.escape = True
                k += 1
                continue
            if reader.position(k) != self.content_at:
                marker = reader.at(markers, buf, k)
                if marker:
                    return k, IN_STRING
                if marker == "":
                    return k, HELD
            k += 1
        return end, MORE

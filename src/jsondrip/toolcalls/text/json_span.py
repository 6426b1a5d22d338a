"""Where one JSON value ends, told as its text arrives: strings, nesting, a top-level scalar.

The families that write a call as JSON (hermes, llama3-json, mistral) need to know where the
arguments' value ends inside the call's JSON, so that the parser gets exactly the argument
text. `JsonSpan` follows only what decides that: whether the text is inside a string (and
after a backslash), and the nesting depth of `{`/`[` against `}`/`]`. It does not check the
JSON: the call's parser does, and says where it breaks.

Outside strings it also watches for the family's markers (`</tool_call>`, `[TOOL_CALLS]`):
markup there means the value was cut short (the parser then reports the call incomplete),
while the same text inside a string is just text. The search jumps from one character that
matters to the next with a compiled pattern, so a fragment costs time in proportion to its
length.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .markers import Markers

if TYPE_CHECKING:
    from .reader import TextReader

__all__ = ["ENDED", "HELD", "MORE", "STOPPED", "JsonSpan", "scan_string"]

MORE, ENDED, STOPPED, HELD = range(4)
"""What `JsonSpan.scan` found: the value goes on past the text; it ended; a marker cut it;
a marker may begin where it stopped (wait for the next fragment)."""

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

    __slots__ = ("_pattern", "depth", "escape", "markers", "mode")

    def __init__(self, markers: Markers | None = None) -> None:
        self.markers = markers
        firsts = markers.firsts if markers is not None else frozenset()
        pattern = _PATTERNS.get(firsts)
        if pattern is None:
            extra = "".join(re.escape(c) for c in sorted(firsts - set('"{}[]')))
            pattern = _PATTERNS[firsts] = re.compile(f'["{{}}\\[\\]{extra}]')
        self._pattern = pattern
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

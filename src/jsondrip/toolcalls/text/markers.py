"""Find a family's markers in streamed text, with markers cut anywhere between fragments.

`Markers.scan(text, start)` answers two questions at once: where the first whole marker is,
and, when there is none, how much of the text's end could still be the start of one. Only
that tail is held back; everything before it is certainly not marker text and can be passed
on at once. The search is a compiled regular expression (linear), and the tail check looks
at most at the last `longest - 1` characters, so each fragment costs time in proportion to
its length whatever was read before it.
"""

from __future__ import annotations

import re

__all__ = ["Markers"]


class Markers:
    """A set of marker strings to look for in one state of a reader."""

    __slots__ = ("_firsts", "_longest", "_pattern", "strings")

    def __init__(self, *strings: str) -> None:
        if not strings or not all(strings):
            raise ValueError("markers must be non-empty strings")
        for a in strings:
            for b in strings:
                if a != b and b.startswith(a):
                    # a cut `b` would be found as a whole `a`
                    raise ValueError(f"marker {a!r} is a prefix of {b!r}")
        self.strings = strings
        ordered = sorted(strings, key=len, reverse=True)
        self.strings = tuple(ordered)
        self._pattern = re.compile("|".join(re.escape(s) for s in ordered))
        self._firsts = frozenset(s[0] for s in strings)
        self._longest = max(len(s) for s in strings)

    def find(self, text: str, start: int) -> re.Match[str] | None:
        """The first whole marker in `text[start:]`, or None."""
        return self._pattern.search(text, start)

    def partial(self, text: str, start: int) -> int:
        """Where the longest tail of `text[start:]` that is a proper prefix of a marker
        begins, or `len(text)` if no tail can begin one."""
        end = len(text)
        low = max(start, end - self._longest + 1)
        found = end
        for first in self._firsts:  # one or two characters: a `find` each, in C
            at = text.find(first, low, found)
            while at >= 0:
                tail = text[at:]
                if any(marker.startswith(tail) for marker in self.strings):
                    found = at  # the earliest such start: the longest tail
                    break
                at = text.find(first, at + 1, found)
        return found

    def scan(self, text: str, start: int) -> tuple[int, str | None]:
        """`(at, marker)` for the first whole marker from `start`; else `(hold, None)`:
        `text[start:hold]` holds no marker and `text[hold:]` may begin one."""
        found = self._pattern.search(text, start)
        if found is not None:
            return found.start(), found.group()
        return self.partial(text, start), None

    def at(self, text: str, at: int) -> str | None:
        """The marker that starts at `text[at]`, `""` if `text[at:]` is a proper prefix of one
        (wait for more text), or None if no marker starts there."""
        tail = text[at : at + self._longest]
        for marker in self.strings:
            if tail.startswith(marker):
                return marker
        if len(tail) < self._longest:
            for marker in self.strings:
                if marker.startswith(tail) and len(tail) < len(marker):
                    return ""
        return None

    @property
    def firsts(self) -> frozenset[str]:
        """The first character of every marker."""
        return self._firsts

    def __repr__(self) -> str:
        return f"Markers{self.strings!r}"

"""Newline-delimited JSON cut anywhere: bytes or str in, whole numbered lines out.

UTF-8 is decoded across chunk boundaries (invalid bytes become U+FFFD, as in the SSE decoder),
a leading BOM is dropped, `\\r\\n` counts as `\\n`, and blank lines are skipped. A line longer
than `max_line_size` characters raises ValueError instead of growing without limit.
"""

from __future__ import annotations

import codecs
from typing import Any

__all__ = ["LineSplitter"]


class LineSplitter:
    """Feed chunks; get `(line_number, text)` for each non-blank line they complete."""

    __slots__ = ("_pending", "_started", "_utf8", "max_line_size", "number")

    def __init__(self, max_line_size: int | None = None) -> None:
        self.max_line_size = max_line_size
        # bytes cut across chunks: made for the first bytes chunk
        self._utf8: Any = None
        self._pending = ""
        self.number = 0  # lines read so far, blank ones included
        self._started = False  # the BOM check is done

    @property
    def idle(self) -> bool:
        """Nothing is held (no cut line, no cut UTF-8 sequence) and the BOM check is done:
        a chunk that is one whole line can be read without this splitter (`count_one`)."""
        decoder = self._utf8
        return self._started and not self._pending and not (decoder and decoder.getstate()[0])

    def count_one(self) -> None:
        """A whole line was read past the splitter: count it."""
        self.number += 1

    def feed(self, chunk: bytes | bytearray | memoryview | str) -> list[tuple[int, str]]:
        """Read a chunk; return the whole non-blank lines it completes."""
        if isinstance(chunk, str):
            text = chunk
        else:
            decoder = self._utf8
            if decoder is None:
                decoder = self._utf8 = codecs.getincrementaldecoder("utf-8-sig")("replace")
            text = decoder.decode(bytes(chunk))
        if text and not self._started:
            self._started = True
            if text[0] == "\ufeff":  # a str's BOM (the bytes decoder drops its own)
                text = text[1:]
        if "\n" not in text:
            self._pending += text
            self._check()
            return []
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        self._check()
        return self._numbered(lines)

    def close(self) -> list[tuple[int, str]]:
        """The stream ended: the last line, if it had no newline."""
        decoder = self._utf8
        tail = self._pending + (decoder.decode(b"", final=True) if decoder else "")
        self._pending = ""
        return self._numbered([tail]) if tail.strip() else []

    def _numbered(self, lines: list[str]) -> list[tuple[int, str]]:
        out = []
        for line in lines:
            self.number += 1
            if line.strip():
                out.append((self.number, line.rstrip("\r")))
        return out

    def _check(self) -> None:
        limit = self.max_line_size
        if limit is not None and len(self._pending) > limit:
            size = len(self._pending)
            self._pending = ""
            raise ValueError(f"a line exceeds the limit ({size} > {limit} characters)")

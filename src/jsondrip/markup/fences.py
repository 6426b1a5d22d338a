"""Strip a markdown code fence around streamed JSON arguments, with the fence cut anywhere.

Some models wrap tool arguments in a fence (````json\\n{...}\\n````). `FenceStripper` sits
between the raw argument text and the parser: it passes text through untouched unless the
first non-blank characters are three backticks; then it drops the opening fence line, passes
the document, and once the document is complete accepts only blanks and the closing fence.

It never touches backticks inside the document (``"use `ls`"``): the closing fence is looked
for only after the parser says the document is complete.
"""

from __future__ import annotations

from typing import Callable

__all__ = ["FenceStripper"]

_START, _TICKS, _INFO, _BODY, _TAIL, _PASS = range(6)
_BLANK = " \t\r\n"


class FenceStripper:
    """Feeds the text inside an optional fence to `sink`; `done()` says the document is whole.

    `dropped` counts the characters held out of the parser before the document (the opening
    fence line), so a parser position plus `dropped` is a position in the raw text.
    `tail_error` is set to the raw position of the first character after the document that is
    not blank or part of the closing fence.
    """

    __slots__ = ("_done", "_sink", "_state", "_ticks", "content", "dropped", "fenced", "tail_error")

    def __init__(self, sink: Callable[[str], object], done: Callable[[], bool]) -> None:
        self._sink = sink
        self._done = done
        self._state = _START
        self._ticks = 0  # backticks seen in a row (opening or closing fence)
        self.dropped = 0
        self.content = False  # a non-blank character went to the sink
        self.fenced = False
        self.tail_error: int | None = None

    def feed(self, text: str, raw_pos: int) -> None:
        """Pass a fragment on; `raw_pos` is where it starts in the raw text."""
        state = self._state
        if state == _PASS:
            self._emit(text)
            return
        if state == _START:
            stripped = text.lstrip(_BLANK)
            if not stripped:
                self._emit(text)
                return
            if stripped[0] != "`":
                self._state = _PASS
                self._emit(text)
                return
            lead = len(text) - len(stripped)
            if lead:
                self._emit(text[:lead])
            raw_pos += lead
            text = stripped
            self._state = _TICKS
        if self._state == _TICKS:
            used = 0
            for ch in text:
                if ch != "`" or self._ticks == 3:
                    break
                self._ticks += 1
                used += 1
            if self._ticks < 3 and used == len(text):
                return  # all backticks so far: wait for more
            if self._ticks < 3:  # not a fence: the parser will say what is wrong
                self._state = _PASS
                self._emit("`" * self._ticks + text[used:])
                return
            self.fenced = True
            self.dropped += 3  # the three backticks, also when they came in several pieces
            self._ticks = 0
            text = text[used:]
            raw_pos += used
            self._state = _INFO
        if self._state == _INFO:
            newline = text.find("\n")
            if newline < 0:
                self.dropped += len(text)
                return
            self.dropped += newline + 1
            raw_pos += newline + 1
            text = text[newline + 1 :]
            self._state = _BODY
        if self._state == _BODY:
            while text:
                tick = text.find("`")
                if tick < 0:
                    self._emit(text)
                    return
                if tick:
                    self._emit(text[:tick])
                if self._done():
                    self._state = _TAIL
                    text = text[tick:]
                    raw_pos += tick
                    break
                self._emit("`")
                text = text[tick + 1 :]
                raw_pos += tick + 1
        if self._state == _TAIL:
            self._tail(text, raw_pos)

    def _emit(self, text: str) -> None:
        if not self.content and text.strip(_BLANK):
            self.content = True
        self._sink(text)

    def _tail(self, text: str, raw_pos: int) -> None:
        if self.tail_error is not None:
            return
        for offset, ch in enumerate(text):
            if ch == "`" and self._ticks < 3:
                self._ticks += 1
            elif ch in _BLANK and self._ticks in (0, 3):
                continue
            else:
                self.tail_error = raw_pos + offset
                return

    @property
    def closed_cleanly(self) -> bool:
        """False when a fence was opened after the document and left with 1 or 2 backticks."""
        return self._ticks in (0, 3) or self._state != _TAIL

"""The text around the JSON: prose, reasoning blocks and code fences, read as they stream.

`TextReader` walks a model's text (cut anywhere) and sorts each character into prose,
reasoning, a fence's markup, or a JSON value, which it hands to a `Candidate`
(document.py). It judges what follows a complete value that is not proven yet (the end of
the text, a closing fence, a line break), and keeps back only what it cannot decide yet: a
tail that may begin a tag or a fence (`<thi`, two backticks), never longer than a tag. Every
decision is a function of the text, never of where it was cut.

Where a document is expected, an *answer start* (the text's start, the start of a fence's
body, the end of a reasoning block, the end of a document when several are read), blanks
keep it so; anything else written there is prose, and prose ends it.
"""

from __future__ import annotations

import re
from typing import Callable

from .._changes import Change
from ..markup.think import partial_tag
from .document import BLANKS, Candidate, Failure

__all__ = ["SCALAR_STARTS", "TextReader"]

PROSE, REASONING, FENCE_INFO, VALUE, AFTER = range(5)
_SPECIAL = re.compile(r"[<`{\[]")  # what may start a tag, a fence or a candidate in prose
_AFTER_SPECIAL = re.compile(r"[<`]")  # after the document: tags and its closing fence
SCALAR_STARTS = frozenset('"-0123456789')
"""A string or number's first character: a candidate only where a document is expected (a
top-level true, false or null is never taken for the document: prose starts so too often)."""
FIRST_SLICE = 16
"""The most text a value is given before it has read any (then twice what it has read)."""


class TextReader:
    """The reading state of one text: what is open (a reasoning block, a fence, a value)
    and what was read (`text` and `reasoning`, as lists of pieces).

    The owner (`OutputParser`) is called back: `start(answer, first)` makes the candidate
    for a value starting at `pos` (`answer`: where a document is expected; `first`: its
    first character), `proven(candidate)` when a candidate becomes the document,
    `ended(candidate)` when a document is complete and what follows is read (it returns the
    changes closing it made).
    """

    def __init__(
        self,
        tags: tuple[str, ...],
        multiple: bool,
        start: Callable[[bool, str], Candidate],
        proven: Callable[[Candidate], None],
        ended: Callable[[Candidate], list[Change]],
    ) -> None:
        self.openings = tuple(f"<{tag}>" for tag in tags)
        self._longest = max((len(tag) for tag in self.openings), default=0)
        self.multiple = multiple
        self._start = start
        self._proven = proven
        self._ended = ended
        self.state = PROSE
        self.answer = True  # only blanks since a point where a document is expected
        self.fence: int | None = None  # the backticks of the open fence
        self.fence_had_value = False
        self.closing: str | None = None  # the open reasoning block's closing tag
        self.candidate: Candidate | None = None
        self.held = ""  # a tail that may begin a tag or a fence
        self.pos = 0  # the text position of the next character to read
        self.line = 1  # the line of `pos`
        self.line_start = 0  # the position of that line's first character
        self.text: list[str] = []
        self.reasoning: list[str] = []

    # -- the walk -------------------------------------------------------------------------

    def read(self, text: str, changes: bool) -> list[tuple[Candidate, list[Change]]]:
        """Read a piece of text; return the changes each document made in it."""
        if self.held:
            text = self.held + text
            self.held = ""
        made: list[tuple[Candidate, list[Change]]] = []
        i, n = 0, len(text)
        while 0 <= i < n:
            state = self.state
            if state == VALUE:
                i = self._value(text, i, changes, made)
            elif state == REASONING:
                i = self._reasoning(text, i)
            elif state == FENCE_INFO:
                i = self._fence_info(text, i)
            else:
                i = self._prose(text, i, changes, made)
        return made

    def _advance(self, text: str, start: int, end: int) -> None:
        """`text[start:end]` was read: move `pos` and the line count past it."""
        newlines = text.count("\n", start, end)
        if newlines:
            self.line += newlines
            self.line_start = self.pos + (text.rfind("\n", start, end) - start) + 1
        self.pos += end - start

    def _hold(self, text: str, start: int) -> int:
        """Keep `text[start:]` for the next piece: it cannot be decided yet."""
        self.held = text[start:]
        return -1

    # -- prose ------------------------------------------------------------------------------

    def _prose(self, text: str, i: int, changes: bool, made: list) -> int:
        n = len(text)
        after = self.state == AFTER
        if self.answer and not after:
            j = i
            while j < n and text[j] in BLANKS:
                j += 1
            if j > i:
                self._keep(text, i, j)
                i = j
            if i == n:
                return n
            char = text[i]
            if char in "{[" or char in SCALAR_STARTS:
                return self._begin(text, i, True, changes, made)
            if char not in "<`":
                self.answer = False
        found = (_AFTER_SPECIAL if after else _SPECIAL).search(text, i)
        j = n if found is None else found.start()
        if j > i:
            self._keep(text, i, j)
            self.answer = False
        if j == n:
            return n
        char = text[j]
        if char == "<":
            return self._tag(text, j)
        if char == "`":
            return self._backticks(text, j)
        return self._begin(text, j, False, changes, made)

    def _keep(self, text: str, start: int, end: int) -> None:
        """Prose: kept as text."""
        self.text.append(text[start:end])
        self._advance(text, start, end)

    def _tag(self, text: str, i: int) -> int:
        for tag in self.openings:
            if text.startswith(tag, i):
                self.closing = "</" + tag[1:]
                self._advance(text, i, i + len(tag))
                self.state = REASONING
                return i + len(tag)
        tail = text[i : i + self._longest]
        if len(tail) == len(text) - i and any(tag.startswith(tail) for tag in self.openings):
            return self._hold(text, i)  # a tag cut short: what follows decides
        self._keep(text, i, i + 1)
        self.answer = False
        return i + 1

    def _backticks(self, text: str, i: int) -> int:
        j = i
        while j < len(text) and text[j] == "`":
            j += 1
        if j == len(text):
            return self._hold(text, i)  # the run may go on
        run = j - i
        if self.fence is not None and run >= self.fence:  # the closing fence: markup
            self.fence = None
            self._advance(text, i, j)
            self.answer = self.multiple and self.fence_had_value and self.state != AFTER
            return j
        if self.fence is None and run >= 3 and self.state != AFTER:  # an opening fence
            self.fence = run
            self.fence_had_value = False
            self._advance(text, i, j)
            self.state = FENCE_INFO
            return j
        self._keep(text, i, j)
        self.answer = False
        return j

    def _fence_info(self, text: str, i: int) -> int:
        """The fence's info string (its language tag, or anything to the end of its line):
        markup. The body starts on the next line, or at a `{` or `[` on this one."""
        n = len(text)
        j = i
        while j < n and text[j] not in "\n{[":
            j += 1
        if j < n and text[j] == "\n":
            j += 1
        self._advance(text, i, j)
        if j == n and text[j - 1 : j] != "\n":
            return n
        self.state = PROSE
        self.answer = True
        return j

    def _reasoning(self, text: str, i: int) -> int:
        closing = self.closing
        assert closing is not None
        at = text.find(closing, i)
        if at < 0:
            keep = partial_tag(text[i:], (closing,))
            end = len(text) - keep
            if end > i:
                self.reasoning.append(text[i:end])
                self._advance(text, i, end)
            return self._hold(text, end) if keep else len(text)
        if at > i:
            self.reasoning.append(text[i:at])
        self._advance(text, i, at + len(closing))
        self.closing = None
        if self.state == REASONING:
            self.state = self._resume
            self.answer = self.state == PROSE
        return at + len(closing)

    @property
    def _resume(self) -> int:
        """The state a reasoning block returns to: after the document, or prose."""
        return AFTER if self.finished else PROSE

    finished = False  # (single document) the document is complete: the rest is prose

    # -- values -----------------------------------------------------------------------------

    def _begin(self, text: str, i: int, answer: bool, changes: bool, made: list) -> int:
        self.candidate = self._start(answer, text[i])
        self.state = VALUE
        return self._value(text, i, changes, made)

    def _value(self, text: str, i: int, changes: bool, made: list) -> int:
        """Give the value the text that follows, in slices that grow with what it has read:
        a value that fails after a few characters has cost a few characters (and a slice),
        however long the piece, so the search stays linear in the text."""
        candidate = self.candidate
        assert candidate is not None
        n = len(text)
        while True:
            end = min(n, i + max(FIRST_SLICE, 2 * candidate.fed))
            was_proven = candidate.proven
            try:
                stop, found = candidate.feed(text if i == 0 and end == n else text[i:end], changes)
            except Failure as failure:
                if failure.proven:
                    if not was_proven:  # proven within the piece that broke it
                        self._proven(candidate)
                    raise
                return self._abandon(candidate, text, i, failure.offset)
            if candidate.proven and not was_proven:
                self._proven(candidate)
            if found:
                made.append((candidate, found))
            if stop is not None:
                self._advance(text, i, i + stop)
                return self._judge(candidate, text, i + stop, made)
            self._advance(text, i, end)
            if end == n:
                return n
            i = end

    def _judge(self, candidate: Candidate, text: str, i: int, made: list) -> int:
        """A complete value followed by `text[i]`, not a blank: is it the document?"""
        if not candidate.proven:
            fence = self.fence
            closing = fence is not None and text.startswith("`" * fence, i)
            if fence is not None and not closing and _backticks_to_end(text, i):
                return self._hold(text, i)  # its closing fence, cut short
            if not (closing or (candidate.answer and candidate.newline)):
                return self._abandon(candidate, text, i, 0)
            self.prove(candidate, made)
        self.finish(candidate, made)
        return i

    def prove(self, candidate: Candidate, made: list) -> None:
        """A complete value is the document (by what follows it)."""
        found = candidate.prove()
        self._proven(candidate)
        if found:
            made.append((candidate, found))

    def finish(self, candidate: Candidate, made: list) -> None:
        """A proven document is complete: what follows it is read."""
        self.candidate = None
        if self.fence is not None:
            self.fence_had_value = True
        found = self._ended(candidate)
        if found:
            made.append((candidate, found))
        if self.multiple:
            self.state = PROSE
            self.answer = True
        else:
            self.state = AFTER
            self.finished = True
            self.answer = False

    def _abandon(self, candidate: Candidate, text: str, i: int, offset: int) -> int:
        """Not JSON: its text is prose, and the search goes on at the character that ruled
        it out (after it, if that was its own first character)."""
        kept = candidate.kept_text()
        self.candidate = None
        self.state = PROSE
        self.answer = False
        at = i + offset
        if not kept:
            kept = text[at]
            at += 1
        self.text.append(kept)
        self._advance(text, i, at)
        return at

    # -- the end --------------------------------------------------------------------------

    def end(self, made: list) -> None:
        """The text ended: a held tail is not a tag or a fence after all."""
        held, self.held = self.held, ""
        if not held:
            return
        if self.state == REASONING:
            self.reasoning.append(held)
        elif self.state == VALUE:  # a complete value, then its closing fence cut short
            candidate = self.candidate
            assert candidate is not None
            self.prove(candidate, made)
            self.finish(candidate, made)
        elif self.fence is not None and held.strip("`") == "" and len(held) >= self.fence:
            self.fence = None  # the closing fence, at the very end: markup
        else:
            self.text.append(held)
        self._advance(held, 0, len(held))


def _backticks_to_end(text: str, i: int) -> bool:
    """Whether `text[i:]` is only backticks."""
    j = i
    while j < len(text) and text[j] == "`":
        j += 1
    return j == len(text)

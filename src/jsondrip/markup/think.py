"""Split reasoning blocks (`<think>...</think>`) out of streamed text, with the tags cut anywhere.

Reasoning models served through OpenAI-compatible APIs often put their reasoning inside the
text, between `<think>` and `</think>` (others write `<thinking>` or `<reasoning>`).
`ThinkSplitter.feed` returns `(is_reasoning, text)` pieces; it holds back only a tail that
could still be the start of a tag, so text is passed on as soon as it cannot be part of one.
The text is kept exactly: no whitespace is trimmed. A block is closed only by the closing tag
of the name that opened it (`<thinking>` by `</thinking>`).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["REASONING_TAGS", "ThinkSplitter", "partial_tag"]

REASONING_TAGS = ("think", "thinking", "reasoning")
"""The reasoning tag names the structured-output reader knows by default."""


class ThinkSplitter:
    """Stateful splitter of one text stream into plain and reasoning pieces.

    `tags`: the tag names that open a reasoning block (default `think` alone, as the tool-call
    accumulator reads text; `REASONING_TAGS` for the structured-output reader). `inside` is
    the name of the open block, or None.
    """

    __slots__ = ("_held", "_opening", "inside")

    def __init__(self, tags: Iterable[str] = ("think",)) -> None:
        names = tuple(tags)
        for name in names:
            if not name or any(c in name for c in "<>/ \t\r\n"):
                raise ValueError(f"a reasoning tag name is one word, no '<', '>' or '/': {name!r}")
        self._opening = tuple(f"<{name}>" for name in names)
        self.inside: str | None = None  # the open block's name
        self._held = ""  # a tail that may be the start of the next tag

    def feed(self, text: str) -> list[tuple[bool, str]]:
        """Read a fragment; return the `(is_reasoning, text)` pieces that are now certain."""
        if self._held:
            text = self._held + text
            self._held = ""
        elif "<" not in text:
            return [(self.inside is not None, text)] if text else []
        pieces: list[tuple[bool, str]] = []
        while True:
            if self.inside is not None:
                tag = f"</{self.inside}>"
                at = text.find(tag)
                length = len(tag)
            else:
                at, length = _first_opening(text, self._opening)
            if at < 0:
                break
            if at:
                pieces.append((self.inside is not None, text[:at]))
            self.inside = None if self.inside is not None else text[at + 1 : at + length - 1]
            text = text[at + length :]
        tags = (f"</{self.inside}>",) if self.inside is not None else self._opening
        keep = partial_tag(text, tags)
        if keep:
            self._held = text[-keep:]
            text = text[:-keep]
        if text:
            pieces.append((self.inside is not None, text))
        return pieces

    @property
    def held(self) -> str:
        """The tail held back as the possible start of the next tag."""
        return self._held

    def flush(self) -> list[tuple[bool, str]]:
        """The stream ended: a held tail was not a tag after all; return it."""
        held, self._held = self._held, ""
        return [(self.inside is not None, held)] if held else []


def _first_opening(text: str, openings: tuple[str, ...]) -> tuple[int, int]:
    """Where the first opening tag in `text` starts and its length, or (-1, 0)."""
    best, length = -1, 0
    for tag in openings:
        at = text.find(tag, 0, best + len(tag) if best >= 0 else len(text))
        if at >= 0 and (best < 0 or at < best):
            best, length = at, len(tag)
    return best, length


def partial_tag(text: str, tags: tuple[str, ...]) -> int:
    """The length of the longest tail of `text` that is a proper prefix of one of `tags`."""
    longest = max(len(tag) for tag in tags)
    start = text.rfind("<", max(0, len(text) - longest + 1))
    while start >= 0:
        tail = text[start:]
        if any(tag.startswith(tail) for tag in tags):
            return len(text) - start
        start = text.find("<", start + 1)
    return 0

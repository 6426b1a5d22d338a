"""Split `<think>...</think>` out of streamed text, with the tags cut anywhere.

Reasoning models served through OpenAI-compatible APIs often put their reasoning inside the
text, between `<think>` and `</think>`. `ThinkSplitter.feed` returns `(is_reasoning, text)`
pieces; it holds back only a tail that could still be the start of a tag, so text is passed on
as soon as it cannot be part of one. The text is kept exactly: no whitespace is trimmed.
"""

from __future__ import annotations

__all__ = ["ThinkSplitter"]

OPEN = "<think>"
CLOSE = "</think>"


class ThinkSplitter:
    """Stateful splitter of one text stream into plain and reasoning pieces."""

    __slots__ = ("_held", "inside")

    def __init__(self) -> None:
        self.inside = False  # between <think> and </think>
        self._held = ""  # a tail that may be the start of the next tag

    def feed(self, text: str) -> list[tuple[bool, str]]:
        """Read a fragment; return the `(is_reasoning, text)` pieces that are now certain."""
        if self._held:
            text = self._held + text
            self._held = ""
        elif "<" not in text:
            return [(self.inside, text)] if text else []
        pieces: list[tuple[bool, str]] = []
        while True:
            tag = CLOSE if self.inside else OPEN
            at = text.find(tag)
            if at < 0:
                break
            if at:
                pieces.append((self.inside, text[:at]))
            self.inside = not self.inside
            text = text[at + len(tag) :]
        keep = _partial_tag(text, CLOSE if self.inside else OPEN)
        if keep:
            self._held = text[-keep:]
            text = text[:-keep]
        if text:
            pieces.append((self.inside, text))
        return pieces

    @property
    def held(self) -> str:
        """The tail held back as the possible start of the next tag."""
        return self._held

    def flush(self) -> list[tuple[bool, str]]:
        """The stream ended: a held tail was not a tag after all; return it."""
        held, self._held = self._held, ""
        return [(self.inside, held)] if held else []


def _partial_tag(text: str, tag: str) -> int:
    """The length of the longest tail of `text` that is a proper prefix of `tag`."""
    start = text.rfind("<", max(0, len(text) - len(tag) + 1))
    while start >= 0:
        if tag.startswith(text[start:]):
            return len(text) - start
        start = text.find("<", start + 1)
    return 0

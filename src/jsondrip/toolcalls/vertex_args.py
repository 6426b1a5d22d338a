"""One Vertex call's `partialArgs` writer: the native one on the native backend, the twin
(`PartialArgsWriter`) on the python backend or for what the native one leaves to it.

The writer's state lives in one place at a time. The native writer (`rust/envelope/
partial_args.rs`) takes the common pieces (plain paths, camelCase keys, numbers it prints as
`repr` does) and answers None, before changing anything, for the rest; its state then passes
to the twin (`state()` / `from_state()`), which writes that piece and every later one of the
call: the text is the twin's either way, byte for byte, and so are the errors. `whole()` (the
members sent beside `willContinue`, at the call's start) is the twin's too; the state passes
back to the native writer after it.
"""

from __future__ import annotations

from typing import Any

from .. import _engine
from .partial_args import PartialArgsWriter
from .shortcut import ChunkMatcher

__all__ = ["VertexArgs"]


def _native_writer() -> Any:
    """The native writer when parsers run native, else None."""
    native = _engine.envelope()
    return None if native is None else native.PartialArgs()


class VertexArgs:
    """The text of one call's arguments, from its `partialArgs` in order (see the module):
    `feed`, `feed_chunk`, `whole` and `end` as `PartialArgsWriter`'s."""

    __slots__ = ("native", "python")

    def __init__(self) -> None:
        self.native: Any = _native_writer()  # None once the twin has the state
        self.python: PartialArgsWriter | None = None if self.native else PartialArgsWriter()

    def feed(self, entries: list[Any]) -> str:
        """The text the entries add; ValueError for a piece out of document order."""
        native = self.native
        if native is not None:
            text: str | None = native.feed(entries)
            if text is not None:
                return text
        return self._twin().feed(entries)

    def feed_chunk(self, matcher: Any, chunk: bytes) -> str | None:
        """The text a whole SSE chunk's pieces add if `matcher` frames it (the shortcut's
        value mode); None: the long way decides (nothing changed)."""
        native = self.native
        if native is not None:
            return native.feed_chunk(matcher, chunk)  # type: ignore[no-any-return]
        if type(matcher) is not ChunkMatcher:
            return None  # the backend changed after the frame was made: the long way
        return self.python.feed_chunk(matcher, chunk)  # type: ignore[union-attr]

    def whole(self, args: dict[str, Any]) -> str:
        """The text of members sent whole (`args` beside `willContinue`)."""
        native = None if self.native is None else type(self.native)
        text = self._twin().whole(args)
        if native is not None:
            try:  # back to the native writer, unless a key is one it cannot hold
                self.native = native.from_state(self.python.state())  # type: ignore[union-attr]
                self.python = None
            except ValueError:  # UnicodeEncodeError: a lone surrogate
                pass
        return text

    def end(self) -> str:
        """The call ended: the text that closes whatever is open."""
        if self.native is not None:
            return self.native.end()  # type: ignore[no-any-return]
        return self.python.end()  # type: ignore[union-attr]

    def _twin(self) -> PartialArgsWriter:
        """The twin, holding the state from now on."""
        if self.native is not None:
            self.python = PartialArgsWriter.from_state(self.native.state())
            self.native = None
        return self.python  # type: ignore[return-value]

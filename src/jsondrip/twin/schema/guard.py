"""The schema check of one stream: fragments in (as the parser took them), violations out.

It runs beside either backend's engine, on the text the engine has just accepted, so both
backends give the same answers by construction. After a violation it stays failed: every
later call raises the same violation again.
"""

from __future__ import annotations

import codecs
import copy
from typing import Any, Callable

from ...schema.schema import Schema
from ...schema.violation import SchemaViolation
from ..stream import IN_USE
from .checker import Checker
from .scanner import Scanner


class Guard:
    """Checks one stream against one `Schema`."""

    __slots__ = ("at_start", "checker", "decoder", "failure", "give", "scanner", "schema", "take")

    def __init__(self, schema: Schema, value_at: Callable[[tuple[Any, ...]], Any]) -> None:
        self.schema = schema
        self.checker = Checker(schema.root, value_at)
        self.scanner = Scanner(self.checker)
        self.decoder: codecs.IncrementalDecoder | None = None
        self.failure: SchemaViolation | None = None
        self.at_start = True
        # One token, taken by the Parser around the engine's read and the check together: a
        # second thread gets a clear error before either reads anything (as the engines do).
        token = [True]
        self.take = token.pop
        self.give = token.append

    def acquire(self) -> None:
        """Take the stream's token, or raise if another thread holds it."""
        try:
            self.take()
        except IndexError:
            raise RuntimeError(IN_USE) from None

    def release(self) -> None:
        """Give the token back."""
        self.give(True)

    def raise_failure(self) -> None:
        if self.failure is not None:
            raise copy.copy(self.failure)

    def feed(self, chunk: Any) -> None:
        """Check a fragment the parser accepted (str, or UTF-8 bytes as the parser reads them)."""
        if self.failure is not None:
            self.raise_failure()
        if type(chunk) is str:
            try:
                self.scanner.feed(chunk)
            except SchemaViolation as violation:
                self.failure = violation
                raise
            return
        if isinstance(chunk, str):
            text = chunk
        else:
            if self.decoder is None:
                self.decoder = codecs.getincrementaldecoder("utf-8")("surrogatepass")
            text = self.decoder.decode(bytes(chunk))
            if self.at_start and text[:1] == "\ufeff":  # the parser skips a BOM opening bytes
                text = text[1:]
        if text:
            self.at_start = False
        self._run(self.scanner.feed, text)

    def close(self) -> None:
        """The parser found the document complete: settle what waited for the end."""
        if self.failure is not None:
            self.raise_failure()
        self._run(lambda _: self.scanner.close(), "")

    def _run(self, step: Callable[[str], None], text: str) -> None:
        try:
            step(text)
        except SchemaViolation as violation:
            self.failure = violation
            raise

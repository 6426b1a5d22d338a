"""`CheckedEngine`: the twin's engine with a schema, checked inside the engine as the native
engine checks it (rust/python/schema.rs beside rust/python/engine.rs).

Every text the machine accepts goes on to the schema scanner (scanner.py) in the same read,
under the engine's one-thread token: a str fragment read whole on the hot path, and otherwise
what the stream handed the machine (bytes decoded, a BOM skipped, within `max_size`). Text the
machine refused is never checked (the `JSONDecodeError` comes first, as in Rust). A violation
fails the engine as any error does: every later `feed*`, `close*`, `progress` and `value`
raises it again.
"""

from __future__ import annotations

from sys import getsizeof
from typing import Any

from ..._changes import split_pointer
from ..._missing import MISSING
from ...schema.progress import (
    ARRIVING,
    FINAL,
    MISSING_STATE,
    Progress,
    lookup,
    make_progress,
)
from ...schema.violation import SchemaViolation
from ..engine import PythonEngine
from ..stream import fresh_copy
from .checker import Checker
from .scanner import Scanner

__all__ = ["CheckedEngine", "progress"]


class CheckedEngine(PythonEngine):
    """A `PythonEngine` that checks its stream against `options.schema` (a compiled
    `jsondrip.Schema`)."""

    __slots__ = ("checker", "scan", "scanner", "violation")

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.checker = Checker(options.schema.root, self._value_at)
        self.scanner = Scanner(self.checker)
        self.scan = self.scanner.feed
        self.violation: SchemaViolation | None = None
        machine_feed, scan = self.machine.feed, self.scan

        def read_text(text: str) -> None:  # the hot path's read: the machine, then the check
            machine_feed(text)
            scan(text)  # a violation fails the engine there (PythonEngine.feed's `except`)

        self.read_text = read_text

    def debug_memory(self) -> dict[str, int]:
        """`PythonEngine.debug_memory`, with `schema` the checker's and scanner's objects."""
        memory = super().debug_memory()
        memory["schema"] = getsizeof(self.checker) + getsizeof(self.scanner)
        return memory

    @property
    def value(self) -> Any:
        """The live value; after a `SchemaViolation`, that violation again."""
        if self.violation is not None:
            raise fresh_copy(self.violation)
        return PythonEngine.value.fget(self)  # type: ignore[attr-defined]

    def _fail(self, error: Exception) -> None:
        super()._fail(error)
        if isinstance(error, SchemaViolation):
            self.violation = self.error  # type: ignore[assignment]

    def _read(self, text: str) -> str:
        """Off the hot path: the machine reads (within max_size, up to the document's end),
        then the check of what it read."""
        text = super()._read(text)
        try:
            self.scan(text)
        except SchemaViolation as violation:
            self._fail(violation)
            raise
        return text

    def _close(self) -> None:
        ending = self.error is None and not self.closed
        super()._close()
        if ending:  # the document is complete: settle what waited for the end
            try:
                self.scanner.close()
            except SchemaViolation as violation:
                self._fail(violation)
                raise

    def progress(self, path: str | None = None) -> Progress:
        """The typed view of the value at the JSON Pointer `path` (None is the root)."""
        if self.error is not None:
            raise fresh_copy(self.error)
        return progress(self.checker, PythonEngine.value.fget(self), path)  # type: ignore[attr-defined]

    def _value_at(self, segments: tuple[Any, ...]) -> Any:
        """The complete value at a path, for the keywords that compare values."""
        value = self.builder.root
        for segment in segments:
            value = value[segment]
        return value


_SPLIT: dict[str, tuple[str, ...]] = {}  # the paths a reader polls, split once


def progress(checker: Checker, root: Any, path: str | None) -> Progress:
    """The `Progress` of the value at `path`, given the checker and the live value `root`."""
    try:
        tokens = _SPLIT.get(path)  # type: ignore[arg-type]
    except TypeError:  # unhashable: not a str, refused below
        tokens = None
    if tokens is None:
        if not isinstance(path, str):
            if path is not None:
                raise TypeError(
                    "progress() takes a str path (a JSON Pointer such as '/records/0'), "
                    f"not {type(path).__name__}"
                )
            path = ""  # None is the root, as on the native backend
        tokens = tuple(split_pointer(path))
        if len(_SPLIT) < 4096:
            _SPLIT[path] = tokens
    value = lookup(root, tokens)
    if checker.frames:
        arriving = checker.arriving
        if arriving is None:
            arriving = checker.open_tokens()
        if arriving[: len(tokens)] == tokens:
            innermost = len(arriving) == len(tokens)
            return make_progress((ARRIVING, value, checker.candidates() if innermost else None))
    if value is MISSING:
        return make_progress((MISSING_STATE, MISSING, None))
    return make_progress((FINAL, value, None))

"""`CheckedEngine`: the twin's engine with a schema, checked inside the engine as the native
engine checks it (rust/python/schema.rs beside rust/python/engine.rs).

The machine checks as it reads: its sink is a `CheckedSink`, which builds as the builder does
and hands the machine's positioned events (where each value, key and container begins and
ends, string content decoded) to the checker. What stops the check is raised once the machine
has read the whole fragment, so a syntax error anywhere in it comes first (the
`JSONDecodeError`, as in Rust). A violation fails the engine as any error does: every later
`feed*`, `close*`, `progress` and `value` raises it again.
"""

from __future__ import annotations

from sys import getsizeof
from typing import Any

from ..._changes import split_pointer
from ..._missing import MISSING
from ...schema.nodes import ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING
from ...schema.progress import (
    ARRIVING,
    FINAL,
    MISSING_STATE,
    Progress,
    lookup,
    make_progress,
)
from ...schema.violation import SchemaViolation
from ..builder import atom_value
from ..engine import PythonEngine
from ..stream import fresh_copy
from .checker import Checker

__all__ = ["CheckedEngine", "CheckedSink", "progress"]

_FIRST = {
    '"': (STRING, False),
    "{": (OBJECT, False),
    "[": (ARRAY, False),
    "t": (BOOLEAN, False),
    "f": (BOOLEAN, False),
    "n": (NULL, False),
    "-": (NUMBER, True),
}
"""The kind of value a first character begins, and whether it is a number's minus sign
(Rust: `Kind::of_first`); any other (a digit, NaN, Infinity) begins a number."""
_NUMBER = (NUMBER, False)


class CheckedSink:
    """The machine's sink with a schema: the builder's events go to the builder (the same
    bound methods), the positioned events (the machine sends them when `events` is set) to the
    checker. The first failure stops the check (`stopped`) but not the machine. Twin of
    rust/python/schema.rs's `CheckedSink`."""

    __slots__ = (
        "atom",
        "begin_container",
        "checker",
        "end_container",
        "hide_tentative",
        "set_key",
        "show_tentative",
        "stopped",
        "string",
    )

    def __init__(self, sink: Any, checker: Checker) -> None:
        """`sink`: the machine's builder (or PyPy's `PyPySink` around it)."""
        self.begin_container = sink.begin_container
        self.end_container = sink.end_container
        self.set_key = sink.set_key
        self.string = sink.string
        self.atom = sink.atom
        self.show_tentative = sink.show_tentative
        self.hide_tentative = sink.hide_tentative
        self.checker = checker
        self.stopped: Exception | None = None  # what stopped the check in the current read

    def value_begins(self, first: str, pos: int) -> None:
        """A value begins at `pos` with the character `first`."""
        if self.stopped is None:
            kind, negative = _FIRST.get(first, _NUMBER)
            try:
                self.checker.begin(kind, pos, negative)
            except Exception as e:
                self.stopped = e

    def key_begins(self, pos: int) -> None:
        """An object's key begins: its opening quote at `pos`."""
        if self.stopped is None:
            try:
                self.checker.begin_key(pos)
            except Exception as e:
                self.stopped = e

    def string_text(self, piece: str, start: int, plain: bool, closes: bool) -> None:
        """More content of the string or key: a plain run from `start`, or one escape's
        character (the escape ends at `start`)."""
        if self.stopped is None:
            try:
                self.checker.text(piece, start, plain, closes)
            except Exception as e:
                self.stopped = e

    def string_ends(self, pos: int) -> None:
        """The closing quote at `pos` of a string or key."""
        if self.stopped is None:
            try:
                self.checker.end_string(pos)
            except Exception as e:
                self.stopped = e

    def atom_ends(self, kind: int, text: str, pos: int) -> None:
        """A number or literal (`Builder.atom`'s kind and text) is complete at `pos`."""
        if self.stopped is None:
            try:
                self.checker.end_atom(atom_value(kind, text), pos)
            except Exception as e:
                self.stopped = e

    def container_ends(self, pos: int) -> None:
        """`}` or `]` at `pos`."""
        if self.stopped is None:
            try:
                self.checker.end_container(pos)
            except Exception as e:
                self.stopped = e

    def end_read(self) -> None:
        """The read went through (no syntax error): raise what stopped the check in it."""
        stopped = self.stopped
        if stopped is not None:
            self.stopped = None
            raise stopped


class CheckedEngine(PythonEngine):
    """A `PythonEngine` that checks its stream against `options.schema` (a compiled
    `jsondrip.Schema`)."""

    __slots__ = ("checker", "sink", "violation")

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.checker = Checker(options.schema.root, self._value_at)
        machine = self.machine
        sink = self.sink = CheckedSink(machine.builder, self.checker)
        machine.builder = sink
        machine.events = True
        self.violation: SchemaViolation | None = None
        machine_feed, end_read = machine.feed, sink.end_read

        def read_text(text: str) -> None:  # the hot path's read: the machine checks as it reads
            machine_feed(text)
            end_read()  # a violation fails the engine there (PythonEngine.feed's `except`)

        self.token = [read_text]  # the token is the hot path's reader (PythonEngine)

    def debug_memory(self) -> dict[str, int]:
        """`PythonEngine.debug_memory`, with `schema` the checker's and its sink's objects."""
        memory = super().debug_memory()
        memory["schema"] = getsizeof(self.checker, 0) + getsizeof(self.sink, 0)  # 0 on PyPy
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
        """Off the hot path: the machine reads and checks (within max_size, up to the
        document's end); then what stopped the check."""
        text = super()._read(text)
        self._end_read()
        return text

    def _close(self) -> None:
        super()._close()  # the document is complete: what waited for the end is settled
        self._end_read()

    def _end_read(self) -> None:
        try:
            self.sink.end_read()
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

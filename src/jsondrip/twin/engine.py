"""The Python backend's engine: fragments in, live value out. Twin of rust/python/engine.rs
(`NativeEngine`): the engine contract (`jsondrip._engine.Engine`) over a stream
(twin/stream.py, as `NativeEngine` drives a rust/core/stream.rs `Stream`), the value its
builder made, the changes, one caller at a time.
"""

from __future__ import annotations

from sys import getsizeof
from typing import Any

from .._changes import Change
from .errors import MachineError
from .stream import Chunk, Stream

IN_USE = "the parser is being used by another thread (feed a Parser from one thread at a time)"


class PendingChanges:
    """The changes one fragment made, given as a tuple by `build()`. Twin of
    rust/python/changes.rs's `PendingChanges`, which keeps them as data until then; here
    they are made already (the twin's builder makes each `Change` as it goes)."""

    __slots__ = ("_changes",)

    def __init__(self, changes: list[Change]) -> None:
        self._changes = changes

    def build(self) -> tuple[Change, ...]:
        """The changes as a tuple of `Change`, a new one at each call."""
        return tuple(self._changes)

    def __len__(self) -> int:
        return len(self._changes)


class PythonEngine(Stream):
    """A parser of one JSON stream, in pure Python."""

    __slots__ = ("token",)

    def __init__(self, options: Any) -> None:
        """`options`: a `jsondrip._engine.EngineOptions` (its mode, max_depth, max_size and
        dialect; the schema is `CheckedEngine`'s)."""
        super().__init__(options)
        # One token, taken while a call reads: a second thread gets a clear error instead of
        # corrupting the state (the native engine gets the same from its reentrancy flag).
        # list.pop and list.append are atomic, and cost a third of a Lock's acquire/release.
        # The token is the hot path's reader of text (the machine's `feed`; `CheckedEngine`'s
        # checks as it reads): whoever holds it reads, and it costs no slot of its own.
        self.token = [self.machine.feed]

    @property
    def end_index(self) -> int | None:
        """With `stop_at_end`, once a fragment held the document's end: its index in that
        fragment (`end` says where in the stream); else None."""
        bounds = self.bounds
        return None if bounds is None else bounds.end_index

    @property
    def value(self) -> Any:
        """The current best-effort value (live: updated in place by later feeds)."""
        builder = self.builder
        if builder.stale:
            builder.refresh_string()
        return builder.root

    def feed_changes(self, chunk: Chunk) -> list[Change]:
        """Read one fragment and return the changes it made to the value."""
        builder = self.builder
        changes: list[Change] = []
        builder.changes = changes
        try:
            self.feed(chunk, refresh=False)
        finally:
            builder.changes = None
        return changes

    def feed_pending(self, chunk: Chunk) -> PendingChanges | None:
        """Read one fragment like `feed_changes`; its changes as a `PendingChanges`, or None
        when it made none."""
        changes = self.feed_changes(chunk)
        return PendingChanges(changes) if changes else None

    def debug_memory(self) -> dict[str, int]:
        """What this engine holds, in bytes, by part (`Engine.debug_memory`), as
        `sys.getsizeof` counts: `object` (the engine, its machine, builder and bounds if
        any), `buffers` (their lists, the number digest once made, the bytes held back),
        `keys` (the key dict) and `schema` (0: `CheckedEngine` adds its checker). 0
        everywhere on PyPy, whose objects have no size of their own (`sys.getsizeof` has
        none there)."""
        machine, builder = self.machine, self.builder
        digest = machine.number_digest
        buffers = [
            machine.stack,
            machine.parts,
            machine.number,
            builder.containers,
            builder.segments,
            self.token,
            self.pending,
        ]
        if builder.recorded is not None:
            buffers.append(builder.recorded)
        if digest is not None:
            buffers += [digest, digest.digits]
        bounds = getsizeof(self.bounds, 0) if self.bounds is not None else 0
        return {
            "object": getsizeof(self, 0) + getsizeof(machine, 0) + getsizeof(builder, 0) + bounds,
            "buffers": sum(getsizeof(buffer, 0) for buffer in buffers),
            "keys": getsizeof(builder.keys, 0),
            "schema": 0,
        }

    def progress(self, path: str | None = None) -> Any:
        """The typed view needs a schema: this engine has none (`CheckedEngine` has)."""
        raise ValueError("progress() needs a Parser made with schema=...")

    def feed(self, chunk: Chunk, refresh: bool = True) -> Any:
        """Read one fragment and return the current best-effort value; with `stop_at_end`,
        `NotImplemented` instead when the document ended in this fragment (`end` and
        `end_index` say where)."""
        try:
            read_text = self.token.pop()
        except IndexError:
            raise RuntimeError(IN_USE) from None
        try:
            if self.plain and type(chunk) is str:
                # The hot path: a str fragment goes straight to the machine.
                if self.at_start and chunk:
                    self.at_start = False
                try:
                    read_text(chunk)
                except MachineError as e:
                    self._raise_machine(e, chunk)
                except Exception as e:  # a value Python refuses (an int past the digit limit)
                    self._fail(e)
                    raise
                self.last = chunk
            else:
                bounds = self.bounds
                if bounds is not None and bounds.stops and bounds.end is None:
                    before = self.machine.offset
                    self._feed_other(chunk)
                    if bounds.end is not None:
                        bounds.end_index = bounds.end[0] - before
                        return NotImplemented
                else:
                    self._feed_other(chunk)
            builder = self.builder
            if builder.stale and refresh:
                builder.refresh_string()
            return builder.root
        finally:
            self.token.append(read_text)

    def close(self) -> Any:
        """End the stream: the final value, or JSONDecodeError if it is incomplete or invalid."""
        try:
            token = self.token.pop()
        except IndexError:
            raise RuntimeError(IN_USE) from None
        try:
            self._close()
        finally:
            self.token.append(token)
        return self.value

    def close_changes(self) -> list[Change]:
        """End the stream like `close`, and return the changes that completing it made."""
        builder = self.builder
        changes: list[Change] = []
        builder.changes = changes
        try:
            self.close()
        finally:
            builder.changes = None
        return changes

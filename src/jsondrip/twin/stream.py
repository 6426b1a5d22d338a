"""The Python backend's engine: fragments in, live value out. Twin of rust/core/stream.rs and
rust/python/parser.rs.

It decodes bytes as UTF-8 (holding back a code point cut between fragments, skipping a BOM at
the start of a bytes stream), enforces `max_size`, and keeps the parser failed after an error.
"""

from __future__ import annotations

import codecs
import copy
from typing import Any, Union

from .._changes import Change
from .._errors import JSONDecodeError
from .builder import Builder
from .machine import Machine, MachineError

Chunk = Union[str, bytes, bytearray, memoryview]
IN_USE = "the parser is being used by another thread (feed a Parser from one thread at a time)"
BOM = codecs.BOM_UTF8


def fresh_copy(error: Exception) -> Exception:
    """The same exception without a traceback: raising one object again and again would grow
    its traceback at every raise (the native engine does the same)."""
    try:
        return copy.copy(error)
    except Exception:  # an exception that cannot be rebuilt from its arguments
        return error


class PythonEngine:
    """A parser of one JSON stream, in pure Python."""

    __slots__ = (
        "at_start",
        "builder",
        "closed",
        "error",
        "give",
        "machine",
        "max_size",
        "pending",
        "plain",
        "read_text",
        "take",
    )

    def __init__(self, *, mode: str, max_depth: int, max_size: int | None) -> None:
        self.builder = Builder()
        self.machine = Machine(self.builder, jiter_mode=mode == "jiter", max_depth=max_depth)
        self.max_size = max_size
        self.pending = b""  # bytes of a code point (or a BOM) not yet whole
        self.error: Exception | None = None  # the parser stays failed after any error
        self.closed = False
        self.at_start = True  # nothing read yet: a bytes stream may open with a BOM
        # One token, taken while a call reads: a second thread gets a clear error instead of
        # corrupting the state (the native engine gets the same from pyo3's borrow check).
        # list.pop and list.append are atomic, and cost a third of a Lock's acquire/release.
        token = [True]
        self.take = token.pop
        self.give = token.append
        self.read_text = self.machine.feed
        # A str fragment may go straight to the machine: no error, not closed, no size limit,
        # no bytes held back (updated where any of these changes).
        self.plain = max_size is None

    @property
    def value(self) -> Any:
        """The current best-effort value (live: updated in place by later feeds)."""
        builder = self.builder
        if builder.stale:
            builder.refresh_string(self.machine.open_string())
        return builder.root

    def feed_changes(self, chunk: Chunk) -> list[Change]:
        """Read one fragment and return the changes it made to the value."""
        builder = self.builder
        if not builder.stale:  # stale: the changes so far have counted it already
            open_string = self.machine.open_string()
            if open_string is not None:
                # Plain feeds grow the open string without counting it (the hot path).
                builder.shown_len = len(open_string)
        builder.changes = changes = []
        try:
            self.feed(chunk, refresh=False)
        finally:
            builder.changes = None
        return changes

    @property
    def done(self) -> bool:
        """True once a complete document has been read."""
        return self.machine.state == 7  # DONE

    def _raise(self, msg: str, pos: int, doc: str) -> None:
        machine = self.machine
        error = JSONDecodeError(msg, doc, pos, machine.line, pos - machine.line_start + 1)
        self._fail(error)
        raise error

    def _check_open(self) -> None:
        if self.error is not None:
            raise fresh_copy(self.error)
        if self.closed:
            raise ValueError("the parser is closed: feed() after close()")

    def _read(self, text: str) -> None:
        """Give decoded text to the machine, within max_size."""
        machine = self.machine
        limit = self.max_size
        over = limit is not None and machine.offset + len(text) > limit
        if over:
            text = text[: max(limit - machine.offset, 0)]  # type: ignore[operator]
        try:
            machine.feed(text)
        except MachineError as e:
            self._raise(e.msg, e.pos, "")
        except Exception as e:  # a value Python refuses (an int past the digit limit)
            self._fail(e)
            raise
        if over:
            self._raise(f"Document exceeds max_size of {limit} characters", limit, text)

    def _decode(self, data: bytes) -> str:
        """UTF-8 bytes to text, holding back an incomplete tail; raises on invalid bytes."""
        if self.pending:
            data = self.pending + data
            self.pending = b""
        if self.at_start:
            if len(data) < 3 and BOM.startswith(data):
                self.pending = data
                self.plain = False
                return ""
            self.at_start = False
            if data.startswith(BOM):
                data = data[3:]
                self.machine.bom_skipped = True
        try:
            text, used = codecs.utf_8_decode(data, "surrogatepass", False)
        except UnicodeDecodeError as e:
            self._read(codecs.utf_8_decode(data[: e.start], "surrogatepass", True)[0])
            self._raise(f"Invalid UTF-8 byte 0x{data[e.start]:02x}", self.machine.offset, "")
            raise  # unreachable: _raise raises
        self.pending = data[used:]
        self.plain = self.max_size is None and not self.pending and self.error is None
        return text

    def feed(self, chunk: Chunk, refresh: bool = True) -> Any:
        """Read one fragment and return the current best-effort value."""
        try:
            token = self.take()
        except IndexError:
            raise RuntimeError(IN_USE) from None
        try:
            if self.plain and type(chunk) is str:
                # The hot path: a str fragment goes straight to the machine.
                if self.at_start and chunk:
                    self.at_start = False
                try:
                    self.read_text(chunk)
                except MachineError as e:
                    self._raise(e.msg, e.pos, "")
                except Exception as e:  # a value Python refuses (an int past the digit limit)
                    self._fail(e)
                    raise
            else:
                self._feed_other(chunk)
            builder = self.builder
            if builder.stale and refresh:
                builder.refresh_string(self.machine.open_string())
            return builder.root
        finally:
            self.give(token)

    def _feed_other(self, chunk: Chunk) -> None:
        """A fragment off the hot path: bytes, a size limit, bytes held back, or a failure."""
        if self.error is not None or self.closed:
            self._check_open()
        if isinstance(chunk, str):
            if self.pending:
                self._decode_rest()
            if chunk:
                self.at_start = False
            self._read(chunk)
        elif isinstance(chunk, (bytes, bytearray, memoryview)):
            self._read(self._decode(bytes(chunk)))
        else:
            kind = type(chunk).__name__
            raise TypeError(f"feed() takes str, bytes, bytearray or memoryview, not {kind}")

    def _fail(self, error: Exception) -> None:
        """The parser stays failed: every later call raises a copy of `error`."""
        self.error = fresh_copy(error)
        self.plain = False

    def _decode_rest(self) -> None:
        """The bytes held back must be whole now: a str or the end follows them."""
        data, self.pending = self.pending, b""
        self._raise(f"Invalid UTF-8 byte 0x{data[0]:02x}", self.machine.offset, "")

    def close(self) -> Any:
        """End the stream: the final value, or JSONDecodeError if it is incomplete or invalid."""
        try:
            token = self.take()
        except IndexError:
            raise RuntimeError(IN_USE) from None
        try:
            return self._close()
        finally:
            self.give(token)

    def close_changes(self) -> list[Change]:
        """End the stream like `close`, and return the changes that completing it made."""
        builder = self.builder
        builder.changes = changes = []
        try:
            self.close()
        finally:
            builder.changes = None
        return changes

    def _close(self) -> Any:
        if self.error is not None:
            raise fresh_copy(self.error)
        if not self.closed:
            if self.pending:
                self._decode_rest()
            try:
                self.machine.close()
            except MachineError as e:
                self._raise(e.msg, e.pos, "")
            except Exception as e:
                self._fail(e)
                raise
            self.closed = True
            self.plain = False
        return self.value

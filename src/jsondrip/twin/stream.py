"""A JSON stream in pure Python: fragments of text or UTF-8 bytes in any chunking. Twin of
rust/core/stream.rs.

It decodes bytes as UTF-8 (holding back a code point cut between fragments, skipping a BOM at
the start of a bytes stream), enforces `max_size`, keeps the stream failed after an error, and
keeps the last fragment read so that an error can show the text around its position (the Rust
stream copies its last DOC_WINDOW characters; here a reference costs less, and an error trims
it the same way). Its errors are the public `JSONDecodeError` already (Rust: a `ParseError`
that rust/python/engine.rs makes one). The engine around it is twin/engine.py.
"""

from __future__ import annotations

import codecs
import copy
from typing import Any, NoReturn, Union

from .._dialect import DIALECT, PYPY_DECODER
from .._errors import DOC_WINDOW, IncompleteJSONError, JSONDecodeError
from .builder import Builder
from .errors import Dialect, ErrorKind, MachineError
from .pypy import PyPyMachine, machine_for

Chunk = Union[str, bytes, bytearray, memoryview]
RUNNING = Dialect(*DIALECT, pypy=PYPY_DECODER)
"""The running interpreter's json dialect: a stream's unless it is given another."""
BOM = codecs.BOM_UTF8


def fresh_copy(error: Exception) -> Exception:
    """The same exception without a traceback: raising one object again and again would grow
    its traceback at every raise (the native engine does the same)."""
    try:
        return copy.copy(error)
    except Exception:  # an exception that cannot be rebuilt from its arguments
        return error


class Bounds:
    """Where a stream may stop: its `max_size`, and with `stop_at_end` its document's end.
    Made only for a stream that has one of them (most have neither): one slot of the stream
    instead of four (#28, memory per open stream)."""

    __slots__ = ("end", "end_index", "max_size", "stops")

    def __init__(self, max_size: int | None, stops: bool) -> None:
        self.max_size = max_size
        self.stops = stops  # `options.stop_at_end`: the stream ends at its document's end
        self.end: tuple[int, int, int] | None = None  # (position, line, column), once read
        self.end_index: int | None = None  # `end`'s index in the fragment that held it


class Stream:
    """One JSON stream read by the machine, which tells `builder` what it read."""

    __slots__ = (
        "at_start",
        "bounds",
        "builder",
        "closed",
        "error",
        "last",
        "machine",
        "pending",
        "plain",
    )

    def __init__(self, options: Any) -> None:
        """`options`: a `jsondrip._engine.EngineOptions` (its mode, max_depth, max_size and
        dialect)."""
        dialect = RUNNING if options.dialect is None else Dialect(*options.dialect)
        self.builder = Builder()
        self.machine = machine_for(dialect)(
            self.builder,
            jiter_mode=options.mode == "jiter",
            max_depth=options.max_depth,
            dialect=dialect,
        )
        self.last = ""  # the last fragment read, for an error's `doc`
        max_size, stops = options.max_size, options.stop_at_end
        self.bounds = None if max_size is None and not stops else Bounds(max_size, stops)
        self.machine.stop_at_end = stops
        self.pending = b""  # bytes of a code point (or a BOM) not yet whole
        self.error: Exception | None = None  # the stream stays failed after any error
        self.closed = False
        self.at_start = True  # nothing read yet: a bytes stream may open with a BOM
        # A str fragment may go straight to the machine: no error, not closed, no size limit,
        # no bytes held back, no end to look for (updated where any of these changes).
        self.plain = self.bounds is None

    @property
    def end(self) -> tuple[int, int, int] | None:
        """With `stop_at_end`: where the document ended (position, line, column), once a
        fragment held its end; else None."""
        bounds = self.bounds
        return None if bounds is None else bounds.end

    @property
    def done(self) -> bool:
        """True once a complete document has been read."""
        return self.machine.done

    def debug_state(self) -> dict[str, Any]:
        """The machine's state as a dict (`Machine.debug_state`); rust/core/stream.rs gives the
        same."""
        return self.machine.debug_state()

    @property
    def open_depth(self) -> int:
        """How many values along the live value's last path are still arriving
        (`Machine.open_depth`)."""
        return self.machine.open_depth()

    def _raise(
        self,
        kind: ErrorKind,
        pos: int,
        detail: object = None,
        current: str = "",
        expected: str | None = None,
        located: tuple[int, int, int, int] | None = None,
    ) -> NoReturn:
        """Fails the parser. `current` is the fragment being read, which `recent` does not hold
        yet; `expected` is set when the text only ended too early; `located` comes with
        PyPy's errors (MachineError.located)."""
        if located is None:
            line, column = self.machine.locate(pos)
            doc, doc_start = self._window(pos, current)
        else:
            line, column = self._pypy_locate(pos, located)
            doc, doc_start = self._window(located[0], current)
        msg = kind.message(detail)
        if expected is not None and kind is not ErrorKind.Refused:
            error: JSONDecodeError = IncompleteJSONError(
                msg, doc, pos, line, column, doc_start, expected
            )
        else:
            error = JSONDecodeError(msg, doc, pos, line, column, doc_start)
        self._fail(error)
        raise error

    def _raise_machine(
        self, e: MachineError, current: str = "", expected: str | None = None
    ) -> None:
        self._raise(e.kind, e.pos, e.detail, current, expected, e.located)

    def _pypy_locate(self, pos: int, located: tuple[int, int, int, int]) -> tuple[int, int]:
        """Line and column as PyPy's json gives them: it takes its position `pos` (in bytes,
        or past the character at fault) for a character index, so the newlines before that
        index count, also those after the character at fault (read by then: the fragment being
        read is counted whole)."""
        _, known, line, line_start = located  # `line` holds `known`
        machine = self.machine
        if pos > known and isinstance(machine, PyPyMachine):
            count, newline = machine.errors.newlines_between(known, min(pos, machine.offset))
            if count:
                return line + count, pos - newline
        return line, pos - line_start + 1

    def _window(self, pos: int, current: str) -> tuple[str, int]:
        """The text read around `pos`: at most DOC_WINDOW characters either side, of what the
        parser still has (the fragment being read, and before it the last DOC_WINDOW
        characters of the last one read), and the position of its first character. A position
        before all of that (a string opened long before the end) gets the last DOC_WINDOW."""
        text = self.last[-DOC_WINDOW:] + current
        end = self.machine.offset  # the machine has counted `current`, read or not
        start = end - min(len(text), end)
        first, last = max(pos - DOC_WINDOW, start), min(pos + DOC_WINDOW, end)
        if last < first:
            first, last = max(end - DOC_WINDOW, start), end
        return text[first - start : last - start], first

    def _check_open(self) -> None:
        if self.error is not None:
            raise fresh_copy(self.error)
        if self.closed:
            raise ValueError("the parser is closed: feed() after close()")

    def _read(self, text: str) -> str:
        """Give decoded text to the machine, within max_size; return what it read (up to the
        document's end, with `stop_at_end`)."""
        bounds = self.bounds
        if bounds is not None and bounds.end is not None:
            return ""  # the document ended: nothing after it is read
        machine = self.machine
        limit = None if bounds is None else bounds.max_size
        over = limit is not None and machine.offset + len(text) > limit
        if over:
            text = text[: max(limit - machine.offset, 0)]  # type: ignore[operator]
        try:
            machine.feed(text)
        except MachineError as e:
            self._raise_machine(e, text)
        except Exception as e:  # a value Python refuses (an int past the digit limit)
            self._fail(e)
            raise
        end = machine.end
        if end is not None:  # the document ended in this text: what follows is not read
            text = text[:end]
            over = False
            pos = machine.offset
            bounds.end = (pos, *machine.locate(pos))  # type: ignore[union-attr]  # stops
        self.last = text
        if over and limit is not None:  # (over implies a limit: for the type checker)
            self._raise(ErrorKind.MaxSize, limit, limit)
        return text

    def _decode(self, data: bytes) -> str | None:
        """UTF-8 bytes to text, holding back an incomplete tail; raises on invalid bytes.
        None while a BOM may still be arriving (nothing is read then, as in Rust)."""
        if self.pending:
            data = self.pending + data
            self.pending = b""
        if self.at_start:
            if len(data) < 3 and BOM.startswith(data):
                self.pending = data
                self.plain = False
                return None
            self.at_start = False
            if data.startswith(BOM):
                data = data[3:]
                self.machine.bom_skipped = True
        try:
            text, used = codecs.utf_8_decode(data, "surrogatepass", False)
        except UnicodeDecodeError as e:
            self._read(codecs.utf_8_decode(data[: e.start], "surrogatepass", True)[0])
            if self.end is not None:
                return None  # the invalid byte comes after the document's end: not read
            self._raise(ErrorKind.InvalidUtf8, self.machine.offset, data[e.start])
        self.pending = data[used:]
        self.plain = self.bounds is None and not self.pending and self.error is None
        return text

    def _feed_other(self, chunk: Chunk) -> None:
        """A fragment off the hot path: bytes, a size limit, bytes held back, or a failure."""
        if self.error is not None or self.closed:
            self._check_open()
        if self.end is not None:  # the document ended: nothing after it is read
            if not isinstance(chunk, (str, bytes, bytearray, memoryview)):
                kind = type(chunk).__name__
                raise TypeError(f"feed() takes str, bytes, bytearray or memoryview, not {kind}")
            return
        if isinstance(chunk, str):
            if self.pending:
                self._invalid_pending()
            if chunk:
                self.at_start = False
            self._read(chunk)
        elif isinstance(chunk, (bytes, bytearray, memoryview)):
            text = self._decode(bytes(chunk))
            if text is not None:
                self._read(text)
        else:
            kind = type(chunk).__name__
            raise TypeError(f"feed() takes str, bytes, bytearray or memoryview, not {kind}")

    def _fail(self, error: Exception) -> None:
        """The parser stays failed: every later call raises a copy of `error`."""
        self.error = fresh_copy(error)
        self.plain = False

    def _invalid_pending(self, expected: str | None = None) -> NoReturn:
        """The bytes held back were never completed: invalid before more text, and at the end
        a character cut short (`expected` says so). Always raises."""
        data, self.pending = self.pending, b""
        self._raise(ErrorKind.InvalidUtf8, self.machine.offset, data[0], expected=expected)

    def _close(self) -> None:
        """End the stream: nothing, or the error that says why the text is no document."""
        if self.error is not None:
            raise fresh_copy(self.error)
        if not self.closed:
            if self.end is not None:
                self.pending = b""  # bytes after the document's end are not the stream's
            if self.pending:
                self._invalid_pending("the rest of a UTF-8 character")
            try:
                self.machine.close()
            except MachineError as e:
                # The text read was a valid prefix (feed raised nothing): it ended too early.
                self._raise_machine(e, expected=self.machine.expected_next())
            except Exception as e:
                self._fail(e)
                raise
            self.closed = True
            self.plain = False

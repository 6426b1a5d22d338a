"""`Parser(multiple=True)` and `Parser(watch=...)`: several documents in one stream, and the
values completed by each call.

`Documents` is what such a `Parser` calls instead of an engine: it has the engine's methods
(`feed`, `feed_changes`, `value`, `done`, `close`, `close_changes`, `progress`), so `Parser`
calls it as it calls an engine (a plain `Parser` stays one engine call per method), and
`completed`. With `multiple=True` the stream reads as one virtual array of documents (JSON
Lines, NDJSON, concatenated documents): one engine per document, made with `stop_at_end` so
that it stops at its document's end (`Engine.end`) and the rest of the fragment goes to the
next one. `feed()` returns the list of documents so far, change events are those of that
list (`/0/...`, `/1/...`), errors are positioned in the whole stream, and a schema applies to
each document. With `watch=`, `completed` lists after each call the watched values that call
completed (`_watch.py`).
"""

from __future__ import annotations

import codecs

from . import _engine
from ._changes import Change
from ._engine import EngineOptions
from ._errors import IncompleteJSONError, JSONDecodeError
from ._missing import MISSING
from ._watch import Watcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ._engine import Chunk, Engine
    from .schema.progress import Progress
    from .schema.violation import SchemaViolation

__all__ = ["Documents", "shift_error", "violation_in"]

BLANKS = " \t\r\n"


class Documents:
    """The engine-like reader of a `Parser` with `multiple=True` or `watch=` (see the module
    docstring): one engine, or one per document, and the values each call completed."""

    __slots__ = (
        "_announced",
        "_begun",
        "_closed",
        "_decoder",
        "_engine",
        "_engines",
        "_fed",
        "_first",
        "_line",
        "_line_start",
        "_options",
        "_readers",
        "_start",
        "_values",
        "_watcher",
        "backend",
        "completed",
        "multiple",
        "schema",
    )

    def __init__(
        self, backend: str, options: EngineOptions, multiple: bool, watch: Any, schema: Any
    ) -> None:
        self.backend = backend
        self.multiple = multiple
        self.schema = schema
        self.completed: list[tuple[str, Any]] = []
        typed = self._typed if schema is not None and schema.model is not None else None
        self._watcher = None if watch is None else Watcher(watch, typed)
        self._options = options.replace(stop_at_end=True) if multiple else options
        self._engine: Engine = _engine.make_engine(backend, self._options)
        self._values: list[Any] = []  # multiple: the documents' values
        self._first = 0  # multiple: the current document's index in `_values`
        self._engines: list[Engine] = [self._engine]  # with a schema: every document's
        self._readers: dict[int, Any] = {}  # partial(): a reader per document
        self._announced = False
        self._begun = False  # multiple: a document has begun (not only blanks so far)
        self._closed = False
        self._decoder: Any = None
        self._start = 0  # the current document's first character in the stream
        self._line = 1  # ... its line, and that line's first character
        self._line_start = 0
        self._fed = 0  # characters given to the current document's engine

    # -- reading ------------------------------------------------------------------------------

    def feed(self, chunk: Chunk) -> Any:
        """Read a fragment; return the value (with `multiple=True`, the list of documents so
        far, the last one maybe growing). `completed`: the watched values it completed."""
        if not self.multiple:
            value = self._engine.feed(chunk)
            self._collect(value, self._engine.open_depth)
            return value
        text, bad = self._text(chunk)
        self._read(text, False)
        if bad:
            self._bad_bytes(bad)
        return self._collect_documents()

    def feed_changes(self, chunk: Chunk) -> list[Change]:
        """Read a fragment like `feed`; return its changes (with `multiple=True`, those of the
        list of documents: an `add` of the empty list first, then `/0/...`, `/1/...`)."""
        if not self.multiple:
            made = self._engine.feed_changes(chunk)
            self._collect(self._engine.value, self._engine.open_depth)
            return made  # type: ignore[no-any-return]
        text, bad = self._text(chunk)
        made = self._read(text, True)
        if bad:
            self._bad_bytes(bad)
        self._collect_documents()
        return made

    def _text(self, chunk: Chunk) -> tuple[str, bytes]:
        """A fragment as text, and the bytes from an invalid UTF-8 byte on (else b"")."""
        if self._closed:
            raise ValueError("the parser is closed: feed() after close()")
        if type(chunk) is str:
            return chunk, b""  # type: ignore[return-value]
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            kind = type(chunk).__name__
            raise TypeError(f"feed() takes str, bytes, bytearray or memoryview, not {kind}")
        if self._decoder is None:
            # a BOM at the stream's start is skipped, as json.loads skips it
            self._decoder = codecs.getincrementaldecoder("utf-8-sig")("surrogatepass")
        try:
            return self._decoder.decode(bytes(chunk)), b""
        except UnicodeDecodeError as error:
            # the text before the bad byte is read; the engine words (and keeps) the error
            self._decoder = _Broken()
            good = codecs.utf_8_decode(error.object[: error.start], "surrogatepass", True)[0]
            return good, error.object[error.start :]

    def _bad_bytes(self, data: bytes) -> None:
        try:
            self._engine.feed(data)
        except Exception as error:
            raise self._positioned(error) from None

    def _read(self, text: str, changes: bool) -> list[Change]:
        """Give `text` to the documents' engines, a new one after each document's end."""
        made: list[Change] = []
        if changes and not self._announced:
            self._announced = True
            made.append(Change("add", "", []))
        values = self._values
        while True:
            engine = self._engine
            if not self._begun:
                self._begun = bool(text.strip(BLANKS))
            try:
                found = engine.feed_changes(text) if changes else engine.feed(text)
            except Exception as error:
                raise self._positioned(error) from None
            value = engine.value
            index = self._first
            if value is not MISSING:
                if len(values) > index:
                    values[index] = value
                else:
                    values.append(value)
            if changes and found:
                prefix = f"/{index}"
                made += [Change(op, prefix + path, v) for op, path, v in found]
            end = engine.end
            if end is None:
                self._fed += len(text)
                return made
            used = end[0] - self._fed
            # the document ended in this piece: its last checks, then the next one reads on
            try:
                closing = engine.close_changes()
            except Exception as error:
                raise self._positioned(error) from None
            value = engine.value
            if len(values) > index:
                values[index] = value
            else:
                values.append(value)
            made += [Change(op, f"/{index}" + path, v) for op, path, v in closing]
            self._next_document(end)
            text = text[used:]

    def _next_document(self, end: tuple[int, int, int]) -> None:
        """The current document ended at `end` (its engine's `end`: position, line, column
        from the document's start): the next one starts there."""
        pos, line, column = end
        self._start += pos
        if line > 1:
            self._line += line - 1
            self._line_start = self._start - (column - 1)
        self._fed = 0
        self._first = len(self._values)
        self._engine = _engine.make_engine(self.backend, self._options)
        if self.schema is not None:
            self._engines.append(self._engine)
        else:
            self._engines[0] = self._engine

    def _positioned(self, error: Exception) -> Exception:
        """A document's error (positioned in it) positioned in the stream."""
        if isinstance(error, JSONDecodeError):
            return shift_error(error, self._start, self._line, self._line_start)
        from .schema.violation import SchemaViolation

        if isinstance(error, SchemaViolation):
            return violation_in(error, self._first, self._start)
        return error

    # -- completed values ---------------------------------------------------------------------

    def _collect(self, value: Any, open_depth: int) -> None:
        watcher = self._watcher
        if watcher is not None:
            self.completed = watcher.collect(value, open_depth)

    def _collect_documents(self) -> list[Any]:
        values = self._values
        watcher = self._watcher
        if watcher is not None:
            shown = len(values) > self._first
            depth = 1 + (self._engine.open_depth if shown else 0)
            self.completed = watcher.collect(values, depth)
        return values

    def _typed(self, tokens: tuple[Any, ...], value: Any) -> Any:
        """A completed value as the model types it."""
        from .schema.models import completed_value

        schema = self.schema
        if not self.multiple:
            return completed_value(schema, tokens, value)  # type: ignore[arg-type]
        if not tokens:  # the list of documents
            return [schema.validate_model(v) for v in value]  # type: ignore[union-attr]
        return completed_value(schema, tokens[1:], value)  # type: ignore[arg-type]

    # -- what was read ------------------------------------------------------------------------

    @property
    def value(self) -> Any:
        """The value (with `multiple=True`, the list of documents so far)."""
        if not self.multiple:
            return self._engine.value
        values = self._values
        if len(values) > self._first:
            values[self._first] = self._engine.value  # a top-level string grows by copies
        return values

    @property
    def done(self) -> bool:
        """True once a complete document was read (with `multiple=True`: at least one, and
        no other has begun since)."""
        if not self.multiple:
            return self._engine.done  # type: ignore[no-any-return]
        return bool(self._values) and self._engine.done  # type: ignore[no-any-return]

    def progress(self, path: str = "") -> Progress:
        """As `Parser.progress`; with `multiple=True` the path starts with the document's
        index (`/0/...`)."""
        if not self.multiple:
            return self._engine.progress(path)  # type: ignore[no-any-return]
        engine, rest = self._document_at(path)
        if engine is None:
            from .schema.progress import Progress

            return Progress("missing", MISSING, None)
        return engine.progress(rest)  # type: ignore[no-any-return]

    def _document_at(self, path: str) -> tuple[Any, str]:
        head, _, rest = path[1:].partition("/")
        if not path or not head.isdigit():
            raise ValueError(f"with multiple=True a path starts with a document's index: {path!r}")
        if self.schema is None:
            raise ValueError("progress() needs a Parser made with schema=...")
        index = int(head)
        engines = self._engines
        engine = engines[index] if index < len(engines) else None
        if engine is not None and index >= len(self._values):
            engine = None  # begun, nothing shown yet
        return engine, ("/" + rest if rest else "")

    def partials(self) -> list[Any]:
        """`Parser.partial` with `multiple=True`: the list of the documents' partials."""
        from .schema.models import PartialReader

        out = []
        for index in range(len(self._values)):
            reader = self._readers.get(index)
            if reader is None:
                engine = self._engines[index]
                reader = self._readers[index] = PartialReader(self.schema, engine)
            out.append(reader.read())
        return out

    # -- the end ------------------------------------------------------------------------------

    def close(self) -> Any:
        """End the stream: the final value (with `multiple=True`, the list of documents; a
        stream of blanks only is an empty list). Errors as `Parser.close`."""
        if not self.multiple:
            value = self._engine.close()
            self._collect(value, 0)
            return value
        self._close(False)
        return self._values

    def close_changes(self) -> list[Change]:
        """End the stream like `close`; return the changes completing it made."""
        if not self.multiple:
            made = self._engine.close_changes()
            self._collect(self._engine.value, 0)
            return made  # type: ignore[no-any-return]
        return self._close(True)

    def _close(self, changes: bool) -> list[Change]:
        made: list[Change] = []
        if changes and not self._announced:
            self._announced = True
            made.append(Change("add", "", []))
        if self._closed:
            return made
        if self._decoder is not None:
            rest = ""
            try:
                rest = self._decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                at = self._start + self._fed
                error = IncompleteJSONError(
                    "Unexpected end of document", "", at, expected="the rest of a UTF-8 character"
                )
                raise self._positioned(error) from None
            if rest:
                made += self._read(rest, changes)
        engine = self._engine
        index = self._first
        if self._begun:
            try:
                closing = engine.close_changes()
            except Exception as error:
                raise self._positioned(error) from None
            values = self._values
            if len(values) > index:
                values[index] = engine.value
            else:
                values.append(engine.value)
            made += [Change(op, f"/{index}" + path, v) for op, path, v in closing]
        self._closed = True
        watcher = self._watcher
        if watcher is not None:
            self.completed = watcher.collect(self._values, 0)
        return made

    def debug_state(self) -> dict[str, Any]:
        """The current document's engine's state (`Engine.debug_state`)."""
        return self._engine.debug_state()  # type: ignore[no-any-return]


class _Broken:
    """The decoder after an invalid byte: the engine has failed, and raises from now on."""

    def decode(self, data: bytes, final: bool = False) -> str:
        return ""


def shift_error(error: JSONDecodeError, start: int, line: int, line_start: int) -> JSONDecodeError:
    """A document's error (positions from the document's start) positioned in the text it
    sits in: the document starts at character `start`, on line `line` whose first character
    is at `line_start`."""
    pos = start + error.pos
    if error.lineno == 1:
        lineno, colno = line, start - line_start + error.colno
    else:
        lineno, colno = line + error.lineno - 1, error.colno
    doc_start = start + getattr(error, "doc_start", 0)
    if isinstance(error, IncompleteJSONError):
        return IncompleteJSONError(
            error.msg, error.doc, pos, lineno, colno, doc_start, error.expected, error.json_text
        )
    return JSONDecodeError(error.msg, error.doc, pos, lineno, colno, doc_start)


def violation_in(error: SchemaViolation, index: int | None, start: int) -> SchemaViolation:
    """A document's `SchemaViolation` positioned in the text (the document starts at
    character `start`), its path under the document's `index` when there are several."""
    from .schema.violation import SchemaViolation

    path, message = error.path, error.message
    if index is not None:  # the message starts with the path: "/units/0: ..." or "(root): ..."
        root = path or "(root)"
        if message.startswith(root):
            message = f"/{index}{path}{message[len(root) :]}"
        path = f"/{index}{path}"
    pos = error.pos if error.pos < 0 else start + error.pos
    return SchemaViolation(message, path=path, pos=pos, keyword=error.keyword)

"""`OutputParser`: the JSON document a model writes in its text, live, around whatever wraps it.

Fed the text deltas of a model's answer, it returns the live value of the document in it, as
`Parser.feed` does, wherever the document sits: alone (structured-output modes), in a code
fence with any language tag, after `<think>`/`<thinking>`/`<reasoning>` blocks (their text
kept as `reasoning`), or among prose (kept as `text`). `reader.py` sorts the text,
`document.py` reads each value and proves it is the document; this module assembles the
values (one, or with `multiple=True` the list of every document), the changes, the typed
partials and the errors, positioned in the whole text. docs/output.md has the rules.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING, Any

from .. import _engine
from .._changes import Change
from .._dialect import PYPY_DECODER
from .._documents import shift_error, violation_in
from .._engine import DEFAULT_MAX_DEPTH, Engine, EngineOptions, make_engine
from .._errors import DOC_WINDOW, IncompleteJSONError, JSONDecodeError
from .._missing import MISSING
from .._watch import Watcher
from ..markup.think import REASONING_TAGS
from ..schema.models import PartialReader, completed_value
from ..schema.progress import Progress
from ..schema.schema import Schema
from ..schema.violation import SchemaViolation
from .document import Candidate, Failure
from .reader import FENCE_INFO, REASONING, VALUE, TextReader

if TYPE_CHECKING:
    from .._engine import Chunk

__all__ = ["OutputParser"]

NO_DOCUMENT = "No JSON document in the text"


class OutputParser(_engine.EngineFront):
    """The JSON document in a model's text (a structured output), live as the text streams.

    `feed(text)` reads a delta of the text (str, or UTF-8 bytes) and returns the live value
    of the document (`MISSING` before it has begun), as `Parser.feed` does. The document may
    be the whole text, sit in a markdown code fence (any language tag or none), follow
    reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`, or the names in
    `reasoning_tags`; their text is `reasoning`) and be surrounded by prose (kept as `text`):
    a `{` or `[` in prose that proves not to be JSON is prose, and the search goes on.
    docs/output.md says exactly how the document is found.

    `schema`: a `Schema`, a JSON Schema dict or a pydantic model (`Schema.from_model`): the
    document is checked as it arrives, `close()` returns the validated model, `partial()`
    the typed value so far. `multiple=True`: every document of the text (JSON Lines, one per
    fence...), as a list that only grows. `watch`: JSON Pointer patterns (`*` for one step)
    whose values `completed` lists after each call, once complete (as `Parser(watch=...)`).
    `mode`, `backend`, `max_depth`: as `Parser`.

    Errors count characters from the start of the whole text (`pos`, `lineno`, `colno`).
    """

    def __init__(
        self,
        schema: Any = None,
        *,
        multiple: bool = False,
        mode: str = "stable",
        backend: str | None = None,
        reasoning_tags: tuple[str, ...] = REASONING_TAGS,
        max_depth: int = DEFAULT_MAX_DEPTH,
        watch: Any = None,
    ) -> None:
        super().__init__()
        # `feed` is the base's: while a proven document is all there is to read (`_try_fast`),
        # str deltas go straight to its engine (`_engine`); the hooks below take the rest
        self._hooks = True
        self.schema: Schema | None = _schema(schema)
        self.multiple = multiple
        self.mode = mode
        self.backend: str = _engine.resolve(backend, streaming=True)
        self.max_depth = max_depth
        tags = (reasoning_tags,) if isinstance(reasoning_tags, str) else tuple(reasoning_tags)
        self._options = EngineOptions(mode, max_depth, None, None, stop_at_end=True)
        make_engine(self.backend, self._options)  # check the options
        typed = self._typed if self.schema is not None and self.schema.model is not None else None
        self._watcher = None if watch is None else Watcher(watch, typed)
        self.completed: list[tuple[str, Any]] = []
        self._reader = TextReader(tags, multiple, self._start, self._proven, self._ended)
        self._documents: list[Candidate] = []  # the proven ones, in order
        self._values: list[Any] = []  # multiple: the live list of their values
        self._partials: list[Any] = []  # multiple: their typed values
        self._readers: dict[int, PartialReader] = {}
        self._read_partial: Any = None  # (one document) its reader's `read`, once found
        self._changes = False  # feed_changes was used: documents record changes
        self._announced = False  # multiple: the list was announced to change events
        self._failure: Exception | None = None
        self._closed = False
        self._decoder: Any = None  # bytes: an incremental UTF-8 decoder
        # while a proven document is all there is to read: the callable that reads a delta
        # into its engine (`_try_fast`); the engine counts what it read, not the candidate
        self._fast: Any = None
        self._text_cache = ""
        self._reasoning_cache = ""

    # -- reading ----------------------------------------------------------------------------

    if TYPE_CHECKING:  # inherited from the base (`_engine.EngineFront`), documented here

        def feed(self, text: Chunk) -> Any:
            """Read a delta of the text; return the live value of the document (`MISSING`
            before it has begun; with `multiple=True`, the list of documents so far).

            Raises `JSONDecodeError` as soon as the document is proven broken,
            `SchemaViolation` as soon as it cannot satisfy the schema (and again at every
            later call). `completed`: the watched values this delta completed.
            """

    def _feed_slow(self, text: Chunk) -> Any:
        """`feed` where no engine reads the delta alone (bytes, or no proven document)."""
        fast = self._fast
        if fast is not None and type(text) is str:
            # a proven document is open (`multiple=` or `watch=`): its engine, then theirs
            try:
                value = fast(text)
            except Exception as error:  # sorted by _feed_failed
                return self._feed_failed(text, error)
            if value is not NotImplemented:
                return value
            return self._fast_stopped(text, False)
        self._read(text, False)
        return self.value

    def _feed_ended(self, text: str) -> Any:
        """`feed`: the document read by its engine ended in `text`."""
        return self._fast_stopped(text, False)

    def _feed_failed(self, text: str, error: BaseException) -> Any:
        """`feed`: the document's engine raised: its errors positioned in the whole text."""
        if isinstance(error, (JSONDecodeError, SchemaViolation)):
            raise self._fail(error, self._leave_fast()) from None
        raise error

    def _fast_stopped(self, text: str, changes: bool) -> Any:
        """The document read the fast way ended in `text`: the rest is read the long way."""
        reader = self._reader
        candidate = reader.candidate
        assert candidate is not None
        self._fast = self._engine = None
        engine = candidate.parser
        pos, line, column = candidate.ended = engine.end
        stop = engine.end_index
        candidate.fed = pos  # the engine counts from the document's start
        candidate.complete = True
        # where the reader stands: past the document, on the line the engine counted to its end
        reader.pos = candidate.start + candidate.fed
        if line > 1:
            reader.line = candidate.line + line - 1
            reader.line_start = reader.pos - (column - 1)
        made: list[Any] = []
        reader.finish(candidate, made)
        out = self._read(text[stop:], changes, made)
        return out if changes else self.value

    def _leave_fast(self) -> Candidate | None:
        """Back to the long way: the open document's count of text read, which the fast way
        leaves to its engine, brought up to date. Returns the open document."""
        candidate = self._reader.candidate
        if self._fast is not None:
            self._fast = self._engine = None
            assert candidate is not None
            candidate.fed = candidate.parser.debug_state()["offset"]
        return candidate

    def feed_changes(self, text: Chunk) -> list[Change]:
        """Read a delta like `feed`; return the changes it made to the value (JSON Pointer
        paths as `Parser.feed_changes`; with `multiple=True`, under `/0`, `/1`... of the
        list). A document's changes are handed out once it is proven the document: all at
        once then, none for text that turns out to be prose. Use either `feed` or this for
        one text, not both."""
        self._changes = True
        if self._fast is not None and type(text) is str:
            candidate = self._reader.candidate
            assert candidate is not None
            engine = candidate.parser
            try:
                made = engine.feed_changes(text)
            except (JSONDecodeError, SchemaViolation) as error:
                raise self._fail(error, self._leave_fast()) from None
            if engine.end is not None:
                if self.multiple and made:
                    made = self._emit([(candidate, made)])
                return made + self._fast_stopped(text, True)  # type: ignore[no-any-return]
            if self._watcher is not None:
                self._collect()
            if self.multiple and made:
                return self._emit([(candidate, made)])
            return made  # type: ignore[no-any-return]
        return self._read(text, True)

    def _read(self, text: Chunk, changes: bool, made: list[Any] | None = None) -> list[Change]:
        """The long way: the reader sorts the text; `made`, changes made before it."""
        self._leave_fast()
        if self._failure is not None:
            raise self._failure
        if self._closed:
            raise ValueError("the output parser is closed")
        if not isinstance(text, str):
            text = self._decode(text)
        try:
            found = self._reader.read(text, changes)
        except Failure as failure:
            raise self._fail(failure.error, self._reader.candidate) from None
        self._try_fast()
        if self._watcher is not None:
            self._collect()
        if not changes:
            return []
        return self._emit(found if made is None else made + found)

    def _try_fast(self) -> None:
        """Read the next pieces the fast way if only the open document's engine has work to
        do: a proven document is open and nothing is held back. The fast way is one callable,
        chosen here for this configuration: the engine's own `feed` when `feed` returns the
        document's value and nothing is watched."""
        reader = self._reader
        candidate = reader.candidate
        if candidate is None or not candidate.proven or reader.held or PYPY_DECODER:
            return
        feed = candidate.parser.feed
        if self._watcher is None and not self.multiple:
            self._fast = feed
            self._engine = candidate.parser  # the base's `feed` reads into it
            return
        collect = None if self._watcher is None else self._collect
        values = self._values if self.multiple else None

        if collect is None:

            def fast(text: str) -> Any:
                value = feed(text)
                return value if value is NotImplemented else values

        elif values is None:

            def fast(text: str) -> Any:
                value = feed(text)
                if value is not NotImplemented:
                    collect()
                return value

        else:

            def fast(text: str) -> Any:
                value = feed(text)
                if value is NotImplemented:
                    return value
                collect()
                return values

        self._fast = fast

    def _decode(self, data: Any) -> str:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            kind = type(data).__name__
            raise TypeError(f"feed() takes str or UTF-8 bytes, not {kind}")
        if self._decoder is None:
            # a BOM at the start of bytes is skipped, as json.loads skips it
            self._decoder = codecs.getincrementaldecoder("utf-8-sig")("surrogatepass")
        try:
            return self._decoder.decode(bytes(data))  # type: ignore[no-any-return]
        except UnicodeDecodeError as error:
            at = self._reader.pos + len(self._reader.held)
            bad = error.object[error.start]
            failure = JSONDecodeError(f"Invalid UTF-8 byte 0x{bad:02X}", "", at)
            self._failure = failure
            raise failure from None

    # -- callbacks of the reader ------------------------------------------------------------

    def _start(self, answer: bool, first: str) -> Candidate:
        reader = self._reader
        return Candidate(
            reader.pos,
            reader.line,
            reader.line_start,
            answer=answer,
            first=first,
            factory=self._make_engine,
            schema=self.schema,
        )

    def _make_engine(self, schema: Any) -> Engine:
        """An engine for one value, stopping at its end."""
        options = self._options if schema is None else self._options.replace(schema=schema)
        return make_engine(self.backend, options)

    def _proven(self, candidate: Candidate) -> None:
        candidate.index = len(self._documents)
        self._documents.append(candidate)
        if self.multiple:
            try:
                value = candidate.parser.value
            except SchemaViolation:  # proven by the text that broke it: the error follows
                value = MISSING
            self._values.append(value)

    def _ended(self, candidate: Candidate) -> list[Change]:
        """A document is complete (what follows it is being read): its parser's last checks
        now (a schema's `required`...), its changes if any."""
        return candidate.close()

    def _emit(self, made: list[tuple[Candidate, list[Change]]]) -> list[Change]:
        if not self.multiple:
            return [change for _, found in made for change in found]
        out: list[Change] = []
        if not self._announced:
            self._announced = True
            out.append(Change("add", "", []))
        for candidate, found in made:
            prefix = f"/{candidate.index}"
            out += [Change(op, prefix + path, value) for op, path, value in found]
        return out

    # -- completed values -------------------------------------------------------------------

    def _collect(self) -> None:
        """`completed`: the watched values completed since the last call."""
        documents = self._documents
        watcher = self._watcher
        assert watcher is not None
        if not self.multiple:
            if not documents:
                self.completed = []
                return
            document = documents[0]
            depth = 0 if document.complete else document.parser.open_depth
            self.completed = watcher.collect(document.parser.value, depth)
            return
        values = self.value
        last = documents[-1] if documents else None
        open_last = last is not None and not last.complete and self._reader.candidate is last
        depth = 1 + (last.parser.open_depth if open_last else 0)  # type: ignore[union-attr]
        self.completed = watcher.collect(values, 0 if self._closed else depth)

    def _typed(self, tokens: tuple[Any, ...], value: Any) -> Any:
        """A completed value as the model types it."""
        schema = self.schema
        assert schema is not None
        if not self.multiple:
            return completed_value(schema, tokens, value)
        if not tokens:  # the list of documents
            return [schema.validate_model(v) for v in value]
        return completed_value(schema, tokens[1:], value)

    # -- what was read ----------------------------------------------------------------------

    @property
    def value(self) -> Any:
        """The live value of the document (`MISSING` before it has begun); with
        `multiple=True`, the list of the documents so far (the last one may be growing)."""
        documents = self._documents
        if self.multiple:
            values = self._values
            if documents:  # read through the parser: its live value is brought up to date
                values[-1] = documents[-1].parser.value
            return values
        return documents[0].parser.value if documents else MISSING

    @property
    def done(self) -> bool:
        """True once the document is complete (with `multiple=True`: once at least one
        document was read and no other has begun since the last one completed)."""
        documents = self._documents
        if not documents:
            return False
        reader = self._reader
        last = documents[-1]
        if self.multiple and reader.state == VALUE and reader.candidate is not last:
            return False
        return last.complete or last.parser.done

    @property
    def text(self) -> str:
        """The prose read so far: the text outside the document(s), the reasoning blocks and
        the fences' markup (backticks and language tags)."""
        pieces = self._reader.text
        if pieces:
            self._text_cache += "".join(pieces)
            pieces.clear()
        return self._text_cache

    @property
    def reasoning(self) -> str:
        """The text of the reasoning blocks read so far (without their tags)."""
        pieces = self._reader.reasoning
        if pieces:
            self._reasoning_cache += "".join(pieces)
            pieces.clear()
        return self._reasoning_cache

    def progress(self, path: str = "") -> Progress:
        """With a schema: the typed view of the value at a JSON Pointer `path` of the
        document (with `multiple=True`, `/0/...`), as `Parser.progress`."""
        document, path = self._document_at(path)
        if document is None:
            return Progress("missing", MISSING, None)
        return document.parser.progress(path)  # type: ignore[no-any-return]

    def _document_at(self, path: str) -> tuple[Candidate | None, str]:
        documents = self._documents
        if not self.multiple:
            return (documents[0] if documents else None), path
        head, _, rest = path[1:].partition("/")
        if not path or not head.isdigit():
            raise ValueError(f"with multiple=True a path starts with a document's index: {path!r}")
        index = int(head)
        return (documents[index] if index < len(documents) else None), "/" + rest if rest else ""

    def partial(self) -> Any:
        """With a pydantic model as the schema: the document so far as the model, never ahead
        of it (see `Parser.partial`); `multiple=True`: the list of them."""
        read = self._read_partial
        if read is not None:
            return read()
        if self.schema is None or self.schema.model is None:
            raise ValueError("partial() needs an OutputParser made with a pydantic model")
        documents = self._documents
        if not self.multiple:
            if not documents:
                return PartialReader(self.schema, _NOTHING).read()
            read = self._read_partial = self._reader_of(documents[0]).read
            return read()
        partials = self._partials
        # the documents before the last one read last time were complete then: validated
        for index in range(max(len(partials) - 1, 0), len(documents)):
            typed = self._reader_of(documents[index]).read()
            if index < len(partials):
                partials[index] = typed
            else:
                partials.append(typed)
        return partials

    def _reader_of(self, document: Candidate) -> PartialReader:
        reader = self._readers.get(document.index)
        if reader is None:
            parser = document.parser
            reader = self._readers[document.index] = PartialReader(
                self.schema,  # type: ignore[arg-type]
                parser,
            )
        return reader

    # -- the end ----------------------------------------------------------------------------

    def close(self) -> Any:
        """End the text: the final value (with a pydantic model, the validated model; with
        `multiple=True`, the list).

        Raises `IncompleteJSONError` when the text was cut inside the document, or before it
        began (an empty text, or one that ends inside a reasoning block, a fence, or where a
        document was expected), `JSONDecodeError` when the document is invalid or the text
        (prose) holds none, `SchemaViolation` when it breaks the schema.
        """
        self._end(False)
        return self._final()

    def close_changes(self) -> list[Change]:
        """End the text like `close` (the same errors); return the changes that completing
        the document made (a top-level number, or a value proven by the end of the text)."""
        return self._end(True)

    def _end(self, changes: bool) -> list[Change]:
        self._leave_fast()
        if self._failure is not None:
            raise self._failure
        if self._closed:
            return []
        reader = self._reader
        made: list[tuple[Candidate, list[Change]]] = []
        if self._decoder is not None:
            try:
                rest = self._decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                at = reader.pos + len(reader.held)
                raise self._remember(
                    IncompleteJSONError(
                        "Unexpected end of document",
                        "",
                        at,
                        expected="the rest of a UTF-8 character",
                    )
                ) from None
            if rest:
                made += reader.read(rest, changes)
        reader.end(made)
        candidate = reader.candidate
        if candidate is not None:
            try:
                found = candidate.close()
            except (JSONDecodeError, SchemaViolation) as error:
                if candidate.proven or isinstance(error, IncompleteJSONError):
                    raise self._fail(error, candidate) from None
                raise self._remember(self._no_document()) from None  # ruled out: prose
            if found:
                made.append((candidate, found))
            if not candidate.proven:  # complete, and followed by the end: the document
                reader.prove(candidate, made)
            reader.finish(candidate, made)
        if not self._documents:
            if reader.state in (REASONING, FENCE_INFO) or reader.fence is not None or reader.answer:
                raise self._remember(self._cut())  # the answer had not begun: cut before it
            raise self._remember(self._no_document())
        self._closed = True
        if self._watcher is not None:
            self._collect()
        return self._emit(made) if changes else []

    def _final(self) -> Any:
        schema = self.schema
        if not self.multiple:
            value = self._documents[0].parser.value
            return value if schema is None else schema.validate_model(value)
        if schema is None:
            return self._values
        return [schema.validate_model(value) for value in self._values]

    # -- errors -----------------------------------------------------------------------------

    def _fail(self, error: Exception, candidate: Candidate | None) -> Exception:
        """The error of a document, positioned in the whole text; kept (sticky)."""
        if candidate is not None and isinstance(error, JSONDecodeError):
            error = shift_error(error, candidate.start, candidate.line, candidate.line_start)
        elif candidate is not None and isinstance(error, SchemaViolation):
            error = violation_in(error, self._index(candidate), candidate.start)
        return self._remember(error)

    def _index(self, candidate: Candidate) -> int | None:
        return candidate.index if self.multiple and candidate.index >= 0 else None

    def _remember(self, error: Exception) -> Exception:
        self._failure = error
        return error

    def _window(self) -> tuple[str, int]:
        """The end of the text read, as `doc` for an error there, and where it starts."""
        reader = self._reader
        tail = self.text[-DOC_WINDOW:]
        return tail, reader.pos - len(tail)

    def _no_document(self) -> JSONDecodeError:
        reader = self._reader
        doc, start = self._window()
        return JSONDecodeError(
            NO_DOCUMENT, doc, reader.pos, reader.line, reader.pos - reader.line_start + 1, start
        )

    def _cut(self) -> IncompleteJSONError:
        reader = self._reader
        doc, start = self._window()
        if reader.state == REASONING:
            expected = "a JSON document (the text ended inside a reasoning block)"
        elif reader.state == FENCE_INFO or reader.fence is not None:
            expected = "a JSON document (the text ended inside a code fence)"
        else:
            expected = "a JSON document"
        return IncompleteJSONError(
            "Expecting value",
            doc,
            reader.pos,
            reader.line,
            reader.pos - reader.line_start + 1,
            start,
            expected=expected,
        )

    def __repr__(self) -> str:
        found = len(self._documents)
        return f"<jsondrip.OutputParser documents={found} done={self.done} mode={self.mode!r}>"


def _schema(schema: Any) -> Schema | None:
    if schema is None or isinstance(schema, Schema):
        return schema
    if isinstance(schema, (dict, bool)):
        return Schema(schema)
    return Schema.from_model(schema)


class _Nothing:
    """A document not begun: no value, not done."""

    value = MISSING
    done = False
    open_depth = 0


_NOTHING = _Nothing()

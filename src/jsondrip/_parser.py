"""`Parser`, the public face of the engines (_engine.py), and the helpers built on it."""

from __future__ import annotations

from . import _engine
from ._engine import DEFAULT_MAX_DEPTH, EngineOptions
from ._missing import MISSING
from ._snapshot import frozen_copy

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
    from typing import Any

    from ._changes import Change
    from ._documents import Documents
    from ._engine import Chunk, Engine
    from .schema.progress import Progress
    from .schema.schema import Schema

__all__ = ["DEFAULT_MAX_DEPTH", "Parser", "aiter_values", "iter_values", "parse_partial"]


class Parser(_engine.EngineFront):
    """An incremental JSON parser: feed fragments, read the best value so far after each.

    `mode="stable"` (default) never retracts what it showed; `mode="jiter"` shows what
    `jiter.from_json(prefix, partial_mode="trailing-strings")` would. See docs/semantics.md.

    The value is live: dicts and lists are reused and updated in place by later feeds, so a
    feed costs work in proportion to its fragment. Deep-copy the value to keep a snapshot.

    `multiple=True`: several documents in one stream (JSON Lines, NDJSON, concatenated), read
    as one list of documents that only grows (docs/parser.md). `watch`: JSON Pointer patterns
    (`*` for one step: `"/steps/*"`, `"/*"`, `""` the document) whose values `completed`
    lists after each call, once complete.

    Each method is one call into the parser's engine (`jsondrip._engine.Engine`, the contract
    both backends implement), which does all the work, the schema check included. `feed`,
    `feed_changes` and `progress`, called once per fragment, are the base's
    (`_engine.EngineFront`): native calls into the engine on a native build, no Python frame
    in between.
    """

    __slots__ = (  # the engine is held by the base (`_engine`), with the per-fragment calls
        "_documents",
        "_partial_reader",
        "backend",
        "mode",
        "schema",
    )

    def __init__(
        self,
        *,
        mode: str = "stable",
        backend: str | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        max_size: int | None = None,
        schema: Any = None,
        multiple: bool = False,
        watch: Any = None,
    ) -> None:
        super().__init__()
        self._partial_reader: Any = None
        self.backend: str = _engine.resolve(backend, streaming=True)
        self.mode: str = mode
        self.schema: Schema | None = None
        if schema is not None:
            from .schema.schema import Schema

            self.schema = schema if isinstance(schema, Schema) else Schema(schema)
        options = EngineOptions(mode, max_depth, max_size, self.schema)
        self._documents: Documents | None = None
        engine: Engine
        if multiple or watch is not None:
            # several documents, or completed values: a reader that keeps track of them and
            # answers as an engine does (the methods below call it as they call an engine)
            from ._documents import Documents

            self._documents = Documents(self.backend, options, multiple, watch, self.schema)
            engine = self._documents  # type: ignore[assignment]
        else:
            engine = _engine.make_engine(self.backend, options)
        self._engine = engine

    if TYPE_CHECKING:  # inherited from the base (`_engine.EngineFront`), documented here

        def feed(self, chunk: Chunk) -> Any:
            """Read a fragment (str, or UTF-8 bytes) and return the current best-effort value.

            Raises `JSONDecodeError` as soon as the text cannot be the start of a valid
            document, and again on every later call. With `schema=`, raises `SchemaViolation`
            as soon as the text cannot be completed into a document the schema accepts (and
            again later).
            """

        def feed_changes(self, chunk: Chunk) -> list[Change]:
            """Read a fragment like `feed`, and return the changes it made to the value.

            Each is a `Change(op, path, value)` with a JSON Pointer `path`: `add` (a new
            property, element or root, containers announced empty), `append` (text added to a
            string: `value` is only the new text), `replace` (a value set anew: a repeated key,
            or in jiter mode a number whose digits grew) and, in jiter mode only, `remove` (a
            number taken back). `apply_changes` replays them. A string growing in this mode
            costs only its new text: its slot in the live value is brought up to date when
            `value` is read.
            """

        def progress(self, path: str = "") -> Progress:
            """The typed view of the value at a JSON Pointer `path` (needs `schema=`): whether
            it is missing, still arriving or final (and valid), its live value, and for an
            enum string still arriving the members it can still become. After a
            `SchemaViolation` it raises that violation again."""

    @property
    def value(self) -> Any:
        """The current best-effort value, without feeding (`MISSING` before any value).

        After a `SchemaViolation` it raises that violation again: the value broke the schema.
        After a `JSONDecodeError` it is the value as far as the text was valid."""
        return self._engine.value

    @property
    def done(self) -> bool:
        """True once a complete document has been read."""
        return self._engine.done

    def close(self) -> Any:
        """End the stream: return the final value, or raise `JSONDecodeError` if the document
        is invalid, its subclass `IncompleteJSONError` if it is a valid start cut short.

        With `schema=`, raises `SchemaViolation` if the complete document breaks the schema;
        with `Schema.from_model(Model)`, returns the validated model instead of the dict (what
        pydantic refuses is a `SchemaViolation` whose `__cause__` is its `ValidationError`).
        """
        value = self._engine.close()
        schema = self.schema
        if schema is None:
            return value
        documents = self._documents
        if documents is not None and documents.multiple:
            return [schema.validate_model(document) for document in value]
        return schema.validate_model(value)

    def close_changes(self) -> list[Change]:
        """End the stream like `close` (the same errors), and return the changes that
        completing the document made: the `add` of a top-level number or literal (`12`
        fed, then `3` fed: no feed could show it), or in jiter mode the `replace` of a number
        shown as it arrived. Applying every `feed_changes` list and then these gives the final
        value for every document. Closed already: `[]`. With `schema=`, raises
        `SchemaViolation` as `close` does.
        """
        return self._engine.close_changes()

    def partial(self) -> Any:
        """With `Schema.from_model(Model)`: the value so far as the model, never ahead of it.

        A partial instance (the same one, updated in place by later reads, like `value`):
        fields the text has not started are unset (absent from `model_fields_set`, their
        attribute None, never their default); a field still arriving shows what has arrived
        (a growing string, a list whose finished items are validated, a nested partial
        model); a value is validated, its validators included, once it is complete. Once the
        document is complete: the validated model. docs/schema.md has the rules.
        """
        reader = self._partial_reader
        if reader is None:
            if self.schema is None or self.schema.model is None:
                raise ValueError(
                    "partial() needs a Parser made with schema=Schema.from_model(Model)"
                )
            documents = self._documents
            if documents is not None and documents.multiple:
                return documents.partials()
            from .schema.models import PartialReader

            engine = self._engine  # its live `value` and `done`
            reader = self._partial_reader = PartialReader(self.schema, engine)
        return reader.read()

    @property
    def completed(self) -> list[tuple[str, Any]]:
        """With `watch=`: the watched values the last call (`feed`, `feed_changes`, `close`)
        completed, as `(path, value)` pairs in the order they completed; else empty."""
        documents = self._documents
        return [] if documents is None else documents.completed

    def __repr__(self) -> str:
        return f"<jsondrip.Parser mode={self.mode!r} backend={self.backend!r} done={self.done}>"


def parse_partial(
    data: Chunk, *, mode: str = "stable", backend: str | None = None, final: bool = False
) -> Any:
    """The best-effort value of one buffer that may be cut short (`MISSING` if none began).

    Raises `JSONDecodeError` only if the text cannot be the start of a valid document. With
    `final=True` the buffer is the whole document: its value, or `IncompleteJSONError` if it
    is cut short (as `Parser.close()`). With `backend="jiter"` (mode "jiter" only), jiter
    itself is called.
    """
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        kind = type(data).__name__
        raise TypeError(f"parse_partial() takes str, bytes, bytearray or memoryview, not {kind}")
    if backend == "jiter":
        _engine.resolve(backend, streaming=False)  # ValueError if jiter is not installed
    elif backend is None and _engine.env_backend() == "jiter" and not final and mode == "jiter":
        # $JSONDRIP_BACKEND=jiter: jiter answers what it can (its own partial values); any
        # other call streams on the best streaming backend, as `Parser` would.
        backend = _engine.resolve(None, streaming=False)
    if backend == "jiter":
        if final:
            msg = "backend 'jiter' gives partial values only: final=True needs 'native' or 'python'"
            raise ValueError(msg)
        return _jiter_partial(data, mode)
    name = _engine.resolve(backend, streaming=True)
    parser = Parser(mode=mode, backend=name)
    parser.feed(data)
    if parser.done or final:
        return parser.close()
    return parser.value


def _jiter_partial(data: Chunk, mode: str) -> Any:
    import jiter

    if mode != "jiter":
        raise ValueError("backend 'jiter' gives jiter's partial values: use mode='jiter'")
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    try:
        return jiter.from_json(raw, partial_mode="trailing-strings")
    except ValueError:
        return MISSING


def _same(value: Any) -> Any:
    return value


def iter_values(
    chunks: Iterable[Chunk], *, copy: bool = False, **parser_options: Any
) -> Iterator[Any]:
    """Yield the value after each chunk of an iterable; the stream must end complete.

    The values are live by default: the same dict or list is yielded again as it grows (see
    `Parser`), so use each one before asking for the next, and `list(iter_values(chunks))` is
    N references to the final value. `copy=True` yields a snapshot of each instead (every
    dict and list copied, strings and numbers shared, as `ToolCallDelta.snapshot()`): what to
    collect or hand to another task, as jsonriver's values are. A snapshot costs the value's
    size, so snapshots of every chunk of a long document cost its length squared.

    After the last chunk the document is closed, so a truncated stream raises
    `JSONDecodeError`; the last value yielded is always the whole document: when closing
    completes it (a top-level `123`, which no chunk could show since a digit might follow),
    it is yielded once more. `parser_options` go to `Parser`.
    """
    parser = Parser(**parser_options)
    keep = frozen_copy if copy else _same
    value = MISSING
    for chunk in chunks:
        value = parser.feed(chunk)
        yield keep(value)
    final = parser.close()
    if final is not value:
        yield keep(final)


async def aiter_values(
    chunks: AsyncIterable[Chunk], *, copy: bool = False, **parser_options: Any
) -> AsyncIterator[Any]:
    """`iter_values` for an async iterable of chunks (as jsonriver's `parse` takes): live
    values by default, snapshots with `copy=True`."""
    parser = Parser(**parser_options)
    keep = frozen_copy if copy else _same
    value = MISSING
    async for chunk in chunks:
        value = parser.feed(chunk)
        yield keep(value)
    final = parser.close()
    if final is not value:
        yield keep(final)

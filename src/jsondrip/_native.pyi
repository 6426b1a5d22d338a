"""Type stub of the native extension (the Rust core, rust/python/). Reached only through
`jsondrip._engine` (the engine contract); use `jsondrip.Parser`."""

from typing import Any

_Chunk = str | bytes | bytearray | memoryview

def loads_fast(
    data: Any,
    object_hook: Any = None,
    parse_float: Any = None,
    parse_int: Any = None,
    parse_constant: Any = None,
    object_pairs_hook: Any = None,
) -> Any:
    """A whole document as json.loads gives it, or NotImplemented when the standard library
    must read it (invalid text, UTF-16/32 bytes)."""

def configure(
    dialect: tuple[bool, bool],
    missing: Any,
    decode_error: type,
    incomplete_error: type,
    change: type,
) -> None:
    """Tell the extension, once (jsondrip._engine does, at import), the running interpreter's
    json dialect and the classes its results are made of."""

class EngineFront:
    """The base of `jsondrip.Parser`: holds its engine and forwards `feed`, `feed_changes` and
    `progress` to it in one native call (`jsondrip._engine.PythonFront` is its twin)."""

    _engine: Any
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def feed(self, chunk: _Chunk) -> Any:
        """The engine's `feed`."""
    def feed_changes(self, chunk: _Chunk) -> list[Any]:
        """The engine's `feed_changes`."""
    def progress(self, path: str = "") -> Any:
        """The engine's `progress`."""

class SchemaTable:
    """A schema's node table converted once for the native checker (rust/python/schema.rs);
    every `NativeEngine` made with the schema shares it."""

    def __init__(self, table: Any) -> None:
        """`table`: `(rows, nodes, hooks)`, `jsondrip.schema.table.native_table`'s answer."""

class NativeEngine:
    """The native engine of one JSON stream: `jsondrip._engine.Engine`, implemented in Rust."""

    def __init__(self, options: Any) -> None:
        """`options`: a `jsondrip._engine.EngineOptions` (mode, max_depth, max_size, dialect,
        schema: a compiled `Schema`, whose `native_table()` the core checks with)."""
    def progress(self, path: str | None = None) -> Any:
        """With a schema: the `jsondrip.schema.Progress` of the value at a JSON Pointer."""
    def feed(self, chunk: _Chunk) -> Any:
        """Read one fragment and return the current best-effort value (with `stop_at_end`,
        `NotImplemented` when the document ended in this fragment)."""
    def feed_changes(self, chunk: _Chunk) -> list[Any]:
        """Read one fragment and return the `jsondrip.Change`s it made to the value."""
    def feed_pending(self, chunk: _Chunk) -> PendingChanges | None:
        """Read one fragment like `feed_changes`; its changes kept as data, or None."""
    @property
    def value(self) -> Any:
        """The current best-effort value (live: updated in place by later feeds)."""
    @property
    def done(self) -> bool:
        """True once a complete document has been read."""
    @property
    def end(self) -> tuple[int, int, int] | None:
        """With `stop_at_end`: where the document ended (position, line, column), else None."""
    @property
    def end_index(self) -> int | None:
        """With `stop_at_end`: `end`'s index in the fragment that held it, else None."""
    @property
    def open_depth(self) -> int:
        """How many values along the live value's last path are still arriving."""
    def close(self) -> Any:
        """End the stream: the final value, or JSONDecodeError if it is incomplete."""
    def debug_state(self) -> dict[str, Any]:
        """The machine's state as a dict (`jsondrip._engine.Engine.debug_state`); the Python
        twin gives the same."""
    def debug_memory(self) -> dict[str, int]:
        """What the engine holds, in bytes, by part (`jsondrip._engine.Engine.debug_memory`)."""
    def close_changes(self) -> list[Any]:
        """End the stream like `close` and return the `Change`s that completing it made."""

class PendingChanges:
    """The changes one fragment made, kept as data until `build()` (rust/python/changes.rs);
    twin: `jsondrip.twin.PendingChanges`."""

    def build(self) -> tuple[Any, ...]:
        """The `jsondrip.Change`s, as `feed_changes` would have listed them (a new tuple)."""
    def __len__(self) -> int: ...

class ChunkMatcher:
    """An SSE chunk framed as the last routed one (`rust/envelope`); twin of
    `jsondrip.toolcalls.shortcut.ChunkMatcher`."""

    def __init__(self, texts: list[str], holes: str) -> None: ...
    def fragment(self, chunk: bytes, head: Any = None) -> str | None:
        """The chunk's decoded fragment literal if it is framed as this one's (its head hole,
        if any, holding `head`), else None."""

class DictMatcher:
    """A decoded event shaped as the last routed fragment event (rust/python/dict_match.rs):
    the same dicts and scalars, another str at `path`, `ignored` keys anywhere."""

    def __init__(self, event: Any, path: list[str], ignored: list[str]) -> None: ...
    def fragment(self, event: Any, head: Any = None) -> str | None:
        """The event's fragment (the str itself) if it matches the template, else None."""

class PartialArgs:
    """One Vertex call's partialArgs writer (`rust/envelope/partial_args.rs`); twin of
    `jsondrip.toolcalls.partial_args.PartialArgsWriter`, beside it in `VertexArgs`."""

    def __init__(self) -> None: ...
    def feed(self, entries: Any) -> str | None:
        """The text the entries add; None: the twin decides (nothing changed); ValueError
        for a piece out of document order."""
    def feed_chunk(self, matcher: Any, chunk: bytes) -> str | None:
        """The text a whole SSE chunk's pieces add if `matcher` (a `ChunkMatcher`) frames it
        around the `partialArgs` array; None: the long way (nothing changed)."""
    def end(self) -> str:
        """The call ended: the text that closes whatever is open."""
    @property
    def ended(self) -> bool:
        """`end()` was called."""
    def state(self) -> tuple[Any, ...]:
        """`(containers, open, string, ended)`, as the twin's `state()`."""
    @staticmethod
    def from_state(state: Any) -> PartialArgs:
        """A writer in `state` (as `state()` gives it, or the twin's)."""

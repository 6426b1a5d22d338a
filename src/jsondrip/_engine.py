"""The engine door: the one contract every layer reaches the parser core through.

An *engine* parses one JSON stream: fragments in, the live value, change events, schema
checks and the typed view out. Two backends implement the same contract, `Engine` below:

- `"native"`: `jsondrip._native.NativeEngine` (rust/python/engine.rs over the Rust core,
  rust/core/);
- `"python"`: the stdlib-only twin, `PythonEngine` (twin/engine.py), and with a schema
  `CheckedEngine` (twin/schema/checked.py): one class per configuration, so that a plain
  engine's `feed` runs no schema code at all.

`Parser` (_parser.py), `loads` (_loads.py), the tool-call layer (toolcalls/) and every layer
above reach the core through this module only: it is the one module that imports
`jsondrip._native` or `jsondrip.twin` (tests/test_architecture.py checks it). It also says
which backends exist and which one a call gets (`backend=`, `$JSONDRIP_BACKEND`), and hands
the tool-call layer the native helpers it uses for speed (`envelope()`), and `loads` the
native one-shot reader (`native_loads`).

The native extension takes values and returns values: it never imports a jsondrip module.
This module tells it, once at import, the few classes its results are made of (`MISSING`,
the two decode errors, `Change`) and the running interpreter's json dialect; a schema brings
its own callables (`Schema.native_table()`, converted once per schema by
`native_schema_table`).
"""

from __future__ import annotations

import functools
import os

from ._changes import Change
from ._dialect import DIALECT
from ._errors import IncompleteJSONError, JSONDecodeError
from ._missing import MISSING

# `typing` is not imported at run time, so that `import jsondrip` stays light
# (docs/architecture.md): for type checkers `Engine` and `PendingChanges` are Protocols, at
# run time plain classes that document the contract.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol, Union

    Chunk = Union[str, bytes, bytearray, memoryview]
    """What `feed` takes: text, or UTF-8 bytes cut anywhere."""
else:
    Protocol = object

NATIVE_IMPORT_ERROR: str | None = None
try:
    from . import _native
except ImportError as error:  # the extension did not build; the tests refuse to run without it
    _native = None  # type: ignore[assignment]
    NATIVE_IMPORT_ERROR = str(error)
else:
    _native.configure(DIALECT, MISSING, JSONDecodeError, IncompleteJSONError, Change)

try:  # written only into the pure-Python wheel (build_backend/pure_build_marker.py)
    from . import _pure_build  # type: ignore[attr-defined]
except ImportError:
    _pure_build = None

#: "native" if this install was built with the Rust extension, "pure" if built without it on
#: purpose (the py3-none-any wheel): then a missing `_native` is expected, not a failure.
BUILD = "native" if _pure_build is None else "pure"

STREAMING = ("native", "python")
"""The backends that have an engine (jiter reads one-shot only)."""
MODES = ("stable", "jiter")
ENV_VAR = "JSONDRIP_BACKEND"
DEFAULT_MAX_DEPTH = 1024


# -- the contract -----------------------------------------------------------------------------


class EngineOptions:
    """What an engine is built from (`make_engine`), read once by the engine. New engine
    features add a field here, with a default that keeps today's behaviour, not an argument
    to every constructor.

    - `mode`: `"stable"` (never retract what was shown) or `"jiter"` (show what jiter shows);
    - `max_depth`: the most containers open at once (one more is a positioned
      `JSONDecodeError`);
    - `max_size`: the most characters the stream may have (None: no limit);
    - `schema`: a compiled `jsondrip.Schema` to check the stream against, or None;
    - `dialect`: json's dialect `(trailing_comma, escape_at_end_unterminated)` (`_dialect.py`),
      None: the running interpreter's;
    - `stop_at_end`: once the document is complete, the first character after it that is not
      whitespace ends the stream (`Engine.end` says where) instead of being "Extra data": the
      text after a document (a model's prose, the next document) is the caller's.
    """

    __slots__ = ("dialect", "max_depth", "max_size", "mode", "schema", "stop_at_end")

    def __init__(
        self,
        mode: str = "stable",
        max_depth: int = DEFAULT_MAX_DEPTH,
        max_size: int | None = None,
        schema: Any = None,
        dialect: tuple[bool, bool] | None = None,
        stop_at_end: bool = False,
    ) -> None:
        self.mode = mode
        self.stop_at_end = stop_at_end
        self.max_depth = max_depth
        self.max_size = max_size
        self.schema = schema
        self.dialect = dialect

    def replace(self, **fields: Any) -> EngineOptions:
        """A copy with `fields` changed."""
        kept = {name: getattr(self, name) for name in self.__slots__}
        return EngineOptions(**{**kept, **fields})

    def __eq__(self, other: object) -> bool:
        if type(other) is not EngineOptions:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # a schema need not be hashable

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"EngineOptions({fields})"


DEFAULTS = EngineOptions()
"""A plain stable-mode engine's options (never changed: make another one)."""


class PendingChanges(Protocol):
    """The changes one fragment made, kept as data until asked for (`Engine.feed_pending`)."""

    def build(self) -> tuple[Change, ...]:
        """The changes as `Change`s, as `feed_changes` lists them (a new tuple each call)."""

    def __len__(self) -> int:
        """How many changes (never 0: an engine gives None instead)."""


class Engine(Protocol):
    """One JSON stream being parsed: what both backends' engines do, with the same names.

    Errors: a text that cannot start a valid document raises `JSONDecodeError` (json's
    message and position; `IncompleteJSONError` from `close` when it only ended too early); a
    text that breaks the schema raises `SchemaViolation`. Either is *sticky*: every later
    `feed*`, `close*` and `progress` raises it again (a fresh copy each time), and after a
    `SchemaViolation` so does `value` (the value broke the schema: it is not shown). A second
    thread calling in while one is inside gets `RuntimeError` (one thread at a time).
    """

    def feed(self, chunk: Chunk) -> Any:
        """Read one fragment (str, or UTF-8 bytes cut anywhere) and return the live value:
        the best value so far (`MISSING` before any began), updated in place by later feeds.
        With `stop_at_end`: `NotImplemented` instead (never a JSON value) when the document
        ended in this fragment, and only then: `end` and `end_index` say where, `value` gives
        the value. A caller that owns the text after the document needs no other check per
        fragment (`OutputParser`'s fast path)."""

    def feed_changes(self, chunk: Chunk) -> list[Change]:
        """Read one fragment like `feed`, and return the `Change`s it made to the value (a
        growing string's slot in the live value is brought up to date when `value` is read)."""

    def feed_pending(self, chunk: Chunk) -> PendingChanges | None:
        """`feed_changes` for hot paths: None when the fragment changed nothing, else the
        changes kept as data, made into `Change`s only by `build()`."""

    @property
    def value(self) -> Any:
        """The live value, without reading anything (`MISSING` before any value began)."""

    @property
    def done(self) -> bool:
        """True once a complete document has been read (more text may only be blanks)."""

    @property
    def end(self) -> tuple[int, int, int] | None:
        """With `stop_at_end`: where the document ended, once a fragment held its end: the
        first character after it that is not whitespace, as its position (characters from the
        stream's start), line and column (1-based); None before (and without `stop_at_end`).
        Nothing from there on is read: later feeds read nothing, `close` ends the document."""

    @property
    def end_index(self) -> int | None:
        """With `stop_at_end`, once a fragment held the document's end: the index in that
        fragment (in characters) of `end`'s position, the first character not read; None
        before (and without `stop_at_end`)."""

    @property
    def open_depth(self) -> int:
        """How many values along the live value's last path (the last member or element of
        the last ... of the root) are still arriving: the open containers, and the string
        (or, in jiter mode, the number) shown at their end. Every other value shown is
        complete: what `watch=` reports as completed stands on this."""

    def close(self) -> Any:
        """End the stream: the final value, or the error that says why it is not one. A
        closed engine stays closed: `close` again returns the value, `feed` raises."""

    def close_changes(self) -> list[Change]:
        """End the stream like `close`, and return the changes that completing it made (the
        `add` of a top-level number, which no feed could show)."""

    def progress(self, path: str | None = None) -> Any:
        """With a schema: the `jsondrip.Progress` of the value at the JSON Pointer `path`
        (None is the root): missing, arriving (with the enum members an arriving string can
        still become) or final. Without one: ValueError."""

    def debug_state(self) -> dict[str, Any]:
        """The machine's state as plain data, field for field the same on both backends:
        `state` (its name), `number` (the sub-state while in a number, else None), `stack`
        (the open containers, outermost first: `{` an object, `[` an array), `in_key` (the
        string being read is a key), `literal` and `hex` (how many characters of a literal,
        of a `\\u` escape were read, else None), `high` (a high surrogate waiting for its
        low half, else 0), `line` (1-based) and `offset` (characters read)."""

    def debug_memory(self) -> dict[str, int]:
        """What the engine holds, in bytes, by part, the value's own objects excluded (they
        are the user's): `object` (the engine's fixed-size state), `buffers` (what it holds
        beside that, grown with need: the container stack, the text of an open token, the
        last fragment kept for an error), `keys` (the key cache) and `schema` (the schema
        check, when there is one). A new engine preallocates nothing: its `buffers` and
        `keys` are small constants (0 on the native backend). Sizes are this backend's own
        (Rust capacities, or `sys.getsizeof`), not comparable across backends."""


PENDING_TYPES: set[type] = set() if _native is None else {_native.PendingChanges}
"""The types `Engine.feed_pending` returns (`type(x) in PENDING_TYPES`: x is pending changes,
not a tuple of `Change`s); the twin's joins when its first engine is made."""


# -- which backend ----------------------------------------------------------------------------


# os.environ.get raises and catches a KeyError when the variable is unset (about 1 µs, more
# than a small loads); os.environ's own dict, kept in step by every write through os.environ,
# answers in a plain lookup.
_ENVIRON_DATA = getattr(os.environ, "_data", None)
_ENV_KEY = os.environ.encodekey(ENV_VAR) if hasattr(os.environ, "encodekey") else ENV_VAR


def env_backend() -> str | None:
    """The backend named by $JSONDRIP_BACKEND, or None (unset or empty)."""
    if _ENVIRON_DATA is None:
        raw = os.environ.get(ENV_VAR)
    else:
        data = _ENVIRON_DATA.get(_ENV_KEY)
        raw = None if data is None else os.environ.decodevalue(data)
    return raw or None


def available_backends() -> list[str]:
    """The usable backends, in order of preference.

    `"native"` (the Rust core) when the extension is built, `"python"` (the stdlib-only twin)
    always, and `"jiter"` when jiter is installed (one-shot calls only: it cannot stream).
    """
    return list(_usable())


@functools.lru_cache(maxsize=1)
def _usable() -> tuple[str, ...]:
    names = ["native"] if _native is not None else []
    names.append("python")
    from importlib.util import find_spec

    if find_spec("jiter") is not None:
        names.append("jiter")
    return tuple(names)


def backend_summary() -> str:
    """One line saying which backend is installed, for `jsondrip --version` and bug reports."""
    if _native is not None:
        return "native backend (Rust) and python twin"
    if BUILD == "pure":
        return "python backend only (pure-Python build)"
    return "python backend only (native extension failed to import)"


def resolve(backend: str | None, *, streaming: bool) -> str:
    """The backend a call uses: the one asked for, else $JSONDRIP_BACKEND, else the first.

    `backend=` is obeyed or refused (ValueError: not installed, unknown, or jiter asked to
    stream). The environment variable only ever chooses among the backends that can do the
    job: jiter there serves one-shot calls, and streaming takes the first streaming backend;
    a name that is not installed (or a typo) is ignored with one RuntimeWarning saying so.
    """
    usable = _usable()
    if backend is not None:
        if backend not in usable:
            raise ValueError(_not_usable(backend))
        if streaming and backend not in STREAMING:
            raise ValueError(f"backend {backend!r} cannot stream; use 'native' or 'python'")
        return backend
    name = env_backend()
    if name is not None and name not in usable:
        _warn_once(f"${ENV_VAR}={name!r} ignored: {_not_usable(name)}")
        name = None
    if name is None:
        # One-shot calls prefer jiter to the standard library; streaming cannot use it.
        if not streaming and usable[0] == "python" and "jiter" in usable:
            return "jiter"
        return usable[0]
    if streaming and name not in STREAMING:
        return usable[0]  # jiter reads one-shot calls only: streaming takes the best engine
    return name


def _not_usable(name: str) -> str:
    known = "native", "python", "jiter"
    why = "is not installed" if name in known else f"is not one of {', '.join(known)}"
    return f"backend {name!r} {why}; usable here: {', '.join(_usable())}"


@functools.lru_cache(maxsize=16)
def _warn_once(message: str) -> None:
    import warnings

    warnings.warn(message, RuntimeWarning, stacklevel=4)


# -- making engines ---------------------------------------------------------------------------


def make_engine(backend: str, options: EngineOptions = DEFAULTS) -> Engine:
    """A fresh engine of the streaming backend `backend` ("native" or "python"), built from
    `options` (checked here: a bad mode, depth or size is a ValueError on both backends)."""
    if options.mode not in MODES:
        raise ValueError(f"mode must be 'stable' or 'jiter', not {options.mode!r}")
    if options.max_depth < 1:
        raise ValueError("max_depth must be at least 1")
    if options.max_size is not None and options.max_size < 0:
        raise ValueError("max_size must be None or at least 0")
    if backend == "native":
        if _native is None:
            raise ValueError(_not_usable("native"))
        return _native.NativeEngine(options)  # type: ignore[no-any-return]
    if backend != "python":
        raise ValueError(f"backend {backend!r} cannot stream; use 'native' or 'python'")
    from .twin.engine import PendingChanges, PythonEngine

    PENDING_TYPES.add(PendingChanges)  # before the first twin engine can make one
    if options.schema is not None:
        from .twin.schema.checked import CheckedEngine

        return CheckedEngine(options)
    return PythonEngine(options)


def default_engine(options: EngineOptions = DEFAULTS) -> Engine:
    """`make_engine` on the backend a `Parser()` gets (`$JSONDRIP_BACKEND` obeyed)."""
    return make_engine(resolve(None, streaming=True), options)


# -- native operations for the layers above ---------------------------------------------------

native_schema_table: Any = None if _native is None else _native.SchemaTable
"""`SchemaTable((rows, nodes, hooks))`: a schema's node table (`jsondrip.schema.table.
native_table`) converted once for the native checker, which every `NativeEngine` made with
that schema shares (`Schema.native_table()` keeps it); None without the native extension."""

native_loads: Any = None if _native is None else _native.loads_fast
"""`loads_fast(s, object_hook, parse_float, parse_int, parse_constant, object_pairs_hook)`:
one whole document as `json.loads` gives it, or NotImplemented when the standard library must
read it (invalid text, UTF-16/32 bytes); None without the native extension."""


class PythonFront:
    """The base of `Parser` and `OutputParser`: holds the engine that reads the next
    fragments (`_engine`) and forwards `feed` (and `feed_changes`, `progress`) to it. On a
    native build the base is `_native.EngineFront`, the same rules in Rust: a Python method
    that only delegates costs a frame per fragment, as much as the engine's own work on a few
    characters (docs/bench.md, per fragment). This class is its twin, for pure builds.

    A subclass that sets `_hooks = True` (`OutputParser`) reads only str fragments the fast
    way, and only while `_engine` is set; it takes over where the engine stops:
    `_feed_slow(chunk)` without an engine or for bytes, `_feed_ended(chunk)` when the
    engine's `feed` returned `NotImplemented` (its document ended in `chunk`),
    `_feed_failed(chunk, error)` when it raised."""

    __slots__ = ("__weakref__", "_engine", "_hooks")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._engine: Any = None
        self._hooks = False

    def feed(self, chunk: Chunk) -> Any:
        """The engine's `feed` (documented as `Parser.feed`), by the rules above."""
        engine = self._engine
        if not self._hooks:
            return engine.feed(chunk)
        if engine is None or type(chunk) is not str:
            return self._feed_slow(chunk)  # type: ignore[attr-defined]
        try:
            value = engine.feed(chunk)
        except Exception as error:  # the subclass sorts them
            return self._feed_failed(chunk, error)  # type: ignore[attr-defined]
        if value is NotImplemented:
            return self._feed_ended(chunk)  # type: ignore[attr-defined]
        return value

    def feed_changes(self, chunk: Chunk) -> list[Change]:
        """The engine's `feed_changes` (documented as `Parser.feed_changes`)."""
        return self._engine.feed_changes(chunk)

    def progress(self, path: str = "") -> Any:
        """The engine's `progress` (documented as `Parser.progress`)."""
        return self._engine.progress(path)


if TYPE_CHECKING:
    EngineFront = PythonFront
else:
    EngineFront = PythonFront if _native is None else _native.EngineFront
    """`Parser`'s base: `_native.EngineFront` when the extension is there, else `PythonFront`."""


class Envelope:
    """The native helpers of the tool-call layer (rust/envelope/, rust/python/): a tool-call
    event's envelope checked and its fragment read in Rust. Their twins are Python classes in
    toolcalls/ (`shortcut.ChunkMatcher`, `partial_args.PartialArgsWriter`).

    - `ChunkMatcher(texts, holes).fragment(chunk: bytes, head=None) -> str | None`;
    - `DictMatcher(event, path, ignored).fragment(event: dict, head=None) -> str | None`;
    - `PartialArgs`: Vertex's partialArgs writer (see `toolcalls/vertex_args.py`).
    """

    __slots__ = ("ChunkMatcher", "DictMatcher", "PartialArgs")

    def __init__(self, native: Any) -> None:
        self.ChunkMatcher = native.ChunkMatcher
        self.DictMatcher = native.DictMatcher
        self.PartialArgs = native.PartialArgs


_ENVELOPE = None if _native is None else Envelope(_native)


def envelope() -> Envelope | None:
    """The native tool-call helpers when streams run on the native backend (the default one,
    `$JSONDRIP_BACKEND` obeyed), else None: the tool-call layer then uses their twins."""
    if _ENVELOPE is None or resolve(None, streaming=True) != "native":
        return None
    return _ENVELOPE

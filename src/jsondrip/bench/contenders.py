"""The contenders, each a function over the peer's public API; a peer not installed says so.

Streaming: a document arrives as a list of ``str`` chunks and the value is read after every one.

- ``jsondrip-native``, ``jsondrip-python``: ``Parser(backend=...)``, ``feed`` per chunk (it
  returns the live value: that is the read), ``close()`` for the final value.
- ``jsonriver``: ``jsonriver.parse`` over an async iterator of the chunks. It yields only after
  chunks that changed something and its top-level value is live, so the value after a chunk is
  the last one yielded. Nothing in it suspends, so the coroutine is stepped by hand (no event
  loop, which would only add cost).
- Re-parsers, the way the OpenAI and Anthropic SDKs read tool-call arguments: append the chunk
  to a buffer and parse all of it at every read. ``jiter``: ``from_json(buffer_bytes,
  partial_mode="trailing-strings")``; ``partial-json-parser``: ``loads(buffer)``; ``partialjson``:
  ``JSONParser().parse(buffer)``; ``json_repair``: ``loads(buffer, stream_stable=True)``. A read
  that raises counts as "no value yet" (``jsondrip.MISSING``).

- ``streaming-json-parser``: ``StreamingJsonParser().feed(chunk)`` returns a ``ParseResult``
  whose ``value`` is the value so far (live, as jsondrip's) and whose ``status`` is ``empty``
  before any (a read of no value), ``partial`` or ``complete``; ``finish()`` gives the last.
  The package runs on its native extension when ``streaming-json-parser-native`` is installed
  (it picks it itself). ``streaming-json-parser-native``: that extension's own
  ``IncrementalJsonParser().feed(chunk)``, the same results without the Python layer.
- jsonmodem (Rust, linear, path events) has Python bindings only in a fork, with no release on
  PyPI: it is not a contender.

One-shot: ``loads`` of a whole document given as ``bytes``: ``jsondrip.loads``, ``json.loads``,
``orjson.loads``, ``ssrjson.loads``, ``jiter.from_json``, ``msgspec.json.decode``,
``yyjson.loads`` (the Python binding of yyjson), ``simdjson.loads`` (pysimdjson).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import platform
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from .._missing import MISSING

T = TypeVar("T")
Run = Callable[[list[str]], Any]
Observe = Callable[[int, Any], None]
Watch = Callable[[list[str], Observe], Any]
Read = Callable[[str], Any]


@dataclass(frozen=True)
class StreamContender:
    """A way to read a streamed document.

    ``run(chunks)`` reads the value after every chunk and returns the final value (the timed
    function). An incremental contender also has ``watch(chunks, observe)``, which calls
    ``observe(i, value)`` after chunk ``i``; a re-parser has ``read(prefix)``, the value it
    shows once ``prefix`` has arrived, so single reads can be timed and checked on their own.
    """

    name: str
    label: str
    api: str
    incremental: bool
    run: Run
    watch: Watch | None = None
    read: Read | None = None
    version: str = ""
    missing: str | None = None


@dataclass(frozen=True)
class LoadsContender:
    """A one-shot parser of a whole document given as ``bytes``."""

    name: str
    label: str
    api: str
    loads: Callable[[bytes], Any]
    version: str = ""
    missing: str | None = None


def dist_version(dist: str) -> str:
    """The installed version of distribution ``dist``, or ``""``."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return ""


def _unavailable(*_args: Any) -> Any:
    raise RuntimeError("contender not installed")


def _jsondrip(backend: str) -> StreamContender:
    name, label = f"jsondrip-{backend}", f"jsondrip ({backend})"
    api = f'Parser(backend="{backend}").feed(chunk)'
    from .._engine import available_backends
    from .._parser import Parser
    from .._version import __version__

    if backend not in available_backends():
        return StreamContender(name, label, api, True, _unavailable, missing="not built")

    def run(chunks: list[str]) -> Any:
        parser = Parser(backend=backend)
        feed = parser.feed
        for chunk in chunks:
            feed(chunk)
        return parser.close()

    def watch(chunks: list[str], observe: Observe) -> Any:
        parser = Parser(backend=backend)
        for i, chunk in enumerate(chunks):
            observe(i, parser.feed(chunk))
        return parser.close()

    return StreamContender(name, label, api, True, run, watch, version=__version__)


def drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends, without an event loop."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("coroutine suspended: it needs an event loop")


def _jsonriver() -> StreamContender:
    api = "jsonriver.parse(async_chunks)"
    try:
        parse = importlib.import_module("jsonriver").parse
    except ImportError:
        return StreamContender("jsonriver", "jsonriver", api, True, _unavailable, missing=_NI)

    async def source(chunks: list[str], after: Callable[[int], None]) -> AsyncIterator[str]:
        for i, chunk in enumerate(chunks):
            if i:
                after(i - 1)  # jsonriver has consumed chunk i - 1 when it asks for chunk i
            yield chunk
        if chunks:
            after(len(chunks) - 1)

    async def consume(chunks: list[str], observe: Observe | None) -> Any:
        latest: list[Any] = [MISSING]

        def after(i: int) -> None:
            if observe is not None:
                observe(i, latest[0])

        async for value in parse(source(chunks, after)):
            latest[0] = value
        return latest[0]

    def run(chunks: list[str]) -> Any:
        return drive(consume(chunks, None))

    def watch(chunks: list[str], observe: Observe) -> Any:
        return drive(consume(chunks, observe))

    version = dist_version("jsonriver")
    return StreamContender("jsonriver", "jsonriver", api, True, run, watch, version=version)


_NI = "not installed"


def _reparser(
    name: str, dist: str, api: str, make: Callable[[], Callable[[Any], Any]], as_bytes: bool
) -> StreamContender:
    """A contender that parses the whole buffer at every read, as the SDKs do."""
    try:
        parse = make()
    except ImportError:
        return StreamContender(name, name, api, False, _unavailable, missing=_NI)

    def run(chunks: list[str]) -> Any:
        buffer: Any = b"" if as_bytes else ""
        value: Any = MISSING
        for chunk in chunks:
            buffer += chunk.encode("utf-8") if as_bytes else chunk
            try:
                value = parse(buffer)
            except Exception:  # a prefix the peer cannot read yet: no value
                value = MISSING
        return value

    def read(prefix: str) -> Any:
        try:
            return parse(prefix.encode("utf-8") if as_bytes else prefix)
        except Exception:  # a prefix the peer cannot read yet: no value
            return MISSING

    version = dist_version(dist)
    return StreamContender(name, name, api, False, run, read=read, version=version)


def _make_jiter() -> Callable[[Any], Any]:
    from_json = importlib.import_module("jiter").from_json
    return lambda buffer: from_json(buffer, partial_mode="trailing-strings")


def _make_partial_json_parser() -> Callable[[Any], Any]:
    return importlib.import_module("partial_json_parser").loads  # type: ignore[no-any-return]


def _make_partialjson() -> Callable[[Any], Any]:
    parser_class = importlib.import_module("partialjson.json_parser").JSONParser
    try:  # partialjson >= 1.2 takes a callback; older ones print extra tokens to stdout
        parser = parser_class(on_extra_token=lambda *_: None)
    except TypeError:
        parser = parser_class()
    return parser.parse  # type: ignore[no-any-return]


def _make_json_repair() -> Callable[[Any], Any]:
    loads = importlib.import_module("json_repair").loads
    if "stream_stable" not in inspect.signature(loads).parameters:  # before json_repair 0.40
        return loads  # type: ignore[no-any-return]
    return lambda buffer: loads(buffer, stream_stable=True)


def _streaming_json_parser(
    name: str, module: str, api: str, make: str, finish: str
) -> StreamContender:
    """streaming-json-parser, or its native extension on its own: ``feed`` per chunk, then
    ``finish`` (the extension's ``finish_result``: its ``finish`` gives a tuple)."""
    try:
        parser_class = getattr(importlib.import_module(module), make)
    except (ImportError, AttributeError):
        return StreamContender(name, name, api, True, _unavailable, missing=_NI)

    def shown(result: Any) -> Any:
        status = getattr(result.status, "value", result.status)
        return MISSING if status in ("empty", "invalid") else result.value

    def run(chunks: list[str]) -> Any:
        parser = parser_class()
        feed = parser.feed
        for chunk in chunks:
            shown(feed(chunk))
        return shown(getattr(parser, finish)())

    def watch(chunks: list[str], observe: Observe) -> Any:
        parser = parser_class()
        for i, chunk in enumerate(chunks):
            observe(i, shown(parser.feed(chunk)))
        return shown(getattr(parser, finish)())

    version = dist_version(name)
    if name == "streaming-json-parser" and dist_version("streaming-json-parser-native"):
        version += " (on its native extension)"
    return StreamContender(name, name, api, True, run, watch, version=version)


def streaming_contenders() -> list[StreamContender]:
    """Every streaming contender, in table order, installed or not."""
    return [
        _jsondrip("native"),
        _jsondrip("python"),
        _jsonriver(),
        _streaming_json_parser(
            "streaming-json-parser",
            "streaming_json_parser",
            "StreamingJsonParser().feed(chunk)",
            "StreamingJsonParser",
            "finish",
        ),
        _streaming_json_parser(
            "streaming-json-parser-native",
            "streaming_json_parser_native",
            "IncrementalJsonParser().feed(chunk)",
            "IncrementalJsonParser",
            "finish_result",
        ),
        _reparser(
            "jiter",
            "jiter",
            'from_json(buffer, partial_mode="trailing-strings")',
            _make_jiter,
            as_bytes=True,
        ),
        _reparser(
            "partial-json-parser",
            "partial-json-parser",
            "partial_json_parser.loads(buffer)",
            _make_partial_json_parser,
            as_bytes=False,
        ),
        _reparser(
            "partialjson",
            "partialjson",
            "JSONParser().parse(buffer)",
            _make_partialjson,
            as_bytes=False,
        ),
        _reparser(
            "json_repair",
            "json-repair",
            "json_repair.loads(buffer, stream_stable=True)",
            _make_json_repair,
            as_bytes=False,
        ),
    ]


def _loads(name: str, dist: str, api: str, make: Callable[[], Callable[[bytes], Any]]) -> Any:
    try:
        loads = make()
    except ImportError:
        return LoadsContender(name, name, api, _unavailable, missing=_NI)
    version = f"(Python {platform.python_version()})" if dist == "python" else dist_version(dist)
    return LoadsContender(name, name, api, loads, version=version)


def _attr(module: str, name: str) -> Callable[[], Callable[[bytes], Any]]:
    return lambda: getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def loads_contenders() -> list[LoadsContender]:
    """Every one-shot contender, in table order, installed or not."""
    return [
        _loads("jsondrip", "jsondrip", "jsondrip.loads(data)", _attr("jsondrip", "loads")),
        _loads("orjson", "orjson", "orjson.loads(data)", _attr("orjson", "loads")),
        _loads("ssrjson", "ssrjson", "ssrjson.loads(data)", _attr("ssrjson", "loads")),
        _loads("jiter", "jiter", "jiter.from_json(data)", _attr("jiter", "from_json")),
        _loads("msgspec", "msgspec", "msgspec.json.decode(data)", _attr("msgspec.json", "decode")),
        _loads("yyjson", "yyjson", "yyjson.loads(data)", _attr("yyjson", "loads")),
        _loads("pysimdjson", "pysimdjson", "simdjson.loads(data)", _attr("simdjson", "loads")),
        _loads("json", "python", "json.loads(data)", _attr("json", "loads")),
    ]

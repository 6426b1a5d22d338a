"""The contenders: each consumes a list of chunks, reads the value after every chunk, returns it.

- ``jsondrip-native`` / ``jsondrip-python``: ``Parser(backend=...)``; ``feed`` returns the live
  value, which is the read; ``close()`` gives the final value.
- ``jiter-reparse``: what the OpenAI and Anthropic SDKs do: append the delta's UTF-8 bytes to a
  buffer and call ``jiter.from_json(buffer, partial_mode="trailing-strings")`` on all of it at
  every delta. A prefix jiter rejects (the empty one) reads as ``None``.
- ``jsonriver``: ``jsonriver.parse`` takes an ``AsyncIterator[str]``. It yields only after a chunk
  that changed something (a chunk inside a key or between tokens yields nothing) and the yielded
  top-level dict is live, so after every chunk the current value is the last one yielded: one
  read per chunk at no extra cost, and jsonriver's parsing work per chunk happens either way.
  It is driven by stepping the coroutine by hand (nothing in it ever suspends), which is cheaper
  than an event loop; ``jsonriver-asyncio`` runs the same consumer in a reused asyncio loop.
- ``copy-floor``: ``d["content"] = d["content"] + chunk`` per chunk, the cheapest way to hold a
  growing Python str in a dict; each read of a long string costs at least this copy.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from jsondrip.bench.contenders import drive

Run = Callable[[list[str]], Any]


@dataclass(frozen=True)
class Contender:
    """A way to read a streamed document; ``missing`` says why it cannot run, if it cannot."""

    name: str
    run: Run
    missing: str | None = None
    reparse: bool = False  # re-parses the whole buffer per chunk: reads can be timed one by one


def jsondrip_run(backend: str) -> Run:
    """A contender feeding chunks to ``jsondrip.Parser(backend=backend)``."""
    import jsondrip

    def run(chunks: list[str]) -> Any:
        parser = jsondrip.Parser(backend=backend)
        feed = parser.feed
        value = None
        for chunk in chunks:
            value = feed(chunk)
        del value
        return parser.close()

    run.__name__ = f"jsondrip_{backend}"
    return run


def jiter_reparse(chunks: list[str]) -> Any:
    """Re-parse the accumulated bytes with jiter after every chunk, as the SDKs do."""
    from jiter import from_json

    buffer = b""
    value: Any = None
    for chunk in chunks:
        buffer += chunk.encode("utf-8")
        try:
            value = from_json(buffer, partial_mode="trailing-strings")
        except ValueError:
            value = None
    return value


def jiter_read_at(prefix: bytes) -> Any:
    """One jiter read of a buffer: the unit ``jiter_reparse`` repeats, for sampled timing."""
    from jiter import from_json

    try:
        return from_json(prefix, partial_mode="trailing-strings")
    except ValueError:
        return None


async def _aiter_chunks(chunks: list[str]) -> AsyncIterator[str]:
    for chunk in chunks:
        yield chunk


async def _jsonriver_consume(chunks: list[str]) -> tuple[Any, int]:
    import jsonriver

    value: Any = None
    yields = 0
    async for value in jsonriver.parse(_aiter_chunks(chunks)):  # noqa: B007
        yields += 1
    return value, yields


def jsonriver_yields(chunks: list[str]) -> int:
    """How many values jsonriver yields for these chunks (it skips chunks that change nothing)."""
    return drive(_jsonriver_consume(chunks))[1]


def jsonriver_direct(chunks: list[str]) -> Any:
    """jsonriver, its coroutine stepped by hand."""
    return drive(_jsonriver_consume(chunks))[0]


_LOOP: asyncio.AbstractEventLoop | None = None


def jsonriver_asyncio(chunks: list[str]) -> Any:
    """jsonriver in a (reused) asyncio event loop."""
    global _LOOP
    if _LOOP is None:
        _LOOP = asyncio.new_event_loop()
    return _LOOP.run_until_complete(_jsonriver_consume(chunks))[0]


def copy_floor(chunks: list[str]) -> Any:
    """Hold the growing text as a str in a dict, copying it once per chunk."""
    d = {"content": ""}
    for chunk in chunks:
        d["content"] = d["content"] + chunk
    return d


def _missing_module(module: str) -> str | None:
    return None if importlib.util.find_spec(module) else f"{module} not installed"


def _jsondrip_missing(backend: str) -> str | None:
    try:
        import jsondrip
    except ImportError as exc:  # the implementation may not be built yet
        return f"jsondrip not importable ({exc})"
    backends = jsondrip.available_backends()
    return None if backend in backends else f"backend {backend!r} not available ({backends})"


def all_contenders() -> list[Contender]:
    """Every contender, with the reason it cannot run where it cannot."""
    out = []
    for backend in ("native", "python"):
        missing = _jsondrip_missing(backend)
        run = jsondrip_run(backend) if missing is None else _unavailable
        out.append(Contender(f"jsondrip-{backend}", run, missing))
    out += [
        Contender("jsonriver", jsonriver_direct, _missing_module("jsonriver")),
        Contender("jsonriver-asyncio", jsonriver_asyncio, _missing_module("jsonriver")),
        Contender("jiter-reparse", jiter_reparse, _missing_module("jiter"), reparse=True),
        Contender("copy-floor", copy_floor),
    ]
    return out


def _unavailable(chunks: list[str]) -> Any:
    raise RuntimeError("contender not available")

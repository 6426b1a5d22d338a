"""Hostile volume: memory stays flat however many parsers and feeds, and a parser keeps no
copy of the input it has consumed beyond the token it is inside.

Python allocations are measured with tracemalloc; the native core allocates with the system
allocator, which tracemalloc does not see, so the resident set size is measured too (coarser:
its bounds are a few MB, far below what a leak of a few bytes per cycle would add up to).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import sysconfig
from typing import Callable

import pytest

from jsondrip import JSONDecodeError, Parser

# PyPy has no tracemalloc (its garbage collector moves objects): these measurements need it.
tracemalloc = pytest.importorskip(
    "tracemalloc", reason="tracemalloc is not available on this interpreter (PyPy has none)"
)

CYCLES = 200_000
MB = 1024 * 1024
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def collect() -> None:
    """Free all garbage, memory included: gc.collect(), and on a free-threaded build a second
    one. There, the storage that other threads may read without a lock (a list's item array,
    a dict's keys, once the object is shared) is freed through QSBR: queued when the garbage
    is deleted, released once every thread has passed a quiescent state. A collection releases
    the queue first and deletes its garbage after (CPython 3.13 Python/gc_free_threading.c:
    process_delayed_frees, then delete_garbage), so one collection leaves the memory of what
    it just freed still allocated: tracemalloc and sys.getallocatedblocks() count it, and
    the count grows with the garbage, like a leak (it was 400 KB after 25,000 parser cycles
    on 3.13.5t). The second collection releases it; a real leak stays."""
    gc.collect()
    if FREE_THREADED:
        gc.collect()


# The free-threaded build allocates with mimalloc, which keeps freed pages for reuse and fills
# them in its own pattern: the RSS climbs to a plateau a few MB up and stays there (5 to 7 MB on
# 3.13.5t, flat from 50,000 to 300,000 parser cycles: no leak, which would keep climbing).
# There the RSS run starts after a warm-up as long as itself, and may grow by 4 MB; the twin's
# leaks are caught by tracemalloc anyway (a leak of 6 bytes a cycle passes its 64 KB bound
# long before it shows in the RSS), and no native build exists for 3.13t.
RSS_BOUND = 4 * MB if FREE_THREADED else 1 * MB


def rss() -> int:
    """The resident set size of this process, in bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")


def growth(work: Callable[[int], None], count: int, traced_count: int) -> tuple[int, int]:
    """(tracemalloc growth over `traced_count` runs of `work`, RSS growth over `count` runs),
    in bytes, after a warm-up (caches, free lists and arenas fill up first). tracemalloc slows
    every allocation tenfold, so it watches fewer runs; it sees every byte the twin allocates,
    and the RSS sees the native core's."""
    work(count if FREE_THREADED else max(count // 10, traced_count))
    collect()
    before_rss = rss()
    work(count)
    collect()
    resident = rss() - before_rss
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        work(traced_count)
        collect()
        traced = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return traced, resident


def counts(backend: str, native: int, twin: int) -> tuple[int, int]:
    """(runs watched by RSS, runs watched by tracemalloc): the twin is ten times slower."""
    count = native if backend == "native" else twin
    return count, min(count, twin // 4)


def cycles(backend: str) -> Callable[[int], None]:
    """`n` create/feed/close cycles, a valid and an invalid document in turn."""

    def work(n: int) -> None:
        for i in range(n):
            parser = Parser(backend=backend)
            if i % 2:
                parser.feed(b'{"a": [1, "\\u00e9", {"b": null}]}')
                parser.close()
            else:
                with contextlib.suppress(JSONDecodeError):
                    parser.feed('{"a": [1, "x" 2]')

    return work


@needs_proc
def test_create_feed_close_cycles_leave_memory_flat(backend: str) -> None:
    """200,000 cycles on the native backend (RSS: a leak of 6 bytes a cycle would pass 1 MB),
    50,000 on the twin, 12,500 of them traced (a leak of 6 bytes a cycle passes 64 KB). Not a
    million: that takes the twin 15 s and proves no more."""
    traced, resident = growth(cycles(backend), *counts(backend, CYCLES, CYCLES // 4))
    assert traced < 64 * 1024, traced
    assert resident < RSS_BOUND, resident


@needs_proc
def test_a_million_one_byte_feeds_leave_memory_flat(backend: str) -> None:
    """One-byte feeds of `, "a": [1, "xy"]` repeated: the value stays one property (later
    duplicate keys replace it), so nothing should grow."""
    parser = Parser(backend=backend)
    parser.feed('{"a": 0')
    chunk = [bytes([b]) for b in b', "a": [1, "xy"]']

    def work(n: int) -> None:
        feed = parser.feed
        for i in range(n):
            feed(chunk[i % len(chunk)])

    # A million on the native backend; the twin's 200,000 (50,000 traced) show any growth.
    count, traced_count = counts(backend, 1_000_000, 200_000)
    traced, resident = growth(work, count, traced_count)
    assert parser.value == {"a": [1, "xy"]}
    assert traced < 64 * 1024, traced
    assert resident < RSS_BOUND, resident


@needs_proc
@pytest.mark.parametrize(
    "opening, unit",
    [
        pytest.param("[", " " * 1000, id="whitespace"),
        pytest.param("{", '"k": "' + "x" * 1000 + '", ', id="duplicate-keys"),
        pytest.param('["', "x\\n\\u00e9" * 125, id="inside-a-string"),
    ],
)
def test_consumed_input_is_not_kept(backend: str, opening: str, unit: str) -> None:
    """10 MB fed in 64 KB chunks, each dropped after its feed. Whitespace and replaced
    duplicate keys leave nothing to keep; inside a string only its text is kept (the token
    the parser is inside: the value shown, and the core's copy of it). The twin reads a string
    with escapes in Python, character by character: 256 KB of it."""
    parser = Parser(backend=backend)
    parser.feed(opening)
    chunk = (unit * (64 * 1024 // len(unit))).encode()
    inside_string = opening == '["'
    size = 256 * 1024 if backend == "python" and inside_string else 10 * MB
    collect()
    before_rss = rss()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(size // len(chunk)):
            parser.feed(chunk)
        collect()
        traced = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    resident = rss() - before_rss
    text = parser.value[0] if inside_string else ""
    if inside_string:  # 9 bytes of input (x \n \u00e9) per 3 characters
        assert len(text) == size // len(chunk) * len(chunk) // 3
    # The string shown (one byte a character: "x", "\n", "é" are Latin-1) and, for the twin,
    # the pieces it joins; nothing in proportion to the 10 MB of input.
    bound = 3 * len(text) + 256 * 1024
    assert traced < bound, (traced, bound)
    assert resident < bound + 8 * MB, (resident, bound)


@needs_proc
def test_a_failed_parser_fed_again_stays_flat(backend: str) -> None:
    """Feeding a failed parser again and again (a server retrying) raises the same error each
    time without keeping anything: not a traceback that grows by a few frames per call (one
    exception object raised again and again would, keeping every chunk fed alive through
    those frames)."""
    parser = Parser(backend=backend)
    with pytest.raises(JSONDecodeError):
        parser.feed("x")

    def work(n: int) -> None:
        for _ in range(n):
            with contextlib.suppress(JSONDecodeError):
                parser.feed("[1, 2, 3]")

    traced, resident = growth(work, *counts(backend, 100_000, 20_000))
    assert traced < 64 * 1024, traced
    assert resident < RSS_BOUND, resident


def _fail_in_own_frame(backend: str, doc: str) -> None:
    """One failed parse in a frame of its own, as a request handler would do it."""
    parser = Parser(backend=backend)
    try:
        parser.feed(doc)
        parser.close()
    except JSONDecodeError:
        pass


@pytest.mark.parametrize("doc", ["x", "[[1, 2", '{"a": [1, "x" 2]'])
def test_failed_parses_in_their_own_frames_are_freed(backend: str, doc: str) -> None:
    """A parser that raised, in a function that returned, is freed with its value: an engine
    that kept the exception it raised would keep, through its traceback, the caller's frame,
    which keeps the parser (a cycle; never freed without garbage-collector support in the
    native class)."""
    for _ in range(100):
        _fail_in_own_frame(backend, doc)
    collect()
    before = sys.getallocatedblocks()
    for _ in range(2_000):
        _fail_in_own_frame(backend, doc)
    collect()
    assert sys.getallocatedblocks() - before < 100


@pytest.mark.parametrize("method", ["feed", "feed_changes", "feed_pending"])
def test_a_growing_string_read_after_every_feed_is_kept_once(backend: str, method: str) -> None:
    """The tool-call accumulator reads the value after every fragment while the parser
    records changes. The open string's slot then grows in place: its peak is one copy of
    the string. Rebuilding it at every read (as change mode once did) held two copies at once,
    and cost the whole string per fragment: quadratic in a long string argument."""
    if backend == "python" and FREE_THREADED:
        pytest.skip(
            "free-threaded CPython never grows a str in place (its `s += t` copies), so the "
            "pure build copies a growing string at each read there (docs/hostile.md, Memory)"
        )
    body = "x = 1; " * 100_000
    text = '{"code": "' + body + '"}'
    parser = Parser(backend=backend)
    feed = getattr(parser._engine, method)  # the engine contract's three reads
    collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for at in range(0, len(text), 20):
            feed(text[at : at + 20])
            parser.value  # noqa: B018 - the read that brings the slot up to date
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert parser.close() == {"code": body}
    assert peak < 1.5 * len(body), f"{peak / len(body):.2f} copies of the string at the peak"

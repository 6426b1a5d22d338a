"""Memory per open stream: 10,000 streams held at once, each stopped mid-document.

    python benches/bench_memory.py [--count N] [--kind KIND ...] [--shared-id]

A server holds many calls at once, each waiting for its next fragment; what each costs while
it waits is what this measures. The document is a tool call's arguments (`ARGUMENTS`, 190
characters), read in 4-character fragments (38 of them) and stopped 150 characters in, inside
the string value of `"note"`, at depth 1 with a nested object and a list of numbers already
closed behind it: the parser is mid-string, with eight keys seen, and a live value of seven
properties.

Each kind runs in a fresh process (`--worker`), which opens `--count` streams, feeds each the
same fragments and keeps them all open, then opens `--count` more: the growth of the resident
set size (RSS, Linux `/proc/self/statm`) over the second batch, divided by the count, is the
cost of one stream (the first batch fills the memory the process had freed before). The live
value's own objects (the dicts, lists, strs and numbers a user reads) are the user's data, not the
parser's: they are measured alone, in another fresh process that does the same feeds but
keeps only the values (for the accumulator, the values and the raw argument text), and
subtracted. The targets (#28) bound what is left, the stream's own state:

- native `Parser` (the Rust engine behind it): at most 1 KB,
- the python twin's `Parser`: at most 1.5 KB,
- `ToolCallAccumulator` mid-call (one accumulator per response stream, OpenAI Chat SSE
  chunks, the call's arguments fed as above): at most 1.5 KB.

Each accumulator's stream has its own chunk `id`, as OpenAI's responses do (`chatcmpl-` and
29 characters); `--shared-id` gives every stream the same one instead (what a server that
sends a constant id does, and what this benchmark did before: envelope text is then the
same in every stream). The stream is held as the server holds it, its raw argument text never
read (reading `ToolCall.raw` joins the text into one str); the value run reads it.

RSS is counted in pages and the allocators keep freed memory, so a figure is good to a few
tens of bytes per stream at 10,000 streams. Exit status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
from typing import Any, Callable

from jsondrip.bench.targets import Target

COUNT = 10_000
FRAGMENT = 4
# A tool call's arguments; the streams stop inside the string of "note" (STOP characters in).
ARGUMENTS = (
    '{"location": {"city": "Paris", "country": "FR"}, "days": [1, 2, 3], '
    '"units": "celsius", "include_hourly": false, "max_results": 25, '
    '"note": "bring an umbrella if rain is likely before noon"}'
)
STOP = ARGUMENTS.index("umbrella")
PREFIX = ARGUMENTS[:STOP]
FRAGMENTS = [PREFIX[i : i + FRAGMENT] for i in range(0, len(PREFIX), FRAGMENT)]

TARGETS = {
    "native": Target(
        "native Parser: bytes per open stream",
        "RSS per stream mid-document, less the live value's own objects",
        hi=1024,
    ),
    "python": Target(
        "python twin Parser: bytes per open stream",
        "RSS per stream mid-document, less the live value's own objects",
        hi=1536,
    ),
    "accumulator": Target(
        "ToolCallAccumulator mid-call: bytes per open stream",
        "RSS per accumulator mid-call, less the live value and the raw argument text",
        hi=1536,
    ),
}


def rss() -> int:
    """The resident set size of this process, in bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


SHARED_ID = "chatcmpl-Bx7"


def sse_chunks(chunk_id: str = SHARED_ID) -> list[bytes]:
    """The call as OpenAI Chat Completions streams it: one SSE event per fragment, each
    with the response's `chunk_id`."""

    def event(delta: dict[str, Any]) -> bytes:
        chunk = {
            "id": chunk_id,
            "object": "chat.completion.chunk",
            "created": 1760000000,
            "model": "gpt-4.1-2025-04-14",
            "choices": [{"index": 0, "delta": {"tool_calls": [delta]}, "finish_reason": None}],
        }
        return b"data: " + json.dumps(chunk).encode() + b"\n\n"

    first = {
        "index": 0,
        "id": "call_Qx3mB0vJtE6o",
        "type": "function",
        "function": {"name": "get_weather", "arguments": ""},
    }
    return [event(first)] + [
        event({"index": 0, "function": {"arguments": fragment}}) for fragment in FRAGMENTS
    ]


def open_parser(backend: str) -> Callable[[], tuple[Any, Any]]:
    from jsondrip import Parser

    def make() -> tuple[Any, Any]:
        parser = Parser(backend=backend)
        for fragment in FRAGMENTS:
            parser.feed(fragment)
        return parser, parser.value

    return make


def open_accumulator(shared_id: bool, keep: str) -> Callable[[], tuple[Any, Any]]:
    from jsondrip.toolcalls import ToolCallAccumulator

    opened = iter(range(1 << 62))

    def make() -> tuple[Any, Any]:
        # a response id as OpenAI's look (`chatcmpl-` and 29 characters), one per stream
        chunks = CHUNKS if shared_id else sse_chunks(f"chatcmpl-{next(opened):029d}")
        accumulator = ToolCallAccumulator(format="openai-chat")
        for chunk in chunks:
            accumulator.feed_sse(chunk)
        if keep == "stream":
            return accumulator, None  # the raw text as the accumulator keeps it, not joined
        (call,) = accumulator.tool_calls
        return accumulator, (call.arguments, call.raw)

    return make


CHUNKS = sse_chunks()


def worker(kind: str, count: int, keep: str, shared_id: bool = False) -> dict[str, float]:
    """Opens `count` streams of `kind` and keeps the streams (`keep="stream"`) or only their
    values (`keep="value"`); the RSS growth per stream."""
    make = open_accumulator(shared_id, keep) if kind == "accumulator" else open_parser(kind)
    held: list[Any] = []

    def open_streams() -> None:
        for _ in range(count):
            stream, value = make()
            held.append(stream if keep == "stream" else value)

    # A first batch, not counted: it reuses the blocks that imports and caches freed, and
    # how many there are depends on how the package was installed (an editable install
    # frees more while importing: its first 5,000 accumulators grew the RSS by 3,012 B
    # each, the next ones by 3,257 B, as an installed wheel's do from the start).
    open_streams()
    gc.collect()
    before = rss()
    open_streams()
    gc.collect()
    return {"per_stream": (rss() - before) / count}


def verdict(target: Target, own: float) -> str:
    """One verdict line, in bytes (the shared `verdict_line` prints ratios)."""
    word = "pass" if target.met(own) else "FAIL"
    return f"- {word}: {target.name}: {own:.0f} B (target <= {target.hi:g} B)"


def measure(kind: str, count: int, keep: str, shared_id: bool = False) -> float:
    command = [sys.executable, __file__, "--worker", kind, "--keep", keep, "--count", str(count)]
    out = subprocess.run(
        command + (["--shared-id"] if shared_id else []),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(json.loads(out)["per_stream"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--kind", action="append", choices=sorted(TARGETS))
    parser.add_argument("--worker", choices=sorted(TARGETS), help=argparse.SUPPRESS)
    parser.add_argument("--keep", choices=("stream", "value"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--shared-id",
        action="store_true",
        help="the accumulators' streams all have one chunk id (default: one each)",
    )
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.count, args.keep, args.shared_id)))
        return
    kinds = args.kind or ["native", "python", "accumulator"]
    print(
        f"{args.count} open streams per kind, each a fresh process; document: {len(ARGUMENTS)}"
        f" characters of tool-call arguments, stopped mid-string at {STOP}"
        f" ({len(FRAGMENTS)} fragments of {FRAGMENT}); {sys.implementation.name}"
        f" {sys.version.split()[0]}; accumulators:"
        f" {'one chunk id for all' if args.shared_id else 'a chunk id per stream'}"
    )
    print(f"{'kind':<12} {'per stream':>11} {'value':>8} {'own state':>10}")
    verdicts = []
    for kind in kinds:
        total = measure(kind, args.count, "stream", args.shared_id)
        value = measure(kind, args.count, "value", args.shared_id)
        own = total - value
        print(f"{kind:<12} {total:>9.0f} B {value:>6.0f} B {own:>8.0f} B")
        verdicts.append(verdict(TARGETS[kind], own))
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()

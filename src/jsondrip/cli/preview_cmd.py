"""`jsondrip` (the demo) and `jsondrip preview FILE|-`: feed a stream to the tool-call
accumulator and show its events, drawn live (rich) or as NDJSON.

The output is NDJSON when `--json` is given or standard output is not a terminal; otherwise the
live view, which needs rich. Recordings (the demo, a file) are replayed at `--speed` (default 1
in the live view, 0 for NDJSON); standard input is shown as it arrives.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any, Protocol

from ..toolcalls.formats import FORMATS
from .errors import CLIError, UsageError, write_text
from .ndjson import NdjsonSink
from .replay import paced
from .source import Chunk, Source, framing_and_provider, open_demo, open_source

__all__ = ["run_demo", "run_preview", "show"]

EXPECTED = (
    f"expected a tool-call stream of one of {', '.join(FORMATS)} (see --help), as "
    "server-sent events ('data: {...}' lines) or JSON lines (one event object per line)"
)
INSTALL_HINT = (
    'the live view needs rich: pip install "jsondrip[cli]" '
    "(or add --json for one JSON event per line, which does not)"
)


class Sink(Protocol):
    """Where events go: the live view or NDJSON lines."""

    def __enter__(self) -> Sink: ...

    def __exit__(self, *exc_info: object) -> None: ...

    def start(self, source: str, stream_format: str) -> None: ...

    def handle(self, events: list[Any]) -> None: ...

    def finish(self, interrupted: bool = False) -> None: ...

    def describe(self, provider: str) -> None: ...


def _wants_json(args: argparse.Namespace) -> bool:
    return bool(args.json) or not sys.stdout.isatty()


def _make_sink(args: argparse.Namespace) -> Sink:
    """NDJSON or, on a terminal, the live view (a usage error if rich is missing)."""
    if _wants_json(args):
        return NdjsonSink(lambda text: write_text(sys.stdout, text))
    try:
        from .live import LiveView
    except ImportError as error:
        if getattr(error, "name", None) and not str(error.name).startswith("rich"):
            raise
        raise UsageError(INSTALL_HINT) from error
    return LiveView(speed=_speed(args))


def _speed(args: argparse.Namespace) -> float:
    if args.speed is not None:
        return float(args.speed)
    return 0.0 if _wants_json(args) else 1.0


def _pieces(source: Source, speed: float) -> Iterator[Chunk]:
    if source.live is not None:
        return source.live
    return paced(source.fragments or [], speed)


class _Outputs:
    """The structured output of each choice is shown once a document was found in its text
    (or the model refused): a stream of prose and tool calls shows no output."""

    def __init__(self) -> None:
        self.found: set[int] = set()

    def __call__(self, events: list[Any]) -> list[Any]:
        kept = []
        for event in events:
            kind = type(event).__name__
            if kind == "OutputDelta":
                self.found.add(event.choice)
            elif (
                kind == "OutputDone"
                and event.choice not in self.found
                and not (event.error or "").startswith("refused")
            ):
                continue
            kept.append(event)
        return kept


def show(
    source: Source,
    sink: Sink,
    speed: float,
    provider: str = "auto",
    text_tools: str | None = None,
) -> int:
    """Feed every piece of `source` to a fresh accumulator of the `provider` format (and of
    the `text_tools` markup, if any) and hand its events to `sink`; the text is read as
    structured output too (a JSON answer is shown as it grows)."""
    from ..toolcalls import ToolCallAccumulator

    accumulator = ToolCallAccumulator(format=provider, text_tools=text_tools, output=True)
    outputs = _Outputs()
    raw_feed = {"sse": accumulator.feed_sse, "text": accumulator.feed_text}.get(
        source.format, accumulator.feed
    )

    def feed(piece: Any) -> list[Any]:
        return outputs(raw_feed(piece))

    with sink:
        sink.start(source.name, source.format)
        try:
            described = False
            shown = False  # an event came out (told the format, the input may hold none of it)
            for number, piece in enumerate(_pieces(source, speed), 1):
                try:
                    events = feed(piece)
                except (ValueError, TypeError) as error:  # TypeError: a line that is no object
                    raise CLIError(f"{source.name}: event {number}: {error}") from error
                if not described and accumulator.format != "auto":
                    sink.describe(accumulator.format)
                    described = True
                shown = shown or bool(events)
                sink.handle(events)
            if not described:  # no event of a known API in the whole input
                raise CLIError(f"{source.name}: no stream found: {EXPECTED}")
            last = outputs(accumulator.finish())
            if provider != "auto" and not (shown or last):
                raise CLIError(
                    f"{source.name}: no {accumulator.format} stream found: is it another "
                    "provider's? (leave out --format to detect it)"
                )
            sink.handle(last)
        except KeyboardInterrupt:
            sink.handle(outputs(accumulator.abort() or []))
            sink.finish(interrupted=True)
            raise
        sink.finish()
    return 0


def run_demo(args: argparse.Namespace) -> int:
    """Run the demo: replay the bundled stream."""
    sink = _make_sink(args)
    return show(open_demo(), sink, _speed(args))


def run_preview(args: argparse.Namespace) -> int:
    """Run `jsondrip preview FILE|-` (with `--web`: serve the page instead)."""
    if getattr(args, "web", False):
        from .web_cmd import run_web

        return run_web(args)
    framing, provider = framing_and_provider(args)
    if framing == "text" and provider != "auto":
        raise UsageError("--framing text is the model's own text: no provider --format")
    sink = _make_sink(args)
    source = open_source(args.file, framing)
    return show(source, sink, _speed(args), provider, getattr(args, "text_tools", None))

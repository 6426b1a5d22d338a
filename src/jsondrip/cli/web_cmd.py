"""`jsondrip preview --web FILE|-`: the live view in a page, served on 127.0.0.1.

The recording is replayed at `--speed` (default 1: a model's pace) when the page first
connects; the page applies the stream's change events with the shipped `jsondrip.js` only.
Standard library only: no extra is needed.
"""

from __future__ import annotations

import argparse
import sys

from ..toolcalls import ToolCallAccumulator
from ..web.server import PreviewServer, replay_into
from ..web.sse import SSELog
from .errors import write_text
from .replay import paced
from .source import Source, framing_and_provider, open_demo, open_source

__all__ = ["run_web", "serve"]


def serve(
    source: Source,
    *,
    speed: float,
    port: int = 0,
    provider: str = "auto",
    text_tools: str | None = None,
) -> PreviewServer:
    """A server (not yet serving) whose first page view replays `source` at `speed`, read as
    the `provider` format (and the `text_tools` markup, if any)."""

    def start(log: SSELog) -> None:
        pieces = source.live if source.live is not None else paced(source.fragments or [], speed)
        accumulator = ToolCallAccumulator(format=provider, text_tools=text_tools)
        replay_into(log, pieces, source.format, accumulator)

    return PreviewServer(start, port=port)


def run_web(args: argparse.Namespace) -> int:
    """Serve the page until interrupted: Ctrl-C ends it as it ends every command (the
    `interrupted` message, exit status 130)."""
    if getattr(args, "file", None) is None:
        source, provider = open_demo(), "auto"
    else:
        framing, provider = framing_and_provider(args)
        source = open_source(args.file, framing)
    speed = 1.0 if args.speed is None else float(args.speed)
    text_tools = getattr(args, "text_tools", None)
    server = serve(source, speed=speed, port=args.port, provider=provider, text_tools=text_tools)
    write_text(
        sys.stdout,
        f"jsondrip: the live view of {source.name} is at {server.url} (Ctrl-C to stop)\n",
    )
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0

"""`jsondrip preview --web FILE|-`: the live view in a page, served on 127.0.0.1.

The recording is replayed at `--speed` (default 1: a model's pace) when the page first
connects; the page applies the stream's change events with the shipped `jsondrip.js` only.
Standard library only: no extra is needed.
"""

from __future__ import annotations

import argparse
import sys

from ..web.server import PreviewServer, replay_into
from ..web.sse import SSELog
from .errors import write_text
from .replay import paced
from .source import Source, open_demo, open_file, open_stdin

__all__ = ["run_web", "serve"]


def serve(source: Source, *, speed: float, port: int = 0) -> PreviewServer:
    """A server (not yet serving) whose first page view replays `source` at `speed`."""

    def start(log: SSELog) -> None:
        pieces = source.live if source.live is not None else paced(source.fragments or [], speed)
        replay_into(log, pieces, source.format)

    return PreviewServer(start, port=port)


def run_web(args: argparse.Namespace) -> int:
    """Serve the page until interrupted."""
    if getattr(args, "file", None) is None:
        source = open_demo()
    elif args.file == "-":
        source = open_stdin(args.format)
    else:
        source = open_file(args.file, args.format)
    speed = 1.0 if args.speed is None else float(args.speed)
    server = serve(source, speed=speed, port=args.port)
    write_text(
        sys.stdout,
        f"jsondrip: the live view of {source.name} is at {server.url} (Ctrl-C to stop)\n",
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0

"""The live view in a page: a small HTTP server on 127.0.0.1 (standard library only).

It serves the page (`page.html`), the shipped module (`/jsondrip.js`) and the stream's frames
(`/events`, server-sent events). The first connection to `/events` starts the replay of the
source into an `SSELog`; every connection, first or reconnected, follows the log from its
`Last-Event-ID`, so a dropped connection resumes where it stopped.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Callable

from ..toolcalls import ToolCallAccumulator
from . import module_text
from .sse import CONTENT_TYPE, SSELog

__all__ = ["PreviewServer", "replay_into"]


def replay_into(
    log: SSELog, pieces: Iterable[Any], stream_format: str, accumulator: Any = None
) -> Any:
    """Feed `pieces` (SSE bytes, one JSON-lines event each, or model text) to an accumulator,
    keep its events' frames in `log`, then close the log (with the error, if the stream was
    invalid)."""
    accumulator = accumulator or ToolCallAccumulator()
    feed = {"sse": accumulator.feed_sse, "text": accumulator.feed_text}.get(
        stream_format, accumulator.feed
    )
    try:
        for number, piece in enumerate(pieces, 1):
            try:
                log.add(feed(piece))
            except ValueError as error:
                log.add(accumulator.abort() or [])
                log.close(f"event {number}: {error}")
                return accumulator
        log.add(accumulator.finish())
    except BaseException:
        log.close("the server stopped the stream")
        raise
    log.close()
    return accumulator


class PreviewServer(ThreadingHTTPServer):
    """Serves one stream's live view at `url` until `shutdown()`.

    `start_replay` is called (once, in a thread) by the first `/events` request.
    `drop_after`: frame ids after which the server closes the connection once, to exercise
    the browser's reconnection (for tests and demonstrations).
    """

    daemon_threads = True

    def __init__(
        self,
        start_replay: Callable[[SSELog], None],
        *,
        port: int = 0,
        retry: int = 1000,
        drop_after: Iterable[int] = (),
    ) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.log = SSELog(retry=retry)
        self.drop_after = set(drop_after)
        self.connections = 0
        self._start_replay = start_replay
        self._started = False
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def ensure_replay(self) -> None:
        """Start the replay thread, the first time only."""
        with self._lock:
            self.connections += 1
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._start_replay, args=(self.log,), daemon=True).start()


def _page() -> bytes:
    return resources.files(__package__).joinpath("page.html").read_bytes()


def _readable() -> bytes:
    """The page's drawing of arguments (readable.js: multi-line strings as text, as the
    terminal's live view draws them)."""
    return resources.files(__package__).joinpath("readable.js").read_bytes()


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the page shows the stream
        pass

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(200, "text/html; charset=utf-8", _page())
        elif path == "/jsondrip.js":
            self._send(200, "text/javascript; charset=utf-8", module_text().encode("utf-8"))
        elif path == "/readable.js":
            self._send(200, "text/javascript; charset=utf-8", _readable())
        elif path == "/events":
            self._events()
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        server = self.server
        header = self.headers.get("Last-Event-ID")
        try:
            seen = server.log.position(header)
        except ValueError as error:
            self._send(400, "text/plain; charset=utf-8", f"{error}\n".encode())
            return
        server.ensure_replay()
        self.send_response(200)
        self.send_header("Content-Type", CONTENT_TYPE)
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            for frame in server.log.follow(seen, timeout=15.0):
                self.wfile.write(frame.encode("utf-8"))
                self.wfile.flush()
                seen += 1
                if seen in server.drop_after:
                    server.drop_after.discard(seen)
                    return  # the connection closes here, mid-stream
        except (BrokenPipeError, ConnectionResetError):
            return

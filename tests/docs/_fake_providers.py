"""Local stand-ins for the providers' streaming endpoints, for the docs' SDK loops.

A loopback HTTP server (127.0.0.1, a free port) answers the Anthropic Messages endpoint
(`/v1/messages`) and OpenAI Chat Completions (`/v1/chat/completions`) with a streamed reply in
the provider's own server-sent-event format, made of the tool calls it is given; the real
`anthropic` and `openai` clients reach it through `ANTHROPIC_BASE_URL` and `OPENAI_BASE_URL`,
so a page's loop runs exactly as written, with no network and no key.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Call:
    """A tool call the fake model makes: its arguments stream in pieces of `piece` characters.
    `server=True` is a call the provider runs itself (Anthropic's `server_tool_use`)."""

    name: str
    arguments: str
    server: bool = False
    piece: int = 12


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _event(data: dict[str, Any], name: str | None = None) -> bytes:
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def anthropic_body(calls: list[Call]) -> list[bytes]:
    """A Messages stream (`stream=True`) whose content is these calls, one block each."""
    message = {"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 10, "output_tokens": 1}}  # fmt: skip
    events = [{"type": "message_start", "message": message}]
    for index, call in enumerate(calls):
        block = {
            "type": "server_tool_use" if call.server else "tool_use",
            "id": f"{'srvtoolu' if call.server else 'toolu'}_{index:02d}",
            "name": call.name,
            "input": {},
        }
        events.append({"type": "content_block_start", "index": index, "content_block": block})
        for piece in _pieces(call.arguments, call.piece):
            delta = {"type": "input_json_delta", "partial_json": piece}
            events.append({"type": "content_block_delta", "index": index, "delta": delta})
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
                   "usage": {"output_tokens": 20}})  # fmt: skip
    events.append({"type": "message_stop"})
    return [_event(event, event["type"]) for event in events]


def openai_chat_body(calls: list[Call]) -> list[bytes]:
    """A Chat Completions stream whose choice makes these calls (server calls left out: Chat
    Completions has none)."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0,
                "model": "fake", "choices": [choice]}  # fmt: skip

    chunks = [chunk({"role": "assistant", "content": None})]
    for index, call in enumerate(c for c in calls if not c.server):
        for number, piece in enumerate(_pieces(call.arguments, call.piece)):
            entry: dict[str, Any] = {"index": index, "function": {"arguments": piece}}
            if number == 0:
                entry.update(id=f"call_{index:02d}", type="function")
                entry["function"]["name"] = call.name
            chunks.append(chunk({"tool_calls": [entry]}))
    chunks.append(chunk({}, "tool_calls"))
    return [_event(c) for c in chunks] + [b"data: [DONE]\n\n"]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    calls: list[Call] = []  # noqa: RUF012 - set per server, below
    requests: list[dict[str, Any]] = []  # noqa: RUF012

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        type(self).requests.append({"path": self.path, **request})
        if self.path.endswith("/v1/messages"):
            body = anthropic_body(type(self).calls)
        elif self.path.endswith("/chat/completions"):
            body = openai_chat_body(type(self).calls)
        else:
            self.send_error(404, f"the fake providers do not serve {self.path}")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in body:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def fake_providers(calls: list[Call]) -> Iterator[dict[str, str]]:
    """Serve `calls` on loopback; yields the environment that points the SDKs at it."""

    class Handler(_Handler):
        pass

    Handler.calls = list(calls)
    Handler.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield {
            "ANTHROPIC_BASE_URL": base,
            "ANTHROPIC_API_KEY": "fake-key",
            "OPENAI_BASE_URL": f"{base}/v1",
            "OPENAI_API_KEY": "fake-key",
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
        }
    finally:
        server.shutdown()
        server.server_close()

"""The documented loop with the real `openai` and `anthropic` clients against a loopback server.

The server (127.0.0.1, a free port) answers with a `text/event-stream` body in chunked
encoding and ends it cleanly in the middle of a tool call, after arguments that already form a
complete document: the SDK iterators end without raising, as they do in production when a
proxy or server closes the body early. The loop of docs/toolcalls.md must then run nothing.
The same server sending the whole stream runs the tool exactly once (so the test can fail).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from _toolcall_support import make_acc_fixture  # noqa: F401 - a fixture
from conftest import need_module

from jsondrip.toolcalls import ToolCallAccumulator, ToolCallDelta, ToolCallDone

anthropic = need_module("anthropic")
openai = need_module("openai")


def run_documented_loop(stream: Any, run_tool: Any) -> None:
    """The loop of docs/toolcalls.md and the README, as written there."""
    acc = ToolCallAccumulator()

    def handle(events: list[Any]) -> None:
        for event in events:
            if type(event) is ToolCallDelta:
                pass  # show event.preview
            elif type(event) is ToolCallDone:
                call = event.tool_call
                if call.complete and call.kind == "function":
                    run_tool(call.name, call.arguments)

    try:
        for sdk_event in stream:
            handle(acc.feed(sdk_event))
    except BaseException:
        handle(acc.abort())
        raise
    handle(acc.finish())


def _sse(events: list[Any]) -> list[bytes]:
    return [(e if isinstance(e, str) else f"data: {json.dumps(e)}\n\n").encode() for e in events]


def chat_events(whole: bool) -> list[bytes]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [choice]}  # fmt: skip

    call = {"index": 0, "id": "call_1", "type": "function"}
    events: list[Any] = [
        chunk({"role": "assistant", "tool_calls": [{**call, "function": {"name": "get_weather",
                                                                         "arguments": ""}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Paris"}'}}]}),
    ]  # fmt: skip
    if whole:
        events += [chunk({}, "tool_calls"), "data: [DONE]\n\n"]
    return _sse(events)


def anthropic_events(whole: bool) -> list[bytes]:
    block = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}
    delta = {"type": "input_json_delta", "partial_json": '{"city": "Paris"}'}
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    events: list[Any] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_delta", "index": 0, "delta": delta},
    ]
    if whole:
        events += [
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "tool_use"},
             "usage": {"output_tokens": 5}},
            {"type": "message_stop"},
        ]  # fmt: skip
    return [
        f"event: {e['type']}\n{chunk.decode()}".encode() for e, chunk in zip(events, _sse(events))
    ]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    body: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in type(self).body:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")  # the body ends cleanly, wherever the stream was

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(name="server")
def server_fixture() -> Iterator[Any]:
    class Handler(_Handler):
        body: ClassVar[list[bytes]] = []

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd, Handler
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.mark.parametrize("whole", [False, True], ids=["cut-mid-call", "whole"])
def test_openai_client_loop_runs_nothing_when_the_body_ends_mid_call(
    make_acc, server, whole: bool
) -> None:
    httpd, handler = server
    handler.body = chat_events(whole)
    client = openai.OpenAI(
        base_url=f"http://127.0.0.1:{httpd.server_port}/v1", api_key="test", max_retries=0
    )
    stream = client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "weather?"}], stream=True
    )
    ran: list[Any] = []
    run_documented_loop(stream, lambda name, args: ran.append((name, args)))
    assert ran == ([("get_weather", {"city": "Paris"})] if whole else [])


@pytest.mark.parametrize("whole", [False, True], ids=["cut-mid-call", "whole"])
def test_anthropic_client_loop_runs_nothing_when_the_body_ends_mid_call(
    make_acc, server, whole: bool
) -> None:
    httpd, handler = server
    handler.body = anthropic_events(whole)
    client = anthropic.Anthropic(
        base_url=f"http://127.0.0.1:{httpd.server_port}", api_key="test", max_retries=0
    )
    stream = client.messages.create(
        model="m",
        max_tokens=100,
        messages=[{"role": "user", "content": "weather?"}],
        stream=True,
    )
    ran: list[Any] = []
    run_documented_loop(stream, lambda name, args: ran.append((name, args)))
    assert ran == ([("get_weather", {"city": "Paris"})] if whole else [])

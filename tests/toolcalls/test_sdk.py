"""The real `openai` and `anthropic` clients stream recorded streams from a local server.

A `ThreadingHTTPServer` on 127.0.0.1 replays a corpus file as `text/event-stream`. The SDK's
own stream helper gives the expected calls (`get_final_completion`, `get_final_response`,
`get_final_message`); the SDK objects of a plain `stream=True` iteration (and the helper's own
events) go into `acc.feed`, and the result must be the same calls.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from _toolcall_support import as_sse, make_acc_fixture, outcome, stream_path  # noqa: F401
from conftest import need_module

openai = need_module("openai")
anthropic = need_module("anthropic")

CHAT = {  # file: how many tool calls it holds
    "openai-chat_parallel-tool-calls_gpt-4o.sse": 2,
    "openai-chat_parallel-tool-calls_gpt-4o_b.sse": 2,
    "openai-chat_tool-call-strict_gpt-4o.sse": 1,
    "openai-chat_json-content_n3-choices_gpt-4o.sse": 0,
    "deepseek-chat_reasoning-content_tool-calls.chunks.jsonl": 1,
}
RESPONSES = [
    "openai-responses_function-call_gpt-4o.sse",
    "azure-openai-responses_function-call_obfuscation.chunks.jsonl",
]
ANTHROPIC = [
    "anthropic_text-then-tool-use.sse",
    "anthropic_tool-use_max-tokens-truncated.sse",
    "anthropic_thinking_server-tool-use_escaped-quotes_sonnet-4-6.sse",
    "anthropic_thinking_mcp-tool-use_sonnet-4-5.sse",
    "anthropic_server-tool-use_code-execution_909-deltas.chunks.jsonl",
]


class _Replay(http.server.BaseHTTPRequestHandler):
    body = b""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(self.server.body)  # type: ignore[attr-defined]

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[http.server.ThreadingHTTPServer]:
    """A local server replaying `server.body` to every POST."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Replay)
    httpd.body = b""  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _url(httpd: http.server.ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}"


def _serve(httpd: Any, name: str) -> None:
    httpd.body = as_sse(stream_path(name))


def _ours(acc: Any) -> list[tuple[Any, ...]]:
    return [(c.id, c.name, c.raw) for c in acc.tool_calls]


def _feed(acc: Any, objects: Any) -> None:
    for obj in objects:
        acc.feed(obj)
    acc.finish()


@pytest.mark.parametrize("name", CHAT)
def test_openai_chat_sdk_objects(server: Any, make_acc: Any, name: str) -> None:
    _serve(server, name)
    client = openai.OpenAI(base_url=_url(server) + "/v1", api_key="test", max_retries=0)
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    with client.chat.completions.stream(**request) as stream:
        helper_events = list(stream)
        final = stream.get_final_completion()
    want = [
        (tc.id, tc.function.name, tc.function.arguments)
        for choice in final.choices
        for tc in choice.message.tool_calls or []
    ]
    want_text = {c.index: c.message.content for c in final.choices if c.message.content}
    assert len(want) == CHAT[name]

    acc = make_acc()
    _feed(acc, client.chat.completions.create(**request, stream=True))
    assert _ours(acc) == want
    assert all(c.complete and c.arguments == json.loads(c.raw) for c in acc.tool_calls)

    from_helper = make_acc()
    events = [e for obj in helper_events for e in from_helper.feed(obj)] + from_helper.finish()
    assert outcome(from_helper) == outcome(acc)
    text: dict[int, str] = {}
    for e in events:
        if type(e).__name__ == "TextDelta":
            text[e.choice] = text.get(e.choice, "") + e.text
    assert text == want_text


@pytest.mark.parametrize("name", RESPONSES)
def test_openai_responses_sdk_objects(server: Any, make_acc: Any, name: str) -> None:
    _serve(server, name)
    client = openai.OpenAI(base_url=_url(server) + "/v1", api_key="test", max_retries=0)
    with client.responses.stream(model="gpt-4o", input="hi") as stream:
        helper_events = list(stream)
        final = stream.get_final_response()
    want = [(i.call_id, i.name, i.arguments) for i in final.output if i.type == "function_call"]
    assert len(want) == 1

    acc = make_acc()
    _feed(acc, client.responses.create(model="gpt-4o", input="hi", stream=True))
    assert _ours(acc) == want
    assert all(c.complete and c.arguments == json.loads(c.raw) for c in acc.tool_calls)

    from_helper = make_acc()
    _feed(from_helper, helper_events)
    assert outcome(from_helper) == outcome(acc)


@pytest.mark.parametrize("name", ANTHROPIC)
def test_anthropic_sdk_objects(server: Any, make_acc: Any, name: str) -> None:
    _serve(server, name)
    client = anthropic.Anthropic(base_url=_url(server), api_key="test", max_retries=0)
    request = {
        "model": "claude-sonnet-4-6",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": "hi"}],
    }
    # mcp_tool_use blocks are accumulated only by the beta client's helper
    messages = client.beta.messages if "mcp" in name else client.messages
    with messages.stream(**request) as stream:
        helper_events = list(stream)
        final = stream.get_final_message()
    tools = [b for b in final.content if b.type in ("tool_use", "server_tool_use", "mcp_tool_use")]
    want = [(b.id, b.name, b.input) for b in tools]
    assert len(want) == (3 if "909" in name else 1)

    acc = make_acc()
    _feed(acc, messages.create(**request, stream=True))
    ours = [(c.id, c.name, c.arguments) for c in acc.tool_calls]
    if final.stop_reason == "max_tokens":
        # the SDK drops the string still open at the cut; the stable preview shows it
        (call_id, tool, partial) = want[0]
        assert partial["lines_of_text"][-1] == ""
        partial["lines_of_text"].append("Filing taxes")
        assert ours == [(call_id, tool, partial)]
        assert [(c.complete, c.error[:30]) for c in acc.tool_calls] == [
            (False, "truncated by the token limit (")
        ]
    else:
        assert ours == want
        assert [c.complete for c in acc.tool_calls] == [True] * len(want)

    from_helper = make_acc()  # the helper's derived `text`/`input_json` events must not double
    _feed(from_helper, helper_events)
    assert outcome(from_helper) == outcome(acc)

"""Tool-call previews: ToolCallAccumulator.feed_sse against jiter re-parsing at every fragment.

    python benches/bench_toolcalls.py [--format anthropic|openai-chat] [--repeats N]

A 64 KB tool-call argument (a list of small records, the shape an agent's structured argument
has) is cut into 20-byte fragments and wrapped as a real SSE stream. jsondrip feeds each SSE
event to `ToolCallAccumulator.feed_sse` and reads the preview of every `ToolCallDelta`. The
baseline does what the OpenAI and Anthropic SDKs do per fragment: append the fragment to the
accumulated arguments and re-parse all of them with `jiter.from_json(..., partial_mode=
"trailing-strings")` (the baseline gets the fragments for free: its SSE and event decoding is
not timed, which only favours it). Both are timed in the same run, best of `--repeats`
(`jsondrip.bench.timing.best_time`, as `jsondrip bench` times); the ratio is printed with
pass/fail against RECORDS_VS_REPARSE, and a 64 KB single-string argument is reported for
information (jiter copies a string fast, so the ratio there is smaller).
Exit status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

import jiter

import jsondrip
from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.timing import best_time
from jsondrip.toolcalls import ToolCallAccumulator, ToolCallDelta

SIZE = 64 * 1024
FRAGMENT = 20
RECORDS_VS_REPARSE = Target(
    "records: jiter re-parse / feed_sse",
    "a tool-call preview per SSE event against the SDKs' re-parse of the arguments so far",
    lo=50,
)


def records_argument(size: int = SIZE) -> str:
    """A JSON object of about `size` characters: a list of small records."""
    rows: list[dict[str, Any]] = []
    text = ""
    i = 0
    while True:
        rows.append({"id": i, "name": f"item {i}", "price": i * 1.25, "tags": ["a", "b"]})
        candidate = json.dumps({"rows": rows})
        if len(candidate) > size:
            return text
        text = candidate
        i += 1


def string_argument(size: int = SIZE) -> str:
    """A JSON object of about `size` characters holding one long string (a file's text)."""
    line = 'def f(x):\\n    return x * 2  # \\"doubled\\"\\n'
    body = (line * (size // len(line) + 1))[: size - 40]
    while body.endswith("\\"):
        body = body[:-1]
    return json.dumps({"path": "a.py", "content": "C"})[:-3] + body + '"}'


def fragments(text: str) -> list[str]:
    return [text[i : i + FRAGMENT] for i in range(0, len(text), FRAGMENT)]


def sse_events(parts: list[str], fmt: str) -> list[bytes]:
    """Each fragment as one SSE event of the format, with its start and stop events."""
    out: list[bytes] = []

    def add(obj: Any, event: str | None = None) -> None:
        head = f"event: {event}\n" if event else ""
        out.append(f"{head}data: {json.dumps(obj)}\n\n".encode())

    if fmt == "anthropic":
        add({"type": "message_start", "message": {"id": "msg_1", "type": "message"}}, "x")
        block = {"type": "tool_use", "id": "toolu_1", "name": "save", "input": {}}
        add({"type": "content_block_start", "index": 0, "content_block": block}, "x")
        for part in parts:
            delta = {"type": "input_json_delta", "partial_json": part}
            add({"type": "content_block_delta", "index": 0, "delta": delta}, "x")
        add({"type": "content_block_stop", "index": 0}, "x")
        add({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}, "x")
        add({"type": "message_stop"}, "x")
    else:
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            return {**base, "choices": [choice]}

        first = {"index": 0, "id": "call_1", "type": "function"}
        first["function"] = {"name": "save", "arguments": ""}
        add(chunk({"role": "assistant", "tool_calls": [first]}))
        for part in parts:
            add(chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]}))
        add(chunk({}, "tool_calls"))
        out.append(b"data: [DONE]\n\n")
    return out


def run_jsondrip(events: list[bytes]) -> Any:
    acc = ToolCallAccumulator()
    previews = 0
    for data in events:
        for event in acc.feed_sse(data):
            if type(event) is ToolCallDelta:
                event.preview  # noqa: B018 - the UI reads the preview at every fragment
                previews += 1
    acc.finish()
    call = acc.tool_calls[0]
    assert call.complete and previews > 0
    return call.arguments


def run_jiter(parts: list[str]) -> Any:
    buffer = ""
    value: Any = None
    for part in parts:
        buffer += part
        value = jiter.from_json(buffer.encode(), partial_mode="trailing-strings")
    return value


def best(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """(best seconds of `repeats` calls, the value of one call)."""
    seconds, _ = best_time(lambda _: fn(), None, repeats, budget=60.0, min_time=0.0)
    return seconds, fn()


def measure(name: str, text: str, fmt: str, repeats: int) -> float:
    parts = fragments(text)
    events = sse_events(parts, fmt)
    expected = json.loads(text)
    t_ours, ours = best(lambda: run_jsondrip(events), repeats)
    t_jiter, theirs = best(lambda: run_jiter(parts), repeats)
    assert ours == expected and theirs == expected, "final values differ from json.loads"
    ratio = t_jiter / t_ours
    print(
        f"{name:8} {len(text):6} chars, {len(parts)} fragments ({fmt}): "
        f"jsondrip feed_sse {t_ours * 1e3:7.1f} ms, jiter re-parse {t_jiter * 1e3:7.1f} ms, "
        f"ratio {ratio:5.1f}x"
    )
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", default="anthropic", choices=("anthropic", "openai-chat"))
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    backend = jsondrip.Parser().backend
    print(f"python {sys.version.split()[0]}, jsondrip backend {backend}, jiter {jiter.__version__}")
    ratio = measure("records", records_argument(), args.format, args.repeats)
    measure("string", string_argument(), args.format, args.repeats)
    print(verdict_line(RECORDS_VS_REPARSE, ratio))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

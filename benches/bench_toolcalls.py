"""Tool-call previews: ToolCallAccumulator against jiter re-parsing, and against the floor.

    python benches/bench_toolcalls.py [--format NAME ...] [--repeats N]

A 64 KB tool-call argument (a list of small records, the shape an agent's structured argument
has) is cut into 20-byte fragments, each one event of the format as its provider streams it:
an SSE event for `anthropic`, `openai-chat` and `gemini` (Vertex AI `partialArgs`: one piece
per leaf, long strings in 20-character pieces, in the real envelope), a boto3 dict for
`bedrock` (`feed`) and a JSON line for `bedrock-lines` (`feed_lines`). jsondrip reads each
event and the preview of every `ToolCallDelta`. Two references, timed in the same run (best of
`--repeats` rounds, each round timing all three in turn, so that a load spike on the machine
hits them alike):

- jiter re-parse: what the OpenAI and Anthropic SDKs do per fragment, append it to the
  accumulated arguments and re-parse them all with `jiter.from_json(..., partial_mode=
  "trailing-strings")` (its event decoding is not timed, which only favours it). Target
  VS_REPARSE: jsondrip at least 50x faster.
- the floor: `orjson.loads` of each event's JSON text alone, nothing else (no SSE framing, no
  routing, no parsing of the arguments). Target VS_FLOOR: jsondrip within 5x of it (#25: the
  bound for a design where native code takes and returns values; it was 3x with the lane that
  wrote Python objects' slots from Rust).

`--matchers`: instead, anthropic and openai-chat with the envelope shortcut's SSE chunk check
in Rust (`rust/envelope`, the native backend's) against its Python twin, in one run.

A 64 KB single-string argument is reported for information (jiter copies a string fast, so the
ratio there is smaller), and so is how jsondrip's time grows with it: a 256 KB one must take
about 4x as long (target LINEAR, the median of rounds timing both sizes in alternating order),
not 16x. Timing: `jsondrip.bench.timing.best_time`, as `jsondrip bench` times, in CPU time of
this process (`time.process_time`, as bench_text_tools.py): every contender is single-threaded
and CPU-bound, and on a shared machine wall time also counts the waits for a core, which hit a
longer run more often than a shorter one (the 256 KB argument against the 64 KB one, jsondrip
against the floor). Exit status 0 either way: a report, not a gate.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from typing import Any, Callable

import jiter
import orjson

import jsondrip
from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.timing import best_time, growth
from jsondrip.toolcalls import ToolCallAccumulator, ToolCallDelta
from jsondrip.toolcalls.partial_args import PartialArgsWriter

SIZE = 64 * 1024
FRAGMENT = 20
VS_REPARSE = Target(
    "records: jiter re-parse / jsondrip",
    "a tool-call preview per event against the SDKs' re-parse of the arguments so far",
    lo=50,
)
VS_FLOOR = Target(
    "records: jsondrip / orjson floor",
    "all of jsondrip's work per event (framing, routing, parsing) against decoding the event's "
    "JSON alone",
    hi=5,
)
LINEAR = Target(
    "string: 4x the argument / 1x",
    "the time of a 256 KB single-string argument against a 64 KB one, per format: work in "
    "proportion to each fragment keeps it near 4x",
    lo=3.2,
    hi=4.8,
)
FORMATS = ("anthropic", "openai-chat", "gemini", "bedrock", "bedrock-lines")
VERTEX_ENVELOPE = {
    "usageMetadata": {"trafficType": "ON_DEMAND"},
    "modelVersion": "gemini-3.1-pro-preview",
    "createTime": "2026-04-07T16:49:58.333958Z",
    "responseId": "tjXVaYaxFISTq8YP_MWiyAo",
}


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


class Stream:
    """One format's events for an argument: what jsondrip is fed, each event's JSON text (the
    floor decodes those), and the argument text each event adds (the jiter baseline's
    fragments)."""

    def __init__(self, fmt: str, text: str) -> None:
        self.fmt = fmt
        self.feeds: list[Any] = []  # bytes (SSE, JSON lines) or dicts (boto3)
        self.payloads: list[bytes] = []  # each event's JSON, for the floor
        if fmt == "gemini":
            self.fragments = self._gemini(json.loads(text))
        else:
            self.fragments = fragments(text)
            getattr(self, "_" + fmt.replace("-lines", "").replace("-", "_"))(self.fragments)

    def add(self, obj: Any, event: str | None = None) -> None:
        payload = json.dumps(obj)
        self.payloads.append(payload.encode())
        if self.fmt == "bedrock":
            self.feeds.append(obj)
        elif self.fmt == "bedrock-lines":
            self.feeds.append(f"{payload}\n".encode())
        else:
            head = f"event: {event}\n" if event else ""
            self.feeds.append(f"{head}data: {payload}\n\n".encode())

    def _anthropic(self, parts: list[str]) -> None:
        self.add({"type": "message_start", "message": {"id": "msg_1", "type": "message"}}, "x")
        block = {"type": "tool_use", "id": "toolu_1", "name": "save", "input": {}}
        self.add({"type": "content_block_start", "index": 0, "content_block": block}, "x")
        for part in parts:
            delta = {"type": "input_json_delta", "partial_json": part}
            self.add({"type": "content_block_delta", "index": 0, "delta": delta}, "x")
        self.add({"type": "content_block_stop", "index": 0}, "x")
        self.add({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}, "x")
        self.add({"type": "message_stop"}, "x")

    def _openai_chat(self, parts: list[str]) -> None:
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            return {**base, "choices": [choice]}

        first = {"index": 0, "id": "call_1", "type": "function"}
        first["function"] = {"name": "save", "arguments": ""}
        self.add(chunk({"role": "assistant", "tool_calls": [first]}))
        for part in parts:
            self.add(chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]}))
        self.add(chunk({}, "tool_calls"))
        self.feeds.append(b"data: [DONE]\n\n")

    def _bedrock(self, parts: list[str]) -> None:
        self.add({"messageStart": {"role": "assistant"}})
        start = {"toolUse": {"toolUseId": "tooluse_1", "name": "save"}}
        self.add({"contentBlockStart": {"contentBlockIndex": 0, "start": start}})
        for part in parts:
            delta = {"toolUse": {"input": part}}
            self.add({"contentBlockDelta": {"contentBlockIndex": 0, "delta": delta}})
        self.add({"contentBlockStop": {"contentBlockIndex": 0}})
        self.add({"messageStop": {"stopReason": "tool_use"}})

    def _gemini(self, value: Any) -> list[str]:
        """Vertex partialArgs events; returns the text each adds (the writer's, untimed)."""

        def part(call: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            candidate: dict[str, Any] = {
                "content": {"role": "model", "parts": [{"functionCall": call}]}
            }
            if finish:
                candidate["finishReason"] = finish
            return {"candidates": [candidate], **VERTEX_ENVELOPE}

        writer = PartialArgsWriter()
        texts: list[str] = []
        self.add(part({"name": "save", "willContinue": True}))
        for piece in leaf_pieces(value, "$"):
            self.add(part({"partialArgs": [piece], "willContinue": True}))
            texts.append(writer.feed([piece]))
        self.add(part({}, "STOP"))
        texts.append(writer.end())
        return texts


def leaf_pieces(value: Any, path: str) -> Any:
    """Vertex-style pieces of a value: one per leaf, strings in FRAGMENT-character pieces."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        where = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"
        if isinstance(child, (dict, list)):
            yield from leaf_pieces(child, where)
        elif isinstance(child, str):
            cuts = list(range(0, len(child), FRAGMENT)) or [0]
            for at in cuts:
                more = at + FRAGMENT < len(child)
                piece = {"jsonPath": where, "stringValue": child[at : at + FRAGMENT]}
                yield {**piece, "willContinue": True} if more else piece
        elif isinstance(child, bool):
            yield {"jsonPath": where, "boolValue": child}
        elif child is None:
            yield {"jsonPath": where, "nullValue": "NULL_VALUE"}
        else:
            yield {"jsonPath": where, "numberValue": child}


def run_jsondrip(stream: Stream) -> Any:
    acc = ToolCallAccumulator()
    feed = {"bedrock": acc.feed, "bedrock-lines": acc.feed_lines}.get(stream.fmt, acc.feed_sse)
    previews = 0
    for data in stream.feeds:
        for event in feed(data):
            if type(event) is ToolCallDelta:
                event.preview  # noqa: B018 - the UI reads the preview at every fragment
                previews += 1
    acc.finish()
    call = acc.tool_calls[0]
    assert call.complete and previews > 0, call
    return call.arguments


def run_floor(payloads: list[bytes]) -> None:
    loads = orjson.loads
    for payload in payloads:
        loads(payload)


def run_jiter(parts: list[str]) -> Any:
    buffer = ""
    value: Any = None
    for part in parts:
        buffer += part
        value = jiter.from_json(buffer.encode(), partial_mode="trailing-strings")
    return value


def best(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """(best CPU seconds of `repeats` calls, the value of one call)."""
    seconds, _ = best_time(
        lambda _: fn(), None, repeats, budget=60.0, min_time=0.0, timer=time.process_time
    )
    return seconds, fn()


def measure(name: str, text: str, fmt: str, repeats: int) -> tuple[float, float]:
    stream = Stream(fmt, text)
    expected = json.loads(text)
    runs = {
        "ours": lambda s=stream: run_jsondrip(s),
        "jiter": lambda: run_jiter(stream.fragments),
        "floor": lambda s=stream: run_floor(s.payloads),
    }
    times = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):  # interleaved: a load spike on the machine hits all three alike
        for key, run in runs.items():
            times[key] = min(times[key], best(run, 1)[0])
    t_ours, t_jiter, t_floor = times["ours"], times["jiter"], times["floor"]
    ours, theirs = runs["ours"](), runs["jiter"]()
    assert ours == expected and theirs == expected, "final values differ from json.loads"
    ratio, floor = t_jiter / t_ours, t_ours / t_floor
    print(
        f"| {fmt} | {name} | {len(stream.payloads)} | {t_ours * 1e3:.1f} ms | "
        f"{t_jiter * 1e3:.0f} ms | {t_floor * 1e3:.2f} ms | **{ratio:.0f}x** | **{floor:.2f}x** |"
    )
    return ratio, floor


def compare_matchers(repeats: int) -> None:
    """jsondrip per event with the native `ChunkMatcher` and with its Python twin."""
    from jsondrip.toolcalls import shortcut

    native = shortcut._chunk_matcher
    print("| format | events | floor | Python ChunkMatcher | native ChunkMatcher |")
    print("|---|---:|---:|---:|---:|")
    for fmt in ("anthropic", "openai-chat"):
        stream = Stream(fmt, records_argument())
        n = len(stream.payloads)
        t_floor = t_python = t_native = float("inf")
        for _ in range(repeats):  # interleaved: a load spike hits all three alike
            t_floor = min(t_floor, best(lambda s=stream: run_floor(s.payloads), 1)[0])
            try:
                shortcut._chunk_matcher = shortcut.ChunkMatcher
                t_python = min(t_python, best(lambda s=stream: run_jsondrip(s), 1)[0])
            finally:
                shortcut._chunk_matcher = native
            t_native = min(t_native, best(lambda s=stream: run_jsondrip(s), 1)[0])
        print(
            f"| {fmt} | {n} | {t_floor / n * 1e6:.2f} us | {t_python / n * 1e6:.2f} us "
            f"({t_python / t_floor:.1f}x) | {t_native / n * 1e6:.2f} us "
            f"({t_native / t_floor:.1f}x) |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", nargs="*", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--matchers", action="store_true", help="the SSE chunk check, A/B")
    args = parser.parse_args(argv)
    if args.matchers:
        compare_matchers(args.repeats)
        return 0
    backend = jsondrip.Parser().backend
    print(
        f"python {sys.version.split()[0]}, jsondrip backend {backend}, jiter {jiter.__version__},"
        f" orjson {orjson.__version__}\n"
    )
    print("| format | argument | events | jsondrip | jiter re-parse | orjson floor "
          "| jiter / jsondrip | jsondrip / floor |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    results = {
        fmt: measure("records", records_argument(), fmt, args.repeats) for fmt in args.format
    }
    growth = {}
    for fmt in args.format:
        measure("string", string_argument(), fmt, args.repeats)
        growth[fmt] = scaling(fmt, args.repeats)
    print()
    for fmt, (ratio, floor) in results.items():
        print(verdict_line(VS_REPARSE, ratio, fmt))
        print(verdict_line(VS_FLOOR, floor, fmt))
        print(verdict_line(LINEAR, growth[fmt], fmt))
    return 0


def scaling(fmt: str, repeats: int) -> float:
    """jsondrip's time for a 4x longer single-string argument, over the 64 KB one's (the
    median of rounds timing both in turn)."""
    small, large = Stream(fmt, string_argument()), Stream(fmt, string_argument(4 * SIZE))
    return growth(partial(run_jsondrip, small), partial(run_jsondrip, large), 2 * repeats + 1)


if __name__ == "__main__":
    raise SystemExit(main())

"""Tool calls written as text: `text_tools=` against what inference servers do per delta.

    python benches/bench_text_tools.py [--family NAME ...] [--repeats N]

For each family, one tool call whose argument is 64 KB (the records of bench_toolcalls: a list
of small records; for the XML families one parameter holding them, typed `array` by `tools=`)
is written in the family's markup, after a line of text, and cut into 20-character deltas.
jsondrip reads each delta with `ToolCallAccumulator(text_tools=...).feed_text` and reads the
preview of every `ToolCallDelta`.

The reference is what vLLM's and SGLang's streaming tool parsers do at every delta (their
`extract_tool_calls_streaming`): append the delta to the text so far, find the call's argument
text in the whole of it again, parse it again from its first character with
partial-json-parser (`partial_json_parser.loads(..., Allow.ALL)`, vLLM's
`partial_json_loads`), serialise the value with `json.dumps` and send what the serialisation
gained since the last delta (the "argument diff"). For the XML families the parameters are
found again with a regular expression and the open one, a JSON array, is parsed the same way;
for pythonic calls, as vLLM's pythonic parsers do, the open brackets and quotes are closed and
the text given to `ast.parse`. The reference costs one parse of the text so far per delta, so
it is timed at every 32nd delta and the sum scaled by 32 (a stratified sample of the real
total, whose per-delta cost grows with the text).

Targets, verdicts printed per family: VS_REPARSE, jsondrip at least 50x faster than that
reference; LINEAR, a 4x longer argument (256 KB) taking at most 4.4x jsondrip's time, for
the records and for a single long string (a file's text). Exit status 0 either way: a report,
not a gate. Timing: the best of `--repeats` rounds, each round timing both in turn (a load
spike hits them alike; LINEAR the median of `2 * repeats + 1` rounds' ratios, as
`jsondrip.bench.timing.growth` takes it), the garbage collector off, in CPU time of this process
(`time.process_time`: both sides are single-threaded and CPU-bound, and the machine these
figures come from is shared: its other work would otherwise count).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable

import partial_json_parser
from partial_json_parser.core.options import Allow

import jsondrip
from jsondrip.bench.targets import Target, verdict_line
from jsondrip.bench.timing import growth, no_gc
from jsondrip.toolcalls import ToolCallAccumulator, ToolCallDelta

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_toolcalls import records_argument, string_argument

SIZE = 64 * 1024
DELTA = 20
SAMPLE = 32  # the reference is timed at every SAMPLE-th delta
VS_REPARSE = Target(
    "records: server re-parse / jsondrip",
    "reading a 64 KB argument written as text, delta by delta, against re-parsing the text "
    "so far with partial-json-parser at every delta",
    lo=50,
)
LINEAR = Target(
    "4x the argument / 1x",
    "jsondrip's time for a 256 KB argument against a 64 KB one: work in proportion to each "
    "delta keeps it near 4x",
    hi=4.4,
)
FAMILIES = (
    "hermes",
    "qwen3-coder",
    "mistral",
    "llama3-json",
    "pythonic",
    "deepseek",
    "kimi-k2",
    "glm-4.5",
    "harmony",
)
XML = ("qwen3-coder", "glm-4.5")
PREAMBLE = "Let me save that for you.\n"


# -- the model's text -------------------------------------------------------------------------


def model_text(family: str, argument: str) -> str:
    """One call of tool `save` with `argument` (a JSON object) in the family's markup."""
    value = json.loads(argument)
    if family == "hermes":
        body = f'<tool_call>\n{{"name": "save", "arguments": {argument}}}\n</tool_call>'
    elif family == "qwen3-coder":
        params = "".join(
            f"<parameter={key}>\n{as_text(inner)}\n</parameter>\n" for key, inner in value.items()
        )
        body = f"<tool_call>\n<function=save>\n{params}</function>\n</tool_call>"
    elif family == "glm-4.5":
        pairs = "".join(
            f"<arg_key>{key}</arg_key>\n<arg_value>{as_text(inner)}</arg_value>\n"
            for key, inner in value.items()
        )
        body = f"<tool_call>save\n{pairs}</tool_call>"
    elif family == "mistral":
        body = f"[TOOL_CALLS]save[ARGS]{argument}"
    elif family == "llama3-json":
        return f'{{"name": "save", "parameters": {argument}}}'  # no text before: none is allowed
    elif family == "pythonic":
        return "[save(" + ", ".join(f"{key}={inner!r}" for key, inner in value.items()) + ")]"
    elif family == "deepseek":
        body = (
            f"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>save<｜tool▁sep｜>{argument}"
            "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        )
    elif family == "kimi-k2":
        body = (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.save:0"
            f"<|tool_call_argument_begin|>{argument}<|tool_call_end|><|tool_calls_section_end|>"
        )
    elif family == "harmony":
        return (
            f"<|channel|>analysis<|message|>{PREAMBLE}<|end|><|start|>assistant<|channel|>"
            f"commentary to=functions.save <|constrain|>json<|message|>{argument}<|call|>"
        )
    else:
        raise ValueError(family)
    return PREAMBLE + body


def as_text(value: Any) -> str:
    """A parameter as the XML templates write it: a string as it is, else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def tools_for(argument: str) -> list[dict[str, Any]]:
    """The tool `save`, its parameters typed as the argument holds them (the XML families
    type parameter text by them)."""
    properties = {
        key: {"type": "string" if isinstance(inner, str) else "array"}
        for key, inner in json.loads(argument).items()
    }
    return [{"name": "save", "input_schema": {"type": "object", "properties": properties}}]


def deltas(text: str) -> list[str]:
    return [text[i : i + DELTA] for i in range(0, len(text), DELTA)]


# -- jsondrip ---------------------------------------------------------------------------------


def run_jsondrip(family: str, pieces: list[str], tools: Any) -> Any:
    acc = ToolCallAccumulator(text_tools=family, tools=tools)
    previews = 0
    for piece in pieces:
        for event in acc.feed_text(piece):
            if type(event) is ToolCallDelta:
                event.preview  # noqa: B018 - the UI reads the preview at every delta
                previews += 1
    acc.finish()
    (call,) = acc.tool_calls
    assert call.complete and previews > 0, call
    return call.arguments


# -- the servers' way: the text so far parsed again at every delta ----------------------------

DEEPSEEK_ARGS = re.compile(r"<｜tool▁sep｜>(.*?)(?:<｜tool▁call▁end｜>|$)", re.S)
PARAMETER = re.compile(r"<parameter=([^>]*)>\n(.*?)(?:\n</parameter>|$)", re.S)
ARG_PAIR = re.compile(r"<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)(?:</arg_value>|$)", re.S)


def after(text: str, marker: str, end: str | None = None) -> str | None:
    """The text after `marker`, up to `end` when it is there; None before the marker."""
    at = text.find(marker)
    if at < 0:
        return None
    region = text[at + len(marker) :]
    if end is not None:
        stop = region.find(end)
        if stop >= 0:
            region = region[:stop]
    return region


def loads(text: str) -> Any:
    try:
        return partial_json_parser.loads(text, Allow.ALL)
    except Exception:  # not enough text yet: the servers skip the delta
        return None


def json_arguments(family: str, text: str) -> Any:
    """The arguments as a JSON server parser finds them in the text so far."""
    if family == "hermes":
        region = after(text, "<tool_call>", "</tool_call>")
        value = loads(region.strip()) if region else None
        return value.get("arguments") if isinstance(value, dict) else None
    if family == "llama3-json":
        value = loads(text)
        return value.get("parameters") if isinstance(value, dict) else None
    if family == "mistral":
        region = after(text, "[ARGS]")
    elif family == "deepseek":
        found = DEEPSEEK_ARGS.search(text)
        region = found.group(1) if found else None
    elif family == "kimi-k2":
        region = after(text, "<|tool_call_argument_begin|>", "<|tool_call_end|>")
    elif family == "harmony":
        region = after(text, "to=functions.save <|constrain|>json<|message|>", "<|call|>")
    else:
        raise ValueError(family)
    return loads(region) if region else None


def xml_arguments(family: str, text: str) -> Any:
    """The parameters found again by a regular expression; JSON text parsed as JSON."""
    pattern = PARAMETER if family == "qwen3-coder" else ARG_PAIR
    out = {}
    for key, value in pattern.findall(text):
        out[key] = loads(value) if value[:1] in "[{" else value
    return out


def close_python(text: str) -> str:
    """The text of a pythonic call list so far, its open brackets and quotes closed."""
    stack: list[str] = []
    escaped = False
    for c in text:
        if stack and stack[-1] in "'\"":
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == stack[-1]:
                stack.pop()
        elif c in "'\"[({":
            stack.append(c)
        elif c in ")]}" and stack:
            stack.pop()
    closers = {"[": "]", "(": ")", "{": "}", "'": "'", '"': '"'}
    text = text.rstrip().rstrip(",:=")
    return text + "".join(closers[c] for c in reversed(stack))


def pythonic_arguments(text: str) -> Any:
    try:
        tree = ast.parse(close_python(text))
        calls = tree.body[0].value.elts  # type: ignore[attr-defined]
        return {kw.arg: ast.literal_eval(kw.value) for kw in calls[-1].keywords}
    except Exception:  # not enough text yet
        return None


def server_read(family: str) -> Callable[[str], Any]:
    if family in XML:
        return lambda text: xml_arguments(family, text)
    if family == "pythonic":
        return pythonic_arguments
    return lambda text: json_arguments(family, text)


def reparse_seconds(family: str, pieces: list[str]) -> float:
    """The servers' way, timed at every SAMPLE-th delta (the text so far, its argument found
    and parsed again, serialised, the diff against what was sent) and scaled by SAMPLE."""
    read = server_read(family)
    total = 0.0
    text = ""
    sent = ""
    ends, at = [], 0
    for piece in pieces:
        at += len(piece)
        ends.append(at)
    whole = "".join(pieces)
    with no_gc():
        for k in range(SAMPLE // 2, len(pieces), SAMPLE):
            text = whole[: ends[k - 1]]
            start = time.process_time()
            text += pieces[k]  # the delta appended to the text so far
            value = read(text)
            try:
                serialised = json.dumps(value, ensure_ascii=False)
            except TypeError:  # a half-written dict read as a set: the delta is skipped
                serialised = ""
            if value is not None and serialised.startswith(sent):
                sent = serialised  # what the servers send is `serialised[len(sent):]`
            total += time.process_time() - start
    return total * SAMPLE


# -- the run ----------------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> float:
    with no_gc():
        start = time.process_time()
        fn()
        return time.process_time() - start


def measure(family: str, repeats: int) -> tuple[float, float, float]:
    argument = records_argument(SIZE)
    text = model_text(family, argument)
    pieces = deltas(text)
    tools = tools_for(argument) if family in XML else None
    expected = json.loads(argument)
    assert run_jsondrip(family, pieces, tools) == expected, "not json.loads' value"
    assert server_read(family)(text) == expected, "the reference reads another value"
    t_ours = t_server = float("inf")
    for _ in range(repeats):  # interleaved: a load spike hits both alike
        t_ours = min(t_ours, timed(lambda: run_jsondrip(family, pieces, tools)))
        t_server = min(t_server, reparse_seconds(family, pieces))
    growth_records = scaling(family, records_argument, repeats)
    growth_string = scaling(family, string_argument, repeats)
    print(
        f"| {family} | {len(pieces)} | {t_ours * 1e3:.1f} ms | {t_server:.2f} s | "
        f"**{t_server / t_ours:.0f}x** | {growth_records:.2f}x | {growth_string:.2f}x |"
    )
    return t_server / t_ours, growth_records, growth_string


def scaling(family: str, make: Callable[[int], str], repeats: int) -> float:
    """jsondrip's time for a 4x longer argument, over the 64 KB one's (the median of rounds
    timing both in turn)."""
    runs = []
    for size in (SIZE, 4 * SIZE):
        argument = make(size)
        tools = tools_for(argument) if family in XML else None
        runs.append(partial(run_jsondrip, family, deltas(model_text(family, argument)), tools))
    return growth(runs[0], runs[1], 2 * repeats + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", nargs="*", default=list(FAMILIES), choices=FAMILIES)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    backend = jsondrip.Parser().backend
    print(f"python {sys.version.split()[0]}, jsondrip backend {backend}\n")
    print(
        "| family | deltas | jsondrip | server re-parse | re-parse / jsondrip "
        "| 4x records | 4x string |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    results = {family: measure(family, args.repeats) for family in args.family}
    print()
    for family, (ratio, records, string) in results.items():
        print(verdict_line(VS_REPARSE, ratio, family))
        print(verdict_line(LINEAR, records, f"{family}, records"))
        print(verdict_line(LINEAR, string, f"{family}, string"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

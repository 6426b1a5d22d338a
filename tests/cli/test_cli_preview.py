"""`jsondrip` (the demo) and `jsondrip preview` with NDJSON output: exact lines, formats,
standard input, pacing, and the bundled stream itself."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _cli_support import DEMO_IDS, run
from _support import json_error
from conftest import corpus_dir

import jsondrip
from jsondrip.cli.replay import paced, sse_fragments
from jsondrip.cli.source import demo_bytes

DEMO_CODE = r'''ESCAPES = {
    '"': '"', "\\": "\\", "/": "/",
    "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
}


def unescape(s: str) -> str:
    """Decode the escapes of a JSON string body: r'say \"hi\"' -> 'say "hi"'."""
    out, i = [], 0
    while i < len(s):
        if s[i] != "\\":
            out.append(s[i])
            i += 1
        elif s[i + 1] == "u":
            out.append(chr(int(s[i + 2 : i + 6], 16)))
            i += 6
        else:
            out.append(ESCAPES[s[i + 1]])
            i += 2
    return "".join(out)
'''
DEMO_CALLS = [
    ("write_file", {"path": "src/jsonish/escape.py", "content": DEMO_CODE, "overwrite": True}),
    ("read_file", {"path": "tests/test_escape.py", "lines": [1, 60]}),
    (
        "search_docs",
        {
            "query": "JSON 字符串的转义规则：\\uXXXX 与代理对",  # noqa: RUF001
            "top_k": 3,
            "filters": {"lang": ["zh", "ja"], "updated_after": "2025-01-01"},
        },
    ),
]
DEMO_TEXT = (
    '找到问题了：`unescape()`在处理反斜杠时会把下一个字符读两遍，所以`"C:\\\\temp\\\\"`'  # noqa: RUF001
    "末尾的引号被吞掉了。我会重写这个函数（逐字符扫描+转义表），同时读取现有测试、"  # noqa: RUF001
    "查阅文档里的转义规则。"
)
DEMO_REASONING = (
    'The user says unescape() breaks on a backslash right before a closing quote, e.g. "C:\\\\'
    'temp\\\\" comes back with the quote eaten. The loop looks at s[i+1] without consuming it, '
    "so an escaped backslash is read twice. Fix: walk the string once and map each escape "
    "through a table. I'll write the fixed file and, in parallel, read the existing tests and "
    "look up the escape rules in the team's docs (they are in Chinese) to confirm \\u handling."
)


def line(**fields: object) -> str:
    return json.dumps(fields, ensure_ascii=False)


def check_deltas(events: list[dict]) -> dict[int, str]:
    """Every delta's preview is what a stable-mode parser shows for the arguments so far;
    returns each call's whole argument text."""
    raw: dict[int, str] = {}
    for event in events:
        if event["event"] == "tool_call_delta":
            raw[event["index"]] = raw.get(event["index"], "") + event["arguments_delta"]
            expected = jsondrip.parse_partial(raw[event["index"]])
            if expected is jsondrip.MISSING:
                assert "preview" not in event
            else:
                assert event["preview"] == expected
    return raw


def test_demo_prints_ndjson_when_the_output_is_not_a_terminal() -> None:
    result = run()  # no arguments: the demo; a pipe: NDJSON, as fast as possible
    assert (result.status, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    events = [json.loads(text) for text in lines]
    kinds = [event["event"] for event in events]
    # one event per delta of the stream (the empty first input_json_delta shows nothing)
    stream = demo_bytes().decode()
    assert kinds.count("reasoning_delta") == stream.count('"thinking_delta"') == 16
    assert kinds.count("text_delta") == stream.count('"text_delta"') == 12
    assert kinds.count("tool_call_delta") == stream.count('"input_json_delta"') - 3 == 88
    assert len(lines) == 16 + 12 + 88 + 3 + 3 + 1
    assert "".join(e["text"] for e in events if e["event"] == "reasoning_delta") == DEMO_REASONING
    assert "".join(e["text"] for e in events if e["event"] == "text_delta") == DEMO_TEXT
    assert {e.get("choice") for e in events if e["event"].endswith("text_delta")} == {0}
    raw = check_deltas(events)

    # the final calls, exactly, line for line
    expected = []
    for index, (name, arguments) in enumerate(DEMO_CALLS):
        ids = {"index": index, "id": DEMO_IDS[name], "name": name}
        expected.append(line(event="tool_call_started", **ids, kind="function"))
        text = json.dumps(arguments, ensure_ascii=False)
        assert raw[index] == text
        expected.append(
            line(
                event="tool_call_done",
                **ids,
                kind="function",
                choice=0,
                arguments=arguments,
                raw=text,
                error=None,
                complete=True,
            )
        )
    expected.append(line(event="stream_done", finish_reason="tool_use"))
    assert [text for text in lines if not text.startswith('{"event": "tool_call_delta"')][
        -1
    ] == expected[-1]
    assert [
        text
        for text in lines
        if re.match(r'\{"event": "(tool_call_started|tool_call_done|stream_done)"', text)
    ] == expected
    # the first delta of each call comes right after its start
    for index in range(3):
        start = lines.index(expected[2 * index])
        assert json.loads(lines[start + 1])["event"] == "tool_call_delta"


def test_json_flag_and_explicit_demo_give_the_same_lines() -> None:
    plain = run("--speed", "0").stdout
    assert run("demo", "--json", "--speed", "0").stdout == plain
    assert run("--debug", "demo", "--json").stdout == plain
    # the bundled stream piped in: the same events
    assert run("preview", "-", stdin=demo_bytes()).stdout == plain


def test_demo_without_rich_still_prints_ndjson() -> None:
    result = run("--json", without_rich=True)
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout.endswith('{"event": "stream_done", "finish_reason": "tool_use"}\n')


OPENAI_PARALLEL = [
    ("tool_call_started", 0, None, None),
    ("tool_call_delta", 0, '{"ci', {}),
    ("tool_call_delta", 0, 'ty": ', {}),
    ("tool_call_delta", 0, '"Edinb', {"city": "Edinb"}),
    ("tool_call_delta", 0, "urgh", {"city": "Edinburgh"}),
    ("tool_call_delta", 0, '", "c', {"city": "Edinburgh"}),
    ("tool_call_delta", 0, "ountry", {"city": "Edinburgh"}),
    ("tool_call_delta", 0, '": "', {"city": "Edinburgh", "country": ""}),
    ("tool_call_delta", 0, 'GB", ', {"city": "Edinburgh", "country": "GB"}),
    ("tool_call_delta", 0, '"units', {"city": "Edinburgh", "country": "GB"}),
    ("tool_call_delta", 0, '": "', {"city": "Edinburgh", "country": "GB", "units": ""}),
    ("tool_call_delta", 0, 'c"}', {"city": "Edinburgh", "country": "GB", "units": "c"}),
    ("tool_call_started", 1, None, None),
    ("tool_call_delta", 1, '{"ti', {}),
    ("tool_call_delta", 1, 'cker"', {}),
    ("tool_call_delta", 1, ': "AAP', {"ticker": "AAP"}),
    ("tool_call_delta", 1, 'L", ', {"ticker": "AAPL"}),
    ("tool_call_delta", 1, '"exch', {"ticker": "AAPL"}),
    ("tool_call_delta", 1, 'ange":', {"ticker": "AAPL"}),
    ("tool_call_delta", 1, ' "NA', {"ticker": "AAPL", "exchange": "NA"}),
    ("tool_call_delta", 1, 'SDAQ"', {"ticker": "AAPL", "exchange": "NASDAQ"}),
    ("tool_call_delta", 1, "}", {"ticker": "AAPL", "exchange": "NASDAQ"}),
]


def test_openai_chat_parallel_tool_calls_line_for_line() -> None:
    path = corpus_dir("streams") / "openai-chat_parallel-tool-calls_gpt-4o.sse"
    calls = [
        {"index": 0, "id": "call_JMW1whyEaYG438VE1OIflxA2", "name": "GetWeatherArgs"},
        {"index": 1, "id": "call_DNYTawLBoN8fj3KN6qU9N1Ou", "name": "get_stock_price"},
    ]
    expected = []
    for kind, index, delta, preview in OPENAI_PARALLEL:
        if kind == "tool_call_started":
            expected.append(line(event=kind, **calls[index], kind="function"))
        else:
            expected.append(
                line(event=kind, **calls[index], arguments_delta=delta, preview=preview)
            )
    for call, arguments in zip(
        calls,
        [
            {"city": "Edinburgh", "country": "GB", "units": "c"},
            {"ticker": "AAPL", "exchange": "NASDAQ"},
        ],
    ):
        raw = json.dumps(arguments)
        expected.append(
            line(
                event="tool_call_done",
                **call,
                kind="function",
                choice=0,
                arguments=arguments,
                raw=raw,
                error=None,
                complete=True,
            )
        )
    expected.append(line(event="stream_done", finish_reason="tool_calls"))
    for args in (["preview", str(path)], ["preview", "--json", "--speed", "0", str(path)]):
        result = run(*args)
        assert (result.status, result.stderr) == (0, "")
        assert without_changes(result.stdout.splitlines()) == expected
    piped = run("preview", "-", stdin=path.read_bytes())
    assert without_changes(piped.stdout.splitlines()) == expected


def without_changes(lines: list[str]) -> list[str]:
    """The lines with each delta's `changes` checked and removed: applied in order, they
    rebuild every call's preview exactly."""
    rebuilt: dict[int, Any] = {}
    out = []
    for text in lines:
        event = json.loads(text)
        if event["event"] == "tool_call_delta":
            changes = [jsondrip.Change(*change) for change in event.pop("changes")]
            index = event["index"]
            value = jsondrip.apply_changes(rebuilt.get(index, jsondrip.MISSING), changes)
            rebuilt[index] = value
            assert value == event["preview"] if "preview" in event else value is jsondrip.MISSING
        out.append(line(**event))
    return out


def test_json_changes_rebuild_arguments_that_only_the_end_completes(tmp_path: Path) -> None:
    """A top-level number as the arguments: no fragment can show it, the last delta adds it."""
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message"}},
        {"type": "content_block_start", "index": 0, "content_block": block},
    ]
    for part in ("12", "3"):
        delta = {"type": "input_json_delta", "partial_json": part}
        events.append({"type": "content_block_delta", "index": 0, "delta": delta})
    events += [
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
        {"type": "message_stop"},
    ]
    path = tmp_path / "number.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in events))
    result = run("preview", "--json", str(path))
    assert (result.status, result.stderr) == (0, "")
    lines = [json.loads(text) for text in result.stdout.splitlines()]
    deltas = [event for event in lines if event["event"] == "tool_call_delta"]
    assert [(d["arguments_delta"], d["changes"]) for d in deltas] == [
        ("12", []),
        ("3", []),
        ("", [["add", "", 123]]),
    ]
    rebuilt: Any = jsondrip.MISSING
    for delta in deltas:
        rebuilt = jsondrip.apply_changes(rebuilt, [jsondrip.Change(*c) for c in delta["changes"]])
    (done,) = [event for event in lines if event["event"] == "tool_call_done"]
    assert rebuilt == done["arguments"] == 123 and done["complete"]
    without_changes(result.stdout.splitlines())  # every delta's preview rebuilt too


def test_anthropic_stream_cut_by_the_token_limit_is_not_complete() -> None:
    path = corpus_dir("streams") / "anthropic_tool-use_max-tokens-truncated.sse"
    result = run("preview", str(path))
    assert result.status == 0
    lines = result.stdout.splitlines()
    raw = (
        '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR '
        'INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes'
    )
    assert lines[-2:] == [
        line(
            event="tool_call_done",
            index=0,
            id="toolu_01EKqbqmZrGRXy18eN7m9kvY",
            name="make_file",
            kind="function",
            choice=0,
            arguments={
                "filename": "taxes.txt",
                "lines_of_text": [
                    "# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",
                    "",
                    "## INTRODUCTION",
                    "",
                    "Filing taxes",
                ],
            },
            raw=raw,
            error="truncated by the token limit ('max_tokens'): Unterminated string starting "
            "at: line 6 column 1 (char 136)",
            complete=False,
        ),
        line(event="stream_done", finish_reason="max_tokens"),
    ]


def test_json_lines_recording_is_detected() -> None:
    path = corpus_dir("streams") / "deepseek-chat_reasoning-content_tool-calls.chunks.jsonl"
    result = run("preview", str(path))
    assert (result.status, result.stderr) == (0, "")
    events = [json.loads(text) for text in result.stdout.splitlines()]
    reasoning = "".join(e["text"] for e in events if e["event"] == "reasoning_delta")
    assert reasoning == (
        "The user is asking for the weather in San Francisco. I need to use the weather tool to "
        "get this information. Let me invoke the weather tool with the location parameter set "
        'to "San Francisco".'
    )
    check_deltas(events)
    assert result.stdout.splitlines()[-2:] == [
        line(
            event="tool_call_done",
            index=0,
            id="call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
            name="weather",
            kind="function",
            choice=0,
            arguments={"location": "San Francisco"},
            raw='{"location": "San Francisco"}',
            error=None,
            complete=True,
        ),
        line(event="stream_done", finish_reason="tool_calls"),
    ]
    # the same lines when told the framing or the provider, and when piped in
    assert run("preview", "--framing", "jsonl", str(path)).stdout == result.stdout
    assert run("preview", "--format", "openai-chat", str(path)).stdout == result.stdout
    assert run("preview", "-", stdin=path.read_bytes()).stdout == result.stdout


def test_item12_preview_format_names_the_provider_and_framing_is_framing() -> None:
    """#30 item 12: `--format` means the provider, as `ToolCallAccumulator(format=...)`;
    the framing option is `--framing`; the old `--format sse|jsonl` still works one more
    release, with a warning."""
    path = corpus_dir("streams") / "deepseek-chat_reasoning-content_tool-calls.chunks.jsonl"
    plain = run("preview", str(path))
    for args in (["--format", "deepseek"], ["--framing", "jsonl", "--format", "openai-chat"]):
        told = run("preview", *args, str(path))
        assert (told.status, told.stdout, told.stderr) == (0, plain.stdout, "")
    old = run("preview", "--format", "jsonl", str(path))
    assert (old.status, old.stdout) == (0, plain.stdout)
    assert old.stderr == (
        "jsondrip: warning: --format jsonl is deprecated: the framing is now --framing jsonl "
        "(--format names the provider format, as in the library)\n"
    )
    wrong = run("preview", "--format", "anthropic", str(path))  # an OpenAI stream
    assert (wrong.status, wrong.stdout) == (1, "")
    assert wrong.stderr == (
        f"jsondrip: {path.name}: no anthropic stream found: is it another provider's? "
        "(leave out --format to detect it)\n"
    )
    unknown = run("preview", "--format", "bogus", str(path))
    assert unknown.status == 2
    assert "unknown provider format 'bogus': use one of auto, openai-chat," in unknown.stderr
    clash = run("preview", "--format", "sse", "--framing", "jsonl", str(path))
    assert (clash.status, clash.stderr) == (
        2,
        "jsondrip: --format sse and --framing jsonl disagree\n",
    )


def test_item12_preview_help_names_every_provider_format() -> None:
    """#30 item 12: the error text says "see --help": the help names all eight formats,
    each whole (never broken at its hyphen)."""
    from jsondrip.toolcalls.formats import FORMATS

    shown = run("preview", "--help")
    assert shown.status == 0
    words = set(re.findall(r"[\w.-]+", shown.stdout))
    assert set(FORMATS) <= words, set(FORMATS) - words
    assert "--framing" in words


def test_item7_preview_web_exits_130_on_ctrl_c() -> None:
    """#30 item 7: Ctrl-C ends `preview --web` as it ends the other commands: the
    `interrupted` message and exit status 130."""
    import signal

    def interruptible() -> None:
        # A suite started in the background without job control starts with SIGINT ignored,
        # and a child inherits that (Python then installs no KeyboardInterrupt handler): the
        # command is tested as a terminal starts it, with SIGINT's default.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    path = corpus_dir("streams") / "anthropic_text-then-tool-use.sse"
    process = subprocess.Popen(
        [sys.executable, "-m", "jsondrip", "preview", "--web", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    try:
        assert "(Ctrl-C to stop)" in process.stdout.readline()
        process.send_signal(signal.SIGINT)
        status = process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    assert (status, process.stderr.read()) == (130, "jsondrip: interrupted\n")


def test_preview_usage_errors_exit_2(tmp_path: Path) -> None:
    missing = run("preview", str(tmp_path / "nope.sse"))
    assert (missing.status, missing.stdout) == (2, "")
    assert missing.stderr == (
        f"jsondrip: cannot read {tmp_path / 'nope.sse'}: No such file or directory\n"
    )
    assert run("preview").status == 2  # FILE is required
    assert run("preview", "x.sse", "--speed", "-1").status == 2
    assert run("--speed", "fast").status == 2


NO_STREAM = (
    "no stream found: expected a tool-call stream of one of openai-chat, openai-responses, "
    "anthropic, gemini, gemini-interactions, bedrock, cohere, ollama (see --help), as "
    "server-sent events ('data: {...}' lines) or JSON lines (one event object per line)\n"
)


def test_input_that_holds_no_stream_says_what_was_expected_and_exits_1(tmp_path: Path) -> None:
    readme = Path(__file__).resolve().parents[2] / "README.md"
    for args, stdin, name in [
        (["preview", str(readme)], b"", "README.md"),
        (["preview", "-"], b"hello\n", "<stdin>"),
        (["preview", "/etc/passwd", "--json"], b"", "passwd"),
        (["preview", "-"], b"data: [DONE]\n\n", "<stdin>"),
        (["preview", "-"], b"", "<stdin>"),
    ]:
        if not Path(args[1]).exists() and args[1] != "-":
            continue
        result = run(*args, stdin=stdin)
        assert (result.status, result.stdout) == (1, ""), args
        assert result.stderr == f"jsondrip: {name}: {NO_STREAM}", args
    lines = run("preview", "-", stdin=b"[1, 2]\n")
    assert (lines.status, lines.stdout) == (1, "")
    assert lines.stderr == "jsondrip: <stdin>: event 1: an event must be a JSON object, not list\n"


def test_a_broken_stream_is_one_message_and_a_traceback_only_with_debug(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"type": "message_start", "message": {"id": "msg_1"}}\nnot json\n')
    quiet = run("preview", str(path))
    assert quiet.status == 1
    assert "Traceback" not in quiet.stderr
    msg, pos, line, column = json_error("not json")  # type: ignore[misc]
    where = f"line {line} column {column} (char {pos})"
    assert quiet.stderr == f"jsondrip: broken.jsonl: event 2: {msg}: {where}\n"
    loud = run("preview", "--debug", str(path))
    assert loud.status == 1
    assert loud.stderr.startswith("Traceback (most recent call last):\n")
    assert loud.stderr.endswith(quiet.stderr)


def test_a_closed_pipe_ends_quietly() -> None:
    child = subprocess.Popen(
        # At a model's pace the child is still writing when the pipe closes; as fast as
        # possible, the whole output can fit in the pipe's buffer first (a race).
        [sys.executable, "-m", "jsondrip", "--json", "--speed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.stdout.close()
    status = child.wait(timeout=30)
    assert json.loads(first)["event"] == "reasoning_delta"
    assert child.stderr.read() == b""
    assert status == 1


# -- the bundled stream and its pace -----------------------------------------------------


def test_the_bundled_stream_is_read_from_the_installed_package() -> None:
    data = demo_bytes()
    blocks = data.decode("utf-8").split("\n\n")
    assert blocks[-1] == ""  # ends with a blank line, like the recordings
    names = []
    for block in blocks[:-1]:
        event_line, data_line = block.split("\n")
        name = event_line.removeprefix("event: ")
        payload = json.loads(data_line.removeprefix("data: "))
        assert payload["type"] == name
        names.append(name)
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert re.fullmatch(
        r"msg_01[0-9A-Za-z]{22}", json.loads(blocks[0].split("data: ")[1])["message"]["id"]
    )
    assert all(re.fullmatch(r"toolu_01[0-9A-Za-z]{22}", value) for value in DEMO_IDS.values())
    for needed in ("thinking_delta", "signature_delta", "text_delta", "input_json_delta", "ping"):
        assert needed in data.decode()


def test_the_demo_takes_a_realistic_time_under_ten_seconds() -> None:
    fragments = sse_fragments(demo_bytes())
    total = sum(delay for _, delay in fragments)
    assert 3.0 < total < 8.0
    assert b"".join(piece for piece, _ in fragments) == demo_bytes()


@pytest.mark.parametrize(("speed", "expected"), [(1.0, [0.4, 0.5, 0.6]), (2.0, [0.2, 0.25, 0.3])])
def test_paced_keeps_to_the_schedule(speed: float, expected: list[float]) -> None:
    now = [0.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    def clock() -> float:
        return now[0]

    fragments = [("a", 0.4), ("b", 0.1), ("c", 0.1)]
    seen = []
    for piece in paced(fragments, speed, sleep=sleep, clock=clock):
        seen.append((piece, round(now[0], 9)))
    assert seen == [(p, t) for (p, _), t in zip(fragments, expected)]


def test_speed_zero_never_sleeps() -> None:
    def sleep(seconds: float) -> None:
        raise AssertionError("slept")

    assert list(paced([(1, 5.0), (2, 5.0)], 0, sleep=sleep)) == [1, 2]


NEW_FORMATS = [
    "gemini_tool-call-with-id_crlf_gemini-3-flash.sse",
    "vertex-gemini_partial-args_nested-json-paths_gemini-3.1-pro.chunks.jsonl",
    "bedrock-converse_nova_server-tool-use_tool-result_then-tool-use.chunks.jsonl",
    "cohere-v2_tool-plan_two-tool-calls.chunks.jsonl",
    "mistral_tool-call_no-index_whole-args.chunks.jsonl",
    "gemini-interactions_function-call_arguments-delta.chunks.jsonl",
]


@pytest.mark.parametrize("name", NEW_FORMATS)
def test_preview_reads_every_provider_format(name: str) -> None:
    path = corpus_dir("streams") / name
    result = run("preview", "--json", str(path))
    assert (result.status, result.stderr) == (0, "")
    done = [json.loads(t) for t in result.stdout.splitlines() if '"tool_call_done"' in t]
    acc = jsondrip.ToolCallAccumulator()
    data = path.read_bytes()
    acc.feed_sse(data) if path.suffix == ".sse" else acc.feed_lines(data)
    acc.finish()
    want = [(c.id, c.name, c.kind, c.arguments, c.raw, c.complete) for c in acc.tool_calls]
    got = [(d["id"], d["name"], d["kind"], d["arguments"], d["raw"], d["complete"]) for d in done]
    assert got == want and want and all(c[-1] for c in want)


def test_preview_reads_ollama_ndjson_from_standard_input() -> None:
    lines = [
        {"model": "m", "created_at": "t", "done": False,
         "message": {"role": "assistant", "content": "",
                     "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]}},
        {"model": "m", "created_at": "t", "done": True, "done_reason": "stop",
         "message": {"role": "assistant", "content": "ok"}},
    ]  # fmt: skip
    body = "".join(json.dumps(x) + "\n" for x in lines).encode()
    result = run("preview", "-", stdin=body)
    events = [json.loads(t) for t in result.stdout.splitlines()]
    assert [e["event"] for e in events] == [
        "tool_call_started",
        "tool_call_delta",
        "text_delta",
        "tool_call_done",
        "stream_done",
    ]
    assert (events[3]["arguments"], events[3]["complete"]) == ({"a": 1}, True)

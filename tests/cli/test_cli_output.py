"""The command line reads structured output (issue 26 item 6): `jsondrip parse` takes a
model's answer as people paste it, `jsondrip preview` shows a JSON answer growing."""

from __future__ import annotations

import json
from pathlib import Path

from _cli_support import run, run_in_terminal, screen

from jsondrip import MISSING, apply_changes
from jsondrip.cli.source import demo_bytes

STREAMS = Path(__file__).resolve().parent.parent / "output" / "streams"


def test_parse_reads_a_fenced_answer_after_its_reasoning() -> None:
    answer = (
        "<think>The user wants JSON.</think>\nSure! Here it is:\n\n"
        '```json\n{"city": "Paris", "tags": ["a", "b"]}\n```\nAnything else?\n'
    )
    result = run("parse", "--compact", stdin=answer.encode())
    assert (result.status, result.stdout, result.stderr) == (
        0,
        '{"city": "Paris", "tags": ["a", "b"]}\n',
        "",
    )
    final = run("parse", "--final", "--compact", stdin=answer.encode())
    assert (final.status, final.stdout) == (0, '{"city": "Paris", "tags": ["a", "b"]}\n')


def test_parse_shows_a_cut_answer_and_refuses_it_with_final() -> None:
    answer = b'Here:\n```json\n{"city": "Paris", "tags": ["a'
    shown = run("parse", "--compact", stdin=answer)
    assert (shown.status, shown.stdout) == (0, '{"city": "Paris", "tags": ["a"]}\n')
    final = run("parse", "--final", stdin=answer)
    assert final.status == 1
    assert final.stderr.startswith(
        "jsondrip: <stdin>: incomplete JSON: truncated at line 3, column 30 (character 43)"
    )


def test_parse_positions_an_error_in_the_answer() -> None:
    answer = b'<think>\nhm\n</think>\n{"a": 1 "b": 2}'
    result = run("parse", stdin=answer)
    assert result.status == 1
    try:  # json's own words on this interpreter (PyPy's differ)
        json.loads('{"a": 1 "b": 2}')
    except json.JSONDecodeError as error:
        words = error.msg
    assert result.stderr == (
        f"jsondrip: <stdin>: invalid JSON: {words} at line 4, column 9 "
        "(character 28)\n"
        '    4 | {"a": 1 "b": 2}\n'
        "      |         ^\n"
    )


def test_parse_of_prose_alone_says_there_is_no_document() -> None:
    result = run("parse", "--final", stdin=b"I cannot help with that.")
    assert result.status == 1
    assert "invalid JSON: No JSON document in the text at line 1, column 25" in result.stderr


def test_preview_prints_the_output_as_ndjson() -> None:
    path = STREAMS / "anthropic_think-fence.sse"
    result = run("preview", "--json", str(path))
    assert result.status == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [line["event"] for line in lines]
    assert "output_delta" in kinds and kinds[-2:] == ["output_done", "stream_done"]
    done = lines[-2]
    assert done["complete"] is True and done["value"]["city"] == "Paris"
    deltas = [line for line in lines if line["event"] == "output_delta"]
    rebuilt = None
    for delta in deltas:  # each line's changes rebuild that line's preview
        rebuilt = apply_changes(MISSING if rebuilt is None else rebuilt, delta["changes"])
        assert rebuilt == delta["preview"]


def test_preview_of_a_tool_call_stream_shows_no_output() -> None:
    """The demo's text is prose (with backticks and brackets): no output is shown."""
    result = run("preview", "--json", "-", stdin=demo_bytes())
    assert result.status == 0
    assert '"output_' not in result.stdout


def test_the_live_view_draws_the_output_and_its_status() -> None:
    path = STREAMS / "openai-chat_truncated.sse"
    status, output, _ = run_in_terminal("preview", "--speed", "0", str(path), rows=30, columns=100)
    lines = screen(output, 100)
    assert status == 0
    text = "\n".join(lines)
    assert "╭─ output" in text and '"city": "Paris",' in text
    assert "✗ truncated by the token limit ('length') ─╯" in text
    assert any(line.startswith("output: truncated by the token limit ('length')") for line in lines)

"""The live view, under a pseudo-terminal: what the screen shows at the end."""

from __future__ import annotations

import re

from _cli_support import DEMO_IDS, run_in_terminal, screen
from conftest import corpus_dir


def final_screen(*args: str, rows: int = 40, columns: int = 120) -> tuple[int, list[str], float]:
    status, output, seconds = run_in_terminal(*args, rows=rows, columns=columns)
    return status, screen(output, columns), seconds


def test_the_demo_draws_the_final_calls_and_their_status() -> None:
    # No bound on its time: the machine may be loaded (no timed assertions in tests).
    status, lines, _ = final_screen()  # no arguments, on a terminal: the live demo
    assert status == 0
    text = "\n".join(lines)
    assert "Traceback" not in text
    assert len([line for line in lines if line]) <= 39  # fits the terminal, prompt line free
    assert re.match(
        r" jsondrip  ✓ done  3 tool calls · 123 events · \d+\.\d s  demo\.sse "
        r"\(anthropic, sse, speed 1\)$",
        lines[0],
    ), lines[0]
    # one panel per call, titled with its name and id, ending with its status
    for name, call_id in DEMO_IDS.items():
        assert any(f"╭─ {name}  {call_id} ─" in line for line in lines), name
    assert len(re.findall(r"✓ complete · \d+ chars ─╯", text)) == 3
    # the file's content reads as code between fences, not as one JSON-escaped line
    assert any(re.match(r'│ +"content": """ +│', line) for line in lines), text
    assert any(line.startswith("│     ESCAPES = {  ") for line in lines), text
    # the reasoning and text channels beside the calls
    assert any("╭─ reasoning ─" in line for line in lines)
    assert any("╭─ text ─" in line for line in lines)
    assert any("找到问题了：`unescape()`在处理反斜杠时会把下" in line for line in lines)  # noqa: RUF001
    # the final table: one row per call, in order, with its status
    title = lines.index("final tool calls  ·  stop reason: tool_use")
    rows = [line for line in lines[title + 1 :] if re.match(r" \d ", line)]
    assert len(rows) == 3
    for row, (name, call_id) in zip(rows, DEMO_IDS.items()):
        assert re.match(rf" \d   {name} +{call_id}   ✓ complete   \{{\"", row), row
    assert rows[1].endswith('{"path": "tests/test_escape.py", "lines": [1, 60]}')


def test_a_cut_stream_shows_the_call_as_truncated() -> None:
    path = corpus_dir("streams") / "anthropic_tool-use_max-tokens-truncated.sse"
    status, lines, _ = final_screen("preview", "--speed", "0", str(path), rows=30, columns=100)
    assert status == 0
    assert lines[0].startswith(" jsondrip  ✓ done  1 tool call · 11 events · ")
    assert any(
        "╰" in line and "✗ truncated by the token limit ('max_tokens') ─╯" in line for line in lines
    )
    title = lines.index("final tool calls  ·  stop reason: max_tokens")
    rows = [line for line in lines[title + 1 :] if line.startswith(" 0 ")]
    assert rows == [
        ' 0   make_file   ✗ truncated by the token limit (\'max_to…   {"filename": "taxes.txt",'
        ' "lines_of_te…'
    ]
    assert (
        "#0 make_file: truncated by the token limit ('max_tokens'): Unterminated string "
        "starting at: line 6" in lines
    )


def test_without_rich_the_live_view_says_how_to_install_it() -> None:
    status, output, _ = run_in_terminal("--speed", "0", without_rich=True)
    assert status == 2
    assert output.decode() == (
        'jsondrip: the live view needs rich: pip install "jsondrip[cli]" (or add --json for '
        "one JSON event per line, which does not)\r\n"
    )

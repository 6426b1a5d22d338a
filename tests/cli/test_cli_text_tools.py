"""`jsondrip preview --text-tools FAMILY`: tool calls written as text, in a provider's stream or
in a file of model text (`--framing text`), file and standard input, NDJSON output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from _cli_support import run

TEXT = (
    "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "</function>\n</tool_call>"
)


def done_calls(stdout: str) -> list[tuple[Any, ...]]:
    lines = [json.loads(line) for line in stdout.splitlines()]
    return [
        (line["name"], line["arguments"], line["complete"])
        for line in lines
        if line["event"] == "tool_call_done"
    ]


def shown_text(stdout: str) -> str:
    lines = [json.loads(line) for line in stdout.splitlines()]
    return "".join(line["text"] for line in lines if line["event"] == "text_delta")


def test_a_file_of_model_text(tmp_path: Path) -> None:
    path = tmp_path / "completion.txt"
    path.write_text(TEXT, "utf-8")
    for family in ("qwen3-coder", "auto"):
        result = run("preview", str(path), "--framing", "text", "--text-tools", family)
        assert result.status == 0, result.stderr
        assert done_calls(result.stdout) == [("get_weather", {"city": "Paris"}, True)]
        assert shown_text(result.stdout) == "Checking.\n"
    piped = run(
        "preview", "-", "--framing", "text", "--text-tools", "qwen3-coder", stdin=TEXT.encode()
    )
    assert done_calls(piped.stdout) == done_calls(result.stdout)  # (read as it arrives)
    assert shown_text(piped.stdout) == shown_text(result.stdout)


def test_model_text_without_text_tools_is_only_text(tmp_path: Path) -> None:
    path = tmp_path / "completion.txt"
    path.write_text(TEXT, "utf-8")
    result = run("preview", str(path), "--framing", "text")
    assert result.status == 0
    assert done_calls(result.stdout) == []
    assert shown_text(result.stdout) == TEXT


def test_the_text_content_of_a_provider_stream() -> None:
    chunks = [TEXT[:30], TEXT[30:61], TEXT[61:]]
    body = (
        "".join(
            "data: "
            + json.dumps({"id": "c", "choices": [{"index": 0, "delta": {"content": c}}]})
            + "\n\n"
            for c in chunks
        )
        + "data: [DONE]\n\n"
    )
    result = run("preview", "-", "--text-tools", "qwen3-coder", stdin=body.encode())
    assert result.status == 0, result.stderr
    assert done_calls(result.stdout) == [("get_weather", {"city": "Paris"}, True)]
    without = run("preview", "-", stdin=body.encode())
    assert done_calls(without.stdout) == []
    assert shown_text(without.stdout) == TEXT


def test_usage_errors() -> None:
    result = run("preview", "-", "--text-tools", "qwen9")
    assert result.status == 2
    assert "unknown text_tools family 'qwen9'" in result.stderr
    result = run("preview", "-", "--framing", "text", "--format", "anthropic", stdin=b"x")
    assert result.status == 2
    assert "--framing text is the model's own text" in result.stderr

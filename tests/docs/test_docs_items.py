"""What the docs' examples must do, beyond running (#30 items 8, 11 and 15), checked on every
page: the loops that run tools never run a provider's own, the SDK loops' names are defined on
their page, and the CLI's NDJSON sample has the keys the real output has."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from _doc_blocks import ROOT, blocks, examples, page_id, pages

import jsondrip.cli

SDK_NAMES = ("tools", "messages", "run_tool")


def _runs_tools(tree: ast.AST) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "run_tool"
        for node in ast.walk(tree)
    )


def _checks_kind_is_function(tree: ast.AST) -> bool:
    """Whether the code compares some `<x>.kind == "function"`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
            right = node.comparators[0]
            if (
                node.left.attr == "kind"
                and isinstance(node.ops[0], ast.Eq)
                and isinstance(right, ast.Constant)
                and right.value == "function"
            ):
                return True
    return False


@pytest.mark.parametrize("page", pages(), ids=page_id)
def test_item_8_every_documented_loop_that_runs_tools_checks_kind_function(page: Path) -> None:
    """#30 item 8: a loop that runs tools leaves out the calls the provider ran itself
    (`kind == "server"`); docs/schema.md's ran `bash_code_execution` on a recorded stream.
    (The docs harness also feeds every such loop a server call, and its output shows none.)"""
    for block, _ in blocks(page.read_text("utf-8")):
        where = f"{page_id(page)}, the block at line {block.line}"
        if block.language == "python":
            tree = ast.parse(block.text)
            if _runs_tools(tree):
                assert _checks_kind_is_function(tree), f"{where} runs tools without the kind check"
        elif block.language in ("js", "javascript") and "runTool(" in block.text:
            assert 'kind === "function"' in block.text, f"{where} runs tools without the kind check"


def _names(tree: ast.AST, context: type) -> set[str]:
    found = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, context)}
    if context is ast.Store:
        found |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    return found & set(SDK_NAMES)


@pytest.mark.parametrize("page", pages(), ids=page_id)
def test_item_15_sdk_loops_find_tools_messages_and_run_tool_defined_on_their_page(
    page: Path,
) -> None:
    """#30 item 15: a page whose loops use `tools`, `messages` or `run_tool` defines all three
    once, in one block that comes before any block using them (and runs: the docs harness)."""
    trees = [(e.code.line, ast.parse(e.code.text)) for e in examples(page)]
    users = [line for line, tree in trees if _names(tree, ast.Load)]
    if not users:
        return
    definers = [line for line, tree in trees if _names(tree, ast.Store)]
    assert len(definers) == 1, f"{page_id(page)}: define {SDK_NAMES} once, not at {definers}"
    (line,) = definers
    defined = dict(trees)[line]
    assert _names(defined, ast.Store) == set(SDK_NAMES), f"{page_id(page)}:{line} defines only some"
    assert line < min(users), (
        f"{page_id(page)}: they are used (line {min(users)}) before line {line}"
    )


def test_item_11_the_cli_ndjson_sample_has_the_keys_of_the_real_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """#30 item 11: docs/cli.md's `--json` sample lacked the `changes` key that real delta lines
    have. Each sample line must be JSON with the keys, in order, of a real line of its event."""
    assert jsondrip.cli.main(["--json"]) == 0  # the demo, as NDJSON, at full speed
    real: dict[str, set[tuple[str, ...]]] = {}
    for line in capsys.readouterr().out.splitlines():
        event = json.loads(line)
        real.setdefault(event["event"], set()).add(tuple(event))
    page = ROOT / "docs" / "cli.md"
    (sample,) = [b for b, _ in blocks(page.read_text("utf-8")) if b.language == "json"]
    shown = [json.loads(line) for line in sample.text.splitlines() if line.strip()]
    assert {event["event"] for event in shown} == set(real)  # every kind the demo prints
    for event in shown:
        assert tuple(event) in real[event["event"]], f"{event['event']}: keys {list(event)}"

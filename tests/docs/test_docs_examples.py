"""Every ```python block of README.md and docs/**/*.md runs, and prints what the page shows.

The blocks of a page run top to bottom in one namespace, on both backends
(`JSONDRIP_BACKEND`), from an empty temporary folder; a block followed by a ```text block must
print exactly that, and a block that prints must show what it prints. The SDK loops reach the
local fake providers (`_fake_providers.py`), which stream the calls `CALLS` gives for the page.
A package a page imports that is not installed skips the page saying how to install it (or
fails it where the `test` extra promises it, under JSONDRIP_NO_SKIP=1). The conventions:
`_doc_blocks.py`.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import sys
import types
from pathlib import Path

import pytest
from _doc_blocks import Example, examples, page_id, pages
from _fake_providers import Call, fake_providers
from conftest import need_module

#: What the fake model streams to the pages' SDK loops: a call the provider runs itself (which
#: no loop may run again: #30 item 8), then one of ours.
CALLS = [
    Call("web_search", '{"query": "weather in Paris"}', server=True),
    Call("get_weather", '{"city": "Paris", "units": "kelvin"}'),
]

PAGES = [page for page in pages() if examples(page)]


def imported_modules(example: Example) -> set[str]:
    """The top-level modules a block imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(example.code.text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def require_imports(page_examples: list[Example]) -> None:
    for name in sorted(set().union(*(imported_modules(e) for e in page_examples))):
        if importlib.util.find_spec(name) is None:
            need_module(name)


def run_example(example: Example, page: Path, namespace: dict[str, object]) -> str:
    """Run one block in the page's namespace; what it printed."""
    code = "\n" * (example.code.line - 1) + example.code.text  # tracebacks name the page's line
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(page), "exec"), namespace)
    return printed.getvalue()


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_examples_run_and_print_what_the_page_shows(
    page: Path, backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page_examples = examples(page)
    require_imports(page_examples)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    name = "docs_" + "".join(c if c.isalnum() else "_" for c in page_id(page))
    module = types.ModuleType(name)  # a real module: dataclasses and pydantic look it up
    monkeypatch.setitem(sys.modules, name, module)
    with fake_providers(CALLS) as environment:
        for key, value in environment.items():
            monkeypatch.setenv(key, value)
        for example in page_examples:
            where = f"{page_id(page)}, the block at line {example.code.line}"
            printed = run_example(example, page, module.__dict__)
            if example.output is None:
                assert printed == "", (
                    f"{where} prints, but the page does not show what: add a ```text block "
                    f"after it with\n{printed}"
                )
            else:
                assert printed == example.output, f"{where} printed something else than shown"

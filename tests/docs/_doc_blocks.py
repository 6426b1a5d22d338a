"""The fenced code blocks of README.md and docs/**/*.md, as the docs harness runs them.

The convention the docs follow (CONTRIBUTING.md, "Examples in the docs"):

- every ```python block runs, top to bottom, one namespace per page (a later block may use
  what an earlier one defined); a block that needs the network talks to the local fake
  providers that the harness points the SDKs at (`_fake_providers.py`);
- a ```text block right after a ```python block (nothing but blank lines between) is what that
  block prints, exactly;
- code that is not meant to run is not a ```python block (```sh, ```console, ```js...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,})(?P<info>[^`]*)$")


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its text and the line its first line of code is on."""

    language: str
    text: str
    line: int


@dataclass(frozen=True)
class Example:
    """A ```python block and the output the page shows for it (None: it shows none)."""

    code: Block
    output: str | None


def pages() -> list[Path]:
    """README.md and every page under docs/, in a stable order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def blocks(text: str) -> list[tuple[Block, bool]]:
    """Every fenced block, each with whether only blank lines separate it from the block
    before it."""
    found: list[tuple[Block, bool]] = []
    lines = text.splitlines()
    i = 0
    last_end = -2
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        language = opening["info"].strip().split(" ")[0].lower()
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence) and lines[j].strip().strip("`") == ""
        ):
            line = lines[j]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            j += 1
        adjacent = last_end >= 0 and all(not line.strip() for line in lines[last_end + 1 : i])
        found.append((Block(language, "\n".join(body) + "\n", i + 2), adjacent))
        last_end = j
        i = j + 1
    return found


def examples(page: Path) -> list[Example]:
    """The page's ```python blocks, each with the ```text block that follows it, if any."""
    out: list[Example] = []
    found = blocks(page.read_text("utf-8"))
    for index, (block, _adjacent) in enumerate(found):
        if block.language != "python":
            continue
        output = None
        if index + 1 < len(found):
            following, adjacent = found[index + 1]
            if adjacent and following.language == "text":
                output = following.text
        out.append(Example(block, output))
    return out

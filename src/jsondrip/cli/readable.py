"""A tool call's arguments drawn for a reader: the JSON structure, indented, with every
multi-line string shown as the text it is (real line breaks, between `\"\"\"` fences, one
step deeper than its key) and highlighted as code when its key or a sibling says the language
(`"path": "x.py"`, `"language": "sql"`, a key named `python`, a `#!` line). Single-line
strings stay JSON strings.

Only the live view uses this (NDJSON output is unchanged); it needs rich, and pygments, which
rich depends on. Control characters in a text block are shown as their Unicode pictures
(U+2400...), so that a model's output cannot move the cursor or change colours.
"""

from __future__ import annotations

import re
from typing import Any

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound
from rich.console import Group, RenderableType
from rich.highlighter import JSONHighlighter
from rich.padding import Padding
from rich.syntax import Syntax
from rich.text import Text

from .ndjson import dumps

__all__ = ["language_of", "readable_arguments", "visible_text"]

INDENT = 2
FENCE = '"""'
FENCE_STYLE = "dim green"
PATH_KEYS = ("path", "file", "file_path", "filepath", "filename", "file_name", "target_file")
"""Sibling keys whose value, a file name, says what language a text is in."""
LANGUAGE_KEYS = ("language", "lang")
"""Sibling keys whose value names the language."""
LANGUAGE_NAMES = frozenset(
    [
        "python",
        "javascript",
        "typescript",
        "js",
        "ts",
        "sql",
        "html",
        "css",
        "bash",
        "sh",
        "shell",
        "zsh",
        "json",
        "yaml",
        "toml",
        "markdown",
        "diff",
        "patch",
        "rust",
        "go",
        "java",
        "c",
        "cpp",
        "ruby",
        "php",
        "xml",
    ]
)
"""Keys that are themselves a language's name (`{"sql": "SELECT ..."}`)."""
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")

_json_highlighter = JSONHighlighter()


def visible_text(text: str) -> str:
    """`text` safe to draw: CRLF as a line break, other control characters as their pictures
    (U+2400...), lone surrogates as `\\udXXX`. Line breaks and tabs are kept."""
    text = text.replace("\r\n", "\n")

    def picture(match: re.Match[str]) -> str:
        code = ord(match.group())
        if code < 0x20:
            return chr(0x2400 + code)
        if code == 0x7F:
            return "\u2421"
        return f"\\u{code:04x}"

    return CONTROL.sub(picture, text)


def _lexer(name: str, *, filename: bool = False) -> Lexer | None:
    """A lexer by language name or file name; None for none, or for plain text (`.txt`)."""
    try:
        lexer = get_lexer_for_filename(name) if filename else get_lexer_by_name(name)
    except ClassNotFound:
        return None
    return None if "text" in lexer.aliases else lexer


def language_of(key: str | None, text: str, siblings: dict[str, Any] | None) -> Lexer | None:
    """The pygments lexer for a string at `key`, if its key, its siblings or a `#!` line say
    which language it is; None for plain text."""
    for name in LANGUAGE_KEYS:
        value = (siblings or {}).get(name)
        if type(value) is str and value and (lexer := _lexer(value.lower())) is not None:
            return lexer
    for name in PATH_KEYS:
        value = (siblings or {}).get(name)
        if type(value) is str and "." in value.rsplit("/", 1)[-1]:
            lexer = _lexer(value.rsplit("/", 1)[-1], filename=True)
            if lexer is not None:
                return lexer
    if key is not None and key.lower() in LANGUAGE_NAMES:
        return _lexer(key.lower())
    if text.startswith("#!"):
        return _interpreter(text[2:].split("\n", 1)[0])
    return None


def _interpreter(shebang: str) -> Lexer | None:
    """The lexer for a `#!` line's program (`/usr/bin/env python3` -> Python)."""
    words = shebang.split()
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program == "env" and len(words) > 1:
        program = words[1]
    return _lexer(program.rstrip("0123456789.")) if program else None


class _Writer:
    """JSON text gathered into highlighted lines, with text blocks between them."""

    def __init__(self) -> None:
        self.parts: list[RenderableType] = []
        self.text = Text(overflow="fold")
        self.run: list[str] = []

    def write(self, json_text: str) -> None:
        self.run.append(json_text)

    def _highlight_run(self) -> None:
        if self.run:
            self.text.append_text(_json_highlighter(Text("".join(self.run))))
            self.run = []

    def block(self, text: str, lexer: Lexer | None, indent: int) -> None:
        """`text` between fences, indented one step more than its key at `indent`."""
        self._highlight_run()
        self.text.append(FENCE, style=FENCE_STYLE)
        self.parts.append(self.text)
        shown = visible_text(text)
        body: RenderableType
        if lexer is None:
            body = Text(shown, overflow="fold")
        else:
            body = Syntax(
                shown, lexer, theme="ansi_dark", background_color="default", word_wrap=True
            )
        self.parts.append(Padding(body, (0, 0, 0, indent + INDENT)))
        self.text = Text(" " * indent, overflow="fold")
        self.text.append(FENCE, style=FENCE_STYLE)

    def finish(self) -> list[RenderableType]:
        self._highlight_run()
        self.parts.append(self.text)
        return self.parts


def _write(out: _Writer, value: Any, indent: int, key: str | None, siblings: Any) -> None:
    kind = type(value)
    if kind is dict and value:
        out.write("{\n")
        inner = indent + INDENT
        for number, (name, item) in enumerate(value.items()):
            out.write(" " * inner + dumps(name) + ": ")
            _write(out, item, inner, name, value)
            out.write(",\n" if number < len(value) - 1 else "\n")
        out.write(" " * indent + "}")
    elif kind is list and value:
        out.write("[\n")
        inner = indent + INDENT
        for number, item in enumerate(value):
            out.write(" " * inner)
            _write(out, item, inner, None, None)
            out.write(",\n" if number < len(value) - 1 else "\n")
        out.write(" " * indent + "]")
    elif kind is str:
        if "\n" in value:
            lexer = language_of(key, value, siblings if type(siblings) is dict else None)
            out.block(value, lexer, indent)
        else:
            out.write(dumps(value))
    else:
        out.write(dumps(value))


def readable_arguments(value: Any) -> RenderableType:
    """`value` (a tool call's arguments, possibly still growing) as a renderable."""
    out = _Writer()
    try:
        _write(out, value, 0, None, None)
    except RecursionError:  # nested deeper than the interpreter can walk
        return Text("(nested too deep to draw)", style="dim")
    return Group(*out.finish())

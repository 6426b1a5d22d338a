"""The live view's arguments: multi-line strings as text, code highlighted, JSON around them."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import need_module

need_module("rich")

from rich.console import Console  # noqa: E402

import jsondrip  # noqa: E402
from jsondrip.cli.readable import language_of, readable_arguments, visible_text  # noqa: E402

CODE = 'def f(s):\n    return "\\\\" + s\n'


def draw(value: Any, width: int = 60, color: bool = False) -> list[str]:
    console = Console(width=width, force_terminal=color, color_system="standard" if color else None)
    with console.capture() as captured:
        console.print(readable_arguments(value))
    return [line.rstrip() for line in captured.get().split("\n")][:-1]


def test_a_multi_line_string_reads_as_its_text_inside_the_json_structure() -> None:
    assert draw({"path": "a.py", "content": CODE, "n": [1, {"note": "one\ntwo"}], "s": "x"}) == [
        "{",
        '  "path": "a.py",',
        '  "content": """',
        "    def f(s):",
        '        return "\\\\" + s',  # the code's own text: one backslash escaped once, as written
        "",
        '  """,',
        '  "n": [',
        "    1,",
        "    {",
        '      "note": """',
        "        one",
        "        two",
        '      """',
        "    }",
        "  ],",
        '  "s": "x"',
        "}",
    ]


def test_single_line_strings_and_scalars_stay_json() -> None:
    assert draw({"q": 'say "hi"\t', "e": [], "o": {}, "m": None}) == [
        "{",
        '  "q": "say \\"hi\\"\\t",',
        '  "e": [],',
        '  "o": {},',
        '  "m": null',
        "}",
    ]
    assert draw("top\nlevel") == ['"""', "  top", "  level", '"""']


def test_code_is_highlighted_when_a_sibling_path_says_the_language() -> None:
    (colored,) = [
        line for line in draw({"path": "a.py", "content": CODE}, color=True) if "(s):" in line
    ]
    (plain,) = [
        line for line in draw({"path": "a.txt", "content": CODE}, color=True) if "(s):" in line
    ]
    assert colored.startswith("    \x1b[")  # `def` coloured
    assert plain == "    def f(s):"  # plain text: no colours


@pytest.mark.parametrize(
    ("key", "text", "siblings", "language"),
    [
        ("content", CODE, {"path": "src/x/escape.py"}, "Python"),
        ("content", CODE, {"file_path": "main.rs"}, "Rust"),
        ("body", "SELECT 1\n", {"language": "SQL"}, "SQL"),
        ("sql", "SELECT 1\n", None, "SQL"),
        ("script", "#!/usr/bin/env python3\nprint(1)\n", None, "Python"),
        ("script", "#!/bin/bash\necho hi\n", {}, "Bash"),
        ("content", "hello\nworld\n", {"path": "notes"}, None),
        ("content", "hello\nworld\n", {"path": "notes.txt"}, None),
        ("content", "hello\nworld\n", {"path": 3}, None),
        ("content", "hello\n", {"language": "no-such-language"}, None),
        ("text", "hello\n", None, None),
    ],
)
def test_language_of(key: str, text: str, siblings: Any, language: str | None) -> None:
    lexer = language_of(key, text, siblings)
    assert (lexer.name if lexer is not None else None) == language


def test_control_characters_cannot_reach_the_terminal() -> None:
    assert visible_text("a\r\nb\x1b[31mc\rd\x7f\ud800\te") == "a\nb␛[31mc␍d␡\\ud800\te"
    lines = draw({"content": "x\x1b[2J\ny\x07"}, color=True)
    assert "\x1b[2J" not in "\n".join(lines) and "\x07" not in "\n".join(lines)


def test_the_text_grows_in_place_as_the_preview_does(backend: str) -> None:
    """Drawn after every fragment, the block shows the text so far and nothing else."""
    parser = jsondrip.Parser(backend=backend)
    document = '{"path": "a.py", "content": "line one\\nline two\\nline th'
    shown = []
    for end in range(1, len(document) + 1):
        shown.append(draw(parser.feed(document[end - 1 : end]) if end else None))
    assert shown[-1] == [
        "{",
        '  "path": "a.py",',
        '  "content": """',
        "    line one",
        "    line two",
        "    line th",
        '  """',
        "}",
    ]
    grown = [lines for lines in shown if '  "content": """' in lines]
    for before, after in zip(grown, grown[1:]):
        body_before, body_after = before[3:-2], after[3:-2]
        # every line shown stays, but the last, which may only grow
        assert body_after[: len(body_before) - 1] == body_before[:-1]
        assert body_after[len(body_before) - 1].startswith(body_before[-1])


def test_too_deep_to_draw_is_a_message_not_a_crash() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    assert draw(deep) == ["(nested too deep to draw)"]

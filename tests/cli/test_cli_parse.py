"""`jsondrip parse`: the value printed, exit statuses 0/1/2, the caret message, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli_support import run
from _support import json_error

from jsondrip import JSONDecodeError, parse_partial
from jsondrip.cli.parse_cmd import caret_excerpt, format_error


def test_prints_the_best_effort_value_indented() -> None:
    result = run("parse", stdin=b'{"city": "Par", "days": [1, 2')
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == '{\n  "city": "Par",\n  "days": [\n    1\n  ]\n}\n'


def test_reads_standard_input_by_default_and_with_dash() -> None:
    for args in (["parse"], ["parse", "-"]):
        result = run(*args, "--compact", stdin='["日本語", 1.5, null, tr'.encode())
        assert (result.status, result.stdout, result.stderr) == (0, '["日本語", 1.5, null]\n', "")


def test_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": "\\u00e9\\ud83d')  # BOM; a surrogate pair cut in two
    result = run("parse", "--compact", str(path))
    assert (result.status, result.stdout, result.stderr) == (0, '{"a": "é"}\n', "")


def test_mode_jiter_shows_numbers_as_their_digits_arrive() -> None:
    assert run("parse", "--compact", stdin=b"[1, 2").stdout == "[1]\n"
    assert run("parse", "--compact", "--mode", "jiter", stdin=b"[1, 2").stdout == "[1, 2]\n"
    assert run("parse", "--compact", "--mode", "jiter", stdin=b"[1, 2.").stdout == "[1]\n"


def test_final_accepts_a_complete_document_with_its_exact_value() -> None:
    result = run("parse", "--final", "--compact", stdin=b'{"n": 12345678901234567890, "f": 1.0}')
    assert (result.status, result.stdout) == (0, '{"n": 12345678901234567890, "f": 1.0}\n')
    # a top-level number is complete at the end of the input only with --final
    assert run("parse", "--final", stdin=b"12").stdout == "12\n"


def test_final_rejects_an_incomplete_document() -> None:
    result = run("parse", "--final", stdin=b'{\n  "path": "src/main.py",\n  "body": "def f(')
    assert (result.status, result.stdout) == (1, "")
    assert result.stderr == (
        "jsondrip: <stdin>: incomplete JSON: truncated at line 3, column 18 (character 44), "
        "before the document is complete (Unterminated string starting at character 37)\n"
        '    3 |   "body": "def f(\n'
        "      | " + " " * 17 + "^\n"
    )


def said(text: str, truncated: bool = False) -> str:
    """How the CLI words json's error for `text`: its message, then " at " (or " " after a
    message ending in "at"); for a truncated text, where json points if before the end
    ("Unterminated array starting at", PyPy's)."""
    msg, pos = json_error(text)[:2]  # type: ignore[index]
    joint = " " if msg.endswith(" at") else " at "
    if truncated:
        return msg if pos >= len(text) else f"{msg}{joint}character {pos}"
    return msg + joint


def test_final_points_at_the_end_of_a_truncated_text_not_at_the_next_line() -> None:
    """`echo '{"a": [1, 2' | jsondrip parse --final`: the caret after the 2, on line 1."""
    for data in (b'{"a": [1, 2\n', b'{"a": [1, 2', b'{"a": [1, 2\r\n\n  '):
        result = run("parse", "--final", stdin=data)
        assert (result.status, result.stdout) == (1, "")
        assert result.stderr == (
            "jsondrip: <stdin>: incomplete JSON: truncated at line 1, column 12 (character 11), "
            f"before the document is complete ({said(data.decode().strip(), truncated=True)})\n"
            '    1 | {"a": [1, 2\n'
            "      |            ^\n"
        ), data


def test_nan_and_infinity_are_refused_unless_allowed() -> None:
    """Standard JSON by default: jq and strict readers reject NaN."""
    result = run("parse", stdin=b'{"a": NaN}')
    assert (result.status, result.stdout) == (1, "")
    assert result.stderr == (
        "jsondrip: <stdin>: the value at '/a' is NaN or Infinity, which standard JSON cannot "
        "hold (jq and strict readers reject it): pass --allow-nan to print it as NaN, "
        "Infinity or -Infinity\n"
    )
    nested = run("parse", "--final", stdin=b'[1, {"x/y": [2, -Infinity]}]')
    assert nested.status == 1 and "the value at '/1/x~1y/1' is" in nested.stderr
    allowed = run(
        "parse", "--compact", "--allow-nan", stdin=b'{"a": NaN, "b": [Infinity, -Infinity]}'
    )
    assert (allowed.status, allowed.stdout) == (0, '{"a": NaN, "b": [Infinity, -Infinity]}\n')
    assert run("parse", "--final", stdin=b"1e400").status == 1  # inf from a finite spelling


def test_invalid_json_exits_1_with_a_caret_under_the_offending_character() -> None:
    text = '{\n  "a": 1,\n  "b": 2 "c": 3\n}'
    result = run("parse", stdin=text.encode())
    assert (result.status, result.stdout) == (1, "")
    assert result.stderr == (
        f"jsondrip: <stdin>: invalid JSON: {said(text)}line 3, column 10 (character 21)\n"
        '    3 |   "b": 2 "c": 3\n'
        "      |          ^\n"
    )


def test_the_caret_counts_wide_characters_as_two_columns(tmp_path: Path) -> None:
    path = tmp_path / "wide.json"
    text = '["中文", x]'
    path.write_text(text, encoding="utf-8")
    result = run("parse", str(path))
    assert result.status == 1
    assert result.stderr == (
        f"jsondrip: {path}: invalid JSON: {said(text)}line 1, column 8 (character 7)\n"
        '    1 | ["中文", x]\n'
        "      | " + " " * 9 + "^\n"
    )


def test_a_long_line_is_cut_around_the_caret() -> None:
    text = '{"k": "' + "a" * 200 + '", "z": tru x}'
    with pytest.raises(JSONDecodeError) as caught:
        parse_partial(text)
    error = caught.value
    assert error.pos == json_error(text)[1]  # type: ignore[index]
    later = error.pos - (7 + 200 + 8)  # PyPy points at the literal's second letter
    assert later in (0, 1)
    assert caret_excerpt(text, error.pos, error.lineno) == (
        "    1 | …" + "a" * (15 - later) + '", "z": tru x}\n      | ' + " " * 24 + "^\n"
    )


TAB_PICTURE = "\u2409"


def test_control_characters_are_shown_as_control_pictures() -> None:
    text = '["tab\there", "bell\x07"]'
    with pytest.raises(JSONDecodeError) as caught:
        parse_partial(text)
    msg, pos = json_error(text)[:2]  # type: ignore[index]
    assert caught.value.msg == msg == "Invalid control character at"
    assert format_error(text, caught.value, "x.json", incomplete=False) == (
        f"jsondrip: x.json: invalid JSON: Invalid control character at line 1, column {pos + 1} "
        f"(character {pos})\n"
        # the tab shown as a tab where it is the offending character (PyPy points before it)
        f'    1 | ["tab{TAB_PICTURE if pos == 5 else " "}here", "bell\u2407"]\n'
        "      | " + " " * pos + "^\n"
    )


def test_no_value_yet_exits_1_with_a_message() -> None:
    for data in (b"", b"  \n", b"\xef\xbb\xbf "):
        result = run("parse", stdin=data)
        assert (result.status, result.stdout) == (1, "")
        assert result.stderr == (
            "jsondrip: <stdin>: no value yet: the input ends before a value has begun or is "
            "complete\n"
        )


def test_item12_the_end_of_input_completes_a_top_level_number() -> None:
    """#30 item 12: `printf 12 | jsondrip parse` prints 12: the input has ended, so 12 is a
    complete document (a stream could still grow it; a file or a pipe that ended cannot)."""
    for data, shown in ((b"12", "12"), (b" -0.5e1 ", "-5.0"), (b"true", "true"), (b"[1, 2", "[1]")):
        result = run("parse", "--compact", stdin=data)
        assert (result.status, result.stdout, result.stderr) == (0, shown + "\n", "")
    assert run("parse", "--compact", "--mode", "jiter", stdin=b"12").stdout == "12\n"
    assert run("parse", "--final", stdin=b"12").stdout == "12\n"


def test_item12_a_number_too_large_for_a_float_says_it_overflowed() -> None:
    """#30 item 12: `1e400` is not NaN or Infinity as written: say that it overflowed."""
    for data, where in ((b"1e400", "''"), (b'{"a": [1, -1e999]}', "'/a/1'")):
        result = run("parse", stdin=data)
        assert (result.status, result.stdout) == (1, "")
        assert result.stderr == (
            f"jsondrip: <stdin>: the value at {where} is a number too large for a float: it "
            "overflowed to infinity, which standard JSON cannot hold (jq and strict readers "
            "reject it): pass --allow-nan to print it as NaN, Infinity or -Infinity\n"
        )
    spelled = run("parse", stdin=b'{"note": "1e400", "a": Infinity}')
    assert "the value at '/a' is NaN or Infinity" in spelled.stderr
    allowed = run("parse", "--allow-nan", stdin=b"1e400")
    assert (allowed.status, allowed.stdout) == (0, "Infinity\n")


def test_usage_errors_exit_2() -> None:
    missing = run("parse", "/nonexistent/file.json")
    assert (missing.status, missing.stdout) == (2, "")
    assert missing.stderr == (
        "jsondrip: cannot read /nonexistent/file.json: No such file or directory\n"
    )
    bad_option = run("parse", "--mode", "fast", stdin=b"{}")
    assert bad_option.status == 2
    assert "invalid choice: 'fast'" in bad_option.stderr
    assert run("parse", "a.json", "b.json").status == 2


def test_no_traceback_unless_debug() -> None:
    quiet = run("parse", stdin=b"[1, x]")
    assert quiet.status == 1
    assert "Traceback" not in quiet.stderr
    msg = json_error("[1, x]")[0]  # type: ignore[index]
    assert quiet.stderr.startswith(f"jsondrip: <stdin>: invalid JSON: {msg}")
    for args in (["--debug", "parse"], ["parse", "--debug"]):
        loud = run(*args, stdin=b"[1, x]")
        assert loud.status == 1
        assert loud.stderr.startswith("Traceback (most recent call last):\n")
        assert f"jsondrip._errors.JSONDecodeError: {msg}" in loud.stderr
        assert loud.stderr.endswith("    1 | [1, x]\n      |     ^\n")


def test_works_without_rich() -> None:
    result = run("parse", "--compact", stdin=b'{"a": [true, "b', without_rich=True)
    assert (result.status, result.stdout, result.stderr) == (0, '{"a": [true, "b"]}\n', "")


def test_a_lone_surrogate_is_written_as_an_escape() -> None:
    result = run("parse", "--compact", stdin=b'["\\ud800", "\\ud83d\\ude00"]')
    assert (result.status, result.stdout) == (0, '["\\ud800", "😀"]\n')

"""The command line's plumbing, in process: the default subcommand, registering a new one,
and how unexpected errors are reported."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

import jsondrip
from jsondrip import __version__
from jsondrip.cli import main
from jsondrip.cli.args import COMMANDS, Command, parse_args, register


def test_no_subcommand_means_the_demo() -> None:
    assert parse_args([]).command == "demo"
    args = parse_args(["--speed", "2"])
    assert (args.command, args.speed, args.debug) == ("demo", 2.0, False)
    assert parse_args(["--debug"]).debug is True
    assert parse_args(["--debug", "parse", "x.json"]).debug is True
    assert parse_args(["parse", "x.json"]).debug is False
    assert parse_args(["preview", "demo"]).file == "demo"


def test_version_and_help_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    line = capsys.readouterr().out
    native = "native" in jsondrip.available_backends()
    summary = "native backend (Rust)" if native else "python backend only ("
    assert line.startswith(f"jsondrip {__version__}: {summary}"), line
    assert line.count("\n") == 1
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("demo", "preview", "parse"):
        assert f"    {name} " in out
    assert main(["parse", "--help"]) == 0
    assert "--final" in capsys.readouterr().out


def _configure_boom(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--why", default="no reason")


def run_boom(args: argparse.Namespace) -> int:
    raise RuntimeError(f"boom: {args.why}")


@pytest.fixture
def boom() -> object:
    register(Command("boom", "fail", "Always fails.", _configure_boom, f"{__name__}:run_boom"))
    yield
    del COMMANDS["boom"]


@pytest.mark.usefixtures("boom")
def test_a_registered_subcommand_runs_and_its_errors_are_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["boom", "--why", "test"]) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        "jsondrip: error: RuntimeError: boom: test (run with --debug for the traceback)\n"
    )
    assert main(["boom", "--debug"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert err.endswith("RuntimeError: boom: no reason\n")


class _Terminal:
    """A stderr that is a terminal, keeping what is written."""

    def __init__(self, tty: bool = True) -> None:
        self.text = ""
        self.tty = tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    "summary",
    [
        "python backend only (pure-Python build)",
        "python backend only (native extension failed to import)",
    ],
)
def test_item13_a_command_on_a_pure_build_says_so_once_on_a_terminal(
    summary: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """#30 item 13: `pip install -q` hides the one line a pure build prints; a jsondrip command
    run on a terminal says it, once, with how to get the native backend. Into a pipe (a
    program reading stderr) it says nothing."""
    import jsondrip.cli as cli

    monkeypatch.setattr(cli, "available_backends", lambda: ["python"])
    monkeypatch.setattr(cli, "backend_summary", lambda: summary)
    monkeypatch.setattr(cli, "native_possible", lambda: True)  # CPython: it could be had
    monkeypatch.setattr(cli, "_noted", False)
    document = tmp_path / "doc.json"
    document.write_text("[1, 2]")
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["parse", "--compact", str(document)]) == 0
    assert main(["parse", "--compact", str(document)]) == 0
    assert terminal.text == (
        f"jsondrip: note: {summary}: the native backend (Rust) is faster; a wheel for this "
        "platform has it, or on CPython install Rust (https://rustup.rs) and reinstall jsondrip "
        "(pip install --force-reinstall --no-cache-dir jsondrip)\n"
    )
    assert capsys.readouterr().out == "[1, 2]\n[1, 2]\n"
    pipe = _Terminal(tty=False)
    monkeypatch.setattr("sys.stderr", pipe)
    monkeypatch.setattr(cli, "_noted", False)
    assert main(["parse", str(document)]) == 0
    assert pipe.text == ""
    monkeypatch.setattr(cli, "native_possible", lambda: False)  # PyPy: the pure build is it
    assert cli.pure_build_note() is None
    monkeypatch.setattr(cli, "native_possible", lambda: True)
    monkeypatch.setattr(cli, "available_backends", lambda: ["native", "python"])
    assert cli.pure_build_note() is None


def test_item13_import_stays_silent_without_the_native_backend() -> None:
    """#30 item 13: a bare `import jsondrip` (and its use) prints nothing, native or not."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['jsondrip._native'] = None; import jsondrip; "
        "assert jsondrip.available_backends()[0] == 'python'; jsondrip.loads('[1]'); "
        "jsondrip.Parser().feed('[1')"
    )
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")

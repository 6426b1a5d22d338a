"""The command line's plumbing, in process: the default subcommand, registering a new one,
and how unexpected errors are reported."""

from __future__ import annotations

import argparse

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

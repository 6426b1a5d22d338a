"""Helpers for the command-line tests: run `python -m jsondrip` in a subprocess, with a pipe or
under a pseudo-terminal, and read back what a terminal would show."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO_IDS = {
    "write_file": "toolu_01yRDuATZnZtrerHi067GjWL",
    "read_file": "toolu_01LA7UwJ95GNykfFjM1HJE8Q",
    "search_docs": "toolu_01jIwJ9krV4wmkHbkNiokyjI",
}
# Runs the CLI with rich made unimportable, as on a machine without the `cli` extra.
WITHOUT_RICH = (
    "import sys; sys.modules['rich'] = None; from jsondrip.cli import main; "
    "raise SystemExit(main(sys.argv[1:]))"
)


@dataclass
class Result:
    """What a finished command left behind."""

    status: int
    stdout: str
    stderr: str


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(extra)
    return env


def run(*args: str, stdin: bytes = b"", without_rich: bool = False, cwd: Path | None = None):
    """Run `python -m jsondrip ARGS` with pipes (so standard output is not a terminal)."""
    head = ["-c", WITHOUT_RICH] if without_rich else ["-m", "jsondrip"]
    done = subprocess.run(
        [sys.executable, *head, *args],
        input=stdin,
        capture_output=True,
        env=_env(),
        cwd=cwd,
        timeout=60,
    )
    return Result(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


def run_in_terminal(
    *args: str, rows: int = 40, columns: int = 120, without_rich: bool = False, timeout=300.0
) -> tuple[int, bytes, float]:
    """Run `python -m jsondrip ARGS` on a pseudo-terminal of `rows` x `columns`; returns the exit
    status, every byte written to the terminal, and the seconds it took. `timeout` only
    guards against a hang: the pure build on a loaded PyPy took over 30 s for the demo."""
    head = ["-c", WITHOUT_RICH] if without_rich else ["-m", "jsondrip"]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, *head, *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=_env(TERM="xterm-256color", COLUMNS=str(columns), LINES=str(rows)),
        start_new_session=True,
    )
    os.close(slave)
    output = bytearray()
    try:
        while True:
            left = started + timeout - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"still running after {timeout} s")
            ready, _, _ = select.select([master], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            output += data
        status = child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
        os.close(master)
    return status, bytes(output), time.monotonic() - started


_CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07]*\x07|\x1b[()][A-Za-z0-9]|\x1b[=>]")


def screen(output: bytes, columns: int = 120) -> list[str]:
    """The text a terminal shows after `output`: a small emulator of what rich writes (cursor
    moves, erasing, wide characters); colours are dropped. Rows past the bottom are kept."""
    rows: list[list[str]] = [[]]
    row = col = 0
    text = output.decode("utf-8", errors="replace")
    i = 0

    def line() -> list[str]:
        while len(rows) <= row:
            rows.append([])
        return rows[row]

    while i < len(text):
        match = _CSI.match(text, i)
        if match:
            i = match.end()
            params, final = match.group(1), match.group(2)
            if final is None:
                continue
            n = int(params) if params and params.isdigit() else 1
            if final == "A":
                row = max(0, row - n)
            elif final == "B":
                row += n
            elif final == "C":
                col += n
            elif final == "D":
                col = max(0, col - n)
            elif final == "G":
                col = n - 1
            elif final == "K":
                cells = line()
                if params in ("", "0"):
                    del cells[col:]
                elif params == "2":
                    cells.clear()
            continue
        char = text[i]
        i += 1
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
        elif char == "\x08":
            col = max(0, col - 1)
        elif char >= " ":
            cells = line()
            while len(cells) < col:
                cells.append(" ")
            width = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
            cells[col : col + width] = [char] + [""] * (width - 1)
            col += width
    return ["".join(cells).rstrip() for cells in rows]

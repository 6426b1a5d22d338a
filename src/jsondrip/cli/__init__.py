"""The `jsondrip` command (also `python -m jsondrip`): the demo, `preview` and `parse`.

`main(argv)` returns the exit status: 0 success, 1 an error in the input (invalid JSON, a stream
that cannot be read), 2 a usage error (bad options, a missing file, rich not installed for the
live view), 130 interrupted. Errors are one readable message on stderr; `--debug` adds the
traceback. Only the live view needs rich (`pip install "jsondrip[cli]"`).

On a CPython install without the native backend (the pure-Python build, or an extension that
failed to import), a command run on a terminal says so once, on stderr, with how to get it:
`pip install -q` hides the one line the build printed. Where no native backend exists (PyPy,
free-threaded 3.13t) the pure build is the design and nothing is said. `jsondrip --version`
names the backend always; `import jsondrip` never prints anything.
"""

from __future__ import annotations

import sys
import sysconfig
import traceback
from collections.abc import Sequence

from .._engine import available_backends, backend_summary
from .args import COMMANDS, parse_args, resolve
from .errors import CLIError, UsageError, report

__all__ = ["CLIError", "UsageError", "main", "pure_build_note"]

HOW_TO_NATIVE = (
    "the native backend (Rust) is faster; a wheel for this platform has it, or on CPython "
    "install Rust (https://rustup.rs) and reinstall jsondrip (pip install --force-reinstall "
    "--no-cache-dir jsondrip)"
)
_noted = False  # the note is said once per process


def native_possible() -> bool:
    """Whether the native backend exists for this interpreter: CPython with the GIL, or
    free-threaded from 3.14 (the interpreters the build backend builds it for)."""
    if sys.implementation.name != "cpython":
        return False
    return not (sysconfig.get_config_var("Py_GIL_DISABLED") and sys.version_info < (3, 14))


def pure_build_note() -> str | None:
    """The line saying that the native backend is missing and how to get it, or None when
    this install has it or this interpreter cannot have it."""
    if "native" in available_backends() or not native_possible():
        return None
    return f"note: {backend_summary()}: {HOW_TO_NATIVE}"


def _say_pure_build() -> None:
    """Say `pure_build_note()` once, where a person reads it (stderr is a terminal); never
    into a pipe or a log that a program reads."""
    global _noted
    if _noted:
        return
    _noted = True
    isatty = getattr(sys.stderr, "isatty", None)
    note = pure_build_note()
    if note is not None and isatty is not None and isatty():
        report(note)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: `sys.argv[1:]`) and return the exit status."""
    try:
        args = parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as stop:  # argparse: --help, --version, usage errors
        return stop.code if isinstance(stop.code, int) else 2
    debug = bool(getattr(args, "debug", False))
    _say_pure_build()
    try:
        return resolve(COMMANDS[args.command])(args)
    except CLIError as error:
        if debug:
            traceback.print_exc()
        report(str(error))
        return error.status
    except KeyboardInterrupt:
        if debug:
            traceback.print_exc()
        report("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (`jsondrip preview x.sse | head`): not an error worth a message.
        _silence_stdout()
        return 1
    except Exception as error:
        if debug:
            traceback.print_exc()
            return 1
        report(f"error: {type(error).__name__}: {error} (run with --debug for the traceback)")
        return 1


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass

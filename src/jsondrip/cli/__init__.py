"""The `jsondrip` command (also `python -m jsondrip`): the demo, `preview` and `parse`.

`main(argv)` returns the exit status: 0 success, 1 an error in the input (invalid JSON, a stream
that cannot be read), 2 a usage error (bad options, a missing file, rich not installed for the
live view), 130 interrupted. Errors are one readable message on stderr; `--debug` adds the
traceback. Only the live view needs rich (`pip install "jsondrip[cli]"`).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

from .args import COMMANDS, parse_args, resolve
from .errors import CLIError, UsageError, report

__all__ = ["CLIError", "UsageError", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: `sys.argv[1:]`) and return the exit status."""
    try:
        args = parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as stop:  # argparse: --help, --version, usage errors
        return stop.code if isinstance(stop.code, int) else 2
    debug = bool(getattr(args, "debug", False))
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

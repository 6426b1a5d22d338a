"""The errors the command line reports as one message and an exit status, never a traceback."""

from __future__ import annotations

import sys

__all__ = ["CLIError", "UsageError", "report", "write_text"]


class CLIError(Exception):
    """An error with a message meant for the user; `status` is the exit status (1)."""

    status = 1


class UsageError(CLIError):
    """The command was used wrongly (a missing file, rich not installed): exit status 2."""

    status = 2


def write_text(stream: object, text: str) -> None:
    """Write `text` to a text stream as UTF-8 whatever the locale, and flush it."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()  # type: ignore[attr-defined]
        buffer.write(text.encode("utf-8", "backslashreplace"))
        buffer.flush()
    else:
        stream.write(text)  # type: ignore[attr-defined]
        stream.flush()  # type: ignore[attr-defined]


def report(message: str) -> None:
    """Print `jsondrip: message` on stderr."""
    write_text(sys.stderr, f"jsondrip: {message}\n")

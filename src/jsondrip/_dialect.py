"""Which json dialect the running interpreter speaks, read from its own `json` at import.

json's messages differ between versions; jsondrip reports what the running interpreter's
`json.loads` reports, so it asks it once, on two tiny documents, rather than trusting a
version number (a patch release may carry a fix):

| json of | `[1,]` | `"\\u0041` (a whole escape, then the end) |
|---|---|---|
| CPython 3.9 to 3.12 | Expecting value, at `]` | Invalid \\uXXXX escape |
| CPython 3.13, 3.14 | Illegal trailing comma before end of array, at `,` | as 3.12 |
| CPython with gh-152052 | (as its version) | Unterminated string starting at |

The answer goes to the engine of either backend as `dialect=(trailing_comma,
escape_at_end_unterminated)` (rust/core/error.rs `Dialect`, twin/errors.py `Dialect`).

PyPy's `json.loads` (without hooks) is another decoder altogether, `_pypyjson`: `x` is
"Unexpected 'x'" where CPython says "Expecting value", and its positions count UTF-8 bytes.
`PYPY_DECODER` says so; the twin (PyPy's only backend) then speaks it (`Dialect.pypy`).
"""

from __future__ import annotations

import json
import sys


def _message(text: str) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return e.msg
    return ""


def detect() -> tuple[bool, bool]:
    """(trailing_comma, escape_at_end_unterminated) of the running interpreter's json."""
    trailing_comma = _message("[1,]").startswith("Illegal trailing comma")
    escape_at_end_unterminated = _message('"\\u0041').startswith("Unterminated string")
    return trailing_comma, escape_at_end_unterminated


DIALECT = detect()
"""The running interpreter's json dialect."""

PYPY_DECODER = _message("x") == "Unexpected 'x'"
"""The running interpreter's json.loads is PyPy's decoder (_pypyjson), not CPython's."""


def digit_limit() -> int:
    """The interpreter's limit on the digits of an int json reads (`sys.get_int_max_str_digits`),
    read at each use (a program may change it); 0: no limit (before Python 3.11)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return get() if get is not None else 0

"""The typed view: for any path, is its value missing, still arriving, or final and valid.

`Progress` is what `Parser.progress(path)` returns; the engines compute it (the native one in
rust/python/schema.rs, the twin's in twin/schema/checked.py) from the helpers here."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from .._missing import MISSING

MISSING_STATE, ARRIVING, FINAL = "missing", "arriving", "final"


class Progress(NamedTuple):
    """Where the value at a path stands.

    `state`: `"missing"` (not begun), `"arriving"` (begun, not complete) or `"final"`
    (complete, and valid: a value that broke the schema would have raised). `value`: the live
    value there (`MISSING` if none is shown yet). `candidates`: for a string still arriving
    under an `enum`/`const`, the members it can still become, else None.
    """

    state: str
    value: Any
    candidates: list[str] | None


def lookup(root: Any, tokens: tuple[str, ...]) -> Any:
    """The value at `tokens` in the live value, or MISSING."""
    value = root
    for token in tokens:
        if isinstance(value, dict):
            value = value.get(token, MISSING)
        elif isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                return MISSING
            value = value[int(token)]
        else:
            return MISSING
        if value is MISSING:
            return MISSING
    return value


make_progress = functools.partial(tuple.__new__, Progress)
"""`make_progress((state, value, candidates))`: a `Progress` without NamedTuple.__new__'s
Python frame (the engines make one per poll)."""

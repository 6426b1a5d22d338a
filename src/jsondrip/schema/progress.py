"""The typed view: for any path, is its value missing, still arriving, or final and valid."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from .._missing import MISSING
from ..twin.schema.checker import Checker

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


def split_pointer(path: str) -> list[str]:
    """An RFC 6901 JSON Pointer's tokens (`""` is the root)."""
    if path == "":
        return []
    if not path.startswith("/"):
        raise ValueError(f"a JSON Pointer starts with '/' (or is '' for the root): {path!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


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


# Progress((state, value, candidates)) without NamedTuple.__new__'s Python frame.
_progress = functools.partial(tuple.__new__, Progress)
_SPLIT: dict[str, tuple[str, ...]] = {}  # the paths a reader polls, split once


def progress(checker: Checker, root: Any, path: str) -> Progress:
    """The `Progress` of the value at `path`, given the live value `root`."""
    try:
        tokens = _SPLIT.get(path)
    except TypeError:  # unhashable: not a str, refused below
        tokens = None
    if tokens is None:
        if not isinstance(path, str):
            if path is not None:
                raise TypeError(
                    "progress() takes a str path (a JSON Pointer such as '/records/0'), "
                    f"not {type(path).__name__}"
                )
            path = ""  # None is the root, as on the native backend
        tokens = tuple(split_pointer(path))
        if len(_SPLIT) < 4096:
            _SPLIT[path] = tokens
    value = lookup(root, tokens)
    if checker.frames:
        arriving = checker.arriving
        if arriving is None:
            arriving = checker.open_tokens()
        if arriving[: len(tokens)] == tokens:
            innermost = len(arriving) == len(tokens)
            return _progress((ARRIVING, value, checker.candidates() if innermost else None))
    if value is MISSING:
        return _progress((MISSING_STATE, MISSING, None))
    return _progress((FINAL, value, None))

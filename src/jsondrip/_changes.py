"""Change events: what a fragment changed, as JSON Pointer paths, and how to apply them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from ._missing import MISSING


class Change(NamedTuple):
    """One change a fragment made to the value.

    `path` is an RFC 6901 JSON Pointer (`""` is the root). `op` is:

    - `"add"`: a new property or array element (or the root) with its initial value; a new
      container is announced empty (`{}` or `[]`) and its contents follow as their own adds;
    - `"append"`: text appended to the string at `path` (`value` is only the new text);
    - `"replace"`: the value at `path` set anew (a repeated key; in jiter mode, a number whose
      digits grew);
    - `"remove"`: jiter mode only, a number taken back while it is not a number (`1.`).

    Stable mode needs only add, append and replace.
    """

    op: str
    path: str
    value: Any


def escape_token(token: str) -> str:
    """A key as a JSON Pointer reference token (`~` -> `~0`, `/` -> `~1`)."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def _tokens(path: str) -> list[str]:
    if not path:
        return []
    if path[0] != "/":
        raise ValueError(f"a JSON Pointer starts with '/': {path!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def _fresh(value: Any) -> Any:
    """A container from a change is copied, so applying changes twice shares nothing."""
    if type(value) is dict or type(value) is list:
        return type(value)(value)
    return value


def apply_changes(doc: Any, changes: Iterable[Change]) -> Any:
    """Apply `changes` to `doc` (start from `jsondrip.MISSING`) and return the new document.

    Containers are updated in place; the root may be replaced, so use the returned value.
    Applying every feed's changes in order rebuilds the value after each feed.
    """
    for op, path, value in changes:
        tokens = _tokens(path)
        if not tokens:
            if op == "append":
                doc = doc + value
            elif op == "remove":
                doc = MISSING
            else:
                doc = _fresh(value)
            continue
        parent = doc
        for token in tokens[:-1]:
            parent = parent[token] if type(parent) is dict else parent[int(token)]
        last = tokens[-1]
        if type(parent) is dict:
            if op == "append":
                parent[last] += value
            elif op == "remove":
                del parent[last]
            else:
                parent[last] = _fresh(value)
        else:
            index = len(parent) if last == "-" else int(last)
            if op == "add":
                parent.insert(index, _fresh(value))
            elif op == "append":
                parent[index] += value
            elif op == "remove":
                del parent[index]
            else:
                parent[index] = _fresh(value)
    return doc

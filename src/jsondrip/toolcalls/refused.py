"""The changes of a fragment the parser refused, so that a call's deltas still rebuild its
preview after an error (#30 item 4).

A parser that refuses a fragment (invalid JSON, a schema violation) raises, and the changes
the fragment made before the point of refusal go with the exception: yet the preview moved
(`{"a": "xy` then `z" 5}` shows `"xyz"` before the `5` is refused). The call ends there, so
this runs once per call at most, and may cost what the whole preview costs: the text before
the fragment is read again by a fresh parser (through a fence stripper if the call has one),
and the refused fragment's changes are the difference between that value and the preview.

The difference is written as the parser writes its own changes (containers announced empty,
their contents as their own `add`s, a grown string as an `append`), so it is never live.
"""

from __future__ import annotations

from typing import Any, Callable

from .._changes import Change, escape_token
from .._engine import Engine
from .._missing import MISSING
from ..markup.fences import FenceStripper

__all__ = ["changes_between", "refused_changes"]


def refused_changes(
    parser_factory: Callable[[], Engine], before: str, fenced: bool, preview: Any
) -> tuple[Change, ...]:
    """The changes that take the value of the argument text `before` (read as the call read
    it: through a fence stripper if `fenced`) to `preview`, the value the parser left."""
    parser = parser_factory()
    if fenced:
        FenceStripper(parser.feed, lambda: parser.done).feed(before, 0)
    else:
        parser.feed(before)
    return tuple(changes_between(parser.value, preview))


def changes_between(old: Any, new: Any) -> list[Change]:
    """The changes that turn `old` into `new` (a value that grew from `old`, as a stable
    preview grows), in document order. Applied with `apply_changes` to a value equal to
    `old`, they give a value equal to `new`; they share no container with `new`.

    What only grew is an `add` (a new member or element, a new root) or an `append` (a
    longer string); anything else found changed (a repeated key's new value, a member gone)
    is a `replace` of the nearest container or value that holds the change. Iterative: a
    value nested as deep as `max_depth` allows never reaches the recursion limit.
    """
    out: list[Change] = []
    if new is MISSING:
        return out
    if old is MISSING:
        _add(out, "add", "", new)
        return out
    pending: list[tuple[str, Any, Any]] = [("", old, new)]
    while pending:
        path, before, after = pending.pop()
        kind = type(after)
        if before is MISSING:
            _add(out, "add", path, after)
        elif type(before) is not kind:
            _add(out, "replace", path, after)
        elif kind is dict:
            if any(key not in after for key in before):
                _add(out, "replace", path, after)
                continue
            nested = [
                (f"{path}/{escape_token(key)}", before.get(key, MISSING), item)
                for key, item in after.items()
            ]
            pending.extend(reversed(nested))
        elif kind is list:
            if len(before) > len(after):
                _add(out, "replace", path, after)
                continue
            nested = [
                (f"{path}/{i}", before[i], item) for i, item in enumerate(after[: len(before)])
            ]
            nested += [(f"{path}/{i}", MISSING, after[i]) for i in range(len(before), len(after))]
            pending.extend(reversed(nested))
        elif kind is str:
            if after != before:
                if after.startswith(before):
                    out.append(Change("append", path, after[len(before) :]))
                else:
                    out.append(Change("replace", path, after))
        elif not (before is after or before == after):
            out.append(Change("replace", path, after))
    return out


def _add(out: list[Change], op: str, path: str, value: Any) -> None:
    """`op` (add or replace) of `value` at `path`: a container announced empty, then each of
    its members added, as the parser writes a new container."""
    pending: list[tuple[str, str, Any]] = [(op, path, value)]
    while pending:
        op, path, value = pending.pop()
        kind = type(value)
        if kind is dict:
            out.append(Change(op, path, {}))
            pending.extend(
                ("add", f"{path}/{escape_token(key)}", item)
                for key, item in reversed(list(value.items()))
            )
        elif kind is list:
            out.append(Change(op, path, []))
            pending.extend(("add", f"{path}/{i}", value[i]) for i in reversed(range(len(value))))
        else:
            out.append(Change(op, path, value))

"""Change events: what a fragment changed, as JSON Pointer paths, and how to apply them."""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Mapping

from ._missing import MISSING

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, NamedTuple, Union

    class _ChangeFields(NamedTuple):
        op: str
        path: str
        value: Any

else:  # the same named tuple, made without `typing`
    _ChangeFields = namedtuple("Change", ("op", "path", "value"))


class Change(_ChangeFields):
    """One change a fragment made to the value: a named tuple `(op, path, value)`.

    `path` is an RFC 6901 JSON Pointer (`""` is the root). `op` is:

    - `"add"`: a new property or array element (or the root) with its initial value; a new
      container is announced empty (`{}` or `[]`) and its contents follow as their own adds;
    - `"append"`: text appended to the string at `path` (`value` is only the new text);
    - `"replace"`: the value at `path` set anew (a repeated key; in jiter mode, a number whose
      digits grew);
    - `"remove"`: jiter mode only, a number taken back while it is not a number (`1.`).

    Stable mode needs only add, append and replace.
    """

    __slots__ = ()


def escape_token(token: str) -> str:
    """A key as a JSON Pointer reference token (`~` -> `~0`, `/` -> `~1`). The package's one
    writer of tokens (twin of rust/core/escape.rs's `push_pointer_token`)."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def unescape_token(token: str) -> str:
    """The key a JSON Pointer reference token names (`~1` -> `/`, then `~0` -> `~`)."""
    if "~" in token:
        return token.replace("~1", "/").replace("~0", "~")
    return token


def split_pointer(path: str) -> list[str]:
    """A JSON Pointer's keys, unescaped (`""`, the root, has none); ValueError if it is not
    one. The package's one reader of pointers."""
    if not path:
        return []
    if path[0] != "/":
        raise ValueError(f"a JSON Pointer starts with '/': {path!r}")
    return [unescape_token(t) for t in path[1:].split("/")]


OPS = ("add", "append", "replace", "remove")
_INDEX = re.compile(r"0|[1-9][0-9]*")


def _fresh(value: Any) -> Any:
    """A container from a change is copied, so applying changes twice shares nothing."""
    if type(value) is dict or type(value) is list:
        return type(value)(value)
    return value


def _missing_path(op: str, path: str, why: str) -> ValueError:
    return ValueError(f"cannot {op} {path!r}: {why}")


def _index(op: str, path: str, token: str, size: int, *, end_ok: bool) -> int:
    """An array index token as an int: decimal without leading zeros, below `size` (or equal
    to it, and `-`, where `end_ok`: the place after the last element)."""
    if token == "-" and end_ok:
        return size
    if _INDEX.fullmatch(token) is None:
        raise _missing_path(op, path, f"{token!r} is not an array index")
    index = int(token)
    if index > size or (index == size and not end_ok):
        raise _missing_path(op, path, f"index {index} is past the end (length {size})")
    return index


def _parent(doc: Any, op: str, path: str, tokens: list[str]) -> Any:
    """The container holding the last token's member; every step before must exist."""
    parent = doc
    for depth, token in enumerate(tokens[:-1]):
        if type(parent) is dict:
            if token not in parent:
                where = "/" + "/".join(escape_token(t) for t in tokens[: depth + 1])
                raise _missing_path(op, path, f"{where!r} does not exist")
            parent = parent[token]
        elif type(parent) is list:
            parent = parent[_index(op, path, token, len(parent), end_ok=False)]
        else:
            raise _missing_path(op, path, _no_members(parent))
    if type(parent) is not dict and type(parent) is not list:
        raise _missing_path(op, path, _no_members(parent))
    return parent


def _no_members(value: Any) -> str:
    if value is MISSING:
        return "the document has not begun"
    return f"{type(value).__name__} has no members"


def _append(target: Any, text: Any, op: str, path: str) -> str:
    if type(target) is not str or type(text) is not str:
        found = f"{type(target).__name__} there, {type(text).__name__} value"
        raise _missing_path(op, path, f"append takes a str onto a str, not ({found})")
    return target + text


def _unpack(change: Any) -> tuple[Any, Any, Any]:
    """(op, path, value) of a change: a `Change` or any 3-item sequence, or a mapping with
    the keys `op`, `path` and `value` (`value` may be left out for `remove`)."""
    kind = type(change)
    if kind is Change or kind is tuple or kind is list or not isinstance(change, Mapping):
        op, path, value = change
        return op, path, value
    for key in ("op", "path"):
        if key not in change:
            keys = ", ".join(repr(k) for k in change) or "none"
            raise ValueError(f"a change object lacks {key!r} (its keys: {keys})")
    op = change["op"]
    if "value" in change:
        return op, change["path"], change["value"]
    if op == "remove":
        return op, change["path"], None
    raise ValueError(f"a change object lacks 'value' (op {op!r} at {change['path']!r})")


if TYPE_CHECKING:
    ChangeLike = Union[Change, Sequence[Any], Mapping[str, Any]]
    """What `apply_changes` takes as one change."""


def apply_changes(doc: Any, changes: Iterable[ChangeLike]) -> Any:
    """Apply `changes` to `doc` (start from `jsondrip.MISSING`) and return the new document.

    Containers are updated in place; the root may be replaced, so use the returned value.
    Applying every `feed_changes` list of a stream in order rebuilds the value after each feed;
    adding `close_changes()` gives the final value.

    A change is a `Change(op, path, value)` (or any `[op, path, value]` sequence, as JSON
    carries it) or a mapping `{"op": ..., "path": ..., "value": ...}`, the JSON Patch shape
    (`value` may be left out for `remove`; a mapping without `op` or `path` is a
    `ValueError`). The browser module's `applyChanges` takes the same two shapes.

    Strict, so that a wrong change is an error where it happens, never a silently different
    document (the browser helper's JavaScript port follows the same rules):

    - `op` must be one of `add`, `append`, `replace`, `remove`; anything else is a
      `ValueError` naming it.
    - `path` is a JSON Pointer: `""` (the root) or `/`-separated tokens, `~1` for `/` and `~0`
      for `~`. Every token but the last must name an existing member: a present key of an
      object, or an index of an array (decimal, no leading zeros, below its length).
    - `add`: at the root, sets the document. In an object, sets the key (new or not). In an
      array, inserts at the index, which may equal the length; `-` appends.
    - `append`, `replace`, `remove`: the member at `path` must exist (the root: the document
      must have begun, not be `MISSING`). `append` concatenates a str to the str there;
      `replace` sets it; `remove` deletes it (the root becomes `MISSING`).
    - A path that does not exist, a token that is not an index of an array, or a member
      asked of a number, string, literal or `MISSING` is a `ValueError` that names the op and
      path. The changes before the failing one stay applied.
    """
    for change in changes:
        op, path, value = _unpack(change)
        if op not in OPS:
            raise ValueError(
                f"unknown change op {op!r} (at {path!r}): expected add, append, replace or remove"
            )
        tokens = split_pointer(path)
        if not tokens:
            if op != "add" and doc is MISSING:
                raise _missing_path(op, path, "the document has not begun")
            if op == "append":
                doc = _append(doc, value, op, path)
            elif op == "remove":
                doc = MISSING
            else:
                doc = _fresh(value)
            continue
        parent = _parent(doc, op, path, tokens)
        last = tokens[-1]
        if type(parent) is dict:
            if op != "add" and last not in parent:
                raise _missing_path(op, path, "no such key")
            if op == "append":
                parent[last] = _append(parent[last], value, op, path)
            elif op == "remove":
                del parent[last]
            else:
                parent[last] = _fresh(value)
        else:
            index = _index(op, path, last, len(parent), end_ok=op == "add")
            if op == "add":
                parent.insert(index, _fresh(value))
            elif op == "append":
                parent[index] = _append(parent[index], value, op, path)
            elif op == "remove":
                del parent[index]
            else:
                parent[index] = _fresh(value)
    return doc

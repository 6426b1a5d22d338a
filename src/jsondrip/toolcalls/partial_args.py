"""Vertex AI's streamed function-call arguments (`partialArgs`) written as JSON text.

Vertex sends a call's arguments as pieces addressed by path, not as JSON text:
`{"jsonPath": "$.recipe.steps[4]", "stringValue": "In a 9x13", "willContinue": true}`, then
more `stringValue` pieces at the same path until one whose `willContinue` is not true, or
`numberValue` / `boolValue` / `nullValue` leaves. `PartialArgsWriter` turns each piece into
the JSON text it adds, so the call goes through the same parser as every JSON-text provider:
the preview and its change events are the same, and `raw` is the arguments serialised as
`json.dumps(arguments, ensure_ascii=False)` writes them (`", "` and `": "` separators).

Pieces must arrive in document order, as Vertex sends them: a path may go deeper, continue the
open string, add the next key or the next array element (`[n]` where n elements exist), or
close containers and do one of those higher up. A path that would reopen a closed container,
repeat a key or skip an array index cannot be written as text without retracting; it raises
`ValueError` naming both paths (the call then ends with an `invalid JSON` error).
"""

from __future__ import annotations

import json
import re
from typing import Any, Union

__all__ = ["PartialArgsWriter", "parse_json_path"]

Key = Union[str, int]
_STEP = re.compile(r"""\.([^.\[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]""")
_LEAVES = (
    ("stringValue", "string_value"),
    ("numberValue", "number_value"),
    ("boolValue", "bool_value"),
    ("nullValue", "null_value"),
)


_PLAIN = re.compile(r"\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+")  # no quoting: the common path
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')
_parsed: dict[str, tuple[Key, ...]] = {}  # plain parent paths already read (a row's fields)


def _string(text: str) -> str:
    """`json.dumps(text, ensure_ascii=False)` without its quotes, quick when nothing needs
    escaping (json escapes only quotes, backslashes and control characters then)."""
    if _NEEDS_ESCAPE.search(text) is None:
        return text
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _fast_path(path: Any) -> tuple[Key, ...] | None:
    """A plain path (`$.a.b[0]`) read through the cache of its parent, else None."""
    if type(path) is not str or _PLAIN.fullmatch(path) is None:
        return None
    cut = max(path.rfind("."), path.rfind("["))
    parent = path[:cut]
    keys = _parsed.get(parent)
    if keys is None:
        keys = tuple(parse_json_path(parent)) if cut > 1 else ()
        if len(_parsed) >= 4096:
            _parsed.clear()
        _parsed[parent] = keys
    last = path[cut:]
    return (*keys, int(last[1:-1]) if last[0] == "[" else last[1:])


def parse_json_path(path: str) -> list[Key]:
    """`$.a.b[0]['c d']` -> `["a", "b", 0, "c d"]`; ValueError if it is not such a path."""
    if not isinstance(path, str) or path[:1] != "$":
        raise ValueError(f"jsonPath {path!r} does not start with '$'")
    keys: list[Key] = []
    at = 1
    while at < len(path):
        match = _STEP.match(path, at)
        if match is None:
            raise ValueError(f"jsonPath {path!r}: cannot read it at character {at}")
        name, index, single, double = match.groups()
        if index is not None:
            keys.append(int(index))
        else:
            quoted = single if single is not None else double
            keys.append(name if quoted is None else re.sub(r"\\(.)", r"\1", quoted))
        at = match.end()
    if not keys:
        raise ValueError(f"jsonPath {path!r} names the arguments themselves, not a member")
    return keys


def _get(entry: dict[str, Any], camel: str, snake: str) -> Any:
    value = entry.get(camel)
    return entry.get(snake) if value is None else value


class _Container:
    __slots__ = ("count", "is_array", "keys")

    def __init__(self, is_array: bool) -> None:
        self.is_array = is_array
        self.count = 0  # members written
        self.keys: set[str] = set()


class PartialArgsWriter:
    """The JSON text of one call's arguments, from its `partialArgs` entries in order."""

    __slots__ = ("_containers", "_open", "_string", "ended")

    def __init__(self) -> None:
        self._open: list[Key] = []  # the path of the innermost open container
        self._containers: list[_Container] = []  # root first
        self._string: list[Key] | None = None  # the path of a string still continuing
        self.ended = False

    @property
    def started(self) -> bool:
        """Some text was written."""
        return bool(self._containers)

    def feed(self, entries: list[Any]) -> str:
        """The text the entries add; ValueError for a piece out of document order."""
        out: list[str] = []
        for entry in entries:
            if type(entry) is dict:
                self._entry(entry, out)
        return "".join(out)

    def whole(self, args: dict[str, Any]) -> str:
        """The text of members sent whole (`args` beside `willContinue`)."""
        out: list[str] = []
        for key, value in args.items():
            self._leaf([str(key)], json.dumps(value, ensure_ascii=False), out)
        return "".join(out)

    def end(self) -> str:
        """The call ended: the text that closes whatever is open (`{}` if nothing came)."""
        self.ended = True
        out: list[str] = []
        if self._string is not None:
            out.append('"')
            self._string = None
        if not self._containers:
            out.append("{")
            self._containers.append(_Container(False))
        for container in reversed(self._containers):
            out.append("]" if container.is_array else "}")
        self._containers.clear()
        self._open.clear()
        return "".join(out)

    def _entry(self, entry: dict[str, Any], out: list[str]) -> None:
        raw_path = _get(entry, "jsonPath", "json_path")
        found = _fast_path(raw_path)
        path = list(found) if found is not None else parse_json_path(raw_path)
        more = _get(entry, "willContinue", "will_continue") is True
        if "stringValue" in entry:  # the common piece
            kind, value = "stringValue", entry["stringValue"]
        else:
            for camel, snake in _LEAVES:
                if camel in entry or snake in entry:
                    kind, value = camel, _get(entry, camel, snake)
                    break
            else:
                return  # a piece with no value: nothing to write
        if kind == "stringValue":
            text = "" if value is None else str(value)
            piece = _string(text)
            if self._string == path:
                out.append(piece)
            else:
                self._leaf(path, '"' + piece, out)
                self._string = path
            if not more:
                out.append('"')
                self._string = None
            return
        if kind == "numberValue":
            if type(value) is int:
                literal = int.__repr__(value)
            elif type(value) is float:
                literal = json.dumps(value)
            else:
                raise ValueError(f"numberValue {value!r} at {_show(path)} is not a number")
        elif kind == "boolValue":
            literal = "true" if value else "false"
        else:
            literal = "null"
        self._leaf(path, literal, out)

    def _leaf(self, path: list[Key], literal: str, out: list[str]) -> None:
        """Write `literal` at `path`: close and open containers on the way, as text."""
        if self._string is not None:
            out.append('"')
            self._string = None
        if not self._containers:
            if not isinstance(path[0], str):
                raise ValueError(f"{_show(path)}: the arguments are an object, not an array")
            out.append("{")
            self._containers.append(_Container(False))
        parents = path[:-1]
        if parents == self._open:  # the next member of the open container: the common case
            container = self._containers[-1]
            self._member(container, path[-1], path, out)
            out.append(literal)
            return
        shared = 0
        limit = min(len(parents), len(self._open))
        while shared < limit and parents[shared] == self._open[shared]:
            shared += 1
        for _ in range(len(self._open) - shared):  # leave what this path is not inside
            container = self._containers.pop()
            self._open.pop()
            out.append("]" if container.is_array else "}")
        for depth in range(shared, len(path)):
            key = path[depth]
            container = self._containers[-1]
            self._member(container, key, path, out)
            if depth == len(path) - 1:
                out.append(literal)
            else:
                child = _Container(isinstance(path[depth + 1], int))
                out.append("[" if child.is_array else "{")
                self._containers.append(child)
                self._open.append(key)

    def _member(self, container: _Container, key: Key, path: list[Key], out: list[str]) -> None:
        """The separator and key before a new member of `container`; ValueError if `key`
        cannot be that new member."""
        if container.is_array:
            if key != container.count:
                raise ValueError(
                    f"{_show(path)}: element {key} cannot follow {container.count} "
                    "element(s) already written"
                )
            if container.count:
                out.append(", ")
        else:
            if not isinstance(key, str):
                raise ValueError(f"{_show(path)}: an index where an object is open")
            if key in container.keys:
                raise ValueError(f"{_show(path)}: the key {key!r} was already written")
            container.keys.add(key)
            out.append(f'{", " if container.count else ""}"{_string(key)}": ')
        container.count += 1


def _show(path: list[Key]) -> str:
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)

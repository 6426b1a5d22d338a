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

This is the python backend's writer, and the twin of the native one (`rust/envelope/
partial_args.rs`, `jsondrip._native.PartialArgs`), which writes the same text and raises the
same errors for the pieces it takes, and leaves the others to this one: `state()` and
`from_state()` hand a call's writer from one to the other (`vertex_args.py`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Optional, Union

__all__ = ["PartialArgsWriter", "parse_json_path"]

Key = Union[str, int]
#: `state()`: the open containers root first, each `(is_array, members written, keys)`; the
#: path of the innermost open one; the path of a string still continuing; `ended`.
State = tuple[
    tuple[tuple[bool, int, frozenset[str]], ...], tuple[Key, ...], Optional[tuple[Key, ...]], bool
]
_STEP = re.compile(r"""\.([^.\[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]""")
_LEAVES = (
    ("stringValue", "string_value"),
    ("numberValue", "number_value"),
    ("boolValue", "bool_value"),
    ("nullValue", "null_value"),
)


_PLAIN = re.compile(r"\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+")  # no quoting: the common path
_PLAIN_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')


def _string(text: str) -> str:
    """`json.dumps(text, ensure_ascii=False)` without its quotes, quick when nothing needs
    escaping (json escapes only quotes, backslashes and control characters then)."""
    if _NEEDS_ESCAPE.search(text) is None:
        return text
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _fast_path(path: Any) -> list[Key] | None:
    """A plain path (`$.a.b[0]`) read in one regex pass (as `parse_json_path` reads it),
    else None."""
    if type(path) is not str or _PLAIN.fullmatch(path) is None:
        return None
    return [name or int(index) for name, index in _PLAIN_STEP.findall(path)]


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

    __slots__ = ("_containers", "_open", "_open_raw", "_string", "_string_raw", "ended")

    def __init__(self) -> None:
        self._open: list[Key] = []  # the path of the innermost open container
        self._containers: list[_Container] = []  # root first
        self._string: list[Key] | None = None  # the path of a string still continuing
        # The same two as the jsonPath text that named them, so that the common piece (the
        # next leaf of the open container, or more of the open string) is recognised by
        # comparing text, without reading the path: `_open_raw` is set only from a plain
        # path (`$.a[0]`: no quoting); either is None when unknown (after `from_state`).
        self._open_raw: str | None = None
        self._string_raw: str | None = None
        self.ended = False

    def state(self) -> State:
        """The writer's state, as the native writer's `state()` gives it."""
        containers = tuple((c.is_array, c.count, frozenset(c.keys)) for c in self._containers)
        string = None if self._string is None else tuple(self._string)
        return containers, tuple(self._open), string, self.ended

    @classmethod
    def from_state(cls, state: State) -> PartialArgsWriter:
        """A writer in the state `state` (this one's or the native writer's): it writes on as
        that writer would."""
        containers, open_path, string, ended = state
        writer = cls()
        for is_array, count, keys in containers:
            container = _Container(is_array)
            container.count = count
            container.keys = set(keys)
            writer._containers.append(container)
        writer._open = list(open_path)
        writer._string = None if string is None else list(string)
        writer.ended = ended
        return writer  # the raw-path caches stay unknown: the long way fills them

    @property
    def started(self) -> bool:
        """Some text was written."""
        return bool(self._containers)

    def feed(self, entries: list[Any]) -> str:
        """The text the entries add; ValueError for a piece out of document order."""
        if len(entries) == 1:  # Vertex sends one piece per chunk: try the quick way first
            text = self._next(entries[0])
            if text is not None:
                return text
        out: list[str] = []
        for entry in entries:
            if type(entry) is dict:
                self._entry(entry, out)
        return "".join(out)

    def feed_chunk(self, matcher: Any, chunk: bytes) -> str | None:
        """The text a whole SSE chunk's pieces add if `matcher` (the shortcut's `ChunkMatcher`,
        value mode) frames it around a `partialArgs` array; None: the long way decides."""
        pieces = matcher.pieces(chunk)
        return None if pieces is None else self.feed(pieces)

    def whole(self, args: dict[str, Any]) -> str:
        """The text of members sent whole (`args` beside `willContinue`)."""
        out: list[str] = []
        for key, value in args.items():
            self._leaf([str(key)], json.dumps(value, ensure_ascii=False), out, None)
        return "".join(out)

    def end(self) -> str:
        """The call ended: the text that closes whatever is open (`{}` if nothing came)."""
        self.ended = True
        out: list[str] = []
        if self._string is not None:
            out.append('"')
            self._string = self._string_raw = None
        if not self._containers:
            out.append("{")
            self._containers.append(_Container(False))
        for container in reversed(self._containers):
            out.append("]" if container.is_array else "}")
        self._containers.clear()
        self._open.clear()
        self._open_raw = None
        return "".join(out)

    def _entry(self, entry: dict[str, Any], out: list[str]) -> None:
        raw_path = entry.get("jsonPath")
        if raw_path is None:
            raw_path = entry.get("json_path")
        more = _get(entry, "willContinue", "will_continue") is True
        if "stringValue" in entry:  # the common piece
            kind, value = "stringValue", entry["stringValue"]
        else:
            for camel, snake in _LEAVES:
                if camel in entry or snake in entry:
                    kind, value = camel, _get(entry, camel, snake)
                    break
            else:
                self._path(raw_path)  # a bad path is an error all the same
                return  # a piece with no value: nothing to write
        if kind == "stringValue":
            piece = _string("" if value is None else str(value))
            if self._string_raw is not None and raw_path == self._string_raw:
                out.append(piece)  # more of the open string, named by the same text
            else:
                path = self._path(raw_path)
                if self._string == path:
                    out.append(piece)
                else:
                    self._leaf(path, '"' + piece, out, raw_path)
                    self._string = path
                    self._string_raw = raw_path if type(raw_path) is str else None
            if not more:
                out.append('"')
                self._string = self._string_raw = None
            return
        if kind == "numberValue":
            if type(value) is int:
                literal = int.__repr__(value)
            elif type(value) is float:  # json.dumps's own spelling, without its machinery
                literal = float.__repr__(value) if math.isfinite(value) else json.dumps(value)
            else:
                raise ValueError(
                    f"numberValue {value!r} at {_show(self._path(raw_path))} is not a number"
                )
        elif kind == "boolValue":
            literal = "true" if value else "false"
        else:
            literal = "null"
        self._leaf(self._path(raw_path), literal, out, raw_path)

    def _next(self, entry: Any) -> str | None:
        """The text of the common piece, written as `_entry` would write it: more of the open
        string, or a `stringValue` / `numberValue` leaf that is the next member of the open
        container, named by its plain path; None (nothing changed) for anything else."""
        if type(entry) is not dict:
            return None
        raw = entry.get("jsonPath")
        if "stringValue" in entry:
            value = entry["stringValue"]
            if type(value) is not str:
                return None
            more = entry.get("willContinue") is True
            if len(entry) != 2 + ("willContinue" in entry):
                return None  # snake_case twins, or other keys: the long way decides
            piece = value if _NEEDS_ESCAPE.search(value) is None else _string(value)
            if self._string_raw is not None and raw == self._string_raw:
                if more:
                    return piece
                self._string = self._string_raw = None
                return piece + '"'
            literal = '"' + piece if more else '"' + piece + '"'
        elif "numberValue" in entry and len(entry) == 2:
            value = entry["numberValue"]
            if type(value) is int:
                literal = int.__repr__(value)
            elif type(value) is float and math.isfinite(value):
                literal = float.__repr__(value)
            else:
                return None
            more = False
        else:
            return None
        key = self._next_key(raw)
        if key is None:
            return None
        container = self._containers[-1]
        if container.is_array:
            if key != container.count:
                return None  # the long way raises the error
            head = ", " if container.count else ""
        else:
            if type(key) is not str or key in container.keys:
                return None
            container.keys.add(key)
            head = f'{", " if container.count else ""}"{key}": '  # a plain key needs no escape
        container.count += 1
        if self._string is not None:
            head = '"' + head
        if more:
            self._string = [*self._open, key]
            self._string_raw = raw
        else:
            self._string = self._string_raw = None
        return head + literal

    def _path(self, raw_path: Any) -> list[Key]:
        """The keys of a jsonPath: the next member of the open container by its text (the
        common case), else through the parent cache, else read in full."""
        key = self._next_key(raw_path)
        if key is not None:
            return [*self._open, key]
        found = _fast_path(raw_path)
        return found if found is not None else parse_json_path(raw_path)

    def _next_key(self, raw_path: Any) -> Key | None:
        """The key of `raw_path` if it is the open container's plain path and one plain step
        more (`.name` or `[n]`), as `parse_json_path` reads it; else None."""
        parent = self._open_raw
        if parent is None or type(raw_path) is not str or not raw_path.startswith(parent):
            return None
        cut = len(parent)
        step = raw_path[cut:]
        if step[:1] == ".":
            name = step[1:]
            return name if name.isascii() and name.isidentifier() else None
        if step[:1] == "[" and step[-1:] == "]":
            digits = step[1:-1]
            return int(digits) if digits.isascii() and digits.isdigit() else None
        return None

    def _leaf(self, path: list[Key], literal: str, out: list[str], raw_path: Any) -> None:
        """Write `literal` at `path` (named by the jsonPath text `raw_path`, or None): close
        and open containers on the way, as text."""
        if self._string is not None:
            out.append('"')
            self._string = self._string_raw = None
        if not self._containers:
            if not isinstance(path[0], str):
                raise ValueError(f"{_show(path)}: the arguments are an object, not an array")
            out.append("{")
            self._containers.append(_Container(False))
            self._open_raw = "$"
        parents = path[:-1]
        if parents == self._open:  # the next member of the open container: the common case
            container = self._containers[-1]
            self._member(container, path[-1], path, out)
            out.append(literal)
            return
        # the open container changes: its text is this path's parent, if the path is plain
        self._open_raw = None
        open_raw = None
        if type(raw_path) is str and _PLAIN.fullmatch(raw_path) is not None:
            open_raw = raw_path[: max(raw_path.rfind("."), raw_path.rfind("["))]
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
        self._open_raw = open_raw  # the open container is now this path's parent

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

"""`watch=`: the values that became complete during a feed, by JSON Pointer pattern.

A pattern is a JSON Pointer whose steps may be `*` (any key, any index): `"/steps/*"` is
each element of the array at `/steps`, `"/*"` each element (or member) of the top-level
value, `""` the whole document. After each feed, `Watcher.collect` lists the watched values
that became complete during it, as `(path, value)` pairs in the order they completed (a
value's watched parts before the value itself), each once, with the exact final value.

How it knows what is complete, in work proportional to what changed: the live value is
built in document order, so the only values still arriving are the last child of the last
child ... of the root, down `open_depth` steps (the engine's `open_depth`). Every other
value shown is complete. The walk goes down that last path only, and at each container
starts from the first child it had not finished with (`_cursors`), so a feed costs the
depth plus the children that completed in it, never the document's size.

A key written twice in one object (`{"a": 1, "b": 2, "a": [...`) keeps its first place in
the dict (as `json.loads` does) while its new value arrives last: the walk has finished with
that place, so the second value is not reported (the first was, if it was watched); nothing
is ever reported before it is complete.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Callable

from ._changes import escape_token, unescape_token
from ._missing import MISSING

__all__ = ["Watcher", "compile_patterns"]

STAR = "*"


def compile_patterns(patterns: Any) -> tuple[tuple[str, ...], ...]:
    """The patterns as tuples of unescaped steps (a str is one pattern). Raises ValueError
    for a pattern that is not a JSON Pointer."""
    if isinstance(patterns, str):
        patterns = (patterns,)
    compiled: list[tuple[str, ...]] = []
    for pattern in patterns:
        if not isinstance(pattern, str):
            raise TypeError(f"a watch pattern is a str (a JSON Pointer), not {pattern!r}")
        if pattern == "":
            compiled.append(())
            continue
        if not pattern.startswith("/"):
            raise ValueError(f"a watch pattern is a JSON Pointer ('' or '/...'): {pattern!r}")
        steps = [unescape_token(s) for s in pattern[1:].split("/")]
        compiled.append(tuple(steps))
    return tuple(compiled)


class _Node:
    """The patterns still matching a path: which end here, and where each goes next."""

    __slots__ = ("deeper", "ends", "rest", "steps")

    def __init__(self, rest: frozenset[tuple[str, ...]]) -> None:
        self.rest = rest  # the patterns' remaining steps
        self.ends = () in rest  # a pattern ends here: this value is watched
        self.deeper = any(rest)  # a pattern goes further down
        self.steps: dict[Any, _Node | None] = {}  # memo: a child's key -> its node

    def child(self, key: Any) -> _Node | None:
        """The node of the child at `key` (a dict key, or a list index), None if no pattern
        goes there."""
        steps = self.steps
        node = steps.get(key, MISSING)
        if node is not MISSING:
            return node  # type: ignore[return-value]
        token = key if type(key) is str else str(key)
        rest = frozenset(r[1:] for r in self.rest if r and (r[0] == STAR or r[0] == token))
        made = _Node(rest) if rest else None
        if len(steps) < 4096:  # keys of a `*` step are many: memoize the common ones only
            steps[key] = made
        return made


class Watcher:
    """The values completed since the last `collect`, for a set of patterns.

    `typed(tokens, value)`, when given, turns a completed raw value into what is reported
    (a pydantic model's item, validated); `tokens` are the path's steps.
    """

    __slots__ = ("_cursors", "_new_cursors", "_out", "_reported_root", "_root", "typed")

    def __init__(self, patterns: Any, typed: Callable[[tuple[Any, ...], Any], Any] | None = None):
        self._root = _Node(frozenset(compile_patterns(patterns)))
        self.typed = typed
        # per open container of the last path: (children finished with, whether the next one
        # was arriving and walked into)
        self._cursors: list[tuple[int, bool]] = []
        self._new_cursors: list[tuple[int, bool]] = []
        self._out: list[tuple[str, Any]] = []
        self._reported_root = False

    def collect(self, root: Any, open_depth: int) -> list[tuple[str, Any]]:
        """The watched values completed since the last call, given the live value `root`
        and how many values along its last path are still arriving."""
        if root is MISSING or self._reported_root:
            return []
        out = self._out = []
        node = self._root
        self._new_cursors = []
        if node.deeper and type(root) in (dict, list):
            self._walk(root, node, "", (), 0, open_depth, bool(not self._cursors))
        self._cursors = self._new_cursors
        if open_depth == 0:
            self._reported_root = True
            if node.ends:
                self._report("", (), root)
        return out

    def _report(self, path: str, tokens: tuple[Any, ...], value: Any) -> None:
        typed = self.typed
        self._out.append((path, value if typed is None else typed(tokens, value)))

    def _walk(
        self,
        value: Any,
        node: _Node,
        path: str,
        tokens: tuple[Any, ...],
        level: int,
        remaining: int,
        fresh: bool,
    ) -> None:
        """Report what completed under the container `value` at `level` (`remaining`: how
        many values from it down its last path are arriving; `fresh`: never walked before)."""
        size = len(value)
        start, partial = (0, False) if fresh else self._cursors[level]
        if remaining > 0:  # open: mark how far it is finished before going down
            cursors = self._new_cursors
            del cursors[level:]
            cursors.append((size - 1, True) if remaining > 1 else (size, False))
        if start >= size:
            return
        if type(value) is list:
            keys: Any = range(start, size)
            children: Any = islice(value, start, None)
        else:  # the last (size - start) members, read from the end: no walk over the others
            items = list(islice(reversed(value.items()), size - start))
            items.reverse()
            keys = [k for k, _ in items]
            children = [v for _, v in items]
        last = size - 1
        index = start
        for key, child in zip(keys, children):
            child_node = node.child(key)
            if child_node is not None:
                child_remaining = remaining - 1 if index == last and remaining > 0 else 0
                child_path = f"{path}/{escape_token(key) if type(key) is str else key}"
                child_tokens = (*tokens, key)
                if child_node.deeper and type(child) in (dict, list):
                    child_fresh = fresh or index > start or not partial
                    self._walk(
                        child,
                        child_node,
                        child_path,
                        child_tokens,
                        level + 1,
                        child_remaining,
                        child_fresh,
                    )
                if child_remaining == 0 and child_node.ends:
                    self._report(child_path, child_tokens, child)
            index += 1

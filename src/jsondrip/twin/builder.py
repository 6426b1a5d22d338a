"""Builds the live Python value from the machine's events: the twin of rust/python/builder.rs.

Containers are created once and updated in place, so an event costs work in proportion to
what it adds, never to the size of the document. One slot is "open" at a time: the string
value still being read (replaced by a longer string at each flush), or, in jiter mode, a
number shown before it is complete (the tentative slot, which can be taken back).

When `changes` is a list, every event also records a `Change` with its JSON Pointer path. A
growing string then records only its new text and its slot is not refreshed (that would copy
the whole string at every flush): it is `stale` until `refresh_string` or its end.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from .._changes import Change, escape_token
from .._missing import MISSING

# Change((op, path, value)) without NamedTuple.__new__'s Python frame (it does the same).
_change = functools.partial(tuple.__new__, Change)

_ABSENT = object()


class Builder:
    """The value under construction and the stack of containers still open."""

    __slots__ = (
        "changes",
        "containers",
        "key",
        "open_path",
        "root",
        "segments",
        "shown_len",
        "stale",
        "string_shown",
        "tentative_prev",
        "tentative_shown",
    )

    def __init__(self) -> None:
        self.root: Any = MISSING
        self.containers: list[Any] = []
        # Where each open container sits (a key, an index, None for the root): its pointer is
        # joined only when a change is recorded, so memory stays linear in the depth.
        self.segments: list[str | int | None] = []
        self.key: str | None = None
        self.string_shown = False
        self.shown_len = 0  # characters of the open string shown (or recorded) so far
        self.stale = False  # the open string's slot lags behind its recorded changes
        self.open_path: str | None = None  # the open string's path, once made
        self.tentative_shown = False
        self.tentative_prev: Any = _ABSENT
        self.changes: list[Change] | None = None

    def _slot(self, appending: bool) -> str:
        """The JSON Pointer of the open slot (a new element when `appending`)."""
        containers = self.containers
        if not containers:
            return ""
        tokens = [
            escape_token(seg) if type(seg) is str else str(seg)
            for seg in self.segments
            if seg is not None
        ]
        top = containers[-1]
        if type(top) is dict:
            tokens.append(escape_token(self.key))  # type: ignore[arg-type]
        else:
            tokens.append(str(len(top) if appending else len(top) - 1))
        return "/" + "/".join(tokens)

    def _record_new(self, value: Any) -> None:
        """Record a value taking a new slot: `add`, or `replace` for a repeated key."""
        containers = self.containers
        path = self._slot(True)
        op = "add"
        if containers and type(containers[-1]) is dict and self.key in containers[-1]:
            op = "replace"
        self.changes.append(_change((op, path, value)))  # type: ignore[union-attr]

    def _insert(self, value: Any) -> None:
        containers = self.containers
        if not containers:
            self.root = value
            return
        top = containers[-1]
        if type(top) is dict:
            top[self.key] = value
        else:
            top.append(value)

    def _replace(self, value: Any) -> None:
        containers = self.containers
        if not containers:
            self.root = value
            return
        top = containers[-1]
        if type(top) is dict:
            top[self.key] = value
        else:
            top[-1] = value

    def begin_container(self, container: Any) -> None:
        """A `{` or `[`: the new container takes its place in its parent and becomes the top."""
        if self.changes is not None:
            self._record_new(type(container)())
        containers = self.containers  # kept in plain feeds too: modes may mix
        if not containers:
            self.segments.append(None)
        elif type(containers[-1]) is dict:
            self.segments.append(self.key)
        else:
            self.segments.append(len(containers[-1]))
        self._insert(container)
        self.containers.append(container)

    def end_container(self) -> None:
        """A `}` or `]`."""
        self.containers.pop()
        self.segments.pop()

    def set_key(self, key: str) -> None:
        """A complete key; its property appears when its value does."""
        self.key = key

    def string(self, text: str, complete: bool) -> None:
        """The string value so far (complete or not): shown new, or replacing the shorter one."""
        changes = self.changes
        if changes is not None:
            if self.string_shown:
                if len(text) > self.shown_len:
                    path = self.open_path
                    if path is None:
                        path = self.open_path = self._slot(False)
                    changes.append(_change(("append", path, text[self.shown_len :])))
                if not complete:  # the slot waits for refresh_string (no copy per flush)
                    self.shown_len = len(text)
                    self.stale = True
                    return
            else:
                self._record_new(text)
        self.shown_len = len(text)
        self.stale = False
        self.open_path = None
        if self.string_shown and self.containers:
            top = self.containers[-1]
            if type(top) is dict:
                top[self.key] = text
            else:
                top[-1] = text
        elif self.string_shown:
            self.root = text
        else:
            self._insert(text)
        self.string_shown = not complete

    def grow_string(self, delta: str) -> None:
        """Change mode: the open string, already shown, grows by `delta` (recorded as an
        "append"); its slot waits for `refresh_string`. The native builder's `string` does
        this itself, slicing the machine's buffer; the twin's machine hands over the delta."""
        if delta:
            path = self.open_path
            if path is None:
                path = self.open_path = self._slot(False)
            self.changes.append(_change(("append", path, delta)))  # type: ignore[union-attr]
        self.shown_len += len(delta)
        self.stale = True

    def refresh_string(self, text: str) -> None:
        """Bring the open string's slot up to date (change mode defers it until read)."""
        if self.stale:
            self.stale = False
            self._replace(text)

    def atom(self, value: Any) -> None:
        """A complete number or literal (taking over the tentative slot if there is one)."""
        if self.tentative_shown:
            self.tentative_shown = False
            self.tentative_prev = _ABSENT
            if self.changes is not None:
                self.changes.append(_change(("replace", self._slot(False), value)))
            self._replace(value)
        else:
            if self.changes is not None:
                self._record_new(value)
            self._insert(value)

    def show_tentative(self, value: Any) -> None:
        """jiter mode: show a number still arriving, ready to be taken back."""
        if self.tentative_shown:
            if self.changes is not None:
                self.changes.append(_change(("replace", self._slot(False), value)))
            self._replace(value)
            return
        containers = self.containers
        if containers and type(containers[-1]) is dict:
            self.tentative_prev = containers[-1].get(self.key, _ABSENT)
        if self.changes is not None:
            self._record_new(value)
        self.tentative_shown = True
        self._insert(value)

    def hide_tentative(self) -> None:
        """jiter mode: take back the number shown, restoring what its key held before."""
        if not self.tentative_shown:
            return
        self.tentative_shown = False
        changes = self.changes
        containers = self.containers
        if not containers:
            if changes is not None:
                changes.append(_change(("remove", "", None)))
            self.root = MISSING
            return
        top = containers[-1]
        if changes is not None:
            path = self._slot(False)
            if type(top) is dict and self.tentative_prev is not _ABSENT:
                changes.append(_change(("replace", path, copy.deepcopy(self.tentative_prev))))
            else:
                changes.append(_change(("remove", path, None)))
        if type(top) is dict:
            if self.tentative_prev is _ABSENT:
                del top[self.key]
            else:
                top[self.key] = self.tentative_prev
            self.tentative_prev = _ABSENT
        else:
            top.pop()

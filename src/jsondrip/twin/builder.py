"""Builds the live Python value from the machine's events: the twin of rust/python/builder.rs.

Containers are created once and updated in place, so an event costs work in proportion to
what it adds, never to the size of the document. One slot is "open" at a time: the string
value still being read (grown in place at each flush), or, in jiter mode, a
number shown before it is complete (the tentative slot, which can be taken back).

When `changes` is a list, every event also records a `Change` with its JSON Pointer path. A
growing string then records only its new text and its slot is not refreshed (that would copy
the whole string at every flush): it is `stale` until `refresh_string` or its end.

Numbers and literals arrive as their text and become Python values here, within the
interpreter's limit on integer digits (the one place the twin applies it; `_loads.py` asks
`_dialect.digit_limit` too).
"""

from __future__ import annotations

import copy
import functools
import math
from typing import Any

from .._changes import Change, escape_token
from .._dialect import digit_limit
from .._missing import MISSING

# Change((op, path, value)) without NamedTuple.__new__'s Python frame (it does the same).
_change = functools.partial(tuple.__new__, Change)

_ABSENT = object()

# What an atom is (Rust: the `Atom` enum): a number's text, or a literal's name.
ATOM_INT, ATOM_FLOAT, ATOM_LITERAL = range(3)
LITERAL_VALUES: dict[str, Any] = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": math.nan,
    "Infinity": math.inf,
    "-Infinity": -math.inf,
}
MIN_DIGIT_LIMIT = 640
"""CPython's smallest allowed limit on integer digits: shorter integers never reach it."""


class Invalid(Exception):
    """The builder refuses a value (an integer past the digit limit): the machine reports it
    as a syntax error at the value's first character. Twin of `Stop::Invalid` (sink.rs)."""

    def __init__(self, msg: str) -> None:
        super().__init__(msg)
        self.msg = msg


def atom_value(kind: int, text: str) -> Any:
    """The Python value json.loads gives for a complete number or literal."""
    if kind is ATOM_INT:
        if len(text) <= MIN_DIGIT_LIMIT:
            return int(text)
        digits = len(text) - (text[0] == "-")
        limit = digit_limit()
        if limit and digits > limit:
            raise Invalid(
                f"Exceeds the limit ({limit} digits) for integer string conversion: "
                f"value has {digits} digits"
            )
        return int(text)
    if kind is ATOM_FLOAT:
        return float(text)
    return LITERAL_VALUES[text]


MAX_KEY_LEN = 64
"""Keys up to this many characters are kept to be reused (rust/python/keys.rs has the same)."""


class Builder:
    """The value under construction and the stack of containers still open."""

    __slots__ = (
        "changes",
        "containers",
        "key",
        "keys",
        "open_path",
        "open_text",
        "recorded",
        "root",
        "segments",
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
        # Each key once: equal keys of different objects are one str, as json.loads gives
        # them (CPython's test_keys_reuse) and the native builder's key cache does (keys.rs).
        self.keys: dict[str, str] = {}
        self.string_shown = False
        self.open_text = ""  # the open string as shown; grown in place (see `string`)
        # Change mode: the open string's text recorded as changes since, not yet in its slot
        # (only a read joins it: growing the slot at every flush could copy it every time).
        self.recorded: list[str] | None = None  # (made by the first text recorded)
        self.stale = False  # the open string's slot lags behind `recorded`
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

    def begin_container(self, is_object: bool) -> None:
        """A `{` (object) or `[`: the new container takes its place in its parent."""
        container: Any = {} if is_object else []
        if self.changes is not None:
            self._record_new({} if is_object else [])
        containers = self.containers  # kept in plain feeds too: modes may mix
        if not containers:
            self.segments.append(None)
        elif type(containers[-1]) is dict:
            self.segments.append(self.key)
        else:
            self.segments.append(len(containers[-1]))
        self._insert(container)
        containers.append(container)

    def end_container(self) -> None:
        """A `}` or `]`."""
        self.containers.pop()
        self.segments.pop()

    def set_key(self, key: str) -> None:
        """A complete key; its property appears when its value does."""
        if len(key) <= MAX_KEY_LEN:  # longer keys seldom repeat (keys.rs: MAX_KEY_LEN)
            key = self.keys.setdefault(key, key)
        self.key = key

    def string(self, text: str, complete: bool) -> None:
        """The string value grew by `text` (`complete`: it ended): shown new, or grown.

        Twin of `PySink::string`, which is handed the machine's whole buffer and slices off what
        it has shown; the twin's machine hands over only the new text, since a Python str
        cannot be shared by the two and still grow in place.
        """
        if not self.string_shown:
            if self.changes is not None:
                self._record_new(text)
            self.open_path = None
            self._insert(text)
            self.string_shown = not complete
            self.open_text = text if not complete else ""
            return
        if self.changes is not None:
            if text:
                path = self.open_path
                if path is None:
                    path = self.open_path = self._slot(False)
                self.changes.append(_change(("append", path, text)))
            if not complete:  # the slot waits for refresh_string (no copy per flush)
                if self.recorded is None:
                    self.recorded = [text]
                else:
                    self.recorded.append(text)
                self.stale = True
                return
        if self.stale:
            text = "".join(self.recorded) + text  # type: ignore[arg-type]  # (stale: made)
            self.recorded = None
            self.stale = False
        # CPython appends to a str in place when `+=` holds its only reference, so the slot
        # and `open_text` let go of it first: the growth then costs the fragment, not the
        # whole string. A string that the reader still holds is copied, as it must be.
        shown = self.open_text
        self.open_text = ""
        containers = self.containers
        if containers:
            top = containers[-1]
            slot = self.key if type(top) is dict else -1
            top[slot] = None
            shown += text
            top[slot] = shown
        else:
            self.root = None
            shown += text
            self.root = shown
        if complete:
            self.string_shown = False
            self.open_path = None
        else:
            self.open_text = shown

    def refresh_string(self) -> None:
        """Bring the open string's slot up to date (change mode defers it until read)."""
        if self.stale:
            changes, self.changes = self.changes, None  # the text is recorded already
            try:
                self.string("", False)
            finally:
                self.changes = changes

    def atom(self, kind: int, text: str) -> None:
        """A complete number (its text) or literal (its name), taking over the tentative slot
        if there is one. Raises `Invalid` for an integer past the digit limit."""
        value = atom_value(kind, text)
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

    def show_tentative(self, kind: int, text: str) -> None:
        """jiter mode: show a number still arriving, ready to be taken back."""
        value = atom_value(kind, text)
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

    # -- positioned events (Rust: the `Sink` trait's, whose defaults do nothing) -------------
    # The machine sends them only when its `events` flag is set, which a builder alone never
    # needs: a check riding on it does (twin/schema/checked.py's `CheckedSink`).

    def value_begins(self, first: str, pos: int) -> None:
        """A value begins at `pos` with the character `first`: nothing to build."""

    def key_begins(self, pos: int) -> None:
        """An object's key begins at `pos`: nothing to build."""

    def string_text(self, piece: str, start: int, plain: bool, closes: bool) -> None:
        """More content of the string or key, positioned: nothing to build."""

    def string_ends(self, pos: int) -> None:
        """The closing quote at `pos`: nothing to build."""

    def atom_ends(self, kind: int, text: str, pos: int) -> None:
        """A number or literal complete at `pos`: nothing to build."""

    def container_ends(self, pos: int) -> None:
        """`}` or `]` at `pos`: nothing to build."""

"""Builds the live Python value from the machine's events: the twin of rust/python/builder.rs.

Containers are created once and updated in place, so an event costs work in proportion to
what it adds, never to the size of the document. One slot is "open" at a time: the string
value still being read (replaced by a longer string at each flush), or, in jiter mode, a
number shown before it is complete (the tentative slot, which can be taken back).
"""

from __future__ import annotations

from typing import Any

from .._missing import MISSING

_ABSENT = object()


class Builder:
    """The value under construction and the stack of containers still open."""

    __slots__ = ("containers", "key", "root", "string_shown", "tentative_prev", "tentative_shown")

    def __init__(self) -> None:
        self.root: Any = MISSING
        self.containers: list[Any] = []
        self.key: str | None = None
        self.string_shown = False
        self.tentative_shown = False
        self.tentative_prev: Any = _ABSENT

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
        self._insert(container)
        self.containers.append(container)

    def end_container(self) -> None:
        """A `}` or `]`."""
        self.containers.pop()

    def set_key(self, key: str) -> None:
        """A complete key; its property appears when its value does."""
        self.key = key

    def string(self, text: str, complete: bool) -> None:
        """The string value so far (complete or not): shown new, or replacing the shorter one."""
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

    def atom(self, value: Any) -> None:
        """A complete number or literal (taking over the tentative slot if there is one)."""
        if self.tentative_shown:
            self.tentative_shown = False
            self.tentative_prev = _ABSENT
            self._replace(value)
        else:
            self._insert(value)

    def show_tentative(self, value: Any) -> None:
        """jiter mode: show a number still arriving, ready to be taken back."""
        if self.tentative_shown:
            self._replace(value)
            return
        containers = self.containers
        if containers and type(containers[-1]) is dict:
            self.tentative_prev = containers[-1].get(self.key, _ABSENT)
        self.tentative_shown = True
        self._insert(value)

    def hide_tentative(self) -> None:
        """jiter mode: take back the number shown, restoring what its key held before."""
        if not self.tentative_shown:
            return
        self.tentative_shown = False
        containers = self.containers
        if not containers:
            self.root = MISSING
            return
        top = containers[-1]
        if type(top) is dict:
            if self.tentative_prev is _ABSENT:
                del top[self.key]
            else:
                top[self.key] = self.tentative_prev
            self.tentative_prev = _ABSENT
        else:
            top.pop()

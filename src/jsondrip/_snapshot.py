"""A frozen copy of a live value: what to hand to another task, queue or thread."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from typing import Any


def frozen_copy(value: Any) -> Any:
    """A copy of `value` that later feeds never change: every dict and list copied, the rest
    (str, numbers, literals, `MISSING`) immutable and shared.

    Time and memory in proportion to the value's size. Iterative, so a value nested as deep as
    `max_depth` allows never reaches the recursion limit; faster than `copy.deepcopy`, which
    keeps a memo a JSON value (a tree) does not need.
    """
    kind = type(value)
    if kind is not dict and kind is not list:
        return value
    root = kind(value)
    pending = [root]
    while pending:
        container = pending.pop()
        if type(container) is dict:
            for key, item in container.items():
                kind = type(item)
                if kind is dict or kind is list:
                    container[key] = copied = kind(item)
                    pending.append(copied)
        else:
            for index, item in enumerate(container):
                kind = type(item)
                if kind is dict or kind is list:
                    container[index] = copied = kind(item)
                    pending.append(copied)
    return root

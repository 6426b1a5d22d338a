"""`frozen_event`: a frozen dataclass, slotted where Python allows it (3.10+).

One decorator for every event type (the tool-call events, the SSE decoder's), spelled so that
type checkers see a dataclass: `dataclass(frozen=True, slots=...)` chosen at run time is
invisible to them, which left the events' constructors untyped for users.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

__all__ = ["frozen_event"]

_T = TypeVar("_T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform

    @dataclass_transform(frozen_default=True)
    def frozen_event(cls: type[_T]) -> type[_T]:
        """A frozen dataclass, slotted on Python 3.10+."""
        ...

elif sys.version_info >= (3, 10):
    frozen_event = dataclass(frozen=True, slots=True)
else:  # pragma: no cover - Python 3.9 has no slotted dataclasses
    frozen_event = dataclass(frozen=True)

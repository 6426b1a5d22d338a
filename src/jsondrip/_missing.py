"""The MISSING sentinel: the value before any value has begun."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from typing import Final


class _MissingType:
    """Type of `MISSING`: there is exactly one instance, falsy and safe to dispatch on."""

    __slots__ = ()
    _instance: _MissingType | None = None

    def __new__(cls) -> _MissingType:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "jsondrip.MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"

    def __copy__(self) -> _MissingType:
        return self

    def __deepcopy__(self, memo: object) -> _MissingType:
        return self


MISSING: Final = _MissingType()
"""No value has begun yet (`''`, whitespace, a top-level number still arriving). Not `None`,
which is JSON null."""

"""Module-level forwarding to a standard-library module, for `jsondrip.decoder`, `.encoder` and
`.scanner`: every name a module does not define itself is the standard library's own object."""

from __future__ import annotations

from types import ModuleType

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from typing import Any, Callable


def forwarding(
    name: str, stdlib: ModuleType, own: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """`__getattr__`, `__dir__` and `__all__` for module `name` that falls back on `stdlib`.

    `__all__` is the standard module's, or, where it has none (json.encoder), its public
    names other than the modules it imports, as `from json.encoder import *` would take.
    """
    public = getattr(stdlib, "__all__", None)
    if public is None:
        public = [
            key
            for key, value in vars(stdlib).items()
            if not key.startswith("_") and not isinstance(value, ModuleType)
        ]

    def __getattr__(attribute: str) -> Any:
        if not attribute.startswith("__"):
            try:
                return getattr(stdlib, attribute)
            except AttributeError:
                pass
        raise AttributeError(f"module {name!r} has no attribute {attribute!r}")

    def __dir__() -> list[str]:
        return sorted(set(own) | {key for key in dir(stdlib) if not key.startswith("__")})

    return __getattr__, __dir__, list(public)

"""Which engines are usable, and which one a call gets."""

from __future__ import annotations

import functools
import importlib.util
import os
from typing import Any

from ._dialect import DIALECT

_NATIVE_IMPORT_ERROR: str | None = None
try:
    from . import _native
except ImportError as error:  # the extension did not build; the tests refuse to run without it
    _native = None  # type: ignore[assignment]
    _NATIVE_IMPORT_ERROR = str(error)
else:
    _native.set_dialect(*DIALECT)

try:  # written only into the pure-Python wheel (build_backend/pure_build_marker.py)
    from . import _pure_build  # type: ignore[attr-defined]
except ImportError:
    _pure_build = None

#: "native" if this install was built with the Rust extension, "pure" if built without it on
#: purpose (the py3-none-any wheel): then a missing `_native` is expected, not a failure.
BUILD = "native" if _pure_build is None else "pure"

STREAMING = ("native", "python")
MODES = ("stable", "jiter")
ENV_VAR = "JSONDRIP_BACKEND"


# os.environ.get raises and catches a KeyError when the variable is unset (about 1 µs, more
# than a small loads); os.environ's own dict, kept in step by every write through os.environ,
# answers in a plain lookup.
_ENVIRON_DATA = getattr(os.environ, "_data", None)
_ENV_KEY = os.environ.encodekey(ENV_VAR) if hasattr(os.environ, "encodekey") else ENV_VAR


def env_backend() -> str | None:
    """The backend named by $JSONDRIP_BACKEND, or None."""
    if _ENVIRON_DATA is None:
        return os.environ.get(ENV_VAR)
    raw = _ENVIRON_DATA.get(_ENV_KEY)
    return None if raw is None else os.environ.decodevalue(raw)


def available_backends() -> list[str]:
    """The usable backends, in order of preference.

    `"native"` (the Rust core) when the extension is built, `"python"` (the stdlib-only twin)
    always, and `"jiter"` when jiter is installed (one-shot calls only: it cannot stream).
    """
    return list(_usable())


@functools.lru_cache(maxsize=1)
def _usable() -> tuple[str, ...]:
    names = ["native"] if _native is not None else []
    names.append("python")
    if importlib.util.find_spec("jiter") is not None:
        names.append("jiter")
    return tuple(names)


def backend_summary() -> str:
    """One line saying which backend is installed, for `jsondrip --version` and bug reports."""
    if _native is not None:
        return "native backend (Rust) and python twin"
    if BUILD == "pure":
        return "python backend only (pure-Python build)"
    return "python backend only (native extension failed to import)"


def resolve(backend: str | None, *, streaming: bool) -> str:
    """The backend a call uses: the one asked for, else $JSONDRIP_BACKEND, else the first."""
    name = backend if backend is not None else env_backend() or None
    usable = _usable()
    if name is None:
        # One-shot calls prefer jiter to the standard library; streaming cannot use it.
        if not streaming and usable[0] == "python" and "jiter" in usable:
            return "jiter"
        return usable[0]
    if name not in usable:
        known = "native", "python", "jiter"
        why = "is not installed" if name in known else f"is not one of {', '.join(known)}"
        raise ValueError(f"backend {name!r} {why}; usable here: {', '.join(usable)}")
    if streaming and name not in STREAMING:
        raise ValueError(f"backend {name!r} cannot stream; use 'native' or 'python'")
    return name


def make_engine(
    backend: str, mode: str, max_depth: int, max_size: int | None, schema_table: Any = None
) -> Any:
    """A fresh engine of the named streaming backend (the native one checking `schema_table`,
    a `Schema.native_table()`, when given)."""
    if mode not in MODES:
        raise ValueError(f"mode must be 'stable' or 'jiter', not {mode!r}")
    if max_depth < 1:
        raise ValueError("max_depth must be at least 1")
    if max_size is not None and max_size < 0:
        raise ValueError("max_size must be None or at least 0")
    # Both engines speak the running interpreter's json dialect (told once, below and in the
    # twin's stream.py), so making one costs nothing for it.
    if backend == "native":
        if schema_table is not None:
            return _native.NativeEngine(
                mode=mode, max_depth=max_depth, max_size=max_size, schema=schema_table
            )
        return _native.NativeEngine(mode=mode, max_depth=max_depth, max_size=max_size)
    from .twin import PythonEngine

    return PythonEngine(mode=mode, max_depth=max_depth, max_size=max_size)

"""Another build's native extension beside this checkout's, for the scripts that time two
builds in one process (`ab_native.py`, `ab_loads.py`, `bench_fragment.py --against`)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from types import ModuleType

from jsondrip import _engine


def load_other(path: str, name: str = "ab_other._native") -> ModuleType:
    """The extension at `path` (another build's `_native*.so`), imported as `name` and
    configured as ours is (the dialect, `MISSING`, the error classes, `Change`)."""
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise SystemExit(f"not an extension module: {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    module.configure(
        _engine.DIALECT,
        _engine.MISSING,
        _engine.JSONDecodeError,
        _engine.IncompleteJSONError,
        _engine.Change,
    )
    return module

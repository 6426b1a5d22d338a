"""The Python backend: a stdlib-only twin of the Rust core, state for state."""

from .stream import PendingChanges, PythonEngine

__all__ = ["PendingChanges", "PythonEngine"]

"""The Python backend: a stdlib-only twin of the Rust core, state for state."""

from .engine import PendingChanges, PythonEngine

__all__ = ["PendingChanges", "PythonEngine"]

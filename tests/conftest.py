"""Shared fixtures: every test that takes `backend` runs on both backends.

The native backend must have been built: a missing extension fails the native tests instead of
quietly testing the Python twin twice. The native runs are skipped, with the reason, only when
that is on purpose: JSONDRIP_BACKEND=python, or an install of the pure-Python wheel (built
without Rust, `jsondrip._engine.BUILD == "pure"`).

A test that needs something the machine may not have (node, Chromium, cargo-fuzz, the shared
corpus, a package the `test` extra installs) calls `missing(...)` with one line saying how to
get it: a skip on a contributor's machine, a failure where `JSONDRIP_NO_SKIP=1` (`.ci/run`
sets it), so that CI never passes by skipping.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("JSONDRIP_CORPUS", ROOT.parent / "shared" / "corpus"))

#: Set by `.ci/run`: a missing prerequisite fails the test instead of skipping it.
NO_SKIP = os.environ.get("JSONDRIP_NO_SKIP") == "1"

#: hypothesis' profile: "default", or "matrix" (noxfile.py sets it for the interpreter matrix:
#: a fifth of the examples, every test still run on every interpreter).
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
settings.register_profile("matrix", max_examples=20)
settings.load_profile(HYPOTHESIS_PROFILE)


def examples(n: int) -> int:
    """`max_examples` for a property test that asks for `n`: fewer under the matrix profile."""
    return max(10, n // 5) if HYPOTHESIS_PROFILE == "matrix" else n


def missing(how_to_get_it: str) -> NoReturn:
    """Skip a test whose prerequisite is not on this machine (the reason says how to get it);
    under JSONDRIP_NO_SKIP=1 fail it instead."""
    if NO_SKIP:
        pytest.fail(f"{how_to_get_it} (JSONDRIP_NO_SKIP=1: CI runs every test)", pytrace=False)
    pytest.skip(how_to_get_it, allow_module_level=True)


def _promised_by_test_extra(distribution: str) -> bool:
    """Whether `pip install ".[test]"` installs `distribution` on this interpreter (the extra's
    environment markers leave some out on PyPy and on versions without wheels)."""
    from packaging.requirements import Requirement

    try:
        requirements = importlib.metadata.requires("jsondrip") or []
    except importlib.metadata.PackageNotFoundError:
        return False
    for line in requirements:
        requirement = Requirement(line)
        if requirement.name.lower() == distribution.lower() and (
            requirement.marker is None or requirement.marker.evaluate({"extra": "test"})
        ):
            return True
    return False


def need_module(name: str, distribution: str | None = None) -> ModuleType:
    """`import name`, or skip saying how to install it. Where the `test` extra promises it for
    this interpreter, its absence is a broken set-up: `missing` (a failure in CI)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        pass
    distribution = distribution or name
    hint = f"{name} is not installed (pip install {distribution}, or the test extra: .[test])"
    if _promised_by_test_extra(distribution):
        missing(hint)
    here = f"{sys.implementation.name} {sys.version_info[0]}.{sys.version_info[1]}"
    pytest.skip(f"{hint}; the test extra leaves it out on {here}", allow_module_level=True)


def _why_no_native() -> str | None:
    """Why the native backend is absent on purpose, or None when it must be there."""
    from jsondrip import _engine

    if os.environ.get("JSONDRIP_BACKEND") == "python":
        return "JSONDRIP_BACKEND=python: testing the Python twin only, on purpose"
    if _engine.BUILD == "pure" and not (NO_SKIP and _pyo3_builds_here()):
        return (
            "no native backend: this is jsondrip's pure-Python build (JSONDRIP_BUILD=pure, no "
            "Rust toolchain, or an interpreter pyo3 does not build for: docs/packaging.md)"
        )
    return None


def _pyo3_builds_here() -> bool:
    """Whether the native extension builds for this interpreter (CPython with the GIL, or
    free-threaded 3.14t+): there, under JSONDRIP_NO_SKIP=1, a pure build fails the tests."""
    import sysconfig

    if sys.implementation.name != "cpython":
        return False
    return not sysconfig.get_config_var("Py_GIL_DISABLED") or sys.version_info >= (3, 14)


#: Why the native runs are skipped, or None when the native backend must have been built.
NO_NATIVE = _why_no_native()
ONLY_PYTHON = NO_NATIVE is not None


def skip_unless_native() -> None:
    """Skip (saying why) where the native backend is absent on purpose; fail where it should be.

    For tests about the native backend alone; `backend` does this for the parametrised ones.
    """
    import jsondrip

    if NO_NATIVE is not None:
        pytest.skip(NO_NATIVE)
    assert "native" in jsondrip.available_backends(), (
        "the native extension jsondrip._native did not build or import; "
        "set JSONDRIP_BACKEND=python to test the Python twin alone"
    )


def corpus_dir(name: str) -> Path:
    """A folder of the shared corpus, or a skip that says how to point at it."""
    path = CORPUS / name
    if not path.is_dir():
        missing(
            f"corpus folder {path} not found: set JSONDRIP_CORPUS to the test corpus "
            "(CONTRIBUTING.md, 'The test corpus', says where each folder comes from)"
        )
    return path


def installed_backends() -> tuple[str, ...]:
    """The streaming backends a loop over both should run: the twin alone only where the
    native backend is absent on purpose (it must import otherwise)."""
    if NO_NATIVE is not None:
        return ("python",)
    skip_unless_native()
    return ("native", "python")


@pytest.fixture(params=["native", "python"])
def backend(request: pytest.FixtureRequest) -> str:
    """The name of a parser backend; the native one must be importable."""
    name = request.param
    if name == "native":
        skip_unless_native()
    return name

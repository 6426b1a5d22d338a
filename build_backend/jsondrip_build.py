"""The PEP 517 backend of jsondrip: the native wheel through maturin, else the pure one.

maturin has no pure-Python mode (PyO3/maturin#1839) and, with no Rust toolchain, downloads one
silently (or fails with a traceback that never says "Rust"). This backend decides first:

- `JSONDRIP_BUILD=native`: maturin builds the extension; no toolchain is an error saying so.
- `JSONDRIP_BUILD=pure`: hatchling builds the `py3-none-any` wheel (the Python twin only).
- unset (or `auto`): native when this interpreter is one pyo3 builds for (CPython, with the
  GIL or 3.14t+) and `cargo` answers; otherwise pure, with one line on stderr saying why and
  how to get the native backend. A native build that was chosen and fails, fails.

The sdist is hatchling's, with the Rust sources, so that it builds either way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from typing import Any

ENV_VAR = "JSONDRIP_BUILD"
MATURIN = "maturin>=1.9.4,<2"
HATCHLING = "hatchling>=1.26"
HOW_TO_NATIVE = (
    "install Rust (https://rustup.rs) and reinstall, or set JSONDRIP_BUILD=native to insist"
)
HOW_TO_NATIVE_ELSEWHERE = "it needs CPython with the GIL, or free-threaded 3.14t+"


class BuildChoiceError(SystemExit):
    """JSONDRIP_BUILD asks for something this machine cannot build.

    A SystemExit with its message: the hook's process prints that one line and exits 1, and
    the installer shows it, without a traceback."""


def interpreter_refused() -> str | None:
    """Why pyo3 cannot build for the running interpreter, or None if it can."""
    implementation = sys.implementation.name
    if implementation != "cpython":
        # PyPy: pyo3 needs 3.11+, and the layer calls CPython's string and tuple internals.
        return f"{implementation} is not CPython"
    if sysconfig.get_config_var("Py_GIL_DISABLED") and sys.version_info < (3, 14):
        return "pyo3 builds free-threaded CPython from 3.14t only"
    return None


def rust_missing() -> str | None:
    """Why no Rust toolchain can be used, or None if `cargo` answers."""
    cargo = shutil.which("cargo")
    if cargo is None:
        return "no Rust toolchain (cargo is not on PATH)"
    try:
        answer = subprocess.run([cargo, "--version"], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"cargo does not run ({error})"
    if answer.returncode != 0:
        return "cargo does not run (`cargo --version` failed: no default toolchain?)"
    return None


def choose(*, say: bool = False) -> str:
    """ "native" or "pure", from $JSONDRIP_BUILD, the interpreter and the toolchain.

    With `say`, a pure build chosen for want of Rust prints its one line (the build hooks run
    in separate processes: only the one that builds says it).
    """
    asked = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if asked not in ("auto", "native", "pure"):
        raise BuildChoiceError(f"{ENV_VAR}={asked!r}: use native, pure or auto")
    if asked == "pure":
        return "pure"
    refused = interpreter_refused()
    why_not = refused or rust_missing()
    if why_not is None:
        return "native"
    if asked == "native":
        raise BuildChoiceError(f"{ENV_VAR}=native, but {why_not}")
    if say:
        print(
            f"jsondrip: {why_not}: building the pure-Python package (the native backend is "
            f"faster: {HOW_TO_NATIVE_ELSEWHERE if refused else HOW_TO_NATIVE})",
            file=sys.stderr,
        )
    return "pure"


def _backend(kind: str) -> Any:
    if kind == "native":
        import maturin

        return maturin
    from hatchling import build

    return build


# --- the PEP 517 hooks ------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    """maturin for the native wheel, nothing more for the pure one (hatchling is static)."""
    return [MATURIN] if choose() == "native" else []


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    """As for a wheel."""
    return get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings: Any = None) -> list[str]:
    """The sdist is hatchling's: nothing more."""
    return []


def build_wheel(
    wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None
) -> str:
    """The native wheel (maturin) or the pure one (hatchling), as `choose` says."""
    return _backend(choose(say=True)).build_wheel(wheel_directory, config_settings)


def build_editable(
    wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None
) -> str:
    """An editable install, native or pure as `choose` says."""
    return _backend(choose(say=True)).build_editable(wheel_directory, config_settings)


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    """The source distribution, Rust sources included (hatchling's sdist target)."""
    return _backend("pure").build_sdist(sdist_directory, config_settings)

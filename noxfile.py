"""The test matrix: the whole suite on every Python interpreter found on this machine.

`nox` (or `nox -s tests-3.9`; `nox -l` lists them) runs one session per interpreter, each in its
own venv with the wheel built for that interpreter: the native one (maturin, LTO off for test
builds) on every CPython that pyo3 builds for, the pure-Python `py3-none-any` one elsewhere
(PyPy, free-threaded 3.13t), where the native tests skip saying why. Interpreters are found
under pyenv (`~/.pyenv/versions/*`, `$PYENV_ROOT`) and on PATH (`python3.X`, `python3.Xt`,
`pypy3`, `pypy3.X`); `$JSONDRIP_PYTHONS` (paths, separated by `:`) adds others. Arguments after
`--` go to pytest.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
nox.options.default_venv_backend = "venv"
nox.options.download_python = "never"
nox.options.error_on_missing_interpreters = True

# What an interpreter says about itself: its session name and whether pyo3 builds for it.
_ABOUT = """
import json, sys, sysconfig
free = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
print(json.dumps([sys.implementation.name, list(sys.version_info[:2]), free]))
"""
# Test builds: quick to compile; the published wheels keep the release profile (LTO).
TEST_BUILD_ENV = {"CARGO_PROFILE_RELEASE_LTO": "off", "CARGO_PROFILE_RELEASE_CODEGEN_UNITS": "16"}


def _candidates() -> list[str]:
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(glob.glob(str(pyenv / "*" / "bin" / "python3")))
    found += sorted(glob.glob(str(pyenv / "pypy3*" / "bin" / "pypy3")))
    names = [f"python3.{minor}{t}" for minor in range(9, 20) for t in ("", "t")]
    names += ["pypy3"] + [f"pypy3.{minor}" for minor in range(9, 20)]
    for name in names:
        path = shutil.which(name)
        if path and "/.pyenv/shims/" not in path:
            found.append(path)
    found += [p for p in os.environ.get("JSONDRIP_PYTHONS", "").split(":") if p]
    return found


def _session_name(implementation: str, version: list[int], free_threaded: bool) -> str:
    prefix = "" if implementation == "cpython" else implementation
    return f"{prefix}{version[0]}.{version[1]}{'t' if free_threaded else ''}"


def _native_builds(implementation: str, version: list[int], free_threaded: bool) -> bool:
    """What build_backend/jsondrip_build.py decides for that interpreter, with Rust present."""
    return implementation == "cpython" and (not free_threaded or version >= [3, 14])


def interpreters() -> dict[str, tuple[str, bool]]:
    """Session name -> (interpreter path, native build?), one per version (the last found)."""
    out: dict[str, tuple[str, bool]] = {}
    seen: set[str] = set()
    for path in _candidates():
        real = os.path.realpath(path)
        if real in seen or not os.access(real, os.X_OK):
            continue
        seen.add(real)
        try:
            about = subprocess.run(
                [path, "-c", _ABOUT], capture_output=True, text=True, timeout=30, check=True
            )
            implementation, version, free = json.loads(about.stdout)
        except (OSError, subprocess.SubprocessError, ValueError):
            continue
        if version < [3, 9]:
            continue  # below requires-python
        name = _session_name(implementation, version, free)
        out[name] = (path, _native_builds(implementation, version, free))
    return dict(sorted(out.items(), key=lambda item: _order(item[0])))


def _order(name: str) -> tuple[int, int, str]:
    match = re.search(r"(\d+)\.(\d+)", name)
    assert match
    return (int(match.group(1)), int(match.group(2)), name)


def _make_session(name: str, path: str, native: bool) -> None:
    kind = "native" if native else "pure"

    @nox.session(name=f"tests-{name}", python=path)
    def tests(session: nox.Session) -> None:
        # One cargo target folder per interpreter: pyo3 is rebuilt for each, and a shared one
        # would rebuild everything at each switch.
        env = {
            **TEST_BUILD_ENV,
            "JSONDRIP_BUILD": kind,
            "CARGO_TARGET_DIR": str(ROOT / "target" / "nox" / name),
        }
        with tempfile.TemporaryDirectory() as wheels:
            session.run(
                "python", "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, str(ROOT),
                env=env,
            )  # fmt: skip
            (wheel,) = Path(wheels).glob("jsondrip-*.whl")
            # --prefer-binary: an older wheel rather than a newer sdist to compile (hypothesis
            # on 3.13t). --only-binary for the compiled ones: 3.13t has wheels of older releases
            # only (jiter 0.15, pydantic-core 2.41), and the newest pydantic (a pure wheel) pins
            # a pydantic-core that is an sdist there, which pyo3 refuses to build for 3.13t.
            session.install(
                "--prefer-binary", "--only-binary=jiter,pydantic-core", f"{wheel}[test]"
            )
        session.run("jsondrip", "--version")
        # Both cores (pytest-xdist), except on PyPy, whose workers die sending some test ids
        # (lone surrogates) back through execnet; `-- -n 0` runs in one process anywhere.
        pytest = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        pytest += [] if name.startswith("pypy") else ["-n", "auto"]
        # Free-threaded: without the GIL even where a dependency (jiter...) would turn it back on.
        free = {"PYTHON_GIL": "0"} if name.endswith("t") else {}
        session.run(*pytest, *session.posargs, env=free)

    tests.__doc__ = f"The whole suite on {name} ({path}), {kind} build."


for _name, (_path, _native) in interpreters().items():
    _make_session(_name, _path, _native)


# --- The Debian sid chroot (.ci/sid-chroot): CPython 3.14 native and PyPy 3.11 pure -------------
# Its interpreters are not the host's: `sid-3.14`, `sid-pypy3.11` run nox inside the chroot
# (the sessions above, found there), defined once `.ci/sid-chroot setup` has made it.
SID_ROOT = Path(os.environ.get("JSONDRIP_SID_ROOT", "/var/cache/jsondrip-sid"))
SID_SESSIONS = SID_ROOT / ".jsondrip-sessions"  # written by the setup: one name per line


def _make_sid_session(name: str) -> None:
    @nox.session(name=f"sid-{name}", python=False)
    def sid(session: nox.Session) -> None:
        # Arguments after `--` go to pytest inside, as for the host's sessions.
        chroot = [str(ROOT / ".ci" / "sid-chroot"), "nox", "-s", f"tests-{name}"]
        session.run(*chroot, "--", *session.posargs, external=True)

    sid.__doc__ = f"The whole suite on {name} of the Debian sid chroot (.ci/sid-chroot)."


if SID_SESSIONS.is_file():
    for _name in SID_SESSIONS.read_text().split():
        _make_sid_session(_name)

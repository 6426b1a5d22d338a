"""The developer commands: `nox -s tests` (the contributor's test command), the lint, types and
docs checks, and the interpreter matrix.

- `nox -s tests`: the whole suite, both backends, on the interpreter that runs nox (a venv of
  its own with the package and its `test` and `bench` extras, the extension built where Rust
  is there). Arguments after `--` go to pytest (`nox -s tests -- -x -k loads`); `-R` reuses
  the venv without reinstalling.
- `nox -s lint`, `nox -s types`, `nox -s docs`: ruff, cargo fmt and clippy, the workflows'
  schema; mypy on the package and on a program using the public API (`tests/typing`);
  `mkdocs build --strict`.
- The matrix, one session per interpreter found on this machine (`nox -l` lists them,
  `nox -s tests-3.9` runs one): each in its own venv with the wheel built for that
  interpreter: the native one (maturin, LTO off for test builds) on every CPython that pyo3
  builds for, the pure-Python `py3-none-any` one elsewhere (PyPy, free-threaded 3.13t), where
  the native tests skip saying why. Interpreters are found under pyenv (`~/.pyenv/versions/*`,
  `$PYENV_ROOT`) and on PATH (`python3.X`, `python3.Xt`, `pypy3`, `pypy3.X`);
  `$JSONDRIP_PYTHONS` (paths, separated by `:`) adds others. They run hypothesis with the
  `matrix` profile (`tests/conftest.py`: fewer examples; every test still runs).
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
nox.options.default_venv_backend = "venv"
nox.options.download_python = "never"
nox.options.error_on_missing_interpreters = True
# Plain `nox`: the contributor's sessions; the matrix is named (`nox -s tests-3.9`, .ci/run).
nox.options.sessions = ["tests", "lint", "types", "docs"]

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


def _pytest(session: nox.Session, env: dict[str, str] | None = None) -> None:
    """The whole suite (arguments after `--` added), on every core (pytest-xdist; `-- -n 0`
    runs it in one process)."""
    session.run("jsondrip", "--version")
    pytest = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto"]
    session.run(*pytest, *session.posargs, env=env)


@nox.session(name="tests")
def tests(session: nox.Session) -> None:
    """The whole suite on the interpreter that runs nox: the contributor's test command."""
    # The extension is built in place (target/), LTO off; without Rust the pure-Python package
    # is installed and the native tests skip, saying why (they fail under JSONDRIP_NO_SKIP=1).
    # The bench extra's peers (orjson, msgspec...) publish no PyPy wheels: CPython only.
    cpython = sys.implementation.name == "cpython"
    extras = "test,bench" if cpython else "test"
    session.install("--prefer-binary", f".[{extras}]", env=TEST_BUILD_ENV)
    _pytest(session)


#: The lint tools, pinned so that a new release cannot turn CI red overnight.
RUFF = "ruff==0.17.6"
CHECK_JSONSCHEMA = "check-jsonschema==0.39.0"
MYPY = "mypy==2.4.1"
TYPES_PYGMENTS = "types-Pygments"


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (check, format), cargo fmt and clippy on both crates, the workflow files' schema."""
    session.install(RUFF, CHECK_JSONSCHEMA)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    fuzz = ["--manifest-path", "fuzz/Cargo.toml"]
    session.run("cargo", "fmt", "--check", external=True)
    session.run("cargo", "fmt", "--check", *fuzz, external=True)
    deny = ["--", "-D", "warnings"]
    # pyo3's build script asks an interpreter for its configuration: the one running nox.
    session.run("cargo", "clippy", "-q", "--all-targets", "--features", "python", *deny,
                external=True, env={"PYO3_PYTHON": sys.executable})  # fmt: skip
    session.run("cargo", "clippy", "-q", "--all-targets", *fuzz, *deny, external=True)
    workflows = sorted(str(path) for path in (ROOT / ".github" / "workflows").glob("*.yml"))
    session.run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *workflows)


@nox.session
def types(session: nox.Session) -> None:
    """mypy on the package and on a program using its public API (tests/typing)."""
    # The package as users get it (the native build: its _native.pyi and py.typed), with the
    # optional packages its modules import, so that mypy checks those calls too.
    session.install("--prefer-binary", ".[test,bench]", MYPY, TYPES_PYGMENTS, env=TEST_BUILD_ENV)
    session.run("mypy")  # src/jsondrip ([tool.mypy] in pyproject.toml)
    # tests/typing imports the installed package, as a user's program would.
    session.run("mypy", "tests/typing")


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site, as CI builds it: a broken link or reference fails it."""
    session.install(".[docs]", env={"JSONDRIP_BUILD": "pure"})  # the site reads src/, not the build
    session.run("mkdocs", "build", "--strict", *session.posargs, env={"NO_MKDOCS_2_WARNING": "1"})


def _make_session(name: str, path: str, native: bool) -> None:
    kind = "native" if native else "pure"

    @nox.session(name=f"tests-{name}", python=path, tags=["matrix"])
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
        # Free-threaded: without the GIL even where a dependency (jiter...) would turn it back on.
        env = {"HYPOTHESIS_PROFILE": "matrix"}
        if name.endswith("t"):
            env["PYTHON_GIL"] = "0"
        _pytest(session, env)

    tests.__doc__ = f"The whole suite on {name} ({path}), {kind} build."


for _name, (_path, _native) in interpreters().items():
    _make_session(_name, _path, _native)


# --- The Debian sid chroot (.ci/sid-chroot): CPython 3.14 native and PyPy 3.11 pure -------------
# Its interpreters are not the host's: `sid-3.14`, `sid-pypy3.11` run nox inside the chroot
# (the sessions above, found there), defined once `.ci/sid-chroot setup` has made it.
SID_ROOT = Path(os.environ.get("JSONDRIP_SID_ROOT", "/var/cache/jsondrip-sid"))
SID_SESSIONS = SID_ROOT / ".jsondrip-sessions"  # written by the setup: one name per line


def _make_sid_session(name: str) -> None:
    @nox.session(name=f"sid-{name}", python=False, tags=["sid"])
    def sid(session: nox.Session) -> None:
        # Arguments after `--` go to pytest inside, as for the host's sessions.
        chroot = [str(ROOT / ".ci" / "sid-chroot"), "nox", "-s", f"tests-{name}"]
        session.run(*chroot, "--", *session.posargs, external=True)

    sid.__doc__ = f"The whole suite on {name} of the Debian sid chroot (.ci/sid-chroot)."


if SID_SESSIONS.is_file():
    for _name in SID_SESSIONS.read_text().split():
        _make_sid_session(_name)

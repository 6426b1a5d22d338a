"""The files around the code agree with it: the `test` extra installs every package the tests
import, and every workflow that runs the suite installs that extra (the wheels workflow once
installed a hand-written list that missed jsonschema and jsonpatch)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
from pathlib import Path

from conftest import ROOT

#: Imported by the tests but not theirs to install: pytest's own dependency, PyPy's built-in.
NOT_IN_THE_EXTRA = {"packaging", "_pypyjson"}
#: Installed by the `bench` extra, which `nox -s tests` adds; the tests skip without them.
BENCH_ONLY = {"matplotlib"}


def _stdlib() -> set[str]:
    import sys

    names = getattr(sys, "stdlib_module_names", None)  # Python 3.10+
    if names is None:  # 3.9: what is importable from the standard library's folder
        import sysconfig

        lib = Path(sysconfig.get_paths()["stdlib"])
        # CPython's compiled modules are in lib-dynload (math.cpython-39-...so); PyPy has none
        dynload = lib / "lib-dynload"
        found = [*lib.iterdir(), *(dynload.iterdir() if dynload.is_dir() else ())]
        names = {path.name.split(".")[0] for path in found} | set(sys.builtin_module_names)
    return set(names)


def imported_by_the_tests() -> dict[str, str]:
    """Top-level module -> a test file that imports it (`need_module("x")` counts)."""
    tests = ROOT / "tests"
    local = {path.stem for path in tests.rglob("*.py")}
    found: dict[str, str] = {}
    for path in sorted(tests.rglob("*.py")):
        if "typing" in path.relative_to(tests).parts:
            continue  # type-checked only, never imported (nox -s types)
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "need_module"
                and isinstance(node.args[0], ast.Constant)
            ):
                names = [node.args[0].value]
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return {
        name: where
        for name, where in found.items()
        if name not in _stdlib() and name not in local and name != "jsondrip"
    }


def extra_requirements(name: str) -> set[str]:
    requirements = importlib.metadata.requires("jsondrip") or []
    marker = re.compile(rf"""extra\s*==\s*["']{name}["']""")
    return {
        re.split(r"[\s;<>=!~\[]", line, maxsplit=1)[0].lower()
        for line in requirements
        if marker.search(line)
    }


def test_the_test_extra_installs_every_package_the_tests_import() -> None:
    promised = extra_requirements("test") | NOT_IN_THE_EXTRA
    promised |= BENCH_ONLY & extra_requirements("bench")
    missing = {
        name: where
        for name, where in imported_by_the_tests().items()
        if name.lower() not in promised
    }
    assert not missing, f"imported by the tests, not in the test extra: {missing}"


def test_every_workflow_that_runs_the_suite_installs_the_test_extra() -> None:
    """A step that runs pytest installs `[test]`, or runs the suite through `nox -s tests`."""
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert workflows
    for path in workflows:
        for step in re.split(r"\n\s*- ", path.read_text("utf-8")):
            if "pytest" in step and "run:" in step:
                assert "[test]" in step, f"{path.name}: a step runs pytest without the test extra"

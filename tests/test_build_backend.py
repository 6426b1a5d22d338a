"""The build backend's choice (build_backend/jsondrip_build.py): native only where Rust and a
CPython that pyo3 builds for are there, else pure with one line saying why; JSONDRIP_BUILD
forces either, and an impossible native build is an error that says so."""

from __future__ import annotations

import importlib.util
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest

BACKEND = Path(__file__).resolve().parent.parent / "build_backend" / "jsondrip_build.py"


@pytest.fixture
def build(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The backend module, with $JSONDRIP_BUILD unset and cargo on PATH as far as it knows."""
    if not BACKEND.is_file():
        pytest.skip(f"{BACKEND} is not here (tests run from an installed wheel's copy?)")
    spec = importlib.util.spec_from_file_location("jsondrip_build", BACKEND)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.delenv("JSONDRIP_BUILD", raising=False)
    monkeypatch.setattr(module, "rust_missing", lambda: None)
    return module


def test_no_cargo_gives_the_pure_build_and_one_line(
    build: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(build, "rust_missing", lambda: "no Rust toolchain (cargo is not on PATH)")
    monkeypatch.setattr(build, "interpreter_refused", lambda: None)
    assert build.choose(say=True) == "pure"
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "jsondrip: no Rust toolchain (cargo is not on PATH): building the pure-Python package "
        "(the native backend is faster: install Rust (https://rustup.rs) and reinstall, or set "
        "JSONDRIP_BUILD=native to insist)\n"
    )
    assert build.choose() == "pure" and capsys.readouterr().err == ""  # silent unless asked
    assert build.get_requires_for_build_wheel() == []  # no maturin: it would fetch Rust


def test_rust_missing_names_cargo(build: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the real rust_missing
    fresh = importlib.util.module_from_spec(importlib.util.spec_from_file_location("b", BACKEND))
    fresh.__spec__.loader.exec_module(fresh)
    monkeypatch.setattr(fresh.shutil, "which", lambda name: None)
    assert fresh.rust_missing() == "no Rust toolchain (cargo is not on PATH)"


def test_native_where_possible(build: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "interpreter_refused", lambda: None)
    assert build.choose() == "native"
    assert build.get_requires_for_build_wheel() == [build.MATURIN]


@pytest.mark.parametrize("asked", ["pure", "PURE ", "native", "auto", ""])
def test_the_switch_forces_either(
    build: ModuleType, monkeypatch: pytest.MonkeyPatch, asked: str
) -> None:
    monkeypatch.setattr(build, "interpreter_refused", lambda: None)
    monkeypatch.setenv("JSONDRIP_BUILD", asked)
    assert build.choose() == ("pure" if "pure" in asked.lower() else "native")


def test_forced_native_without_rust_says_so(
    build: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "rust_missing", lambda: "no Rust toolchain (cargo is not on PATH)")
    monkeypatch.setattr(build, "interpreter_refused", lambda: None)
    monkeypatch.setenv("JSONDRIP_BUILD", "native")
    with pytest.raises(build.BuildChoiceError) as info:
        build.choose()
    assert str(info.value) == "JSONDRIP_BUILD=native, but no Rust toolchain (cargo is not on PATH)"
    monkeypatch.setenv("JSONDRIP_BUILD", "fast")
    with pytest.raises(build.BuildChoiceError, match="JSONDRIP_BUILD='fast': use native, pure"):
        build.choose()


def test_this_interpreter_is_judged_as_pyo3_would(build: ModuleType) -> None:
    refused = build.interpreter_refused()
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    if sys.implementation.name != "cpython":
        assert refused == f"{sys.implementation.name} is not CPython"
    elif free_threaded and sys.version_info < (3, 14):
        assert refused == "pyo3 builds free-threaded CPython from 3.14t only"
    else:
        assert refused is None

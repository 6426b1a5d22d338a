"""The rules of tests/conftest.py that decide between a skip and a failure: a contributor's
machine skips what it lacks, saying how to get it; CI (JSONDRIP_NO_SKIP=1) fails instead, and
there a pure-Python build where the extension builds is a failure too."""

from __future__ import annotations

import sys

import conftest
import pytest

from jsondrip import _engine


def test_missing_skips_saying_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "NO_SKIP", False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install nodejs"):
        conftest.missing("node not found: apt-get install nodejs")


def test_missing_fails_under_no_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "NO_SKIP", True)
    with pytest.raises(pytest.fail.Exception, match="JSONDRIP_NO_SKIP=1"):
        conftest.missing("node not found: apt-get install nodejs")


def test_a_package_the_test_extra_promises_is_required_under_no_skip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(conftest, "NO_SKIP", True)
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # its import now fails
    with pytest.raises(pytest.fail.Exception, match="jsonschema is not installed"):
        conftest.need_module("jsonschema")


def test_a_package_the_test_extra_leaves_out_only_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "NO_SKIP", True)
    with pytest.raises(pytest.skip.Exception, match="the test extra leaves it out"):
        conftest.need_module("jsondrip_no_such_package")


@pytest.mark.skipif(not conftest._pyo3_builds_here(), reason="pyo3 does not build here")
def test_a_pure_build_where_the_extension_builds_fails_only_under_no_skip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_engine, "BUILD", "pure")
    monkeypatch.delenv("JSONDRIP_BACKEND", raising=False)
    monkeypatch.setattr(conftest, "NO_SKIP", False)
    assert "pure-Python build" in (conftest._why_no_native() or "")
    monkeypatch.setattr(conftest, "NO_SKIP", True)
    assert conftest._why_no_native() is None  # so the native tests run, and fail

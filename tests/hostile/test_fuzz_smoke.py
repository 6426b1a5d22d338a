"""The fuzzers, for a few seconds each: the cargo-fuzz targets of the Rust core and the
atheris harness of the Python API (both backends). The long runs are `fuzz/run.sh [seconds]`
(docs/hostile.md). Each skips, saying why, where its tool is not installed.

The cargo-fuzz build goes to a target folder outside the work tree
($JSONDRIP_FUZZ_TARGET_DIR, default ~/.cache/jsondrip-fuzz-target/<checkout>, one per
checkout path), so it is built once per checkout, not at every run; a first build takes a
minute or two and is not counted here: the test skips if the targets are not built yet and
`JSONDRIP_FUZZ_BUILD=1` (implied by `JSONDRIP_NO_SKIP=1`, which `.ci/run` sets) is not set.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NO_SKIP, missing, need_module

ROOT = Path(__file__).resolve().parents[2]
FUZZ = ROOT / "fuzz"
SECONDS = 3
TARGETS = ("stream_split", "differential", "scanner_vs_machine")
# One build folder per checkout: two checkouts sharing one would overwrite each other's
# binaries, and a fuzzer could run the other checkout's code (it happened: a finding in a
# branch's scanner showed up in main's run).
CHECKOUT = hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]
TARGET_DIR = Path(
    os.environ.get(
        "JSONDRIP_FUZZ_TARGET_DIR", Path.home() / ".cache" / "jsondrip-fuzz-target" / CHECKOUT
    )
)


# JSONDRIP_FUZZ_BUILD=1 builds the targets when they are not built yet (a minute or two), and
# JSONDRIP_NO_SKIP=1 (`.ci/run`'s fuzz stage) implies it: there a missing tool is a failure,
# never a skip, so a broken set-up cannot pass as "skipped".
BUILD = os.environ.get("JSONDRIP_FUZZ_BUILD") == "1" or NO_SKIP

pytestmark = pytest.mark.fuzz  # `pytest -m fuzz` runs these alone, `-m "not fuzz"` leaves them


def _cargo_fuzz() -> list[str]:
    """The cargo command that runs cargo-fuzz (nightly if installed, else RUSTC_BOOTSTRAP)."""
    if shutil.which("cargo") is None:
        missing("cargo is not installed: install Rust (https://rustup.rs) to run the fuzzers")
    found = subprocess.run(["cargo", "fuzz", "--version"], capture_output=True, text=True)
    if found.returncode != 0:
        missing("cargo-fuzz is not installed (`cargo install --locked cargo-fuzz`)")
    toolchains = subprocess.run(["rustup", "toolchain", "list"], capture_output=True, text=True)
    if "nightly" in toolchains.stdout:
        return ["cargo", "+nightly", "fuzz"]
    return ["cargo", "fuzz"]


def _env() -> dict[str, str]:
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET_DIR), RUSTC_BOOTSTRAP="1")
    env.pop("RUSTFLAGS", None)
    return env


@pytest.fixture(scope="module")
def cargo_fuzz() -> list[str]:
    """The cargo-fuzz command, with every target built once (the build is not a test's time:
    on a fresh 2-core machine it takes minutes, more than a few-second run should wait)."""
    cargo = _cargo_fuzz()
    built = all(
        (TARGET_DIR / "x86_64-unknown-linux-gnu" / "release" / target).exists()
        for target in TARGETS
    )
    if not built:
        if not BUILD:
            missing(
                f"the fuzz targets are not built in {TARGET_DIR}: run fuzz/run.sh once, "
                "or set JSONDRIP_FUZZ_BUILD=1"
            )
        build = subprocess.run(
            [*cargo, "build"], cwd=FUZZ, env=_env(), capture_output=True, text=True
        )
        assert build.returncode == 0, build.stderr[-3000:]
    return cargo


@pytest.mark.parametrize("target", TARGETS)
def test_cargo_fuzz_target_runs_clean(target: str, tmp_path: Path, cargo_fuzz: list[str]) -> None:
    """A few seconds of one cargo-fuzz target from the committed seeds: no finding."""
    cargo = cargo_fuzz
    run = subprocess.run(
        [
            *cargo,
            "run",
            target,
            str(tmp_path),
            str(FUZZ / "seeds"),
            "--",
            f"-max_total_time={SECONDS}",
            "-max_len=4096",
            "-timeout=60",
            f"-artifact_prefix={tmp_path}/",
        ],
        cwd=FUZZ,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Done " in run.stderr, run.stderr[-3000:]


def test_atheris_harness_runs_clean(tmp_path: Path) -> None:
    """A few seconds of the atheris harness from the committed seeds: no finding."""
    if importlib.util.find_spec("atheris") is None:
        need_module("atheris")
    run = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "atheris_parser.py"),
            str(tmp_path),
            str(FUZZ / "seeds"),
            f"-max_total_time={SECONDS}",
            "-max_len=4096",
            "-timeout=60",
            f"-artifact_prefix={tmp_path}/",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Done " in run.stderr, run.stderr[-3000:]

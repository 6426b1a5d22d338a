"""The fuzzers, for a few seconds each: the cargo-fuzz targets of the Rust core and the
atheris harness of the Python API (both backends). The long runs are `fuzz/run.sh [seconds]`
(docs/hostile.md). Each skips, saying why, where its tool is not installed.

The cargo-fuzz build goes to a target folder outside the work tree
($JSONDRIP_FUZZ_TARGET_DIR, default ~/.cache/jsondrip-fuzz-target/<checkout>, one per
checkout path), so it is built once per checkout, not at every run; a first build takes a
minute or two and is not counted here: the test skips if the targets are not built yet and
`JSONDRIP_FUZZ_BUILD=1` (which `.ci/run` sets) is not set.
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


# `.ci/run` sets JSONDRIP_FUZZ_BUILD=1 after installing the tools: there a missing tool is a
# failure, never a skip, so a broken set-up cannot pass as "skipped".
REQUIRED = os.environ.get("JSONDRIP_FUZZ_BUILD") == "1"


def _missing(why: str) -> None:
    """Skip on a machine without the fuzzing tools; fail where they are required."""
    if REQUIRED:
        pytest.fail(f"{why}, and JSONDRIP_FUZZ_BUILD=1 requires it")
    pytest.skip(why)


def _cargo_fuzz() -> list[str]:
    """The cargo command that runs cargo-fuzz (nightly if installed, else RUSTC_BOOTSTRAP)."""
    if shutil.which("cargo") is None:
        _missing("cargo is not installed; the long runs are documented in docs/hostile.md")
    found = subprocess.run(["cargo", "fuzz", "--version"], capture_output=True, text=True)
    if found.returncode != 0:
        _missing("cargo-fuzz is not installed (`cargo install cargo-fuzz`)")
    toolchains = subprocess.run(["rustup", "toolchain", "list"], capture_output=True, text=True)
    if "nightly" in toolchains.stdout:
        return ["cargo", "+nightly", "fuzz"]
    return ["cargo", "fuzz"]


def _env() -> dict[str, str]:
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET_DIR), RUSTC_BOOTSTRAP="1")
    env.pop("RUSTFLAGS", None)
    return env


@pytest.mark.parametrize("target", TARGETS)
def test_cargo_fuzz_target_runs_clean(target: str, tmp_path: Path) -> None:
    """A few seconds of one cargo-fuzz target from the committed seeds: no finding."""
    cargo = _cargo_fuzz()
    binary = TARGET_DIR / "x86_64-unknown-linux-gnu" / "release" / target
    if not binary.exists() and not REQUIRED:
        pytest.skip(f"{binary} is not built: run fuzz/run.sh once, or set JSONDRIP_FUZZ_BUILD=1")
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
        _missing("atheris is not installed (`pip install atheris`)")
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

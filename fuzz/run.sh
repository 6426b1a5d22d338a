#!/usr/bin/env bash
# Long fuzz runs of jsondrip: the three cargo-fuzz targets of the Rust core, then the atheris
# harness of the Python API (both backends). Usage: fuzz/run.sh [seconds per fuzzer] (default
# 1800, the issue's 30 minutes). Needs a nightly toolchain (or RUSTC_BOOTSTRAP=1 on stable),
# `cargo install cargo-fuzz` and `pip install atheris`; see docs/hostile.md.
#
# Crashes land in fuzz/artifacts/<target>/ (cargo-fuzz) and fuzz/artifacts/atheris/; each
# one found becomes a plain test in tests/hostile/test_regressions.py. The corpora grow in
# fuzz/corpus/<target>/ (not committed) and start from the seeds in fuzz/seeds/.
# -timeout=300: at nice 19 on a busy machine a fuzzer can be starved for many seconds, and
# libFuzzer's default of 1200 s or a short one both mislead; no input of 4 KB takes a second.
set -euo pipefail
seconds="${1:-1800}"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# Seeds: fuzz/seeds, plus JSONTestSuite from the shared corpus when it is there.
seeds=(seeds)
suite="${JSONDRIP_CORPUS:-$here/../../shared/corpus}/jsontestsuite"
if [ -d "$suite" ]; then
    seeds+=("$suite")
fi
# The same build folder as tests/hostile/test_fuzz_smoke.py: one per checkout, built once.
checkout="$(printf %s "$(cd "$here/.." && pwd -P)" | sha1sum | cut -c1-12)"
export CARGO_TARGET_DIR="${JSONDRIP_FUZZ_TARGET_DIR:-$HOME/.cache/jsondrip-fuzz-target/$checkout}"
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    toolchain=(+nightly)
else
    export RUSTC_BOOTSTRAP=1
fi
for target in stream_split differential scanner_vs_machine; do
    mkdir -p "corpus/$target" "artifacts/$target"
    echo "== cargo fuzz run $target for ${seconds}s"
    nice -n 19 cargo "${toolchain[@]}" fuzz run "$target" "corpus/$target" "${seeds[@]}" \
        -- -max_total_time="$seconds" -max_len=4096 -timeout=300 -rss_limit_mb=2048 \
        -print_final_stats=1
done
mkdir -p artifacts/atheris corpus/atheris
echo "== atheris harness for ${seconds}s"
nice -n 19 python "$here/atheris_parser.py" corpus/atheris "${seeds[@]}" \
    -max_total_time="$seconds" -max_len=4096 -timeout=300 -rss_limit_mb=2048 \
    -artifact_prefix=artifacts/atheris/ -print_final_stats=1

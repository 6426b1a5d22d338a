"""Typed streaming benchmark (issue 16): `python benches/bench_schema.py [--repeats N]`.

A thin wrapper: the measurement lives in `jsondrip.bench.schema` (also `jsondrip bench
--schema`). Prints the table and the issue's targets marked pass or FAIL; exit status 0.
"""

from __future__ import annotations

import argparse

from jsondrip.bench import schema

if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--repeats", type=int, default=7)
    args = options.parse_args()
    print(schema.report(schema.measure(repeats=args.repeats)))

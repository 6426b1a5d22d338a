"""Typed streaming benchmark (issue 16): `python benches/bench_schema.py [--repeats N]`.

A thin wrapper: the measurement lives in `jsondrip.bench.schema` (also `jsondrip bench
--schema`). Prints the table and the issue's targets marked pass or FAIL; exit status 0.

Targets (a 100 KB array of records against its schema, 4-character chunks, `progress()`
read after every chunk; ratios within one run; both backends reported):

1. the check costs at most 2x the same stream parsed without a schema, native backend
   (the check lives in rust/core/schema; the twin's ratio is reported);
2. at least 100x faster than re-validating the buffer after every chunk with pydantic's
   `experimental_allow_partial` (TypeAdapter of a TypedDict list), and than an
   instructor-style partial model rebuilt per chunk;
3. linear: 200 KB takes 2x the time of 100 KB, within 20%.
"""

from __future__ import annotations

import argparse

from jsondrip.bench import schema

if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--repeats", type=int, default=7)
    args = options.parse_args()
    print(schema.report(schema.measure(repeats=args.repeats)))

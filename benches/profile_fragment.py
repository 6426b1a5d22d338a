"""The loop to count under callgrind: `bench_fragment.py`'s fragments, without its timing.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --toggle-collect='*feed_entry*' \\
        python benches/profile_fragment.py [COUNT] [feed|floor] [SIZE]

A native `Parser`'s engine is first fed the first 100 KB of the records document in one piece
(through `_engine`, so that no count includes it), then the `Parser` takes `COUNT` (20,000)
`SIZE`-character fragments (4), one `Parser.feed` each (`floor`: one `dict.get` each,
the same loop's floor). Instructions are deterministic where time is not: the callgrind total
inside `feed_entry` (the front's `feed`, `rust/python/front.rs`) divided by `COUNT` is a
fragment's cost, and the whole program's total in `feed` mode less that in `floor` mode (no
`--toggle-collect`) is what a `feed` costs beyond `dict.get`, CPython's call included.
Counts at two sizes split a fragment's cost into what every call pays and what each
character adds (docs/bench.md).

The collector is run once before the loop: right after the imports, the first young
collections sweep the objects the imports made, and a count taken then charged about 110
instructions a fragment to the parse that steady running does not pay (docs/bench.md).
Build with fat LTO (`pip install .`, the release profile) for figures to compare with the
docs'; `CARGO_PROFILE_RELEASE_DEBUG=line-tables-only` keeps the counts and adds lines for
`callgrind_annotate --auto=yes`.
"""

from __future__ import annotations

import gc
import sys

from jsondrip import Parser
from jsondrip.bench.workloads import KB, records_text

PREFIX = 100 * KB


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    mode = sys.argv[2] if len(sys.argv) > 2 else "feed"
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    text = records_text(PREFIX + size * count + 4000)
    parser = Parser(backend="native")
    parser._engine.feed(text[:PREFIX])
    end = PREFIX + size * count
    pieces = [text[at : at + size] for at in range(PREFIX, end, size)]
    call = parser.feed if mode == "feed" else {"a": 1}.get
    gc.collect()
    for piece in pieces:
        call(piece)


if __name__ == "__main__":
    main()

# ruff: noqa: UP007, UP045 - pydantic evaluates annotations at run time; X | None needs 3.10
"""Structured output (issue 26): typed partials per delta against re-parsing the whole text.

    python benches/bench_output.py [--repeats N] [--clock wall|cpu] [--no-gc]

The streaming benchmark's records (`{"records": [...]}`, 100 KB and 200 KB of small records
with strings, numbers, enums and nested arrays) are a model's structured output, streamed as
4-character text deltas; the answer type is a pydantic model (`Doc`, a list of `Record`).
After every delta each contender gives the typed value so far:

- `jsondrip-<backend> partial`: `OutputParser(Doc)`, `feed(delta)` then `partial()`;
- `instructor`: instructor's own `Partial[Doc]` (installed: its `model_from_chunks` on the
  text so far, one step of its loop: jiter's partial parse of the whole text and the partial
  model built from it); without instructor, the same two steps written out (jiter, then
  `model_construct` of a model whose fields are all optional);
- `openai-style`: what openai-python's `.stream(response_format=Model)` does per chunk,
  `jiter.from_json(whole content, partial_mode=True)` (its `parsed` stays a dict).

The re-parsers cost a whole-text pass per delta: every `SAMPLE`-th call is timed and the sum
scaled (a stratified sample of the real total; the table says so), best of 2. Also, on pure
JSON without a schema: `OutputParser().feed` against a plain `Parser().feed`, every delta.

The two runs that each of jsondrip's ratios compares are timed in alternation in this one
process (`jsondrip.bench.timing.measure_interleaved`): 100 KB then 200 KB `partial()`,
`--repeats` rounds; `Parser` then `OutputParser`, five times as many (a run is short); the
best of each kept; the python backend's a quarter as many rounds. Each ratio then compares
runs that saw the same load. The two measurements of a ratio last as long (the 100 KB stream
is read twice in one, its time halved): under load, the best of long measurements comes out
higher than that of short ones, which biased 200 KB / 100 KB upwards. The collector stays
on, as in a program, with a full collection before each measurement; `--no-gc` turns it off
while timing, to tell its share (about 2% of `partial()`).

`--clock cpu` times every contender in this process's CPU time (`time.process_time`)
instead of the wall clock: on a shared machine under load, the time a contender waits for a
core is then left out of every figure alike (the ratios of a quiet run, measured on a busy
one).

Targets, each printed with pass or FAIL (ratios measured in one run; exit status 0 either
way, a report, not a gate):

1. jsondrip-native partial at least 100x faster than instructor and than openai-style;
2. the untyped OutputParser within 1.2x of a plain Parser on pure JSON (native);
3. linear: 200 KB takes 2x the time of 100 KB (within 20%), partial() after every delta.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, Literal, Optional, Union

import jiter
from pydantic import BaseModel

import jsondrip
from jsondrip.bench.schema import instructor_partial_models
from jsondrip.bench.timing import measure_interleaved
from jsondrip.bench.workloads import _CJK, _EMOJI, chunks, records_text

SAMPLE = 50
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]
DELTA = 4
SIZES = (100_000, 200_000)


class Record(BaseModel):
    """One record of the workload (bench/schema.py's RECORD_SCHEMA as a model)."""

    id: int
    name: str
    note: str
    city: Literal[tuple(_CJK)]  # type: ignore[valid-type]
    mood: Literal[tuple(_EMOJI)]  # type: ignore[valid-type]
    path: str
    score: float
    ratio: float
    count: int
    active: bool
    deleted: bool
    parent: Optional[int]
    tags: list[str]
    matrix: list[list[Union[int, float, bool, None]]]


class Doc(BaseModel):
    records: list[Record]


def _jsondrip_partial(backend: str) -> Callable[[list[str]], Any]:
    schema = jsondrip.Schema.from_model(Doc)

    def run(deltas: list[str]) -> Any:
        parser = jsondrip.OutputParser(schema, backend=backend)
        feed, partial = parser.feed, parser.partial
        for delta in deltas:
            feed(delta)
            partial()
        return parser.close()

    return run


def _feeds(make: Callable[[], Any]) -> Callable[[list[str]], Any]:
    def run(deltas: list[str]) -> Any:
        parser = make()
        feed = parser.feed
        for delta in deltas:
            feed(delta)
        return parser.close()

    return run


def _instructor_reads() -> tuple[str, Callable[[str], Any]]:
    """One step of instructor's partial loop on the whole text so far."""
    try:
        from instructor import Partial
    except ImportError:
        return "instructor-style (jiter + model_construct)", _instructor_style()
    partial = Partial[Doc]

    def read(text: str) -> Any:
        return next(iter(partial.model_from_chunks([text])))

    return "instructor (Partial[Doc])", read


def _instructor_style() -> Callable[[str], Any]:
    PartialRecord, PartialDoc = instructor_partial_models()

    def read(text: str) -> Any:
        value = jiter.from_json(text.encode(), partial_mode="trailing-strings")
        records = [PartialRecord.model_construct(**r) for r in value.get("records", ())]  # type: ignore[attr-defined]
        return PartialDoc.model_construct(records=records)  # type: ignore[attr-defined]

    return read


def _openai_reads(text: str) -> Any:
    return jiter.from_json(text.encode("utf-8"), partial_mode=True)


def _sampled(read: Callable[[str], Any], deltas: list[str]) -> float:
    """Seconds for reading the whole text after every delta, from every SAMPLE-th read."""
    total, text = 0.0, ""
    for i, delta in enumerate(deltas):
        text += delta
        if i % SAMPLE == SAMPLE - 1 or i == len(deltas) - 1:
            start = clock()
            read(text)
            total += clock() - start
    return total * SAMPLE


def _repeated(run: Callable[[list[str]], Any], times: int) -> Callable[[list[str]], Any]:
    def runs(deltas: list[str]) -> Any:
        for _ in range(times):
            out = run(deltas)
        return out

    return runs


def measure(repeats: int, keep_gc: bool = True) -> dict[str, dict[int, Optional[float]]]:
    """Seconds per contender and size, in one run: for each backend, each pair that a ratio
    compares timed in alternation (`partial()` on 100 KB and 200 KB, `repeats` rounds;
    `Parser` and `OutputParser` on pure JSON, 5 times as many: they are short), best of
    each, every measurement the same length (the 100 KB stream read twice in one, the 200 KB
    once: under load the best of longer measurements comes out higher); the python backend
    a quarter as many rounds. The re-parsers sampled, best of 2."""
    streams = {size: chunks(records_text(size), DELTA) for size in SIZES}
    backends = [b for b in ("native", "python") if b in jsondrip.available_backends()]
    times: dict[str, dict[int, Optional[float]]] = {}
    small, large = SIZES
    for backend in backends:
        partial = _jsondrip_partial(backend)
        parser = _feeds(lambda b=backend: jsondrip.Parser(backend=b))  # type: ignore[misc]
        output = _feeds(lambda b=backend: jsondrip.OutputParser(backend=b))  # type: ignore[misc]
        rounds = repeats if backend == "native" else max(2, repeats // 4)
        name = f"jsondrip-{backend} partial"
        # (name, size, run, how many times a measurement reads the stream), timed together
        pairs = [
            ([(name, small, partial, large // small), (name, large, partial, 1)], rounds),
            (
                [
                    (f"{backend} Parser, pure JSON", small, parser, 1),
                    (f"{backend} OutputParser, pure JSON", small, output, 1),
                ],
                rounds * 5,
            ),
        ]
        for runs, count in pairs:
            items = [(_repeated(run, reads), streams[size]) for _, size, run, reads in runs]
            seconds = measure_interleaved(items, count, 0.0, timer=clock, keep_gc=keep_gc)
            for (label, size, _, reads), taken in zip(runs, seconds):
                times.setdefault(label, {})[size] = None if taken is None else taken / reads
    instructor_name, instructor_read = _instructor_reads()
    for name, read in ((instructor_name, instructor_read), ("openai-style", _openai_reads)):
        for size, deltas in streams.items():
            times.setdefault(name, {})[size] = min(_sampled(read, deltas) for _ in range(2))
    return times


def _ms(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def report(times: dict[str, dict[int, Optional[float]]]) -> str:
    """The table and the targets, each marked pass or FAIL."""
    small, large = SIZES
    lines = ["| contender | " + " | ".join(f"{s // 1000} KB" for s in SIZES) + " |"]
    lines.append("|---|" + "---:|" * len(SIZES))
    for name, by_size in times.items():
        sampled = "" if name.startswith(("jsondrip", "native", "python")) else " (sampled)"
        cells = " | ".join(_ms(by_size.get(s)) for s in SIZES)
        lines.append(f"| {name}{sampled} | {cells} |")
    ours = times.get("jsondrip-native partial")
    targets: list[tuple[str, float, str]] = []
    if ours is not None:
        for name in times:
            if name.startswith(("instructor", "openai")):
                ratio = times[name][small] / ours[small]  # type: ignore[operator]
                verdict = "pass" if ratio >= 100 else "FAIL"
                targets.append((f"{name} / jsondrip-native partial", ratio, f">= 100x: {verdict}"))
        plain = times["native Parser, pure JSON"][small]
        output = times["native OutputParser, pure JSON"][small]
        ratio = output / plain  # type: ignore[operator]
        verdict = "pass" if ratio <= 1.2 else "FAIL"
        targets.append(("OutputParser / Parser, pure JSON, native", ratio, f"<= 1.2x: {verdict}"))
        ratio = ours[large] / ours[small]  # type: ignore[operator]
        verdict = "pass" if 1.6 <= ratio <= 2.4 else "FAIL"
        label = f"jsondrip-native partial, {large // 1000} KB / {small // 1000} KB"
        targets.append((label, ratio, f"2x +- 20%: {verdict}"))
    if "jsondrip-python partial" in times:
        python = times["jsondrip-python partial"]
        ratio = python[large] / python[small]  # type: ignore[operator]
        label = f"jsondrip-python partial, {large // 1000} KB / {small // 1000} KB"
        targets.append((label, ratio, "(reported)"))
        plain = times["python Parser, pure JSON"][small]
        output = times["python OutputParser, pure JSON"][small]
        ratio = output / plain  # type: ignore[operator]
        targets.append(("OutputParser / Parser, pure JSON, python", ratio, "(reported)"))
    lines += ["", "| ratio (same run) | value | target |", "|---|---:|---|"]
    lines += [f"| {label} | {value:.2f}x | {verdict} |" for label, value, verdict in targets]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--repeats", type=int, default=20)
    options.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    options.add_argument(
        "--no-gc", action="store_true", help="the collector off while timing (to tell its share)"
    )
    args = options.parse_args()
    clock = CLOCKS[args.clock]
    print(f"clock: {args.clock}, collector {'off' if args.no_gc else 'on'}\n")
    print(report(measure(args.repeats, keep_gc=not args.no_gc)))

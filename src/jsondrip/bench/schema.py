# ruff: noqa: UP007, UP045 - pydantic evaluates annotations at run time; X | None needs 3.10
"""Typed streaming: jsondrip's schema check against re-validating the buffer per chunk.

The streaming benchmark's records (100 KB and 200 KB, 4-character chunks) against their
schema (objects with required fields, enums, bounded numbers, nested arrays), the typed view
read after every chunk. Contenders:

- `jsondrip-<backend> typed`: `Parser(schema=...)`, `progress("/records")` after every chunk;
- `jsondrip-<backend> plain`: the same stream without a schema (the 2x budget's reference);
- `pydantic allow_partial`: `TypeAdapter(Doc).validate_json(buffer,
  experimental_allow_partial=True)` on the whole buffer after every chunk (Doc a TypedDict);
- `instructor-style`: jiter's partial parse of the whole buffer, then a partial model
  (every field optional) validated from it, after every chunk (instructor's `Partial[Model]`).

The re-validators cost one whole-buffer pass per chunk: every `SAMPLE`-th read is timed and
the sum scaled (a stratified sample of the real total; the table says so), best of 3.
Every time is CPU time of this process (`time.process_time`): all of it is single-threaded
and CPU-bound, and on a shared machine wall time also counts the waits for a core.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

from .workloads import _CJK, _EMOJI, chunks, records_text

SAMPLE = 50
CHUNK = 4

RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 0},
        "name": {"type": "string"},
        "note": {"type": "string"},
        "city": {"enum": list(_CJK)},
        "mood": {"enum": list(_EMOJI)},
        "path": {"type": "string"},
        "score": {"type": "number", "minimum": -1000, "maximum": 1000},
        "ratio": {"type": "number", "minimum": 0},
        "count": {"type": "integer", "minimum": -(10**6), "maximum": 10**6},
        "active": {"type": "boolean"},
        "deleted": {"type": "boolean"},
        "parent": {"type": ["integer", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "matrix": {
            "type": "array",
            "items": {"type": "array", "items": {"type": ["number", "boolean", "null"]}},
        },
    },
    "required": [
        "id", "name", "note", "city", "mood", "path", "score", "ratio", "count", "active",
        "deleted", "parent", "tags", "matrix",
    ],
    "additionalProperties": False,
}  # fmt: skip
DOCUMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"records": {"type": "array", "items": RECORD_SCHEMA}},
    "required": ["records"],
    "additionalProperties": False,
}


def _jsondrip(backend: str, typed: bool) -> Callable[[list[str]], Any]:
    from .._parser import Parser
    from ..schema.schema import Schema

    schema = Schema(DOCUMENT_SCHEMA) if typed else None

    def run(pieces: list[str]) -> Any:
        parser = Parser(schema=schema, backend=backend)
        if schema is None:
            feed = parser.feed
            for piece in pieces:
                feed(piece)
        else:
            feed, progress = parser.feed, parser.progress
            for piece in pieces:
                feed(piece)
                progress("/records")
        return parser.close()

    return run


def _pydantic_reads() -> Callable[[str], Any]:
    from typing import Literal, Optional, Union

    from pydantic import TypeAdapter
    from typing_extensions import TypedDict

    Record = TypedDict(  # noqa: UP013 - the keys are not all identifiers in spirit
        "Record",
        {
            "id": int, "name": str, "note": str, "city": Literal[tuple(_CJK)],  # type: ignore[misc]
            "mood": Literal[tuple(_EMOJI)], "path": str, "score": float, "ratio": float,  # type: ignore[misc]
            "count": int, "active": bool, "deleted": bool, "parent": Optional[int],
            "tags": list[str], "matrix": list[list[Union[int, float, bool, None]]],
        },
    )  # fmt: skip
    Doc = TypedDict("Doc", {"records": list[Record]})  # type: ignore[valid-type]  # noqa: UP013
    adapter = TypeAdapter(Doc)
    return lambda buffer: adapter.validate_json(buffer, experimental_allow_partial=True)


def instructor_partial_models() -> tuple[type, type]:
    """The records document as instructor's `Partial[Doc]` makes it (every field Optional,
    default None): (PartialRecord, PartialDoc). Needs pydantic."""
    from typing import Union

    from pydantic import BaseModel

    class PartialRecord(BaseModel):
        id: Optional[int] = None
        name: Optional[str] = None
        note: Optional[str] = None
        city: Optional[str] = None  # a half-written Literal would fail (instructor #879)
        mood: Optional[str] = None
        path: Optional[str] = None
        score: Optional[float] = None
        ratio: Optional[float] = None
        count: Optional[int] = None
        active: Optional[bool] = None
        deleted: Optional[bool] = None
        parent: Optional[int] = None
        tags: Optional[list[str]] = None
        matrix: Optional[list[list[Union[int, float, bool, None]]]] = None

    class PartialDoc(BaseModel):
        records: Optional[list[PartialRecord]] = None

    return PartialRecord, PartialDoc


def _instructor_reads() -> Callable[[str], Any]:
    import jiter

    _, PartialDoc = instructor_partial_models()

    def read(buffer: str) -> Any:
        value = jiter.from_json(buffer.encode(), partial_mode="trailing-strings")
        return PartialDoc.model_validate(value)  # type: ignore[attr-defined]

    return read


def _sampled(read: Callable[[str], Any], pieces: list[str]) -> float:
    """Seconds for reading the whole buffer after every chunk, from every SAMPLE-th read."""
    total = 0.0
    buffer = ""
    for i, piece in enumerate(pieces):
        buffer += piece
        if i % SAMPLE == SAMPLE - 1 or i == len(pieces) - 1:
            start = time.process_time()
            read(buffer)
            total += time.process_time() - start
    return total * SAMPLE


def _best(run: Callable[[list[str]], Any], pieces: list[str], repeats: int) -> float:
    """Best CPU seconds of this process (`time.process_time`) of `repeats` runs: each run is
    single-threaded and CPU-bound, and on a shared machine wall time would also count the
    waits for a core, which hit the longer (typed) run more often than the shorter one."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        run(pieces)
        best = min(best, time.process_time() - start)
    return best


def measure(repeats: int = 7, sizes: tuple[int, ...] = (100_000, 200_000)) -> dict[str, Any]:
    """Seconds per contender and size, in one run. jsondrip's runs are interleaved (each
    repeat runs every contender and size once, the best is kept), so a change in the
    machine's load between them does not skew their ratios."""
    import gc

    times: dict[str, dict[int, Optional[float]]] = {}
    streams = {size: chunks(records_text(size), CHUNK) for size in sizes}
    runs = [
        ("jsondrip-native plain", _jsondrip("native", False)),
        ("jsondrip-native typed", _jsondrip("native", True)),
        ("jsondrip-python plain", _jsondrip("python", False)),
        ("jsondrip-python typed", _jsondrip("python", True)),
    ]
    for _ in range(repeats):
        for size, pieces in streams.items():
            for name, run in runs:
                gc.collect()
                best = times.setdefault(name, {}).get(size)
                seconds = _best(run, pieces, 1)
                times[name][size] = seconds if best is None else min(best, seconds)
    for size, pieces in streams.items():
        for name, make in (
            ("pydantic allow_partial", _pydantic_reads),
            ("instructor-style", _instructor_reads),
        ):
            try:
                read = make()
            except ImportError:
                times.setdefault(name, {})[size] = None
                continue
            times.setdefault(name, {})[size] = min(_sampled(read, pieces) for _ in range(3))
    return {"sizes": list(sizes), "times": times}


def _ms(seconds: Optional[float]) -> str:
    if seconds is None:
        return "not installed"
    return f"{seconds * 1e3:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def report(results: dict[str, Any]) -> str:
    """The Markdown table and the issue's targets, each marked pass or FAIL."""
    sizes, times = results["sizes"], results["times"]
    lines = ["| contender | " + " | ".join(f"records, {s // 1000} KB" for s in sizes) + " |"]
    lines.append("|---|" + "---:|" * len(sizes))
    for name, by_size in times.items():
        sampled = (
            f" (sampled 1/{SAMPLE})"
            if name in ("pydantic allow_partial", "instructor-style")
            else ""
        )
        lines.append(f"| {name}{sampled} | " + " | ".join(_ms(by_size[s]) for s in sizes) + " |")
    small, large = sizes[0], sizes[-1]
    native = times["jsondrip-native typed"]
    python = times["jsondrip-python typed"]
    targets = [
        ("typed / plain, native", native[small] / times["jsondrip-native plain"][small], "<=", 2.0),
        (
            "typed / plain, python",
            python[small] / times["jsondrip-python plain"][small],
            "report",
            None,
        ),
    ]
    for peer in ("pydantic allow_partial", "instructor-style"):
        if times[peer][small] is not None:
            targets.append(
                (f"{peer} / typed native", times[peer][small] / native[small], ">=", 100.0)
            )
            targets.append(
                (f"{peer} / typed python", times[peer][small] / python[small], "report", None)
            )
    targets.append(
        (
            f"typed native, {large // 1000} KB / {small // 1000} KB",
            native[large] / native[small],
            "linear",
            2.0,
        )
    )
    targets.append(
        (
            f"typed python, {large // 1000} KB / {small // 1000} KB",
            python[large] / python[small],
            "linear",
            2.0,
        )
    )
    lines += ["", "| ratio (same run) | value | target |", "|---|---|---|"]
    for label, value, kind, bound in targets:
        if kind == "<=":
            verdict = f"<= {bound:g}x: " + ("pass" if value <= bound else "FAIL")
        elif kind == ">=":
            verdict = f">= {bound:g}x: " + ("pass" if value >= bound else "FAIL")
        elif kind == "linear":
            verdict = "2x +- 20%: " + ("pass" if 1.6 <= value <= 2.4 else "FAIL")
        else:
            verdict = "(reported)"
        lines.append(f"| {label} | {value:.2f}x | {verdict} |")
    return "\n".join(lines) + "\n"

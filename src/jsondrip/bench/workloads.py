"""Deterministic streaming workloads shaped like LLM tool-call arguments.

Three documents, each generated from a seeded ``random.Random`` so every run sees the same text:

- ``records``: ``{"records": [...]}`` of small records (strings with escapes, raw and escaped
  non-ASCII text, CJK, emoji, floats, ints, bools, nulls, nested arrays), grown record by record
  until the UTF-8 text reaches the requested size. The same seed gives the same records, so a
  larger document starts with a smaller one's records.
- ``code``: ``{"path": ..., "content": "..."}`` where ``content`` is one long ASCII source-code
  string full of braces, quotes, backslashes, tabs and newlines.
- ``small``: a ~75-byte tool call.

Chunks are slices of the ``str`` (code points); the text is mostly ASCII, so a 4-character chunk
is ~4 bytes. This is how SDKs hand out deltas (as ``str``), and it is the only form jsonriver
takes. ``benches/workloads.py`` re-exports this module for the issue-2 streaming benchmark.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

KB = 1000
SEED = 20261122

_WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "sensor",
    "reading",
    "value",
    "status",
    "ok",
    "error",
    "retry",
    "queue",
    "batch",
    "north",
    "south",
    "east",
    "west",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
]
_CJK = ["東京", "北京市", "数据", "温度", "天气预报", "한국어", "日本語のテキスト", "上海"]
_EMOJI = ["\U0001f389", "\U0001f680", "\u2603", "\U0001f600", "\u00e9t\u00e9", "na\u00efve"]
_NASTY = ["\n", '"', "\\", "\t", "/", "\u00e9", "\u00fc", "\r\n", "\b", "\u2028"]


@dataclass(frozen=True)
class Workload:
    """One document and how it is cut into chunks."""

    name: str
    text: str
    chunk_size: int

    @property
    def chunks(self) -> list[str]:
        """The document cut into ``chunk_size``-character chunks."""
        return chunks(self.text, self.chunk_size)

    @property
    def nbytes(self) -> int:
        """Size of the document in UTF-8 bytes."""
        return len(self.text.encode("utf-8"))


def chunks(text: str, size: int) -> list[str]:
    """Cut ``text`` into consecutive pieces of ``size`` characters (the last may be shorter)."""
    if size < 1:
        raise ValueError("chunk size must be positive")
    return [text[i : i + size] for i in range(0, len(text), size)]


def _dump(value: object, rng: random.Random) -> str:
    """JSON text of ``value``; each string is randomly written with raw or escaped non-ASCII."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=rng.random() < 0.35)
    if isinstance(value, dict):
        items = (f"{_dump(k, rng)}: {_dump(v, rng)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_dump(v, rng) for v in value) + "]"
    return json.dumps(value)


def _phrase(rng: random.Random) -> str:
    parts = [rng.choice(_WORDS) for _ in range(rng.randint(1, 6))]
    for _ in range(rng.randint(0, 3)):
        parts.insert(rng.randint(0, len(parts)), rng.choice(_NASTY + _CJK + _EMOJI))
    return " ".join(parts)


def _record(i: int, rng: random.Random) -> dict[str, object]:
    return {
        "id": i,
        "name": f'{rng.choice(_WORDS).title()} "{rng.choice(_WORDS)}" {rng.choice(_CJK)}',
        "note": _phrase(rng),
        "city": rng.choice(_CJK),
        "mood": rng.choice(_EMOJI),
        "path": "C:\\data\\" + rng.choice(_WORDS) + "\\file.txt",
        "score": round(rng.uniform(-1000, 1000), rng.randint(0, 6)),
        "ratio": rng.choice([rng.random(), rng.random() * 1e-7, rng.random() * 1e21]),
        "count": rng.randint(-(10**6), 10**6),
        "active": rng.random() < 0.5,
        "deleted": rng.random() < 0.1,
        "parent": None if rng.random() < 0.7 else rng.randint(0, i + 1),
        "tags": [rng.choice(_WORDS) for _ in range(rng.randint(0, 4))],
        "matrix": [
            [
                rng.choice([rng.randint(0, 99), round(rng.random(), 3), None, True])
                for _ in range(rng.randint(0, 3))
            ]
            for _ in range(rng.randint(0, 3))
        ],
    }


def records_text(size: int = 100 * KB, seed: int = SEED) -> str:
    """``{"records": [...]}`` whose UTF-8 text is at least ``size`` bytes (and about that)."""
    rng = random.Random(seed)
    head, tail = '{"records": [', "]}"
    parts: list[str] = []
    total = len(head) + len(tail)
    i = 0
    while total < size:
        part = _dump(_record(i, rng), rng)
        parts.append(part)
        total += len(part.encode("utf-8")) + (2 if i else 0)
        i += 1
    return head + ", ".join(parts) + tail


_CODE_LINES = (
    "def {w}_{n}(self, items: dict[str, int]) -> str:",
    '    """Return the {w} of {{items}} as "text"."""',
    "    if not items:{{}}",
    '        raise ValueError(f"no {w}: {{items!r}}\\n")',
    "    pattern = re.compile(r'^\\s*(\\d+)\\.(\\w+)\\\\$')",
    '\tresult = {{"{w}": [1, 2, 3], "nested": {{"k": "v\\"q\\""}}}}',
    '    path = "C:\\\\Users\\\\{w}\\\\file.txt"',
    '    return "{{}} -> {{}}".format(self.{w}, items.get("{w}", 0))',
    "function {w}{n}(a, b) {{ return a.{w} === b ? `${{a}}` : '{w}\\'s'; }}",
    '    /* {w} */ printf("%s\\t%d\\n", name, {n});',
    "",
    "# {w}: braces {{ }} [ ] and quotes ' \" \\",
)


def code_text(size: int = 100 * KB, seed: int = SEED) -> str:
    """``{"path": ..., "content": "<source code>"}`` of at least ``size`` bytes of JSON text."""
    rng = random.Random(seed)
    lines: list[str] = []
    budget = size - 60
    total = 0
    while total < budget:
        template = rng.choice(_CODE_LINES)
        line = template.format(w=rng.choice(_WORDS), n=rng.randint(0, 999))
        lines.append(line)
        total += len(json.dumps(line)) - 2 + 2  # escaped line plus its "\n"
    content = "\n".join(lines) + "\n"
    return json.dumps({"path": "src/app/generated_module.py", "content": content})


def small_text() -> str:
    """A ~70-byte tool call."""
    return '{"location": "Paris, France", "unit": "celsius", "days": 3, "hourly": true}'


SIZED = {"records": records_text, "code": code_text}
"""The workloads that come in several sizes, by key."""

TITLES = {"records": "records", "code": "one long string", "small": "small call"}
"""How each workload is named in tables and plots."""


@dataclass(frozen=True)
class Case:
    """One streaming measurement: a workload at one size, cut into chunks of one size."""

    workload: str  # a key of TITLES
    size: int  # requested size in bytes (the text is about that long)
    chunk_size: int
    text: str

    @property
    def chunks(self) -> list[str]:
        """The text cut into ``chunk_size``-character chunks."""
        return chunks(self.text, self.chunk_size)

    @property
    def nbytes(self) -> int:
        """Size of the document in UTF-8 bytes."""
        return len(self.text.encode("utf-8"))


def size_label(size: int) -> str:
    """``1000`` -> ``"1 KB"``, ``631515`` -> ``"632 KB"``, ``75`` -> ``"75 B"`` (decimal units)."""
    for unit, scale in (("MB", KB * KB), ("KB", KB)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} B"


SMALL_CHUNK = 1
"""The small call is always measured in 1-character chunks too (the README's column), so a
quick run and a full run report it alike."""


def cases(sizes: list[int], chunk_sizes: list[int]) -> list[Case]:
    """Every sized workload at every size and chunk size, then the small call per chunk size
    and at `SMALL_CHUNK`.

    Ordered by workload, chunk size, then size, so a contender meets the small sizes first.
    """
    out: list[Case] = []
    for key, make in SIZED.items():
        texts = {size: make(size) for size in sizes}
        for chunk_size in chunk_sizes:
            out += [Case(key, size, chunk_size, texts[size]) for size in sizes]
    small = small_text()
    small_chunks = sorted({SMALL_CHUNK, *chunk_sizes})
    out += [Case("small", len(small), chunk_size, small) for chunk_size in small_chunks]
    return out

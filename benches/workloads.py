"""Deterministic streaming workloads shaped like LLM tool-call arguments.

Three documents, each generated from a seeded ``random.Random`` so every run sees the same text:

- ``records``: ``{"records": [...]}`` of small records (strings with escapes, raw and escaped
  non-ASCII text, CJK, emoji, floats, ints, bools, nulls, nested arrays), grown record by record
  until the UTF-8 text reaches the requested size. The same seed gives the same records, so the
  200 KB document starts with the 100 KB document's records.
- ``code``: ``{"path": ..., "content": "..."}`` where ``content`` is one long ASCII source-code
  string full of braces, quotes, backslashes, tabs and newlines.
- ``small``: a ~70-byte tool call.

Chunks are slices of the ``str`` (code points); the text is mostly ASCII, so a 4-character chunk
is ~4 bytes. This is how SDKs hand out deltas (as ``str``), and it is the only form jsonriver takes.
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


def content_pieces(text: str, size: int, key: str = "content") -> list[str]:
    """What the decoded ``key`` string gains with each ``size``-character chunk of ``text``.

    Used for a stricter copy floor: appending these pieces copies exactly the decoded string
    (shorter than the raw text, since escapes decode to one character) once per chunk.
    """
    value = json.loads(text)[key]
    marker = json.dumps(key) + ": "
    start = text.index(marker) + len(marker) + 1  # first raw character inside the quotes
    # decoded_at[i]: decoded characters complete once raw text[:i] has arrived; an escape
    # counts only once its last character is in (jsondrip never shows half an escape).
    decoded_at = [0] * (len(text) + 1)
    count, i = 0, start
    while text[i] != '"':
        step = (6 if text[i + 1] == "u" else 2) if text[i] == "\\" else 1
        for j in range(i + 1, i + step):
            decoded_at[j] = count
        count += 1
        i += step
        decoded_at[i] = count
    for j in range(i, len(text) + 1):
        decoded_at[j] = count
    if count != len(value):
        raise ValueError("content_pieces handles strings without surrogate pairs only")
    pieces: list[str] = []
    prev = 0
    for end in range(size, len(text) + size, size):
        now = decoded_at[min(end, len(text))]
        pieces.append(value[prev:now])
        prev = now
    return pieces


def standard() -> dict[str, Workload]:
    """The issue's workloads, plus the 200 KB records document for the doubling check."""
    return {
        "records": Workload("records 100 KB", records_text(100 * KB), 4),
        "code": Workload("code 100 KB", code_text(100 * KB), 4),
        "small": Workload("small call", small_text(), 1),
        "records2x": Workload("records 200 KB", records_text(200 * KB), 4),
    }

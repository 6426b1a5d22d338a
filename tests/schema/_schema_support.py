"""Helpers for the schema tests: feed a document in given pieces and see what is reported."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jsondrip
from jsondrip.schema import Schema, SchemaViolation


def run(schema: Schema, pieces: Iterable[str], backend: str) -> tuple[SchemaViolation | None, int]:
    """Feed the pieces then close; the violation (or None) and how many pieces were fed
    before it (the piece that raised included)."""
    parser = jsondrip.Parser(schema=schema, backend=backend)
    fed = 0
    try:
        for piece in pieces:
            fed += 1
            parser.feed(piece)
        fed += 1
        parser.close()
    except SchemaViolation as violation:
        return violation, fed
    return None, fed


def first_flag(schema: Schema, text: str, backend: str) -> int | None:
    """Fed a character at a time: the length of the shortest prefix flagged (None if none,
    len(text) + 1 if only close() flags it)."""
    violation, fed = run(schema, text, backend)
    return None if violation is None else fed


def key(violation: SchemaViolation | None) -> Any:
    return None if violation is None else (violation.path, violation.pos, violation.keyword)

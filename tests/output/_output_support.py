"""Helpers for the structured-output tests: feeding a text in pieces, and what came out."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from typing import Any

import jsondrip


def cuts(text: str, seed: int, most: int = 7) -> list[str]:
    """`text` cut at random places into pieces of 1 to `most` characters."""
    rng = random.Random(seed)
    pieces, i = [], 0
    while i < len(text):
        j = i + rng.randint(1, most)
        pieces.append(text[i:j])
        i = j
    return pieces


def splits(text: str) -> dict[str, list[str]]:
    """The ways every text is fed: whole, a character at a time, and at random cuts."""
    ways = {"whole": [text], "chars": list(text)}
    for seed in range(3):
        ways[f"cut{seed}"] = cuts(text, seed)
    return ways


def outcome(pieces: Iterable[str], **options: Any) -> tuple[Any, ...]:
    """Feed the pieces, then close: (result or error, text, reasoning, values shown)."""
    parser = jsondrip.OutputParser(**options)
    shown = []
    try:
        for piece in pieces:
            shown.append(copy.deepcopy(parser.feed(piece)))
        result: Any = ("value", parser.close())
    except (jsondrip.JSONDecodeError, jsondrip.SchemaViolation) as error:
        result = (type(error).__name__, str(error), getattr(error, "pos", None))
    return result, parser.text, parser.reasoning, shown

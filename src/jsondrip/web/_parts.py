"""What the protocol adapters share: a call's id on the wire, and data-only SSE frames."""

from __future__ import annotations

import json
from typing import Any

from .._missing import MISSING


def call_id(index: int, id: str | None) -> str:
    """The provider's call id, or one made from the call's index when the stream sent none."""
    return id if id is not None else f"jsondrip-call-{index}"


def data_frame(payload: Any) -> str:
    """One `data:` SSE frame of JSON (what both protocols put on the wire)."""
    return f"data: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}\n\n"


def plain(value: Any) -> Any:
    """A call's arguments for JSON: None while no value has begun."""
    return None if value is MISSING else value


def changes_list(changes: Any) -> list[list[Any]]:
    """jsondrip changes as `[op, path, value]` lists."""
    return [[op, path, value] for op, path, value in changes]

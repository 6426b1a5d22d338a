"""Tool-call events as NDJSON: one JSON object per line, for `--json` or a non-terminal output.

Every line has an `"event"` key naming the event, then the event's fields:

    {"event": "tool_call_started", "index": 0, "id": "toolu_01...", "name": "write_file",
     "kind": "function"}
    {"event": "tool_call_delta", "index": 0, "id": "toolu_01...", "name": "write_file",
     "arguments_delta": "{\\"pa", "preview": {}}
    {"event": "tool_call_done", "index": 0, "id": "toolu_01...", "name": "write_file",
     "kind": "function", "choice": 0, "arguments": {...}, "raw": "{...}", "error": null,
     "complete": true}
    {"event": "text_delta", "text": "...", "choice": 0}
    {"event": "reasoning_delta", "text": "...", "choice": 0}
    {"event": "stream_done", "finish_reason": "tool_use"}

`MISSING` (nothing shown yet, or no value at all) is rendered by **omitting the key**: a delta
line without `"preview"` means the arguments have not begun, a `tool_call_done` line without
`"arguments"` means there is no value (see `"error"` and `"complete"`). A JSON `null` is always
a real `null`. An error is its message (a string). Text is UTF-8; a lone surrogate (which
`json.loads` keeps) is written as a `\\uXXXX` escape so that every line is valid UTF-8.
Events of a type this module does not know are written with all their dataclass fields.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Callable

from .._missing import MISSING

__all__ = ["dumps", "event_to_dict", "event_to_line", "tool_call_to_dict"]

_SURROGATE = re.compile("[\ud800-\udfff]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_TOOL_CALL_FIELDS = (
    "index",
    "id",
    "name",
    "kind",
    "choice",
    "arguments",
    "raw",
    "error",
    "complete",
)


def dumps(value: Any, *, indent: int | None = None) -> str:
    """JSON text of `value`, non-ASCII kept as is, lone surrogates escaped as `\\uXXXX`."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _plain(value: Any) -> Any:
    """An event field as a JSON-ready value: errors as their message, dataclasses as dicts."""
    if isinstance(value, BaseException):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def tool_call_to_dict(tool_call: Any) -> dict[str, Any]:
    """The fields of a finished ToolCall; `arguments` is left out when it is MISSING."""
    out: dict[str, Any] = {}
    for name in _TOOL_CALL_FIELDS:
        value = getattr(tool_call, name, MISSING)
        if value is MISSING:
            continue
        out[name] = _plain(value)
    return out


def event_name(event: Any) -> str:
    """`ToolCallStarted` -> `tool_call_started`."""
    return _CAMEL.sub("_", type(event).__name__).lower()


def event_to_dict(event: Any) -> dict[str, Any]:
    """One event as a dict with `"event"` first; MISSING fields are left out."""
    out: dict[str, Any] = {"event": event_name(event)}
    if dataclasses.is_dataclass(event):
        items = [(f.name, getattr(event, f.name)) for f in dataclasses.fields(event)]
    else:
        items = list(vars(event).items())
    for name, value in items:
        if value is MISSING:
            continue
        if name == "tool_call":
            out.update(tool_call_to_dict(value))
        else:
            out[name] = _plain(value)
    return out


def event_to_line(event: Any) -> str:
    """One event as one line of NDJSON, with its newline."""
    return dumps(event_to_dict(event)) + "\n"


class NdjsonSink:
    """Writes each event as a line and flushes, so that `| jq` sees events as they happen."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write

    def __enter__(self) -> NdjsonSink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def start(self, source: str, stream_format: str) -> None:
        """Nothing to write before the first event."""

    def handle(self, events: list[Any]) -> None:
        """Write every event in `events`, one line each."""
        if events:
            self._write("".join(event_to_line(event) for event in events))

    def finish(self, interrupted: bool = False) -> None:
        """Nothing to write after the last event."""

    def describe(self, provider: str) -> None:
        """The provider's format is not written: each event stands alone."""

"""jsondrip in the browser: tool-call events as server-sent events, and the JavaScript to read them.

- `module_path()` / `module_text()`: the dependency-free ES module `jsondrip.js`
  (`applyChanges`, `ToolCallClient`) that ships in this package, for a server to serve.
- `SSEEncoder`: a `ToolCallAccumulator`'s events as numbered SSE frames (`id:`, `event:`,
  JSON `data:`); `SSELog` keeps them so that a reconnecting `EventSource` (`Last-Event-ID`)
  gets every frame after the last it saw, none twice. Plain strings: any ASGI or WSGI
  framework streams them.
- `vercel` and `agui`: the same events in the Vercel AI SDK's UI message stream and in AG-UI.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .sse import CONTENT_TYPE, SSEEncoder, SSELog, parse_last_event_id

__all__ = [
    "CONTENT_TYPE",
    "SSEEncoder",
    "SSELog",
    "module_path",
    "module_text",
    "parse_last_event_id",
]

MODULE = "jsondrip.js"


def module_path() -> Path:
    """The path of the shipped ES module `jsondrip.js` (a real file inside the package)."""
    return Path(str(resources.files(__package__).joinpath(MODULE)))


def module_text() -> str:
    """The source of the shipped ES module, to serve as `text/javascript`."""
    return resources.files(__package__).joinpath(MODULE).read_text("utf-8")

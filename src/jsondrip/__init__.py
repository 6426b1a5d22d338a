"""jsondrip: incremental partial-JSON parsing for LLM streams.

A live best-effort value after every fragment, the exact `json.loads` value at the end, and
work in proportion to each fragment. `Parser` is the streaming API (with `schema=`, a
`Schema` checked as the text arrives, raising `SchemaViolation` at the first proof);
`parse_partial` reads one buffer that may be cut short; `loads`/`load` replace the standard
library's, so that `import jsondrip as json` works unchanged: `dumps`, `dump`, `JSONEncoder`,
`detect_encoding` and the `encoder` and `scanner` modules are the standard library's own;
`JSONDecoder` and `decoder` are too, except that their errors are `jsondrip.JSONDecodeError`,
so that one `except` catches every error.
"""

from __future__ import annotations

from json import JSONEncoder, detect_encoding, dump, dumps

from . import decoder, encoder, scanner
from ._changes import Change, apply_changes
from ._engine import available_backends
from ._errors import IncompleteJSONError, JSONDecodeError
from ._loads import load, loads
from ._missing import MISSING
from ._parser import Parser, aiter_values, iter_values, parse_partial
from ._version import __version__ as __version__
from .decoder import JSONDecoder

TYPE_CHECKING = False  # typing.TYPE_CHECKING for type checkers, without importing typing
if TYPE_CHECKING:  # the lazy names below, as type checkers and the API reference see them
    from . import bench as bench
    from . import cli as cli
    from . import markup as markup
    from . import output as output
    from . import schema as schema
    from . import toolcalls as toolcalls
    from . import web as web
    from .output.parser import OutputParser
    from .schema.progress import Progress
    from .schema.schema import Schema
    from .schema.violation import SchemaViolation
    from .toolcalls.accumulator import ToolCallAccumulator
    from .toolcalls.events import (
        OutputDelta,
        OutputDone,
        ReasoningDelta,
        StreamDone,
        TextDelta,
        ToolCall,
        ToolCallDelta,
        ToolCallDone,
        ToolCallStarted,
    )
del TYPE_CHECKING

# The layers above the parser load on first use (PEP 562), so that `import jsondrip` (and
# `import jsondrip as json`) costs what `loads` and `Parser` need: name -> defining module.
_LAZY = {
    "Progress": ".schema.progress",
    "Schema": ".schema.schema",
    "SchemaViolation": ".schema.violation",
    "OutputParser": ".output.parser",
    "OutputDelta": ".toolcalls.events",
    "OutputDone": ".toolcalls.events",
    "ReasoningDelta": ".toolcalls.events",
    "StreamDone": ".toolcalls.events",
    "TextDelta": ".toolcalls.events",
    "ToolCall": ".toolcalls.events",
    "ToolCallDelta": ".toolcalls.events",
    "ToolCallDone": ".toolcalls.events",
    "ToolCallStarted": ".toolcalls.events",
    "ToolCallAccumulator": ".toolcalls.accumulator",
}
_SUBPACKAGES = ("bench", "cli", "markup", "output", "schema", "toolcalls", "web")


def __getattr__(name: str) -> object:
    """A public name of a layer above the parser, imported on first use (then kept here)."""
    from importlib import import_module

    where = _LAZY.get(name)
    if where is not None:
        value = getattr(import_module(where, __name__), name)
    elif name in _SUBPACKAGES:
        value = import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_SUBPACKAGES})


__all__ = [
    "MISSING",
    "Change",
    "IncompleteJSONError",
    "JSONDecodeError",
    "JSONDecoder",
    "JSONEncoder",
    "OutputDelta",
    "OutputDone",
    "OutputParser",
    "Parser",
    "Progress",
    "ReasoningDelta",
    "Schema",
    "SchemaViolation",
    "StreamDone",
    "TextDelta",
    "ToolCall",
    "ToolCallAccumulator",
    "ToolCallDelta",
    "ToolCallDone",
    "ToolCallStarted",
    "aiter_values",
    "apply_changes",
    "available_backends",
    "decoder",
    "detect_encoding",
    "dump",
    "dumps",
    "encoder",
    "iter_values",
    "load",
    "loads",
    "parse_partial",
    "scanner",
]

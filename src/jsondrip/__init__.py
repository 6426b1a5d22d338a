"""jsondrip: incremental partial-JSON parsing for LLM streams.

A live best-effort value after every fragment, the exact `json.loads` value at the end, and
work in proportion to each fragment. `Parser` is the streaming API; `parse_partial` reads one
buffer that may be cut short; `loads`/`load` replace the standard library's (`dumps`, `dump`,
`JSONEncoder` and `JSONDecoder` are the standard library's own, so `import jsondrip as json`
works unchanged).
"""

from json import JSONDecoder, JSONEncoder, dump, dumps

from ._backends import available_backends
from ._changes import Change, apply_changes
from ._errors import IncompleteJSONError, JSONDecodeError
from ._loads import load, loads
from ._missing import MISSING
from ._parser import Parser, aiter_values, iter_values, parse_partial
from .toolcalls import (
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCall,
    ToolCallAccumulator,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

__all__ = [
    "MISSING",
    "Change",
    "IncompleteJSONError",
    "JSONDecodeError",
    "JSONDecoder",
    "JSONEncoder",
    "Parser",
    "ReasoningDelta",
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
    "dump",
    "dumps",
    "iter_values",
    "load",
    "loads",
    "parse_partial",
]
__version__ = "0.1.0"

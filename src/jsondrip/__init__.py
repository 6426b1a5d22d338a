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

from json import JSONEncoder, detect_encoding, dump, dumps

from . import decoder, encoder, scanner
from ._backends import available_backends
from ._changes import Change, apply_changes
from ._errors import IncompleteJSONError, JSONDecodeError
from ._loads import load, loads
from ._missing import MISSING
from ._parser import Parser, aiter_values, iter_values, parse_partial
from .decoder import JSONDecoder
from .output import OutputParser
from .schema import Progress, Schema, SchemaViolation
from .toolcalls import (
    OutputDelta,
    OutputDone,
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
__version__ = "0.1.0"

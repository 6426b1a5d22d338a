"""Live tool-call argument previews from OpenAI and Anthropic streams (sans-IO).

`ToolCallAccumulator` takes raw server-sent-event bytes (`feed_sse`) or decoded events
(`feed`: dicts, JSON text, `openai`/`anthropic` SDK objects) and returns events: a call
started, a fragment arrived (with a live preview of the arguments), a call is done (once,
with `complete` saying whether to act on it), text, reasoning, the response ended.
"""

from .accumulator import ToolCallAccumulator
from .events import (
    Event,
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolCallDone,
    ToolCallStarted,
)

__all__ = [
    "Event",
    "ReasoningDelta",
    "StreamDone",
    "TextDelta",
    "ToolCall",
    "ToolCallAccumulator",
    "ToolCallDelta",
    "ToolCallDone",
    "ToolCallStarted",
]

"""Live tool-call argument previews from LLM provider streams (sans-IO).

`ToolCallAccumulator` takes raw server-sent-event bytes (`feed_sse`), newline-delimited JSON
(`feed_lines`) or decoded events (`feed`: dicts, JSON text, SDK objects) from OpenAI (Chat
Completions and compatible servers, Responses), Anthropic, Gemini / Vertex AI, Bedrock,
Cohere and Ollama, and returns events: a call started, a fragment arrived (with a live preview
of the arguments), a call is done (once, with `complete` saying whether to act on it and
`kind` who runs it), text, reasoning, the response ended. With `text_tools=`, it also reads
the tool calls an open-weight model writes into its text (`feed_text`, or a provider's text
content), in the markup of its family (`toolcalls.text`).
"""

from .accumulator import ToolCallAccumulator
from .events import (
    Event,
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

__all__ = [
    "Event",
    "OutputDelta",
    "OutputDone",
    "ReasoningDelta",
    "StreamDone",
    "TextDelta",
    "ToolCall",
    "ToolCallAccumulator",
    "ToolCallDelta",
    "ToolCallDone",
    "ToolCallStarted",
]

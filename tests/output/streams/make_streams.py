"""Write the structured-output streams of this folder: `python make_streams.py`.

Each provider format the tool-call accumulator reads, in its own wire format (server-sent
events, or JSON lines for Bedrock and Ollama), carrying a model's answer in its text the way
the provider streams text: pure JSON, a fenced block, reasoning then a fence, prose around
the JSON, two documents, an answer cut by the token limit, and a refusal (or the provider's
nearest stop). The text deltas are cut every 3 to 5 characters, so every fence, tag and
document boundary falls inside deltas. `expected.json` says, for each file, what the
accumulator must report: the output (value, complete, the start of its error), the
reasoning and the prose. Both are written from the cases below, not by jsondrip.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
DOCUMENT = {
    "city": "Paris",
    "temperature": 21.5,
    "units": "C",
    "tags": ["sunny", "mild"],
    "note": 'a "quoted" {brace}, [bracket] and `tick`',
}
SECOND = {"city": "Oslo", "temperature": -3, "units": "C", "tags": [], "note": "snow"}
BODY = json.dumps(DOCUMENT)
PRETTY = json.dumps(DOCUMENT, indent=2)
THINKING = "The user wants {city} as JSON; [units] in C. <b>bold</b>"
FIELD_REASONING = "Let me check the weather."

# case -> (answer text, how it ends, expected value, expected prose, think-tag reasoning)
CASES: dict[str, tuple[str, str, Any, str, str]] = {
    "pure": (BODY, "normal", DOCUMENT, "", ""),
    "fenced": ("```json\n" + PRETTY + "\n```", "normal", DOCUMENT, "", ""),
    "think-fence": (
        f"<think>{THINKING}</think>\n```json\n{BODY}\n```",
        "normal",
        DOCUMENT,
        "\n",
        THINKING,
    ),
    "prose": (
        f"Sure! The {{city}} field holds the name [1].\n{BODY}\nLet me know.",
        "normal",
        DOCUMENT,
        "Sure! The {city} field holds the name [1].\nLet me know.",
        "",
    ),
    "several": (
        f"First:\n```json\n{BODY}\n```\nSecond:\n```\n{json.dumps(SECOND)}\n```\n",
        "normal",
        [DOCUMENT, SECOND],
        "First:\n\nSecond:\n\n",
        "",
    ),
    "truncated": ("```json\n" + BODY[:70], "truncated", None, "", ""),
    "refusal": ("", "refusal", None, "", ""),
}


def deltas(text: str) -> list[str]:
    """The text cut every 3, 4, 5, 3... characters."""
    out, i, step = [], 0, 0
    while i < len(text):
        size = 3 + step % 3
        out.append(text[i : i + size])
        i += size
        step += 1
    return out


def sse(events: list[tuple[str | None, dict[str, Any] | str]]) -> str:
    lines = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        body = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        lines.append(f"{head}data: {body}\n\n")
    return "".join(lines)


def jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


REFUSAL = "I'm sorry, I can't help with that."


def openai_chat(text: str, end: str, reasoning: bool) -> str:
    def chunk(delta: dict[str, Any], reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": reason}
        return {
            "id": "chatcmpl-output1",
            "object": "chat.completion.chunk",
            "created": 1767225600,
            "model": "gpt-4o-2024-08-06",
            "choices": [choice],
        }

    events: list[Any] = [(None, chunk({"role": "assistant", "content": "", "refusal": None}))]
    if reasoning:
        events += [(None, chunk({"reasoning_content": p})) for p in deltas(FIELD_REASONING)]
    events += [(None, chunk({"content": p})) for p in deltas(text)]
    if end == "refusal":
        events += [(None, chunk({"refusal": p})) for p in deltas(REFUSAL)]
    reason = {"normal": "stop", "truncated": "length", "refusal": "stop"}[end]
    events += [(None, chunk({}, reason)), (None, "[DONE]")]
    return sse(events)


def openai_responses(text: str, end: str, reasoning: bool) -> str:
    events: list[Any] = []
    sequence = 0

    def add(kind: str, **fields: Any) -> None:
        nonlocal sequence
        events.append((kind, {"type": kind, "sequence_number": sequence, **fields}))
        sequence += 1

    response = {"id": "resp_output1", "object": "response", "status": "in_progress"}
    add("response.created", response=response)
    add("response.in_progress", response=response)
    if reasoning:
        add("response.output_item.added", output_index=0, item={"id": "rs_1", "type": "reasoning"})
        for piece in deltas(FIELD_REASONING):
            add("response.reasoning_summary_text.delta", item_id="rs_1", delta=piece)
    item = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
    add("response.output_item.added", output_index=1, item=item)
    kind = "refusal" if end == "refusal" else "output_text"
    add("response.content_part.added", item_id="msg_1", output_index=1, part={"type": kind})
    for piece in deltas(REFUSAL if end == "refusal" else text):
        add(f"response.{kind}.delta", item_id="msg_1", output_index=1, delta=piece)
    if end == "truncated":
        incomplete = {**response, "status": "incomplete"}
        incomplete["incomplete_details"] = {"reason": "max_output_tokens"}
        add("response.incomplete", response=incomplete)
    else:
        add("response.output_item.done", output_index=1, item={**item, "status": "completed"})
        add("response.completed", response={**response, "status": "completed"})
    return sse(events)


def anthropic(text: str, end: str, reasoning: bool) -> str:
    message = {
        "id": "msg_output1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [],
        "stop_reason": None,
    }
    events: list[Any] = [("message_start", {"type": "message_start", "message": message})]
    index = 0
    if reasoning:
        events.append(
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "thinking", "thinking": ""},
                },
            )
        )
        for piece in deltas(FIELD_REASONING):
            delta = {"type": "thinking_delta", "thinking": piece}
            events.append(
                ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})
            )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
        index = 1
    block = {"type": "text", "text": ""}
    events.append(
        (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": block},
        )
    )
    for piece in deltas(text):
        delta = {"type": "text_delta", "text": piece}
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        )
    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    reason = {"normal": "end_turn", "truncated": "max_tokens", "refusal": "refusal"}[end]
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": reason}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return sse(events)


def gemini(text: str, end: str, reasoning: bool) -> str:
    def chunk(parts: list[dict[str, Any]], reason: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
        if reason:
            candidate["finishReason"] = reason
        return {
            "candidates": [candidate],
            "modelVersion": "gemini-2.5-flash",
            "responseId": "resp-output1",
        }

    events: list[Any] = []
    if reasoning:
        events += [(None, chunk([{"text": p, "thought": True}])) for p in deltas(FIELD_REASONING)]
    pieces = deltas(text) or [""]
    events += [(None, chunk([{"text": p}])) for p in pieces[:-1]]
    reason = {"normal": "STOP", "truncated": "MAX_TOKENS", "refusal": "SAFETY"}[end]
    events.append((None, chunk([{"text": pieces[-1]}], reason)))
    return sse(events)


def interactions(text: str, end: str, reasoning: bool) -> str:
    interaction = {"id": "v1_output1", "status": "in_progress", "object": "interaction"}
    events: list[Any] = [
        (None, {"interaction": interaction, "event_type": "interaction.created"}),
    ]
    index = 0
    if reasoning:
        events.append((None, {"index": 0, "step": {"type": "thought"}, "event_type": "step.start"}))
        for piece in deltas(FIELD_REASONING):
            delta = {"type": "text", "text": piece}
            events.append((None, {"index": 0, "delta": delta, "event_type": "step.delta"}))
        events.append((None, {"index": 0, "event_type": "step.stop"}))
        index = 1
    events.append((None, {"index": index, "step": {"type": "text"}, "event_type": "step.start"}))
    for piece in deltas(text):
        delta = {"type": "text", "text": piece}
        events.append((None, {"index": index, "delta": delta, "event_type": "step.delta"}))
    events.append((None, {"index": index, "event_type": "step.stop"}))
    status = {"normal": "completed", "truncated": "incomplete", "refusal": "failed"}[end]
    events.append(
        (
            None,
            {
                "interaction": {**interaction, "status": status},
                "event_type": "interaction.completed",
            },
        )
    )
    return sse(events)


def bedrock(text: str, end: str, reasoning: bool) -> str:
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    index = 0
    if reasoning:
        for piece in deltas(FIELD_REASONING):
            delta = {"reasoningContent": {"text": piece}}
            events.append({"contentBlockDelta": {"contentBlockIndex": 0, "delta": delta}})
        events.append({"contentBlockStop": {"contentBlockIndex": 0}})
        index = 1
    for piece in deltas(text):
        events.append({"contentBlockDelta": {"contentBlockIndex": index, "delta": {"text": piece}}})
    events.append({"contentBlockStop": {"contentBlockIndex": index}})
    reason = {"normal": "end_turn", "truncated": "max_tokens", "refusal": "content_filtered"}[end]
    events.append({"messageStop": {"stopReason": reason}})
    events.append({"metadata": {"usage": {"inputTokens": 12, "outputTokens": 40}}})
    return jsonl(events)


def cohere(text: str, end: str, reasoning: bool) -> str:
    message = {"role": "assistant", "content": [], "tool_plan": "", "tool_calls": []}
    begin = {"id": "c-output1", "type": "message-start", "delta": {"message": message}}
    events: list[Any] = [("message-start", begin)]
    index = 0
    if reasoning:
        start = {"message": {"content": {"type": "thinking", "thinking": ""}}}
        events.append(("content-start", {"type": "content-start", "index": 0, "delta": start}))
        for piece in deltas(FIELD_REASONING):
            delta = {"message": {"content": {"thinking": piece}}}
            events.append(("content-delta", {"type": "content-delta", "index": 0, "delta": delta}))
        events.append(("content-end", {"type": "content-end", "index": 0}))
        index = 1
    start = {"message": {"content": {"type": "text", "text": ""}}}
    events.append(("content-start", {"type": "content-start", "index": index, "delta": start}))
    for piece in deltas(REFUSAL if end == "refusal" else text):
        delta = {"message": {"content": {"text": piece}}}
        events.append(("content-delta", {"type": "content-delta", "index": index, "delta": delta}))
    events.append(("content-end", {"type": "content-end", "index": index}))
    reason = {"normal": "COMPLETE", "truncated": "MAX_TOKENS", "refusal": "COMPLETE"}[end]
    events.append(("message-end", {"type": "message-end", "delta": {"finish_reason": reason}}))
    return sse(events)


def ollama(text: str, end: str, reasoning: bool) -> str:
    def line(message: dict[str, Any], done: bool = False, **more: Any) -> dict[str, Any]:
        return {
            "model": "qwen3:8b",
            "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", **message},
            "done": done,
            **more,
        }

    events: list[dict[str, Any]] = []
    if reasoning:
        events += [line({"content": "", "thinking": p}) for p in deltas(FIELD_REASONING)]
    events += [line({"content": p}) for p in deltas(REFUSAL if end == "refusal" else text)]
    reason = {"normal": "stop", "truncated": "length", "refusal": "stop"}[end]
    events.append(line({"content": ""}, True, done_reason=reason))
    return jsonl(events)


FORMATS: dict[str, tuple[Callable[[str, str, bool], str], str]] = {
    "openai-chat": (openai_chat, "sse"),
    "openai-responses": (openai_responses, "sse"),
    "anthropic": (anthropic, "sse"),
    "gemini": (gemini, "sse"),
    "gemini-interactions": (interactions, "sse"),
    "bedrock": (bedrock, "jsonl"),
    "cohere": (cohere, "sse"),
    "ollama": (ollama, "jsonl"),
}
# what the provider's own words for each ending make of an output
ERRORS = {
    ("truncated", "gemini-interactions"): "stopped by the provider ('incomplete')",
    ("refusal", "openai-chat"): f"refused: {REFUSAL}",
    ("refusal", "openai-responses"): f"refused: {REFUSAL}",
    ("refusal", "anthropic"): "refused (the provider's stop reason 'refusal')",
    ("refusal", "gemini"): "stopped by the provider ('SAFETY')",
    ("refusal", "gemini-interactions"): "stopped by the provider ('failed')",
    ("refusal", "bedrock"): "stopped by the provider ('content_filtered')",
    ("refusal", "cohere"): "invalid JSON: No JSON document in the text",
    ("refusal", "ollama"): "invalid JSON: No JSON document in the text",
}
REASONING_FIELDS = {"think-fence"}  # these cases also send reasoning in the provider's field


def main() -> None:
    expected: dict[str, Any] = {}
    for name, (write, suffix) in FORMATS.items():
        for case, (text, end, value, prose, thought) in CASES.items():
            field = case in REASONING_FIELDS
            path = HERE / f"{name}_{case}.{suffix}"
            path.write_text(write(text, end, field), encoding="utf-8")
            error = None
            if end == "truncated":
                error = ERRORS.get((end, name), "truncated by the token limit")
            elif end == "refusal":
                error = ERRORS[(end, name)]
            if end == "refusal" and name in ("cohere", "ollama"):
                prose = REFUSAL  # the refusal is the model's text
            expected[path.name] = {
                "value": value,
                "complete": error is None,
                "error": error,
                "text": prose,
                "reasoning": (FIELD_REASONING if field else "") + thought,
                "multiple": case == "several",
            }
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

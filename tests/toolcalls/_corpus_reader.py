"""What each recorded stream contains, read the simplest way, independently of the library.

Each call is keyed by what its API says identifies it; its argument pieces are concatenated
(JSON-text providers) or its argument object is taken whole (Gemini, Anthropic input given
whole, Responses server items); Vertex's `partialArgs` are applied to a dict path by path.
Nothing here shares code with `jsondrip.toolcalls`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

Call = list[Any]  # [id, name, kind, raw text or None, value or None]


def decoded_events(path: Path) -> list[dict[str, Any]]:
    """The JSON events of a stream file (SSE `data:` lines, or JSON lines)."""
    if path.suffix == ".jsonl":
        lines = path.read_text("utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    out = []
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("data: ") and line != "data: [DONE]":
            out.append(json.loads(line[6:]))
    return out


def _set(target: dict[str, Any], path: str, value: Any, append: bool) -> None:
    """Apply one partialArgs piece: `$.a.b[0].c` = value (a string piece may append)."""
    steps: list[Any] = []
    for part in path[2:].replace("[", ".[").split("."):
        steps.append(int(part[1:-1]) if part.startswith("[") else part)
    node: Any = target
    for step, following in zip(steps, steps[1:]):
        if isinstance(step, int):
            while len(node) <= step:
                node.append([] if isinstance(following, int) else {})
            node = node[step]
        else:
            node = node.setdefault(step, [] if isinstance(following, int) else {})
    last = steps[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
    if append and isinstance(value, str) and isinstance(node[last], str):
        node[last] += value
    else:
        node[last] = value


def contents(path: Path) -> tuple[list[Call], dict[int, str], str]:
    """Each call as [id, name, kind, raw, value], text per choice, reasoning."""
    return read(path)[:3]  # type: ignore[return-value]


def close_points(path: Path) -> list[int | None]:
    """For each call, the number of the event in `decoded_events` that closes it: its own
    close event or its response's end (None: never closed)."""
    return read(path)[3]


def read(path: Path) -> tuple[list[Call], dict[int, str], str, list[int | None]]:
    """`contents`, and `close_points`."""
    calls: dict[Any, Call] = {}
    closed: dict[Any, int] = {}

    def close(number: int, *keys: Any) -> None:
        for key in keys:
            if key in calls and key not in closed:
                closed[key] = number

    def close_where(number: int, test: Any) -> None:
        close(number, *[key for key in calls if test(key)])

    text: dict[int, str] = {}
    reasoning = ""
    message = 0
    vertex: Call | None = None
    vertex_open_string: str | None = None

    def add_text(choice: int, piece: str) -> None:
        text[choice] = text.get(choice, "") + piece

    for number, event in enumerate(decoded_events(path)):
        kind = event.get("type")
        # -- OpenAI Chat Completions and compatible servers
        if isinstance(event.get("id"), str) and event.get("choices") is not None:
            message_key = event["id"]
        else:
            message_key = message
        for choice in event.get("choices") or []:
            delta = choice["delta"]
            content = delta.get("content")
            if isinstance(content, str) and content:
                add_text(choice["index"], content)
            elif isinstance(content, list):  # Mistral's typed parts
                for part in content:
                    if part["type"] == "thinking":
                        reasoning += "".join(p["text"] for p in part["thinking"])
                    else:
                        add_text(choice["index"], part["text"])
            piece = delta.get("reasoning_content") or delta.get("reasoning")
            reasoning += piece if isinstance(piece, str) else ""
            for position, tc in enumerate(delta.get("tool_calls") or []):
                fn = tc.get("function", {})
                key = (message_key, choice["index"], tc.get("index", tc.get("id", position)))
                entry = calls.setdefault(key, [tc.get("id"), "", "function", "", None])
                entry[1] += fn.get("name") or ""
                entry[3] += fn.get("arguments") or ""
            if choice.get("finish_reason"):
                index = choice["index"]
                prefix = (message_key, index)
                close_where(number, lambda k, p=prefix: type(k) is tuple and k[:2] == p)
        # -- Anthropic Messages
        if kind in ("message_start", "response.created"):
            message += 1
        if kind == "message_start":
            for position, block in enumerate(event["message"].get("content") or []):
                if "tool_use" in block["type"]:
                    server = "server" if block["type"] != "tool_use" else "function"
                    raw = json.dumps(block["input"], ensure_ascii=False)
                    calls[(message, position)] = [block["id"], block["name"], server, raw, None]
        elif kind == "content_block_start" and "tool_use" in event["content_block"]["type"]:
            block = event["content_block"]
            server = "function" if block["type"] == "tool_use" else "server"
            given = json.dumps(block["input"], ensure_ascii=False) if block.get("input") else ""
            calls[(message, event["index"])] = [block["id"], block["name"], server, given, None]
        elif kind == "content_block_stop":
            close(number, (message, event["index"]))
        elif kind in ("message_delta", "message_stop", "message-end"):
            close_where(number, lambda k, m=message: type(k) is tuple and k[0] == m)
        elif kind == "content_block_delta":
            delta = event["delta"]
            if delta["type"] == "input_json_delta":
                calls[(message, event["index"])][3] += delta["partial_json"]
            elif delta["type"] == "text_delta":
                add_text(0, delta["text"])
            elif delta["type"] == "thinking_delta":
                reasoning += delta["thinking"]
        # -- OpenAI Responses (and xAI, LM Studio, DeepSeek, Bedrock Mantle)
        elif kind == "response.output_item.added":
            item = event["item"]
            if item["type"] == "function_call":
                calls[item["id"]] = [item["call_id"], item["name"], "function", "", None]
            elif item["type"] == "custom_tool_call":
                calls[item["id"]] = [item["call_id"], item["name"], "server", "", None]
            elif item["type"] == "web_search_call":
                calls[item["id"]] = [item["id"], "web_search", "server", "", None]
        elif kind in (
            "response.function_call_arguments.delta",
            "response.custom_tool_call_input.delta",
        ):
            calls[event["item_id"]][3] += event["delta"]
        elif kind in (
            "response.function_call_arguments.done",
            "response.custom_tool_call_input.done",
        ):
            close(number, event["item_id"])
        elif kind in ("response.completed", "response.incomplete"):
            close_where(number, lambda k: type(k) is str)
        elif kind == "response.output_item.done":
            item = event["item"]
            close(number, item["id"])
            if item["id"] in calls:
                whole = item.get("arguments") or item.get("input")
                if item["type"] == "web_search_call":
                    whole = json.dumps(item["action"], ensure_ascii=False)
                calls[item["id"]][3] = whole
        elif kind == "response.output_text.delta":
            add_text(0, event["delta"])
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            reasoning += event["delta"]
        # -- Cohere v2
        elif kind == "tool-call-start":
            tc = event["delta"]["message"]["tool_calls"]
            fn = tc["function"]
            calls[(message, event["index"])] = [tc["id"], fn["name"], "function", "", None]
            calls[(message, event["index"])][3] += fn.get("arguments") or ""
        elif kind == "tool-call-end":
            close(number, (message, event["index"]))
        elif kind == "tool-call-delta":
            fn = event["delta"]["message"]["tool_calls"]["function"]
            calls[(message, event["index"])][3] += fn["arguments"]
        elif kind == "tool-plan-delta":
            reasoning += event["delta"]["message"]["tool_plan"]
        elif kind == "content-delta":
            content = event["delta"]["message"]["content"]
            if "thinking" in content:
                reasoning += content["thinking"]
            else:
                add_text(0, content["text"])
        # -- Gemini Interactions
        if event.get("event_type") == "step.start" and event["step"]["type"] == "function_call":
            step = event["step"]
            calls[("step", event["index"])] = [step["id"], step["name"], "function", "", None]
        elif event.get("event_type") == "step.delta" and "arguments" in event["delta"]:
            calls[("step", event["index"])][3] += event["delta"]["arguments"]
        elif event.get("event_type") == "step.stop":
            close(number, ("step", event["index"]))
        # -- Gemini and Vertex AI
        for candidate in event.get("candidates") or []:
            for part in candidate.get("content", {}).get("parts", []):
                if "text" in part:
                    if part.get("thought"):
                        reasoning += part["text"]
                    else:
                        add_text(0, part["text"])
                call = part.get("functionCall")
                if call is None:
                    continue
                if "name" in call:
                    entry = [call.get("id"), call["name"], "function", None, None]
                    calls[("gemini", number, call["name"])] = entry
                    if call.get("willContinue"):
                        vertex, vertex_open_string = entry, None
                        entry[4] = {}
                    elif "args" in call:
                        entry[3] = json.dumps(call["args"], ensure_ascii=False)
                    continue
                for piece in call.get("partialArgs") or []:
                    assert vertex is not None
                    value: Any = None
                    for field in ("stringValue", "numberValue", "boolValue"):
                        if field in piece:
                            value = piece[field]
                    append = piece["jsonPath"] == vertex_open_string
                    _set(vertex[4], piece["jsonPath"], value, append)
                    more = piece.get("willContinue") and "stringValue" in piece
                    vertex_open_string = piece["jsonPath"] if more else None
                if not call.get("willContinue"):
                    if vertex is not None:
                        close_where(number, lambda k, v=vertex: calls[k] is v)
                    vertex = None
            if candidate.get("finishReason"):
                close_where(number, lambda k: type(k) is tuple and k[0] == "gemini")
        # -- Bedrock ConverseStream
        if "messageStart" in event:
            message += 1
        start = event.get("contentBlockStart", {}).get("start", {}).get("toolUse")
        if start:
            server = "server" if start.get("type") == "server_tool_use" else "function"
            key = (message, event["contentBlockStart"]["contentBlockIndex"])
            calls[key] = [start["toolUseId"], start["name"], server, "", None]
        delta = event.get("contentBlockDelta", {}).get("delta", {})
        if "toolUse" in delta:
            key = (message, event["contentBlockDelta"]["contentBlockIndex"])
            calls[key][3] += delta["toolUse"]["input"]
        elif "text" in delta:
            add_text(0, delta["text"])
        if "contentBlockStop" in event:
            close(number, (message, event["contentBlockStop"]["contentBlockIndex"]))
        if "messageStop" in event:
            close_where(number, lambda k, m=message: type(k) is tuple and k[0] == m)
    return list(calls.values()), text, reasoning, [closed.get(key) for key in calls]


def final_value(call: Call) -> tuple[Any, str]:
    """What a closed call's arguments and raw text must be."""
    _, _, _, raw, value = call
    if value is not None:  # Vertex partialArgs: raw is the value serialised
        return value, json.dumps(value, ensure_ascii=False)
    if raw is None or not raw.strip():
        return {}, raw or ""
    return json.loads(raw), raw

"""Tool definitions as the SDKs take them -> (name, JSON Schema of the arguments)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_EMPTY: dict[str, Any] = {"type": "object", "properties": {}}


def _as_dict(tool: Any) -> Any:
    # SDK param types are TypedDicts (plain dicts); pydantic SDK objects have model_dump.
    if hasattr(tool, "model_dump"):
        return tool.model_dump(exclude_none=True)
    return tool


def tool_name_and_parameters(tool: Any) -> tuple[str, Any]:
    """The name and argument schema of one tool definition (OpenAI Chat or Responses,
    Anthropic, Gemini function declaration)."""
    tool = _as_dict(tool)
    if not isinstance(tool, dict):
        raise ValueError(f"a tool definition must be a dict, not {type(tool).__name__}")
    if isinstance(tool.get("function"), dict):  # OpenAI Chat Completions
        tool = tool["function"]
    name = tool.get("name")
    if not isinstance(name, str):
        raise ValueError(f"a tool definition needs a name: {sorted(tool)}")
    for key in ("parameters", "input_schema", "parametersJsonSchema", "parameters_json_schema"):
        if key in tool and tool[key] is not None:
            return name, tool[key]
    return name, _EMPTY


def iter_tools(tools: Any) -> Iterator[tuple[str, Any]]:
    """(name, parameters) of every function tool in a list of definitions; Gemini's tool
    groups (`functionDeclarations` / `function_declarations`) are opened."""
    for tool in tools:
        tool = _as_dict(tool)
        group = None
        if isinstance(tool, dict):
            group = tool.get("functionDeclarations", tool.get("function_declarations"))
        if group is not None:
            for declaration in group:
                name, parameters = tool_name_and_parameters(declaration)
                yield name, openapi_to_json_schema(parameters)
        elif isinstance(tool, dict) and "name" not in tool and "function" not in tool:
            continue  # a provider's own tool (web search, code execution...): no schema here
        else:
            yield tool_name_and_parameters(tool)


def openapi_to_json_schema(schema: Any) -> Any:
    """Gemini's `parameters` are an OpenAPI subset: upper-case type names and `nullable`."""
    if isinstance(schema, list):
        return [openapi_to_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: openapi_to_json_schema(v) for k, v in schema.items() if k != "nullable"}
    if isinstance(out.get("type"), str):
        out["type"] = out["type"].lower()
        if schema.get("nullable") is True:
            out["type"] = [out["type"], "null"]
    if "properties" in schema and isinstance(schema["properties"], dict):
        out["properties"] = {k: openapi_to_json_schema(v) for k, v in schema["properties"].items()}
    return out

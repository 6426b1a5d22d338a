"""Tool definitions as the SDKs take them -> (name, JSON Schema of the arguments)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_EMPTY: dict[str, Any] = {"type": "object", "properties": {}}
_PARAMETER_KEYS = ("parameters", "input_schema", "parametersJsonSchema", "parameters_json_schema")


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
    for key in _PARAMETER_KEYS:
        if key in tool and tool[key] is not None:
            return name, tool[key]
    return name, _EMPTY


def provider_defined(tool: Any) -> bool:
    """Whether a tool definition names a tool whose arguments the provider defines, so that
    the definition holds no schema: Anthropic's versioned tools (`web_search_20250305`,
    `code_execution_20250825`, `bash_20250124`, `text_editor_...`, `computer_...`), which
    have a `name`; OpenAI's built-in tools (`web_search`, `file_search`, `code_interpreter`,
    `mcp`...) and Gemini's (`googleSearch`, `codeExecution`...), which have none; OpenAI's
    free-form `custom` tools (their input is text, not JSON). Any `type` other than
    `function` (or Anthropic's `custom`) without a parameter schema, or no name at all."""
    tool = _as_dict(tool)
    if not isinstance(tool, dict) or isinstance(tool.get("function"), dict):
        return False
    if tool.get("functionDeclarations", tool.get("function_declarations")) is not None:
        return False
    if "name" not in tool:
        return True
    kind = tool.get("type")
    has_schema = any(tool.get(key) is not None for key in _PARAMETER_KEYS)
    return kind is not None and kind != "function" and not has_schema


def provider_tool_names(tools: Any) -> frozenset[str]:
    """The names of the provider-defined tools in a list of definitions (those that have a
    name): `Schema.from_tools` gives them no schema, and the accumulator lets their calls
    through unchecked."""
    names = (_as_dict(tool).get("name") for tool in tools if provider_defined(tool))
    return frozenset(name for name in names if isinstance(name, str))


def iter_tools(tools: Any) -> Iterator[tuple[str, Any]]:
    """(name, parameters) of every tool in a list of definitions whose schema the definition
    gives; Gemini's tool groups (`functionDeclarations` / `function_declarations`) are opened,
    and provider-defined tools (`provider_defined`) left out."""
    for tool in tools:
        tool = _as_dict(tool)
        group = None
        if isinstance(tool, dict):
            group = tool.get("functionDeclarations", tool.get("function_declarations"))
        if group is not None:
            for declaration in group:
                name, parameters = tool_name_and_parameters(declaration)
                yield name, openapi_to_json_schema(parameters)
        elif provider_defined(tool):
            continue  # web search, code execution, bash...: the provider's schema, not ours
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

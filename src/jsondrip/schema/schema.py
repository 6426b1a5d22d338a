"""`Schema`: a JSON Schema compiled for checking streams, from a dict, a model or a tool."""

from __future__ import annotations

from typing import Any

from .compile import compile_schema
from .nodes import Node
from .tools import tool_name_and_parameters


class Schema:
    """A compiled JSON Schema (Draft 2020-12) for `Parser(schema=...)`.

    Raises `ValueError` (`UnsupportedSchema` for a keyword jsondrip does not check, named in
    the message) when the schema cannot be compiled. docs/schema.md lists the keywords.
    """

    __slots__ = ("adapter", "json_schema", "model", "native", "partial_plan", "root")

    def __init__(self, json_schema: Any) -> None:
        self.json_schema = json_schema
        self.root: Node = compile_schema(json_schema)
        self.model: Any = None  # the pydantic type, for Schema.from_model
        self.adapter: Any = None
        self.partial_plan: Any = None  # partial(): how the model shows a value (models.py)
        self.native: Any = None  # the node table for the native checker, made on first use

    def native_table(self) -> Any:
        """The node table the native engine checks with (table.py), made once per schema."""
        if self.native is None:
            from .table import native_table

            self.native = native_table(self.root)
        return self.native

    @classmethod
    def from_model(cls, model: Any) -> Schema:
        """The schema of a pydantic v2 model, or of any type a `TypeAdapter` takes
        (`list[MyTypedDict]`...). Needs pydantic (an optional dependency)."""
        try:
            from pydantic import TypeAdapter
        except ImportError:  # pragma: no cover - pydantic is an optional extra
            raise ImportError(
                "Schema.from_model needs pydantic v2: pip install 'jsondrip[pydantic]'"
            ) from None
        adapter = TypeAdapter(model)
        schema = cls(adapter.json_schema(mode="validation"))
        schema.model = model
        schema.adapter = adapter
        return schema

    @classmethod
    def from_tool(cls, tool: Any) -> Schema:
        """The arguments' schema of one tool definition, as the SDKs take it: OpenAI Chat
        (`{"type": "function", "function": {...}}`), Responses (`{"type": "function", "name",
        "parameters"}`), Anthropic (`{"name", "input_schema"}`) or a Gemini function
        declaration (`{"name", "parameters"}`)."""
        return cls(tool_name_and_parameters(tool)[1])

    @classmethod
    def from_tools(cls, tools: Any) -> dict[str, Schema]:
        """Each tool's name and schema, from a list of tool definitions (Gemini's
        `{"functionDeclarations": [...]}` groups included)."""
        from .tools import iter_tools

        return {name: cls(parameters) for name, parameters in iter_tools(tools)}

    def validate_model(self, value: Any) -> Any:
        """The pydantic model (or typed value) of a complete value, when built by from_model."""
        if self.adapter is None:
            return value
        return self.adapter.validate_python(value)

    def __repr__(self) -> str:
        title: str | None = None
        if isinstance(self.json_schema, dict):
            title = self.json_schema.get("title")
        return f"<jsondrip.Schema {title or ''}>".replace(" >", ">")

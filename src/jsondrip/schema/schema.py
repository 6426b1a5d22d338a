"""`Schema`: a JSON Schema compiled for checking streams, from a dict, a model or a tool."""

from __future__ import annotations

from typing import Any

from .._changes import escape_token
from .compile import compile_schema
from .nodes import Node
from .tools import tool_name_and_parameters
from .violation import SchemaViolation


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
        """The node table the native engine checks with (table.py), made and converted
        (`_engine.native_schema_table`) once per schema: every engine shares it."""
        if self.native is None:
            from .._engine import native_schema_table
            from .table import native_table

            self.native = native_schema_table(native_table(self.root))
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
        `{"functionDeclarations": [...]}` groups included).

        Tools the provider defines are left out: Anthropic's versioned tools
        (`{"type": "web_search_20250305", "name": "web_search"}`, `code_execution_...`,
        `bash_...`, `text_editor_...`), OpenAI's and Gemini's built-in tools, OpenAI's
        free-form `custom` tools: their definitions hold no schema to check against, and
        an empty one would pass anything while claiming a check."""
        from .tools import iter_tools

        return {name: cls(parameters) for name, parameters in iter_tools(tools)}

    def validate_model(self, value: Any) -> Any:
        """The pydantic model (or typed value) of a complete value, when built by from_model.

        pydantic's own verdict (a validator, a type the JSON Schema cannot say) is raised as a
        `SchemaViolation` whose `__cause__` is the `pydantic.ValidationError` (see
        `model_violation`)."""
        if self.adapter is None:
            return value
        from pydantic import ValidationError

        try:
            return self.adapter.validate_python(value)
        except ValidationError as error:
            raise model_violation(error) from error

    def __repr__(self) -> str:
        title: str | None = None
        if isinstance(self.json_schema, dict):
            title = self.json_schema.get("title")
        return f"<jsondrip.Schema {title or ''}>".replace(" >", ">")


def model_violation(error: Any) -> SchemaViolation:
    """A `SchemaViolation` for a `pydantic.ValidationError` raised on a complete document: its
    first error's location as `path` (a JSON Pointer), pydantic's message, its error type
    (`value_error`, `greater_than`...) as `keyword`, and `pos` -1 (no one character made it
    certain: pydantic judged the whole document). The other errors are counted in the message;
    all are in `error.errors()`, the violation's `__cause__`."""
    errors = error.errors()
    first = errors[0] if errors else {"loc": (), "msg": str(error), "type": "model"}
    path = "".join("/" + escape_token(str(part)) for part in first["loc"])
    message = f"{path or '(root)'}: {first['msg']}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more: see __cause__.errors())"
    return SchemaViolation(message, path=path, pos=-1, keyword=str(first["type"]))

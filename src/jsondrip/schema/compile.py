"""JSON Schema (Draft 2020-12) dict -> `Node` tree, refusing what the checker cannot check.

Keywords fall in four groups (docs/schema.md has the table): checked as the value arrives,
checked when the value completes, annotations (ignored, as the `jsonschema` package ignores
them), and refused: a schema using a refused keyword raises `ValueError` naming it, so
nothing is ever silently unchecked. Words outside the specification (`x-...`, OpenAPI's
`discriminator`) are annotations, as they are for `jsonschema`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from .nodes import Node

JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})

ANNOTATIONS = frozenset(
    {
        "$schema", "$comment", "$defs", "definitions", "title", "description", "default",
        "examples", "deprecated", "readOnly", "writeOnly", "format", "contentMediaType",
        "contentEncoding", "contentSchema",
    }
)  # fmt: skip

REFUSED = frozenset(
    {
        "if", "then", "else", "dependentSchemas", "unevaluatedProperties",
        "unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "$anchor", "$recursiveRef",
        "$recursiveAnchor", "$vocabulary", "additionalItems", "dependencies",
    }
)  # fmt: skip


# Draft 2020-12, and the older drafts that tool schemas still name (zod-to-json-schema writes
# draft-07): read under 2020-12's rules, their differing keywords refused above.
DIALECTS = frozenset(
    {
        "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#",
        "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-04/schema#",
    }
)  # fmt: skip


class UnsupportedSchema(ValueError):
    """The schema uses a keyword (or a `$ref`) that jsondrip does not check: refused by name."""


def compile_schema(schema: Any) -> Node:
    """Compile a JSON Schema (a dict or a boolean) into its root `Node`."""
    return _Compiler(schema).root


def _pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class _Compiler:
    def __init__(self, schema: Any) -> None:
        self.document = schema
        self.nodes: dict[int, Node] = {}  # by id() of the subschema: shared and recursive refs
        self.pending_refs: list[tuple[Node, str]] = []
        self.root = self.compile(schema, "#")
        while self.pending_refs:
            node, ref = self.pending_refs.pop()
            node.refs.append(self.resolve(ref, node.where))

    def resolve(self, ref: str, where: str) -> Node:
        """A `$ref` inside this document: `#` or `#/json/pointer`."""
        if not ref.startswith("#"):
            raise UnsupportedSchema(
                f"unsupported $ref {ref!r} at {where}: "
                "only references inside the schema (#...) are supported"
            )
        target: Any = self.document
        fragment = ref[1:]
        if fragment and not fragment.startswith("/"):
            raise UnsupportedSchema(
                f"unsupported $ref {ref!r} at {where}: anchors are not supported"
            )
        for raw in fragment.split("/")[1:] if fragment else ():
            token = _unquote(raw).replace("~1", "/").replace("~0", "~")
            try:
                target = target[int(token)] if isinstance(target, list) else target[token]
            except (KeyError, IndexError, ValueError, TypeError):
                raise ValueError(f"$ref {ref!r} at {where} points to nothing") from None
        return self.compile(target, ref)

    def compile(self, schema: Any, where: str) -> Node:
        if isinstance(schema, bool):
            node = Node(where)
            node.never = not schema
            return node
        if not isinstance(schema, dict):
            raise ValueError(
                f"schema at {where} must be an object or a boolean, not {type(schema).__name__}"
            )
        known = self.nodes.get(id(schema))
        if known is not None:
            return known
        node = self.nodes[id(schema)] = Node(where)
        if "$schema" in schema and schema["$schema"] not in DIALECTS:
            raise UnsupportedSchema(
                f"unsupported $schema {schema['$schema']!r} at {where}: "
                "jsondrip checks Draft 2020-12"
            )
        if isinstance(schema.get("items"), list):
            raise UnsupportedSchema(
                f"unsupported schema keyword 'items' as an array at {where} "
                "(Draft 2020-12 has prefixItems)"
            )
        for keyword in schema:
            if keyword in REFUSED:
                raise UnsupportedSchema(f"unsupported schema keyword {keyword!r} at {where}")
            if keyword == "$id" and where != "#":
                raise UnsupportedSchema(
                    f"unsupported schema keyword '$id' at {where} (below the root)"
                )
        self._scalars(node, schema, where)
        self._objects(node, schema, where)
        self._arrays(node, schema, where)
        self._applicators(node, schema, where)
        if "$ref" in schema:
            ref = schema["$ref"]
            if not isinstance(ref, str):
                raise ValueError(f"$ref at {where} must be a string")
            self.pending_refs.append((node, ref))
        return node

    def sub(self, schema: Any, where: str) -> Node:
        return self.compile(schema, where)

    def _scalars(self, node: Node, schema: dict[str, Any], where: str) -> None:
        if "type" in schema:
            types = schema["type"]
            names = [types] if isinstance(types, str) else types
            if not isinstance(names, list) or not all(
                isinstance(t, str) and t in JSON_TYPES for t in names
            ):
                raise ValueError(
                    f"type at {where} must be a JSON type name or a list of them: {types!r}"
                )
            node.types = frozenset(names)
        if "enum" in schema:
            if not isinstance(schema["enum"], list):
                raise ValueError(f"enum at {where} must be an array")
            node.enum = tuple(schema["enum"])
        if "const" in schema:
            if node.enum is not None:  # both: the const must also be an enum member
                node.all_of += (_const_node(schema["const"], where),)
            else:
                node.enum = (schema["const"],)
                node.const = True
        node.min_length = _count(schema, "minLength", where)
        node.max_length = _count(schema, "maxLength", where)
        if "pattern" in schema:
            node.pattern = _regex(schema["pattern"], f"{where}/pattern")
        for keyword, attribute in (
            ("minimum", "minimum"),
            ("maximum", "maximum"),
            ("exclusiveMinimum", "exclusive_minimum"),
            ("exclusiveMaximum", "exclusive_maximum"),
            ("multipleOf", "multiple_of"),
        ):
            if keyword in schema:
                bound = schema[keyword]
                if (
                    isinstance(bound, bool)
                    or not isinstance(bound, (int, float))
                    or (isinstance(bound, float) and math.isnan(bound))
                ):
                    raise ValueError(f"{keyword} at {where} must be a number")
                if keyword == "multipleOf" and bound <= 0:
                    raise ValueError(f"multipleOf at {where} must be greater than 0")
                setattr(node, attribute, bound)

    def _objects(self, node: Node, schema: dict[str, Any], where: str) -> None:
        if "properties" in schema:
            props = schema["properties"]
            if not isinstance(props, dict):
                raise ValueError(f"properties at {where} must be an object")
            node.properties = {
                name: self.sub(sub, f"{where}/properties/{_pointer_token(name)}")
                for name, sub in props.items()
            }
        if "patternProperties" in schema:
            node.pattern_properties = tuple(
                (
                    _regex(pattern, f"{where}/patternProperties"),
                    self.sub(sub, f"{where}/patternProperties/{_pointer_token(pattern)}"),
                )
                for pattern, sub in schema["patternProperties"].items()
            )
        if "additionalProperties" in schema:
            node.additional = self.sub(
                schema["additionalProperties"], f"{where}/additionalProperties"
            )
        if "required" in schema:
            required = schema["required"]
            if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
                raise ValueError(f"required at {where} must be an array of strings")
            node.required = tuple(dict.fromkeys(required))
        node.min_properties = _count(schema, "minProperties", where)
        node.max_properties = _count(schema, "maxProperties", where)
        if "propertyNames" in schema:
            node.property_names = self.sub(schema["propertyNames"], f"{where}/propertyNames")
        if "dependentRequired" in schema:
            node.dependent_required = {k: tuple(v) for k, v in schema["dependentRequired"].items()}
        node.has_object_keywords = bool(
            node.properties is not None or node.pattern_properties or node.additional is not None
            or node.required or node.min_properties is not None or node.max_properties is not None
            or node.property_names is not None or node.dependent_required
        )  # fmt: skip

    def _arrays(self, node: Node, schema: dict[str, Any], where: str) -> None:
        if "prefixItems" in schema:
            node.prefix_items = tuple(
                self.sub(sub, f"{where}/prefixItems/{i}")
                for i, sub in enumerate(schema["prefixItems"])
            )
        if "items" in schema:
            node.items = self.sub(schema["items"], f"{where}/items")
        node.min_items = _count(schema, "minItems", where)
        node.max_items = _count(schema, "maxItems", where)
        node.unique_items = schema.get("uniqueItems") is True
        if "contains" in schema:
            node.contains = self.sub(schema["contains"], f"{where}/contains")
            minimum = _count(schema, "minContains", where)
            node.min_contains = 1 if minimum is None else minimum
            node.max_contains = _count(schema, "maxContains", where)
        node.has_array_keywords = bool(
            node.prefix_items or node.items is not None or node.min_items is not None
            or node.max_items is not None or node.unique_items or node.contains is not None
        )  # fmt: skip

    def _applicators(self, node: Node, schema: dict[str, Any], where: str) -> None:
        for keyword, attribute in (("allOf", "all_of"), ("anyOf", "any_of"), ("oneOf", "one_of")):
            if keyword in schema:
                subs = schema[keyword]
                if not isinstance(subs, list) or not subs:
                    raise ValueError(f"{keyword} at {where} must be a non-empty array")
                compiled = tuple(
                    self.sub(sub, f"{where}/{keyword}/{i}") for i, sub in enumerate(subs)
                )
                setattr(node, attribute, getattr(node, attribute) + compiled)
        if "not" in schema:
            node.not_ = self.sub(schema["not"], f"{where}/not")


def _const_node(value: Any, where: str) -> Node:
    node = Node(f"{where}/const")
    node.enum = (value,)
    node.const = True
    return node


def _count(schema: dict[str, Any], keyword: str, where: str) -> int | None:
    if keyword not in schema:
        return None
    value = schema[keyword]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{keyword} at {where} must be a non-negative integer")
    return value


def _regex(pattern: Any, where: str) -> re.Pattern[str]:
    if not isinstance(pattern, str):
        raise ValueError(f"pattern at {where} must be a string")
    try:
        return re.compile(pattern)
    except re.error as error:  # e.g. \p{Letter}: ECMA-262 syntax that Python's re lacks
        raise UnsupportedSchema(
            f"pattern at {where} is not supported by Python's re: {error}"
        ) from None


def _unquote(token: str) -> str:
    from urllib.parse import unquote

    return unquote(token)

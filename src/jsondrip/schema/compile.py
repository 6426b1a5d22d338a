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
from collections import deque
from typing import TYPE_CHECKING, Any

from .._changes import escape_token
from .nodes import Evaluated, Node
from .resources import RemoteReference, Resources

if TYPE_CHECKING:
    from .resources import Context

JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})

ANNOTATIONS = frozenset(
    {
        "$schema", "$comment", "$defs", "definitions", "title", "description", "default",
        "examples", "deprecated", "readOnly", "writeOnly", "format", "contentMediaType",
        "contentEncoding", "contentSchema",
    }
)  # fmt: skip

# Keywords of other drafts that 2020-12 replaced (a schema naming them was written for rules
# jsondrip does not apply), and the vocabulary declarations of meta-schemas.
REFUSED = frozenset(
    {"$recursiveRef", "$recursiveAnchor", "$vocabulary", "additionalItems", "dependencies"}
)


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


class _Compiler:
    def __init__(self, schema: Any) -> None:
        self.resources = Resources(schema)
        # by id() of the subschema, its base URI and its dynamic scope: shared and recursive
        # references compile once (and a $dynamicRef below once per scope it is reached in)
        self.nodes: dict[tuple[int, str, Context], Node] = {}
        self.pending_refs: list[tuple[Node, str, str, str, Context, bool]] = []
        root_base = self.resources.base_of(schema, "")
        self.root = self.compile(schema, "#", root_base, self.resources.enter((), root_base))
        while self.pending_refs:
            node, keyword, ref, base, context, dynamic = self.pending_refs.pop()
            node.refs.append(self.resolve(keyword, ref, node.where, base, context, dynamic))
        for node in self.nodes.values():
            if node.unevaluated_properties is not None or node.unevaluated_items is not None:
                node.evaluated = evaluated_by(node)
        for node in self.nodes.values():  # (after: evaluated_by marks contains_annotates)
            node.beside = bool(
                node.all_of or node.refs or node.any_of or node.one_of or node.not_ is not None
                or node.if_ is not None or node.dependent_schemas or node.evaluated is not None
                or node.contains_annotates
            )  # fmt: skip

    def resolve(
        self, keyword: str, ref: str, where: str, base: str, context: Context, dynamic: bool
    ) -> Node:
        """A `$ref` (or `$dynamicRef`) inside this document, compiled in the scope it enters."""
        try:
            target, uri, anchor = self.resources.lookup(ref, base)
        except RemoteReference as remote:
            raise UnsupportedSchema(
                f"unsupported {keyword} {ref!r} at {where}: it names {str(remote) or 'a URI'!r}, "
                "outside the schema (remote references are not fetched)"
            ) from None
        except LookupError as missing:
            raise ValueError(f"{keyword} {ref!r} at {where} points to nothing: {missing}") from None
        if dynamic and anchor is not None and self.resources.is_dynamic_anchor(uri, anchor):
            # the outermost resource in the dynamic scope that defines the same dynamic anchor
            outermost = dict(context).get(anchor)
            if outermost is not None:
                target, uri = self.resources.anchors[(outermost, anchor)][0], outermost
        fallback = ref if ref.startswith("#/") else f"{where}/{keyword}"  # outside the walk
        where = self.resources.location_of(target, fallback)
        return self.compile(target, where, uri, self.resources.enter(context, uri))

    def compile(self, schema: Any, where: str, base: str, context: Context) -> Node:
        if isinstance(schema, bool):
            node = Node(where)
            node.never = not schema
            return node
        if not isinstance(schema, dict):
            raise ValueError(
                f"schema at {where} must be an object or a boolean, not {type(schema).__name__}"
            )
        inner = self.resources.base_of(schema, base)
        if inner != base:  # a subschema with its own $id: a resource, entered
            context = self.resources.enter(context, inner)
        memo = (id(schema), inner, context)
        known = self.nodes.get(memo)
        if known is not None:
            return known
        node = self.nodes[memo] = Node(where)
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
        scope = (inner, context)
        self._scalars(node, schema, where)
        self._objects(node, schema, where, scope)
        self._arrays(node, schema, where, scope)
        self._applicators(node, schema, where, scope)
        for keyword in ("$ref", "$dynamicRef"):
            if keyword in schema:
                ref = schema[keyword]
                if not isinstance(ref, str):
                    raise ValueError(f"{keyword} at {where} must be a string")
                dynamic = keyword == "$dynamicRef"
                self.pending_refs.append((node, keyword, ref, inner, context, dynamic))
        return node

    def sub(self, schema: Any, where: str, scope: tuple[str, Context]) -> Node:
        """A subschema, in the scope (base URI, dynamic scope) of the schema holding it."""
        return self.compile(schema, where, *scope)

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

    def _objects(
        self, node: Node, schema: dict[str, Any], where: str, scope: tuple[str, Context]
    ) -> None:
        if "properties" in schema:
            props = schema["properties"]
            if not isinstance(props, dict):
                raise ValueError(f"properties at {where} must be an object")
            node.properties = {
                name: self.sub(sub, f"{where}/properties/{escape_token(name)}", scope)
                for name, sub in props.items()
            }
        if "patternProperties" in schema:
            node.pattern_properties = tuple(
                (
                    _regex(pattern, f"{where}/patternProperties"),
                    self.sub(sub, f"{where}/patternProperties/{escape_token(pattern)}", scope),
                )
                for pattern, sub in schema["patternProperties"].items()
            )
        if "additionalProperties" in schema:
            node.additional = self.sub(
                schema["additionalProperties"], f"{where}/additionalProperties", scope
            )
        if "required" in schema:
            required = schema["required"]
            if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
                raise ValueError(f"required at {where} must be an array of strings")
            node.required = tuple(dict.fromkeys(required))
        node.min_properties = _count(schema, "minProperties", where)
        node.max_properties = _count(schema, "maxProperties", where)
        if "propertyNames" in schema:
            node.property_names = self.sub(schema["propertyNames"], f"{where}/propertyNames", scope)
        if "dependentRequired" in schema:
            node.dependent_required = {k: tuple(v) for k, v in schema["dependentRequired"].items()}
        if "dependentSchemas" in schema:
            dependent = schema["dependentSchemas"]
            if not isinstance(dependent, dict):
                raise ValueError(f"dependentSchemas at {where} must be an object")
            node.dependent_schemas = tuple(
                (name, self.sub(sub, f"{where}/dependentSchemas/{escape_token(name)}", scope))
                for name, sub in dependent.items()
            )
        if "unevaluatedProperties" in schema:
            unevaluated = self.sub(
                schema["unevaluatedProperties"], f"{where}/unevaluatedProperties", scope
            )
            if node.additional is None:  # else additionalProperties evaluates every key
                node.unevaluated_properties = unevaluated
        node.has_object_keywords = bool(
            node.properties is not None or node.pattern_properties or node.additional is not None
            or node.required or node.min_properties is not None or node.max_properties is not None
            or node.property_names is not None or node.dependent_required
            or node.dependent_schemas or node.unevaluated_properties is not None
        )  # fmt: skip

    def _arrays(
        self, node: Node, schema: dict[str, Any], where: str, scope: tuple[str, Context]
    ) -> None:
        if "prefixItems" in schema:
            node.prefix_items = tuple(
                self.sub(sub, f"{where}/prefixItems/{i}", scope)
                for i, sub in enumerate(schema["prefixItems"])
            )
        if "items" in schema:
            node.items = self.sub(schema["items"], f"{where}/items", scope)
        node.min_items = _count(schema, "minItems", where)
        node.max_items = _count(schema, "maxItems", where)
        node.unique_items = schema.get("uniqueItems") is True
        if "contains" in schema:
            node.contains = self.sub(schema["contains"], f"{where}/contains", scope)
            minimum = _count(schema, "minContains", where)
            node.min_contains = 1 if minimum is None else minimum
            node.max_contains = _count(schema, "maxContains", where)
        if "unevaluatedItems" in schema:
            unevaluated = self.sub(schema["unevaluatedItems"], f"{where}/unevaluatedItems", scope)
            if node.items is None:  # else items evaluates every element
                node.unevaluated_items = unevaluated
        node.has_array_keywords = bool(
            node.prefix_items or node.items is not None or node.min_items is not None
            or node.max_items is not None or node.unique_items or node.contains is not None
            or node.unevaluated_items is not None
        )  # fmt: skip

    def _applicators(
        self, node: Node, schema: dict[str, Any], where: str, scope: tuple[str, Context]
    ) -> None:
        for keyword, attribute in (("allOf", "all_of"), ("anyOf", "any_of"), ("oneOf", "one_of")):
            if keyword in schema:
                subs = schema[keyword]
                if not isinstance(subs, list) or not subs:
                    raise ValueError(f"{keyword} at {where} must be a non-empty array")
                compiled = tuple(
                    self.sub(sub, f"{where}/{keyword}/{i}", scope) for i, sub in enumerate(subs)
                )
                setattr(node, attribute, getattr(node, attribute) + compiled)
        if "not" in schema:
            node.not_ = self.sub(schema["not"], f"{where}/not", scope)
        if "if" in schema:  # `then` and `else` without `if` do nothing
            node.if_ = self.sub(schema["if"], f"{where}/if", scope)
            if "then" in schema:
                node.then = self.sub(schema["then"], f"{where}/then", scope)
            if "else" in schema:
                node.else_ = self.sub(schema["else"], f"{where}/else", scope)


def _in_place(node: Node) -> list[Node]:
    """The subschemas applied to the same value whose annotations count (not `not`)."""
    subs = [*node.all_of, *node.any_of, *node.one_of, *node.refs]
    subs += [sub for _, sub in node.dependent_schemas]
    subs += [sub for sub in (node.if_, node.then, node.else_) if sub is not None]
    return subs


def evaluated_by(owner: Node) -> Evaluated:
    """What `owner` and the subschemas applied beside it can evaluate (see `Evaluated`)."""
    found = Evaluated()
    seen = {id(owner)}
    todo = deque([owner])  # breadth first: the owner's own names first in messages
    while todo:
        node = todo.popleft()
        found.names.update(dict.fromkeys(node.properties or ()))
        found.patterns += [(node, i) for i in range(len(node.pattern_properties))]
        found.prefix = max(found.prefix, len(node.prefix_items))
        found.contains = found.contains or node.contains is not None
        if node is not owner:
            found.all_keys = found.all_keys or (
                node.additional is not None or node.unevaluated_properties is not None
            )
            found.all_items = found.all_items or (
                node.items is not None or node.unevaluated_items is not None
            )
        if node.contains is not None and owner.unevaluated_items is not None:
            node.contains_annotates = True
        for sub in _in_place(node):
            if id(sub) not in seen:
                seen.add(id(sub))
                todo.append(sub)
    return found


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

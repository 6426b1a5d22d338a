"""One compiled (sub)schema: its keywords as plain attributes, read by the checker."""

from __future__ import annotations

import re
from typing import Any

# The JSON types a value's first character settles ("integer" is settled at its end).
OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL = (
    "object",
    "array",
    "string",
    "number",
    "boolean",
    "null",
)


class Node:
    """A subschema. `None` means "no such keyword"; `additional`/`items` None: unconstrained."""

    __slots__ = (
        "additional",
        "all_of",
        "any_of",
        "beside",
        "const",
        "contains",
        "contains_annotates",
        "dependent_required",
        "dependent_schemas",
        "else_",
        "enum",
        "evaluated",
        "exclusive_maximum",
        "exclusive_minimum",
        "has_array_keywords",
        "has_object_keywords",
        "if_",
        "items",
        "max_contains",
        "max_items",
        "max_length",
        "max_properties",
        "maximum",
        "min_contains",
        "min_items",
        "min_length",
        "min_properties",
        "minimum",
        "multiple_of",
        "never",
        "not_",
        "one_of",
        "pattern",
        "pattern_properties",
        "prefix_items",
        "properties",
        "property_names",
        "refs",
        "required",
        "then",
        "types",
        "unevaluated_items",
        "unevaluated_properties",
        "unique_items",
        "where",
    )

    def __init__(self, where: str) -> None:
        self.where = (
            where  # its location in the schema, a JSON Pointer fragment like "#/properties/a"
        )
        self.never = False  # the `false` schema
        self.types: frozenset[str] | None = None
        self.enum: tuple[Any, ...] | None = None  # `const` is kept as a one-member enum too
        self.const = False  # the enum came from `const`
        self.min_length: int | None = None
        self.max_length: int | None = None
        self.pattern: re.Pattern[str] | None = None
        self.minimum: Any = None
        self.maximum: Any = None
        self.exclusive_minimum: Any = None
        self.exclusive_maximum: Any = None
        self.multiple_of: Any = None
        self.properties: dict[str, Node] | None = None
        self.pattern_properties: tuple[tuple[re.Pattern[str], Node], ...] = ()
        self.additional: Node | None = None
        self.required: tuple[str, ...] = ()
        self.min_properties: int | None = None
        self.max_properties: int | None = None
        self.property_names: Node | None = None
        self.dependent_required: dict[str, tuple[str, ...]] | None = None
        self.prefix_items: tuple[Node, ...] = ()
        self.items: Node | None = None
        self.min_items: int | None = None
        self.max_items: int | None = None
        self.unique_items = False
        self.contains: Node | None = None
        self.min_contains = 1
        self.max_contains: int | None = None
        self.all_of: tuple[Node, ...] = ()
        self.any_of: tuple[Node, ...] = ()
        self.one_of: tuple[Node, ...] = ()
        self.not_: Node | None = None
        self.refs: list[Node] = []  # `$ref` and `$dynamicRef` targets, beside the other keywords
        self.if_: Node | None = None  # with `then`/`else` (both None without `if`)
        self.then: Node | None = None
        self.else_: Node | None = None
        self.dependent_schemas: tuple[tuple[str, Node], ...] = ()
        self.unevaluated_properties: Node | None = None  # None too when additionalProperties
        self.unevaluated_items: Node | None = None  # None too when `items` is present
        # With `unevaluated*`: what its subschemas can evaluate (filled after compiling).
        self.evaluated: Evaluated | None = None
        self.contains_annotates = False  # some unevaluatedItems reads what `contains` passed
        self.beside = False  # it applies subschemas beside it (`allOf`, `$ref`, `if`...)
        self.has_object_keywords = False
        self.has_array_keywords = False

    def __repr__(self) -> str:
        return f"<schema node {self.where}>"


class Evaluated:
    """What a node with `unevaluatedProperties`/`unevaluatedItems` and the subschemas applied
    beside it (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `$ref`;
    not `not`) can ever evaluate, whether or not they turn out valid: a key or an item outside
    it is certainly unevaluated, so checked at once; one inside waits for the value's end.
    """

    __slots__ = ("all_items", "all_keys", "contains", "names", "patterns", "prefix")

    def __init__(self) -> None:
        self.names: dict[str, None] = {}  # property names, in order
        self.patterns: list[tuple[Node, int]] = []  # (node, index of its patternProperties)
        self.all_keys = False  # an additionalProperties or unevaluatedProperties below
        self.prefix = 0  # the longest prefixItems
        self.all_items = False  # an items or unevaluatedItems below
        self.contains = False  # a contains (it evaluates the items it passes)

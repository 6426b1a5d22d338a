"""The compiled schema as the native checker reads it: a flat table of nodes (root first).

Subschemas become indexes, strings become WTF-8 bytes, and every text a message shows of the
schema (its enum members, bounds, required names, pattern) is written here with Python's
`repr`, so the Rust checker (rust/core/schema/node.rs) shows them exactly as the twin does.
Numbers it cannot compare exactly (integers past 64 bits, `multipleOf`) are marked for the
Python oracle (complete.py).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from .._changes import split_pointer
from .complete import (
    atom_value,
    container_failure,
    native_atom_failure,
    one_of,
    pattern_matches,
    pattern_property_matches,
)
from .nodes import Evaluated, Node
from .progress import ARRIVING, FINAL, MISSING_STATE, lookup, make_progress
from .values import kind_of, show
from .violation import SchemaViolation

_TYPE_BITS = {
    "object": 1,
    "array": 2,
    "string": 4,
    "number": 8,
    "integer": 16,
    "boolean": 32,
    "null": 64,
}
_I64 = range(-(2**63), 2**63)
KEYWORDS = (
    "additionalProperties", "items", "prefixItems", "properties", "patternProperties",
    "propertyNames", "contains", "not", "allOf", "anyOf", "oneOf", "if", "then", "else",
    "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
)  # fmt: skip


_NAMED = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
_NUMBERED = ("allOf", "anyOf", "oneOf", "prefixItems")


def never_keyword(node: Node) -> str:
    """The keyword a `false` schema is reported under: the applicator that holds it."""
    keyword = "false"
    tokens = iter(node.where.partition("#")[2].split("/")[1:])
    for token in tokens:
        keyword = token if token in KEYWORDS else "false"
        if token in _NAMED or token in _NUMBERED:
            next(tokens, None)  # a property name or an index, not a keyword
    return keyword


def _wtf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _bound(value: Any) -> tuple[str, Any] | None:
    """A numeric bound for Rust: ("int", i64) or ("float", f64); None if past i64."""
    if type(value) is int:
        return ("int", value) if value in _I64 else None
    return ("float", float(value))


def _subnodes(node: Node) -> list[Node]:
    subs: list[Node] = []
    if node.properties:
        subs += node.properties.values()
    subs += [sub for _, sub in node.pattern_properties]
    for one in (node.additional, node.property_names, node.items, node.contains, node.not_):
        if one is not None:
            subs.append(one)
    subs += node.prefix_items + node.all_of + node.any_of + node.one_of + tuple(node.refs)
    subs += [sub for _, sub in node.dependent_schemas]
    for one in (node.if_, node.then, node.else_, node.unevaluated_properties):
        if one is not None:
            subs.append(one)
    if node.unevaluated_items is not None:
        subs.append(node.unevaluated_items)
    return subs


class NativeHooks(NamedTuple):
    """What the native checker calls back in Python (rust/python/schema.rs `Hooks`), handed
    to it with the node table: the extension imports no jsondrip module."""

    pattern_matches: Callable[[Node, str], bool]
    pattern_property_matches: Callable[[Node, int, str], bool]
    atom_failure: Callable[[Node, str], Any]
    container_failure: Callable[[Node, Any], Any]
    atom_value: Callable[[str], Any]
    violation: type
    make_progress: Callable[[tuple[Any, ...]], Any]
    states: tuple[str, str, str]
    split_pointer: Callable[[str], list[str]]
    lookup: Callable[[Any, tuple[str, ...]], Any]


HOOKS = NativeHooks(
    pattern_matches,
    pattern_property_matches,
    native_atom_failure,
    container_failure,
    atom_value,
    SchemaViolation,
    make_progress,
    (MISSING_STATE, ARRIVING, FINAL),
    split_pointer,
    lookup,
)


def native_table(root: Node) -> tuple[list[dict[str, Any]], list[Node], NativeHooks]:
    """The rows for the Rust checker, the nodes in the same order (for the oracle), and the
    callables it calls back (`HOOKS`)."""
    nodes = [root]
    index = {id(root): 0}
    i = 0
    while i < len(nodes):
        for sub in _subnodes(nodes[i]):
            if id(sub) not in index:
                index[id(sub)] = len(nodes)
                nodes.append(sub)
        i += 1
    return [_row(node, index) for node in nodes], nodes, HOOKS


def _evaluated(evaluated: Evaluated, index: dict[int, int]) -> dict[str, Any]:
    return {
        "names": [_wtf8(name) for name in evaluated.names],
        "names_shown": one_of(tuple(evaluated.names)) or "no names",
        "patterns": [(index[id(node)], i) for node, i in evaluated.patterns],
        "all_keys": evaluated.all_keys,
        "prefix": evaluated.prefix,
        "all_items": evaluated.all_items,
        "contains": evaluated.contains,
    }


def _row(node: Node, index: dict[int, int]) -> dict[str, Any]:
    def at(sub: Node | None) -> int | None:
        return None if sub is None else index[id(sub)]

    numbers_native = node.multiple_of is None
    bounds: dict[str, Any] = {}
    for name in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum"):
        value = getattr(node, name)
        bounds[name] = None if value is None else _bound(value)
        bounds[name + "_shown"] = "" if value is None else show(value)
        if value is not None and bounds[name] is None:
            numbers_native = False
    enum = None
    if node.enum is not None:
        kinds = 0
        scalars: list[tuple[str, Any]] = []
        native = True
        for member in node.enum:
            kind = kind_of(member)
            kinds |= _TYPE_BITS[kind]
            if member is True or member is False or member is None:
                scalars.append((str(member).lower() if member is not None else "null", None))
            elif kind == "number":
                bound = _bound(member)
                if bound is None:
                    native = False
                else:
                    scalars.append(bound)
        enum = {
            "is_const": node.const,
            "kinds": kinds,
            "strings": [_wtf8(m) for m in node.enum if type(m) is str],
            "scalars": scalars,
            "native": native,
            "shown": one_of(node.enum),
        }
    types = None
    if node.types is not None:
        types = 0
        for name in node.types:
            types |= _TYPE_BITS[name]
    additional_never = node.additional is not None and node.additional.never
    return {
        "never": node.never,
        "never_keyword": never_keyword(node) if node.never else "",
        "types": types,
        "types_shown": ", ".join(sorted(node.types)) if node.types is not None else "",
        "enumeration": enum,
        "min_length": node.min_length,
        "max_length": node.max_length,
        "pattern": node.pattern is not None,
        "pattern_shown": "" if node.pattern is None else show(node.pattern.pattern),
        **bounds,
        "numbers_native": numbers_native,
        "negative_breaks_minimum": node.minimum is not None and node.minimum > 0,
        "negative_breaks_exclusive_minimum": (
            node.exclusive_minimum is not None and node.exclusive_minimum >= 0
        ),
        "properties": None
        if node.properties is None
        else [(_wtf8(name), at(sub)) for name, sub in node.properties.items()],
        "properties_shown": one_of(tuple(node.properties or ())) or "no names",
        "pattern_properties": [at(sub) for _, sub in node.pattern_properties],
        "additional": at(node.additional),
        "closed": additional_never and not node.pattern_properties,
        "additional_never": additional_never,
        "required": [(_wtf8(name), show(name)) for name in node.required],
        "min_properties": node.min_properties,
        "max_properties": node.max_properties,
        "property_names": at(node.property_names),
        "dependent_required": [
            (_wtf8(name), show(name), [(_wtf8(o), show(o)) for o in others])
            for name, others in (node.dependent_required or {}).items()
        ],
        "prefix_items": [at(sub) for sub in node.prefix_items],
        "items": at(node.items),
        "min_items": node.min_items,
        "max_items": node.max_items,
        "unique_items": node.unique_items,
        "contains": at(node.contains),
        "min_contains": node.min_contains,
        "max_contains": node.max_contains,
        "all_of": [at(sub) for sub in node.all_of],
        "any_of": [at(sub) for sub in node.any_of],
        "one_of": [at(sub) for sub in node.one_of],
        "not": at(node.not_),
        "refs": [at(sub) for sub in node.refs],
        "if": at(node.if_),
        "then": at(node.then),
        "else": at(node.else_),
        "dependent_schemas": [
            (_wtf8(name), show(name), at(sub)) for name, sub in node.dependent_schemas
        ],
        "unevaluated_properties": at(node.unevaluated_properties),
        "unevaluated_items": at(node.unevaluated_items),
        "evaluated": None if node.evaluated is None else _evaluated(node.evaluated, index),
        "contains_annotates": node.contains_annotates,
        "has_object_keywords": node.has_object_keywords,
        "has_array_keywords": node.has_array_keywords,
    }

"""Keywords checked on a complete number, literal or container, in Python for both backends.

These compare Python values as the `jsonschema` package does (`enum`/`const` of containers,
`uniqueItems`, `multipleOf`, integers past 64 bits) or need Python's `re` (`pattern`,
`patternProperties`): the twin's checker calls them, and the native checker asks them of the
Python layer (its oracle, rust/python/schema.rs) for exactly these cases, so both backends
answer with the same code.
"""

from __future__ import annotations

from typing import Any

from .nodes import Node
from .values import all_unique, is_integer, is_multiple, json_equal, show

_WORDS: dict[str, Any] = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}


def one_of(members: tuple[Any, ...]) -> str:
    """Enum members as a message lists them."""
    return ", ".join(show(m) for m in members)


def atom_value(text: str) -> Any:
    """The Python value of a complete JSON number or literal, as json.loads reads it."""
    if text in _WORDS:
        return _WORDS[text]
    return float(text) if ("." in text or "e" in text or "E" in text) else int(text)


def atom_failure(node: Node, value: Any, is_number: bool) -> tuple[str, str] | None:
    """The first keyword of `node` a complete number or literal breaks: (keyword, detail)."""
    if node.enum is not None and not any(json_equal(value, m) for m in node.enum):
        return (
            "const" if node.const else "enum"
        ), f"{show(value)} is not one of {one_of(node.enum)}"
    if not is_number:
        return None
    types = node.types
    if types is not None and "number" not in types and not is_integer(value):
        return "type", f"{show(value)} is not of type 'integer'"
    if node.minimum is not None and value < node.minimum:
        return "minimum", f"{show(value)} is less than the minimum of {show(node.minimum)}"
    if node.maximum is not None and value > node.maximum:
        return "maximum", f"{show(value)} is greater than the maximum of {show(node.maximum)}"
    if node.exclusive_minimum is not None and value <= node.exclusive_minimum:
        return "exclusiveMinimum", (
            f"{show(value)} is less than or equal to the minimum of {show(node.exclusive_minimum)}"
        )
    if node.exclusive_maximum is not None and value >= node.exclusive_maximum:
        return "exclusiveMaximum", (
            f"{show(value)} is greater than or equal to the maximum of "
            + show(node.exclusive_maximum)
        )
    if node.multiple_of is not None and not is_multiple(value, node.multiple_of):
        return "multipleOf", f"{show(value)} is not a multiple of {show(node.multiple_of)}"
    return None


def native_atom_failure(node: Node, text: str) -> tuple[str, str] | None:
    """`atom_failure` of a number or literal given by its JSON text (the native oracle)."""
    value = atom_value(text)
    is_number = not (value is None or type(value) is bool)
    return atom_failure(node, value, is_number)


def container_failure(node: Node, value: Any) -> tuple[str, str] | None:
    """`uniqueItems`, then `enum`/`const`, on a complete array or object."""
    if type(value) is list and node.unique_items and not all_unique(value):
        return "uniqueItems", "the array has non-unique elements"
    if node.enum is not None and not any(json_equal(value, m) for m in node.enum):
        return (
            "const" if node.const else "enum"
        ), f"{show(value)} is not one of {one_of(node.enum)}"
    return None


def pattern_matches(node: Node, text: str) -> bool:
    """`pattern` on a complete string (Python's `re`, searched as jsonschema does)."""
    return node.pattern.search(text) is not None  # type: ignore[union-attr]


def pattern_property_matches(node: Node, index: int, key: str) -> bool:
    """Does `key` match the node's `patternProperties` regex number `index`?"""
    return node.pattern_properties[index][0].search(key) is not None

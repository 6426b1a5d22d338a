"""JSON Schema's comparisons on Python values, as the `jsonschema` package makes them.

`true` is not `1` and `false` is not `0` (Python's bool is an int; JSON's is not), `1` equals
`1.0`, and containers compare element by element under the same rules.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def json_equal(one: Any, two: Any) -> bool:
    """Equality as JSON Schema's `enum`, `const` and `uniqueItems` see it."""
    if type(one) is bool or type(two) is bool:
        return one is two
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(json_equal(a, b) for a, b in zip(one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(json_equal(one[k], two[k]) for k in one)
    if isinstance(one, (list, dict)) or isinstance(two, (list, dict)):
        return False
    return bool(one == two)


def all_unique(items: list[Any]) -> bool:
    """No two elements equal (quadratic in the number of elements, as jsonschema's fallback)."""
    seen: list[Any] = []
    for item in items:
        if any(json_equal(item, other) for other in seen):
            return False
        seen.append(item)
    return True


def is_integer(value: Any) -> bool:
    """JSON Schema's "integer": any number with no fractional part (`1.0` is one)."""
    return type(value) is int or (type(value) is float and value.is_integer())


def is_multiple(value: Any, divisor: Any) -> bool:
    """`multipleOf`, with jsonschema's float arithmetic (and its exact fallback)."""
    if isinstance(divisor, float):
        quotient = value / divisor
        try:
            return int(quotient) == quotient
        except OverflowError:
            return (Fraction(value) / Fraction(divisor)).denominator == 1
    return not value % divisor


def show(value: Any) -> str:
    """A value in a message: Python's repr, as jsonschema's messages show it."""
    return repr(value)


def kind_of(value: Any) -> str:
    """The JSON type of a Python value from json.loads."""
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    return "object"

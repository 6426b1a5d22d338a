"""Parameter text to JSON text, typed by the tool's schema (qwen3-coder, glm-4.5).

Qwen3-Coder (`<parameter=KEY>TEXT</parameter>`) and GLM 4.5-4.7
(`<arg_key>KEY</arg_key><arg_value>TEXT</arg_value>`) write each argument as raw text: their
chat templates write a string as it is and anything else as JSON (`tojson`). The text becomes
JSON text here, as it arrives, so that the call's parser shows it live and checks it:

- a **string** (the schema says `string`, allows it among others, says nothing, or there is
  no schema: `tools=` not given or the key not in it): the text, escaped, between quotes,
  written as it arrives; where the schema also allows null, the text `null` or `None` is null
  (held only while the text could still be one of them);
- an **object or array**: the text is JSON already and goes to the parser as it arrives; text
  that is not valid JSON ends the call with `invalid JSON` at the first wrong character;
- a **number, integer, boolean or null**: short, so kept whole until the parameter closes,
  then written as JSON. Templates that print values with Jinja's `string` filter make Python's
  spellings, so `True`/`False`/`None` are read as `true`/`false`/`null`; a number may be
  written as Python writes it (`1_000`, `5.`). Text that is none of the allowed types is kept
  as the string it is (as vLLM and SGLang do), and the schema check then says why it is wrong;
- a schema that allows both a container and a scalar (`["array", "null"]`) is told by the
  first non-blank character: `{` or `[` reads a container, anything else a scalar.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...schema import Schema
    from .reader import TextReader

__all__ = ["ValueWriter", "value_types", "value_writer"]

_CONTAINERS = frozenset({"object", "array"})
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")
_PYTHON_NUMBER = re.compile(r"[+-]?(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?\Z")
_MAX_SCALAR = 4096  # a longer scalar is no number, boolean or null: written as a string
_JSON_TYPES = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    type(None): "null",
    dict: "object",
    list: "array",
}


def escape(text: str) -> str:
    """`text` as the inside of a JSON string."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def value_types(schema: Schema | None, key: str) -> frozenset[str] | None:
    """The JSON types the tool's schema allows for argument `key` (None: any, or unknown)."""
    if schema is None:
        return None
    root = schema.json_schema
    if not isinstance(root, dict):
        return None
    properties = _resolve(root.get("properties"), root)
    if not isinstance(properties, dict):
        return None
    return _types(properties.get(key), root, 0)


def _resolve(node: Any, root: dict[str, Any]) -> Any:
    """A local `$ref` (`#/$defs/X`, `#/definitions/X`) followed, a few steps at most."""
    for _ in range(8):
        if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
            return node
        ref = node["$ref"]
        if not ref.startswith("#/"):
            return None
        target: Any = root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        node = target
    return None


def _types(node: Any, root: dict[str, Any], depth: int) -> frozenset[str] | None:
    node = _resolve(node, root)
    if not isinstance(node, dict) or depth > 8:
        return None
    kind = node.get("type")
    if isinstance(kind, str):
        return frozenset({kind})
    if isinstance(kind, list) and kind and all(isinstance(k, str) for k in kind):
        return frozenset(kind)
    found: set[str] = set()
    for word in ("anyOf", "oneOf"):
        options = node.get(word)
        if isinstance(options, list):
            for option in options:
                types = _types(option, root, depth + 1)
                if types is None:
                    return None
                found |= types
    values = list(node["enum"]) if isinstance(node.get("enum"), list) else []
    if "const" in node:
        values.append(node["const"])
    for value in values:
        found.add(_JSON_TYPES.get(type(value), "string"))
    return frozenset(found) if found else None


class ValueWriter:
    """Writes one parameter's text as JSON into the reader's current call."""

    __slots__ = ("_held", "_mode", "reader", "types")

    _STRING, _RAW, _SCALAR, _UNDECIDED, _NULLABLE = range(5)

    def __init__(self, reader: TextReader, types: frozenset[str] | None) -> None:
        self.reader = reader
        self.types = types
        self._held: list[str] = []
        if types is not None and "string" in types and "null" in types:
            self._mode = self._NULLABLE
        elif types is None or "string" in types:
            self._mode = self._STRING
            reader.write('"')
        elif types <= _CONTAINERS:
            self._mode = self._RAW
        elif types & _CONTAINERS:
            self._mode = self._UNDECIDED
        else:
            self._mode = self._SCALAR

    def piece(self, text: str) -> None:
        """More of the parameter's text."""
        if not text:
            return
        mode = self._mode
        if mode == self._STRING:
            self.reader.write(escape(text))
        elif mode == self._NULLABLE:
            self._held.append(text)
            held = "".join(self._held)
            if not ("null".startswith(held) or "None".startswith(held)):
                self._mode = self._STRING  # cannot be null: a string, written from here on
                self._held.clear()
                self.reader.write('"' + escape(held))
        elif mode == self._RAW:
            self.reader.write(text)
        elif mode == self._UNDECIDED:
            lead = text.lstrip()
            if not lead:
                self._held.append(text)
                return
            if lead[0] in "{[":
                self._mode = self._RAW
                self.reader.write(text)  # blanks before a JSON value are JSON
            else:
                self._mode = self._SCALAR
                self._held.append(text)
        else:
            self._held.append(text)
            if sum(len(t) for t in self._held) > _MAX_SCALAR:  # no scalar: a string
                self._mode = self._STRING
                self.reader.write('"' + escape("".join(self._held)))
                self._held.clear()

    def end(self) -> None:
        """The parameter closed."""
        mode = self._mode
        if mode == self._STRING:
            self.reader.write('"')
        elif mode == self._RAW:
            return
        elif mode == self._NULLABLE:
            held = "".join(self._held)
            self._held.clear()
            is_null = held in ("null", "None")
            self.reader.write("null" if is_null else json.dumps(held, ensure_ascii=False))
        else:
            text = "".join(self._held)
            self._held.clear()
            self.reader.write(scalar_json(text, self.types))


def scalar_json(text: str, types: frozenset[str] | None) -> str:
    """The JSON text of a scalar parameter's whole text: null, a boolean or a number when
    the types allow it and the text reads as one, else the text as a string."""
    word = text.strip()
    allowed = types or frozenset()
    if "null" in allowed and word in ("null", "None"):
        return "null"
    if "boolean" in allowed and word in ("true", "false", "True", "False"):
        return word.lower()
    if allowed & {"number", "integer"}:
        if _JSON_NUMBER.match(word):
            return word
        if _PYTHON_NUMBER.match(word) and any(c.isdigit() for c in word):
            try:
                value: float = int(word) if not re.search(r"[.eE]", word) else float(word)
            except ValueError:
                pass
            else:
                if not (isinstance(value, float) and not math.isfinite(value)):
                    return json.dumps(value)
    return json.dumps(text, ensure_ascii=False)


def value_writer(reader: TextReader, name: str, key: str) -> ValueWriter:
    """The writer of argument `key` of tool `name`, typed by the table's schema if any."""
    schemas = reader.table.settings.schemas
    schema = None if schemas is None else schemas.get(name)
    return ValueWriter(reader, value_types(schema, key))

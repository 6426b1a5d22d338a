"""The schema document's identifiers, resolved once at compile time.

A Draft 2020-12 document can name its parts: `$id` makes a subschema a resource with its own
URI (relative ones resolved against the enclosing resource's), `$anchor` and
`$dynamicAnchor` give a subschema a name inside its resource. `$ref` and `$dynamicRef` point
at those names, or at a JSON Pointer inside a resource. This module walks the document once
(only where subschemas can be: `$id` inside an `enum` value names nothing) and answers where
a reference lands. A reference to a URI the document does not define (another file, the
meta-schema) is remote: it is refused, never fetched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .._changes import escape_token, unescape_token

# Where subschemas sit, by the shape of the keyword's value.
ONE_SCHEMA = (
    "additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
)  # fmt: skip
SCHEMA_MAPS = ("$defs", "definitions", "properties", "patternProperties", "dependentSchemas")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")


if TYPE_CHECKING:
    # The dynamic scope as compilation needs it: for each name a `$dynamicRef` uses, the
    # outermost resource entered so far that defines it with `$dynamicAnchor` (sorted pairs).
    Context = tuple[tuple[str, str], ...]


class RemoteReference(LookupError):
    """The reference names a URI outside the document."""


def _join(base: str, reference: str) -> str:
    """`reference` resolved against `base` (RFC 3986, as `jsonschema` resolves it)."""
    if reference.startswith("#"):
        return _defragment(base)[0] + reference
    from urllib.parse import urljoin  # only schemas with URIs pay for the import

    return urljoin(base, reference)


def _defragment(uri: str) -> tuple[str, str]:
    """The URI without its fragment, and the fragment (`urldefrag` without the parse)."""
    head, _, fragment = uri.partition("#")
    return head, fragment


def _subschemas(schema: dict[str, Any], location: str) -> Iterator[tuple[Any, str]]:
    """The direct subschemas of a schema object, with their locations."""
    for keyword, value in schema.items():
        if keyword in ONE_SCHEMA and isinstance(value, (dict, bool)):
            yield value, f"{location}/{keyword}"
        elif keyword in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield sub, f"{location}/{keyword}/{escape_token(name)}"
        elif keyword in SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield sub, f"{location}/{keyword}/{i}"


class Resources:
    """Every resource and anchor of one schema document, and each subschema's base URI."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.resources: dict[str, Any] = {}  # URI (no fragment) -> its root subschema
        self.anchors: dict[tuple[str, str], tuple[Any, bool]] = {}  # (URI, name) -> (sub, dynamic)
        self.dynamic_anchors: dict[str, set[str]] = {}  # resource URI -> its $dynamicAnchor names
        self.base: dict[int, str] = {}  # id() of a subschema -> the base URI inside it
        self.location: dict[int, str] = {}  # id() of a subschema -> "#/json/pointer"
        self.dynamic_names: set[str] = set()  # names some $dynamicRef's fragment uses
        self.resources[""] = document
        if self._scan(document):  # most schemas name nothing: every base is "" then
            self._walk(document, "", "#")

    def _scan(self, value: Any) -> bool:
        """Does the document name anything (`$id`, `$anchor`, `$dynamicAnchor`)? Also the
        anchor names `$dynamicRef`s use, wherever they are (a reference may reach a
        subschema outside the walk, as `#/components/...`)."""
        names = False
        todo = [value]
        seen: set[int] = set()  # a dict built in Python may hold itself
        while todo:
            value = todo.pop()
            if isinstance(value, dict):
                if id(value) in seen:
                    continue
                seen.add(id(value))
                if "$id" in value or "$anchor" in value or "$dynamicAnchor" in value:
                    names = True
                reference = value.get("$dynamicRef")
                if isinstance(reference, str):
                    fragment = reference.partition("#")[2]
                    if fragment and not fragment.startswith("/"):
                        self.dynamic_names.add(fragment)
                todo.extend(value.values())
            elif isinstance(value, list):
                if id(value) in seen:
                    continue
                seen.add(id(value))
                todo.extend(value)
        return names

    def _walk(self, schema: Any, base: str, location: str) -> None:
        if not isinstance(schema, dict):
            return
        identifier = schema.get("$id")
        if isinstance(identifier, str):
            base = _defragment(_join(base, identifier))[0]
            self.resources.setdefault(base, schema)
        if id(schema) in self.base:  # the same object twice (a dict built in Python)
            return
        self.base[id(schema)] = base
        self.location[id(schema)] = location
        for keyword, dynamic in (("$anchor", False), ("$dynamicAnchor", True)):
            name = schema.get(keyword)
            if isinstance(name, str):
                self.anchors.setdefault((base, name), (schema, dynamic))
                if dynamic:
                    self.dynamic_anchors.setdefault(base, set()).add(name)
                    # a $dynamicAnchor is also a plain anchor (a $ref may name it)
        for sub, where in _subschemas(schema, location):
            self._walk(sub, base, where)

    def base_of(self, schema: Any, inherited: str) -> str:
        """The base URI inside `schema` (`inherited` for a subschema outside the walk)."""
        if isinstance(schema, dict):
            known = self.base.get(id(schema))
            if known is not None:
                return known
            identifier = schema.get("$id")
            if isinstance(identifier, str):
                return _defragment(_join(inherited, identifier))[0]
        return inherited

    def location_of(self, schema: Any, fallback: str) -> str:
        """Where `schema` sits in the document, as `#/json/pointer` (`fallback` if unknown)."""
        return self.location.get(id(schema), fallback) if isinstance(schema, dict) else fallback

    def lookup(self, reference: str, base: str) -> tuple[Any, str, str | None]:
        """Where `reference` lands from inside `base`: (subschema, its resource's URI, the
        anchor name when the reference names an anchor). Raises `RemoteReference` for a URI
        the document does not define and `LookupError` for a name or pointer it lacks."""
        uri, fragment = _defragment(_join(base, reference))
        if uri not in self.resources:
            raise RemoteReference(uri)
        target = self.resources[uri]
        if not fragment:
            return target, uri, None
        if not fragment.startswith("/"):
            found = self.anchors.get((uri, fragment))
            if found is None:
                raise LookupError(f"no anchor {fragment!r} in {uri or 'the schema'}")
            return found[0], uri, fragment
        for raw in fragment.split("/")[1:]:
            if "%" in raw:
                from urllib.parse import unquote

                raw = unquote(raw)
            token = unescape_token(raw)
            try:
                target = target[int(token)] if isinstance(target, list) else target[token]
            except (KeyError, IndexError, ValueError, TypeError):
                raise LookupError(f"the pointer {fragment!r} points to nothing") from None
        return target, uri, None

    def is_dynamic_anchor(self, uri: str, name: str) -> bool:
        """Does resource `uri` define `name` with `$dynamicAnchor`?"""
        found = self.anchors.get((uri, name))
        return found is not None and found[1]

    def enter(self, context: Context, uri: str) -> Context:
        """The dynamic scope after entering resource `uri`: each `$dynamicRef` name resolves
        to the outermost resource in scope that defines it, so names already bound stay."""
        names = self.dynamic_anchors.get(uri)
        if not names:
            return context
        bound = dict(context)
        added = False
        for name in names & self.dynamic_names:
            if name not in bound:
                bound[name] = uri
                added = True
        return tuple(sorted(bound.items())) if added else context

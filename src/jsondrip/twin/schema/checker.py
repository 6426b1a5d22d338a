"""The incremental checker: schema checks on the value being read, settled as early as certain.

Twin of rust/core/schema/checker.rs, step for step. The keywords that compare Python values
(schema/complete.py) are called here directly; the native checker asks them of its oracle.

Every value being read has a frame (the stack of frames mirrors the open containers, plus
the string, number or literal still arriving). A frame holds *checks*: a subschema applied
to that value, linked to the check that asked for it. `allOf` children, `$ref` targets and
the subschemas of properties and items are conjunctive: their failure fails their parent.
`anyOf`/`oneOf` children fail their parent when the last of them fails; a `not` child only
counts when the value is complete, as do `oneOf`'s "only one" and the keywords checked at
completion. The root check failing is a `SchemaViolation`.

Some children are *conditional*: `if`/`then`/`else`, a `dependentSchemas` entry, and the
`unevaluatedProperties`/`unevaluatedItems` subschema of a key or item that a subschema may
still evaluate. They run from the value's first character like any other check, but their
failure fails their parent only once its condition is settled: at once when it already is
(`else` after `if` failed, a dependent property already present), else later (the value's
end, the dependent property's key) from the failure they kept. Which keys and items were
evaluated is read at the value's end from the checks still alive (alive then means valid).

A check fails only when no continuation of the text can satisfy it (see docs/schema.md for
the rule of each keyword), so a prefix that can still be completed validly is never
flagged. Work per value is bounded by the size of the schema, so a stream costs linear time.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Callable

from ..._changes import escape_token
from ...schema.complete import (
    atom_failure,
    container_failure,
    one_of,
    pattern_matches,
    pattern_property_matches,
)
from ...schema.nodes import ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, Node
from ...schema.table import never_keyword
from ...schema.values import kind_of, show
from ...schema.violation import SchemaViolation

# How a check is tied to its parent.
ALL, ANY, ONE, NOT, CONTAINS, IF, THEN, ELSE, DEPENDENT, UNEVALUATED = range(10)
KEY = "key"  # a frame for an object's key while it arrives (its checks: propertyNames)
# What a string (or key) filter holds: enum members, the names of a closed object, or the
# names the subschemas of an `unevaluatedProperties: false` object can evaluate.
ENUM, NAMES, UNEVALUATED_NAMES = range(3)

# A failure passing to the parent through a union or a condition: its keyword, and the words
# put before the inner failure's message.
ANY_OF = ("anyOf", "not valid under any of the given schemas (anyOf); the last ruled out: ")
ONE_OF = ("oneOf", "not valid under any of the given schemas (oneOf); the last ruled out: ")
THEN_FAILED = ("then", "valid under 'if' but not under 'then': ")
ELSE_FAILED = ("else", "not valid under 'if' nor under 'else': ")
NEITHER = ("if", "valid under neither 'then' nor 'else' (if/then/else); the last ruled out: ")
UNEVALUATED_PROPERTY = ("unevaluatedProperties", "not valid under unevaluatedProperties: ")
UNEVALUATED_ITEM = ("unevaluatedItems", "not valid under unevaluatedItems: ")


def _dependent(name: str) -> tuple[str, str]:
    return "dependentSchemas", f"{show(name)} is present, so its dependentSchemas entry applies: "


class Failure:
    """A failure kept by a conditional check until its condition settles (or a wrapped one on
    its way up): the path, keyword and message it will be reported with."""

    __slots__ = ("keyword", "message", "path")

    def __init__(self, path: str, keyword: str, message: str) -> None:
        self.path = path
        self.keyword = keyword
        self.message = message


class Check:
    """One subschema applied to one value."""

    __slots__ = (
        "alive",
        "any_left",
        "contains_count",
        "extra",
        "frame",
        "index",
        "node",
        "not_check",
        "one_checks",
        "one_left",
        "parent",
        "role",
    )

    def __init__(self, node: Node, parent: Check | None, role: int, frame: Frame) -> None:
        self.node = node
        self.parent = parent
        self.role = role
        self.frame = frame
        self.index = len(frame.checks)  # its place among its frame's checks
        self.alive = True
        self.any_left = 0  # anyOf children still alive
        self.one_left = 0  # oneOf children still alive
        self.one_checks: list[Check] | None = None
        self.not_check: Check | None = None
        self.contains_count = 0
        self.extra: Extra | None = None  # only for the keywords that need it


class Extra:
    """What a check of the conditional and `unevaluated*` keywords keeps (most have none)."""

    __slots__ = (
        "contains_passed",
        "deferred",
        "dependent_checks",
        "else_check",
        "end",
        "if_check",
        "kept",
        "then_check",
    )  # fmt: skip

    def __init__(self) -> None:
        self.if_check: Check | None = None
        self.then_check: Check | None = None
        self.else_check: Check | None = None
        self.dependent_checks: list[Check] = []  # by the node's dependent_schemas
        # A conditional check that failed before its condition settled: its failure.
        self.kept: Failure | None = None
        # unevaluated*: (key or index, its failure: None for the `false` schema) of each
        # key or item that failed the unevaluated subschema while some subschema might still
        # evaluate it; settled at the value's end.
        self.deferred: list[tuple[Any, Failure | None]] = []
        self.end = 0  # past the last of its frame's checks below it (they follow it in order)
        self.contains_passed: list[int] = []  # the items its `contains` passed, for unevaluated*


class Frame:
    """A value being read."""

    __slots__ = (
        "checks", "count", "filters", "key", "keys", "kind", "length", "limit", "parent",
        "parts", "settle", "slot",
    )  # fmt: skip

    def __init__(self, kind: str, parent: Frame | None, slot: Any) -> None:
        self.kind = kind
        # Where it sits: its container's frame and its key or index there (_ROOT at the top).
        # The path is walked only when needed, so a deep value costs no more than a shallow one.
        self.parent = parent
        self.slot = slot
        self.checks: list[Check] = []
        self.count = 0  # properties or elements begun
        self.keys: set[str] = set()
        self.key: str | None = None
        self.length = 0  # string: characters so far
        self.limit = NO_LIMIT  # string: the smallest maxLength of its checks
        self.parts: list[str] = []
        # string: per check with string enum members, the members the text is still a prefix of
        # (the core keeps the same members as a range of them sorted by their bytes, where
        # those that begin with the text are neighbours; the set and its order as
        # `candidates` gives it are the same)
        self.filters: list[list[Any]] = []
        # a check of it has something to settle at the value's end (`not`, `oneOf`, `if`...)
        self.settle = False

    @property
    def segments(self) -> tuple[Any, ...]:
        """Its path: the keys and indexes from the root."""
        out = []
        frame: Frame | None = self
        while frame is not None and frame.slot is not _ROOT:
            out.append(frame.slot)
            frame = frame.parent
        out.reverse()
        return tuple(out)


_ROOT = object()


def pointer(segments: tuple[Any, ...]) -> str:
    """The JSON Pointer of a path of keys and indexes."""
    return "".join("/" + (escape_token(s) if type(s) is str else str(s)) for s in segments)


def _where(path: str) -> str:
    return path or "(root)"


def _failure(
    inner: Failure | tuple[Frame, str, str], wraps: list[tuple[Frame, tuple[str, str]]]
) -> Failure:
    """A failure worded from its cause (a kept failure, or (frame, keyword, detail)) outwards
    through the unions and conditions it passed."""
    if isinstance(inner, Failure):
        path, keyword, message = inner.path, inner.keyword, inner.message
    else:
        leaf, keyword, detail = inner
        path = pointer(leaf.segments)
        message = f"{_where(path)}: {detail}"
    for frame, (wrap_keyword, words) in wraps:
        keyword = wrap_keyword
        path = pointer(frame.segments)
        message = f"{_where(path)}: {words}{message}"
    return Failure(path, keyword, message)


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


class Checker:
    """Checks one document against one compiled schema, event by event (see scanner.py)."""

    def __init__(self, root: Node, value_at: Callable[[tuple[Any, ...]], Any]) -> None:
        self.root = root
        self.value_at = value_at  # the complete value at a path, for keywords that compare values
        self.frames: list[Frame] = []
        self.root_done = False
        self.arriving: tuple[str, ...] | None = None  # open_tokens(), until the values change

    # -- failing -------------------------------------------------------------------------------

    def kill(self, check: Check, keyword: str, pos: int, detail: str) -> None:
        """`check` can no longer pass: fail it and what depends on it."""
        self._fail(check, (check.frame, keyword, detail), [], pos)

    def _fail(
        self,
        check: Check,
        inner: Failure | tuple[Frame, str, str],
        wraps: list[tuple[Frame, tuple[str, str]]],
        pos: int,
    ) -> None:
        """Fail `check` for `inner` (wrapped in `wraps` on its way up), then its parents as far
        as they depend on it; the root failing raises."""
        while check.alive:
            check.alive = False
            parent = check.parent
            role = check.role
            if parent is None:
                failure = _failure(inner, wraps)
                raise SchemaViolation(
                    failure.message, path=failure.path, pos=pos, keyword=failure.keyword
                )
            if role == ALL:
                check = parent
            elif role in (ANY, ONE):
                if role == ANY:
                    parent.any_left -= 1
                    left = parent.any_left
                else:
                    parent.one_left -= 1
                    left = parent.one_left
                if left:
                    return
                wraps.append((parent.frame, ANY_OF if role == ANY else ONE_OF))
                check = parent
            elif role in (NOT, CONTAINS):  # settled when the value completes
                return
            else:
                if not parent.alive:
                    return
                wrap = self._settled(check, parent, role)
                if wrap is None:  # its condition is open: keep the failure for later
                    if role != IF:
                        kept = _failure(inner, wraps)
                        if role == UNEVALUATED:
                            parent.extra.deferred.append((check.frame.slot, kept))  # type: ignore[union-attr]
                        else:
                            check.extra.kept = kept  # type: ignore[union-attr]
                    return
                if role == IF:  # `if` failed and `else` had already: report `else`'s failure
                    inner, wraps = _take_kept(parent.extra.else_check, parent), []  # type: ignore[union-attr]
                wraps.append((parent.frame, wrap))
                check = parent

    def _settled(self, check: Check, parent: Check, role: int) -> tuple[str, str] | None:
        """A conditional child `check` failed: how the failure reads if it fails `parent`
        now, or None while its condition is open (or it no longer matters)."""
        extra = parent.extra
        assert extra is not None
        if role == IF:
            other = extra.else_check
            return ELSE_FAILED if other is not None and not other.alive else None
        if role == THEN:
            if not extra.if_check.alive:  # type: ignore[union-attr]
                return None  # `else` decides
            other = extra.else_check
            return NEITHER if other is not None and not other.alive else None
        if role == ELSE:
            if not extra.if_check.alive:  # type: ignore[union-attr]
                return ELSE_FAILED
            other = extra.then_check
            return NEITHER if other is not None and not other.alive else None
        if role == DEPENDENT:
            name = parent.node.dependent_schemas[extra.dependent_checks.index(check)][0]
            return _dependent(name) if name in parent.frame.keys else None
        return None  # UNEVALUATED: settled at the value's end

    # -- frames and checks ---------------------------------------------------------------------

    def spawn(
        self, node: Node, parent: Check | None, role: int, frame: Frame, depth: int = 0
    ) -> Check:
        check = Check(node, parent, role, frame)
        frame.checks.append(check)
        if role in (THEN, ELSE, DEPENDENT) or (  # (THEN...: the failure it may keep)
            node.beside
            and (
                node.if_ is not None
                or node.dependent_schemas
                or node.evaluated is not None
                or node.contains_annotates
            )
        ):
            check.extra = Extra()
        if depth > 64:  # a $ref cycle that never reaches a value: jsonschema recurses forever
            return check
        if not node.beside:
            return check  # the common case: no applicators
        frame.settle = True
        for sub in node.all_of:
            self.spawn(sub, check, ALL, frame, depth + 1)
        for target in node.refs:
            self.spawn(target, check, ALL, frame, depth + 1)
        if node.any_of:
            check.any_left = len(node.any_of)
            for sub in node.any_of:
                self.spawn(sub, check, ANY, frame, depth + 1)
        if node.one_of:
            check.one_left = len(node.one_of)
            check.one_checks = [
                self.spawn(sub, check, ONE, frame, depth + 1) for sub in node.one_of
            ]
        if node.not_ is not None:
            check.not_check = self.spawn(node.not_, check, NOT, frame, depth + 1)
        if node.if_ is not None:
            extra = check.extra
            assert extra is not None
            extra.if_check = self.spawn(node.if_, check, IF, frame, depth + 1)
            if node.then is not None:
                extra.then_check = self.spawn(node.then, check, THEN, frame, depth + 1)
            if node.else_ is not None:
                extra.else_check = self.spawn(node.else_, check, ELSE, frame, depth + 1)
        if node.dependent_schemas and frame.kind == OBJECT:
            check.extra.dependent_checks = [  # type: ignore[union-attr]
                self.spawn(sub, check, DEPENDENT, frame, depth + 1)
                for _, sub in node.dependent_schemas
            ]
        if node.evaluated is not None or node.contains_annotates:
            check.extra.end = len(frame.checks)  # type: ignore[union-attr]
        return check

    def begin(self, kind: str, pos: int, negative: bool = False) -> Frame:
        """A value begins at `pos`: its first character settled its JSON type."""
        frames = self.frames
        if not frames:
            frame = Frame(kind, None, _ROOT)
            self.spawn(self.root, None, ALL, frame)
        else:
            parent = frames[-1]
            if parent.kind == OBJECT:
                key = parent.key
                frame = Frame(kind, parent, key)
                for check in parent.checks:
                    if check.alive and check.node.has_object_keywords:
                        self._property_checks(check, key, frame)  # type: ignore[arg-type]
            else:
                index = parent.count
                parent.count = index + 1
                frame = Frame(kind, parent, index)
                for check in parent.checks:
                    if check.alive and check.node.has_array_keywords:
                        self._item_checks(check, index, frame, pos)
        frames.append(frame)
        self.arriving = None
        self._first_character(frame, kind, pos, negative)
        return frame

    def _property_checks(self, check: Check, key: str, frame: Frame) -> None:
        node = check.node
        matched = False
        if node.properties is not None:
            sub = node.properties.get(key)
            if sub is not None:
                matched = True
                self.spawn(sub, check, ALL, frame)
        for regex, sub in node.pattern_properties:
            if regex.search(key):
                matched = True
                self.spawn(sub, check, ALL, frame)
        if not matched and node.additional is not None:
            self.spawn(node.additional, check, ALL, frame)
        unevaluated = node.unevaluated_properties
        if unevaluated is not None and not matched:
            if unevaluated.never:
                # settled at the object's end: `_key_done` fails it at the key only when no
                # subschema could evaluate the key then, but one that could may have failed
                # at the same key after this check's turn (anyOf's branch, closed by
                # additionalProperties: false)
                check.extra.deferred.append((key, None))  # type: ignore[union-attr]
            elif self._surely_unevaluated(check, key):
                self.spawn(unevaluated, check, ALL, frame)
            else:
                self.spawn(unevaluated, check, UNEVALUATED, frame)

    def _item_checks(self, check: Check, index: int, frame: Frame, pos: int) -> None:
        node = check.node
        if node.max_items is not None and index >= node.max_items:
            self.kill(check, "maxItems", pos, f"the array has more than {node.max_items} items")
            return
        unevaluated = node.unevaluated_items
        if unevaluated is not None and index >= len(node.prefix_items):
            if self._surely_unevaluated(check, index):
                if unevaluated.never:
                    self.kill(
                        check,
                        "unevaluatedItems",
                        pos,
                        f"unevaluated items are not allowed (item {index} was unexpected)",
                    )
                    return
                self.spawn(unevaluated, check, ALL, frame)
            elif unevaluated.never:
                check.extra.deferred.append((index, None))  # type: ignore[union-attr]
            else:
                self.spawn(unevaluated, check, UNEVALUATED, frame)
        if index < len(node.prefix_items):
            self.spawn(node.prefix_items[index], check, ALL, frame)
        elif node.items is not None:
            self.spawn(node.items, check, ALL, frame)
        if node.contains is not None:
            self.spawn(node.contains, check, CONTAINS, frame)

    def _first_character(self, frame: Frame, kind: str, pos: int, negative: bool) -> None:
        for check in frame.checks:
            if not check.alive:
                continue
            node = check.node
            if node.max_length is not None and node.max_length < frame.limit:
                frame.limit = node.max_length
            if node.never:
                self.kill(
                    check, never_keyword(node), pos, "no value is allowed here (false schema)"
                )
                continue
            types = node.types
            seen = STRING if kind == KEY else kind
            if (
                types is not None
                and seen not in types
                and not (seen == NUMBER and "integer" in types)
            ):
                names = ", ".join(sorted(types))
                self.kill(
                    check,
                    "type",
                    pos,
                    f"expected {names}, got {'a key' if kind == KEY else _article(kind)}",
                )
                continue
            if node.enum is not None:
                wanted = STRING if kind == KEY else kind
                members = tuple(m for m in node.enum if kind_of(m) == wanted)
                if not members:
                    keyword = "const" if node.const else "enum"
                    self.kill(check, keyword, pos, f"a {wanted} is not one of {one_of(node.enum)}")
                    continue
                if wanted == STRING:
                    frame.filters.append([check, list(members), ENUM])
            if negative and kind == NUMBER:
                if node.minimum is not None and node.minimum > 0:
                    self.kill(
                        check,
                        "minimum",
                        pos,
                        f"a negative number is less than the minimum of {show(node.minimum)}",
                    )
                elif node.exclusive_minimum is not None and node.exclusive_minimum >= 0:
                    self.kill(
                        check,
                        "exclusiveMinimum",
                        pos,
                        "a negative number is less than or equal to the minimum of "
                        + show(node.exclusive_minimum),
                    )

    # -- strings and keys ------------------------------------------------------------------------

    def begin_key(self, pos: int) -> None:
        """An object's key begins (its quote at `pos`): propertyNames and a closed set of names."""
        obj = self.frames[-1]
        frame = Frame(KEY, obj.parent, obj.slot)  # a key's path is its object's
        for check in obj.checks:
            if not check.alive:
                continue
            node = check.node
            if node.property_names is not None:
                self.spawn(node.property_names, check, ALL, frame)
            if (
                node.additional is not None
                and node.additional.never
                and not node.pattern_properties
            ):
                frame.filters.append([check, list(node.properties or ()), NAMES])
            unevaluated = node.unevaluated_properties
            if unevaluated is not None and unevaluated.never:
                evaluated = node.evaluated
                assert evaluated is not None
                if not evaluated.all_keys and not evaluated.patterns:
                    frame.filters.append([check, list(evaluated.names), UNEVALUATED_NAMES])
        self.frames.append(frame)
        self._first_character(frame, KEY, pos, False)

    def text(self, piece: str, start: int, plain: bool, closes: bool) -> None:
        """More string content: `piece` began at `start` (a plain run), or is one escape."""
        frame = self.frames[-1]
        old = frame.length
        frame.parts.append(piece)
        length = frame.length = old + len(piece)
        if frame.filters:
            self._filter(frame, piece, old, start, plain, closes)
        if length <= frame.limit:
            return
        for check in frame.checks:
            node = check.node
            if node.max_length is not None and length > node.max_length and check.alive:
                at = start + node.max_length - old if plain else start
                self.kill(
                    check,
                    "maxLength",
                    at,
                    f"{self._shown(frame, closes)} is longer than {node.max_length} characters",
                )

    def _shown(self, frame: Frame, complete: bool) -> str:
        text = "".join(frame.parts)
        if len(text) > 60:
            return show(text[:60]) + "..."
        return show(text) if complete else show(text) + "..."

    def _filter(
        self, frame: Frame, piece: str, old: int, start: int, plain: bool, closes: bool
    ) -> None:
        for entry in frame.filters:
            check, members = entry[0], entry[1]
            if not check.alive:
                continue
            kept = [m for m in members if m.startswith(piece, old)]
            if kept:
                entry[1] = kept
                continue
            reach = 0  # how far into `piece` the longest member still agreed
            for member in members:
                tail = member[old:]
                n = 0
                for a, b in zip(tail, piece):
                    if a != b:
                        break
                    n += 1
                reach = max(reach, n)
            at = start + reach if plain else start
            if entry[2] == NAMES:  # a key outside a closed set of property names
                self.kill(
                    check, "additionalProperties", at,
                    f"additional properties are not allowed ({self._shown(frame, closes)} "
                    f"is not one of {one_of(tuple(check.node.properties or ())) or 'no names'})",
                )  # fmt: skip
            elif entry[2] == UNEVALUATED_NAMES:  # a key no subschema can evaluate
                names = tuple(check.node.evaluated.names)  # type: ignore[union-attr]
                self.kill(
                    check, "unevaluatedProperties", at,
                    f"unevaluated properties are not allowed ({self._shown(frame, closes)} "
                    f"is not one of {one_of(names) or 'no names'})",
                )  # fmt: skip
            else:
                keyword = "const" if check.node.const else "enum"
                self.kill(
                    check,
                    keyword,
                    at,
                    f"{self._shown(frame, closes)} is not one of {one_of(check.node.enum)}",
                )  # type: ignore[arg-type]

    def end_string(self, pos: int) -> None:
        """The closing quote at `pos` of a string value or key."""
        frame = self.frames[-1]
        text = "".join(frame.parts)
        for entry in frame.filters:
            check = entry[0]
            if check.alive and text not in entry[1]:
                if entry[2] != ENUM:
                    keyword = (
                        "additionalProperties" if entry[2] == NAMES else "unevaluatedProperties"
                    )
                    words = "additional" if entry[2] == NAMES else "unevaluated"
                    self.kill(
                        check,
                        keyword,
                        pos,
                        f"{words} properties are not allowed ({show(text)} was unexpected)",
                    )
                else:
                    keyword = "const" if check.node.const else "enum"
                    self.kill(
                        check,
                        keyword,
                        pos,
                        f"{show(text)} is not one of {one_of(check.node.enum)}",
                    )  # type: ignore[arg-type]
        for check in frame.checks:
            node = check.node
            if not check.alive:
                continue
            if node.min_length is not None and frame.length < node.min_length:
                self.kill(
                    check,
                    "minLength",
                    pos,
                    f"{show(text)} is shorter than {node.min_length} characters",
                )
            elif node.pattern is not None and not pattern_matches(node, text):
                self.kill(
                    check,
                    "pattern",
                    pos,
                    f"{show(text)} does not match {show(node.pattern.pattern)}",
                )
        if frame.kind == KEY:
            self._complete(frame, pos)
            self._key_done(text, pos)
        else:
            self._complete(frame, pos)

    def _key_done(self, key: str, pos: int) -> None:
        obj = self.frames[-1]
        obj.key = key
        if key in obj.keys:
            return
        obj.keys.add(key)
        obj.count += 1
        for check in obj.checks:
            node = check.node
            if not check.alive or not node.has_object_keywords:
                continue
            if node.max_properties is not None and obj.count > node.max_properties:
                self.kill(
                    check,
                    "maxProperties",
                    pos,
                    f"the object has more than {node.max_properties} properties",
                )
            elif (
                node.additional is not None
                and node.additional.never
                and (node.properties is None or key not in node.properties)
                and not any(r.search(key) for r, _ in node.pattern_properties)
            ):
                self.kill(
                    check,
                    "additionalProperties",
                    pos,
                    f"additional properties are not allowed ({show(key)} was unexpected)",
                )
            elif (
                node.unevaluated_properties is not None
                and node.unevaluated_properties.never
                and self._surely_unevaluated(check, key)
            ):
                self.kill(
                    check,
                    "unevaluatedProperties",
                    pos,
                    f"unevaluated properties are not allowed ({show(key)} was unexpected)",
                )
            if check.alive and check.extra is not None and check.extra.dependent_checks:
                for (name, _), dependent in zip(
                    node.dependent_schemas, check.extra.dependent_checks
                ):
                    if name == key and not dependent.alive and check.alive:
                        kept = _take_kept(dependent, check)
                        self._fail(check, kept, [(obj, _dependent(name))], pos)

    # -- numbers and literals -------------------------------------------------------------------

    def end_atom(self, value: Any, pos: int) -> None:
        """A number or literal is complete; `pos` is where that became certain."""
        frame = self.frames[-1]
        is_number = frame.kind == NUMBER
        for check in frame.checks:
            if not check.alive:
                continue
            failure = atom_failure(check.node, value, is_number)
            if failure is not None:
                self.kill(check, failure[0], pos, failure[1])
        self._complete(frame, pos)

    # -- containers ------------------------------------------------------------------------------

    def end_container(self, pos: int) -> None:
        """`}` or `]` at `pos`."""
        frame = self.frames[-1]
        value: Any = _UNREAD
        for check in frame.checks:
            if not check.alive:
                continue
            node = check.node
            if frame.kind == OBJECT:
                if node.has_object_keywords and not self._object_complete(check, frame, pos):
                    continue
            elif node.has_array_keywords:
                if node.min_items is not None and frame.count < node.min_items:
                    self.kill(
                        check, "minItems", pos, f"the array has fewer than {node.min_items} items"
                    )
                    continue
                if node.contains is not None and check.contains_count < node.min_contains:
                    keyword = "contains" if node.min_contains == 1 else "minContains"
                    self.kill(
                        check,
                        keyword,
                        pos,
                        f"the array has fewer than {node.min_contains} items matching contains",
                    )
                    continue
            if (frame.kind == ARRAY and node.has_array_keywords and node.unique_items) or (
                node.enum is not None
            ):
                if value is _UNREAD:
                    value = self.value_at(frame.segments)
                failure = container_failure(node, value)
                if failure is not None:
                    self.kill(check, failure[0], pos, failure[1])
        self._complete(frame, pos)

    def _object_complete(self, check: Check, frame: Frame, pos: int) -> bool:
        node = check.node
        keys = frame.keys
        for name in node.required:
            if name not in keys:
                self.kill(check, "required", pos, f"{show(name)} is a required property")
                return False
        if node.min_properties is not None and frame.count < node.min_properties:
            self.kill(
                check,
                "minProperties",
                pos,
                f"the object has fewer than {node.min_properties} properties",
            )
            return False
        if node.dependent_required:
            for name, needed in node.dependent_required.items():
                if name in keys:
                    for other in needed:
                        if other not in keys:
                            self.kill(
                                check,
                                "dependentRequired",
                                pos,
                                f"{show(other)} is a dependency of {show(name)}",
                            )
                            return False
        return True

    # -- completion ------------------------------------------------------------------------------

    def _complete(self, frame: Frame, pos: int) -> None:
        """The value is complete: settle `not`, `oneOf`'s "only one" and `contains`."""
        checks = frame.checks
        for check in reversed(checks) if frame.settle else ():
            if not check.alive:
                continue
            if check.not_check is not None and check.not_check.alive:
                self.kill(
                    check, "not", pos, "the value must not be valid under the schema in 'not'"
                )
                continue
            if check.one_checks is not None:
                passing = sum(1 for c in check.one_checks if c.alive)
                if passing > 1:
                    self.kill(
                        check,
                        "oneOf",
                        pos,
                        f"the value is valid under {passing} of the schemas in oneOf "
                        "(only one may match)",
                    )
                    continue
            if check.extra is not None and check.alive:
                self._complete_extra(check, frame, pos)
        self.frames.pop()
        if frame.kind == KEY:
            return
        self.arriving = None
        for check in checks:
            if check.role == CONTAINS and check.alive:
                owner = check.parent
                if owner is not None and owner.alive:
                    owner.contains_count += 1
                    if owner.node.contains_annotates:
                        owner.extra.contains_passed.append(frame.slot)  # type: ignore[union-attr]
                    maximum = owner.node.max_contains
                    if maximum is not None and owner.contains_count > maximum:
                        self.kill(
                            owner,
                            "maxContains",
                            pos,
                            f"the array has more than {maximum} items matching contains",
                        )
        if not self.frames:
            self.root_done = True

    def _complete_extra(self, check: Check, frame: Frame, pos: int) -> None:
        """At the value's end: `then` once `if` passed, and the unevaluated keys or items."""
        extra = check.extra
        assert extra is not None
        then = extra.then_check
        if then is not None and not then.alive and extra.if_check.alive:  # type: ignore[union-attr]
            self._fail(check, _take_kept(then, check), [(frame, THEN_FAILED)], pos)
            return
        for slot, kept in extra.deferred:
            if self._evaluated(check, slot):
                continue
            if frame.kind == OBJECT:
                if kept is None:
                    self.kill(
                        check,
                        "unevaluatedProperties",
                        pos,
                        f"unevaluated properties are not allowed ({show(slot)} was unexpected)",
                    )
                else:
                    self._fail(check, kept, [(frame, UNEVALUATED_PROPERTY)], pos)
            elif kept is None:
                self.kill(
                    check,
                    "unevaluatedItems",
                    pos,
                    f"unevaluated items are not allowed (item {slot} was unexpected)",
                )
            else:
                self._fail(check, kept, [(frame, UNEVALUATED_ITEM)], pos)
            return

    def _surely_unevaluated(self, owner: Check, slot: Any) -> bool:
        """No subschema applied beside `owner` can evaluate this key or item any more,
        whatever the rest holds: none could ever (the node's `evaluated`), or every one that
        could has failed or can no longer count (under `not`, `then` once `if` failed)."""
        node = owner.node
        evaluated = node.evaluated
        assert evaluated is not None
        if type(slot) is int:
            if not (evaluated.all_items or evaluated.contains or slot < evaluated.prefix):
                return True
            if node.contains is not None or slot < len(node.prefix_items):
                return False  # its own keywords
        elif not (
            evaluated.all_keys
            or slot in evaluated.names
            or any(pattern_property_matches(n, i, slot) for n, i in evaluated.patterns)
        ):
            return True
        elif (node.properties is not None and slot in node.properties) or any(
            regex.search(slot) for regex, _ in node.pattern_properties
        ):
            return False  # its own keywords
        checks = owner.frame.checks
        first = owner.index
        could = [True]  # by place after `owner`: may its annotations still count?
        for check in checks[first + 1 : owner.extra.end]:  # type: ignore[union-attr]
            parent = check.parent
            could_here = could[parent.index - first] and check.alive  # type: ignore[union-attr]
            if could_here:
                if check.role == NOT:
                    could_here = False
                elif check.role == THEN:
                    could_here = parent.extra.if_check.alive  # type: ignore[union-attr]
            could.append(could_here)
            if could_here and _evaluates(check, slot, passed_yet=False):
                return False
        return True

    def _evaluated(self, owner: Check, slot: Any) -> bool:
        """Did a subschema applied beside `owner`, and valid, evaluate this key or item?"""
        extra = owner.extra
        assert extra is not None
        checks = owner.frame.checks
        first = owner.index
        if type(slot) is int and _passed(extra.contains_passed, slot):
            return True
        counts = [True]  # by place after `owner`: do its annotations count?
        for check in checks[first + 1 : extra.end]:
            parent = check.parent
            counts_here = counts[parent.index - first] and check.alive  # type: ignore[union-attr]
            if counts_here:
                role = check.role
                if role == NOT:
                    counts_here = False
                elif role == THEN:
                    counts_here = parent.extra.if_check.alive  # type: ignore[union-attr]
                elif role == ELSE:
                    counts_here = not parent.extra.if_check.alive  # type: ignore[union-attr]
                elif role == DEPENDENT:
                    dependent = parent.extra.dependent_checks.index(check)  # type: ignore[union-attr]
                    counts_here = parent.node.dependent_schemas[dependent][0] in owner.frame.keys  # type: ignore[union-attr]
            counts.append(counts_here)
            if counts_here and _evaluates(check, slot):
                return True
        return False

    # -- the typed view --------------------------------------------------------------------------

    def open_tokens(self) -> tuple[str, ...]:
        """The path of the innermost value still arriving, as JSON Pointer tokens: it and every
        prefix of it are the values still arriving. () with none (or only the root) open."""
        if self.arriving is None:
            self.arriving = ()
            for frame in reversed(self.frames):
                if frame.kind != KEY:
                    self.arriving = tuple(str(s) for s in frame.segments)
                    break
        return self.arriving

    def candidates(self) -> list[str] | None:
        """For a string value still arriving under an enum or const: the members still possible."""
        if not self.frames:
            return None
        frame = self.frames[-1]
        if frame.kind != STRING:
            return None
        possible: list[str] | None = None
        for entry in frame.filters:
            if entry[0].alive:
                members = entry[1]
                possible = members if possible is None else [m for m in possible if m in members]
        return None if possible is None else list(possible)


def _take_kept(check: Check | None, parent: Check) -> Failure:
    """The failure a conditional check kept (always there when its parent is still alive; a
    plain one otherwise)."""
    extra = None if check is None else check.extra
    kept = None if extra is None else extra.kept
    if kept is None:
        return _failure((parent.frame, "if", "not valid under the conditional schema"), [])
    extra.kept = None  # type: ignore[union-attr]
    return kept


def _passed(passed: list[int], index: int) -> bool:
    """Is `index` in the sorted list of items a `contains` passed?"""
    at = bisect_left(passed, index)
    return at < len(passed) and passed[at] == index


def _evaluates(check: Check, slot: Any, passed_yet: bool = True) -> bool:
    """Does this (valid) subschema evaluate the key or item? (`passed_yet` False: might its
    `contains` still pass the item?)"""
    node = check.node
    if type(slot) is int:
        if node.items is not None or node.unevaluated_items is not None:
            return True
        if slot < len(node.prefix_items):
            return True
        if node.contains is None:
            return False
        return not passed_yet or _passed(check.extra.contains_passed, slot)  # type: ignore[union-attr]
    if node.additional is not None or node.unevaluated_properties is not None:
        return True
    if node.properties is not None and slot in node.properties:
        return True
    return any(regex.search(slot) for regex, _ in node.pattern_properties)


_UNREAD = object()
NO_LIMIT = float("inf")

__all__ = ["ARRAY", "BOOLEAN", "KEY", "NULL", "NUMBER", "OBJECT", "STRING", "Checker"]

"""Typed partials: the stable value as pydantic models, never ahead of the model (`partial()`).

`PartialReader.read()` shows the live value of a parser through its `Schema.from_model` type:

- a field the text has not started is unset: absent from `model_fields_set`, its attribute
  `None` (a pydantic instance must hold something there), never its default;
- a field that is arriving shows what has arrived, as the untyped stable value does: a growing
  string, a list whose finished items are validated and whose open item is itself partial, a
  nested model as deep as the text goes; numbers and literals appear once complete;
- a value is validated (its validators included) only once it is complete: a field by its
  model's own field validator (`info.data` holds the fields completed before it), a list item
  or a whole model by its type's validator (model validators run there).

The result is live, like the untyped value: the same instances, lists and dicts are updated in
place by later reads (a partial model becomes the validated one, in its parent, when it
completes). Each read costs in proportion to what changed: it follows only the value still
arriving (at most one per level), never the finished items. docs/schema.md says the rules.
"""

from __future__ import annotations

import contextlib
import typing
from itertools import islice
from typing import Any, Callable

from .._changes import escape_token
from .._missing import MISSING
from .schema import Schema, model_violation
from .violation import SchemaViolation

__all__ = ["PartialReader", "completed_value"]

_CONTAINERS = (dict, list)


class PartialReader:
    """`partial()` of one document: `read()` gives the typed view of its stable value.

    `source` is the engine reading it: its live `value`, `done` (the document is complete)
    and `open_depth` (how many values along the live value's last path are still arriving;
    every other value shown is complete, so nothing else needs asking).
    """

    __slots__ = ("_innermost", "_plan", "_root", "_source")

    def __init__(self, schema: Schema, source: Any) -> None:
        if schema.model is None:
            raise ValueError("partial() needs a parser made with schema=Schema.from_model(Model)")
        plan = schema.partial_plan
        if plan is None:
            plan = schema.partial_plan = _plan(schema.model, {}, schema.adapter.validate_python)
        self._plan: _Plan = plan
        self._source = source
        self._root: Any = None  # the node of the root value while it arrives
        # what the last read left arriving, innermost: the containers from the root down
        # to it (the last path's), the depth of what arrives, and when that is an entry of
        # the last container (a string): where its partial shows it (`shown[slot]`) and
        # where the live value has it (`raw[key]`); else None, None, None, None
        self._innermost: tuple[list[Any], int, Any, Any, Any, Any] | None = None

    def read(self) -> Any:
        """The partial value now: a partial instance (or list, dict) while the document
        arrives, the validated value once it is complete; before any value, an instance with
        no field set (`MISSING` for a root that is not a model)."""
        source = self._source
        innermost = self._innermost
        if innermost is not None:
            # What the last read left arriving, innermost: a string, or a container whose
            # entries were all complete. The containers down to it that have no new entry
            # are unchanged (stable mode adds to a container only once its last entry is
            # complete, and a container that closed is followed by a new entry in its
            # parent or by the document's end): the walk resumes at the first that has one.
            # If none has and it still arrives, it is all there is to show again.
            chain, depth, shown, slot, raw, key = innermost
            for node in chain:
                if len(node.source) != node.count:
                    if node is not chain[-1]:
                        del chain[chain.index(node) + 1 :]
                    break
            else:
                open_depth = source.open_depth
                if open_depth >= depth and shown is not None:
                    source.value  # noqa: B018 - brings the growing string's slot up to date
                    if open_depth > depth:
                        shown[slot] = raw[key]
                    else:  # the string is complete, its container is not
                        node.settle(raw[key])
                        self._innermost = (chain, depth - 1, None, None, None, None)
                    return self._root.out
                if open_depth > depth:
                    return self._root.out
            self._innermost = None
            value = source.value
            open_depth = source.open_depth
            if open_depth and chain[0].source is value:  # the root still arrives
                return self._walk(chain, open_depth)
        else:
            value = source.value
        plan = self._plan
        if value is MISSING:
            return plan.blank() if plan.kind == _MODEL else MISSING
        root = self._root
        if root is not None and root.source is not value:
            root = None
        if source.done:
            if type(root) is not _Final:
                try:
                    final = plan.validate(value)
                except ValueError as error:
                    if type(error).__name__ != "ValidationError":
                        raise
                    raise _violation(error, "") from error
                if root is not None:
                    final = _kept(final, root.out)
                root = self._root = _Final(value, final)
            return root.final
        if root is None:
            if type(value) not in _CONTAINERS or plan.kind == _OPAQUE:
                return value
            root = self._root = plan.node("", value, 0)
        if type(root) is _Raw:
            return root.out
        return self._walk([root], source.open_depth)

    def _walk(self, chain: list[Any], open_depth: int) -> Any:
        """Bring the partial up to date along the value still arriving (the last path):
        down from the last container of `chain` (the containers on that path from the root,
        each the last entry of the one before) to the innermost entry that may be open
        (settling the entries that new ones followed, which stable mode makes final), then
        up while what was open turns out complete. The values on that path at depths below
        `open_depth` (the root's depth is 0) are the ones still arriving; every other one
        is complete. Nothing off that path is looked at."""
        node = chain[-1]
        while True:
            entry = node.sync()
            if entry is None:
                break
            raw = node.source[entry.key]
            if type(raw) in _CONTAINERS and entry.plan.kind != _OPAQUE:
                child = entry.node
                if child is None or child.source is not raw:
                    child = entry.node = entry.plan.node(entry.path, raw, node.depth + 1)
                    node.put(entry, child.out, False)
                if type(child) is _Raw:
                    break
                chain.append(child)
                node = child
                continue
            if open_depth > node.depth + 1:
                node.put(entry, raw, False)  # arriving: so is every container above it
                shown, slot = node.slot(entry)
                self._innermost = (chain, node.depth + 1, shown, slot, node.source, entry.key)
                return self._root.out
            node.settle(raw)
            break
        # what was innermost is complete: its containers may be too
        for index in range(len(chain) - 1, -1, -1):
            node = chain[index]
            if open_depth > node.depth:
                del chain[index + 1 :]
                self._innermost = (chain, node.depth, None, None, None, None)
                break
            if index:
                chain[index - 1].settle(node.source)
        return self._root.out


def _kept(new: Any, shown: Any) -> Any:
    """`new`, a container just validated whole (from the text's value, as its model says:
    its validators see the raw value), with each entry equal to the one `shown` already
    showed there replaced by that very object: a finished item, validated once when it
    completed, stays the same object in every later read. One level deep (an entry kept is
    kept whole); a model's fields are swapped in its `__dict__`, as equal values."""
    if new is shown:
        return new
    kind = type(new)
    if kind is list:
        if type(shown) is list and len(shown) == len(new):
            for index, old in enumerate(shown):
                value = new[index]
                if value is not old and type(value) is type(old) and value == old:
                    new[index] = old
        return new
    if kind is dict:
        entries = new
    elif kind is type(shown) and isinstance(getattr(kind, "model_fields", None), dict):
        entries = new.__dict__
        shown = shown.__dict__
    else:
        return new
    if type(shown) is dict:
        for key, old in shown.items():
            value = entries.get(key, _ABSENT)
            if value is not old and type(value) is type(old) and value == old:
                entries[key] = old
    return new


_ABSENT = object()


def completed_value(schema: Schema, tokens: tuple[Any, ...], value: Any) -> Any:
    """A complete value at the path `tokens` of a document typed by `schema`'s model, as
    `watch=` reports it: validated as the type the model gives that path (an item model, a
    field's type), or as it is where the model says nothing (a loose schema, an unknown key).
    pydantic's refusal is a `SchemaViolation` at that path."""
    plan = schema.partial_plan
    if plan is None:
        plan = schema.partial_plan = _plan(schema.model, {}, schema.adapter.validate_python)
    base = ""
    for token in tokens:
        base += "/" + escape_token(str(token))
        if plan.kind == _MODEL:
            field = plan.fields.get(str(token))
            if field is None:
                return value
            plan = field.plan
        elif plan.kind == _OPAQUE:
            return value
        else:
            plan = plan.item
    try:
        return plan.validate(value)
    except ValueError as error:
        if type(error).__name__ != "ValidationError":
            raise
        raise _violation(error, base) from error


# -- plans: how a Python type shows a JSON value ------------------------------------------

_MODEL, _LIST, _DICT, _OPAQUE = range(4)


class _Plan:
    """How values of one type are shown: `kind`, the validator of a complete value, and for
    containers the plan of their items (made on first use: models may be recursive)."""

    __slots__ = (
        "_annotation",
        "_item",
        "_item_type",
        "_plans",
        "fields",
        "kind",
        "model",
        "validate",
    )

    def __init__(
        self,
        kind: int,
        annotation: Any,
        validate: Callable[[Any], Any] | None,
        plans: dict[Any, _Plan],
        item: Any,
    ) -> None:
        self.kind = kind
        self._annotation = annotation
        # `validate(raw)`: the complete value validated as the type (pydantic's
        # `TypeAdapter(annotation).validate_python`, made on first use)
        self.validate: Callable[[Any], Any] = validate or self._first_validate
        self._plans = plans
        self._item_type = item
        self._item: _Plan | None = None
        self.model: Any = None
        self.fields: dict[str, _Field] = {}

    def _first_validate(self, value: Any) -> Any:
        from pydantic import TypeAdapter

        validate = self.validate = TypeAdapter(self._annotation).validate_python
        return validate(value)

    @property
    def item(self) -> _Plan:
        """The plan of a list's items or a dict's values."""
        if self._item is None:
            self._item = _plan(self._item_type, self._plans)
        return self._item

    def blank(self) -> Any:
        """A partial instance of the model with no field set (every attribute None)."""
        model = self.model
        made = model.__new__(model)
        setattr_ = object.__setattr__
        setattr_(made, "__dict__", dict.fromkeys(model.model_fields))
        setattr_(made, "__pydantic_fields_set__", set())
        setattr_(made, "__pydantic_extra__", None)
        private = getattr(model, "__private_attributes__", None)
        setattr_(made, "__pydantic_private__", {} if private else None)
        return made

    def node(self, path: str, source: Any, depth: int) -> Any:
        """The node that shows `source`, a container still arriving at `path`, `depth`
        steps below the root."""
        if self.kind == _MODEL and type(source) is dict:
            return _ModelNode(self, path, source, depth)
        if self.kind == _LIST and type(source) is list:
            return _ListNode(self, path, source, depth)
        if self.kind == _DICT and type(source) is dict:
            return _DictNode(self, path, source, depth)
        return _Raw(source)  # not the type's shape (a loose schema): shown as it is


class _Field:
    """One field of a model: its attribute, its JSON Pointer token, its plan, and its check
    (`assign(done, name, raw)`: the value validated as its model validates the field, given
    the fields complete before it; see `_field_assigner`)."""

    __slots__ = ("_annotation", "_plan", "_plans", "assign", "name", "token")

    def __init__(
        self,
        name: str,
        token: str,
        annotation: Any,
        plans: dict[Any, _Plan],
        assign: Callable[[dict[str, Any], str, Any], Any],
    ) -> None:
        self.name = name
        self.token = "/" + escape_token(token)
        self._annotation = annotation
        self._plans = plans
        self._plan: _Plan | None = None
        self.assign = assign

    @property
    def plan(self) -> _Plan:
        if self._plan is None:
            self._plan = _plan(self._annotation, self._plans)
        return self._plan


def _plan(annotation: Any, plans: dict[Any, _Plan], validate: Any = None) -> _Plan:
    """The plan of a type (one per type, shared: recursive models end)."""
    try:
        found = plans.get(annotation)
    except TypeError:  # an unhashable annotation (metadata objects): not shared
        found = None
    if found is not None:
        return found
    shape = _shape(annotation)
    model = _model_class(shape)
    if model is not None:
        plan = _Plan(_MODEL, annotation, validate, plans, None)
        plan.model = model
        _remember(plans, annotation, plan)
        plan.fields = _fields(model, plans)
    else:
        origin = typing.get_origin(shape)
        args = typing.get_args(shape)
        if origin in (list, typing.List) or (origin is None and shape is list):  # noqa: UP006
            plan = _Plan(_LIST, annotation, validate, plans, args[0] if args else Any)
        elif origin in (dict, typing.Dict) and (not args or args[0] is str):  # noqa: UP006
            plan = _Plan(_DICT, annotation, validate, plans, args[1] if args else Any)
        else:
            plan = _Plan(_OPAQUE, annotation, validate, plans, None)
        _remember(plans, annotation, plan)
    return plan


def _remember(plans: dict[Any, _Plan], annotation: Any, plan: _Plan) -> None:
    with contextlib.suppress(TypeError):  # an unhashable annotation: not shared
        plans[annotation] = plan


def _shape(annotation: Any) -> Any:
    """The type that decides how a value is shown: `Annotated` and `Optional` taken off
    (`None` is a complete literal, never a partial); any other union is shown as it is."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if origin is typing.Union or type(annotation).__name__ == "UnionType":
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(members) == 1:
                annotation = members[0]
                continue
        return annotation


def _model_class(shape: Any) -> Any:
    fields = getattr(shape, "model_fields", None)
    if isinstance(shape, type) and isinstance(fields, dict) and hasattr(shape, "model_construct"):
        return shape
    return None


def _fields(model: Any, plans: dict[Any, _Plan]) -> dict[str, _Field]:
    """The model's fields by JSON key, each checked by the model's own field validators."""
    assign = _field_assigner(model)
    fields: dict[str, _Field] = {}
    for name, info in model.model_fields.items():
        key = info.validation_alias if isinstance(info.validation_alias, str) else None
        key = key or info.alias or name
        fields[key] = _Field(name, key, _field_annotation(info), plans, assign)
    return fields


def _field_annotation(info: Any) -> Any:
    metadata = list(getattr(info, "metadata", ()) or ())
    if metadata:
        args = (info.annotation, *metadata)
        return typing.Annotated[args]  # type: ignore[valid-type]
    return info.annotation


def _field_assigner(model: Any) -> Callable[[dict[str, Any], str, Any], Any]:
    """`validate_assignment` of the model's fields alone: one field validated as the model
    validates it (its type, constraints and field validators, the model's config), without
    the model validators, which run only on the complete model."""
    from pydantic_core import SchemaValidator

    schema = model.__pydantic_core_schema__
    definitions = schema.get("definitions") if schema.get("type") == "definitions" else None
    by_ref = {d.get("ref"): d for d in definitions or ()}
    node, config = schema.get("schema") if definitions is not None else schema, None
    for _ in range(64):  # the wrappers around the fields: refs, the model, its validators
        kind = node.get("type")
        if kind == "definition-ref":
            node = by_ref[node["schema_ref"]]
        elif kind == "model-fields":
            break
        else:
            if kind == "model" and node.get("cls") is model:
                config = node.get("config")
            node = node["schema"]
    else:  # pragma: no cover - a shape pydantic does not build
        raise ValueError(f"cannot find the fields of {model!r} in its core schema")
    if definitions is not None:
        node = {"type": "definitions", "schema": node, "definitions": definitions}
    return SchemaValidator(node, config).validate_assignment  # type: ignore[arg-type]


# -- nodes: one container still arriving, and what it shows -------------------------------


def _violation(error: Any, base: str) -> SchemaViolation:
    """pydantic's refusal of the value at `base` as a `SchemaViolation` (schema.py's
    `model_violation`, its path made a path in the document)."""
    violation = model_violation(error)
    message = violation.message
    head = violation.path or "(root)"
    if base and message.startswith(head):
        message = base + violation.path + message[len(head) :]
    path = base + violation.path
    return SchemaViolation(message, path=path, pos=-1, keyword=violation.keyword)


class _Final:
    __slots__ = ("final", "source")

    def __init__(self, source: Any, final: Any) -> None:
        self.source = source
        self.final = final


class _Raw:
    """A container shown as it is (its type is not a model, list or dict of them)."""

    __slots__ = ("out", "source")

    def __init__(self, source: Any) -> None:
        self.source = source
        self.out = source


class _Entry:
    """The one entry of a container that may still be arriving: its container, key or
    index, plan, field (of a model), and the node showing it while it is a container. Its
    path in the document is made only when asked (an error, a node of its own)."""

    __slots__ = ("field", "key", "node", "parent", "plan")

    def __init__(self, parent: _Node, key: Any, plan: _Plan, field: _Field | None) -> None:
        self.parent = parent
        self.key = key
        self.plan = plan
        self.field = field
        self.node: Any = None

    @property
    def path(self) -> str:
        field = self.field
        token = field.token if field is not None else "/" + escape_token(str(self.key))
        return self.parent.path + token


class _Node:
    """A container still arriving. Its entries before the last are final (stable mode only
    ever extends the last one), so `sync` settles the ones a new entry followed and returns
    the last, which the walk follows."""

    __slots__ = ("count", "depth", "open", "out", "path", "plan", "source")
    out: Any  # what the partial shows of it (each kind of node makes its own)

    def __init__(self, plan: _Plan, path: str, source: Any, depth: int) -> None:
        self.plan = plan
        self.path = path
        self.source = source
        self.depth = depth
        self.count = 0  # entries of `source` seen
        self.open: _Entry | None = None

    def sync(self) -> _Entry | None:
        """Take in the entries added since the last read; the last one, which may be open."""
        raise NotImplementedError

    def settle(self, raw: Any) -> None:
        """The open entry is complete: show it validated (a container validated as a whole,
        as its model says, keeping the finished items it showed: see `_kept`)."""
        entry = self.open
        assert entry is not None
        value = self.validated(entry, raw)
        if entry.node is not None:
            value = _kept(value, entry.node.out)
        self.put(entry, value, True)
        self.open = None

    def validated(self, entry: _Entry, raw: Any) -> Any:
        """A complete entry validated; pydantic's refusal as a `SchemaViolation` at its path
        in the document (its `__cause__` the `ValidationError`), as `close()` raises it."""
        try:
            return entry.plan.validate(raw)
        except ValueError as error:
            raise _refused(error, entry) from error

    def put(self, entry: _Entry, value: Any, final: bool) -> None:
        raise NotImplementedError

    def slot(self, entry: _Entry) -> tuple[Any, Any]:
        """Where the entry, once `put`, is shown: `shown[slot]`."""
        return self.out, entry.key


def _refused(error: ValueError, entry: _Entry) -> ValueError:
    """What a validator's `error` about `entry` raises: pydantic's refusal as a
    `SchemaViolation` at the entry's path, anything else as it is."""
    if type(error).__name__ != "ValidationError":
        return error
    return _violation(error, entry.path)


class _KeyedNode(_Node):
    """A dict still arriving: a model's fields, or the values of a `dict[str, T]`."""

    __slots__ = ()

    def sync(self) -> _Entry | None:
        source = self.source
        count = len(source)
        new = count - self.count
        if not new:
            return self.open
        self.count = count
        if self.open is not None:  # an entry began after it: it is complete
            self.settle(source[self.open.key])
        if new == 1:  # most often: one entry began since the last read
            last = self.open = self.entry(next(reversed(source)))
            return last
        keys = list(islice(reversed(source), new))
        keys.reverse()
        last = None
        for key in keys:
            if last is not None:
                self.put(last, self.validated(last, source[last.key]), True)
            last = self.entry(key)
        self.open = last
        return last

    def entry(self, key: str) -> _Entry | None:
        raise NotImplementedError


class _ModelNode(_KeyedNode):
    __slots__ = ("data", "done", "fields", "fields_set")

    def __init__(self, plan: _Plan, path: str, source: dict[str, Any], depth: int) -> None:
        super().__init__(plan, path, source, depth)
        self.out = plan.blank()
        self.data = self.out.__dict__
        self.fields_set = self.out.__pydantic_fields_set__
        self.fields = plan.fields
        self.done: dict[str, Any] = {}  # the fields complete and validated, for `info.data`

    def entry(self, key: str) -> _Entry | None:
        field = self.fields.get(key)
        if field is None:
            return None  # not a field of the model (extra keys are left to validation)
        return _Entry(self, key, field.plan, field)

    def validated(self, entry: _Entry, raw: Any) -> Any:
        name = entry.field.name  # type: ignore[union-attr]
        try:
            return entry.field.assign(self.done, name, raw)[0][name]  # type: ignore[union-attr]
        except ValueError as error:
            raise _refused(error, entry) from error

    def slot(self, entry: _Entry) -> tuple[Any, Any]:
        return self.data, entry.field.name  # type: ignore[union-attr]

    def put(self, entry: _Entry | None, value: Any, final: bool) -> None:
        if entry is None:
            return
        name = entry.field.name  # type: ignore[union-attr]
        self.data[name] = value
        self.fields_set.add(name)
        if final:
            self.done[name] = value


class _DictNode(_KeyedNode):
    __slots__ = ()

    def __init__(self, plan: _Plan, path: str, source: dict[str, Any], depth: int) -> None:
        super().__init__(plan, path, source, depth)
        self.out: dict[str, Any] = {}

    def entry(self, key: str) -> _Entry | None:
        return _Entry(self, key, self.plan.item, None)

    def put(self, entry: _Entry | None, value: Any, final: bool) -> None:
        if entry is not None:
            self.out[entry.key] = value


class _ListNode(_Node):
    __slots__ = ()

    def __init__(self, plan: _Plan, path: str, source: list[Any], depth: int) -> None:
        super().__init__(plan, path, source, depth)
        self.out: list[Any] = []

    def sync(self) -> _Entry | None:
        source, out = self.source, self.out
        count = len(source)
        if count < len(out):  # jiter mode took a number back
            del out[count:]
            self.count = count
            self.open = None
        if count == self.count:
            return self.open
        item = self.plan.item
        if self.open is not None:  # an item began after it: it is complete
            self.settle(source[self.open.key])
        for index in range(self.count, count - 1):
            out.append(self.validated(_Entry(self, index, item, None), source[index]))
        self.count = count
        if not count:
            return None
        self.open = _Entry(self, count - 1, item, None)
        return self.open

    def put(self, entry: _Entry, value: Any, final: bool) -> None:
        out = self.out
        if entry.key < len(out):
            out[entry.key] = value
        else:
            out.append(value)

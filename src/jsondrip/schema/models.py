"""Partial pydantic instances: the final fields validated, the others absent."""

from __future__ import annotations

from typing import Any, Callable

from .._changes import escape_token
from .progress import FINAL, Progress
from .schema import Schema


def partial_model(schema: Schema, progress: Callable[[str], Progress]) -> Any:
    """A `model_construct`ed instance of the schema's pydantic model holding only the fields
    whose values are final, each validated on its own (missing fields are not set: reading
    one raises AttributeError, and `model_fields_set` lists the ones that are)."""
    model = schema.model
    fields = getattr(model, "model_fields", None)
    if fields is None:
        raise ValueError(f"partial() needs a pydantic BaseModel, not {model!r}")
    from pydantic import TypeAdapter

    adapters = schema.field_adapters
    values = {}
    for name, field in fields.items():
        key = field.alias or name
        state = progress("/" + escape_token(key))
        if state.state == FINAL:
            adapter = adapters.get(name)
            if adapter is None:
                adapter = adapters[name] = TypeAdapter(field.annotation)
            values[name] = adapter.validate_python(state.value)
    return model.model_construct(_fields_set=set(values), **values)

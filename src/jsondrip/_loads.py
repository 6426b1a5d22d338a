"""`loads` and `load`: drop-in replacements for the standard library's, on the fastest engine.

The engine is the native core when it is built, else jiter when it is installed, else the
standard library. A fast engine that cannot take a text (invalid JSON, UTF-16/32 bytes, deep
nesting, lone surrogates for jiter) hands it to the standard library, which gives its exact
value or error: errors are rare, and their messages are json's own.
"""

from __future__ import annotations

import json
import re
import sys

from . import _engine
from ._dialect import digit_limit
from ._errors import IncompleteJSONError, JSONDecodeError

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from typing import IO, Any, Callable, Optional, Union

    Document = Union[str, bytes, bytearray]
    Hook = Optional[Callable[..., Any]]

_native_loads = _engine.native_loads


def loads(
    s: Document,
    *,
    cls: type[json.JSONDecoder] | None = None,
    object_hook: Hook = None,
    parse_float: Hook = None,
    parse_int: Hook = None,
    parse_constant: Hook = None,
    object_pairs_hook: Hook = None,
    backend: str | None = None,
    **kw: Any,
) -> Any:
    """Deserialize `s` (str, bytes or bytearray) to a Python object, as `json.loads` does.

    Same signature, results, hooks and errors as the standard library's (errors are
    `jsondrip.JSONDecodeError`, a `json.JSONDecodeError`, with json's own message; a text that
    is a valid start of a document cut short raises its subclass `IncompleteJSONError`).
    `backend` picks the engine: `"native"`, `"jiter"` or `"python"` (the standard library); by
    default the fastest
    available. A custom `cls` or extra keyword arguments (`strict=False`) go to the standard
    library, which alone understands them. Nesting deeper than the interpreter allows raises
    `RecursionError`, as `json.loads` does.
    """
    # The common case in one native call (a `s` that is not str or bytes comes back too,
    # and the standard library raises json's TypeError for it).
    common = backend is None and cls is None and not kw and _native_loads is not None
    if common and _engine.env_backend() is None:
        value = _native_loads(
            s, object_hook, parse_float, parse_int, parse_constant, object_pairs_hook
        )
        if value is not NotImplemented:
            return value
    else:
        common = False
    hooks = {
        "object_hook": object_hook,
        "parse_float": parse_float,
        "parse_int": parse_int,
        "parse_constant": parse_constant,
        "object_pairs_hook": object_pairs_hook,
    }
    engine = _engine.resolve(backend, streaming=False)
    if not isinstance(s, (str, bytes, bytearray)):
        engine = "python"  # json raises its own TypeError for it
    if cls is None and not kw:
        if engine == "native" and not common:
            value = _native_loads(s, **hooks)
            if value is not NotImplemented:
                return value
        elif engine == "jiter" and not any(hooks.values()):
            value = _jiter_loads(s)
            if value is not NotImplemented:
                return value
    return _stdlib_loads(s, cls, hooks, kw)


def load(
    fp: IO[Any],
    *,
    cls: type[json.JSONDecoder] | None = None,
    object_hook: Hook = None,
    parse_float: Hook = None,
    parse_int: Hook = None,
    parse_constant: Hook = None,
    object_pairs_hook: Hook = None,
    backend: str | None = None,
    **kw: Any,
) -> Any:
    """Deserialize the text or bytes read from `fp`, as `json.load` does (same options as
    `loads`)."""
    return loads(
        fp.read(),
        cls=cls,
        object_hook=object_hook,
        parse_float=parse_float,
        parse_int=parse_int,
        parse_constant=parse_constant,
        object_pairs_hook=object_pairs_hook,
        backend=backend,
        **kw,
    )


def _jiter_loads(s: Document) -> Any:
    import jiter

    raw = s.encode("utf-8", "surrogatepass") if isinstance(s, str) else bytes(s)
    limit = digit_limit()
    if limit and re.search(rb"[0-9]{%d}" % (limit + 1), raw):
        return NotImplemented  # jiter ignores the interpreter's limit on integer digits
    try:
        return jiter.from_json(raw)
    except ValueError:  # invalid, or valid in a way jiter refuses: json decides
        return NotImplemented


def _stdlib_loads(s: Document, cls: Any, hooks: dict[str, Hook], kw: dict[str, Any]) -> Any:
    try:
        return json.loads(s, cls=cls, **hooks, **kw)
    except json.JSONDecodeError as e:
        if isinstance(e, JSONDecodeError):
            raise
        expected = _cut_short(e.doc)
        if expected is not None:
            raise IncompleteJSONError(
                e.msg, e.doc, e.pos, e.lineno, e.colno, 0, expected, json_text=True
            ) from None
        raise JSONDecodeError(e.msg, e.doc, e.pos) from None


def _cut_short(doc: str) -> str | None:
    """What would continue `doc` if it is a valid start of a document that ended too early
    (read again by a streaming engine: errors are rare), else None."""
    engine = _engine.default_engine(_engine.EngineOptions(max_depth=sys.maxsize))
    try:
        engine.feed(doc)
        engine.close()
    except IncompleteJSONError as e:
        return e.expected
    except (JSONDecodeError, RecursionError, MemoryError):
        return None
    return None

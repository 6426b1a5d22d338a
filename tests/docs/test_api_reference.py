"""The API reference (docs/reference.md, built by mkdocstrings from the docstrings) is whole:
every public name has a docstring, and so has every public method and property of a public
class, and the reference page names every public name. `mkdocs build --strict` (`nox -s
docs`) then fails on a reference to a name that does not exist."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import typing
from typing import Any

import pytest
from _doc_blocks import ROOT

#: The modules whose `__all__` is the public API.
PUBLIC_MODULES = ("jsondrip", "jsondrip.toolcalls", "jsondrip.schema", "jsondrip.web")
#: What `jsondrip` passes on from the standard library's `json`, as it is: its docs are json's.
FROM_JSON = ("JSONEncoder", "detect_encoding", "dump", "dumps")
REFERENCE = ROOT / "docs" / "reference.md"


def public_names() -> list[tuple[str, str]]:
    names = []
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        names += [(module_name, name) for name in module.__all__]
    return names


def own_docstring(obj: Any) -> str:
    """The object's own docstring ("" for none, or for a dataclass's generated signature)."""
    doc = obj.__doc__ if isinstance(obj, type) or callable(obj) else type(obj).__doc__
    doc = (doc or "").strip()
    name = getattr(obj, "__name__", "")
    if isinstance(obj, type) and doc.startswith(f"{name}("):  # written by @dataclass
        return ""
    return doc


def public_members(cls: type) -> list[tuple[str, Any]]:
    """The methods and properties a class defines itself, not inherited, not private."""
    members = []
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property) or inspect.isfunction(member):
            members.append((name, member))
    return members


@pytest.mark.parametrize(
    ("module_name", "name"), public_names(), ids=[".".join(n) for n in public_names()]
)
def test_every_public_name_has_a_docstring(module_name: str, name: str) -> None:
    obj = getattr(importlib.import_module(module_name), name)
    if module_name == "jsondrip" and name in FROM_JSON:
        assert obj is getattr(json, name)  # the standard library's own, documented there
        return
    if isinstance(obj, (str, int)) or typing.get_origin(obj) is not None:
        return  # a constant or a type alias: its docstring is in the source, for the reference
    assert own_docstring(obj), f"{module_name}.{name} has no docstring"
    if isinstance(obj, type):
        missing = [n for n, member in public_members(obj) if not (member.__doc__ or "").strip()]
        assert not missing, f"{module_name}.{name}: no docstring on {', '.join(missing)}"


def test_the_reference_page_names_every_public_name() -> None:
    directives = set(re.findall(r"^::: ([\w.]+)$", REFERENCE.read_text("utf-8"), re.M))
    documented = {path.rsplit(".", 1)[-1] for path in directives}
    missing = [
        f"{module}.{name}"
        for module, name in public_names()
        if name not in documented
        and not (module == "jsondrip" and name in (*FROM_JSON, "encoder", "scanner"))
    ]
    assert not missing, f"docs/reference.md has no `::: ...` entry for {', '.join(missing)}"

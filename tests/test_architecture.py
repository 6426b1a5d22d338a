"""The layers' rules, checked on the source: one engine door, no import cycles, a light
`import jsondrip` (docs/architecture.md).

The import graph is read with `ast` from src/jsondrip. An edge is any `import` statement of a
jsondrip module, wherever it stands: at module level, in a `try`, or inside a function (a
deferred import is still a dependency, and a cycle through one is the same tangle, only
hidden until the call). Not edges: imports under `if TYPE_CHECKING:` (they never run), and a
package's own `__init__` that Python runs before any of its submodules (every module would
otherwise depend on its package root). `jsondrip/__init__.py`'s lazy names (PEP 562: its
`_LAZY` map and `_SUBPACKAGES`) are edges from `jsondrip`: they are imports, run on first use.

The Rust modules under rust/ are held to the same rule, no cycles, on a graph read from their
`use` statements and the paths in their code (`rust_graph`).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import jsondrip

SOURCE = Path(jsondrip.__file__).resolve().parent
ENGINE = "jsondrip._engine"
DOOR_ONLY = ("jsondrip._native", "jsondrip.twin")


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(SOURCE.rglob("*.py"))}
# the extension, and the marker module written only into the pure-Python wheel
KNOWN = set(MODULES) | {"jsondrip._native", "jsondrip._pure_build"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of the tree, but those under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _targets(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The jsondrip modules one import statement of module `name` imports."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in KNOWN}
    if node.level:
        package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    out = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in KNOWN:
            out.add(sub)  # `from package import module`
        elif base in KNOWN:
            out.add(base)
    return out


def _lazy_edges() -> set[str]:
    """The modules `jsondrip/__init__.py` imports on first use (its `_LAZY`, `_SUBPACKAGES`)."""
    tree = ast.parse(MODULES["jsondrip"].read_text())
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id == "_LAZY":
                out |= {f"jsondrip{v}" for v in ast.literal_eval(node.value).values()}
            elif node.targets[0].id == "_SUBPACKAGES":
                out |= {f"jsondrip.{v}" for v in ast.literal_eval(node.value)}
    assert out, "jsondrip/__init__.py has no lazy names: update this test"
    return out


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        edges: set[str] = set()
        for node in _imports(ast.parse(path.read_text(), str(path))):
            edges |= _targets(name, node)
        graph[name] = edges - {name}
    graph["jsondrip"] |= _lazy_edges()
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_only_the_engine_module_imports_the_backends() -> None:
    """`_engine.py` is the one door to `jsondrip._native` and `jsondrip.twin` (the twin's own
    modules import each other)."""
    graph = import_graph()
    wrong = {
        (name, target)
        for name, edges in graph.items()
        for target in edges
        if target.startswith(DOOR_ONLY) and name != ENGINE and not name.startswith("jsondrip.twin")
    }
    assert not wrong, sorted(wrong)
    assert "jsondrip._native" in graph[ENGINE]


def test_there_is_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_checker_sees_a_planted_cycle_and_a_back_door() -> None:
    """The checks above can fail: a graph with a cycle and a layer importing the twin."""
    graph = import_graph()
    graph["jsondrip._errors"] = graph["jsondrip._errors"] | {"jsondrip._parser"}
    assert any("jsondrip._errors" in c and "jsondrip._parser" in c for c in cycles(graph))
    tree = ast.parse("from ..twin.stream import PythonEngine\nfrom .. import _native")
    edges = set().union(*(_targets("jsondrip.toolcalls.calls", n) for n in _imports(tree)))
    assert edges == {"jsondrip.twin.stream", "jsondrip._native"}


# -- what a bare `import jsondrip` loads -------------------------------------------------------

BARE_IMPORT = {
    "jsondrip",
    "jsondrip._changes",
    "jsondrip._dialect",
    "jsondrip._engine",
    "jsondrip._errors",
    "jsondrip._loads",
    "jsondrip._missing",
    "jsondrip._parser",
    "jsondrip._snapshot",
    "jsondrip._stdlib_names",
    "jsondrip._version",
    "jsondrip.decoder",
    "jsondrip.encoder",
    "jsondrip.scanner",
}
"""What `loads` and `Parser` need: no tool-call, schema, web, CLI or bench module, no twin."""


HEAVY_STDLIB = {"typing", "dataclasses", "inspect", "asyncio", "importlib.util", "warnings"}
"""Standard modules `import json` does not load and `import jsondrip` must not either (typing
alone costs about a third of `import json`)."""


def _all_loaded(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint(__import__('json').dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def _loaded(code: str) -> set[str]:
    return {m for m in _all_loaded(code) if m == "jsondrip" or m.startswith("jsondrip.")}


def test_a_bare_import_loads_only_what_loads_and_parser_need() -> None:
    optional = {"jsondrip._native", "jsondrip._pure_build"}  # as this install was built
    assert _loaded("import jsondrip") - optional == BARE_IMPORT
    baseline = _all_loaded("import json")
    assert (_all_loaded("import jsondrip") - baseline) & HEAVY_STDLIB == set()


def test_the_public_names_are_all_there_and_load_on_first_use() -> None:
    loaded = _loaded(
        "import jsondrip\n"
        "names = {n: getattr(jsondrip, n) for n in jsondrip.__all__}\n"
        "assert set(jsondrip.__all__) <= set(dir(jsondrip)), 'dir() lists every public name'\n"
        "from jsondrip import ToolCallAccumulator, Schema, SchemaViolation, Progress\n"
        "assert jsondrip.toolcalls.ToolCallAccumulator is ToolCallAccumulator\n"
    )
    assert {"jsondrip.toolcalls.accumulator", "jsondrip.schema.schema"} <= loaded


@pytest.mark.parametrize("name", sorted(jsondrip.__all__))
def test_each_public_name_is_the_defining_modules(name: str) -> None:
    value = getattr(jsondrip, name)
    assert value is not None
    if hasattr(value, "__module__") and isinstance(value, type):
        assert value.__module__.startswith(("jsondrip", "json"))


# -- the Rust modules -------------------------------------------------------------------------

RUST = Path(__file__).resolve().parent.parent / "rust"


def _rust_module(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(RUST).with_suffix("").parts
    return parts[:-1] if parts[-1] in ("mod", "lib") else parts


def _use_paths(tree: str) -> list[list[str]]:
    """The paths a `use` tree names: `a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    depth, start, parts = 0, 0, []
    head, brace, body = tree.partition("{")
    if not brace:
        return [[s for s in tree.split("::") if s]]
    body = body[:-1]  # the closing brace
    for i, c in enumerate(body + ","):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    prefix = [s for s in head.split("::") if s]
    return [prefix + sub for part in parts if part for sub in _use_paths(part)]


def rust_graph() -> dict[str, set[str]]:
    """Module -> the modules its code names (`use` statements and paths in code), with a
    facade's re-export (`pub use child::X` in a mod.rs) resolved to the child that defines
    X. Not edges: `mod` declarations and the re-exports themselves (a parent names its
    children to publish them, not to use them), comments."""
    files = {_rust_module(p): p for p in sorted(RUST.rglob("*.rs"))}
    texts = {m: re.sub(r"//[^\n]*", "", p.read_text()) for m, p in files.items()}
    reexported: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}
    for m, text in texts.items():
        names = reexported.setdefault(m, {})
        for tree in re.findall(r"\bpub use ([^;]+);", text):
            for path in _use_paths(tree):
                if path and (*m, path[0]) in files:
                    names[path[-1]] = (*m, path[0])

    def resolve(m: tuple[str, ...], path: list[str]) -> tuple[str, ...] | None:
        if path[0] == "crate":
            base, rest = (), path[1:]
        elif path[0] in ("self", "super"):
            base, rest = m, path
            while rest and rest[0] in ("self", "super"):
                base, rest = (base[:-1] if rest[0] == "super" else base), rest[1:]
        elif (*m, path[0]) in files:  # a child module named from its parent
            base, rest = m, path
        else:
            return None  # std, pyo3, a local name
        while rest and (*base, rest[0]) in files:
            base, rest = (*base, rest[0]), rest[1:]
        if rest and rest[0] in reexported.get(base, {}):
            base = reexported[base][rest[0]]
        return base

    graph: dict[str, set[str]] = {}
    for m, text in texts.items():
        text = re.sub(r"\bpub use [^;]+;", "", text)
        paths = [p for tree in re.findall(r"\buse ([^;]+);", text) for p in _use_paths(tree)]
        text = re.sub(r"\buse [^;]+;", "", text)
        paths += [p.split("::") for p in re.findall(r"\b[a-z_][a-z0-9_]*(?:::[A-Za-z_]\w*)+", text)]
        targets = {resolve(m, p) for p in paths if p}
        edges = {t for t in targets if t is not None and t != m}
        graph["::".join(m) or "crate"] = {"::".join(t) or "crate" for t in edges}
    return graph


def test_there_is_no_rust_module_cycle() -> None:
    """No two Rust modules use each other, directly or around a loop (a module's use of its
    ancestors, which declare it, is not a loop back)."""
    graph = rust_graph()
    assert "python::engine" in graph["python"]  # the module registers the engine class
    assert "core::sink" in graph["core::machine"]  # through the core's facade (pub use)
    assert cycles(graph) == []


def test_the_rust_checker_sees_a_planted_cycle() -> None:
    graph = rust_graph()
    graph["core::sink"] = graph["core::sink"] | {"core::machine"}
    assert ["core::machine", "core::sink"] in cycles(graph)

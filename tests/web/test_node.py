"""jsondrip.js under Node's own test runner, against the Python implementation on the same
change lists: every recorded stream through the accumulator and SSEEncoder, and random
documents cut at random places (hypothesis), on both backends and both modes."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from _web_support import parse_frame, record, run_node, stream_names, wrap
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jsondrip

M = jsondrip.MISSING
# (document, changes, the error, the document after the error): the rules of the strict
# apply_changes, one case per way a change can be wrong
WRONG: list[tuple[Any, list[list[Any]], str, Any]] = [
    (
        M,
        [["bogus", "", 1]],
        "unknown change op 'bogus' (at ''): expected add, append, replace or remove",
        M,
    ),
    (
        {"a": 1},
        [["add", "/b", 2], ["Add", "/a", 3]],
        "unknown change op 'Add' (at '/a'): expected add, append, replace or remove",
        {"a": 1, "b": 2},
    ),
    (M, [["append", "", "x"]], "cannot append '': the document has not begun", M),
    (M, [["replace", "", 1]], "cannot replace '': the document has not begun", M),
    (M, [["add", "/a", 1]], "cannot add '/a': the document has not begun", M),
    ({"a": {}}, [["replace", "/x/y", 1]], "cannot replace '/x/y': '/x' does not exist", {"a": {}}),
    (
        {"a/c": []},
        [["replace", "/a~1b/0", 1]],
        "cannot replace '/a~1b/0': '/a~1b' does not exist",
        {"a/c": []},
    ),
    ({"a": 1}, [["remove", "/b", None]], "cannot remove '/b': no such key", {"a": 1}),
    ({}, [["append", "/it's", "x"]], 'cannot append "/it\'s": no such key', {}),
    ([1], [["replace", "/1", 2]], "cannot replace '/1': index 1 is past the end (length 1)", [1]),
    ([1], [["add", "/2", 2]], "cannot add '/2': index 2 is past the end (length 1)", [1]),
    ([1], [["add", "/01", 2]], "cannot add '/01': '01' is not an array index", [1]),
    ([[]], [["replace", "/-", 1]], "cannot replace '/-': '-' is not an array index", [[]]),
    ([[0]], [["remove", "/0/x", 1]], "cannot remove '/0/x': 'x' is not an array index", [[0]]),
    (
        {"a": "s"},
        [["append", "/a", 1]],
        "cannot append '/a': append takes a str onto a str, not (str there, int value)",
        {"a": "s"},
    ),
    (
        [True],
        [["append", "/0", "x"]],
        "cannot append '/0': append takes a str onto a str, not (bool there, str value)",
        [True],
    ),
    ({"a": 1}, [["add", "/a/b", 1]], "cannot add '/a/b': int has no members", {"a": 1}),
    ({"a": None}, [["add", "/a/0", 1]], "cannot add '/a/0': NoneType has no members", {"a": None}),
    ("s", [["add", "/0", 1]], "cannot add '/0': str has no members", "s"),
    ({}, [["add", "a", 1]], "a JSON Pointer starts with '/': 'a'", {}),
    # #30 item 5: the JSON Patch shape {"op", "path", "value"}, the same rules
    (
        M,
        [{"op": "bogus", "path": "", "value": 1}],
        "unknown change op 'bogus' (at ''): expected add, append, replace or remove",
        M,
    ),
    (
        {"a": 1},
        [{"op": "add", "path": "/b", "value": 2}, {"path": "/a", "value": 3}],
        "a change object lacks 'op' (its keys: 'path', 'value')",
        {"a": 1, "b": 2},
    ),
    ({}, [{"op": "add", "value": 3}], "a change object lacks 'path' (its keys: 'op', 'value')", {}),
    ({}, [{}], "a change object lacks 'op' (its keys: none)", {}),
    ({}, [{"op": "add", "path": "/a"}], "a change object lacks 'value' (op 'add' at '/a')", {}),
    ({"a": 1}, [{"op": "remove", "path": "/b"}], "cannot remove '/b': no such key", {"a": 1}),
]
ERRORS = [
    {"doc": wrap(doc), "changes": changes, "message": message, "after": wrap(after)}
    for doc, changes, message, after in WRONG
]


def python_is_strict() -> bool:
    """Whether this jsondrip's apply_changes has the strict rules (the friction branch)."""
    try:
        jsondrip.apply_changes(M, [jsondrip.Change("bogus", "", 1)])
    except ValueError:
        return True
    return False


@pytest.mark.parametrize(("doc", "changes", "message", "after"), WRONG)
def test_the_error_cases_are_pythons(
    doc: Any, changes: list[list[Any]], message: str, after: Any
) -> None:
    if not python_is_strict():
        pytest.skip("this apply_changes is not the strict one yet (the friction branch)")
    doc = copy.deepcopy(doc)
    with pytest.raises(ValueError) as caught:
        jsondrip.apply_changes(
            doc, [c if type(c) is dict else jsondrip.Change(*c) for c in changes]
        )
    assert str(caught.value) == message
    assert doc == after


def test_item5_apply_changes_takes_the_readmes_wire_format() -> None:
    """#30 item 5: the README's SSE example sends `{"op", "path", "value"}` objects; Python's
    `apply_changes` takes them as the JavaScript `applyChanges` does (a remove without a
    value included), mixed with `Change`s and `[op, path, value]` lists."""
    parser = jsondrip.Parser()
    doc: Any = M
    for fragment in ['{"city": "Pa', 'ris", "days": [1, ', "2]}"]:
        wire = [
            json.dumps({"op": op, "path": p, "value": v})
            for op, p, v in parser.feed_changes(fragment)
        ]
        doc = jsondrip.apply_changes(doc, [json.loads(frame) for frame in wire])
    assert doc == {"city": "Paris", "days": [1, 2]}
    mixed = [
        {"op": "remove", "path": "/days"},
        jsondrip.Change("append", "/city", "!"),
        ["add", "/n", 1],
    ]
    assert jsondrip.apply_changes(doc, mixed) == {"city": "Paris!", "n": 1}


@pytest.mark.parametrize("name", stream_names())
@pytest.mark.node
def test_client_rebuilds_every_recorded_stream(
    name: str, backend: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from conftest import corpus_dir

    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    recorded = record(corpus_dir("streams") / name)
    fixtures = {
        "streams": [
            {
                "name": recorded.name,
                "frames": [parse_frame(frame) for frame in recorded.frames],
                "calls": recorded.calls,
                "text": recorded.text,
                "reasoning": recorded.reasoning,
                "finish_reasons": recorded.finish_reasons,
            }
        ]
    }
    run_node("client.test.mjs", fixtures, tmp_path)


KEYS = st.sampled_from(["a", "b", "", "~", "/", "~0/~1", "a/b", "0", "-", "__proto__", "é", "🚀"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=12)
)
DOCS = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(KEYS | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def cut_documents(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A document as JSON text (sometimes indented) cut at random places."""
    doc = draw(DOCS)
    text = json.dumps(
        doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1]))
    )
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=12)))
    edges = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in zip(edges, edges[1:]) if b > a]


def feeds(chunks: list[str], backend: str, mode: str) -> list[dict[str, Any]]:
    """Each feed's changes and the parser's value after it, then the closing feed."""
    parser = jsondrip.Parser(backend=backend, mode=mode)
    out = []
    for chunk in chunks:
        changes = [list(change) for change in parser.feed_changes(chunk)]
        out.append(
            {
                "changes": changes,
                "after": wrap(
                    json.loads(json.dumps(parser.value))
                    if parser.value is not jsondrip.MISSING
                    else jsondrip.MISSING
                ),
            }
        )
    return out


@pytest.mark.node
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents=st.lists(cut_documents(), min_size=40, max_size=40))
def test_apply_changes_matches_python_on_random_documents(
    documents: list[tuple[str, list[str]]], backend: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    streams = []
    for mode in ("stable", "jiter"):
        for _text, chunks in documents:
            recorded = feeds(chunks, backend, mode)
            if len(streams) % 2:  # every other stream as JSON Patch objects (#30 item 5)
                for feed in recorded:
                    feed["changes"] = [
                        dict(zip(("op", "path", "value"), c)) for c in feed["changes"]
                    ]
            doc: Any = jsondrip.MISSING
            for feed in recorded:  # the fixtures are right by Python's own apply_changes
                doc = jsondrip.apply_changes(doc, feed["changes"])
                assert (
                    wrap(json.loads(json.dumps(doc)) if doc is not jsondrip.MISSING else doc)
                    == feed["after"]
                )
            streams.append({"feeds": recorded})
    run_node(
        "apply_changes.test.mjs",
        {"streams": streams, "errors": ERRORS},
        tmp_path_factory.mktemp("node"),
    )


READABLE = [
    {"path": "src/app.py", "content": "import os\n\n\ndef main():\n    return 'ok'\n"},
    {"sql": "SELECT *\nFROM t\n", "nested": [{"a": "x\ny", "b": []}, "one line"]},
    {"note": "bell\x07 esc\x1b[2J\r\nnext", "n": [1, 2.5, True, None], "e": {}},
    {"command": '#!/bin/sh\necho "hi"', "language": "shell", "deep": {"x": {"y": "a\nb"}}},
    "a top-level\ntext",
    ["  spaces\n kept", {"emoji": "🚀\n中文"}],  # (rich expands tabs: not compared)
]


@pytest.mark.node
def test_item16_the_page_draws_arguments_as_the_terminal_does(tmp_path: Path) -> None:
    """#30 item 16: the web page showed a file's content as one escaped JSON line; its drawing
    (readable.js) now gives, character for character, what the terminal's live view
    (cli/readable.py, through rich) shows: multi-line strings as text, between fences."""
    pytest.importorskip("rich")
    from rich.console import Console

    from jsondrip.cli.readable import readable_arguments
    from jsondrip.cli.source import demo_bytes

    acc = jsondrip.ToolCallAccumulator()
    acc.feed_sse(demo_bytes())
    acc.finish()
    values = [call.arguments for call in acc.tool_calls] + READABLE
    cases = []
    for value in values:
        console = Console(width=400, record=True, file=io.StringIO(), color_system=None)
        console.print(readable_arguments(value))
        lines = console.export_text().rstrip("\n").split("\n")
        cases.append({"value": value, "terminal": "\n".join(line.rstrip() for line in lines)})
    assert any('"content": """' in case["terminal"] for case in cases[:3])  # the demo's file
    run_node("readable.test.mjs", {"cases": cases}, tmp_path)

"""Chunking never changes what text tool calls give: random calls, random text, random cuts.

For each family, hypothesis draws calls (names, arguments of every JSON kind, strings full of
quotes, backslashes, markup-like characters and non-ASCII), text before and after them, and
cuts; the calls are written as the family's chat template writes them. Read whole and in
pieces, on both backends, the result must be the calls drawn, complete, with exactly their
arguments, and the text around them. The Python-literal reader of pythonic calls is checked
the same way against `ast.literal_eval`.
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from conftest import installed_backends
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jsondrip.toolcalls import ReasoningDelta, TextDelta, ToolCallAccumulator
from jsondrip.toolcalls.text.python_literal import DONE, HELD, MORE, PyLiteral

NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
CHARS = st.characters(codec="utf-8", exclude_categories=["Cs"])
TRICKY = st.sampled_from(['"', "\\", "<", ">", "[", "]", "{", "}", "|", "\n", "'", "`", "é", "😀"])
STRINGS = st.text(st.one_of(CHARS, TRICKY), max_size=24)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    STRINGS,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(STRINGS, inner, max_size=4)
    ),
    max_leaves=10,
)
ARGUMENTS = st.dictionaries(KEYS, VALUES, max_size=4)
CALLS = st.lists(st.tuples(NAMES, ARGUMENTS), min_size=1, max_size=3)
TEXT = st.text(st.one_of(st.sampled_from("ab <>|[]{}()_/\n\t;,｜▁tool_cal"), CHARS), max_size=30)
THINK_TAGS = ("<think>", "</think>")


@contextmanager
def backend_env(name: str) -> Iterator[None]:
    saved = os.environ.get("JSONDRIP_BACKEND")
    os.environ["JSONDRIP_BACKEND"] = name
    try:
        yield
    finally:
        if saved is None:
            del os.environ["JSONDRIP_BACKEND"]
        else:
            os.environ["JSONDRIP_BACKEND"] = saved


def pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)]) if text[a:b]]


def read(family: str, parts: list[str], tools: Any = None, raw: bool = False) -> tuple[Any, ...]:
    """The calls, text and reasoning read from `parts`; with `raw`, each call's raw text too,
    but neither for a call the parser refused: it ended with the fragment that proved it
    wrong, so what it read runs to where that fragment was cut (docs/toolcalls.md)."""
    acc = ToolCallAccumulator(text_tools=family, tools=tools)
    events: list[Any] = []
    for part in parts:
        events += acc.feed_text(part)
    events += acc.finish()
    if raw:
        calls = [
            (c.name, c.id)
            + ((None, None) if refused else (c.arguments, c.raw))
            + (c.error, c.complete)
            for c in acc.tool_calls
            for refused in [(c.error or "").startswith(("invalid JSON", "schema"))]
        ]
    else:
        calls = [(c.name, c.arguments, c.error, c.complete) for c in acc.tool_calls]
    text = "".join(e.text for e in events if type(e) is TextDelta)
    reasoning = "".join(e.text for e in events if type(e) is ReasoningDelta)
    return calls, text, reasoning


def schema_of(value: Any) -> dict[str, Any]:
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string"}
    kinds.update({type(None): "null", list: "array", dict: "object"})
    return {"type": kinds[type(value)]}


def tools_for(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]] | None:
    """Each call's tool, its parameters typed by the values drawn (one tool per name); None
    when two calls of one tool give a parameter values of different types."""
    tools: dict[str, dict[str, Any]] = {}
    for name, arguments in calls:
        properties = tools.setdefault(name, {})
        for key, value in arguments.items():
            if properties.setdefault(key, schema_of(value)) != schema_of(value):
                return None
    return [
        {"name": name, "input_schema": {"type": "object", "properties": properties}}
        for name, properties in tools.items()
    ]


def template_value(family: str, value: Any) -> str:
    """A parameter as the XML templates write it: a string as it is, else as JSON (Qwen3's
    template prints Python's True/False/None for scalars, GLM's JSON's)."""
    if isinstance(value, str):
        return value
    if family == "qwen3-coder" and (value is None or isinstance(value, bool)):
        return {None: "None", True: "True", False: "False"}[value]
    return json.dumps(value, ensure_ascii=False)


# -- each family's writing of calls ---------------------------------------------------------


def write(family: str, calls: list[tuple[str, dict[str, Any]]], flavour: int) -> str:
    if family == "hermes":
        blocks = []
        for name, arguments in calls:
            body = {"name": name, "arguments": arguments}
            if flavour % 2:  # Hermes' own template: "arguments" first
                body = {"arguments": arguments, "name": name}
            text = json.dumps(body, ensure_ascii=bool(flavour % 3))
            blocks.append(f"<tool_call>\n{text}\n</tool_call>")
        return "\n".join(blocks)
    if family == "qwen3-coder":
        out = []
        for name, arguments in calls:
            params = "".join(
                f"<parameter={key}>\n{template_value(family, value)}\n</parameter>\n"
                for key, value in arguments.items()
            )
            out.append(f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>")
        return "\n".join(out)
    if family == "glm-4.5":
        sep = "\n" if flavour % 2 else ""  # GLM 4.5 writes newlines, 4.7 none
        out = []
        for name, arguments in calls:
            pairs = "".join(
                f"<arg_key>{key}</arg_key>{sep}<arg_value>"
                f"{template_value(family, value)}</arg_value>{sep}"
                for key, value in arguments.items()
            )
            out.append(f"<tool_call>{name}{sep}{pairs}</tool_call>")
        return "".join(out)
    if family == "mistral":
        if flavour % 2:
            items = [json.dumps({"name": n, "arguments": a}) for n, a in calls]
            return "[TOOL_CALLS][" + ", ".join(items) + "]"
        return "".join(
            f"[TOOL_CALLS]{n}[CALL_ID]id{i:07d}[ARGS]{json.dumps(a)}"
            for i, (n, a) in enumerate(calls)
        )
    if family == "llama3-json":
        body = "; ".join(json.dumps({"name": n, "parameters": a}) for n, a in calls)
        return ("<|python_tag|>" if flavour % 2 else "") + body
    if family == "pythonic":
        listed = ", ".join(
            f"{n}({', '.join(f'{k}={v!r}' for k, v in a.items())})" for n, a in calls
        )
        return f"<|python_start|>[{listed}]<|python_end|>" if flavour % 2 else f"[{listed}]"
    if family == "deepseek":
        if flavour % 2:  # V3: the name on its own line, the arguments fenced
            body = "".join(
                f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>{n}\n```json\n{json.dumps(a)}\n```"
                "<｜tool▁call▁end｜>"
                for n, a in calls
            )
        else:
            body = "".join(
                f"<｜tool▁call▁begin｜>{n}<｜tool▁sep｜>{json.dumps(a)}<｜tool▁call▁end｜>"
                for n, a in calls
            )
        return f"<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>"
    if family == "kimi-k2":
        body = "".join(
            f"<|tool_call_begin|>functions.{n}:{i}<|tool_call_argument_begin|>{json.dumps(a)}"
            "<|tool_call_end|>"
            for i, (n, a) in enumerate(calls)
        )
        return f"<|tool_calls_section_begin|>{body}<|tool_calls_section_end|>"
    if family == "harmony":
        return "".join(
            f"<|start|>assistant<|channel|>commentary to=functions.{n} <|constrain|>json"
            f"<|message|>{json.dumps(a)}<|call|>"
            for n, a in calls
        )
    raise AssertionError(family)


FAMILIES = [
    "hermes",
    "qwen3-coder",
    "glm-4.5",
    "mistral",
    "llama3-json",
    "pythonic",
    "deepseek",
    "kimi-k2",
    "harmony",
]
MARKUP = [
    "<tool_call>",
    "</tool_call>",
    "[TOOL_CALLS]",
    "<|",
    "<｜",
    "<function_calls>",
    "</function_calls>",
    *THINK_TAGS,
]
# what the templates cannot hold inside a string value
FORBIDDEN_IN_STRINGS = {"qwen3-coder": "</parameter>", "glm-4.5": "</arg_value>"}


def clean_text(text: str) -> str:
    """`text` without any markup (what replacing leaves behind is checked again)."""
    while any(marker in text for marker in MARKUP):
        for marker in MARKUP:
            text = text.replace(marker, marker[:-1])
    return text


def fits(family: str, calls: list[tuple[str, dict[str, Any]]]) -> bool:
    forbidden = FORBIDDEN_IN_STRINGS.get(family)
    if forbidden is None:
        return True
    return not any(forbidden in json.dumps(a, ensure_ascii=False) for _, a in calls)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    family=st.sampled_from(FAMILIES),
    calls=CALLS,
    before=TEXT,
    after=TEXT,
    flavour=st.integers(0, 5),
    cuts=st.lists(st.integers(0, 10_000), max_size=25),
    typed=st.booleans(),
)
def test_random_calls_in_random_text_at_random_cuts(
    family: str,
    calls: list[tuple[str, dict[str, Any]]],
    before: str,
    after: str,
    flavour: int,
    cuts: list[int],
    typed: bool,
) -> None:
    if not fits(family, calls):
        calls = [(n, {}) for n, _ in calls]
    before, after = clean_text(before), clean_text(after)
    if family in ("llama3-json", "pythonic") and not (flavour % 2 and family == "pythonic"):
        before = ""  # their calls without a marker must come first
    if family == "llama3-json":
        after = "\n" + after.lstrip(" \t\r\n;{")  # nothing that continues the calls
    if family == "pythonic" and not flavour % 2:
        before = ""
    xml = family in ("qwen3-coder", "glm-4.5")
    tools = tools_for(calls) if typed else None
    text = before + write(family, calls, flavour) + after
    expected_calls = [(name, json.loads(json.dumps(args)), None, True) for name, args in calls]
    if xml and tools is None:  # without tools the parameters are strings
        expected_calls = [
            (n, {k: template_value(family, v) for k, v in a.items()}, None, True) for n, a in calls
        ]
    visible = before + (after if after.strip(" \t\r\n") else "")
    for backend in installed_backends():
        with backend_env(backend):
            whole = read(family, [text], tools)
            assert whole == (expected_calls, visible, ""), text
            assert read(family, pieces(text, cuts), tools) == whole
            assert read(family, list(text), tools) == whole


# -- Python literals --------------------------------------------------------------------------

PY_KEYS = st.one_of(STRINGS, st.integers(-1000, 1000), st.booleans(), st.none())
PY_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(PY_KEYS, inner, max_size=4),
    ),
    max_leaves=12,
)


def literal_json(source: str, parts: list[str]) -> str:
    """The JSON text `PyLiteral` writes for `source` given in `parts`, then a `)`."""
    out: list[str] = []
    literal = PyLiteral(out.append)
    held = ""
    for part in [*parts, ")"]:
        buf = held + part
        j, what = literal.feed(buf, 0)
        if what == DONE:
            return "".join(out)
        assert what in (MORE, HELD), literal.error
        held = buf[j:]
    raise AssertionError("no end")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=PY_VALUES, cuts=st.lists(st.integers(0, 10_000), max_size=20))
def test_python_literals_become_the_json_of_what_literal_eval_reads(
    value: Any, cuts: list[int]
) -> None:
    source = repr(value)
    expected = json.loads(json.dumps(ast.literal_eval(source)))
    assert json.loads(literal_json(source, [source])) == expected
    assert json.loads(literal_json(source, pieces(source, cuts))) == expected


# -- broken markup: whatever it gives, it gives for every chunking ---------------------------

JUNK = st.sampled_from(
    [
        "<",
        "</",
        ">",
        "{",
        "}",
        "[",
        "]",
        '"',
        "\\",
        ",",
        ")",
        "(",
        "=",
        "\n",
        "x",
        "<tool_call>",
        "</tool_call>",
        "</parameter>",
        "<parameter=a>",
        "</function>",
        "<arg_value>",
        "[TOOL_CALLS]",
        "[ARGS]",
        "<|call|>",
        "<|start|>",
        "<|message|>",
        "<|tool_call_end|>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁sep｜>",
        "<think>",
        "</think>",
        "'''",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    family=st.sampled_from([*FAMILIES, "auto"]),
    calls=CALLS,
    flavour=st.integers(0, 5),
    damage=st.lists(st.tuples(st.integers(0, 10_000), JUNK, st.integers(0, 3)), max_size=4),
    cuts=st.lists(st.integers(0, 10_000), max_size=25),
)
def test_broken_markup_gives_the_same_for_every_chunking(
    family: str,
    calls: list[tuple[str, dict[str, Any]]],
    flavour: int,
    damage: list[tuple[int, str, int]],
    cuts: list[int],
) -> None:
    text = "Hi " + write("hermes" if family == "auto" else family, calls, flavour)
    for at, junk, dropped in damage:  # insert junk, drop a few characters
        at %= len(text) + 1
        text = text[:at] + junk + text[at + dropped :]
    for backend in installed_backends():
        with backend_env(backend):
            whole = read(family, [text], raw=True)
            assert read(family, pieces(text, cuts), raw=True) == whole, text
            assert read(family, list(text), raw=True) == whole, text

"""`OutputParser` (issue 26 item 1): the document found around fences, reasoning blocks and
prose, whatever the cuts; never ahead of the text; errors positioned in the whole text."""

from __future__ import annotations

import copy
import json

import pytest
from _output_support import cuts, outcome, splits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jsondrip
from jsondrip import MISSING, IncompleteJSONError, JSONDecodeError, OutputParser


def test_pure_json_is_read_as_a_parser_reads_it(backend: str) -> None:
    text = '{"city": "Paris", "days": [1, 2], "ok": true}'
    parser = OutputParser(backend=backend)
    plain = jsondrip.Parser(backend=backend)
    for char in text:
        assert parser.feed(char) == plain.feed(char)
    assert parser.done and parser.close() == json.loads(text)
    assert (parser.text, parser.reasoning) == ("", "")


CASES = [
    # (text, document, prose kept, reasoning)
    ('```json\n{"a": 1}\n```', {"a": 1}, "", ""),
    ("```\n[1, 2]\n```\nthat is all", [1, 2], "\nthat is all", ""),
    ('Here:\n```json\n{"a": "`x`"}\n```\nbye', {"a": "`x`"}, "Here:\n\nbye", ""),
    ('```JSON {"a": 1}```', {"a": 1}, "", ""),
    ('<think>hmm {x} [1] {"no": 1}</think>{"ok": true}', {"ok": True}, "", 'hmm {x} [1] {"no": 1}'),
    (
        '<thinking>\nplan\n</thinking>\n\n```json\n{"k": [{"a": 1}]}\n```',
        {"k": [{"a": 1}]},
        "\n\n",
        "\nplan\n",
    ),
    ('<reasoning>r</reasoning>\n<think>t</think>[{"id": 1}]', [{"id": 1}], "\n", "rt"),
    (
        'the {name} field and [see] {"name": "bob", "n": [1,2]} trailing [1]',
        {"name": "bob", "n": [1, 2]},
        "the {name} field and [see] trailing [1]",
        "",
    ),
    ('As in [1]. {"a": 1}', {"a": 1}, "As in [1]. ", ""),
    ('f(x) = {x | x > 0}, so {"x": 0}', {"x": 0}, "f(x) = {x | x > 0}, so ", ""),
    ('Use `{}` or {"a": {}}', {"a": {}}, "Use `{}` or ", ""),
    ('Sure! {"a": 1} {"b": 2}', {"a": 1}, 'Sure! {"b": 2}', ""),
    ("42", 42, "", ""),
    ('"hello"', "hello", "", ""),
    ("42\nmore text", 42, "more text", ""),
    ("The IDs: [1, 2, 3]", [1, 2, 3], "The IDs: ", ""),
    ("```\n[1, 2, 3]\n```", [1, 2, 3], "", ""),
    ('prefix [{"id": 1}, {"id": 2}] suffix', [{"id": 1}, {"id": 2}], "prefix suffix", ""),
    ("  \n{}\n", {}, "  \n", ""),
    ('<think>a</think> <think>b</think>\n{"a": 1}', {"a": 1}, " \n", "ab"),
]


@pytest.mark.parametrize(("text", "document", "prose", "reasoning"), CASES)
def test_the_document_is_found_however_the_text_is_cut(
    backend: str, text: str, document: object, prose: str, reasoning: str
) -> None:
    for way, pieces in splits(text).items():
        result, kept, thought, _ = outcome(pieces, backend=backend)
        assert result == ("value", document), way
        assert (kept, thought) == (prose, reasoning), way


def json_words(document: str) -> str:
    """json.loads's message for `document` on this interpreter (PyPy's json words its errors
    differently, and the twin speaks the running interpreter's dialect)."""
    try:
        json.loads(document)
    except json.JSONDecodeError as error:
        return error.msg
    raise AssertionError(f"{document!r} is JSON")


ERRORS = [
    # (text, error type, message start (json's own for the document's error), position)
    ('text then {"a": ', IncompleteJSONError, json_words('{"a": '), 16),
    ("<think>cut", IncompleteJSONError, "Expecting value", 10),
    ("```json\n", IncompleteJSONError, "Expecting value", 8),
    ('```json\n{"a": [1, ', IncompleteJSONError, json_words('{"a": [1, '), 18),
    ("The IDs: [1, 2, 3]. Thanks", JSONDecodeError, "No JSON document in the text", 26),
    ("I cannot help with that.", JSONDecodeError, "No JSON document in the text", 24),
    ('{"a": 1, oops}', JSONDecodeError, json_words('{"a": 1, oops}'), 9),
    ('pre {"a": 1, oops} post {"b": 2}', JSONDecodeError, json_words('{"a": 1, oops}'), 13),
    (
        '<think>\nx\n</think>\n```json\n{"a":\n  1 2}',
        JSONDecodeError,
        json_words('{"a":\n  1 2}'),
        37,
    ),
]


@pytest.mark.parametrize(("text", "kind", "message", "pos"), ERRORS)
def test_errors_say_what_and_where_in_the_whole_text(
    backend: str, text: str, kind: type, message: str, pos: int
) -> None:
    for way, pieces in splits(text).items():
        parser = OutputParser(backend=backend)
        with pytest.raises(kind) as caught:
            for piece in pieces:
                parser.feed(piece)
            parser.close()
        error = caught.value
        assert type(error) is kind, way
        assert error.msg.startswith(message) and error.pos == pos, way
        assert error.lineno == text.count("\n", 0, pos) + 1, way
        assert error.colno == pos - text.rfind("\n", 0, pos), way
        with pytest.raises(kind):  # it stays failed
            parser.close()


def test_a_broken_document_raises_from_feed_and_again_after(backend: str) -> None:
    parser = OutputParser(backend=backend)
    parser.feed('Here: {"a": 1')
    with pytest.raises(JSONDecodeError) as caught:
        parser.feed(" 2}")
    assert (caught.value.msg, caught.value.pos) == (json_words('{"a": 1 2}'), 14)
    with pytest.raises(JSONDecodeError):
        parser.feed("more")


def test_a_prose_brace_that_is_not_json_shows_nothing(backend: str) -> None:
    parser = OutputParser(backend=backend)
    for piece in ["the {", "name} field"]:
        assert parser.feed(piece) is MISSING
    assert parser.feed(' {"name": "x') == {"name": "x"}
    assert not parser.done
    assert parser.feed('"}') == {"name": "x"} and parser.done


def test_bytes_cut_inside_a_character(backend: str) -> None:
    data = '<think>é</think>{"v": "日本"}'.encode()
    parser = OutputParser(backend=backend)
    for i in range(len(data)):
        parser.feed(data[i : i + 1])
    assert parser.close() == {"v": "日本"} and parser.reasoning == "é"


def test_configurable_reasoning_tags(backend: str) -> None:
    parser = OutputParser(backend=backend, reasoning_tags=("scratchpad",))
    parser.feed('<scratchpad>{"no": 1}</scratchpad><think>')
    with pytest.raises(JSONDecodeError):
        parser.close()  # <think> is prose here, and holds no document
    parser = OutputParser(backend=backend, reasoning_tags=("scratchpad",))
    parser.feed('<scratchpad>{"no": 1}</scratchpad>\n{"yes": 2}')
    assert parser.close() == {"yes": 2} and parser.reasoning == '{"no": 1}'


def test_hostile_brackets_are_read_in_linear_work(backend: str, monkeypatch) -> None:
    """`[[[[...x` and friends, fed in pieces of any size: the characters given to parsers
    grow in proportion to the text (each candidate is given a slice in proportion to what
    it read, and the search resumes where one fails), never with its square."""
    given: list[int] = []
    real = OutputParser._engine

    class Counted:
        """An engine whose feeds are counted."""

        def __init__(self, engine: object) -> None:
            self._engine = engine

        def feed(self, text: str) -> object:
            given.append(len(text))
            return self._engine.feed(text)  # type: ignore[attr-defined]

        def __getattr__(self, name: str) -> object:
            return getattr(self._engine, name)

    def counting(self: OutputParser, schema: object) -> object:
        return Counted(real(self, schema))

    monkeypatch.setattr(OutputParser, "_engine", counting)
    patterns = ["[", '["[', "{", "[]", "[1, ", "<", "`"]
    for pattern in patterns:
        for piece in (7, 10**9):
            work = []
            for count in (1000, 2000):
                given.clear()
                text = "x " + pattern * count + "x"
                parser = OutputParser(backend=backend, max_depth=100_000)
                for i in range(0, len(text), piece):
                    parser.feed(text[i : i + piece])
                with pytest.raises(JSONDecodeError):
                    parser.close()
                work.append(sum(given))
            assert work[1] <= 2.2 * work[0] + 100, (pattern, piece, work)


# -- random documents in random wrappers, cut at random -----------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(alphabet='ab {}[]"\\`<>é🎉\n', max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet="ab{}`<", max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)
documents = st.one_of(
    st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=4), values, min_size=1),
    st.lists(st.dictionaries(st.sampled_from("xyz"), values, min_size=1), min_size=1),
)
PROSE = [
    "Sure! Here is the JSON:",
    "the {name} field",
    "use [brackets] here",
    "a < b and c > d",
    "see `code` inline",
    "1. first\n2. second",
    '"quoted" words',
    "[1] is a citation.",
    "an empty {} dict.",
    "<thin",
    "``",
]
reasoning = st.text(alphabet='ab {}[]"`\n<>/', max_size=12).filter(lambda t: "</think>" not in t)


@st.composite
def wrapped(draw: st.DrawFn) -> tuple[str, object, str, int, int]:
    """(text, document, reasoning, where the document starts and ends)."""
    document = draw(documents)
    body = json.dumps(document, indent=draw(st.sampled_from([None, 2])), ensure_ascii=False)
    thought = draw(st.lists(reasoning, max_size=2))
    head = "".join(f"<think>{t}</think>" for t in thought)
    if draw(st.booleans()):
        head += draw(st.sampled_from(["", "\n", " "]))
        if draw(st.booleans()):
            head += draw(st.sampled_from(["Sure! ", "Here it is:\n"]))
            head += " ".join(draw(st.lists(st.sampled_from(PROSE), max_size=3))) + "\n"
    fenced = draw(st.booleans())
    if fenced:
        head += "```" + draw(st.sampled_from(["", "json", "JSON", "js on"])) + "\n"
    tail = "\n```" if fenced else ""
    tail += draw(st.sampled_from(["", "\n", "\nHope this helps! {x} [1]", ' {"more": 1}']))
    return head + body + tail, document, "".join(thought), len(head), len(head) + len(body)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=wrapped(), seed=st.integers(0, 2**32))
def test_any_cut_gives_the_same_document_and_is_never_ahead(
    case: tuple[str, object, str, int, int], seed: int
) -> None:
    text, document, thought, start, end = case
    ways = splits(text)
    ways["seeded"] = cuts(text, seed, 12)
    first = None
    for backend in jsondrip.available_backends():
        if backend == "jiter":
            continue
        for way, pieces in ways.items():
            result, kept, reasoned, shown = outcome(pieces, backend=backend)
            assert result == ("value", document), (backend, way)
            assert reasoned == thought, (backend, way)
            if first is None:
                first = kept
            assert kept == first, (backend, way)
            # never ahead: each value shown is what a plain parser, fed the document's text
            # read so far, shows (or nothing yet, while it is not proven)
            plain = jsondrip.Parser(backend=backend)
            fed = 0
            began = False
            for piece, value in zip(pieces, shown):
                plain.feed(text[max(fed, start) : min(fed + len(piece), end)])
                fed += len(piece)
                if value is MISSING:
                    assert not began, (backend, way)
                    continue
                began = True
                assert value == plain.value or value == document, (backend, way)
        # the values completed by path: the same sequence whatever the cuts, each the
        # document's own value there
        patterns = ["", "/*", "/*/*", "/a/*"]
        whole = completed(ways["whole"], backend, patterns)
        for path, value in whole:
            assert value == at(document, path), (backend, path)
        assert whole and whole[-1] == ("", document)
        for way in ("chars", "seeded"):
            assert completed(ways[way], backend, patterns) == whole, (backend, way)


def completed(pieces: list[str], backend: str, patterns: list[str]) -> list[tuple[str, object]]:
    """The `completed` pairs of every call, in order."""
    parser = OutputParser(backend=backend, watch=patterns)
    seen = []
    for piece in pieces:
        parser.feed(piece)
        seen += copy.deepcopy(parser.completed)
    parser.close()
    return seen + copy.deepcopy(parser.completed)


def at(value: object, path: str) -> object:
    """The value at a JSON Pointer."""
    for token in path.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        value = value[int(token)] if isinstance(value, list) else value[token]  # type: ignore[index]
    return value


def test_watched_values_complete_with_the_text(backend: str) -> None:
    parser = OutputParser(backend=backend, watch="/steps/*")
    parser.feed('Plan:\n```json\n{"steps": [{"do": "a"}, {"do')
    assert parser.completed == [("/steps/0", {"do": "a"})]
    parser.feed('": "b"}]}\n``')
    assert parser.completed == [("/steps/1", {"do": "b"})]
    parser.feed("`\nDone. [1, 2]")
    assert parser.completed == []
    parser.close()
    assert parser.completed == []


def test_watched_documents_and_models(backend: str) -> None:
    pydantic = pytest.importorskip("pydantic")

    class Item(pydantic.BaseModel):
        id: int
        tag: str = "none"

    parser = OutputParser(Item, multiple=True, watch="/*", backend=backend)
    seen = []
    for char in 'One: {"id": 1}\nTwo: {"id": 2, "tag": "x"}':
        parser.feed(char)
        seen += parser.completed
    parser.close()
    seen += parser.completed
    assert seen == [("/0", Item(id=1)), ("/1", Item(id=2, tag="x"))]

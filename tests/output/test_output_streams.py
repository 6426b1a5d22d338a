"""Structured output read by the accumulator (issue 26 item 5), from streams written in every
provider format it reads (tests/output/streams, see make_streams.py), fed whole, line by
line, byte by byte and at random cuts, on both backends; and the corpus' recorded OpenAI
JSON-mode streams."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jsondrip
from jsondrip import (
    MISSING,
    OutputDelta,
    OutputDone,
    OutputParser,
    ReasoningDelta,
    StreamDone,
    TextDelta,
    ToolCallAccumulator,
    apply_changes,
)

STREAMS = Path(__file__).resolve().parent / "streams"
EXPECTED = json.loads((STREAMS / "expected.json").read_text(encoding="utf-8"))


def ways(data: bytes) -> dict[str, list[bytes]]:
    out = {"whole": [data], "lines": data.splitlines(keepends=True)}
    out["bytes"] = [data[i : i + 1] for i in range(len(data))]
    for seed in range(2):
        rng = random.Random(seed)
        cuts = sorted(rng.sample(range(1, len(data)), min(30, len(data) - 1)))
        out[f"cut{seed}"] = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
    return out


def read(path: Path, pieces: list[bytes], backend: str, multiple: bool) -> dict[str, Any]:
    """Feed the pieces and finish: what came out of the output, and the events' story."""
    acc = ToolCallAccumulator(output=lambda: OutputParser(multiple=multiple, backend=backend))
    feed = acc.feed_sse if path.suffix == ".sse" else acc.feed_lines
    events: list[Any] = []
    rebuilt: Any = MISSING
    for piece in pieces:
        batch = feed(piece)
        events += batch
        deltas = [e for e in batch if type(e) is OutputDelta]
        for delta in deltas:  # the changes rebuild the preview (live: as after the batch)
            rebuilt = apply_changes(rebuilt, delta.changes)
        if deltas:
            assert rebuilt == deltas[-1].preview
            rebuilt = copy.deepcopy(rebuilt)
    events += acc.finish()
    done = [e for e in events if type(e) is OutputDone]
    assert len(done) == 1, "one OutputDone per choice and response"
    assert type(events[-1]) is StreamDone and events.index(done[0]) < len(events) - 1
    return {
        "done": done[0],
        "text": "".join(e.text for e in events if type(e) is TextDelta),
        "reasoning": "".join(e.text for e in events if type(e) is ReasoningDelta),
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_format_and_ending_however_cut(backend: str, name: str) -> None:
    want = EXPECTED[name]
    path = STREAMS / name
    data = path.read_bytes()
    for way, pieces in ways(data).items():
        got = read(path, pieces, backend, want["multiple"])
        done = got["done"]
        assert done.complete == want["complete"], (way, done)
        if want["complete"]:
            assert done.value == want["value"] and done.error is None, way
        else:
            assert done.error.startswith(want["error"]), (way, done.error)
        assert got["text"] == want["text"], way
        assert got["reasoning"] == want["reasoning"], way


def test_a_truncated_output_keeps_what_was_shown(backend: str) -> None:
    data = (STREAMS / "anthropic_truncated.sse").read_bytes()
    got = read(STREAMS / "anthropic_truncated.sse", [data], backend, False)
    shown = {"city": "Paris", "temperature": 21.5, "units": "C", "tags": ["sunny"]}
    assert got["done"].value == shown
    assert "expecting" in got["done"].error


def test_a_stream_that_just_ends_is_never_complete(backend: str) -> None:
    data = (STREAMS / "anthropic_pure.sse").read_bytes()
    cut = data[: data.index(b"event: message_delta")]  # the whole document, no end
    acc = ToolCallAccumulator(output=lambda: OutputParser(backend=backend))
    events = acc.feed_sse(cut) + acc.finish()
    (done,) = [e for e in events if type(e) is OutputDone]
    assert not done.complete and done.error.startswith("incomplete: the stream ended")
    assert done.value["city"] == "Paris"
    aborted = ToolCallAccumulator(output=True)
    events = aborted.feed_sse(cut) + aborted.abort()
    (done,) = [e for e in events if type(e) is OutputDone]
    assert not done.complete and done.error.startswith("aborted")


def test_a_model_makes_typed_deltas_and_a_validated_value(backend: str) -> None:
    pydantic = pytest.importorskip("pydantic")

    class Weather(pydantic.BaseModel):
        city: str
        temperature: float
        units: str = "F"
        tags: list[str] = pydantic.Field(default_factory=list)
        note: str = ""

    data = (STREAMS / "openai-chat_think-fence.sse").read_bytes()
    acc = ToolCallAccumulator(output=lambda: OutputParser(Weather, backend=backend))
    events = acc.feed_sse(data) + acc.finish()
    partials = [e.partial for e in events if type(e) is OutputDelta]
    assert all(isinstance(p, Weather) for p in partials)
    (done,) = [e for e in events if type(e) is OutputDone]
    assert done.complete and done.value == Weather(**EXPECTED["openai-chat_pure.sse"]["value"])


# -- the corpus' recorded OpenAI JSON-mode streams ------------------------------------------

CORPUS_JSON = [
    ("openai-chat_json-content_n3-choices_gpt-4o.sse", [True, True, True], None),
    ("openai-chat_json-content_max-tokens-truncated_gpt-4o.sse", [False], "truncated"),
]


@pytest.mark.parametrize(("name", "complete", "error"), CORPUS_JSON)
def test_recorded_json_mode_streams(
    backend: str, name: str, complete: list[bool], error: str | None
) -> None:
    path = corpus_dir("streams") / name
    data = path.read_bytes()
    # what the stream says, read the simplest way: each choice's content, concatenated
    contents: dict[int, str] = {}
    for line in data.decode().splitlines():
        if line.startswith("data: {"):
            for choice in json.loads(line[6:])["choices"]:
                piece = choice["delta"].get("content") or ""
                contents[choice["index"]] = contents.get(choice["index"], "") + piece
    for way, pieces in ways(data).items():
        acc = ToolCallAccumulator(output=lambda: OutputParser(backend=backend))
        events = [e for piece in pieces for e in acc.feed_sse(piece)] + acc.finish()
        done = sorted((e for e in events if type(e) is OutputDone), key=lambda e: e.choice)
        assert [d.complete for d in done] == complete, way
        for d in done:
            if d.complete:
                assert d.value == json.loads(contents[d.choice]), way
            else:
                assert d.error.startswith("truncated by the token limit ('length')"), way


def test_the_recorded_refusal(backend: str) -> None:
    data = (corpus_dir("streams") / "openai-chat_refusal-deltas_gpt-4o.sse").read_bytes()
    acc = ToolCallAccumulator(output=lambda: OutputParser(backend=backend))
    events = acc.feed_sse(data) + acc.finish()
    (done,) = [e for e in events if type(e) is OutputDone]
    assert not done.complete and done.value is MISSING
    assert done.error == "refused: I'm sorry, I can't assist with that request."
    assert jsondrip.OutputDone is OutputDone


# -- random answers in a provider's stream, cut at random bytes ---------------------------


REASONED = {"": "", "<think>{a} [b]</think>": "{a} [b]", "<thinking>\n</thinking>\n": "\n"}
answers = st.tuples(
    st.dictionaries(
        st.text(alphabet="abc", min_size=1, max_size=3),
        st.one_of(st.integers(), st.text(alphabet='x {}"`<>\n', max_size=5)),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from(sorted(REASONED)),
    st.sampled_from(["", "Sure! {x} here:\n", "```json\n", "Here:\n```\n"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=answers, seed=st.integers(0, 2**32), ending=st.sampled_from(["stop", "length"]))
def test_any_answer_cut_anywhere_in_an_openai_stream(
    answer: tuple[dict, str, str], seed: int, ending: str
) -> None:
    document, thought, head = answer
    text = thought + head + json.dumps(document) + ("\n```" if "`" in head else "")
    rng = random.Random(seed)
    deltas, i = [], 0
    while i < len(text):
        j = i + rng.randint(1, 6)
        deltas.append(text[i:j])
        i = j
    chunk = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}}]}
    body = b""
    for delta in deltas:
        chunk["choices"][0]["delta"] = {"content": delta}
        body += b"data: " + json.dumps(chunk).encode() + b"\n\n"
    chunk["choices"][0].update(delta={}, finish_reason=ending)
    body += b"data: " + json.dumps(chunk).encode() + b"\n\ndata: [DONE]\n\n"
    cuts = sorted(rng.sample(range(1, len(body)), min(25, len(body) - 1)))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    for backend in ("native", "python"):
        if backend not in jsondrip.available_backends():
            continue
        acc = ToolCallAccumulator(output=lambda b=backend: OutputParser(backend=b))
        events = [e for piece in pieces for e in acc.feed_sse(piece)] + acc.finish()
        (done,) = [e for e in events if type(e) is OutputDone]
        thinking = "".join(e.text for e in events if type(e) is ReasoningDelta)
        assert thinking == REASONED[thought]
        if ending == "stop":
            assert done.complete and done.value == document
        else:
            assert not done.complete and done.value == document
            assert done.error.startswith("truncated by the token limit ('length')")


@pytest.mark.parametrize("name", ["openai-chat_think-fence.sse", "anthropic_fenced.sse"])
def test_output_deltas_carry_the_watched_values_completed(backend: str, name: str) -> None:
    """`OutputDelta.completed` (#26 items 3 and 5): the values the watch patterns name, each
    once, in the order they completed, whatever the cuts; the last delta's closing included."""
    data = (STREAMS / name).read_bytes()
    expected = EXPECTED[name]["value"]
    for way, pieces in ways(data).items():
        acc = ToolCallAccumulator(
            output=lambda: OutputParser(watch=["/tags/*", "/city"], backend=backend)
        )
        feed = acc.feed_sse
        events = [e for piece in pieces for e in feed(piece)] + acc.finish()
        completed = [pair for e in events if type(e) is OutputDelta for pair in e.completed]
        tags = [("/tags/" + str(i), tag) for i, tag in enumerate(expected["tags"])]
        assert completed == [("/city", expected["city"]), *tags], way

"""The native partialArgs writer (`jsondrip._native.PartialArgs`, `rust/envelope/
partial_args.rs`) against its twin (`toolcalls/partial_args.py`): on any pieces, decoded or as
a chunk's bytes, the native writer writes the twin's text, raises the twin's error, or leaves
the pieces to the twin without changing; and `VertexArgs`, which hands the state from one to
the other, gives the twin's text and errors on every sequence."""

from __future__ import annotations

import decimal
import json
import math
import random
import struct
from typing import Any

import pytest
from conftest import NO_NATIVE, examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jsondrip.toolcalls.partial_args import PartialArgsWriter
from jsondrip.toolcalls.shortcut import ChunkMatcher
from jsondrip.toolcalls.vertex_args import VertexArgs

if NO_NATIVE is not None:  # the twins compared here are the native one and the Python one
    pytest.skip(NO_NATIVE, allow_module_level=True)

from jsondrip import _native

PREFIX = 'data: {"candidates": [{"content": {"parts": [{"functionCall": {"partialArgs": '
SUFFIX = ', "willContinue": true}}]}}], "responseId": "r"}\n\n'
NATIVE_FRAME = _native.ChunkMatcher([PREFIX, SUFFIX], "v")
TWIN_FRAME = ChunkMatcher([PREFIX, SUFFIX], "v")

# -- random pieces ----------------------------------------------------------------------------

PLAIN_NAMES = st.sampled_from(["a", "b", "k_1", "B2", "_", "steps", "name"])
ODD_NAMES = st.sampled_from(["a b", "é", "1x", "q'", 'q"', "a.b", "x]"])
TEXT = st.text(
    st.sampled_from(['a', 'b', ' ', '"', '\\', '\n', '\t', '\x00', '\x1f', '\x7f', 'é', '😀',
                     '\u2028', '\ud800', '\udc00']),
    max_size=8,
)  # fmt: skip
NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-100, 100),
    st.floats(),
    st.sampled_from([0.0, -0.0, 1e16, 1e15, 1e-5, 1e-4, 5e-324, 1.7976931348623157e308]),
    st.booleans(),  # not a number: the twin's error
    st.none(),
)


@st.composite
def paths(draw: Any) -> str:
    """A jsonPath: mostly plain (`$.a[0]`), sometimes quoted or broken."""
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 9))
        if kind < 5:
            steps.append("." + draw(PLAIN_NAMES))
        elif kind < 8:
            steps.append(f"[{draw(st.integers(0, 3))}]")
        elif kind == 8:
            steps.append("['" + draw(ODD_NAMES).replace("'", "\\'") + "']")
        else:
            steps.append(draw(st.sampled_from(["[99999999999999999999]", "[007]", ".", "[x]"])))
    return draw(st.sampled_from(["$", "$", "$", "$", "", "x"])) + "".join(steps)


@st.composite
def entries(draw: Any) -> Any:
    """One partialArgs entry: usually well formed, sometimes with snake_case keys, two
    values, odd values, or not a dict at all."""
    if draw(st.integers(0, 30)) == 0:
        return draw(st.sampled_from([1, "x", None, []]))
    entry: dict[str, Any] = {}
    if draw(st.integers(0, 20)):
        entry[draw(st.sampled_from(["jsonPath"] * 9 + ["json_path"]))] = draw(paths())
    kinds = draw(st.lists(st.integers(0, 3), min_size=0, max_size=2, unique=True))
    for kind in kinds or ([] if draw(st.integers(0, 10)) == 0 else [0]):
        camel = ["stringValue", "numberValue", "boolValue", "nullValue"][kind]
        if draw(st.integers(0, 15)) == 0:
            camel = {"stringValue": "string_value", "numberValue": "number_value"}.get(camel, camel)
        entry[camel] = draw(
            [
                st.one_of(TEXT, st.none(), st.just(5)),
                NUMBERS,
                st.one_of(st.booleans(), st.sampled_from([None, 0, 1, "x"])),
                st.sampled_from(["NULL_VALUE", None, 0]),
            ][kind]
        )
    more = draw(st.sampled_from([True, True, False, None, 1, "absent", "snake"]))
    if more == "snake":
        entry["will_continue"] = True
    elif more != "absent":
        entry["willContinue"] = more
    if draw(st.integers(0, 25)) == 0:
        entry["extra"] = 1
    return entry


@st.composite
def documents(draw: Any) -> list[list[Any]]:
    """The pieces of a random document in order, in batches, with an occasional
    mutation (a piece repeated, moved, or replaced by a random one)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    pieces = list(_pieces(_random_value(rng, 3, top=True), "$", rng))
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.integers(0, len(pieces)))
        action = draw(st.integers(0, 2))
        if action == 0 and pieces:
            pieces.insert(where, pieces[min(where, len(pieces) - 1)])
        elif action == 1 and pieces:
            pieces.insert(where, pieces.pop(draw(st.integers(0, len(pieces) - 1))))
        else:
            pieces.insert(where, draw(entries()))
    batches: list[list[Any]] = []
    while pieces:
        size = draw(st.sampled_from([1, 1, 1, 2, 3, 0]))
        batches.append(pieces[:size])
        pieces = pieces[size:] if size else pieces
        if not size and len(batches) > 40:
            break
    return batches


def _random_value(rng: random.Random, depth: int, top: bool = False) -> Any:
    roll = rng.randrange(3, 7) if top else rng.randrange(7 if depth else 3)
    if roll == 0:
        return "".join(rng.choice('ab"\\\n\x01é😀') for _ in range(rng.randint(0, 9)))
    if roll == 1:
        return rng.choice([0, -3, 2.5, 1e20, -0.0, 1e-7, 2**80, 0.1 + 0.2])
    if roll == 2:
        return rng.choice([True, False, None])
    if roll in (3, 4, 5):
        keys = rng.sample(["a", "b", "k_1", "name", "é", "a b"], rng.randint(1, 4))
        return {k: _random_value(rng, depth - 1) for k in keys}
    return [_random_value(rng, depth - 1) for _ in range(rng.randint(1, 3))]


def _pieces(value: Any, path: str, rng: random.Random) -> Any:
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        if isinstance(key, int):
            where = f"{path}[{key}]"
        else:
            where = f"{path}.{key}" if key.isidentifier() and key.isascii() else f"{path}['{key}']"
        if isinstance(child, (dict, list)):
            yield from _pieces(child, where, rng)
        elif isinstance(child, str):
            cuts = sorted(rng.sample(range(len(child) + 1), min(2, len(child) + 1)))
            parts = [child[a:b] for a, b in zip([0, *cuts], [*cuts, len(child)])]
            for i, part in enumerate(parts):
                entry = {"jsonPath": where, "stringValue": part}
                yield {**entry, "willContinue": True} if i < len(parts) - 1 else entry
        elif child is None:
            yield {"jsonPath": where, "nullValue": "NULL_VALUE"}
        elif isinstance(child, bool):
            yield {"jsonPath": where, "boolValue": child}
        else:
            yield {"jsonPath": where, "numberValue": child}


# -- running them -----------------------------------------------------------------------------


def outcome(write: Any, *args: Any) -> tuple[str, Any]:
    try:
        return ("text", write(*args))
    except ValueError as error:
        return ("error", str(error))


def twin_run(batches: list[list[Any]]) -> list[tuple[str, Any]]:
    """The twin's text or error for each batch (up to the first error), then its end."""
    writer = PartialArgsWriter()
    out = []
    for batch in batches:
        out.append(outcome(writer.feed, batch))
        if out[-1][0] == "error":
            return out
    return [*out, ("text", writer.end())]


def chunk_of(batch: list[Any], ascii_only: bool) -> bytes | None:
    """The batch as a Vertex SSE chunk, or None if json cannot write it."""
    try:
        array = json.dumps(batch, ensure_ascii=ascii_only)
    except ValueError:
        return None
    return (PREFIX + array + SUFFIX).encode("utf-8", "surrogatepass")


@settings(max_examples=examples(600), deadline=None)
@given(batches=st.one_of(documents(), st.lists(st.lists(entries(), max_size=3), max_size=12)))
@example(batches=[[{"jsonPath": "$.a", "numberValue": 1}], [{"jsonPath": "$.a", "nullValue": 0}]])
def test_native_writes_the_twins_text_and_errors_or_leaves_the_piece(
    batches: list[list[Any]],
) -> None:
    want = twin_run(batches)
    # the native writer alone: the twin's answer, or None without a change
    twin = PartialArgsWriter()
    native = _native.PartialArgs()
    for batch, expected in zip(batches, want):
        before = native.state()
        got = outcome(native.feed, batch)
        if got == ("text", None):
            assert native.state() == before
            break  # the twin decides from here on (VertexArgs, below)
        assert got == expected, batch
        if got[0] == "error":
            break
        twin.feed(batch)
        assert native.state() == twin.state()
    else:
        if want[-1][0] == "text":
            assert native.end() == want[-1][1]
    # VertexArgs hands over when the native writer leaves a piece: the twin's answers all along
    writer = VertexArgs()
    assert writer.native is not None
    got_all = []
    for batch in batches:
        got_all.append(outcome(writer.feed, batch))
        if got_all[-1][0] == "error":
            break
    else:
        got_all.append(("text", writer.end()))
    assert got_all == want


@settings(max_examples=examples(600), deadline=None)
@given(
    batches=st.one_of(documents(), st.lists(st.lists(entries(), max_size=3), max_size=12)),
    ascii_only=st.booleans(),
)
def test_a_chunk_gives_what_its_decoded_pieces_give(
    batches: list[list[Any]], ascii_only: bool
) -> None:
    """Each batch as a chunk's bytes: the native read (or, when it declines, the long way:
    the chunk's array decoded and fed) gives the twin's text and errors; the twin's own chunk
    read agrees whenever it reads the chunk."""
    decoded: list[list[Any]] = []
    chunks: list[bytes] = []
    for batch in batches:
        chunk = chunk_of(batch, ascii_only)
        if chunk is None:
            continue
        try:  # what the long way decodes
            decoded.append(json.loads(chunk.decode()[len(PREFIX) : -len(SUFFIX)]))
        except UnicodeDecodeError:
            continue
        chunks.append(chunk)
    want = twin_run(decoded)
    native, twin = VertexArgs(), PartialArgsWriter()
    got: list[tuple[str, Any]] = []
    for chunk, batch in zip(chunks, decoded):
        quick = outcome(native.feed_chunk, NATIVE_FRAME, chunk)
        if quick == ("text", None):
            quick = outcome(native.feed, batch)  # the long way
        got.append(quick)
        twin_quick = outcome(twin.feed_chunk, TWIN_FRAME, chunk)
        if twin_quick == ("text", None):
            twin_quick = outcome(twin.feed, batch)
        assert twin_quick == quick
        if quick[0] == "error":
            break
    else:
        got.append(("text", native.end()))
    assert got == want


def test_the_common_pieces_are_all_native() -> None:
    """A document of plain paths, decoded or as chunks, never leaves the native writer."""
    rng = random.Random(3)
    rows = [{"id": i, "name": f"item {i}", "price": i * 1.25, "ok": i % 2 == 0,
             "tags": ["a", None], "nested": {"x": [[i, -i], []]}} for i in range(30)]  # fmt: skip
    value = {"rows": rows}
    pieces = list(_pieces(value, "$", rng))
    for via_chunk in (False, True):
        writer = VertexArgs()
        text = ""
        for piece in pieces:
            if via_chunk:
                got = writer.feed_chunk(NATIVE_FRAME, chunk_of([piece], True))  # type: ignore[arg-type]
                assert got is not None, piece
                text += got
            else:
                text += writer.feed([piece])
            assert writer.native is not None, piece
        text += writer.end()
        # the empty list leaves nothing behind: no piece names it
        value_sent = json.loads(json.dumps(value).replace(", []", ""))
        assert text == json.dumps(value_sent, ensure_ascii=False)


def test_whole_members_then_pieces_stay_native() -> None:
    writer = VertexArgs()
    text = writer.whole({"a": 1, "b": [True, "é"]})
    assert writer.native is not None  # the state came back after the twin wrote the members
    text += writer.feed([{"jsonPath": "$.c", "stringValue": "x"}]) + writer.end()
    assert text == '{"a": 1, "b": [true, "é"], "c": "x"}'
    lone = VertexArgs()
    lone.whole({"\ud800": 1})
    assert lone.native is None and lone.python is not None  # no Rust string holds that key
    with pytest.raises(ValueError, match=r"the key '\\ud800' was already written"):
        lone.feed([{"jsonPath": "$['\ud800']", "numberValue": 2}])


# -- numbers ----------------------------------------------------------------------------------


def native_number(value: Any) -> str | None:
    text = _native.PartialArgs().feed([{"jsonPath": "$.a", "numberValue": value}])
    return None if text is None else text[len('{"a": ') :]


@settings(max_examples=examples(2000), deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False))
@example(x=5e-324)
@example(x=1e16)
@example(x=9007199254740993.0)
def test_floats_print_as_repr(x: float) -> None:
    got = native_number(x)
    assert got == repr(x) or (got is None and may_be_a_tie(x))


def may_be_a_tie(x: float) -> bool:
    """The exact value has one digit more than repr's, a 5 (`rust/envelope/repr.rs`)."""
    exact = decimal.Decimal(x).normalize().as_tuple().digits
    shortest = repr(abs(x)).split("e")[0].replace(".", "").strip("0") or "0"
    return len(exact) == len(shortest) + 1 and exact[-1] == 5


def test_random_doubles_print_as_repr() -> None:
    """Every bit pattern is as likely: subnormals, huge and tiny exponents, all digit counts;
    and numbers halfway between two shortest candidates, which the native side leaves."""
    rng = random.Random(11)
    left = 0
    for _ in range(100_000):
        (x,) = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))
        got = native_number(x)
        if got is None and math.isfinite(x):
            assert may_be_a_tie(x), x
            left += 1
        else:
            assert got == (repr(x) if math.isfinite(x) else None), x
    assert left < 100
    for k in range(2**50, 2**50 + 2000):  # ties at ULP 0.25: .25 and .75
        for x in (k + 0.25, k + 0.75, -(k + 0.25)):
            assert native_number(x) is None, x
        assert native_number(k + 0.5) == repr(k + 0.5)


def test_ints_print_as_repr_up_to_64_bits() -> None:
    for n in (0, -1, 2**63 - 1, -(2**63), 12345678901234567890):
        assert native_number(n) == (repr(n) if -(2**63) <= n < 2**63 else None)
    assert native_number(True) is None and native_number("1") is None


@settings(max_examples=examples(1000), deadline=None)
@given(
    literal=st.from_regex(r"-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][-+]?[0-9]{1,3})?",
                          fullmatch=True)
)  # fmt: skip
@example(literal="-0")
@example(literal="1e400")
@example(literal="2.4703282292062328e-324")
def test_number_literals_in_a_chunk_read_as_json_reads_them(literal: str) -> None:
    chunk = f'{PREFIX}[{{"jsonPath": "$.a", "numberValue": {literal}}}]{SUFFIX}'.encode()
    got = _native.PartialArgs().feed_chunk(NATIVE_FRAME, chunk)
    value = json.loads(literal)
    if isinstance(value, float) and (not math.isfinite(value) or may_be_a_tie(value)):
        assert got is None  # the twin writes it
    else:
        assert got == '{"a": ' + repr(value)

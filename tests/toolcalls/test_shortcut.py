"""The envelope shortcut of `feed_sse` changes nothing: each stream gives the same events and
calls as decoding every event in full, however its envelopes are spelled, repeated or broken."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from _toolcall_support import (  # noqa: F401 - make_acc and unlearned are fixtures
    make_acc_fixture,
    outcome,
    unlearned_fixture,
)
from _toolcall_support import snapshot_events as snapshot
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jsondrip
from jsondrip.toolcalls.shortcut import (
    FRAGMENT,
    IGNORED,
    Envelope,
    EnvelopeShortcut,
    count_value,
)
from jsondrip.toolcalls.sse import SSEDecoder


@pytest.fixture(autouse=True)
def _unlearned(unlearned: None) -> None:
    """Each test starts with no skeleton learned (the counts below are a first stream's)."""


def via_sse(acc: Any, texts: list[str]) -> tuple[list[Any], Any]:
    """Each text as one SSE event through `feed_sse` (shortcut and all)."""
    events: list[Any] = []
    for text in texts:
        events += snapshot(acc.feed_sse(f"data: {text}\n\n".encode()))
    events += snapshot(acc.finish())
    return events, outcome(acc)


def via_decoding(acc: Any, texts: list[str]) -> tuple[list[Any], Any]:
    """Each text decoded in full and fed as a dict, skipped as `feed_sse` skips it."""
    events: list[Any] = []
    for text in texts:
        if text[:1] != "{":
            text = text.strip()  # as feed_sse does, before it decodes
        try:
            event = jsondrip.loads(text)
        except ValueError:
            continue
        if type(event) is dict:
            events += snapshot(acc.feed(event))
    events += snapshot(acc.finish())
    return events, outcome(acc)


def dumps(obj: Any, compact: bool = True) -> str:
    return json.dumps(obj, separators=(",", ":") if compact else None, ensure_ascii=False)


# -- Anthropic --------------------------------------------------------------------------------


def block_delta(part: str, index: int = 0, compact: bool = True) -> str:
    delta = {"type": "input_json_delta", "partial_json": part}
    return dumps({"type": "content_block_delta", "index": index, "delta": delta}, compact)


ANTHROPIC_START = [
    dumps({"type": "message_start", "message": {"id": "msg_1", "type": "message"}}),
    *(
        dumps(
            {
                "type": "content_block_start",
                "index": i,
                "content_block": {"type": "tool_use", "id": f"toolu_{i}", "name": "f", "input": {}},
            }
        )
        for i in (0, 1)
    ),
    block_delta('{"a": "'),
    block_delta('{"b": "', 1),
]
ANTHROPIC_END = [
    block_delta('"}'),
    block_delta('"}', 1),
    dumps({"type": "content_block_stop", "index": 0}),
    dumps({"type": "content_block_stop", "index": 1}),
    dumps({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
    dumps({"type": "message_stop"}),
]
SAME = '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta",'
ANTHROPIC_CASES: dict[str, list[str]] = {
    "compact": [block_delta("ab"), block_delta("c\u00e9\U0001f600"), block_delta("d")],
    "spaced, and blanks anywhere JSON allows them": [
        block_delta("ab", compact=False),
        ' { "type" :\t"content_block_delta" , "index" : 0 , "delta" : {"type" : '
        '"input_json_delta" ,  "partial_json"  :  "cd" }   }  ',
        '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta",'
        '"partial_json":"ef"}   }',
    ],
    "blocks taking turns": [block_delta("x", i % 2) for i in range(8)],
    "escapes in the fragment": [
        block_delta('\\n \\" \\\\ \\u00e9 / \t'),
        SAME + '"partial_json":"\\u00e9\\ud83d\\ude00\\/"}}',
        SAME + '"partial_json":"\\ud800"}}',
    ],
    "the sentinels as fragments": [block_delta("\x00fragment"), block_delta("\x00ignored")],
    "an empty fragment": [block_delta(""), block_delta(""), block_delta("z")],
    "a repeated key": [
        SAME + '"partial_json":"x","partial_json":"y"}}',
        SAME + '"partial_json":"x","partial_json":""}}',
        SAME + '"partial_json":"x"},"delta":{"type":"text_delta","text":"t"}}',
        '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta",'
        '"partial_json":"x"},"index":1}',
        SAME + '"partial_json":"x"},"type":"content_block_stop"}',
        SAME + '"partial_json":"x","partial_json":"\\u0000fragment"}}',
    ],
    "other spellings and places of the key": [
        SAME + '"partial\\u005fjson":"x"}}',
        '{"type":"content_block_delta","index":0,"meta":{"partial_json":"q"},'
        '"delta":{"type":"input_json_delta","partial_json":"x"}}',
        '{"type":"content_block_delta","note":"\\"partial_json\\":\\"zz","index":0,'
        '"delta":{"type":"input_json_delta","partial_json":"x"}}',
        '{"type":"content_block_delta","index":0,"meta":{"partial_json":"q"},'
        '"delta":{"type":"input_json_delta","partial_json":"\\u0000fragment"}}',
        '{"\\u0074ype":"content_block_delta","index":0,"delta":{"type":"input_json_delta",'
        '"partial_json":"x"}}',
    ],
    "indexes that are not plain ints": [
        SAME.replace('"index":0', '"index":0.0') + '"partial_json":"x"}}',
        SAME.replace('"index":0', '"index":true') + '"partial_json":"x"}}',
        SAME.replace('"index":0', '"index":-1') + '"partial_json":"x"}}',
        SAME.replace('"index":0', '"index":"0"') + '"partial_json":"x"}}',
        SAME.replace('"index":0', '"index":' + "9" * 30) + '"partial_json":"x"}}',
        SAME.replace('"index":0', '"index":null') + '"partial_json":"x"}}',
    ],
    "other event types around the same fragment": [
        SAME.replace("content_block_delta", "content_block_deltaX") + '"partial_json":"x"}}',
        SAME.replace("input_json_delta", "text_delta") + '"partial_json":"x","text":"t"}}',
        SAME + '"partial_json":"x","extra":"\\u0000fragment"}}',
        SAME + '"partial_json":"x"},"extra":[1,{"k":null}]}',
    ],
    "broken envelopes": [
        SAME + '"partial_json":"x"}',
        SAME + '"partial_json":"x"}}x',
        SAME + '"partial_json":"x"}}}',
        SAME + '"partial_json":"a\tb"}}',
        SAME + '"partial_json":"a\\xb"}}',
        SAME + '"partial_json":"a',
        SAME + '"partial_json":x}}',
        SAME + '"partial_json":"x",}}',
        "\u00a0" + block_delta("x"),
    ],
}


@pytest.mark.parametrize("case", list(ANTHROPIC_CASES))
@pytest.mark.parametrize("fmt", ["anthropic", "auto"])
def test_anthropic_shortcut_is_exact(make_acc, case: str, fmt: str) -> None:
    # each event three times in a row (a skeleton is learned the second time), then all of
    # them twice more in turn (the quick check of the last skeleton keeps missing)
    middle = [t for t in ANTHROPIC_CASES[case] for _ in range(3)] + ANTHROPIC_CASES[case] * 2
    texts = ANTHROPIC_START + middle + ANTHROPIC_END
    assert via_sse(make_acc(format=fmt), texts) == via_decoding(make_acc(format=fmt), texts)


# -- OpenAI Chat Completions ------------------------------------------------------------------

HEAD = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",'


def chunk(part: str, obfuscation: str | None = None, call: int = 0, choice: int = 0) -> str:
    fragment = {"index": call, "function": {"arguments": part}}
    body = {"index": choice, "delta": {"tool_calls": [fragment]}}
    body.update({"logprobs": None, "finish_reason": None})
    event: dict[str, Any] = {"id": "chatcmpl-1", "object": "chat.completion.chunk"}
    event["choices"] = [body]
    if obfuscation is not None:
        event["obfuscation"] = obfuscation
    return dumps(event)


def first_chunk(call: int = 0, choice: int = 0) -> str:
    fragment = {"index": call, "id": f"call_{choice}{call}", "type": "function"}
    fragment["function"] = {"name": "f", "arguments": ""}
    return dumps({"choices": [{"index": choice, "delta": {"tool_calls": [fragment]}}]})


OPENAI_START = [
    first_chunk(),
    first_chunk(1),
    first_chunk(0, 1),
    chunk('{"a": "'),
    chunk('{"b": "', call=1),
    chunk('{"c": "', choice=1),
]
OPENAI_END = [
    chunk('"}'),
    chunk('"}', call=1),
    chunk('"}', choice=1),
    dumps({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    dumps({"choices": [{"index": 1, "delta": {}, "finish_reason": "tool_calls"}]}),
]
ARGS = '"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}'
OPENAI_CASES: dict[str, list[str]] = {
    "plain": [chunk("ab"), chunk("c\u00e9"), HEAD + ARGS + ',"logprobs":null}]}'],
    "obfuscated, new padding every time": [chunk("ab", "k" * i) for i in range(5)],
    "obfuscated, then news of the same length": [
        chunk("ab", "p"),
        chunk("cd", "pq"),
        chunk("ef", "p").replace('"finish_reason":null', '"finish_reason":"ab"'),
    ],
    "obfuscation that is not the padding": [
        HEAD + ARGS + '}],"obfuscation":"p","obfuscation":"q"}',
        HEAD + ARGS + '}],"obfuscation":3}',
        HEAD + ARGS + ',"obfuscation":"p"}]}',
        HEAD + ARGS + '}],"obfuscation":"\\u0000ignored","x":"\\u0000ignored"}',
        HEAD + ARGS + '}],"obfuscation":"\\u0000fragment"}',
        HEAD + ARGS + '}],"obfuscation":"p"',
    ],
    "a response id and time of its own": [
        chunk("ab").replace('"chatcmpl-1"', '"chatcmpl-2"'),
        chunk("cd").replace('"created":1', '"created":1760000000'),
        chunk("ef").replace('"created":1', '"created":-2.5e3'),
        chunk("gh").replace('"chatcmpl-1"', '"chatcmpl\\u002d1"'),
        chunk("ij").replace('"created":1', '"created":"soon"'),
        chunk("kl").replace('"created":1', '"created":null'),
        chunk("mn").replace('"created":1', '"created":01'),
        chunk("op").replace('"created":1', '"created":' + "9" * 700),
    ],
    "a new response by its id after a finish reason": [
        chunk("ab"),
        HEAD + '"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
        chunk("cd").replace('"chatcmpl-1"', '"chatcmpl-2"'),
        chunk("ef").replace('"chatcmpl-1"', '"chatcmpl-2"'),
        chunk("gh"),
    ],
    "ids that are not the response's string": [
        chunk("ab").replace('"chatcmpl-1"', "7"),
        chunk("cd").replace('"id":"chatcmpl-1",', ""),
        chunk("ef").replace('"chatcmpl-1"', "null"),
        chunk("gh").replace('{"index":0,"function"', '{"index":0,"id":"","function"'),
        chunk("ij").replace('"id":"chatcmpl-1",', "") + ',"id":"chatcmpl-1"}',
        chunk("kl").replace('"chatcmpl-1"', '"\\u0000head"'),
    ],
    "calls and choices taking turns": [
        chunk("x", call=i % 2, choice=0) if i % 3 else chunk("y", choice=1) for i in range(9)
    ],
    "news besides the arguments": [
        HEAD + ARGS.replace('"index":0,"delta":{', '"index":0,"delta":{"content":"hi",') + "}]}",
        HEAD + ARGS.replace('"index":0,"delta":{', '"index":0,"delta":{"content":null,') + "}]}",
        HEAD + ARGS.replace('"delta":{', '"delta":{"reasoning_content":"why",') + "}]}",
        HEAD + ARGS.replace('"delta":{', '"delta":{"reasoning":"",') + "}]}",
        HEAD + ARGS + ',"finish_reason":"length"}]}',
        HEAD + ARGS.replace('{"index":0,"function"', '{"index":0,"id":"call_z","function"') + "}]}",
        HEAD + ARGS.replace('"function":{', '"function":{"name":"g",') + "}]}",
        HEAD + ARGS.replace('"function":{', '"function":{"name":null,') + "}]}",
        HEAD + ARGS.replace("}}]}", '}},{"index":1,"function":{"arguments":"w"}}]}') + "}]}",
        HEAD + ARGS.replace('"delta":{', '"delta":{"function_call":{"arguments":"v"},') + "}]}",
    ],
    "other shapes": [
        '{"type":"chunk","chunk":' + HEAD + ARGS + "}]}}",
        HEAD + ARGS.replace('"choices":[{"index":0,', '"choices":[{"index":null,') + "}]}",
        HEAD + ARGS.replace('"choices":[{"index":0,', '"choices":[{') + "}]}",
        HEAD + ARGS.replace('[{"index":0,"function"', '[{"index":null,"function"') + "}]}",
        HEAD + ARGS.replace('[{"index":0,"function"', '[{"function"') + "}]}",
        HEAD + ARGS + "}," + ARGS[10:] + "}]}",
        HEAD + ARGS.replace('{"arguments":"x"}', '{"arguments":"x","arguments":"y"}') + "}]}",
        HEAD + '"x":{"arguments":"q"},' + ARGS + "}]}",
        HEAD.replace('"m"', '"m" , "note":"\\"arguments\\":\\""') + ARGS + "}]}",
        HEAD + ARGS + "}]" + "}" * 2,
        HEAD + ARGS.replace('"x"', '"x\\"') + "}]}",
    ],
}


@pytest.mark.parametrize("case", list(OPENAI_CASES))
@pytest.mark.parametrize("fmt", ["openai-chat", "auto"])
def test_openai_chat_shortcut_is_exact(make_acc, case: str, fmt: str) -> None:
    middle = [t for t in OPENAI_CASES[case] for _ in range(3)] + OPENAI_CASES[case] * 2
    texts = OPENAI_START + middle + OPENAI_END
    assert via_sse(make_acc(format=fmt), texts) == via_decoding(make_acc(format=fmt), texts)


def test_the_shortcut_is_taken(make_acc, monkeypatch: pytest.MonkeyPatch) -> None:
    """The common fragment events are routed without decoding: the test above tests it."""
    decoded: list[str] = []
    from jsondrip.toolcalls import accumulator

    def counting_loads(text: str) -> Any:
        decoded.append(text)
        return jsondrip.loads(text)

    monkeypatch.setattr(accumulator, "loads", counting_loads)
    for fmt, texts in (
        ("anthropic", ANTHROPIC_START + [block_delta(str(i)) for i in range(20)]),
        ("openai-chat", OPENAI_START + [chunk(str(i), f"p{i}") for i in range(20)]),
    ):
        decoded.clear()
        via_sse(make_acc(format=fmt), texts)
        assert len(decoded) <= len(texts) - 18, fmt  # two to learn a skeleton, then none


def test_the_streams_of_a_format_share_what_they_learn(
    make_acc, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A skeleton learned by one stream is known to the next (its route depends on the
    skeleton alone), and both hold its one frame: the text around the literals, and the
    chunk check made from it, once per server, not once per stream (#28)."""
    decoded: list[str] = []
    from jsondrip.toolcalls import accumulator

    def counting_loads(text: str) -> Any:
        decoded.append(text)
        return jsondrip.loads(text)

    monkeypatch.setattr(accumulator, "loads", counting_loads)
    texts = ANTHROPIC_START + [block_delta(str(i)) for i in range(20)]
    first, second = make_acc(format="anthropic"), make_acc(format="anthropic")
    counts = []
    for acc in (first, second):
        decoded.clear()
        for text in texts:
            acc.feed_sse(f"data: {text}\n\n".encode())
        counts.append(len(decoded))
    # Both decode the three events that open the blocks and index 1's one fragment; the first
    # also decodes index 0's fragments until their skeleton was seen twice in a row (index 1's
    # came between): the second stream knows that skeleton from the first.
    assert counts == [6, 4]
    assert first._shortcut._frame is second._shortcut._frame
    assert first._shortcut.chunk_matcher is second._shortcut.chunk_matcher
    assert [call.arguments for call in second.tool_calls] == [
        call.arguments for call in first.tool_calls
    ]


@pytest.mark.parametrize("fmt", ["openai-chat", "auto"])
def test_streams_with_response_ids_of_their_own_share_one_frame(
    make_acc, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenAI gives each response its own chunk `id` and `created` time: they are cut out of
    the skeleton, so the streams of a server share its frame and chunk check (#28: memory per
    open stream), and a chunk routes only with the id its stream holds (another id is a new
    response, which the handler reads in full)."""
    decoded: list[str] = []
    from jsondrip.toolcalls import accumulator

    def counting_loads(text: str) -> Any:
        decoded.append(text)
        return jsondrip.loads(text)

    monkeypatch.setattr(accumulator, "loads", counting_loads)
    accs = []
    counts = []
    for n in range(3):
        acc = make_acc(format=fmt)
        texts = [first_chunk(), *(chunk(str(i), "p" * i) for i in range(1, 9))]
        stamp = f'"id":"chatcmpl-{n}","created":{1760000000 + n},'
        texts = [t.replace('"id":"chatcmpl-1",', stamp) for t in texts]
        decoded.clear()
        for text in texts:
            acc.feed_sse(f"data: {text}\n\n".encode())
        counts.append(len(decoded))
        accs.append(acc)
        assert acc.tool_calls[0].raw == "12345678"
    # each decodes the call's first chunk and its first with the response's id (the handler
    # reads the id); the first stream learns the skeleton from that one and the next (seen
    # twice), the others know it: with the id in the skeleton, each learned its own
    assert counts == [2, 2, 2]
    frames = {id(acc._shortcut._frame) for acc in accs}
    assert len(frames) == 1
    assert len({id(acc._shortcut.chunk_matcher) for acc in accs}) == 1
    assert [acc._shortcut.head for acc in accs] == ["chatcmpl-0", "chatcmpl-1", "chatcmpl-2"]
    # a chunk of the first stream fed to the second is another response's: read in full
    decoded.clear()
    other = chunk("9").replace("chatcmpl-1", "chatcmpl-0")
    accs[1].feed_sse(f"data: {other}\n\n".encode())
    assert len(decoded) == 1
    assert accs[1]._shortcut.head == "chatcmpl-0"


def test_count_value_counts_values_not_keys() -> None:
    assert count_value({"a": ["x", {"x": "x"}], "x": 1}, "x") == 2


def test_the_ignored_value_must_be_the_top_level_one() -> None:
    routes: list[Any] = []

    class Routing(EnvelopeShortcut):
        __slots__ = ()
        ENVELOPE = Envelope("a", lambda event: event, "o")

        def take_fragment(self, route: Any, fragment: Any) -> None:
            routes.append(route)

    shortcut = Routing()
    for text in ['{"a":"1","o":"x"}', '{"a":"1","o":"y"}', '{"a":"1","o":"z"}']:
        assert shortcut.match(text) == (text != '{"a":"1","o":"x"}')
    assert routes == [{"a": FRAGMENT, "o": IGNORED}] * 2
    for text in ['{"a":"1","n":{"o":"x"}}', '{"a":"1","n":{"o":"y"}}']:
        assert not shortcut.match(text)  # a nested `o` is not the one the format ignores


# -- whole SSE chunks ------------------------------------------------------------------------

FRAMES = [
    "data: {}\n\n",
    "event: content_block_delta\ndata: {}\n\n",
    "event: content_block_delta\r\ndata: {}\r\n\r\n",
    "event: \ndata: {}\n\n",
    "id: 7\ndata: {}\n\n",
    "data: {}\n\n: keep-alive\n\n",
    "data: {}\n\n\n",
    "data:{}\n\n",
    "data: {}\ndata: \n\n",
]


def chunked(texts: list[str], seed: int) -> list[bytes]:
    """The events framed in turn every way above, some chunks holding two events or half."""
    rng = random.Random(seed)
    chunks: list[bytes] = []
    for i, text in enumerate(texts):
        frame = FRAMES[rng.randrange(len(FRAMES))] if i % 3 == 0 else FRAMES[i % 2]
        data = frame.replace("{}", text).encode()
        roll = rng.random()
        if roll < 0.1 and chunks:
            chunks[-1] += data  # two events in one chunk
        elif roll < 0.2:
            cut = rng.choice([len(data) - 1, rng.randrange(1, len(data))])  # often: "\n" last
            chunks += [data[:cut], data[cut:]]
        else:
            chunks.append(data)
    return chunks


def per_chunk_via_sse(acc: Any, chunks: list[bytes]) -> list[Any]:
    return [snapshot(acc.feed_sse(chunk)) for chunk in chunks] + [snapshot(acc.finish())]


def per_chunk_via_decoding(acc: Any, chunks: list[bytes]) -> list[Any]:
    """What `feed_sse` must return for each chunk: its events' data decoded in full."""
    decoder = SSEDecoder()
    out = []
    for chunk in chunks:
        events: list[Any] = []
        for sse_event in decoder.feed(chunk):
            text = sse_event.data
            if text[:1] != "{":
                text = text.strip()
            try:
                event = jsondrip.loads(text)
            except ValueError:
                continue
            if type(event) is dict:
                events += acc.feed(event)
        out.append(snapshot(events))  # previews as the chunk's last event left them
    return [*out, snapshot(acc.finish())]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("fmt", ["anthropic", "openai-chat", "gemini"])
def test_chunks_framed_any_way_give_the_same_events_at_the_same_time(
    make_acc, fmt: str, seed: int
) -> None:
    if fmt == "gemini":
        pieces = [vertex_piece(f"$.a[{i // 3}].b", stringValue=f"{i}\n", willContinue=i % 3 < 2)
                  for i in range(40)]  # fmt: skip
        texts = VERTEX_START + [vertex(p) for p in pieces] + VERTEX_END
    elif fmt == "anthropic":
        texts = [*ANTHROPIC_START, *(block_delta(f"{i}", i // 7 % 2) for i in range(40))]
        texts += ANTHROPIC_END
    else:
        texts = [*OPENAI_START, *(chunk(f"{i}", "p" * (i % 3)) for i in range(40)), *OPENAI_END]
    chunks = chunked(texts, seed)
    want = per_chunk_via_decoding(make_acc(format=fmt), chunks)
    assert per_chunk_via_sse(make_acc(format=fmt), chunks) == want


def bedrock_delta(part: str, index: int = 1, pad: str | None = None, spaced: bool = False) -> str:
    body: dict[str, Any] = {"contentBlockIndex": index, "delta": {"toolUse": {"input": part}}}
    if pad is not None:
        body["p"] = pad
    return json.dumps({"contentBlockDelta": body}, separators=None if spaced else (",", ":"))


BEDROCK_START = [
    '{"messageStart":{"role":"assistant"}}',
    '{"contentBlockStart":{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"t","name":"f"}}}}',
]
BEDROCK_END = ['{"contentBlockStop":{"contentBlockIndex":1}}', '{"messageStop":{"stopReason":"x"}}']
BEDROCK_CASES = {
    "plain": [bedrock_delta(p) for p in ['{"a', '": "x\\"', "\\u00e9", '"}']],
    "spaced and padded": [
        bedrock_delta(p, pad="abc", spaced=s) for p, s in [('{"a": ', 0), ('"b', 1), ('"}', 0)]
    ],
    "another block, repeated and misleading keys": [
        bedrock_delta('{"a": 1'),
        bedrock_delta('{"input": "x"}', index=0),
        '{"contentBlockDelta":{"contentBlockIndex":1,"delta":{"toolUse":{"input":"x","input":"}"}}}}',
        bedrock_delta(", "),
        '{"contentBlockDelta":{"contentBlockIndex":1,"delta":{"toolUse":{"input":"\\"b\\": 2}"}}}}',
    ],
    "broken envelope": [
        bedrock_delta('{"a": 1'),
        bedrock_delta("}"),
        '{"contentBlockDelta":{"contentBlockIndex":1,"delta":{"toolUse":{"input":"}"}}}',
    ],
}


@pytest.mark.parametrize("as_bytes", [False, True])  # bytes: the whole-line chunk check too
@pytest.mark.parametrize("case", list(BEDROCK_CASES))
def test_bedrock_lines_shortcut_is_exact(make_acc, case: str, as_bytes: bool) -> None:
    texts = BEDROCK_START + BEDROCK_CASES[case] + BEDROCK_END

    def via_lines(acc: Any) -> Any:
        events: list[Any] = []
        try:
            for text in texts:
                line = text + "\n"
                events += snapshot(acc.feed_lines(line.encode() if as_bytes else line))
        except ValueError as error:
            events.append(str(error)[:7])
        return events + snapshot(acc.finish()), outcome(acc)

    def via_dicts(acc: Any) -> Any:
        events: list[Any] = []
        try:
            for text in texts:
                events += snapshot(acc.feed(json.loads(text)))
        except ValueError:
            events.append("line 5:")
        return events + snapshot(acc.finish()), outcome(acc)

    assert via_lines(make_acc()) == via_dicts(make_acc())


# -- Vertex partialArgs: the cut-out fragment is a JSON value, not a string -------------------


def vertex(pieces: str, rid: str = "r1", spaced: bool = False, call: str = "") -> str:
    """A Vertex chunk whose one part adds `pieces` (JSON text, as sent) to the open call."""
    head = '{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{'
    text = f'{head}{call}"partialArgs":{pieces},"willContinue":true}}}}]}}}}],'
    text += f'"modelVersion":"m","responseId":"{rid}"}}'
    return text.replace('":', '": ').replace(",", ", ") if spaced else text


def vertex_piece(path: str, **leaf: Any) -> str:
    return json.dumps([{"jsonPath": path, **leaf}])


VERTEX_START = [
    '{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f",'
    '"willContinue":true}}]}}],"modelVersion":"m","responseId":"r1"}'
]
VERTEX_END = [
    '{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},'
    '"finishReason":"STOP"}],"modelVersion":"m","responseId":"r1"}'
]
VERTEX_PIECES = [
    vertex_piece("$.a", stringValue="x", willContinue=True),
    vertex_piece("$.a", stringValue='y"\\é'),
    vertex_piece("$.b[0]", numberValue=1.5),
    vertex_piece("$.b[1]", boolValue=True),
    vertex_piece("$.c.d", nullValue="NULL_VALUE"),
]
VERTEX_CASES = {
    "plain": [vertex(p) for p in VERTEX_PIECES],
    "spaced": [vertex(p, spaced=True) for p in VERTEX_PIECES],
    "several pieces and none": [
        vertex("[]"),
        vertex(json.dumps([json.loads(p)[0] for p in VERTEX_PIECES[:3]])),
        vertex("[ ]"),
    ],
    "not a list, or broken": [
        vertex(VERTEX_PIECES[0]),
        vertex('{"jsonPath": "$.z"}'),
        vertex('"[]"'),
        vertex("null"),
        vertex("[NaN]"),
        vertex("[1,]"),
        vertex('[{"jsonPath": "$.q", "stringValue": "a\tb"}]'),
        vertex(VERTEX_PIECES[0])[:-1],
        vertex(VERTEX_PIECES[0]) + "x",
        vertex(" " + VERTEX_PIECES[0]),
    ],
    "out of order": [vertex(vertex_piece("$.a[1]", numberValue=1)), vertex(VERTEX_PIECES[2])],
    "another response, a name, repeated keys": [
        vertex(VERTEX_PIECES[0]),
        vertex(VERTEX_PIECES[2], rid="r2"),
        vertex(VERTEX_PIECES[2], call='"name":"g",'),
        vertex(VERTEX_PIECES[3], call='"willContinue":false,'),
        vertex(VERTEX_PIECES[3]).replace('"modelVersion"', '"responseId":"r1","modelVersion"'),
    ],
    "numbers as json reads them, deep paths": [
        vertex('[{"jsonPath": "$.n", "numberValue": 1E+2}, {"jsonPath":"$.m","numberValue":-0}]'),
        vertex(vertex_piece("$.deep.er[0].est[0][0]", numberValue=-0.0)),
        vertex(vertex_piece("$.deep.er[0].est[0][1]", numberValue=5.960464477539063e-08)),
        vertex('[{"jsonPath": "$.z", "numberValue": 12345678901234567890123}]'),
    ],
    "what the native writer leaves to the twin": [
        vertex(vertex_piece("$.q", stringValue="x", willContinue=True)),
        vertex(vertex_piece("$.q", stringValue="\ud800y", willContinue=True)),  # lone surrogate
        vertex(vertex_piece("$.q", stringValue="z")),
        vertex('[{"json_path": "$.s", "string_value": "snake"}]'),
        vertex(vertex_piece("$['a b'][0]", numberValue=2**80)),
        vertex('[{"jsonPath": "$.\\u0074", "boolValue": false}]'),  # an escape in the path
        vertex('[{"jsonPath": "$.x", "stringValue": 5}]'),
    ],
    "a stale response id": [
        vertex(VERTEX_PIECES[0]),
        vertex(VERTEX_PIECES[0]),
        vertex("[]", rid="r2", call='"name":"g",'),
        vertex(VERTEX_PIECES[0]),
    ],
}


@pytest.mark.parametrize("case", list(VERTEX_CASES))
@pytest.mark.parametrize("fmt", ["gemini", "auto"])
def test_vertex_partial_args_shortcut_is_exact(make_acc, case: str, fmt: str) -> None:
    middle = [t for t in VERTEX_CASES[case] for _ in range(3)] + VERTEX_CASES[case] * 2
    texts = VERTEX_START + middle + VERTEX_END
    assert via_sse(make_acc(format=fmt), texts) == via_decoding(make_acc(format=fmt), texts)


def test_the_vertex_shortcut_is_taken(make_acc, monkeypatch: pytest.MonkeyPatch) -> None:
    decoded: list[str] = []
    from jsondrip.toolcalls import accumulator

    def counting_loads(text: str) -> Any:
        decoded.append(text)
        return jsondrip.loads(text)

    monkeypatch.setattr(accumulator, "loads", counting_loads)
    pieces = [vertex(vertex_piece(f"$.a[{i}]", numberValue=i)) for i in range(20)]
    _, calls = via_sse(make_acc(format="gemini"), VERTEX_START + pieces + VERTEX_END)
    assert len(decoded) == 3  # the start, the first sight of the skeleton, the end
    assert calls[0][3] == {"a": list(range(20))} and calls[0][6] is True


def long_way(acc: Any) -> Any:
    """The accumulator without its shortcut: every event split into lines and decoded."""
    handler = acc._handler
    handler.__class__ = type("LongWay", (type(handler),), {"__slots__": (), "ENVELOPE": None})
    return acc


PIECE_TEXT = st.lists(
    st.sampled_from(
        ['{"jsonPath": "$.a", "stringValue": "x", "willContinue": true}', '{"jsonPath": "$.a",'
         ' "stringValue": "y"}', '{"jsonPath":"$.b[0]","numberValue":1.5}', '{"jsonPath": '
         '"$.b[1]", "numberValue": 1e400}', '{"jsonPath": "$.c", "nullValue": "NULL_VALUE"}',
         ' ', '\t', '\n', '\r', ',', '[', ']', '{', '}', '"', '\\', 'é', '\\u00e9', '\\ud800',
         '\ud800',
         '"jsonPath"', ':', '"$.d"', 'true', 'null', '-0', '01', '"stringValue"']
    ),
    max_size=8,
).map(lambda parts: "[" + "".join(parts) + "]")  # fmt: skip


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(arrays=st.lists(PIECE_TEXT, min_size=1, max_size=6), tail=st.sampled_from(["", " "]))
def test_any_vertex_chunk_gives_what_the_long_way_gives(
    make_acc, arrays: list[str], tail: str
) -> None:
    """Chunks framed as the last routed Vertex chunk around any text (broken arrays, line
    breaks, lone surrogates...): the same events per chunk as with no shortcut at all."""
    texts = [vertex(a) + tail for a in arrays]
    framed = [vertex(VERTEX_PIECES[0]), vertex(VERTEX_PIECES[0]), *texts, *texts]
    chunks = [f"data: {t}\n\n".encode("utf-8", "surrogatepass") for t in VERTEX_START + framed]
    chunks += [f"data: {t}\n\n".encode() for t in VERTEX_END]
    want = per_chunk_via_sse(long_way(make_acc(format="gemini")), chunks)
    assert per_chunk_via_sse(make_acc(format="gemini"), chunks) == want


def test_the_vertex_chunk_check_is_taken(make_acc, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the skeleton is learned, each Vertex chunk goes straight from bytes to argument
    text: not split into lines, and on the native backend not through the Python writer."""
    from jsondrip.toolcalls.partial_args import PartialArgsWriter

    split: list[bytes] = []
    written: list[Any] = []
    real_split, real_feed = SSEDecoder.feed_data, PartialArgsWriter.feed
    monkeypatch.setattr(SSEDecoder, "feed_data", lambda s, c: split.append(c) or real_split(s, c))
    monkeypatch.setattr(
        PartialArgsWriter, "feed", lambda s, e: written.append(e) or real_feed(s, e)
    )
    acc = make_acc(format="gemini")
    pieces = [vertex(vertex_piece(f"$.a[{i}]", numberValue=i)) for i in range(20)]
    _, calls = via_sse(acc, VERTEX_START + pieces + VERTEX_END)
    assert calls[0][3] == {"a": list(range(20))} and calls[0][6] is True
    assert len(split) == 4  # the start, the skeleton's first two sights, the end
    python = jsondrip.Parser().backend == "python"
    assert len(written) == (20 if python else 0)  # the twin reads the other chunks itself


VERTEX_DISTINCT = [
    '[{"jsonPath": "$.n", "numberValue": 1E+2}, {"jsonPath": "$.m", "numberValue": -0}]',
    '[{"jsonPath": "$.o", "numberValue": -0.0}, {"jsonPath": "$.p", "numberValue": 1.5e-7}]',
    '[{"jsonPath": "$.q", "numberValue": 123456789012345678901234567890}]',
    '[{"jsonPath": "$.r", "numberValue": 0.1}, {"jsonPath":"$.s","numberValue":1e16}]',
    '[{"jsonPath": "$.t[0].u", "stringValue": "\\u00e9\\"\\\\\\/", "willContinue": true}]',
    '[{"jsonPath": "$.t[0].u", "stringValue": "\\ud83d\\ude00\\u0001\\t", "willContinue": null}]',
    '[{"jsonPath": "$.t[1][0]", "boolValue": true}, {"jsonPath": "$.t[1][1]", "nullValue": null}]',
    '[ {"willContinue": false, "stringValue": "é\u2028", "jsonPath": "$.v"} ]',
    '[{"jsonPath": "$.w", "stringValue": null}, {"jsonPath": "$.x"}]',
]


def test_vertex_pieces_read_from_bytes_as_from_dicts(
    make_acc, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """Distinct pieces, each chunk new: the chunk check reads them from the bytes (Rust on
    the native backend) as the python backend reads them decoded."""
    learn = [vertex(VERTEX_PIECES[0])] * 2  # the skeleton's first two sights: the long way
    texts = VERTEX_START + learn + [vertex(p) for p in VERTEX_DISTINCT] + VERTEX_END
    monkeypatch.setenv("JSONDRIP_BACKEND", "python")
    want = via_decoding(make_acc(format="gemini"), texts)
    monkeypatch.setenv("JSONDRIP_BACKEND", backend)
    assert via_sse(make_acc(format="gemini"), texts) == want
    assert want[1][0][3]["m"] == 0 and want[1][0][6] is True

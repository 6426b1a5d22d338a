"""The envelope shortcut of `feed_sse` changes nothing: each stream gives the same events and
calls as decoding every event in full, however its envelopes are spelled, repeated or broken."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from _toolcall_support import make_acc_fixture, outcome  # noqa: F401 - make_acc is a fixture

import jsondrip
from jsondrip.toolcalls import ToolCallDelta, ToolCallDone
from jsondrip.toolcalls.shortcut import FRAGMENT, IGNORED, EnvelopeShortcut, count_value
from jsondrip.toolcalls.sse import SSEDecoder


def snapshot(events: list[Any]) -> list[Any]:
    """The events as plain values, previews copied as they were when emitted."""
    out: list[Any] = []
    for e in events:
        if type(e) is ToolCallDelta:
            out.append(
                ("delta", e.index, e.id, e.name, e.arguments_delta, copy.deepcopy(e.preview))
            )
            out.append(("changes", copy.deepcopy(e.changes)))
        elif type(e) is ToolCallDone:
            c = e.tool_call
            out.append(("done", c.index, c.id, c.name, c.arguments, c.raw, c.error, c.complete))
        else:
            out.append(e)
    return out


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


def test_count_value_counts_values_not_keys() -> None:
    assert count_value({"a": ["x", {"x": "x"}], "x": 1}, "x") == 2


def test_the_ignored_value_must_be_the_top_level_one() -> None:
    routes: list[Any] = []
    shortcut = EnvelopeShortcut("a", lambda event: event, lambda r, f: routes.append(r), "o")
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
@pytest.mark.parametrize("fmt", ["anthropic", "openai-chat"])
def test_chunks_framed_any_way_give_the_same_events_at_the_same_time(
    make_acc, fmt: str, seed: int
) -> None:
    if fmt == "anthropic":
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

"""The SSE decoder against the WHATWG rules, cut at every position."""

from __future__ import annotations

import pytest

from jsondrip.toolcalls.sse import ServerSentEvent, SSEDecoder

CASES: dict[str, tuple[bytes, list[ServerSentEvent]]] = {
    "LF, event field, id": (
        b"event: a\ndata: 1\nid: 7\n\ndata: 2\n\n",
        [ServerSentEvent("a", "1", "7"), ServerSentEvent("message", "2", "7")],
    ),
    "CRLF and CR": (
        b"data: x\r\n\r\ndata: y\r\rdata:z\r\n\r\n",
        [
            ServerSentEvent("message", "x"),
            ServerSentEvent("message", "y"),
            ServerSentEvent("message", "z"),
        ],
    ),
    "multi-line data joined with LF": (
        b'data: {\ndata:  "a": 1\ndata: }\n\n',
        [ServerSentEvent("message", '{\n "a": 1\n}')],
    ),
    "comments, keep-alives, unknown fields, an event without data": (
        b": keep-alive\n\nretry: 10\nfoo: bar\nevent: ping\n\ndata\n\n",
        [ServerSentEvent("message", "")],
    ),
    "a BOM and UTF-8 cut anywhere": (
        "\ufeffdata: h\u00e9llo \U0001f600\n\n".encode(),
        [ServerSentEvent("message", "h\u00e9llo \U0001f600")],
    ),
    "an event not ended by a blank line is discarded": (
        b"data: 1\n\ndata: 2\n",
        [ServerSentEvent("message", "1")],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_sse_cut_at_every_pair_of_positions(case: str) -> None:
    data, want = CASES[case]
    for i in range(len(data) + 1):
        for j in range(i, len(data) + 1):
            decoder = SSEDecoder()
            got = [e for part in (data[:i], data[i:j], data[j:]) for e in decoder.feed(part)]
            got += decoder.close()
            assert got == want, (i, j)


@pytest.mark.parametrize("case", list(CASES))
def test_a_decoder_let_go_at_rest_is_resumed_exactly(case: str) -> None:
    """The accumulator lets its decoder go while it holds nothing (#28: memory per open
    stream) and later resumes: wherever the stream is cut, the events are the same."""
    data, want = CASES[case]
    for i in range(len(data) + 1):
        decoder = SSEDecoder()
        got = decoder.feed(data[:i])
        if decoder.at_rest:
            decoder = SSEDecoder.resumed()
        got += decoder.feed(data[i:]) + decoder.close()
        assert got == want, i
    decoder = SSEDecoder()
    decoder.feed(b"id: 7\ndata: 1\n\n")
    assert decoder.idle and not decoder.at_rest  # the last event id is the stream's


def test_str_input_and_retry() -> None:
    decoder = SSEDecoder()
    assert decoder.feed("retry: 1500\nretry: x\ndata: a\n\n") == [ServerSentEvent("message", "a")]
    assert decoder.retry == 1500


def test_incomplete_input_is_bounded() -> None:
    decoder = SSEDecoder(max_event_size=10)
    with pytest.raises(ValueError, match=r"exceeds max_event_size \(16 > 10 characters\)"):
        decoder.feed(b"data: 0123456789")


# Chunks of one event each, some of the shape `feed_data` reads without splitting lines.
EVENT_CHUNKS = [
    b"event: a\ndata: 1\n\n",
    b"data: 2\n\n",
    b"event: \ndata: 3\n\n",
    b"event: a\ndata: 4\ndata: 5\n\n",
    b"data: 6\n\ndata: 7\n\n",
    b"id: 8\ndata: 9\n\n",
    b"event: a\r\ndata: 10\r\n\r\n",
    b"data: 10a\rdata: 10b\n\n",
    b"data:11\n\n",
    b": keep-alive\n\n",
    b"\n\n",
    b"data: 12\n\n\n",
    b"event: a\nevent: b\ndata: 13\n\n",
    b"data: \xff\n\n",
    "data: h\u00e9llo\n\n".encode(),
    b"retry: 5\n\n",
    b"event: a\n\n",
    b"data: 14",
    b"\n\n",
    b"event: a\ndata: 15\n\n",
]


def test_feed_data_is_feed_without_the_fields() -> None:
    for case in [*CASES.values(), (b"".join(EVENT_CHUNKS), [])]:
        data = case[0]
        for i in range(len(data) + 1):
            for j in range(i, len(data) + 1, 7):
                full, quick = SSEDecoder(), SSEDecoder()
                for part in (data[:i], data[i:j], data[j:]):
                    assert quick.feed_data(part) == [e.data for e in full.feed(part)], (i, j)
    full, quick = SSEDecoder(), SSEDecoder()
    for chunk in EVENT_CHUNKS * 2:
        assert quick.feed_data(chunk) == [e.data for e in full.feed(chunk)], chunk

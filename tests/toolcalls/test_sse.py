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


def test_str_input_and_retry() -> None:
    decoder = SSEDecoder()
    assert decoder.feed("retry: 1500\nretry: x\ndata: a\n\n") == [ServerSentEvent("message", "a")]
    assert decoder.retry == 1500


def test_incomplete_input_is_bounded() -> None:
    decoder = SSEDecoder(max_event_size=10)
    with pytest.raises(ValueError, match=r"exceeds max_event_size \(16 > 10 characters\)"):
        decoder.feed(b"data: 0123456789")

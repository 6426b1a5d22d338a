"""An incremental `text/event-stream` decoder, after the WHATWG HTML spec (9.2.6).

Bytes or str in any chunking, events out; no I/O. What the spec asks and this does:

- UTF-8 decoding across chunk boundaries (invalid bytes become U+FFFD), one leading BOM dropped;
- lines end with CRLF, LF or CR, and a CRLF cut between two chunks counts once;
- `data:` lines of one event are joined with `\\n`; `event:` sets the type (default
  `message`); `id:` sets the last event id (ignored if it holds NUL); `retry:` takes digits only;
- a line starting with `:` is a comment (keep-alives), other field names are ignored;
- a blank line dispatches the event; an event without data is not dispatched; an event not
  ended by a blank line when the stream closes is discarded.

A bound on buffered incomplete input (`max_event_size` characters, as h11 bounds an incomplete
event) raises `ValueError` instead of growing without limit.
"""

from __future__ import annotations

import codecs
from typing import Any

from .._frozen import frozen_event

__all__ = ["SSEDecoder", "ServerSentEvent"]


@frozen_event
class ServerSentEvent:
    """One dispatched event: its type, its data (lines joined with `\\n`) and the last id."""

    event: str
    data: str
    id: str | None = None


class SSEDecoder:
    """Feed `text/event-stream` bytes or str in any chunking; get `ServerSentEvent`s back.

    `idle` is True when the decoder holds nothing (no cut line, event or UTF-8 sequence; the
    BOM check done): the next chunk is read afresh. After `feed_data`, `head` is the text
    before the data when the chunk was one whole event of one `data:` line (`"data: "` or
    `"event: X\ndata: "`), else None.
    """

    __slots__ = (
        "_clean",
        "_data",
        "_line",
        "_size",
        "_skip_lf",
        "_started",
        "_type",
        "_utf8",
        "head",
        "idle",
        "last_event_id",
        "max_event_size",
        "retry",
    )

    def __init__(self, max_event_size: int | None = None) -> None:
        self.max_event_size = max_event_size
        self.last_event_id: str | None = None
        self.retry: int | None = None
        # UTF-8 cut across chunks: made for the first chunk that needs it (most never do)
        self._utf8: Any = None
        self._clean = True  # the UTF-8 decoder holds no bytes
        self._started = False  # the BOM check is done
        self._skip_lf = False  # the last chunk ended with CR: a leading LF is its other half
        self._line = ""  # an incomplete line
        self._data: list[str] | None = None  # the event's data lines (None: none yet)
        self._size = 0  # characters held in _data
        self._type = ""
        self.idle = False
        self.head: str | None = None

    @classmethod
    def resumed(cls, max_event_size: int | None = None) -> SSEDecoder:
        """A decoder for a stream whose chunks so far another decoder read and left at rest
        (`at_rest`): idle, the BOM check done. A stream that waits for its next chunk need
        not hold a decoder (#28: memory per open stream)."""
        decoder = cls(max_event_size)
        decoder._started = True
        decoder.idle = True
        return decoder

    @property
    def at_rest(self) -> bool:
        """Whether this decoder holds nothing that `resumed()` would not: idle, no last event
        id, no retry time."""
        return self.idle and self.last_event_id is None and self.retry is None

    def feed(self, chunk: bytes | bytearray | memoryview | str) -> list[ServerSentEvent]:
        """Read a chunk; return the events it completes (often none, sometimes several)."""
        return [ServerSentEvent(*fields) for fields in self.feed_fields(chunk)]

    def feed_data(self, chunk: bytes | bytearray | memoryview | str) -> list[str]:
        """`feed`, with only each event's data: what a stream of JSON events needs."""
        if self.idle and type(chunk) is bytes and chunk[-2:] == b"\n\n":
            # The common chunk: one whole event of one `data:` line, after one `event:` line
            # or none, read without splitting it into lines; anything else goes the long way.
            text = chunk.decode("utf-8", "replace")  # it ends in ASCII: no sequence is cut
            if "\r" not in text:
                end = len(text) - 2
                line = text.find("\n")
                if line == end:
                    if text[:6] == "data: ":
                        self.head = "data: "
                        return [text[6:end]]
                elif (
                    text[:7] == "event: "
                    and text[line + 1 : line + 7] == "data: "
                    and text.find("\n", line + 1) == end
                ):
                    self.head = text[: line + 7]
                    return [text[line + 7 : end]]
        self.head = None
        return [data for _, data, _ in self.feed_fields(chunk)]

    def feed_fields(
        self, chunk: bytes | bytearray | memoryview | str
    ) -> list[tuple[str, str, str | None]]:
        """`feed`, with each event as an `(event, data, id)` tuple: no object per event."""
        self.idle = False  # until the state is known to be at rest again
        if isinstance(chunk, str):  # a str subclass too: it has no bytes to index
            text = chunk
        elif self._clean and chunk and chunk[-1] < 0x80:
            # no bytes held from before and none cut at the end: decode in one go
            text = (chunk if type(chunk) is bytes else bytes(chunk)).decode("utf-8", "replace")
        else:
            decoder = self._utf8
            if decoder is None:
                decoder = self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
            text = decoder.decode(bytes(chunk))
            self._clean = not decoder.getstate()[0]
        if not text:
            return []
        if not self._started:
            self._started = True
            if text[0] == "\ufeff":
                text = text[1:]
        if self._skip_lf:
            self._skip_lf = False
            if text[:1] == "\n":
                text = text[1:]
        if "\r" in text:
            self._skip_lf = text[-1] == "\r"
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if "\n" not in text:
            self._line += text
            self._check_size()
            return []
        lines = text.split("\n")
        if self._line:
            lines[0] = self._line + lines[0]
        self._line = lines.pop()
        events: list[tuple[str, str, str | None]] = []
        data = self._data
        for line in lines:
            if not line:
                if data:
                    events.append((self._type or "message", "\n".join(data), self.last_event_id))
                    data = self._data = None
                    self._size = 0
                self._type = ""
            elif line[:6] == "data: ":
                if data is None:
                    data = self._data = []
                data.append(line[6:])
                self._size += len(line) - 5
            elif line[:7] == "event: ":
                self._type = line[7:]
            elif line[0] != ":":
                self._field(line)
                data = self._data  # a `data` field may have made the list
        limit = self.max_event_size
        if limit is not None and self._size + len(self._line) > limit:
            self._check_size()
        self.idle = not (self._line or data or self._type or self._skip_lf) and self._clean
        return events

    def close(self) -> list[ServerSentEvent]:
        """The stream ended: an event not ended by a blank line is discarded, as the spec says.

        Returns the events still to dispatch (always none: kept for symmetry with `feed`).
        """
        if self._utf8 is not None:
            self._utf8.decode(b"", final=True)
        self.idle = False
        self._line = ""
        self._data = None
        self._size = 0
        self._type = ""
        return []

    def _field(self, line: str) -> None:
        colon = line.find(":")
        if colon < 0:
            name, value = line, ""
        else:
            name, value = line[:colon], line[colon + 1 :]
            if value[:1] == " ":
                value = value[1:]
        if name == "data":
            if self._data is None:
                self._data = []
            self._data.append(value)
            self._size += len(value) + 1
        elif name == "event":
            self._type = value
        elif name == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)

    def _check_size(self) -> None:
        limit = self.max_event_size
        if limit is not None and self._size + len(self._line) > limit:
            size = self._size + len(self._line)
            self._line = ""
            self._data = None
            self._size = 0
            raise ValueError(
                f"server-sent event exceeds max_event_size ({size} > {limit} characters)"
            )

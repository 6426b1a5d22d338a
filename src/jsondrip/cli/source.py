"""Where a stream comes from: the bundled demo, a recorded file, or standard input as it arrives.

A stream is SSE (`event:`/`data:` lines, blank-line separated) or JSON lines (one event per
line, as vercel/ai records them); `detect_format` tells them apart from the first non-blank
character: `{` or `[` starts JSON lines, anything else SSE.
"""

from __future__ import annotations

import argparse
import codecs
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Union

from .errors import UsageError, report
from .replay import Fragment, iter_sse_events, line_fragments, sse_fragments, text_fragments

__all__ = ["DEMO_RESOURCE", "Source", "demo_bytes", "detect_format", "open_file", "open_stdin"]

DEMO_RESOURCE = "data/demo.sse"
"""The bundled demo stream, inside the installed package (read with importlib.resources)."""

Chunk = Union[bytes, str]


def demo_bytes() -> bytes:
    """The bundled demo stream, read from the installed package."""
    return resources.files(__package__).joinpath(DEMO_RESOURCE).read_bytes()


def detect_format(head: bytes) -> str:
    """`"jsonl"` if the first non-blank character is `{` or `[`, else `"sse"`."""
    stripped = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return "jsonl" if stripped[:1] in (b"{", b"[") else "sse"


def jsonl_lines(data: bytes) -> list[str]:
    """The non-blank lines of a JSON-lines recording."""
    text = data.decode("utf-8-sig")
    return [line for line in text.splitlines() if line.strip()]


@dataclass
class Source:
    """A stream to show: its name, its format ("sse" or "jsonl"), and its pieces.

    `fragments` gives (piece, delay) pairs for a recording that is replayed at a pace;
    `live` gives pieces as they arrive (standard input) and is never paced. SSE pieces are
    events (bytes), JSON-lines pieces are one line of text each: one event per feed.
    """

    name: str
    format: str
    fragments: list[Fragment[Chunk]] | None = None
    live: Iterator[Chunk] | None = None


def from_bytes(name: str, data: bytes, stream_format: str = "auto") -> Source:
    """A recording held in memory, cut into paced fragments."""
    if stream_format == "auto":
        stream_format = detect_format(data[:4096])
    if stream_format == "text":
        text = data.decode("utf-8-sig", "replace")
        return Source(name, "text", fragments=list(text_fragments(text)))
    if stream_format == "jsonl":
        return Source(name, "jsonl", fragments=list(line_fragments(jsonl_lines(data))))
    return Source(name, "sse", fragments=list(sse_fragments(data)))


def open_demo() -> Source:
    """The bundled demo stream."""
    return from_bytes("demo.sse", demo_bytes(), "sse")


def open_file(path: str, stream_format: str = "auto") -> Source:
    """A recorded stream in a file; a file that cannot be read is a usage error."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from error
    return from_bytes(os.path.basename(path), data, stream_format)


def _reads(fd: int, size: int = 65536) -> Iterator[bytes]:
    """Bytes from a file descriptor as soon as they arrive, until the end."""
    while True:
        data = os.read(fd, size)
        if not data:
            return
        yield data


def _lines(reads: Iterator[bytes]) -> Iterator[str]:
    """Complete non-blank lines from a sequence of reads."""
    pending = b""
    for data in reads:
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if line.strip():
                yield line.decode("utf-8-sig")
    if pending.strip():
        yield pending.decode("utf-8-sig")


def open_stdin(stream_format: str = "auto") -> Source:
    """Standard input, read as it arrives (`curl -N ... | jsondrip preview -`)."""
    reads = _reads(sys.stdin.fileno())
    head = b""
    if stream_format == "auto":
        # Read until there is a non-blank character to decide the format.
        for data in reads:
            head += data
            if head.lstrip(b"\xef\xbb\xbf").strip():
                break
        stream_format = detect_format(head)

    def replay_head() -> Iterator[bytes]:
        if head:
            yield head
        yield from reads

    if stream_format == "jsonl":
        return Source("<stdin>", "jsonl", live=_lines(replay_head()))
    if stream_format == "text":
        return Source("<stdin>", "text", live=_text(replay_head()))
    return Source("<stdin>", "sse", live=iter_sse_events(replay_head()))


def _text(reads: Iterator[bytes]) -> Iterator[str]:
    """Model text as it arrives, decoded (a character cut between reads waits for its end)."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for data in reads:
        text = decoder.decode(data)
        if text:
            yield text
    text = decoder.decode(b"", final=True)
    if text:
        yield text


def framing_and_provider(args: argparse.Namespace) -> tuple[str, str]:
    """`--framing` and `--format` (the provider), taking the deprecated `--format sse|jsonl`
    as the framing with a warning on stderr."""
    framing, provider = args.framing, args.format
    if provider in ("sse", "jsonl"):
        if framing not in ("auto", provider):
            raise UsageError(f"--format {provider} and --framing {framing} disagree")
        report(
            f"warning: --format {provider} is deprecated: the framing is now --framing "
            f"{provider} (--format names the provider format, as in the library)"
        )
        framing, provider = provider, "auto"
    return framing, provider


def open_source(name: str, framing: str) -> Source:
    """The stream to show: standard input for `-`, else the file `name`."""
    return open_stdin(framing) if name == "-" else open_file(name, framing)

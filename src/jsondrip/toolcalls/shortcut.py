"""A shortcut past decoding the envelope of the common argument-fragment event.

Most events of a tool-call stream are the same envelope around a new fragment: Anthropic's
`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":
"..."}}`, or an OpenAI chunk whose only news is `choices[0].delta.tool_calls[0].function.
arguments`. Decoding the whole envelope costs more than parsing the fragment, so for each event:

1. find the first `"<key>":"` (the fragment's key) and read the string literal after it with
   the standard library's `scanstring` (strict JSON: the fragment and where it ends);
2. cut that literal out: the *skeleton* is the event with a sentinel literal in its place;
   and so are the values of the top-level keys the format never reads (`ignored`: OpenAI's
   random `obfuscation` padding and its `created` time would make every skeleton new), and
   of its `head` key, whose value is the stream's own (OpenAI's chunk `id`: one per response,
   so each stream would learn a skeleton of its own): a chunk matches a frame only with the
   value the stream has now (`EnvelopeShortcut.set_head`, which the handler calls as it
   reads the value), so the streams of a server share one frame per skeleton;
3. look the skeleton up: a known one names a *route* (which call the fragment goes to), and
   the handler takes the fragment without the event ever being decoded.

Quicker still, and tried first: the text around the literals of the last routed event is
kept, so that an event agreeing with it around a valid literal needs no skeleton (`match`);
and so is the whole SSE chunk that event came in, `event:` and `data:` lines included, so that
while the SSE decoder holds nothing the next chunk is checked before any line is split
(`match_chunk`). Both have the last event's skeleton, so its route. The chunk check runs in
Rust on the native backend (`rust/envelope`, `jsondrip._native.ChunkMatcher`); `ChunkMatcher`
here is its twin on the python backend, and both give the same answer on every chunk (a
fragment holding a lone surrogate, which a Rust string cannot hold, takes `match` in both).

The same check covers a JSON line that is the last routed event's line again (`match_line`,
for `feed_lines`). With `value=True` the cut-out is any JSON value, read with the standard
library's C scanner (Vertex's `partialArgs` array: the pieces differ from chunk to chunk, the
envelope does not); the argument below holds for it as for a string token. Its chunk and line
checks hand the chunk itself to `take_chunk(route, matcher, chunk)`: on the native backend
one call reads the array and writes its argument text (`rust/envelope/partial_args.rs`);
`ChunkMatcher.pieces` is the twin's read. A JSON value may hold blanks, so value mode refuses
a chunk whose value holds a line break (the SSE decoder would split it there).

A skeleton seen for the second time in a row is learned: decoded once with `json.loads`, it
must have no repeated key, hold the fragment's sentinel exactly once (the ignored and head
ones exactly where they were cut, as the top-level values of their keys), and pass the
format's `classify`, which returns the route (or None: such events always take the full
decoding). A skeleton whose head value was not cut out (the key is absent, or its value no
string) routes only while the stream's head equals that value, as the handler compares it.

Why this is exact: in valid JSON, the characters `"<key>"`, blanks, `:`, blanks, `"` can only
be a key and the opening quote of its value (a quote after a letter is never escaped), so the
literal cut out is one string token, and any event with the same skeleton is that skeleton with
another valid string token in the same place: it decodes to the same value, but for the string.
Without repeated keys and with the sentinel found once, at the place `classify` checks, the
fragment is the value the full decoding would have routed. The ignored values are never read
by the format, and the head value is the one the handler holds already: the full decoding
would do with them what it does without.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # not in typeshed
from json.scanner import make_scanner
from typing import Any, Callable

from .. import _engine

__all__ = [
    "FRAGMENT",
    "HEAD",
    "IGNORED",
    "ChunkMatcher",
    "Envelope",
    "EnvelopeShortcut",
    "count_value",
]

FRAGMENT = "\x00fragment"  # what the fragment's literal decodes to in a skeleton
IGNORED = "\x00ignored"  # what an ignored key's value decodes to
HEAD = "\x00head"  # what the head key's value decodes to
_FRAGMENT_LITERAL = '"\\u0000fragment"'
_IGNORED_LITERAL = '"\\u0000ignored"'
_HEAD_LITERAL = '"\\u0000head"'
# json's number, read as far as it goes; at most 640 characters, which CPython's `int` reads
# on every setting (`sys.set_int_max_str_digits`): a longer one takes the long way
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_MAX_NUMBER = 640
_COLON = re.compile(r'[ \t\n\r]*:[ \t\n\r]*"')
_UNKNOWN = object()  # a skeleton classified as not routable: always decode in full
# (value, end) of the JSON value at an index (typeshed types make_scanner's argument wrongly)
_scan_value = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]
_MAX_ROUTES = 64  # skeletons remembered per envelope (a stream has a handful)


class _RepeatedKey(ValueError):
    pass


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _RepeatedKey
    return out


def count_value(value: Any, target: str) -> int:
    """How many times `target` is a string value (not a key) anywhere in `value`."""
    if type(value) is str:
        return value == target
    if type(value) is dict:
        return sum(count_value(v, target) for v in value.values())
    if type(value) is list:
        return sum(count_value(v, target) for v in value)
    return 0


class Envelope:
    """What a format's shortcut knows, shared by all its streams (one per format, made at
    import): the fragment's `key` (`partial_json`, `arguments`), `classify(event)` (the route
    of a decoded skeleton, whose fragment is `FRAGMENT`, ignored values `IGNORED` and head
    value `HEAD`, or None), the `ignored` keys whose top-level values (a string or a number)
    the format never reads, the `head` key whose top-level string value is the stream's own
    (the handler tells the shortcut what it is: `EnvelopeShortcut.set_head`), and
    `value=True` when the fragment is any JSON value (Vertex's `partialArgs` array), not a
    string literal (then no key is ignored and there is no head). And the skeletons learned,
    each with its `Frame`: a skeleton's route depends on the skeleton alone, so a stream
    learns what another did, and the streams of a server share one frame per envelope instead
    of each holding the text (#28: memory per open stream)."""

    __slots__ = ("classify", "cuts", "head", "ignored", "key", "routes", "scan", "value")

    def __init__(
        self,
        key: str,
        classify: Callable[[dict[str, Any]], Any],
        ignored: str | tuple[str, ...] | None = None,
        *,
        head: str | None = None,
        value: bool = False,
    ) -> None:
        self.key = f'"{key}"'
        self.classify = classify
        self.ignored: tuple[str, ...] = (ignored,) if isinstance(ignored, str) else ignored or ()
        self.head = head
        if value and (self.ignored or head is not None):
            raise ValueError("value mode cuts out the value alone")
        # (the key as it is spelled in the text, and whether it is the head)
        self.cuts = tuple((f'"{name}"', False) for name in self.ignored)
        if head is not None:
            self.cuts += ((f'"{head}"', True),)
        self.value = value
        self.scan: Callable[[str, int], tuple[Any, int]] = _scan_any if value else scanstring
        # skeleton -> its Frame, or _UNKNOWN (bounded: a stream has a handful)
        self.routes: dict[str, Any] = {}


_CUT = object()  # a frame's head value is cut out: each chunk's is compared with the stream's


class Frame:
    """A routed skeleton's events as text around their holes: `texts[0]`, then each hole
    (`holes`, a letter each: `f` the fragment's literal or `v` its value, `h` the head
    value, `s` an ignored string literal, `n` an ignored number) followed by its text; the
    `route`; `fixed`, the head value the stream must have for this skeleton to route when it
    was not cut out (`_CUT` when it was); and the matchers of the whole SSE chunk and JSON
    line such an event comes in, made when first needed, each with what it was made for (the
    SSE `head`, and the backend's native helpers or None: `_chunk_matcher`). Shared by the
    streams whose events have that skeleton (`Envelope.routes`)."""

    __slots__ = ("chunk", "fixed", "holes", "line", "route", "start", "steps", "texts")

    def __init__(self, texts: tuple[str, ...], holes: str, route: Any, fixed: Any) -> None:
        self.texts = texts
        self.holes = holes
        self.start = len(texts[0])
        self.steps = tuple(zip(holes, texts[1:]))  # each hole and the text after it
        self.route = route
        self.fixed = fixed
        self.chunk: tuple[str, Any, Any] | None = None  # (head, native, its ChunkMatcher)
        self.line: tuple[Any, Any] | None = None  # (native, its ChunkMatcher)


_NO_FRAME = Frame(("",), "", None, None)  # no frame yet: `match` goes by the skeleton


class EnvelopeShortcut:
    """Routes the common fragment event of a format without decoding it (see the module).

    The base of the format handlers (`formats.FormatHandler`): a handler is its own shortcut,
    not an object of its own per open stream (#28). A handler class names its format's
    `ENVELOPE` (shared; None: the format has no shortcut, and nothing matches) and takes
    each routed fragment in `take_fragment(route, fragment)`; if that returns False, the
    event is decoded in full instead (the handler's state does not allow the quick way). In
    value mode, `take_fragment` gets the fragment decoded, and `take_chunk(route, matcher,
    chunk)`, if the handler defines it, gets a whole chunk framed as the last routed one (it
    reads it through `matcher`; False: read it the long way). Without `take_chunk`, value
    mode has no chunk check.

    What is the stream's own is small: the frame of the last routed event (shared with the
    streams of the same skeleton), the stream's head value (`set_head`), and the hash of the
    last skeleton seen once since then (a skeleton is learned on its second sight in a row,
    no event routed between, by any stream of the envelope).
    """

    __slots__ = ("_frame", "_last_miss", "head")

    ENVELOPE: Envelope | None = None
    """The format's envelope (None: no shortcut)."""

    def __init__(self) -> None:
        self._frame = _NO_FRAME  # the last routed skeleton's
        # the hash of the last skeleton not known (a skeleton is kept whole only where it is
        # learned: a collision would only learn one seen once, which is as exact)
        self._last_miss: int | None = None
        self.head: Any = None  # the stream's value of the envelope's head key

    def take_fragment(self, route: Any, fragment: Any) -> Any:
        """The handler's action on a routed event's fragment (False: decode it in full)."""
        raise NotImplementedError

    def take_chunk(self, route: Any, matcher: Any, chunk: bytes) -> bool:
        """Value mode: the handler reads a whole chunk framed as the last routed one through
        `matcher` (False: read it the long way). This base reads none."""
        return False

    def set_head(self, value: Any) -> None:
        """The stream's value of the envelope's head key is now `value` (the handler read it
        in an event decoded in full): events route only with it from now on."""
        if value is not self.head:
            self.head = value
            self._frame = _NO_FRAME  # a frame whose head was not cut out held for the old one

    @property
    def route(self) -> Any:
        """The route of the last routed skeleton (what `chunk_matcher` and `line_matcher`
        chunks go to)."""
        return self._frame.route

    @property
    def chunk_matcher(self) -> Any:
        """The frame of the last routed SSE chunk (a `ChunkMatcher`), or None."""
        chunk = self._frame.chunk
        return None if chunk is None else chunk[2]

    @property
    def line_matcher(self) -> Any:
        """The frame of the last routed JSON line (a `ChunkMatcher`), or None."""
        line = self._frame.line
        return None if line is None else line[1]

    def match(self, text: str) -> bool:
        """Take the event's fragment if its skeleton is known; False: decode it in full."""
        # First, is it the last routed skeleton again? Its text around the holes is known,
        # so the check is a few comparisons, without building the skeleton.
        frame = self._frame
        if frame is _NO_FRAME or not text.startswith(frame.texts[0]):
            return self._by_skeleton(text)
        at = frame.start
        fragment = None
        try:
            for hole, after in frame.steps:
                if hole == "f" or hole == "v":
                    fragment, at = self.ENVELOPE.scan(text, at)  # type: ignore[union-attr]
                elif hole == "n":
                    number = _NUMBER.match(text, at)
                    if number is None or number.end() - at > _MAX_NUMBER:
                        return self._by_skeleton(text)
                    at = number.end()
                else:
                    value, at = scanstring(text, at)
                    if hole == "h" and value != self.head:
                        return False  # another response's: the handler reads it in full
                if not text.startswith(after, at):
                    return self._by_skeleton(text)
                at += len(after)
        except ValueError:  # not a valid string literal: let the full decoding decide
            return False
        if at != len(text):
            return self._by_skeleton(text)
        return self.take_fragment(frame.route, fragment) is not False

    def _frames(self) -> bool:
        """Whether chunks and lines are checked whole (value mode: only with `take_chunk`)."""
        takes_chunks = type(self).take_chunk is not EnvelopeShortcut.take_chunk
        return takes_chunks or not self.ENVELOPE.value  # type: ignore[union-attr]

    def frame(self, head: str) -> None:
        """The event `match` just took came as the whole SSE chunk `head + text + "\\n\\n"`
        (`head` as `SSEDecoder.head` gives it): `match_chunk` knows the next such chunk."""
        frame = self._frame
        if frame.route is not None and self._frames():
            native = _engine.envelope()
            chunk = frame.chunk
            if chunk is None or chunk[0] != head or chunk[1] is not native:
                texts = _framed(frame.texts, head, "\n\n")
                frame.chunk = (head, native, _chunk_matcher(native, texts, frame.holes))

    def frame_line(self) -> None:
        """The event `match` just took came as a JSON line: `match_line` knows the next."""
        frame = self._frame
        if frame.route is not None and self._frames():
            native = _engine.envelope()
            line = frame.line
            if line is None or line[0] is not native:
                texts = _framed(frame.texts, "", "\n")
                frame.line = (native, _chunk_matcher(native, texts, frame.holes))

    def match_line(self, chunk: bytes) -> bool:
        """`match` for a chunk that is one whole JSON line ending in `\n`, read while the
        line splitter is idle; False: read it the long way. Exact as `match_chunk` is: a
        valid literal holds no line break, so the chunk is this one line."""
        frame = self._frame
        line = frame.line
        if line is None:
            return False
        matcher = line[1]
        if self.ENVELOPE.value:  # type: ignore[union-attr]  # (a frame: an envelope's)
            return self.take_chunk(frame.route, matcher, chunk)
        fragment = matcher.fragment(chunk, self.head)
        if fragment is None:
            return False
        self.take_fragment(frame.route, fragment)
        return True

    def match_chunk(self, chunk: bytes) -> bool:
        """`match` for a whole SSE chunk framed as the last one `frame` was told of, read
        while the SSE decoder is idle; False: read the chunk the long way.

        Exact: the text around the holes is that chunk's, one event of one `data:` line,
        and a valid literal or number holds no line break, so the decoder would give this
        chunk's data as one event, and `match` would route it the same way.
        """
        frame = self._frame
        framed = frame.chunk
        if framed is None:
            return False
        matcher = framed[2]
        if self.ENVELOPE.value:  # type: ignore[union-attr]  # (a frame: an envelope's)
            return self.take_chunk(frame.route, matcher, chunk)
        fragment = matcher.fragment(chunk, self.head)
        if fragment is None:
            return False
        self.take_fragment(frame.route, fragment)
        return True

    def _by_skeleton(self, text: str) -> bool:
        envelope = self.ENVELOPE
        if envelope is None:
            return False
        key = envelope.key
        found = text.find(key)
        if envelope.value:  # the value begins after the colon and its blanks
            match = None if found < 0 else _COLON_ANY.match(text, found + len(key))
            start = -1 if match is None else match.end()
            quote = 0
        else:
            start = _value_start(text, found, len(key))
            quote = 1  # the skeleton's literal replaces the opening quote too
        if start < 0:
            return False
        try:
            fragment, end = envelope.scan(text, start)
        except ValueError:
            return False
        # what is cut out: (where its token begins, where its reading begins, its end, hole)
        cuts = [(start - quote, start, end, "v" if envelope.value else "f")]
        head = None  # the head value cut out, if one is
        for spelled, is_head in envelope.cuts:
            # the last one: the top-level keys of the formats' chunks are first or last, and
            # a nested key of that name comes before the last top-level one (the learning
            # checks that it was the top-level value)
            at = text.rfind(spelled)
            if at < 0:
                continue
            colon = _COLON_ANY.match(text, at + len(spelled))
            if colon is None:
                continue
            at = colon.end()
            if text[at : at + 1] == '"':
                try:
                    value, after = scanstring(text, at + 1)
                except ValueError:
                    return False
                if is_head:
                    head = value
                cuts.append((at, at + 1, after, "h" if is_head else "s"))
            elif not is_head:
                number = _NUMBER.match(text, at)
                if number is not None and number.end() - at <= _MAX_NUMBER:
                    cuts.append((at, at, number.end(), "n"))
        texts: list[str] = []
        pieces: list[str] = []  # of the skeleton
        done = 0
        holes = ""
        if len(cuts) > 1:
            cuts.sort()
        for begin, inside, after, hole in cuts:
            if begin < done:
                return False  # (no two tokens overlap in valid JSON: let the decoding say)
            texts.append(text[done:inside])
            pieces += (text[done:begin], _SENTINELS[hole])
            done = after
            holes += hole
        texts.append(text[done:])
        pieces.append(text[done:])
        skeleton = "".join(pieces)
        frame = envelope.routes.get(skeleton)
        if frame is None:
            frame = self._learn(skeleton, tuple(texts), holes)
            if frame is None:
                return False
        if frame is _UNKNOWN:
            return False
        if frame.fixed is _CUT:
            if head != self.head:
                return False  # another response's: the handler reads it in full
        elif frame.fixed != self.head:
            return False  # as the handler compares them: a new response, read in full
        self._frame = frame  # the quick check of the next event
        self._last_miss = None  # a routed event ends a row of misses: no int kept (#28)
        return self.take_fragment(frame.route, fragment) is not False

    def _learn(self, skeleton: str, texts: tuple[str, ...], holes: str) -> Any:
        """The frame of a skeleton seen twice in a row, its text around the holes as given
        (None: not yet, decode in full; `_UNKNOWN`: never)."""
        seen = hash(skeleton)  # cached in the str: the lookup before computed it
        if seen != self._last_miss:
            self._last_miss = seen
            return None
        self._last_miss = None
        envelope: Envelope = self.ENVELOPE  # type: ignore[assignment]  # (`_by_skeleton`'s)
        try:
            event = json.loads(skeleton, object_pairs_hook=_unique_pairs)
        except (ValueError, RecursionError):
            event = None
        route = fixed = None
        if type(event) is dict and count_value(event, FRAGMENT) == 1:
            # each ignored value cut out is the top-level one of an ignored key, and so is
            # the head value, if cut out
            ignored = holes.count("s") + holes.count("n")
            top = sum(event.get(name) == IGNORED for name in envelope.ignored)
            cut = "h" in holes
            fixed = _CUT if cut else event.get(envelope.head) if envelope.head else None
            if (
                count_value(event, IGNORED) == top == ignored
                and count_value(event, HEAD) == cut
                and (not cut or event.get(envelope.head) == HEAD)  # type: ignore[arg-type]
            ):
                route = envelope.classify(event)
        routes = envelope.routes
        if len(routes) >= _MAX_ROUTES:
            routes.clear()
        frame = _UNKNOWN if route is None else Frame(texts, holes, route, fixed)
        routes[skeleton] = frame
        return frame


_SENTINELS = {
    "f": _FRAGMENT_LITERAL,
    "v": _FRAGMENT_LITERAL,
    "h": _HEAD_LITERAL,
    "s": _IGNORED_LITERAL,
    "n": _IGNORED_LITERAL,
}


def _framed(texts: tuple[str, ...], before: str, after: str) -> list[str]:
    """A frame's texts with `before` the first and `after` the last (an SSE chunk's head and
    end, a line's end)."""
    framed = list(texts)
    framed[0] = before + framed[0]
    framed[-1] += after
    return framed


class ChunkMatcher:
    """An SSE chunk framed as the last routed one: `texts[0]`, then each hole (`holes`, a
    letter each, as `Frame` has them) followed by its text. The python backend's twin of the
    native `jsondrip._native.ChunkMatcher` (`rust/envelope`): the same answers, the
    differential tests run both."""

    __slots__ = ("prefix", "start", "steps", "suffix")

    def __init__(self, texts: list[str] | tuple[str, ...], holes: str) -> None:
        if len(texts) != len(holes) + 1:
            raise ValueError("one text more than the holes")
        self.prefix = texts[0]
        self.start = len(texts[0])
        self.steps = tuple(zip(holes, texts[1:]))
        self.suffix = texts[-1]

    def _framed(self, chunk: bytes) -> str | None:
        """The chunk as text if it is valid UTF-8 and starts with this frame's prefix."""
        try:
            text = chunk.decode()  # strict is quicker; the decoder replaces what it rejects
        except UnicodeDecodeError:
            return None
        return text if text[: self.start] == self.prefix else None

    def fragment(self, chunk: bytes, head: Any = None) -> str | None:
        """The chunk's decoded fragment literal if it is framed as this one's with valid
        literals (and is valid UTF-8), and its head hole (if any) decodes to `head`, else
        None; None too for a fragment or head holding a lone surrogate, which a Rust string
        cannot hold (`match` then takes it, exactly)."""
        text = self._framed(chunk)
        if text is None:
            return None
        at = self.start
        fragment = None
        try:
            for hole, after in self.steps:
                if hole == "f":
                    fragment, at = scanstring(text, at)
                elif hole == "n":
                    number = _NUMBER.match(text, at)
                    if number is None or number.end() - at > _MAX_NUMBER:
                        return None
                    at = number.end()
                elif hole == "h":
                    value, at = scanstring(text, at)
                    if not isinstance(head, str) or value != head or _lone(value):
                        return None
                elif hole == "s":
                    _, at = scanstring(text, at)
                else:
                    return None  # value mode: `pieces` reads it
                if not text.startswith(after, at):
                    return None
                at += len(after)
        except ValueError:
            return None
        if at != len(text) or fragment is None or _lone(fragment):
            return None  # a lone surrogate takes the long way, as in Rust
        return fragment  # type: ignore[no-any-return]

    def pieces(self, chunk: bytes) -> list[Any] | None:
        """Value mode: the chunk's decoded JSON array (Vertex's `partialArgs`) if the chunk is
        framed as this one's around it, as `json` reads it, without a line break in it; else
        None. Twin of the native `PartialArgs.feed_chunk`'s read (which leaves more to the long
        way: both are exact)."""
        text = self._framed(chunk)
        if text is None or [hole for hole, _ in self.steps] != ["v"]:
            return None
        start = self.start
        try:
            value, end = _scan_any(text, start)
        except ValueError:
            return None
        if text[end:] != self.suffix or type(value) is not list:
            return None
        if "\n" in text[start:end] or "\r" in text[start:end]:
            return None  # a line break splits an SSE chunk's data (or a JSON line) there
        return value  # type: ignore[no-any-return]


def _lone(text: str) -> bool:
    """Whether `text` holds a lone surrogate (no UTF-8 can hold it)."""
    if text.isascii():
        return False
    try:
        text.encode()
    except UnicodeEncodeError:
        return True
    return False


def _chunk_matcher(native: Any, texts: list[str], holes: str) -> Any:
    """The backend's `ChunkMatcher`: the native one when parsers run native (`native`: the
    native helpers, `_engine.envelope()`)."""
    if native is not None:
        try:
            return native.ChunkMatcher(texts, holes)
        except UnicodeEncodeError:  # a lone surrogate (text fed as str): the twin keeps it
            pass
    return ChunkMatcher(texts, holes)


_COLON_ANY = re.compile(r"[ \t\n\r]*:[ \t\n\r]*")


def _scan_any(text: str, start: int) -> tuple[Any, int]:
    """The JSON value at `start` and where it ends, as `json.loads` reads it; ValueError if
    there is none (the C scanner says so with StopIteration)."""
    try:
        return _scan_value(text, start)  # type: ignore[no-any-return]
    except (StopIteration, RecursionError):
        raise ValueError("no JSON value here") from None


def _value_start(text: str, found: int, size: int) -> int:
    """Where the string value of the key found at `found` begins (after its quote), or -1."""
    if found < 0:
        return -1
    at = found + size
    if text[at : at + 2] == ':"':
        return at + 2
    if text[at : at + 3] == ': "':
        return at + 3
    match = _COLON.match(text, at)
    return -1 if match is None else match.end()

"""The part every text-markup family shares: the fragment loop, text outside calls, the calls.

A family reader is a state machine over the model's text. Each state is a method
`state(buf, i) -> j` that reads `buf` from `i` and returns where it stopped: `j > i` when it
used text, `j == i` when it moved to another state without using any, and `HOLD` (-1) when
what starts at `i` cannot be told yet (a marker cut between fragments, a name not finished):
that tail is kept and read again with the next fragment. A state holds back only what could
still be markup, so text and arguments are passed on as soon as they cannot be; the held tail
is short (a marker's length, or a name or header bounded by `MAX_MARKUP`), which keeps every
fragment's cost in proportion to its own length.

The calls go through the accumulator's call table (`CallTable`: `start`, `announce`, `append`,
`close`, `fail`), exactly as a provider format's do, so that the size limit, the schemas, the
fences, the cut-call rule and every event behave the same. Argument text is collected per state
step and appended once per fragment (one `ToolCallDelta` per call and fragment).

When the text ends (`end`), a call still open ends incomplete (its closing marker never came;
what was held inside it, a cut marker, is dropped), and outside calls what is held is read
once more as if no marker could follow: it is text. Positions in error messages
count characters of the text read by this reader (one choice's content, or every
`feed_text`), from 0.

Whitespace right after a call's closing markup is the template's layout between calls: it is
held, dropped if another call or the end follows, and passed on with the text if text does.
"""

from __future__ import annotations

from typing import Callable

from ...markup.think import ThinkSplitter
from ..calls import TRUNCATION_REASONS, CallState, CallTable
from ..events import ReasoningDelta, TextDelta
from .markers import Markers

__all__ = ["HOLD", "MAX_MARKUP", "TOO_LONG", "TextOut", "TextReader", "seen", "skip_blanks"]

HOLD = -1
TOO_LONG = ""
"""What `TextReader.collect` answers for markup longer than `MAX_MARKUP`."""
MAX_MARKUP = 1024
"""The most characters of markup a reader holds while it cannot yet tell what they are (a tool
name, a parameter name, a header): past it, the call ends with an `invalid tool call` error."""

State = Callable[[str, int], int]
_WS = " \t\r\n"
OPEN, CLOSE = "<think>", "</think>"  # the tags the shared splitter reads here (its default)
_THINK = Markers(OPEN)
_THINK_END = Markers(CLOSE)


def seen(buf: str, i: int) -> str:
    """What stands at `buf[i]`, for an error message: its character, quoted (never more:
    what follows it may not have arrived yet, and the message must not depend on that)."""
    return repr(buf[i : i + 1])


def skip_blanks(buf: str, i: int) -> int:
    """The index of the first character at or after `i` that is not a blank."""
    end = len(buf)
    while i < end and buf[i] in _WS:
        i += 1
    return i


class TextOut:
    """Text outside the calls: `<think>` blocks become reasoning (the shared `ThinkSplitter`),
    the rest `TextDelta` (or, with `output=`, the structured-output reader's text: it finds
    the document in it); the events go to the call table's outbox, in order with the calls'."""

    __slots__ = ("choice", "splitter", "table")

    def __init__(self, table: CallTable, choice: int, think: bool = True) -> None:
        self.table = table
        self.choice = choice
        self.splitter: ThinkSplitter | None = ThinkSplitter() if think else None

    def text(self, piece: str) -> None:
        """Assistant text, split into text and `<think>` reasoning."""
        if not piece:
            return
        splitter = self.splitter
        if splitter is None:
            self._emit(False, piece)
            return
        for is_reasoning, part in splitter.feed(piece):
            self._emit(is_reasoning, part)

    def reasoning(self, piece: str) -> None:
        """Reasoning text (Harmony's analysis channel)."""
        if piece:
            self.table.events.append(ReasoningDelta(piece, self.choice))

    @property
    def thinking(self) -> bool:
        """Inside a `<think>` block: markup there is reasoning, not calls."""
        return self.splitter is not None and self.splitter.inside is not None

    def settle(self) -> None:
        """A marker follows: a tail the splitter held as a possible tag is text after all."""
        if self.splitter is not None:
            for is_reasoning, part in self.splitter.flush():
                self._emit(is_reasoning, part)

    def flush(self) -> None:
        """The text ended: pass on what the splitter held."""
        self.settle()

    def followed_by(self, c: str) -> None:
        """The text the splitter was given is followed by `c` (held by the reader as a
        possible marker): a tail it held as a possible tag that `c` cannot continue is text."""
        splitter = self.splitter
        if splitter is not None and splitter.held:
            tag = CLOSE if splitter.inside is not None else OPEN
            if not tag.startswith(splitter.held + c):
                self.settle()

    def through_think(self, buf: str, i: int, final: bool) -> int:
        """Pass a `<think>` block starting at `i` (or the rest of one already open) to the
        splitter, up to and including its closing tag; `i` if none is there, HOLD if a tag
        may begin at `i` but is cut. For the families whose calls are told by the first
        visible character of the text (llama3-json, pythonic)."""
        if self.splitter is None:
            return i
        if self.splitter.inside is not None:
            at, marker = _THINK_END.scan(buf, i)
            if marker is not None:
                self.text(buf[i : at + len(CLOSE)])
                return at + len(CLOSE)
            stop = len(buf) if final else at
            if stop == i:
                return HOLD
            self.text(buf[i:stop])
            return stop
        found = _THINK.at(buf, i)
        if found == "" and not final:
            return HOLD
        if found:
            self.text(OPEN)
            return i + len(OPEN)
        return i

    def _emit(self, is_reasoning: bool, part: str) -> None:
        if is_reasoning:
            self.table.events.append(ReasoningDelta(part, self.choice))
            return
        outputs = self.table.outputs
        if outputs is not None:
            outputs.text(part, self.choice)  # its prose comes back as TextDelta
        else:
            self.table.events.append(TextDelta(part, self.choice))


class TextReader:
    """Reads one stream of model text in one family's markup; see the module."""

    family = ""
    think = True  # `<think>` blocks in the text outside calls are reasoning

    def __init__(self, table: CallTable, choice: int = 0) -> None:
        self.table = table
        self.choice = choice
        self.out = TextOut(table, choice, self.think)
        self.state: State = self.outside
        self.held = ""
        self.base = 0  # the text position of the held tail's first character
        self.final = False  # the text has ended: nothing held can become a marker
        self.call: CallState | None = None
        self.pending: list[str] = []  # argument text for `call`, appended once per step
        self.pending_id: str | None = None  # a call id read before the call's name
        self.gap: str | None = None  # whitespace held after a call (None: not after one)
        self._markup: list[str] = []  # a name, key or header read so far (`collect`)
        self._markup_size = 0
        self.ended = False

    # -- the fragment loop ----------------------------------------------------------------

    def feed(self, text: str) -> None:
        """Read the next fragment of the text."""
        buf = self.held + text if self.held else text
        i, end = 0, len(buf)
        while i < end:
            state = self.state
            j = state(buf, i)
            if j < 0 or (j == i and self.state is state):
                break  # the rest waits for the next fragment
            i = j
        self.held = buf[i:] if i < end else ""
        self.base += i
        self.flush_args()
        if self.held:
            self.out.followed_by(self.held[0])

    def end(self, reason: str | None = None) -> None:
        """The text ended normally (`reason`: the finish reason, if known): what is held is
        not markup after all, and a call still open ends without its closing marker."""
        if self.ended:
            return
        self._final_pass()
        self.ended = True
        state = self.unfinished()
        if state is not None:
            self.flush_args()
            if reason in TRUNCATION_REASONS:
                why = f"truncated by the token limit ({reason!r}): {self.cut_message()}"
            else:
                why = f"incomplete: {self.cut_message()}"
            self.end_call(state, why)
        self.out.flush()

    def abort(self, why: str) -> None:
        """The stream was cut: a call still open ends with `why`."""
        if self.ended:
            return
        self._final_pass()
        self.ended = True
        state = self.unfinished()
        if state is not None:
            self.flush_args()
            self.table.fail(state, why, release=False)
            self.call = None
        self.out.flush()

    def end_call(self, state: CallState, why: str) -> None:
        """End `state` with `why`, or with the JSON error it already has (the first error
        says most)."""
        if state.error is not None:
            self.table.close(state, None)
        else:
            self.table.fail(state, why, release=False)
        if state is self.call:
            self.call = None

    def _final_pass(self) -> None:
        """Read what is held as if nothing could follow; inside a call it is dropped
        instead: a cut marker or markup, which the call's end already says was cut."""
        self.final = True
        if self.held and not self.in_call():
            held, self.held = self.held, ""
            self.feed(held)
        self.held = ""
        self.flush_args()

    def unfinished(self) -> CallState | None:
        """The call left open when the text ended (a nameless one for markup that began a
        call and was cut before its name), or None."""
        if self.call is None and self.in_call():
            self.call = self.table.start(None, "", choice=self.choice)
            self.table.announce(self.call)
        return self.call

    def in_call(self) -> bool:
        """Markup of a call has begun (the reader is not outside calls)."""
        return self.call is not None

    def cut_message(self) -> str:
        """Why a call left open at the end is not complete."""
        return "the text ended before the call's closing marker"

    # -- helpers for the states -----------------------------------------------------------

    def scan(self, markers: Markers, buf: str, i: int) -> tuple[int, str | None]:
        """`markers.scan`, except that once the text has ended no tail is held."""
        at, marker = markers.scan(buf, i)
        if marker is None and self.final:
            return len(buf), None
        return at, marker

    def at(self, markers: Markers, buf: str, i: int) -> str | None:
        """`markers.at`, except that once the text has ended a cut marker is no marker."""
        found = markers.at(buf, i)
        if found == "" and self.final:
            return None
        return found

    def collect(self, markers: Markers, buf: str, i: int) -> tuple[int, str | None]:
        """Read markup text (a name, a key, a header) up to the first of `markers`: `(at,
        marker)` when it is there (`markup()` gives the text), `(at, None)` when it is not
        yet (all read up to `at`), `(i, TOO_LONG)` past `MAX_MARKUP` characters."""
        at, marker = self.scan(markers, buf, i)
        if at > i:
            self._markup_size += at - i
            if self._markup_size > MAX_MARKUP:
                return i, TOO_LONG
            self._markup.append(buf[i:at])
        return at, marker

    def markup(self) -> str:
        """The markup text `collect` read, and a fresh start for the next."""
        text = "".join(self._markup)
        self._markup.clear()
        self._markup_size = 0
        return text

    def position(self, i: int) -> int:
        """The text position of `buf[i]` in the current fragment loop."""
        return self.base + i

    def text(self, piece: str) -> None:
        """Text outside calls."""
        if not piece:
            return
        if self.pending:
            self.flush_args()
        gap = self.gap
        if gap is not None:
            stripped = piece.lstrip(_WS)
            if not stripped:
                self.gap = gap + piece
                return
            self.gap = None
            piece = gap + piece
        self.out.text(piece)

    def prose(self, markers: Markers, buf: str, i: int) -> tuple[int, str | None]:
        """Text outside calls up to the next of `markers`, passed on: (where to go on, the
        marker to act on, or None). No marker in sight: what could be read (HOLD if nothing);
        a marker inside a `<think>` block is reasoning text, read past."""
        at, marker = self.scan(markers, buf, i)
        self.text(buf[i:at])
        if marker is None:
            return (at if at > i else HOLD), None
        if not self.take_marker():
            self.text(marker)
            return at + len(marker), None
        return at + len(marker), marker

    def take_marker(self) -> bool:
        """A begin marker was found outside calls: False if it is inside a `<think>` block
        (where it is reasoning text), else True after passing on the text held before it."""
        if self.out.thinking:
            return False
        self.out.settle()
        return True

    def start_call(self, name: str, id: str | None = None) -> CallState:
        """A new call, announced (`ToolCallStarted`): its name is known."""
        self.flush_args()
        self.pending_id = None
        self.gap = None
        state = self.table.start(id, name, choice=self.choice)
        self.table.announce(state)
        self.call = state
        return state

    def write(self, text: str) -> None:
        """Argument text (JSON) for the current call."""
        self.pending.append(text)

    def flush_args(self) -> None:
        """Append the collected argument text to the current call (one `ToolCallDelta`)."""
        if self.pending:
            text = "".join(self.pending)
            self.pending.clear()
            call = self.call
            if call is not None and not call.finished:  # (an ended call takes none)
                self.table.append(call, text)

    def close_call(self) -> None:
        """The call's closing marker arrived: it ends, complete if its arguments are."""
        self.flush_args()
        if self.call is not None:
            self.table.close(self.call, None)
            self.call = None
        self.gap = ""

    def fail_call(self, message: str, i: int) -> None:
        """The markup around the arguments cannot be read at `buf[i]`: the call (a nameless
        one if it had no name yet) ends with an `invalid tool call` error."""
        self.flush_args()
        self.markup()
        state = self.call
        if state is None:
            state = self.start_call("")
        self.end_call(state, f"invalid tool call: {message} (char {self.position(i)} of the text)")
        self.gap = ""

    def outside(self, buf: str, i: int) -> int:  # pragma: no cover - every family has one
        raise NotImplementedError

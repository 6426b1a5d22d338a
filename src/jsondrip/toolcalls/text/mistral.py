"""`mistral`: `[TOOL_CALLS]NAME[ARGS]{...}` (tokenizers v11+, with `[CALL_ID]ID` where present)
and `[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]` (tokenizers v2 to v7).

Source: mistral-common's `tokens/tokenizers/tools.py` (`decode_tool_calls`), which writes
the three forms in its docstrings: `[TOOL_CALLS][{"name": "name", "arguments": {...}}, ...]`
(an `"id"` key where the call had one), `[TOOL_CALLS]name[ARGS]{...}` and
`[TOOL_CALLS]name[CALL_ID]call_id[ARGS]{...}`; and vLLM's `mistral_tool_parser.py`, which
also reads a name ended by the `{` of its arguments (tokenizers that drop `[ARGS]` from the
text).

The newer form has no closing marker: a call's arguments end where their JSON document ends,
and that closes the call (the next `[TOOL_CALLS]` starts the next one). In the older form each
object of the array is a call, closed by its `}`. `[TOOL_CALLS]` outside JSON strings cuts a
call short. After a call that cannot be read, the text up to the next `[TOOL_CALLS]` belongs
to it and is dropped.
"""

from __future__ import annotations

from .envelope import Envelope
from .json_span import ENDED, HELD, MORE, STOPPED, JsonSpan
from .markers import Markers
from .reader import HOLD, MAX_MARKUP, TOO_LONG, TextReader, seen, skip_blanks

__all__ = ["MistralReader"]

BOT = "[TOOL_CALLS]"
_BOT_NAMED = repr(BOT)  # the stop marker, as a cut call's error names it
ARGS = "[ARGS]"
CALL_ID = "[CALL_ID]"
_OUTSIDE = Markers(BOT)
_STOP = Markers(BOT)
_NAME_END = Markers(ARGS, CALL_ID, BOT, "{")
_ID_END = Markers(ARGS, BOT)


class MistralReader(TextReader):
    """Mistral's `[TOOL_CALLS]` calls, both forms; see the module."""

    family = "mistral"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.name = ""
        self.span: JsonSpan | None = None
        self.envelope: Envelope | None = None

    def in_call(self) -> bool:
        return self.call is not None or self.state in (
            self.after_bot,
            self.call_name,
            self.call_id,
            self.array_call,
        )

    def cut_message(self) -> str:
        if self.state == self.arguments:
            return "the text ended inside the call's arguments"
        return "the text ended inside the call"

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker is not None:
            self.state = self.after_bot
        return j

    def after_bot(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        if buf[i] == "[":  # the older form: a JSON array of calls
            self.envelope = None
            self.state = self.array_open
            return i + 1
        self.pending_id = None
        self.state = self.call_name
        return i

    # -- [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...} ------------------------------------------

    def call_name(self, buf: str, i: int) -> int:
        at, marker = self.collect(_NAME_END, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a tool name longer than {MAX_MARKUP} characters", i)
        self.name = self.markup().strip()
        if marker == BOT:
            return self.broken(f"{BOT!r} came before the call's {ARGS!r}", at)
        if not self.name:
            return self.broken(f"the call has no name before {marker!r}", at)
        if marker == CALL_ID:
            self.state = self.call_id
            return at + len(CALL_ID)
        return self.begin_arguments(at + len(ARGS) if marker == ARGS else at)

    def call_id(self, buf: str, i: int) -> int:
        at, marker = self.collect(_ID_END, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a call id longer than {MAX_MARKUP} characters", i)
        self.pending_id = self.markup().strip() or None
        if marker == BOT:
            return self.broken(f"{BOT!r} came before the call's {ARGS!r}", at)
        return self.begin_arguments(at + len(ARGS))

    def begin_arguments(self, j: int) -> int:
        self.start_call(self.name, self.pending_id)
        self.span = JsonSpan(_STOP)
        self.state = self.before_arguments
        return j

    def before_arguments(self, buf: str, i: int) -> int:
        i = skip_blanks(buf, i)
        if i < len(buf):
            self.state = self.arguments
        return i

    def arguments(self, buf: str, i: int) -> int:
        span = self.span
        assert span is not None
        j, what = span.scan(self, buf, i)
        if j > i:
            self.write(buf[i:j])
        if what == MORE:
            return j
        if what == HELD:
            return j if j > i else HOLD
        if what == ENDED:
            self.close_call()
            self.state = self.outside
            return j
        assert what == STOPPED  # `[TOOL_CALLS]` cut the arguments: the parser says what
        self.close_call()
        self.state = self.outside
        return j

    # -- [TOOL_CALLS][{...}, ...] ---------------------------------------------------------

    def array_open(self, buf: str, i: int) -> int:
        """After `[`, or after a `,` between the array's calls."""
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        if buf[i] == "]" and self.envelope is None:
            self.state = self.outside  # `[TOOL_CALLS][]`: no calls
            return i + 1
        if buf[i] != "{":
            return self.broken(f"expected a call's '{{' in the array, not {seen(buf, i)}", i)
        self.pending_id = None
        self.envelope = Envelope(self, _STOP, args_keys=("arguments",), id_keys=("id",))
        self.state = self.array_call
        return i

    def array_call(self, buf: str, i: int) -> int:
        envelope = self.envelope
        assert envelope is not None
        j = envelope.read_call(
            buf, i, self.array_next, _BOT_NAMED, self.broken
        )  # STOPPED: BOT in the array
        if self.state == self.outside:
            self.envelope = None
        return j

    def array_next(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        if buf[i] == ",":
            self.state = self.array_open
            return i + 1
        if buf[i] == "]":
            self.envelope = None
            self.state = self.outside
            return i + 1
        return self.broken(f"expected ',' or ']' after a call, not {seen(buf, i)}", i)

    # -- errors ---------------------------------------------------------------------------

    def broken(self, message: str, i: int) -> int:
        """The markup cannot be read at `buf[i]`: the call ends; the text up to the next
        `[TOOL_CALLS]` is its rest, dropped."""
        self.fail_call(message, i)
        self.envelope = None
        self.state = self.skip
        return i

    def skip(self, buf: str, i: int) -> int:
        at, marker = self.scan(_OUTSIDE, buf, i)
        if marker is None:
            return at if at > i else HOLD
        self.state = self.outside
        return at

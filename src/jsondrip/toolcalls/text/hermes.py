"""`hermes`: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`, one block per call.

The markup of Nous Hermes 2 Pro / Hermes 3, Qwen 2.5 and Qwen 3 and the many fine-tunes that
use their chat templates. Sources: vLLM's `examples/tool_chat_template_hermes.jinja` (the
system prompt asks for `<tool_call>\\n{"name": <function-name>, "arguments": <args-dict>}\\n
</tool_call>`, and the template writes earlier calls with `"arguments"` *before* `"name"`),
Qwen's chat template (`{"name": <function-name>, "arguments": <args-json-object>}`), and
vLLM's `hermes_tool_parser.py`.

The call's JSON is read by `Envelope`: its name starts the call, its arguments stream to the
call's parser, and `</tool_call>` closes it. `</tool_call>` inside a JSON string is text (an
agent may write a file about tool calls); outside strings it ends the call where it stands.
After a call whose JSON breaks, the text up to its `</tool_call>` belongs to it and is
dropped; a `<tool_call>` before it starts the next call. A stray `</tool_call>` outside
calls is dropped (it is markup, never text).
"""

from __future__ import annotations

from .envelope import DONE, FAILED, HELD, INVALID, MORE, STOPPED, Envelope
from .markers import Markers
from .reader import HOLD, TextReader, skip_blanks

__all__ = ["HermesReader"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
_OUTSIDE = Markers(OPEN, CLOSE)
_BODY = Markers(OPEN, CLOSE)


class HermesReader(TextReader):
    """`<tool_call>` blocks of JSON; see the module."""

    family = "hermes"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.envelope: Envelope | None = None

    def in_call(self) -> bool:
        return self.call is not None or self.state in (self.body, self.after_body)

    def cut_message(self) -> str:
        return f"the text ended before {CLOSE!r}"

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker == OPEN:
            self.begin()
        # a stray closing marker outside calls is markup: dropped
        return j

    def begin(self) -> None:
        """`<tool_call>` was read: a call's JSON follows."""
        self.envelope = Envelope(self, _BODY, stop_on_invalid=True)
        self.state = self.body

    def body(self, buf: str, i: int) -> int:
        envelope = self.envelope
        assert envelope is not None
        j, what = envelope.step(buf, i)
        if what == MORE:
            return j
        if what == HELD:
            return j if j > i else HOLD
        if what == DONE:
            if self.call is None:
                self.fail_call("the call's JSON has no name", j - 1)
                self.state = self.skip
            else:
                self.state = self.after_body
            return j
        if what == FAILED:
            self.fail_call(envelope.error, j)
            self.state = self.skip
            return j
        if what == INVALID:  # the call ended with its error; its text runs to its marker
            self.state = self.skip
            return j
        assert what == STOPPED
        self.cut_by(buf, j)
        return j

    def cut_by(self, buf: str, j: int) -> None:
        """A marker at `buf[j]` ends the call before its JSON closed."""
        envelope = self.envelope
        assert envelope is not None
        closing = buf.startswith(CLOSE, j)
        if self.call is None:
            self.fail_call("the call's JSON ended before its name", j)
        elif envelope.in_args:
            # cut inside the arguments: the parser says what is missing
            if closing:
                self.close_call()
            else:
                self.fail_call(f"{OPEN!r} began before {CLOSE!r}", j)
        else:
            self.fail_call("the call's JSON object ended before its closing '}'", j)
        self.state = self.outside if not closing else self.closing

    def closing(self, buf: str, i: int) -> int:
        """`buf[i]` starts the closing marker of a call that has already ended."""
        self.state = self.outside
        return i + len(CLOSE)

    def after_body(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_BODY, buf, i)
        if found == "":
            return HOLD
        if found == CLOSE:
            self.close_call()
            self.state = self.outside
            return i + len(CLOSE)
        if found == OPEN:
            self.fail_call(f"{OPEN!r} began before {CLOSE!r}", i)
            self.state = self.outside
            return i
        self.fail_call(f"expected {CLOSE!r} after the call's JSON, not {buf[i]!r}", i)
        self.state = self.skip
        return i

    def skip(self, buf: str, i: int) -> int:
        """The rest of a call that cannot be read, up to its closing marker."""
        at, marker = self.scan(_BODY, buf, i)
        if marker is None:
            return at if at > i else HOLD
        self.close_call()
        self.state = self.outside
        return at + len(CLOSE) if marker == CLOSE else at

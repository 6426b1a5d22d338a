"""`harmony`: gpt-oss's messages, `<|start|>assistant<|channel|>CHANNEL ...<|message|>...<|end|>`.

Source: OpenAI's Harmony format guide (`openai/harmony`, `docs/format.md`). A completion is a
run of messages `[<|start|>ROLE]<|channel|>CHANNEL[ to=RECIPIENT][ <|constrain|>TYPE]
<|message|>CONTENT` ended by `<|end|>`, `<|call|>` (a tool call: stop and run it) or
`<|return|>` (done); the first message usually starts at `<|channel|>`, its `<|start|>
assistant` being the end of the prompt. The recipient may also stand in the role part
(`<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>`).

- a message to `functions.NAME` is a call of tool NAME: its content is the JSON arguments,
  closed by `<|call|>` (or `<|end|>`), announced as soon as the recipient is read;
- the `analysis` channel is reasoning (`ReasoningDelta`), `final` and `commentary` without a
  recipient (a preamble to the user) are text;
- a message to a built-in tool (`browser.search`, `python`: another recipient) is not a call
  of your functions: the model's own use of its tools, read as reasoning;
- a message of another role (`user`, a tool's output `<|start|>functions.NAME to=assistant`)
  is not the model's output (a rendered conversation has them, a completion does not): its
  content is skipped.

The markers are special tokens and never content: a new `<|start|>` or `<|channel|>` inside a
message ends it (a call left without `<|call|>` is incomplete). `<think>` tags are not
Harmony's: the text is never split on them.
"""

from __future__ import annotations

import re

from .markers import Markers
from .reader import HOLD, MAX_MARKUP, TOO_LONG, TextReader

__all__ = ["HarmonyReader"]

START = "<|start|>"
CHANNEL = "<|channel|>"
CONSTRAIN = "<|constrain|>"
MESSAGE = "<|message|>"
END = "<|end|>"
CALL = "<|call|>"
RETURN = "<|return|>"
_ALL = (START, CHANNEL, CONSTRAIN, MESSAGE, END, CALL, RETURN)
_OUTSIDE = Markers(*_ALL)
_HEADER = Markers(*_ALL)
_CONTENT = Markers(*_ALL)
_ENDS = (END, CALL, RETURN)
_RECIPIENT = re.compile(r"(?:^|\s)to=(\S+)")
_DONE_RECIPIENT = re.compile(r"(?:^|\s)to=(\S+)\s")
_FUNCTIONS = "functions."


class HarmonyReader(TextReader):
    """gpt-oss Harmony messages; see the module."""

    family = "harmony"
    think = False

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.section = ""  # the header part being read: "role", "channel" or "constrain"
        self.parts: dict[str, str] = {}
        self.route = "text"  # where the content goes: "call", "reasoning" or "text"
        self.recipient_read = False  # the header's recipient was read

    def in_call(self) -> bool:
        return self.call is not None

    def cut_message(self) -> str:
        return f"the text ended before {CALL!r}"

    def outside(self, buf: str, i: int) -> int:
        at, marker = self.scan(_OUTSIDE, buf, i)
        self.text(buf[i:at])
        if marker is None:
            return at if at > i else HOLD
        if marker in (START, CHANNEL):
            self.begin_header("role" if marker == START else "channel")
        elif marker == MESSAGE:  # content without a header: plain text
            self.route = "text"
            self.state = self.content
        # a stray end or constrain marker outside a message: markup, dropped
        return at + len(marker)

    def begin_header(self, section: str) -> None:
        self.parts = {}
        self.recipient_read = False
        self.section = section
        self.markup()
        self.state = self.header

    def header(self, buf: str, i: int) -> int:
        at, marker = self.collect(_HEADER, buf, i)
        if marker == TOO_LONG:
            self.fail_call(f"a message header longer than {MAX_MARKUP} characters", i)
            self.route = "skip"
            self.state = self.content
            return i
        if not self.recipient_read:  # the first `to=` of the header, once it is whole
            text = self.parts.get(self.section, "") + "".join(self._markup)
            found = (_DONE_RECIPIENT if marker is None else _RECIPIENT).search(text)
            if found:
                self.recipient_read = True
                role = text if self.section == "role" else self.parts.get("role", "")
                self.recipient(found.group(1), role)
        if marker is None:
            return at if at > i else HOLD
        self.parts[self.section] = self.parts.get(self.section, "") + self.markup()
        if marker == CHANNEL:
            self.section = "channel"
        elif marker == CONSTRAIN:
            self.section = "constrain"
        elif marker == MESSAGE:
            self.begin_content()
        elif marker == START:  # a header cut short by a new message
            self.cut_message_by(marker, at)
            self.begin_header("role")
        else:  # an end marker before `<|message|>`: an empty message
            self.cut_message_by(marker, at)
            self.state = self.outside
        return at + len(marker)

    def recipient(self, to: str, role_text: str) -> None:
        """The header names its recipient: a call starts if it is one of the functions (in a
        message of the assistant's)."""
        if role_text.split()[:1] not in ([], ["assistant"]):
            return
        if to.startswith(_FUNCTIONS) and len(to) > len(_FUNCTIONS):
            self.start_call(to[len(_FUNCTIONS) :])

    def begin_content(self) -> None:
        if self.call is not None:
            self.route = "call"
        else:
            role = self.parts.get("role", "").split()[:1]
            channel = self.parts.get("channel", "").split()[:1]
            if role not in ([], ["assistant"]):
                self.route = "skip"  # another role's message
            elif channel == ["analysis"] or _RECIPIENT.search(
                self.parts.get("role", "") + " " + self.parts.get("channel", "")
            ):
                self.route = "reasoning"  # a built-in tool's call is the model's own work
            else:
                self.route = "text"
        self.state = self.content

    def content(self, buf: str, i: int) -> int:
        at, marker = self.scan(_CONTENT, buf, i)
        if at > i:
            piece = buf[i:at]
            route = self.route
            if route == "call":
                self.write(piece)
            elif route == "reasoning":
                self.flush_args()
                self.out.reasoning(piece)
            elif route == "text":
                self.text(piece)
        if marker is None:
            return at if at > i else HOLD
        if marker in _ENDS:
            if self.call is not None:
                self.close_call()
            self.state = self.outside
        elif marker in (START, CHANNEL):  # a new message: this one was never ended
            self.cut_message_by(marker, at)
            self.begin_header("role" if marker == START else "channel")
        # `<|message|>` or `<|constrain|>` inside content: markup, dropped
        return at + len(marker)

    def cut_message_by(self, marker: str, at: int) -> None:
        """A message ended at `marker` without its end: its call is not complete."""
        if self.call is not None:
            self.fail_call(f"{marker!r} came before the call's {CALL!r}", at)

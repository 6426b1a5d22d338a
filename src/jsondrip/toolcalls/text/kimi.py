"""`kimi-k2`: a section of `<|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>
{...}<|tool_call_end|>` calls between `<|tool_calls_section_begin|>` and
`<|tool_calls_section_end|>`.

The markup of Moonshot's Kimi K2. Sources: the model's chat template and vLLM's
`kimi_k2_tool_parser.py`, which also accepts the singular section markers
(`<|tool_call_section_begin|>`) some checkpoints write. The call id is the whole
`functions.NAME:IDX` (what the template expects back), the name is NAME. The arguments are
JSON text up to `<|tool_call_end|>`, which closes the call; the markers are special tokens,
so they are looked for as such, inside strings too. Blanks between calls are layout; other
text inside a section is passed on as text.
"""

from __future__ import annotations

from .markers import Markers
from .reader import HOLD, MAX_MARKUP, TOO_LONG, TextReader, seen

__all__ = ["KimiReader"]

SECTION = ("<|tool_calls_section_begin|>", "<|tool_call_section_begin|>")
SECTION_END = ("<|tool_calls_section_end|>", "<|tool_call_section_end|>")
CALL = "<|tool_call_begin|>"
ARGUMENTS = "<|tool_call_argument_begin|>"
CALL_END = "<|tool_call_end|>"
_OUTSIDE = Markers(*SECTION, *SECTION_END, CALL)
_SECTION = Markers(CALL, *SECTION_END, *SECTION)
_HEAD = Markers(ARGUMENTS, CALL_END, CALL, *SECTION_END)
_ARGS = Markers(CALL_END, CALL, *SECTION_END, *SECTION)


class KimiReader(TextReader):
    """Kimi K2's tool-call sections; see the module."""

    family = "kimi-k2"

    def in_call(self) -> bool:
        return self.call is not None or self.state == self.head

    def cut_message(self) -> str:
        return f"the text ended before {CALL_END!r}"

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker in SECTION:
            self.gap = ""  # blanks between the section's calls are layout
            self.state = self.section
        elif marker == CALL:  # a call without its section: read it all the same
            self.state = self.head
        return j

    def section(self, buf: str, i: int) -> int:
        """Between the calls of a section."""
        at, marker = self.scan(_SECTION, buf, i)
        self.text(buf[i:at])  # blanks held as layout until text follows
        if marker is None:
            return at if at > i else HOLD
        self.out.settle()  # markup: text before it cannot run on into a tag after it
        if marker == CALL:
            self.state = self.head
        elif marker in SECTION_END:
            self.state = self.outside
        # a second section marker inside a section: markup, dropped
        return at + len(marker)

    def head(self, buf: str, i: int) -> int:
        """`functions.NAME:IDX`, up to `<|tool_call_argument_begin|>`."""
        at, marker = self.collect(_HEAD, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            self.fail_call(f"a call id longer than {MAX_MARKUP} characters", i)
            self.state = self.skip
            return i
        head = self.markup().strip()
        if marker != ARGUMENTS:
            self.fail_call(f"expected {ARGUMENTS!r} after the call id, not {seen(buf, at)}", at)
            self.state = self.section
            return at
        name = head.rpartition(":")[0] if ":" in head else head
        if name.startswith("functions."):
            name = name[len("functions.") :]
        if not name:
            self.fail_call(f"no tool name in the call id {head!r}", at)
            self.state = self.skip
            return at + len(ARGUMENTS)
        self.start_call(name, head)
        self.state = self.arguments
        return at + len(ARGUMENTS)

    def arguments(self, buf: str, i: int) -> int:
        at, marker = self.scan(_ARGS, buf, i)
        if at > i:
            self.write(buf[i:at])
        if marker is None:
            return at if at > i else HOLD
        if marker == CALL_END:
            self.close_call()
            self.state = self.section
            return at + len(CALL_END)
        self.fail_call(f"{marker!r} came before {CALL_END!r}", at)
        self.state = self.section
        return at

    def skip(self, buf: str, i: int) -> int:
        """The rest of a call that cannot be read, up to its `<|tool_call_end|>`."""
        at, marker = self.scan(_ARGS, buf, i)
        if marker is None:
            return at if at > i else HOLD
        self.state = self.section
        return at + len(CALL_END) if marker == CALL_END else at

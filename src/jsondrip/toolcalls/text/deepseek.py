"""`deepseek`: DeepSeek V3 / R1 and V3.1 calls between `<｜tool▁calls▁begin｜>` and
`<｜tool▁calls▁end｜>`.

Sources: the models' chat templates (vLLM keeps copies: `examples/tool_chat_template_deepseekv3
.jinja`, `..._deepseekv31.jinja`) and vLLM's `deepseekv3_tool_parser.py` /
`deepseekv31_tool_parser.py`. The markers use the fullwidth bar `｜` (U+FF5C) and `▁` (U+2581).
Each call is

- V3 and R1: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\\n```json\\n{...}\\n```
  <｜tool▁call▁end｜>`: a type, the name on its own line, the arguments in a code fence;
- V3.1: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>`: the name, then bare
  JSON.

They are told apart by what follows `<｜tool▁sep｜>`: a JSON value after a name (V3.1), or a
name after the type `function` (V3). The fence is stripped by the call table as for every
provider's arguments (`raw` keeps it). `<｜tool▁call▁end｜>` closes the call.
"""

from __future__ import annotations

from .markers import Markers
from .reader import HOLD, MAX_MARKUP, TOO_LONG, TextReader, seen

__all__ = ["DeepSeekReader"]

CALLS = "<｜tool▁calls▁begin｜>"
CALLS_END = "<｜tool▁calls▁end｜>"
CALL = "<｜tool▁call▁begin｜>"
SEP = "<｜tool▁sep｜>"
CALL_END = "<｜tool▁call▁end｜>"
_OUTSIDE = Markers(CALLS, CALL, CALLS_END)
_SECTION = Markers(CALL, CALLS_END, CALLS)
_HEAD = Markers(SEP, CALL_END, CALL, CALLS_END)
_NAME_LINE = Markers("\n", CALL_END, CALL, CALLS_END)
_ARGS = Markers(CALL_END, CALL, CALLS_END, CALLS)
_JSON_STARTS = frozenset('{["-0123456789`')


class DeepSeekReader(TextReader):
    """DeepSeek V3 / V3.1 tool calls; see the module."""

    family = "deepseek"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.head_text = ""

    def in_call(self) -> bool:
        return self.call is not None or self.state in (self.head, self.after_sep, self.name_line)

    def cut_message(self) -> str:
        return f"the text ended before {CALL_END!r}"

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker == CALLS:
            self.gap = ""  # blanks between the calls are layout
            self.state = self.section
        elif marker == CALL:  # a call without the calls marker: read it all the same
            self.state = self.head
        return j

    def section(self, buf: str, i: int) -> int:
        at, marker = self.scan(_SECTION, buf, i)
        self.text(buf[i:at])
        if marker is None:
            return at if at > i else HOLD
        self.out.settle()  # markup: text before it cannot run on into a tag after it
        if marker == CALL:
            self.state = self.head
        elif marker == CALLS_END:
            self.state = self.outside
        return at + len(marker)

    def head(self, buf: str, i: int) -> int:
        """The name (V3.1) or the type (V3), up to `<｜tool▁sep｜>`."""
        at, marker = self.collect(_HEAD, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a tool name longer than {MAX_MARKUP} characters", buf, i)
        self.head_text = self.markup().strip()
        if marker != SEP:
            return self.broken(f"expected {SEP!r} after {CALL!r}, not {seen(buf, at)}", buf, at)
        if self.head_text != "function":  # V3.1: the name, known now
            if not self.head_text:
                return self.broken("the call has no name", buf, at)
            self.start_call(self.head_text)
            self.state = self.arguments
        else:
            self.state = self.after_sep
        return at + len(SEP)

    def after_sep(self, buf: str, i: int) -> int:
        """After `function<｜tool▁sep｜>`: V3.1's arguments of a tool named `function` if a
        JSON value follows, else V3's name line."""
        c = buf[i]
        if c in _JSON_STARTS or c.isspace():
            self.start_call(self.head_text)
            self.state = self.arguments
        else:
            self.state = self.name_line
        return i

    def name_line(self, buf: str, i: int) -> int:
        """V3: the name, on the line after `function<｜tool▁sep｜>`."""
        at, marker = self.collect(_NAME_LINE, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a tool name longer than {MAX_MARKUP} characters", buf, i)
        name = self.markup().strip()
        if not name:
            return self.broken("the call has no name", buf, at)
        self.start_call(name)
        if marker != "\n":  # no arguments after the name: the marker is read next
            self.state = self.arguments
            return at
        self.state = self.arguments
        return at + 1

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

    def broken(self, message: str, buf: str, i: int) -> int:
        """The markup cannot be read at `buf[i]`: the call ends; its rest is skipped."""
        self.fail_call(message, i)
        self.state = self.skip
        return i

    def skip(self, buf: str, i: int) -> int:
        """The rest of a call that cannot be read, up to its `<｜tool▁call▁end｜>`."""
        at, marker = self.scan(_ARGS, buf, i)
        if marker is None:
            return at if at > i else HOLD
        self.state = self.section
        return at + len(CALL_END) if marker == CALL_END else at

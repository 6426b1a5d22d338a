"""`glm-4.5`: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>...</tool_call>`.

The markup of Zhipu's GLM 4.5, 4.6 and 4.7. Sources: the models' chat templates and vLLM's
`glm4_moe_tool_parser.py` / `glm47_moe_tool_parser.py`: GLM 4.5 writes the name on its own
line (`<tool_call>get_weather\\n<arg_key>city</arg_key>\\n<arg_value>Paris</arg_value>\\n
</tool_call>`), GLM 4.7 without the newlines; blanks between the tags are layout. A call
without arguments is `<tool_call>NAME</tool_call>`.

The arguments become the call's JSON as they arrive (`typed_values`: typed by `tools=`,
strings without it). Keys are stripped of blanks; a string value is kept exactly as written
(vLLM strips it, which would lose a file's last newline). The call is complete at
`</tool_call>`; markup that breaks the pattern ends the call with `invalid tool call`, and its
text up to `</tool_call>` is dropped.
"""

from __future__ import annotations

import json

from .markers import Markers
from .reader import HOLD, MAX_MARKUP, TOO_LONG, TextReader, seen, skip_blanks
from .typed_values import ValueWriter, value_writer

__all__ = ["GlmReader"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
KEY = "<arg_key>"
KEY_END = "</arg_key>"
VALUE = "<arg_value>"
VALUE_END = "</arg_value>"
_OUTSIDE = Markers(OPEN, CLOSE)
_NAME_END = Markers("\n", KEY, CLOSE, OPEN)
_BODY = Markers(KEY, CLOSE, OPEN)
_KEY_END = Markers(KEY_END)
_AFTER_KEY = Markers(VALUE)
_VALUE_END = Markers(VALUE_END)
_SKIP = Markers(OPEN, CLOSE)


class GlmReader(TextReader):
    """GLM 4.5-4.7 calls; see the module."""

    family = "glm-4.5"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.first = True
        self.key_text = ""
        self.writer: ValueWriter | None = None

    def in_call(self) -> bool:
        return self.call is not None or self.state == self.name

    def cut_message(self) -> str:
        return f"the text ended before {CLOSE!r}"

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker == OPEN:
            self.state = self.name
        return j

    def name(self, buf: str, i: int) -> int:
        if not self._markup:
            k = skip_blanks(buf, i)  # blanks before the name: layout, read, never held
            if k > i:
                return k
        at, marker = self.collect(_NAME_END, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a tool name longer than {MAX_MARKUP} characters", buf, i)
        name = self.markup().strip()
        if marker == OPEN:
            return self.broken(f"{OPEN!r} came before the call's {CLOSE!r}", buf, at)
        if not name:
            return self.broken(f"the call has no name, found {marker!r}", buf, at)
        self.start_call(name)
        self.write("{")
        self.first = True
        self.state = self.body
        return at + 1 if marker == "\n" else at

    def body(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_BODY, buf, i)
        if found == "":
            return HOLD
        if found == KEY:
            self.state = self.key
            return i + len(KEY)
        if found == CLOSE:
            self.write("}")
            self.close_call()
            self.state = self.outside
            return i + len(CLOSE)
        if found == OPEN:
            return self.broken(f"{OPEN!r} came before the call's {CLOSE!r}", buf, i)
        return self.broken(f"expected {KEY!r} or {CLOSE!r}, not {seen(buf, i)}", buf, i)

    def key(self, buf: str, i: int) -> int:
        at, marker = self.collect(_KEY_END, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a key longer than {MAX_MARKUP} characters", buf, i)
        self.key_text = self.markup().strip()
        self.state = self.after_key
        return at + len(KEY_END)

    def after_key(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_AFTER_KEY, buf, i)
        if found == "":
            return HOLD
        if found is None:
            return self.broken(f"expected {VALUE!r} after the key, not {seen(buf, i)}", buf, i)
        key = self.key_text
        self.write(("" if self.first else ", ") + json.dumps(key, ensure_ascii=False) + ": ")
        self.first = False
        call = self.call
        self.writer = value_writer(self, "" if call is None else call.name, key)
        self.state = self.value
        return i + len(VALUE)

    def value(self, buf: str, i: int) -> int:
        writer = self.writer
        assert writer is not None
        at, marker = self.scan(_VALUE_END, buf, i)
        writer.piece(buf[i:at])
        if marker is None:
            return at if at > i else HOLD
        writer.end()
        self.writer = None
        self.state = self.body
        return at + len(VALUE_END)

    def broken(self, message: str, buf: str, i: int) -> int:
        """The markup cannot be read at `buf[i]`: the call ends; its rest is skipped."""
        self.fail_call(message, i)
        self.writer = None
        self.state = self.skip
        return i

    def skip(self, buf: str, i: int) -> int:
        """The rest of a call that cannot be read, up to its `</tool_call>`."""
        at, marker = self.scan(_SKIP, buf, i)
        if marker is None:
            return at if at > i else HOLD
        self.state = self.outside
        return at + len(CLOSE) if marker == CLOSE else at

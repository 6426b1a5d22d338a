"""`qwen3-coder`: `<tool_call><function=NAME><parameter=KEY>text</parameter>...</function>
</tool_call>`.

The markup of Qwen3-Coder (and Qwen3.5 / Qwen3-Next models that use its template). Source: the
model's chat template (vLLM keeps a copy as `examples/tool_chat_template_qwen3coder.jinja`):
each call is written

    <tool_call>
    <function=NAME>
    <parameter=KEY>
    VALUE
    </parameter>
    </function>
    </tool_call>

with the value as text (a string as it is, anything else as JSON), one newline after
`<parameter=KEY>` and one before `</parameter>`: those two are layout and are dropped, as vLLM's
`qwen3coder_tool_parser.py` drops them. The parameters become the call's JSON arguments as they
arrive (`typed_values`: typed by `tools=`, strings without it).

A value ends only at a `</parameter>` followed (after blanks) by `<parameter=`,
`</function>` or `</tool_call>`: a `</parameter>` inside the value (code that writes these
tags) is text, as vLLM tells them apart. The call is complete at `</tool_call>` after
`</function>`; markup that breaks the pattern ends the call with `invalid tool call`, and its
text up to `</tool_call>` is dropped.
"""

from __future__ import annotations

import json

from .markers import Markers
from .reader import HOLD, MAX_MARKUP, TOO_LONG, TextReader, seen, skip_blanks
from .typed_values import ValueWriter, value_writer

__all__ = ["Qwen3CoderReader"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
FUNCTION = "<function="
FUNCTION_END = "</function>"
PARAMETER = "<parameter="
PARAMETER_END = "</parameter>"
_OUTSIDE = Markers(OPEN, CLOSE)
_CALL = Markers(FUNCTION, OPEN, CLOSE)
_NAME_END = Markers(">", "\n", "<")
_BODY = Markers(PARAMETER, FUNCTION_END, OPEN, CLOSE)
_VALUE_END = Markers(PARAMETER_END)
_AFTER_VALUE = Markers(PARAMETER, FUNCTION_END, CLOSE)
_SKIP = Markers(OPEN, CLOSE)


class Qwen3CoderReader(TextReader):
    """Qwen3-Coder's XML-like calls; see the module."""

    family = "qwen3-coder"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.first = True  # no parameter written yet
        self.key = ""
        self.writer: ValueWriter | None = None
        self.value_start = False  # the value's first character may be its layout newline

    def in_call(self) -> bool:
        return self.call is not None or self.state in (self.call_open, self.function_name)

    def cut_message(self) -> str:
        return f"the text ended before {CLOSE!r}"

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker == OPEN:
            self.state = self.call_open
        return j

    def call_open(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_CALL, buf, i)
        if found == "":
            return HOLD
        if found == FUNCTION:
            self.state = self.function_name
            return i + len(FUNCTION)
        return self.broken(f"expected {FUNCTION!r} after {OPEN!r}, not {seen(buf, i)}", buf, i)

    def function_name(self, buf: str, i: int) -> int:
        at, marker = self.collect(_NAME_END, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a function name longer than {MAX_MARKUP} characters", buf, i)
        if marker != ">":
            return self.broken(f"expected '>' to end the function name, not {marker!r}", buf, at)
        name = self.markup().strip()
        if not name:
            return self.broken("the function has no name", buf, at)
        self.start_call(name)
        self.write("{")
        self.first = True
        self.state = self.body
        return at + 1

    def body(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_BODY, buf, i)
        if found == "":
            return HOLD
        if found == PARAMETER:
            self.state = self.parameter_name
            return i + len(PARAMETER)
        if found == FUNCTION_END:
            self.write("}")
            self.state = self.after_function
            return i + len(FUNCTION_END)
        if found == CLOSE:
            return self.broken(f"{CLOSE!r} came before {FUNCTION_END!r}", buf, i)
        return self.broken(
            f"expected {PARAMETER!r} or {FUNCTION_END!r}, not {seen(buf, i)}", buf, i
        )

    def parameter_name(self, buf: str, i: int) -> int:
        at, marker = self.collect(_NAME_END, buf, i)
        if marker is None:
            return at if at > i else HOLD
        if marker == TOO_LONG:
            return self.broken(f"a parameter name longer than {MAX_MARKUP} characters", buf, i)
        if marker != ">":
            return self.broken(f"expected '>' to end the parameter name, not {marker!r}", buf, at)
        self.key = key = self.markup().strip()
        self.write(("" if self.first else ", ") + json.dumps(key, ensure_ascii=False) + ": ")
        self.first = False
        call = self.call
        self.writer = value_writer(self, "" if call is None else call.name, key)
        self.value_start = True
        self.state = self.value
        return at + 1

    def value(self, buf: str, i: int) -> int:
        if self.value_start:
            self.value_start = False
            if buf[i] == "\n":  # the template's newline after `<parameter=KEY>`
                return i + 1
        writer = self.writer
        assert writer is not None
        at, marker = self.scan(_VALUE_END, buf, i)
        if marker is None:
            stop = at
            if stop > i and buf[stop - 1] == "\n" and not self.final:
                stop -= 1  # may be the newline before `</parameter>`
            writer.piece(buf[i:stop])
            return stop if stop > i else HOLD
        after = at + len(PARAMETER_END)
        ends = self.value_ends(buf, after)
        if ends is None:  # cannot tell yet: hold the marker (and a newline before it)
            stop = at - 1 if at > i and buf[at - 1] == "\n" else at
            writer.piece(buf[i:stop])
            return stop if stop > i else HOLD
        if not ends:  # a `</parameter>` inside the value: text
            writer.piece(buf[i:after])
            return after
        stop = at - 1 if at > i and buf[at - 1] == "\n" else at
        writer.piece(buf[i:stop])
        writer.end()
        self.writer = None
        self.state = self.body
        return after

    def value_ends(self, buf: str, k: int) -> bool | None:
        """Whether a `</parameter>` just before `buf[k]` ends the value: the next markup
        after blanks must be the call's own; None when the text does not tell yet."""
        start = k
        k = skip_blanks(buf, k)
        if k - start > MAX_MARKUP:  # so many blanks after it: not the call's layout
            return False
        if k == len(buf):
            return True if self.final else None
        found = self.at(_AFTER_VALUE, buf, k)
        if found == "":
            return None
        return found is not None

    def after_function(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_SKIP, buf, i)
        if found == "":
            return HOLD
        if found == CLOSE:
            self.close_call()
            self.state = self.outside
            return i + len(CLOSE)
        return self.broken(f"expected {CLOSE!r} after {FUNCTION_END!r}, not {seen(buf, i)}", buf, i)

    def broken(self, message: str, buf: str, i: int) -> int:
        """The markup cannot be read at `buf[i]`: the call ends; its rest is skipped."""
        self.markup()
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

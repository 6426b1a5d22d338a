"""`pythonic`: `[get_weather(city="Paris"), get_time(tz="UTC")]`, keyword values Python literals.

The tool calling of Llama 3.2 and Llama 4 (pythonic templates), ToolACE, OLMo 3 and
Liquid's LFM2. Sources: vLLM's `examples/tool_chat_template_llama3.2_pythonic.jinja` and
`..._llama4_pythonic.jinja`, and its `pythonic_tool_parser.py`,
`llama4_pythonic_tool_parser.py` (`<|python_start|>[...]<|python_end|>`),
`lfm2_tool_parser.py` (`<|tool_call_start|>[...]<|tool_call_end|>`) and
`olmo3_tool_parser.py` (`<function_calls>` with one call per line, no brackets, and
`true`/`false`/`null` beside Python's literals).

A list of calls is read where it is marked (one of those wrappers), or where it stands first
in the text (after blanks and a `<think>` block): a `[` followed by a name and `(`. Each call
starts once its name and `(` are read, its keyword values become JSON as they arrive
(`PyLiteral`), and its `)` closes it. Positional arguments are an error (a tool takes named
arguments). After a call that cannot be read, the text up to the wrapper's end marker (or,
for a bare list, the end of the text) belongs to it and is dropped.
"""

from __future__ import annotations

import json
import re

from .markers import Markers
from .python_literal import DONE, FAILED, HELD, MORE, PyLiteral
from .reader import HOLD, MAX_MARKUP, TextReader, seen, skip_blanks

__all__ = ["PythonicReader"]

WRAPPERS = {
    "<|python_start|>": "<|python_end|>",  # Llama 4
    "<|tool_call_start|>": "<|tool_call_end|>",  # LFM2
    "<function_calls>": "</function_calls>",  # OLMo 3
}
_OUTSIDE = Markers(*WRAPPERS, *WRAPPERS.values())
_ENDS = Markers(*WRAPPERS.values())
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_NAME_GOES_ON = re.compile(r"[A-Za-z0-9_.\-]*")
# `[name(` opens a list of calls at the start of the text (bounded: what waits is short)
_LIST_START = re.compile(r"\[\s{0,64}[A-Za-z_][A-Za-z0-9_.\-]{0,255}\s{0,64}\(")
_LIST_START_CUT = re.compile(r"\[\s{0,64}(?:[A-Za-z_][A-Za-z0-9_.\-]{0,255}\s{0,64})?\Z")


class PythonicReader(TextReader):
    """Lists of Python-style calls; see the module."""

    family = "pythonic"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.state = self.start
        self.end_marker = ""  # the wrapper's end marker ("" for a bare list)
        self.bracketed = True  # the calls are in `[...]` (OLMo's are one per line)
        self.literal: PyLiteral | None = None
        self.first = True

    def in_call(self) -> bool:
        return self.call is not None or self.state == self.call_name

    def cut_message(self) -> str:
        return "the text ended before the call's ')'"

    # -- where calls are ------------------------------------------------------------------

    def start(self, buf: str, i: int) -> int:
        """Before the first visible character: a list of calls may stand there."""
        j = self.out.through_think(buf, i, self.final)
        if j != i:
            return j
        k = skip_blanks(buf, i)
        if k > i:
            self.text(buf[i:k])
            return k
        self.state = self.outside
        if buf[i] != "[":
            return i
        if _LIST_START.match(buf, i):
            if self.take_marker():
                self.begin_list("", i + 1)
                return i + 1
            return i
        if _LIST_START_CUT.match(buf, i) and not self.final:
            self.state = self.start
            return HOLD
        return i

    def outside(self, buf: str, i: int) -> int:
        at, marker = self.scan(_OUTSIDE, buf, i)
        self.text(buf[i:at])
        if marker is None:
            return at if at > i else HOLD
        if not self.take_marker():
            self.text(marker)  # inside <think>: reasoning text
        elif marker in WRAPPERS:
            self.end_marker = WRAPPERS[marker]
            self.state = self.wrapped
        # a stray end marker: markup, dropped
        return at + len(marker)

    def wrapped(self, buf: str, i: int) -> int:
        """After a wrapper's start marker: `[` and calls, or calls one per line."""
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        if buf[i] == "[":
            self.begin_list(self.end_marker, i + 1)
            return i + 1
        self.bracketed = False
        self.state = self.next_call
        return i

    def begin_list(self, end_marker: str, i: int) -> None:
        self.end_marker = end_marker
        self.bracketed = True
        self.state = self.next_call

    # -- the list ---------------------------------------------------------------------------

    def next_call(self, buf: str, i: int) -> int:
        """Before a call (or the list's end)."""
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        c = buf[i]
        if self.bracketed and c == "]":
            self.state = self.after_list
            return i + 1
        if self.end_marker:
            found = self.at(_ENDS, buf, i)
            if found == "":
                return HOLD
            if found is not None:
                return self.end_wrapper(found, i)
        if not self.bracketed and c == ",":
            return i + 1
        if not _NAME.match(buf, i):
            return self.broken(f"expected a call, not {seen(buf, i)}", buf, i)
        self.state = self.call_name
        return i

    def name_end(self, buf: str, i: int) -> int:
        """Where the name (of a tool, or a keyword) that goes on at `buf[i]` ends."""
        pattern = _NAME_GOES_ON if self._markup else _NAME
        found = pattern.match(buf, i)
        return i if found is None else found.end()

    def call_name(self, buf: str, i: int) -> int:
        j = self.name_end(buf, i)
        self._markup_size += j - i
        if self._markup_size > MAX_MARKUP:
            return self.broken(f"a tool name longer than {MAX_MARKUP} characters", buf, i)
        self._markup.append(buf[i:j])
        k = skip_blanks(buf, j)
        if k == len(buf):
            return j if j > i else HOLD  # the name, or the blanks after it, may go on
        name = self.markup()
        if buf[k] != "(":
            return self.broken(f"expected '(' after the tool name {name!r}", buf, k)
        self.start_call(name)
        self.write("{")
        self.first = True
        self.state = self.arguments
        return k + 1

    def arguments(self, buf: str, i: int) -> int:
        """Before a keyword argument, or the call's `)`."""
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        if buf[i] == ")":
            return self.call_closed(i)
        if not _NAME.match(buf, i):
            return self.broken(f"expected a keyword argument, not {seen(buf, i)}", buf, i)
        self.state = self.keyword
        return i

    def keyword(self, buf: str, i: int) -> int:
        j = self.name_end(buf, i)
        self._markup_size += j - i
        if self._markup_size > MAX_MARKUP:
            return self.broken(f"a keyword longer than {MAX_MARKUP} characters", buf, i)
        self._markup.append(buf[i:j])
        k = skip_blanks(buf, j)
        if k == len(buf):
            return j if j > i else HOLD
        key = self.markup()
        if buf[k] != "=":
            return self.broken(
                f"positional arguments are not supported: expected '=' after {key!r}", buf, k
            )
        if "-" in key or "." in key:
            return self.broken(f"{key!r} is not a keyword", buf, i)
        self.write(("" if self.first else ", ") + json.dumps(key, ensure_ascii=False) + ": ")
        self.first = False
        self.literal = PyLiteral(self.write)
        self.state = self.value
        return k + 1

    def value(self, buf: str, i: int) -> int:
        literal = self.literal
        assert literal is not None
        j, what = literal.feed(buf, i, self.final)
        if what == MORE:
            return j
        if what == HELD:
            return j if j > i else HOLD
        if what == FAILED:
            return self.broken(literal.error, buf, j)
        assert what == DONE
        self.literal = None
        self.state = self.after_value
        return j

    def after_value(self, buf: str, i: int) -> int:
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        c = buf[i]
        if c == ",":
            self.state = self.arguments
            return i + 1
        if c == ")":
            return self.call_closed(i)
        return self.broken(f"expected ',' or ')' after a value, not {seen(buf, i)}", buf, i)

    def call_closed(self, i: int) -> int:
        self.write("}")
        self.close_call()
        self.state = self.after_call
        return i + 1

    def after_call(self, buf: str, i: int) -> int:
        """After a call's `)`: `,` and the next, the list's `]`, the wrapper's end."""
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        c = buf[i]
        if self.bracketed:
            if c == ",":
                self.state = self.next_call
                return i + 1
            if c == "]":
                self.state = self.after_list
                return i + 1
            return self.broken(f"expected ',' or ']' after a call, not {seen(buf, i)}", buf, i)
        self.state = self.next_call  # one call per line (or comma-separated)
        return i

    def after_list(self, buf: str, i: int) -> int:
        if not self.end_marker:
            self.state = self.outside
            return i
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        found = self.at(_ENDS, buf, i)
        if found == "":
            return HOLD
        if found is None:
            return self.broken(f"expected {self.end_marker!r} after the calls", buf, i)
        return self.end_wrapper(found, i)

    def end_wrapper(self, marker: str, i: int) -> int:
        self.end_marker = ""
        self.state = self.outside
        return i + len(marker)

    # -- errors ---------------------------------------------------------------------------

    def broken(self, message: str, buf: str, i: int) -> int:
        """The markup cannot be read at `buf[i]`: the call ends, and the text up to the
        wrapper's end marker (a bare list: the end of the text) is its rest, dropped."""
        self.fail_call(message, i)
        self.literal = None
        self.state = self.skip
        return i

    def skip(self, buf: str, i: int) -> int:
        if not self.end_marker:
            return len(buf)
        at, marker = self.scan(_ENDS, buf, i)
        if marker is None:
            return at if at > i else HOLD
        return self.end_wrapper(marker, at)

"""`llama3-json`: `{"name": ..., "parameters": {...}}`, bare or after `<|python_tag|>`, several
separated by `;`.

The JSON tool calling of Llama 3.1, 3.2, 3.3 and 4. Sources: vLLM's
`examples/tool_chat_template_llama3.1_json.jinja` (the prompt asks to "Respond in the format
{"name": function name, "parameters": dictionary of argument name and its value}", and the
template writes earlier calls the same way) and `llama_tool_parser.py`, which also takes
`"arguments"` for `"parameters"`, an optional `<|python_tag|>` first, and several calls
separated by `;`.

Without a marker a call is told by where it stands: a `{` that is the first visible character
of the text (after blanks and a `<think>` block), or that follows a call (after `;` or
blanks), whose first key is `"name"`, `"parameters"`, `"arguments"` or `"type"`. Any other
`{` is text. The call's JSON object is read by `Envelope`; its closing `}` closes the call.
`<|eom_id|>` and `<|eot_id|>` (end-of-turn tokens a server may leave in the text) are
dropped. After a call that cannot be read, the text up to the next `<|python_tag|>` belongs
to it and is dropped.
"""

from __future__ import annotations

import re

from .envelope import Envelope
from .markers import Markers
from .reader import HOLD, TextReader, seen, skip_blanks

__all__ = ["Llama3JsonReader"]

TAG = "<|python_tag|>"
EOM = "<|eom_id|>"
EOT = "<|eot_id|>"
_OUTSIDE = Markers(TAG, EOM, EOT)
_STOP = Markers(TAG, EOM, EOT)
_CALL_KEYS = ("name", "parameters", "arguments", "type")
_FIRST_KEY = re.compile(r'\{\s{0,64}"([a-z]{1,10})"')  # (bounded: what waits is short)
_FIRST_KEY_CUT = re.compile(r'\{\s{0,64}(?:"[a-z]{0,10})?\Z')
_BLANKS_AFTER_SEMICOLON = 64


class Llama3JsonReader(TextReader):
    """Llama 3 / 4 JSON tool calls; see the module."""

    family = "llama3-json"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.state = self.start
        self.envelope: Envelope | None = None

    def in_call(self) -> bool:
        return self.call is not None or self.state in (self.body, self.tagged)

    def cut_message(self) -> str:
        return "the text ended before the call's closing '}'"

    def start(self, buf: str, i: int) -> int:
        """Before the first visible character: a `{` there may begin a call."""
        j = self.out.through_think(buf, i, self.final)
        if j != i:
            return j
        k = skip_blanks(buf, i)
        if k > i:
            self.text(buf[i:k])
            return k
        return self.maybe_call(buf, i, self.outside)

    def maybe_call(self, buf: str, i: int, otherwise: object) -> int:
        """`buf[i]` may begin a call: one if it is `{` and its first key is a call's."""
        c = buf[i]
        if c == "{":
            found = _FIRST_KEY.match(buf, i)
            if found is None and _FIRST_KEY_CUT.match(buf, i) and not self.final:
                return HOLD
            if found is not None and found.group(1) in _CALL_KEYS and self.take_marker():
                self.begin()
                return i
        self.state = otherwise  # type: ignore[assignment]
        return i

    def outside(self, buf: str, i: int) -> int:
        j, marker = self.prose(_OUTSIDE, buf, i)
        if marker == TAG:
            self.state = self.tagged
        # an end-of-turn token: markup, dropped
        return j

    def tagged(self, buf: str, i: int) -> int:
        """After `<|python_tag|>`: a call's JSON object."""
        k = skip_blanks(buf, i)
        if k > i:
            return k  # blanks are layout: read, never held
        if buf[i] != "{":
            return self.broken(f"expected '{{' after {TAG!r}, not {seen(buf, i)}", i)
        self.begin()
        return i

    def begin(self) -> None:
        self.envelope = Envelope(self, _STOP)
        self.state = self.body

    def body(self, buf: str, i: int) -> int:
        envelope = self.envelope
        assert envelope is not None
        return envelope.read_call(buf, i, self.after_call, None, self.broken)

    def after_call(self, buf: str, i: int) -> int:
        """After a call: `;` or blanks and another call, or text."""
        k = skip_blanks(buf, i)
        if k > i:
            self.text(buf[i:k])  # held as layout until text follows
            return k
        if buf[i] == ";":  # another call follows (after a few blanks at most), or it is text
            k = skip_blanks(buf, i + 1)
            near = k - i <= _BLANKS_AFTER_SEMICOLON
            if k == len(buf) and near and not self.final:
                return HOLD
            if k < len(buf) and near and buf[k] == "{":
                self.begin()
                return k
            self.state = self.outside
            return i
        return self.maybe_call(buf, i, self.outside)

    def broken(self, message: str, i: int) -> int:
        """The markup cannot be read at `buf[i]`: the call ends; the text up to the next
        `<|python_tag|>` is its rest, dropped."""
        self.fail_call(message, i)
        self.state = self.skip
        return i

    def skip(self, buf: str, i: int) -> int:
        at, marker = self.scan(_OUTSIDE, buf, i)
        if marker is None:
            return at if at > i else HOLD
        self.state = self.outside
        return at

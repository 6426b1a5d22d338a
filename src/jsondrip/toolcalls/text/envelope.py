"""A call written as one JSON object: `{"name": ..., "arguments": {...}}`, read as it arrives.

Hermes and Qwen (`<tool_call>{...}</tool_call>`), Llama 3 (`{"name": ..., "parameters":
...}`) and Mistral's older tokenizers (`[TOOL_CALLS][{...}, ...]`) write each call as a JSON
object whose keys name the tool, give its arguments and, for Mistral, its id. `Envelope`
reads that object key by key: the name and the id are JSON strings decoded whole; the
arguments' value is passed on as it arrives (its extent told by `JsonSpan`), for the call's
parser to read; other keys' values are skipped. The keys may come in any order: Hermes' own
chat template writes `"arguments"` before `"name"`, so arguments that arrive before the name
are kept until it comes (the call cannot be announced without its name), then passed on.

Anything that is not such an object (a missing colon, a name that is not a string, a second
`"arguments"`) is an error at its position; a marker outside strings cuts the object short.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable

from .json_span import ENDED, HELD, IN_STRING, MORE, STOPPED, JsonSpan, scan_string
from .markers import Markers
from .reader import HOLD, MAX_MARKUP

if TYPE_CHECKING:
    from .reader import TextReader

__all__ = ["DONE", "FAILED", "INVALID", "Envelope"]

DONE, FAILED, INVALID = 4, 5, 6
"""Besides `JsonSpan`'s MORE, STOPPED and HELD: the object closed; it cannot be read (`error`
says why); the call's parser found the arguments invalid at `j` (with `stop_on_invalid`)."""

_WS = " \t\r\n"
(_OPEN, _FIRST_KEY, _KEY_START, _KEY, _COLON, _VALUE, _STRING, _SPAN, _NEXT, _CLOSED) = range(10)
_VALUE_STARTS = frozenset('{["-0123456789tfn')


class Envelope:
    """One JSON object holding a call (see the module). `step` reads from `buf[i]`."""

    __slots__ = (
        "_escape",
        "_key",
        "_parts",
        "_size",
        "_span",
        "_state",
        "args_abs",
        "args_keys",
        "args_seen",
        "buffered",
        "error",
        "id_keys",
        "markers",
        "name_keys",
        "reader",
        "stop_on_invalid",
        "value",
    )

    def __init__(
        self,
        reader: TextReader,
        markers: Markers | None,
        *,
        name_keys: tuple[str, ...] = ("name",),
        args_keys: tuple[str, ...] = ("arguments", "parameters"),
        id_keys: tuple[str, ...] = (),
        stop_on_invalid: bool = False,
    ) -> None:
        self.reader = reader
        self.stop_on_invalid = stop_on_invalid
        self.markers = markers
        self.name_keys = name_keys
        self.args_keys = args_keys
        self.id_keys = id_keys
        self._state = _OPEN
        self._parts: list[str] = []  # a key's or a string value's text so far
        self._size = 0
        self._escape = False
        self._key = ""
        self._span: JsonSpan | None = None
        self.value = ""  # what the current value is: "name", "id", "args" or "skip"
        self.args_seen = False
        self.args_abs = -1  # the text position where the arguments' value began
        self.buffered: list[str] | None = None  # arguments read before the name
        self.error = ""

    @property
    def in_args(self) -> bool:
        """The arguments' value is being read."""
        return self._state == _SPAN and self.value == "args"

    @property
    def closed(self) -> bool:
        """The object's closing brace was read."""
        return self._state == _CLOSED

    def step(self, buf: str, i: int) -> tuple[int, int]:
        """Read from `buf[i]`: `(j, what)`, what being MORE (all read), HELD (wait at `j`),
        STOPPED (a marker at `j`), DONE (the object closed at `j`) or FAILED (`error` says
        why, at `j`)."""
        end = len(buf)
        reader = self.reader
        while i < end:
            state = self._state
            if state == _SPAN:
                span = self._span
                j, what = span.scan(reader, buf, i)  # type: ignore[union-attr]
                if self.value == "args" and j > i:
                    self._args(buf[i:j])
                    if self.stop_on_invalid and reader.call is not None:
                        reader.flush_args()
                        at = self.args_error_at()
                        if at is not None:
                            # The parser raises in the piece holding the first character
                            # that proves the JSON wrong; between the position it names and
                            # that character stand only a literal's, number's or escape's
                            # characters, never markup: from this piece on is the same.
                            return max(at - reader.base, i), INVALID
                if what == ENDED:
                    self._state = _NEXT
                    i = j
                    continue
                if what == IN_STRING:  # the JSON before it held: the marker is text
                    span.content_at = reader.position(j)  # type: ignore[union-attr]
                    i = j
                    continue
                return j, what
            if state == _STRING:
                j, closed, self._escape = scan_string(buf, i, self._escape)
                if not self._collect(buf[i : j - 1 if closed else j]):
                    return self._fail(f"the {self._key!r} value is too long", i)
                if not closed:
                    return end, MORE
                i = j
                if not self._string_done(i):
                    return i - 1, FAILED
                self._state = _NEXT
                continue
            if state == _KEY:
                j, closed, self._escape = scan_string(buf, i, self._escape)
                if not self._collect(buf[i : j - 1 if closed else j]):
                    return self._fail("a key is too long", i)
                if not closed:
                    return end, MORE
                i = j
                try:
                    self._key = json.loads('"' + "".join(self._parts) + '"')
                except ValueError:
                    return self._fail("a key is not a valid JSON string", i - 1)
                self._state = _COLON
                continue
            c = buf[i]
            if c in _WS:
                i += 1
                continue
            markers = self.markers
            if markers is not None and c in markers.firsts:
                marker = reader.at(markers, buf, i)
                if marker:
                    return i, STOPPED
                if marker == "":
                    return i, HELD
            if state == _OPEN:
                if c != "{":
                    return self._fail(f"expected '{{', not {c!r}", i)
                self._state = _FIRST_KEY
            elif state in (_FIRST_KEY, _KEY_START):
                if c == '"':
                    self._parts.clear()
                    self._size = 0
                    self._state = _KEY
                elif c == "}" and state == _FIRST_KEY:
                    self._state = _CLOSED
                    return i + 1, DONE
                else:
                    return self._fail(f"expected a key in double quotes, not {c!r}", i)
            elif state == _COLON:
                if c != ":":
                    return self._fail(f"expected ':' after the key, not {c!r}", i)
                self._state = _VALUE
            elif state == _VALUE:
                if c not in _VALUE_STARTS:
                    return self._fail(f"expected a value, not {c!r}", i)
                failed = self._begin_value(c, i)
                if failed:
                    return self._fail(failed, i)
                if self._state == _STRING:
                    i += 1
                continue  # the span reads from this very character
            elif state == _NEXT:
                if c == ",":
                    self._state = _KEY_START
                elif c == "}":
                    self._state = _CLOSED
                    return i + 1, DONE
                else:
                    return self._fail(f"expected ',' or '}}' after a value, not {c!r}", i)
            else:  # _CLOSED
                return i, DONE
            i += 1
        return end, MORE

    def read_call(
        self,
        buf: str,
        i: int,
        after: Callable[[str, int], int],
        stopper: str | None,
        broken: Callable[[str, int], int],
    ) -> int:
        """One step of its reader's state that reads this object as a whole call: a reader
        state's return value. A closed object closes the call and goes on at `after`; one that
        cannot be read goes to the reader's `broken(message, i)`; one cut by a stop marker
        (named `stopper` in the error; None: the text where it stopped) closes the call if
        its arguments were being read (their parser decides), else fails it, and goes back
        to `outside`."""
        reader = self.reader
        j, what = self.step(buf, i)
        if what == MORE:
            return j
        if what == HELD:
            return j if j > i else HOLD
        if what == DONE:
            if reader.call is None:
                return broken("the call's JSON has no name", j - 1)
            reader.close_call()
            reader.state = after
            return j
        if what == FAILED:
            return broken(self.error, j)
        # STOPPED: a marker cut the call's JSON
        if reader.call is not None and self.in_args:
            reader.close_call()
        else:
            what_came = repr(buf[j : j + 14]) if stopper is None else stopper
            reader.fail_call(f"{what_came} came before the call's closing '}}'", j)
        reader.state = reader.outside
        return j

    def _begin_value(self, c: str, i: int) -> str:
        """The value of `_key` starts with `c` at `buf[i]`; an error message, or ""."""
        key = self._key
        if key in self.name_keys or key in self.id_keys:
            if c != '"':
                return f"the {key!r} value must be a string"
            self.value = "name" if key in self.name_keys else "id"
            self._parts.clear()
            self._size = 0
            self._state = _STRING
            return ""
        if key in self.args_keys:
            if self.args_seen:
                return f"a second arguments key {key!r}"
            self.args_seen = True
            self.value = "args"
            self.args_abs = self.reader.position(i)
        else:
            self.value = "skip"
        self._span = JsonSpan(self.markers, self.stop_on_invalid and self.value == "args")
        self._state = _SPAN
        return ""

    def _collect(self, piece: str) -> bool:
        self._size += len(piece)
        if self._size > MAX_MARKUP:
            return False
        if piece:
            self._parts.append(piece)
        return True

    def _string_done(self, i: int) -> bool:
        """A name or id string closed (its closing quote at `buf[i - 1]`)."""
        try:
            value = json.loads('"' + "".join(self._parts) + '"')
        except ValueError:
            self.error = f"the {self._key!r} value is not a valid JSON string"
            return False
        reader = self.reader
        if self.value == "id":
            if reader.call is not None:
                reader.call.id = value
            else:
                reader.pending_id = value
            return True
        if reader.call is not None:
            self.error = f"a second name {self._key!r}"
            return False
        reader.start_call(value, reader.pending_id)
        if self.buffered is not None:
            for piece in self.buffered:
                reader.write(piece)
            self.buffered = None
            reader.flush_args()
        return True

    def _args(self, piece: str) -> None:
        reader = self.reader
        if reader.call is None:
            if self.buffered is None:
                self.buffered = []
            self.buffered.append(piece)
        else:
            reader.write(piece)

    def _fail(self, message: str, i: int) -> tuple[int, int]:
        self.error = message
        return i, FAILED

    def args_error_at(self) -> int | None:
        """The text position where the call's parser found the arguments invalid, if it
        did (the arguments' raw text is the value's text, from `args_abs`)."""
        call = self.reader.call
        if call is None or call.error_at is None or self.args_abs < 0:
            return None
        return self.args_abs + call.error_at

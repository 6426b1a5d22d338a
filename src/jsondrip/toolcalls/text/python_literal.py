"""Python literals to JSON text, as they arrive: the values of pythonic tool calls.

`get_weather(city="Paris", days=3)` gives its keyword values as Python literals. `PyLiteral`
turns one such value into the JSON text `json.dumps` would write for what `ast.literal_eval`
reads, a few characters at a time, so that the call's parser previews it live:

- strings in `'` or `"` quotes, or tripled: their escapes (`\\n`, `\\x41`, `\\u00e9`,
  `\\N{BULLET}`, octal, line continuations; an unknown escape keeps its backslash) decoded,
  the text written as it arrives, a cut escape held until it is whole;
- `True`/`False`/`None` (and `true`/`false`/`null`, which OLMo writes), and numbers in
  Python's spellings (`1_000`, `0x1F`, `.5`, `1e-3`), written once whole;
- lists and tuples become arrays, dicts objects (keys that are numbers, booleans or None are
  written as `json.dumps` writes them: `"1"`, `"true"`, `"null"`); a trailing comma is fine.
  `(x)` without a comma is `x`, as in Python: a tuple's text waits until its first comma.

Anything else (a name, a call, an expression, a set, a bytes or f-string) is an error at its
position. Raw line breaks inside `'...'` are taken as they are (models write them).
"""

from __future__ import annotations

import ast
import json
import math
import re
import unicodedata
from typing import Callable

__all__ = ["DONE", "FAILED", "HELD", "MORE", "PyLiteral"]

MORE, DONE, HELD, FAILED = range(4)
"""What `PyLiteral.feed` found: the value goes on past the text; it ended before `j`; a cut
quote or escape starts at `j` (wait); it cannot be read (`error` says why, at `j`)."""

_WS = " \t\r\n"
_VALUE, _AFTER = range(2)
_STRING_STOPS = {q: re.compile(r"[\\" + q + "]") for q in ("'", '"')}
_SIMPLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\n": "",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_NAMES = {"True": "true", "False": "false", "None": "null"}
_NAMES.update({"true": "true", "false": "false", "null": "null"})
_CLOSERS = {"]": "list", ")": "tuple", "}": "dict"}


def escape(text: str) -> str:
    """`text` as the inside of a JSON string."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


class _Frame:
    """An open list, tuple or dict."""

    __slots__ = ("count", "decided", "kind", "phase")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.count = 0  # elements started
        self.decided = kind != "tuple"  # a tuple is one until its first comma
        self.phase = "key"  # a dict's next part: "key", "colon", "value" or "next"


class PyLiteral:
    """One Python literal value read as it arrives; see the module."""

    __slots__ = (
        "_escape_at",
        "_quote",
        "_sinks",
        "_stack",
        "_token",
        "_write",
        "error",
        "expect",
    )

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._sinks: list[list[str]] = []  # text kept back: undecided tuples, dict keys
        self._stack: list[_Frame] = []
        self._token: list[str] = []  # a number or name being read
        self._quote = ""  # inside a string: its quote (one character or three)
        self._escape_at = False
        self.expect = _VALUE
        self.error = ""

    def _emit(self, text: str) -> None:
        if self._sinks:
            self._sinks[-1].append(text)
        else:
            self._write(text)

    def feed(self, buf: str, i: int, final: bool = False) -> tuple[int, int]:
        """Read from `buf[i]`: `(j, what)`, `what` being MORE, DONE (the value ended just
        before `buf[j]`), HELD or FAILED."""
        end = len(buf)
        while i < end:
            if self._quote:
                i, what = self._string(buf, i, final)
                if what != DONE:
                    return i, what
                if self._value_done():
                    return i, DONE
                continue
            if self._token:
                j = self._token_end(buf, i)
                self._token.append(buf[i:j])
                if j == end and not final:
                    return end, MORE
                failed = self._end_token()
                if failed:
                    return self._fail(failed, j)
                i = j
                if self._value_done():
                    return i, DONE
                continue
            c = buf[i]
            if c in _WS:
                i += 1
                continue
            if self.expect == _AFTER:
                i, what = self._after(c, i)
                if what == DONE:
                    return i, DONE
                if what == FAILED:
                    return i, FAILED
                continue
            # a value, or the end of an empty container or of one after a trailing comma
            if self._stack and c in _CLOSERS:
                i, what = self._close(c, i)
                if what != MORE:
                    return i, what
                continue
            i, what = self._value(buf, i, final)
            if what != MORE:
                return i, what
        return end, MORE

    # -- values -----------------------------------------------------------------------------

    def _begin_element(self) -> None:
        """A value starts inside the innermost container: a comma before it if needed."""
        frame = self._stack[-1] if self._stack else None
        if frame is None:
            return
        if frame.kind == "dict" and frame.phase == "value":
            return
        if frame.count:
            self._emit(", ")
        frame.count += 1
        if frame.kind == "dict":
            self._sinks.append([])  # the key is written once whole, at its colon

    def _value(self, buf: str, i: int, final: bool) -> tuple[int, int]:
        c = buf[i]
        frame = self._stack[-1] if self._stack else None
        if c == "'" or c == '"':
            run = 0
            while i + run < len(buf) and buf[i + run] == c and run < 3:
                run += 1
            if run < 3 and i + run == len(buf) and not final:
                return i, HELD  # `'` or `''` at the end: may open a triple-quoted string
            self._begin_element()
            if run == 3:
                self._quote = c * 3
                i += 3
            else:
                self._quote = c
                i += 1
            self._emit('"')
            return i, MORE
        if frame is not None and frame.kind == "dict" and frame.phase == "key" and c in "[({":
            return self._fail("a dict key must be a string, number, boolean or None", i)
        if c == "[":
            self._begin_element()
            self._emit("[")
            self._stack.append(_Frame("list"))
            return i + 1, MORE
        if c == "(":
            self._begin_element()
            self._stack.append(_Frame("tuple"))
            self._sinks.append([])
            return i + 1, MORE
        if c == "{":
            self._begin_element()
            self._emit("{")
            self._stack.append(_Frame("dict"))
            return i + 1, MORE
        if c.isdigit() or c in "+-." or c.isalpha() or c == "_":
            self._begin_element()
            self._token.append(c)
            return i + 1, MORE
        return self._fail(f"expected a Python literal, not {c!r}", i)

    def _token_end(self, buf: str, i: int) -> int:
        end = len(buf)
        last = self._token[-1][-1] if self._token and self._token[-1] else ""
        while i < end:
            c = buf[i]
            if c.isalnum() or c == "_" or c == "." or (c in "+-" and last in "eE"):
                last = c
                i += 1
            else:
                break
        return i

    def _end_token(self) -> str:
        """The number or name read whole: its JSON, or an error message."""
        token = "".join(self._token)
        self._token.clear()
        head = token.lstrip("+-")
        if head[:1].isalpha() or head[:1] == "_":
            word = _NAMES.get(token)
            if word is None:
                return f"{token!r} is not a Python literal"
            self._emit(word)
            return ""
        try:
            value = ast.literal_eval(token)
            if type(value) is int:
                text = str(value)
            elif type(value) is float and math.isfinite(value):
                text = repr(value)
            else:
                return f"{token!r} is not a JSON number"
        except (ValueError, SyntaxError, TypeError, MemoryError):
            return f"{token!r} is not a number"
        self._emit(text)
        return ""

    def _value_done(self) -> bool:
        """A value ended: True if it was the whole literal."""
        if not self._stack:
            return True
        frame = self._stack[-1]
        if frame.kind == "dict":
            frame.phase = "colon" if frame.phase == "key" else "next"
        self.expect = _AFTER
        return False

    def _after(self, c: str, i: int) -> tuple[int, int]:
        frame = self._stack[-1]
        if frame.kind == "dict" and frame.phase == "colon":
            if c != ":":
                message = "a set is not JSON" if c in ",}" else f"expected ':', not {c!r}"
                return self._fail(message, i)
            text = "".join(self._sinks.pop())
            try:
                key = json.loads(text)
            except ValueError:  # pragma: no cover - the key was written as JSON
                return self._fail("a dict key that JSON cannot hold", i)
            name = key if type(key) is str else json.dumps(key)
            self._emit(json.dumps(name, ensure_ascii=False) + ": ")
            frame.phase = "value"
            self.expect = _VALUE
            return i + 1, MORE
        if c == ",":
            if not frame.decided:  # `(x,`: a tuple after all
                frame.decided = True
                kept = "".join(self._sinks.pop())
                self._emit("[" + kept)
            if frame.kind == "dict":
                frame.phase = "key"
            self.expect = _VALUE
            return i + 1, MORE
        if c in _CLOSERS:
            return self._close(c, i)
        return self._fail(f"expected ',' or a closing bracket, not {c!r}", i)

    def _close(self, c: str, i: int) -> tuple[int, int]:
        frame = self._stack[-1]
        if _CLOSERS[c] != frame.kind:
            return self._fail(f"{c!r} does not close the {frame.kind}", i)
        if frame.kind == "dict" and frame.phase not in ("key", "next"):
            return self._fail("a dict key without its value", i)
        self._stack.pop()
        if frame.kind == "tuple" and not frame.decided:
            kept = "".join(self._sinks.pop())
            # `()` is an empty tuple; `(x)` is x
            self._emit("[]" if frame.count == 0 else kept)
        else:
            self._emit({"list": "]", "tuple": "]", "dict": "}"}[frame.kind])
        if self._value_done():
            return i + 1, DONE
        return i + 1, MORE

    # -- strings ----------------------------------------------------------------------------

    def _string(self, buf: str, i: int, final: bool) -> tuple[int, int]:
        quote = self._quote
        q = quote[0]
        stops = _STRING_STOPS[q]
        end = len(buf)
        while i < end:
            found = stops.search(buf, i)
            if found is None:
                self._emit(escape(buf[i:]))
                return end, MORE
            k = found.start()
            if k > i:
                self._emit(escape(buf[i:k]))
            if buf[k] == "\\":
                decoded = _python_escape(buf, k, final)
                if decoded is None:
                    return k, HELD
                if isinstance(decoded, str):  # an error message
                    return self._fail(decoded, k)
                text, length = decoded
                if text:
                    self._emit(escape(text))
                i = k + length
                continue
            if len(quote) == 1:
                self._emit('"')
                self._quote = ""
                return k + 1, DONE
            run = 0
            while k + run < end and buf[k + run] == q and run < 3:
                run += 1
            if run == 3:
                self._emit('"')
                self._quote = ""
                return k + 3, DONE
            if k + run == end and not final:
                return k, HELD  # `'` or `''` at the end: may be the closing quotes
            self._emit(escape(buf[k : k + run]))
            i = k + run
        return end, MORE

    def _fail(self, message: str, i: int) -> tuple[int, int]:
        self.error = message
        return i, FAILED


def _python_escape(buf: str, k: int, final: bool) -> tuple[str, int] | str | None:
    """The escape at `buf[k]` (a backslash): `(text, length)`, an error message, or None
    when it is cut (wait for more text)."""
    end = len(buf)
    if k + 1 >= end:
        return "a backslash at the end of the text" if final else None
    c = buf[k + 1]
    simple = _SIMPLE_ESCAPES.get(c)
    if simple is not None:
        return simple, 2
    if c == "\r":  # a line continuation written with CRLF
        if k + 2 < end:
            return "", 3 if buf[k + 2] == "\n" else 2
        return ("", 2) if final else None
    if c in "01234567":
        j = k + 1
        while j < end and j < k + 4 and buf[j] in "01234567":
            j += 1
        if j == end and j < k + 4 and not final:
            return None
        return chr(int(buf[k + 1 : j], 8)), j - k
    width = _HEX_ESCAPES.get(c)
    if width is not None:
        digits = buf[k + 2 : k + 2 + width]
        if len(digits) < width and not final and all(d in "0123456789abcdefABCDEF" for d in digits):
            return None
        if len(digits) < width or not all(d in "0123456789abcdefABCDEF" for d in digits):
            return f"a truncated \\{c} escape"
        code = int(digits, 16)
        if code > 0x10FFFF:
            return f"the \\{c} escape {digits} is past U+10FFFF"
        return chr(code), 2 + width
    if c == "N":
        close = buf.find("}", k + 2, k + 102)
        if close < 0:
            if end - k < 102 and not final:
                return None
            return "a malformed \\N{...} escape"
        if buf[k + 2 : k + 3] != "{":
            return "a malformed \\N{...} escape"
        try:
            return unicodedata.lookup(buf[k + 3 : close]), close + 1 - k
        except KeyError:
            return f"unknown Unicode character name {buf[k + 3 : close]!r}"
    return "\\" + c, 2  # an unknown escape keeps its backslash, as Python does

"""One JSON value found in a model's text: a candidate until it is proven, then the document.

A `Candidate` owns the parser that reads the value, the text it read while it was not proven
(prose again if it is abandoned), the changes it made meanwhile (handed out once it is
proven), and the part of the proof rule that looks at the value itself (docs/output.md,
"Finding the document"): a `{` or `[` where a document is expected is proven by its first
character; any other candidate once its value shows an object member (`{"city": "P`), or is
an array whose first element does. What follows a complete value (the end of the text, a
closing fence, a line break) is the reader's to judge (wrapper.py).
"""

from __future__ import annotations

from typing import Any, Callable

from .._changes import Change
from .._dialect import PYPY_DECODER
from .._errors import JSONDecodeError
from .._missing import MISSING
from ..schema.violation import SchemaViolation

__all__ = ["BLANKS", "Candidate", "Failure", "shows_member"]

BLANKS = " \t\r\n"


def shows_member(value: Any) -> bool:
    """The proof rule on a value: an object with a member, or an array whose first element
    is one (what prose practically never is: `{"city": "P`, `[{"id": 1`)."""
    if type(value) is dict:
        return bool(value)
    if type(value) is list and value:
        first = value[0]
        return type(first) is dict and bool(first)
    return False


class Failure(Exception):
    """The text ruled the value out: `error` (a `JSONDecodeError` or `SchemaViolation`,
    positioned from the value's start), at index `offset` of the piece being read; `proven`
    says whether the value had been proven before that character."""

    def __init__(self, error: JSONDecodeError | SchemaViolation, offset: int, proven: bool):
        super().__init__(str(error))
        self.error = error
        self.offset = offset
        self.proven = proven


class Candidate:
    """A value being read, from character `start` of the text (line `line`, whose first
    character is at `line_start`).

    `factory(schema)` makes the engine that reads it (`None`: a plain one), made to stop at
    the end of its document (`Engine.end`): the text after the value is never fed to it.
    """

    __slots__ = (
        "_buffered",
        "_factory",
        "_fed_bytes",
        "_kept",
        "answer",
        "closed",
        "complete",
        "ended",
        "fed",
        "first",
        "index",
        "line",
        "line_start",
        "newline",
        "parser",
        "proven",
        "start",
    )

    def __init__(
        self,
        start: int,
        line: int,
        line_start: int,
        *,
        answer: bool,
        first: str,
        factory: Callable[[Any], Any],
        schema: Any,
    ) -> None:
        self.start = start
        self.line = line
        self.line_start = line_start
        self.answer = answer  # began where a document is expected (an answer start)
        self.first = first  # its first character
        self.proven = False
        self.index = -1  # its place among the documents, once proven
        self.complete = False  # the value is whole (only blanks read after it)
        self.newline = False  # a line break among the blanks read after it
        self.closed = False
        self.fed = 0  # characters given to the parser
        self._fed_bytes = 0  # the same in UTF-8 bytes (PyPy's json counts positions in bytes)
        self._factory = factory
        self.parser = factory(schema)  # the engine
        self.ended: Any = None  # the engine's `end`, once the value ended: (pos, line, column)
        self._kept: list[str] = []  # the text read while not proven
        self._buffered: list[Change] = []  # the changes made while not proven

    @property
    def immediate(self) -> bool:
        """Proven by its first character: a `{` or `[` where a document is expected."""
        return self.answer and self.first in "{["

    # -- reading --------------------------------------------------------------------------

    def feed(self, text: str, changes: bool) -> tuple[int | None, list[Change]]:
        """Read `text`: the index in it where the value ended (the first character after it
        that is not a blank; None when it read all of it), and the changes that may be handed
        out (none while the value is not proven). Raises `Failure`."""
        try:
            stop, made = self._read(text, changes)
        except (JSONDecodeError, SchemaViolation) as error:
            offset = self.offset_of(error, text)
            self.fed_text(text[:offset])
            raise Failure(error, offset, self._proven_by(offset)) from None
        read = text if stop is None else text[:stop]
        self.fed_text(read)
        if stop is not None or self.parser.done:
            # the blanks after the value: all of what was read once it was complete already
            blanks = read if self.complete else read[len(read.rstrip(BLANKS)) :]
            self.complete = True
            if "\n" in blanks:
                self.newline = True
        if self.proven:
            return stop, made
        self._buffered += made
        if (self.immediate and self.fed) or shows_member(self.parser.value):
            return stop, self.prove()
        return stop, []

    def _read(self, text: str, changes: bool) -> tuple[int | None, list[Change]]:
        """Feed the engine `text`; where in it the value ended (None: not in it)."""
        engine = self.parser
        if changes:
            made = engine.feed_changes(text)
        else:
            engine.feed(text)
            made = []
        end = engine.end
        if end is None:
            return None, made
        self.ended = end
        return end[0] - self.fed, made

    def fed_text(self, text: str) -> None:
        """Count text the parser read (and keep it while the value is not proven)."""
        self.fed += len(text)
        if PYPY_DECODER:
            self._fed_bytes += len(text.encode("utf-8", "surrogatepass"))
        if not self.proven:
            self._kept.append(text)

    def offset_of(self, error: JSONDecodeError | SchemaViolation, text: str) -> int:
        """The index in `text` (the piece being read) of an error's position (past its end
        when the error lies after it)."""
        pos = error.pos
        if isinstance(error, SchemaViolation):
            return min(max(pos - self.fed, 0), len(text))
        if not PYPY_DECODER:
            return max(pos - self.fed, 0)
        raw = text.encode("utf-8", "surrogatepass")
        at = max(pos - self._fed_bytes, 0)
        if at > len(raw):
            return len(text) + 1
        return len(raw[:at].decode("utf-8", "surrogatepass"))

    # -- proof ------------------------------------------------------------------------------

    def prove(self) -> list[Change]:
        """It is the document now: its kept text is dropped, its changes so far handed out."""
        self.proven = True
        self._kept = []
        made, self._buffered = self._buffered, []
        return made

    def _proven_by(self, offset: int) -> bool:
        """Whether the value was proven by its text before the failing character (kept text
        up to it), replayed into a plain parser: the answer does not depend on how the text
        was cut into pieces."""
        if self.proven:
            return True
        if self.immediate:
            return self.fed > 0
        replay = self._factory(None)
        try:
            replay.feed("".join(self._kept))
        except JSONDecodeError:  # pragma: no cover - the text before the failure was valid
            return False
        return shows_member(replay.value)

    def kept_text(self) -> str:
        """The text read while the value was not proven."""
        return "".join(self._kept)

    def close(self) -> list[Change]:
        """End the value: its parser's last checks (raises `IncompleteJSONError` if it is cut
        short, `SchemaViolation` if the complete value breaks the schema), and the changes
        completing it made (a top-level number), handed out if it is proven."""
        if self.closed:
            return []
        self.closed = True
        made = self.parser.close_changes()
        self.complete = True
        if self.proven:
            return made  # type: ignore[no-any-return]
        self._buffered += made
        return []

    @property
    def value(self) -> Any:
        """The value so far, once proven (`MISSING` before)."""
        return self.parser.value if self.proven else MISSING

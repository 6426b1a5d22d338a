"""JSONDecodeError and IncompleteJSONError: the standard library's error, positioned in a stream."""

from __future__ import annotations

import json

DOC_WINDOW = 1024
"""A streaming parser's error keeps at most this many characters either side of its position
in `doc`, and of the fragment before the one it reads (rust/core/error.rs has the same)."""


class JSONDecodeError(json.JSONDecodeError):
    """Invalid or incomplete JSON, at a position counted in characters from the stream's start.

    A subclass of `json.JSONDecodeError`, so `except json.JSONDecodeError` keeps working;
    `msg`, `pos`, `lineno` and `colno` are what `json.loads` gives for the same text. `doc` is
    the text the position refers to: the whole document for `loads`; for a streaming parser,
    which does not keep what it has read, the text around the position that it still has (at
    most `DOC_WINDOW` characters either side, from the fragment being read and the one before
    it: see docs/semantics.md), and `doc_start` is the stream position
    of `doc[0]` (0 when `doc` is the whole text), so the character at fault is
    `doc[pos - doc_start]`.
    """

    def __init__(
        self,
        msg: str,
        doc: str,
        pos: int,
        lineno: int | None = None,
        colno: int | None = None,
        doc_start: int = 0,
    ) -> None:
        super().__init__(msg, doc, pos)
        self.doc_start = doc_start
        if lineno is not None and colno is not None:
            self.lineno = lineno
            self.colno = colno
            self.args = (f"{msg}: line {lineno} column {colno} (char {pos})",)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return type(self), (self.msg, self.doc, self.pos, self.lineno, self.colno, self.doc_start)


class IncompleteJSONError(JSONDecodeError):
    """The text is a valid start of a JSON document that ended too early (cut off, not broken).

    Raised by `Parser.close()`, `parse_partial(..., final=True)` and `loads` exactly when the
    text so far could still be completed into a valid document. `msg`, `pos`, `lineno` and
    `colno` stay json's (for `loads`, `str(e)` too); `expected` says what would have continued
    the text (e.g. `"',' or ']'"`), and a streaming parser's `str(e)` begins "Unexpected end of
    document".
    """

    def __init__(
        self,
        msg: str,
        doc: str,
        pos: int,
        lineno: int | None = None,
        colno: int | None = None,
        doc_start: int = 0,
        expected: str = "",
        json_text: bool = False,
    ) -> None:
        super().__init__(msg, doc, pos, lineno, colno, doc_start)
        self.expected = expected
        self.json_text = json_text
        if not json_text:
            where = f"line {self.lineno} column {self.colno} (char {pos})"
            self.args = (f"Unexpected end of document, expecting {expected}: {where}",)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return type(self), (
            self.msg,
            self.doc,
            self.pos,
            self.lineno,
            self.colno,
            self.doc_start,
            self.expected,
            self.json_text,
        )

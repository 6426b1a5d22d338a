"""JSONDecodeError: the standard library's error, positioned in a stream."""

from __future__ import annotations

import json


class JSONDecodeError(json.JSONDecodeError):
    """Invalid or incomplete JSON, at a position counted in characters from the stream's start.

    A subclass of `json.JSONDecodeError`, so `except json.JSONDecodeError` keeps working. A
    streaming parser does not keep the text it has consumed, so `lineno` and `colno` are
    counted as the text goes by, and `doc` is empty (one-shot calls may fill it).
    """

    def __init__(
        self,
        msg: str,
        doc: str,
        pos: int,
        lineno: int | None = None,
        colno: int | None = None,
    ) -> None:
        super().__init__(msg, doc, pos)
        if lineno is not None and colno is not None:
            self.lineno = lineno
            self.colno = colno
            self.args = (f"{msg}: line {lineno} column {colno} (char {pos})",)

    def __reduce__(self) -> tuple[type, tuple[str, str, int, int, int]]:
        return type(self), (self.msg, self.doc, self.pos, self.lineno, self.colno)

"""`SchemaViolation`: the JSON is fine, its meaning is not."""

from __future__ import annotations


class SchemaViolation(ValueError):
    """The text received cannot be completed into a document that the schema accepts.

    A `ValueError`, not a `JSONDecodeError`. `path` is the JSON Pointer of the offending
    value, `pos` the character position in the stream where the violation became certain,
    `keyword` the schema keyword that rules it out, `message` the human message (also the
    exception's text), e.g. `/units/0: 'kelvin' is not one of 'C', 'F'`.
    """

    def __init__(self, message: str, *, path: str, pos: int, keyword: str) -> None:
        super().__init__(message, path, pos, keyword)
        self.message = message
        self.path = path
        self.pos = pos
        self.keyword = keyword

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return _rebuild, (self.message, self.path, self.pos, self.keyword)


def _rebuild(message: str, path: str, pos: int, keyword: str) -> SchemaViolation:
    return SchemaViolation(message, path=path, pos=pos, keyword=keyword)

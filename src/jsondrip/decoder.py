"""`jsondrip.decoder`: the standard library's `json.decoder`, raising jsondrip's error.

For `import jsondrip as json`: `json.decoder.JSONDecodeError` is `jsondrip.JSONDecodeError`
(what `jsondrip.loads` raises; a subclass of the standard library's), and `JSONDecoder` is the
standard library's decoder with its errors raised as that class, so that one `except` catches
both. Every other name (`scanstring`, `JSONObject`, `WHITESPACE`...) is json.decoder's own.
"""

from __future__ import annotations

import json
import json.decoder as _stdlib

from ._errors import JSONDecodeError
from ._stdlib_names import forwarding

TYPE_CHECKING = False  # `typing` is not imported at run time: see docs/architecture.md
if TYPE_CHECKING:
    from typing import Any

__all__ = ["JSONDecodeError", "JSONDecoder"]


def _ours(error: json.JSONDecodeError) -> JSONDecodeError:
    """The same error as `jsondrip.JSONDecodeError` (msg, doc and pos kept)."""
    if isinstance(error, JSONDecodeError):
        return error
    return JSONDecodeError(error.msg, error.doc, error.pos)


class JSONDecoder(_stdlib.JSONDecoder):
    """`json.JSONDecoder`, the same in every option and value; its errors are
    `jsondrip.JSONDecodeError` (still a `json.JSONDecodeError`)."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        """The value of the document `s`, as `json.JSONDecoder.decode` gives it."""
        try:
            return super().decode(s, *args, **kwargs)
        except _stdlib.JSONDecodeError as error:
            raise _ours(error) from None

    def raw_decode(self, s: str, *args: Any, **kwargs: Any) -> tuple[Any, int]:
        """The value of the document starting at `idx` and where it ends, as
        `json.JSONDecoder.raw_decode` gives them."""
        try:
            return super().raw_decode(s, *args, **kwargs)
        except _stdlib.JSONDecodeError as error:
            raise _ours(error) from None


__getattr__, __dir__, _ = forwarding(__name__, _stdlib, globals())

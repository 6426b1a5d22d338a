"""`jsondrip.encoder`: the standard library's `json.encoder`, for `import jsondrip as json`.

jsondrip has nothing better here: every name (`JSONEncoder`, `encode_basestring_ascii`,
`INFINITY`...) is json.encoder's own object.
"""

import json.encoder as _stdlib

from ._stdlib_names import forwarding

__getattr__, __dir__, __all__ = forwarding(__name__, _stdlib, globals())

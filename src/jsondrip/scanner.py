"""`jsondrip.scanner`: the standard library's `json.scanner`, for `import jsondrip as json`.

jsondrip has nothing better here: every name (`make_scanner`,
`NUMBER_RE`...) is json.scanner's own object.
"""

import json.scanner as _stdlib

from ._stdlib_names import forwarding

__getattr__, __dir__, __all__ = forwarding(__name__, _stdlib, globals())

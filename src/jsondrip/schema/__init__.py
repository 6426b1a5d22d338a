"""Schema-aware streaming: check a JSON stream against a JSON Schema while it arrives.

Above the parser, beside toolcalls/: `Schema` compiles a schema (compile.py, nodes.py),
`Guard` runs the check of one stream (guard.py) by lexing the text the parser accepted
(scanner.py) into the incremental checker (checker.py); progress.py is the typed view.
"""

from .compile import UnsupportedSchema
from .progress import Progress
from .schema import Schema
from .violation import SchemaViolation

__all__ = ["Progress", "Schema", "SchemaViolation", "UnsupportedSchema"]

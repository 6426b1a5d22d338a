"""Schema-aware streaming: check a JSON stream against a JSON Schema while it arrives.

Above the parser, beside toolcalls/: `Schema` compiles a schema (compile.py, nodes.py),
the check itself runs in the core (rust/core/schema, fed the node table of table.py) or in
its twin (jsondrip/twin/schema); complete.py holds the keywords both settle in Python, and
progress.py is the typed view.
"""

from .compile import UnsupportedSchema
from .progress import Progress
from .schema import Schema
from .violation import SchemaViolation

__all__ = ["Progress", "Schema", "SchemaViolation", "UnsupportedSchema"]

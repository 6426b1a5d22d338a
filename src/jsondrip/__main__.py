"""`python -m jsondrip`: the command line (see `jsondrip.cli`); with no arguments, the demo."""

from .cli import main

raise SystemExit(main())

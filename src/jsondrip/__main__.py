"""`python -m jsondrip`: watch tool-call arguments being parsed, fragment by fragment.

A short live demo until the full command-line previewer exists: it replays the arguments of a
tool call in small fragments, as a model streams them, and prints the value after each one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from . import MISSING, Parser

ARGUMENTS = (
    '{"path": "src/app.py", "title": "修复解析器 🐛", "replace": [{"line": 12, '
    '"old": "print(\\"hi\\")", "new": "log.info(\\"héllo\\\\n\\")"}], "dry_run": false, '
    '"confidence": 0.92}'
)


def fragments(text: str, size: int) -> list[str]:
    """Cut text into pieces of `size` characters, as a model's deltas arrive."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def main(argv: list[str] | None = None) -> int:
    """Replay the demo stream and print each fragment with the value it produced."""
    options = argparse.ArgumentParser(prog="python -m jsondrip", description=__doc__)
    options.add_argument("--speed", type=float, default=1.0, help="pace (0: no pauses)")
    options.add_argument("--size", type=int, default=7, help="characters per fragment")
    args = options.parse_args(argv)
    parser = Parser()
    print(f"backend: {parser.backend}")
    for piece in fragments(ARGUMENTS, max(args.size, 1)):
        value = parser.feed(piece)
        shown = "MISSING" if value is MISSING else json.dumps(value, ensure_ascii=False)
        print(f"{piece!r:>14}  ->  {shown}")
        if args.speed > 0:
            time.sleep(0.05 / args.speed)
    final = parser.close()
    print("final:", json.dumps(final, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Structured output: the JSON document a model writes in its text (`OutputParser`).

- `parser.py`: `OutputParser`, the public face: values, changes, typed partials, errors;
- `reader.py`: `TextReader`, the text around the JSON (prose, reasoning blocks, fences);
- `document.py`: `Candidate`, one value being read, and the proof that it is the document.
"""

from .parser import OutputParser

__all__ = ["OutputParser"]

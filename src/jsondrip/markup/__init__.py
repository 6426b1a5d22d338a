"""The markup models wrap around JSON in their text, read as it streams, cut anywhere.

Shared by the tool-call accumulator (a fence around arguments, `<think>` blocks in a
response's text) and the structured-output reader (`jsondrip.OutputParser`):

- `fences.py`: `FenceStripper`, a markdown code fence around one streamed document;
- `think.py`: `ThinkSplitter`, reasoning blocks (`<think>...</think>`) split out of text.
"""

"""Tool calls written as text by open-weight models, read live: `text_tools=NAME`.

A model served without a tool parser (llama.cpp and MLX servers, vLLM or SGLang without
`--tool-call-parser`, a raw completions endpoint, transformers in a notebook) writes its tool
calls into its text, in the markup of its chat template. A reader of one family turns that
text into the accumulator's usual events: `TextDelta` outside the calls, `ReasoningDelta` for
`<think>` blocks (and Harmony's analysis channel), and the calls through the call table.

`FAMILIES` names the readers; `reader_factory(name)` gives what `FormatHandler` makes one
reader per choice with.
"""

from __future__ import annotations

from typing import Callable

from ..calls import CallTable
from .auto import AutoReader
from .deepseek import DeepSeekReader
from .glm import GlmReader
from .harmony import HarmonyReader
from .hermes import HermesReader
from .kimi import KimiReader
from .llama3 import Llama3JsonReader
from .mistral import MistralReader
from .pythonic import PythonicReader
from .qwen3_coder import Qwen3CoderReader
from .reader import TextReader

__all__ = ["ALIASES", "FAMILIES", "ReaderFactory", "canonical_family", "reader_factory"]

ReaderFactory = Callable[[CallTable, int], TextReader]

FAMILIES: dict[str, type[TextReader]] = {
    "hermes": HermesReader,
    "qwen3-coder": Qwen3CoderReader,
    "mistral": MistralReader,
    "llama3-json": Llama3JsonReader,
    "pythonic": PythonicReader,
    "deepseek": DeepSeekReader,
    "kimi-k2": KimiReader,
    "glm-4.5": GlmReader,
    "harmony": HarmonyReader,
    "auto": AutoReader,
}
ALIASES = {
    "qwen": "hermes",
    "qwen2.5": "hermes",
    "qwen3": "hermes",
    "qwen3_coder": "qwen3-coder",
    "qwen3-xml": "qwen3-coder",
    "glm": "glm-4.5",
    "glm45": "glm-4.5",
    "glm-4.6": "glm-4.5",
    "glm-4.7": "glm-4.5",
    "glm47": "glm-4.5",
    "llama3": "llama3-json",
    "llama3_json": "llama3-json",
    "llama4-json": "llama3-json",
    "llama4-pythonic": "pythonic",
    "olmo3": "pythonic",
    "lfm2": "pythonic",
    "deepseek-v3": "deepseek",
    "deepseek-v3.1": "deepseek",
    "kimi": "kimi-k2",
    "gpt-oss": "harmony",
}


def canonical_family(name: str) -> str:
    """The canonical name of a family (`auto` stays `auto`); ValueError if unknown."""
    if not isinstance(name, str):
        raise TypeError(f"text_tools must be a family name (a str), not {type(name).__name__}")
    name = ALIASES.get(name, name)
    if name not in FAMILIES:
        known = ", ".join(FAMILIES)
        raise ValueError(f"unknown text_tools family {name!r}; use one of {known}")
    return name


def reader_factory(name: str) -> ReaderFactory:
    """What makes a reader of family `name` (canonical) for a call table and a choice."""
    return FAMILIES[name]

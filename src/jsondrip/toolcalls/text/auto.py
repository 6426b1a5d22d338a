"""`auto`: the family told by the first marker that names one.

Until a marker is read, the text is text (and `<think>` blocks reasoning). The first of these
markers decides the family for the rest of the text:

| marker | family |
|---|---|
| `<tool_call>` then `{` | `hermes` |
| `<tool_call>` then `<function=` | `qwen3-coder` |
| `<tool_call>` then a name | `glm-4.5` |
| `[TOOL_CALLS]` | `mistral` |
| `<\\|python_tag\\|>` | `llama3-json` |
| `<｜tool▁calls▁begin｜>`, `<｜tool▁call▁begin｜>` | `deepseek` |
| `<\\|tool_calls_section_begin\\|>`, `<\\|tool_call_begin\\|>` | `kimi-k2` |
| `<\\|channel\\|>`, `<\\|start\\|>` | `harmony` |
| `<\\|python_start\\|>`, `<\\|tool_call_start\\|>`, `<function_calls>` | `pythonic` |

A bare `{` or `[` at the start of the text is not a marker (Llama's JSON and pythonic calls
have none): name the family for those. The chosen reader takes over from the marker, with the
same text position and the same `<think>` state.
"""

from __future__ import annotations

from .deepseek import CALL as DEEPSEEK_CALL
from .deepseek import CALLS as DEEPSEEK_CALLS
from .deepseek import DeepSeekReader
from .glm import GlmReader
from .harmony import CHANNEL, START, HarmonyReader
from .hermes import HermesReader
from .kimi import CALL as KIMI_CALL
from .kimi import SECTION as KIMI_SECTION
from .kimi import KimiReader
from .llama3 import TAG, Llama3JsonReader
from .markers import Markers
from .mistral import BOT, MistralReader
from .pythonic import WRAPPERS, PythonicReader
from .qwen3_coder import FUNCTION, Qwen3CoderReader
from .reader import HOLD, MAX_MARKUP, TextReader, skip_blanks

__all__ = ["AutoReader"]

TOOL_CALL = "<tool_call>"
FAMILY_OF: dict[str, type[TextReader]] = {
    BOT: MistralReader,
    TAG: Llama3JsonReader,
    DEEPSEEK_CALLS: DeepSeekReader,
    DEEPSEEK_CALL: DeepSeekReader,
    KIMI_CALL: KimiReader,
    CHANNEL: HarmonyReader,
    START: HarmonyReader,
}
FAMILY_OF.update({marker: KimiReader for marker in KIMI_SECTION})
FAMILY_OF.update({marker: PythonicReader for marker in WRAPPERS})
_MARKERS = Markers(TOOL_CALL, *FAMILY_OF)
_AFTER_TOOL_CALL = Markers(FUNCTION)


class AutoReader(TextReader):
    """Text until a marker names the family; then that family's reader; see the module."""

    family = "auto"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.chosen: TextReader | None = None

    def feed(self, text: str) -> None:
        chosen = self.chosen
        if chosen is not None:
            chosen.feed(text)
        else:
            super().feed(text)

    def end(self, reason: str | None = None) -> None:
        if self.chosen is None:
            self._final_pass()  # what is held may still name the family
        if self.chosen is None:
            super().end(reason)
        else:
            self.chosen.end(reason)

    def abort(self, why: str) -> None:
        if self.chosen is None:
            self._final_pass()
        if self.chosen is None:
            super().abort(why)
        else:
            self.chosen.abort(why)

    def outside(self, buf: str, i: int) -> int:
        at, marker = self.scan(_MARKERS, buf, i)
        self.text(buf[i:at])
        if marker is None:
            return at if at > i else HOLD
        if self.out.thinking:
            self.text(marker)
            return at + len(marker)
        family = FAMILY_OF.get(marker)
        if family is None:  # `<tool_call>`: what follows tells which family
            k = skip_blanks(buf, at + len(marker))
            many = k - at - len(marker) > MAX_MARKUP  # that many blanks: no template's
            if k == len(buf) and not many and not self.final:
                return at if at > i else HOLD
            c = "" if many else buf[k : k + 1]
            if c == "<":
                found = self.at(_AFTER_TOOL_CALL, buf, k)
                if found == "":
                    return at if at > i else HOLD
                family = Qwen3CoderReader if found else HermesReader
            elif c == "{" or not c:
                family = HermesReader
            else:
                family = GlmReader
        self.hand_over(family, buf, at)
        return len(buf)

    def hand_over(self, family: type[TextReader], buf: str, at: int) -> None:
        """`family`'s reader reads on from the marker at `buf[at]`."""
        chosen = family(self.table, self.choice)
        chosen.out = self.out
        chosen.base = self.position(at)
        chosen.gap = self.gap
        chosen.final = self.final
        self.chosen = chosen
        chosen.feed(buf[at:])

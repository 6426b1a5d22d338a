"""Model text with tool calls in each family's markup, and what reading it must give.

Written for these tests from each family's chat template or model card (the source is named
above each family's cases); no model output was copied. Each case is read whole, character by
character, at random cuts and at every two-piece cut, on both backends
(`test_text_tools.py`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from jsondrip import MISSING


def invalid_json(document: str) -> str:
    """The start of a call's error when its arguments are `document`: the running
    interpreter's `json.loads` message for it (CPython and PyPy word them differently)."""
    try:
        json.loads(document)
    except json.JSONDecodeError as e:
        return f"invalid JSON: {e.msg}"
    raise ValueError(f"{document!r} is valid JSON")


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                    "metric": {"type": "boolean"},
                    "hours": {"type": "array", "items": {"type": "integer"}},
                    "where": {"type": ["object", "null"]},
                    "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
                "required": ["city"],
            },
        },
    },
    {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}},
]


@dataclass(frozen=True)
class Call:
    """A call the text must give: complete unless `error` (the start of its error)."""

    name: str
    arguments: Any = MISSING
    error: str | None = None
    id: str | None = None


@dataclass(frozen=True)
class Case:
    """Model text, its family, and the calls, text and reasoning it must give."""

    id: str
    family: str
    text: str
    calls: tuple[Call, ...]
    visible: str = ""  # the TextDelta text
    reasoning: str = ""
    tools: Any = None
    options: dict[str, Any] = field(default_factory=dict)


W = {"city": "Paris"}
T = {"tz": "UTC"}
CASES: list[Case] = []


def case(*args: Any, **kwargs: Any) -> None:
    CASES.append(Case(*args, **kwargs))


# -- hermes ------------------------------------------------------------------------------------
# vLLM examples/tool_chat_template_hermes.jinja (the prompt asks for <tool_call>\n{"name": ...,
# "arguments": ...}\n</tool_call>; earlier calls are written "arguments" first) and Qwen 2.5 / 3's
# chat template (the same block, "name" first; several blocks for parallel calls).
case(
    "hermes single",
    "hermes",
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    (Call("get_weather", W),),
)
case(
    "hermes parallel, after text",
    "hermes",
    'Let me check both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
    '</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>',
    (Call("get_weather", W), Call("get_time", T)),
    "Let me check both.\n",
)
case(
    "hermes after <think>, arguments before the name (Hermes' own template)",
    "hermes",
    "<think>The user wants <tool_call> syntax.</think>\n\n<tool_call>\n"
    '{"arguments": {"city": "Paris", "days": 3}, "name": "get_weather"}\n</tool_call>',
    (Call("get_weather", {"city": "Paris", "days": 3}),),
    "\n\n",
    "The user wants <tool_call> syntax.",
)
case(
    "hermes markers inside JSON strings are text",
    "hermes",
    '<tool_call>{"name": "write", "arguments": {"text": "</tool_call><tool_call>{\\"x\\"}"}}'
    "</tool_call> done",
    (Call("write", {"text": '</tool_call><tool_call>{"x"}'}),),
    " done",
)
case(
    "hermes no arguments",
    "hermes",
    '<tool_call>{"name": "get_time"}</tool_call>',
    (Call("get_time", {}),),
)
case(
    "hermes cut inside the arguments",
    "hermes",
    'Sure. <tool_call>\n{"name": "get_weather", "arguments": {"city": "Par',
    (Call("get_weather", {"city": "Par"}, "incomplete: the text ended before '</tool_call>'"),),
    "Sure. ",
)
case(
    "hermes cut after complete JSON, before </tool_call>",
    "hermes",
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n',
    (Call("get_weather", W, "incomplete: the text ended before '</tool_call>'"),),
)
case(
    "hermes cut before the name",
    "hermes",
    '<tool_call>\n{"na',
    (Call("", MISSING, "incomplete: the text ended before '</tool_call>'"),),
)
case(
    "hermes closed while the arguments are open",
    "hermes",
    '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"</tool_call>after',
    (Call("get_weather", W, "incomplete JSON: the call ended early"),),
    "after",
)
case(
    "hermes invalid arguments (an unescaped quote), then a good call",
    "hermes",
    '<tool_call>{"name": "f", "arguments": {"q": "say "hi" now"}}</tool_call>'
    '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
    (
        Call("f", {"q": "say "}, invalid_json('{"q": "say "hi" now"}')),
        Call("get_time", {}),
    ),
)
case(
    "hermes the call's JSON not closed",
    "hermes",
    '<tool_call>{"name": "f", "arguments": {"a": 1}</tool_call>',
    (Call("f", {"a": 1}, "invalid tool call: the call's JSON object ended before"),),
)
case(
    "hermes junk after the JSON",
    "hermes",
    '<tool_call>{"name": "f", "arguments": {}}}</tool_call>ok',
    (Call("f", {}, "invalid tool call: expected '</tool_call>' after the call's JSON"),),
    "ok",
)
case(
    "hermes not JSON",
    "hermes",
    "<tool_call><function=f></function></tool_call>",
    (Call("", MISSING, "invalid tool call: expected '{', not '<'"),),
)
case(
    "hermes name not a string",
    "hermes",
    '<tool_call>{"name": 12, "arguments": {}}</tool_call>',
    (Call("", MISSING, "invalid tool call: the 'name' value must be a string"),),
)
case(
    "hermes stray closing marker is dropped",
    "hermes",
    "a</tool_call>b",
    (),
    "ab",
)

# -- qwen3-coder -------------------------------------------------------------------------------
# Qwen3-Coder's chat template (vLLM examples/tool_chat_template_qwen3coder.jinja): <tool_call>\n
# <function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>, strings as
# they are, other values as JSON.
QWEN_WEATHER = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
)
case(
    "qwen3-coder single, untyped (no tools)",
    "qwen3-coder",
    QWEN_WEATHER,
    (Call("get_weather", {"city": "Paris", "days": "3"}),),
)
case(
    "qwen3-coder typed by tools",
    "qwen3-coder",
    "I'll look.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nSan Francisco, CA\n"
    "</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n"
    "<parameter=hours>\n[9, 12]\n</parameter>\n<parameter=where>\nNone\n</parameter>\n"
    "<parameter=note>\nnull\n</parameter>\n</function>\n</tool_call>",
    (
        Call(
            "get_weather",
            {
                "city": "San Francisco, CA",
                "days": 3,
                "metric": True,
                "hours": [9, 12],
                "where": None,
                "note": None,
            },
        ),
    ),
    "I'll look.\n",
    tools=TOOLS,
)
case(
    "qwen3-coder multi-line value, </parameter> inside it, parallel calls",
    "qwen3-coder",
    "<tool_call>\n<function=write>\n<parameter=text>\nline 1\n</parameter> is a tag\n\n"
    "</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n</function>\n"
    "</tool_call>",
    (Call("write", {"text": "line 1\n</parameter> is a tag\n"}), Call("get_time", {})),
)
case(
    "qwen3-coder after <think>",
    "qwen3-coder",
    "<think>\nNeed weather.\n</think>\n\n" + QWEN_WEATHER,
    (Call("get_weather", {"city": "Paris", "days": 3}),),
    "\n\n",
    "\nNeed weather.\n",
    tools=TOOLS,
)
case(
    "qwen3-coder a typed value that is not its type stays a string (the schema says so)",
    "qwen3-coder",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\nthree\n</parameter>\n</function>\n</tool_call>",
    (Call("get_weather", error="schema: /days: expected integer, got a string"),),
    tools=TOOLS,
)
case(
    "qwen3-coder container text that is not JSON",
    "qwen3-coder",
    "<tool_call>\n<function=get_weather>\n<parameter=hours>\n[9, x]\n</parameter>\n"
    "</function>\n</tool_call>",
    (Call("get_weather", {"hours": [9]}, "invalid JSON"),),
    tools=TOOLS,
)
case(
    "qwen3-coder cut inside a value",
    "qwen3-coder",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nPar",
    (Call("get_weather", {"city": "Par"}, "incomplete: the text ended before '</tool_call>'"),),
)
case(
    "qwen3-coder no function",
    "qwen3-coder",
    '<tool_call>{"name": "f"}</tool_call>after',
    (Call("", MISSING, "invalid tool call: expected '<function=' after '<tool_call>'"),),
    "after",
)
case(
    "qwen3-coder </tool_call> before </function>",
    "qwen3-coder",
    "<tool_call>\n<function=get_time>\n</tool_call>",
    (Call("get_time", {}, "invalid tool call: '</tool_call>' came before '</function>'"),),
)

# -- mistral -----------------------------------------------------------------------------------
# mistral-common tokens/tokenizers/tools.py: v2-v7 `[TOOL_CALLS][{"name", "arguments", "id"?}]`,
# v11+ `[TOOL_CALLS]name[ARGS]{...}` and `[TOOL_CALLS]name[CALL_ID]id[ARGS]{...}`.
case(
    "mistral v11 single",
    "mistral",
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    (Call("get_weather", W),),
)
case(
    "mistral v11 parallel with call ids, after text",
    "mistral",
    'Checking.[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}'
    '[TOOL_CALLS]get_time[CALL_ID]f5g6h7i8j[ARGS]{"tz": "UTC"}',
    (Call("get_weather", W, id="a1b2c3d4e"), Call("get_time", T, id="f5g6h7i8j")),
    "Checking.",
)
case(
    "mistral v11 [TOOL_CALLS] inside a string is text",
    "mistral",
    '[TOOL_CALLS]note[ARGS]{"text": "[TOOL_CALLS]x[ARGS]{}", "n": [1, [2]]}',
    (Call("note", {"text": "[TOOL_CALLS]x[ARGS]{}", "n": [1, [2]]}),),
)
case(
    "mistral v11 cut",
    "mistral",
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Pa',
    (Call("get_weather", {"city": "Pa"}, "incomplete: the text ended inside the call"),),
)
case(
    "mistral v11 cut by the next call",
    "mistral",
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"[TOOL_CALLS]get_time[ARGS]{}',
    (Call("get_weather", W, "incomplete JSON: the call ended early"), Call("get_time", {})),
)
case(
    "mistral v11 after <think> ([THINK] is not a <think> tag)",
    "mistral",
    '<think>plan</think>[TOOL_CALLS]get_time[ARGS]{"tz": "UTC"}',
    (Call("get_time", T),),
    "",
    "plan",
)
case(
    "mistral v3 array, ids, a space after [TOOL_CALLS]",
    "mistral",
    '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "abc123def"},'
    ' {"id": "xyz987uvw", "name": "get_time", "arguments": {"tz": "UTC"}}]',
    (Call("get_weather", W, id="abc123def"), Call("get_time", T, id="xyz987uvw")),
)
case(
    "mistral v3 array cut in the second call",
    "mistral",
    '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_ti',
    (Call("get_weather", W), Call("", MISSING, "incomplete: the text ended inside the call")),
)
case(
    "mistral v3 array malformed",
    "mistral",
    '[TOOL_CALLS][{"name": "get_weather" "arguments": {}}]',
    (Call("get_weather", MISSING, "invalid tool call: expected ',' or '}' after a value"),),
)

# -- llama3-json -------------------------------------------------------------------------------
# vLLM examples/tool_chat_template_llama3.1_json.jinja: 'Respond in the format {"name": function
# name, "parameters": dictionary of argument name and its value}'; llama_tool_parser.py: an
# optional <|python_tag|>, "arguments" for "parameters", several calls separated by ";".
case(
    "llama3-json single",
    "llama3-json",
    '{"name": "get_weather", "parameters": {"city": "Paris"}}',
    (Call("get_weather", W),),
)
case(
    "llama3-json python tag, two calls separated by ;",
    "llama3-json",
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; '
    '{"name": "get_time", "arguments": {"tz": "UTC"}}<|eom_id|>',
    (Call("get_weather", W), Call("get_time", T)),
)
case(
    "llama3-json after <think>, then text",
    "llama3-json",
    '<think>call it</think>\n{"name": "get_time", "parameters": {}}\nDone.',
    (Call("get_time", {}),),
    "\n\nDone.",
    "call it",
)
case(
    "llama3-json JSON that is not a call is text",
    "llama3-json",
    '{"city": "Paris"} is the answer',
    (),
    '{"city": "Paris"} is the answer',
)
case(
    "llama3-json a { in the middle of text is text",
    "llama3-json",
    'Use {"name": "x", "parameters": {}} like this.',
    (),
    'Use {"name": "x", "parameters": {}} like this.',
)
case(
    "llama3-json cut",
    "llama3-json",
    '{"name": "get_weather", "parameters": {"city": "Paris"}',
    (Call("get_weather", W, "incomplete: the text ended before the call's closing '}'"),),
)
case(
    "llama3-json no name",
    "llama3-json",
    '{"parameters": {"city": "Paris"}}',
    (Call("", MISSING, "invalid tool call: the call's JSON has no name"),),
)

# -- pythonic ----------------------------------------------------------------------------------
# vLLM examples/tool_chat_template_llama3.2_pythonic.jinja and ..._llama4_pythonic.jinja
# ([func(a=1), ...], optionally in <|python_start|>...<|python_end|>), lfm2_tool_parser.py
# (<|tool_call_start|>[...]<|tool_call_end|>), olmo3_tool_parser.py (<function_calls> with one
# call per line, JSON's true/false/null accepted).
case(
    "pythonic single",
    "pythonic",
    '[get_weather(city="Paris")]',
    (Call("get_weather", W),),
)
case(
    "pythonic parallel, every literal kind",
    "pythonic",
    "[get_weather(city='San Francisco', days=3, metric=True, hours=[9, 12,], where=None), "
    'get_time(tz="UTC", opts={"a": (1, 2), 1: 0x1F, "s": \'\'\'tri\'ple\'\'\', "e": "\\u00e9\\n"},'
    " ratio=1.5e-3, t=(7))]",
    (
        Call(
            "get_weather",
            {"city": "San Francisco", "days": 3, "metric": True, "hours": [9, 12], "where": None},
        ),
        Call(
            "get_time",
            {
                "tz": "UTC",
                "opts": {"a": [1, 2], "1": 31, "s": "tri'ple", "e": "é\n"},
                "ratio": 0.0015,
                "t": 7,
            },
        ),
    ),
)
case(
    "pythonic Llama 4 wrapper, text around",
    "pythonic",
    'Sure.<|python_start|>[get_time(tz="UTC")]<|python_end|> Anything else?',
    (Call("get_time", T),),
    "Sure. Anything else?",
)
case(
    "pythonic LFM2 wrapper after <think>",
    "pythonic",
    '<think>weather</think><|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>',
    (Call("get_weather", W),),
    "",
    "weather",
)
case(
    "pythonic OLMo 3 calls one per line",
    "pythonic",
    '<function_calls>\nget_weather(city="Paris", metric=true)\nget_time(tz=null)\n'
    "</function_calls>",
    (Call("get_weather", {"city": "Paris", "metric": True}), Call("get_time", {"tz": None})),
)
case(
    "pythonic a markdown link is text",
    "pythonic",
    "[jsondrip](https://example.com) parses JSON.",
    (),
    "[jsondrip](https://example.com) parses JSON.",
)
case(
    "pythonic positional argument",
    "pythonic",
    '[get_weather("Paris")]',
    (Call("get_weather", {}, "invalid tool call: expected a keyword argument"),),
)
case(
    "pythonic a name is not a literal",
    "pythonic",
    "<|python_start|>[get_weather(city=paris)]<|python_end|>ok",
    (Call("get_weather", {}, "invalid tool call: 'paris' is not a Python literal"),),
    "ok",
)
case(
    "pythonic cut",
    "pythonic",
    "[get_weather(city='Par",
    (Call("get_weather", {"city": "Par"}, "incomplete: the text ended before the call's ')'"),),
)

# -- deepseek ----------------------------------------------------------------------------------
# DeepSeek V3 / R1 and V3.1 chat templates (vLLM examples/tool_chat_template_deepseekv3.jinja,
# ..._deepseekv31.jinja; deepseekv3_tool_parser.py, deepseekv31_tool_parser.py).
DS_B, DS_E = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
DS_CB, DS_SEP, DS_CE = "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"
case(
    "deepseek V3 fenced, parallel, after <think>",
    "deepseek",
    "<think>Two lookups.</think>On it."
    f"{DS_B}{DS_CB}function{DS_SEP}get_weather\n```json\n"
    '{"city": "Paris"}\n```' + DS_CE + "\n"
    f"{DS_CB}function{DS_SEP}get_time\n```json\n"
    '{"tz": "UTC"}\n```' + DS_CE + DS_E,
    (Call("get_weather", W), Call("get_time", T)),
    "On it.",
    "Two lookups.",
)
case(
    "deepseek V3.1 bare JSON",
    "deepseek",
    f'{DS_B}{DS_CB}get_weather{DS_SEP}{{"city": "Paris"}}{DS_CE}'
    f'{DS_CB}get_time{DS_SEP}{{"tz": "UTC"}}{DS_CE}{DS_E}',
    (Call("get_weather", W), Call("get_time", T)),
)
case(
    "deepseek cut",
    "deepseek",
    f'{DS_B}{DS_CB}get_weather{DS_SEP}{{"city": "Paris"}}',
    (Call("get_weather", W, "incomplete: the text ended before '<｜tool▁call▁end｜>'"),),
)
case(
    "deepseek invalid arguments",
    "deepseek",
    f'{DS_B}{DS_CB}get_weather{DS_SEP}{{"city": Paris}}{DS_CE}{DS_E}',
    (Call("get_weather", {}, invalid_json('{"city": Paris}')),),
)

# -- kimi-k2 -----------------------------------------------------------------------------------
# Kimi K2's chat template and vLLM kimi_k2_tool_parser.py (also the singular section markers).
K_B, K_E = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
K_CB, K_A, K_CE = "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"
case(
    "kimi-k2 parallel after text",
    "kimi-k2",
    f'Checking.{K_B}{K_CB}functions.get_weather:0{K_A}{{"city": "Paris"}}{K_CE}'
    f'{K_CB}functions.get_time:1{K_A}{{"tz": "UTC"}}{K_CE}{K_E}',
    (
        Call("get_weather", W, id="functions.get_weather:0"),
        Call("get_time", T, id="functions.get_time:1"),
    ),
    "Checking.",
)
case(
    "kimi-k2 singular section markers, after <think>",
    "kimi-k2",
    f"<think>ok</think><|tool_call_section_begin|>{K_CB}functions.get_time:0{K_A}{{}}{K_CE}"
    "<|tool_call_section_end|>",
    (Call("get_time", {}, id="functions.get_time:0"),),
    "",
    "ok",
)
case(
    "kimi-k2 cut",
    "kimi-k2",
    f'{K_B}{K_CB}functions.get_weather:0{K_A}{{"city": "Par',
    (
        Call(
            "get_weather",
            {"city": "Par"},
            "incomplete: the text ended before '<|tool_call_end|>'",
            id="functions.get_weather:0",
        ),
    ),
)
case(
    "kimi-k2 a new call before the end of the last",
    "kimi-k2",
    f'{K_B}{K_CB}functions.f:0{K_A}{{"a": "b"{K_CB}functions.g:1{K_A}{{}}{K_CE}{K_E}',
    (
        Call("f", {"a": "b"}, "invalid tool call: '<|tool_call_begin|>' came", id="functions.f:0"),
        Call("g", {}, id="functions.g:1"),
    ),
)

# -- glm-4.5 -----------------------------------------------------------------------------------
# GLM 4.5 / 4.7 chat templates and vLLM glm4_moe_tool_parser.py / glm47_moe_tool_parser.py.
case(
    "glm-4.5 single with newlines, untyped",
    "glm-4.5",
    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"
    "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
    (Call("get_weather", {"city": "Paris", "days": "3"}),),
)
case(
    "glm-4.7 without newlines, typed, parallel, after <think>",
    "glm-4.5",
    "<think>go</think>Looking.<tool_call>get_weather<arg_key>city</arg_key>"
    "<arg_value>Paris\n</arg_value><arg_key>hours</arg_key><arg_value>[1, 2]</arg_value>"
    "<arg_key>metric</arg_key><arg_value>false</arg_value></tool_call>"
    "<tool_call>get_time</tool_call>",
    (
        Call("get_weather", {"city": "Paris\n", "hours": [1, 2], "metric": False}),
        Call("get_time", {}),
    ),
    "Looking.",
    "go",
    tools=TOOLS,
)
case(
    "glm-4.5 cut in a value",
    "glm-4.5",
    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Par",
    (Call("get_weather", {"city": "Par"}, "incomplete: the text ended before '</tool_call>'"),),
)
case(
    "glm-4.5 malformed",
    "glm-4.5",
    "<tool_call>get_weather\n<arg_key>city</arg_key>\nParis</tool_call>after",
    (Call("get_weather", {}, "invalid tool call: expected '<arg_value>' after the key"),),
    "after",
)

# -- harmony -----------------------------------------------------------------------------------
# OpenAI's Harmony format guide (openai/harmony docs/format.md): channels analysis / commentary /
# final, a call `to=functions.NAME` in the channel or the role part, `<|constrain|>json`,
# `<|call|>`.
case(
    "harmony reasoning, preamble, call",
    "harmony",
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>"
    "commentary<|message|>Checking now.<|end|><|start|>assistant<|channel|>commentary "
    'to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
    (Call("get_weather", W),),
    "Checking now.",
    "Need the weather.",
)
case(
    "harmony recipient in the role, final answer",
    "harmony",
    '<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{"tz": "UTC"}'
    "<|call|><|start|>assistant<|channel|>final<|message|>It is noon. <think> is text"
    "<|return|>",
    (Call("get_time", T),),
    "It is noon. <think> is text",
)
case(
    "harmony built-in tool is reasoning, another role is skipped",
    "harmony",
    "<|channel|>analysis<|message|>Search.<|end|><|start|>assistant<|channel|>analysis "
    'to=browser.search code<|message|>{"query": "x"}<|call|>'
    '<|start|>browser.search to=assistant<|channel|>commentary<|message|>{"result": 1}<|end|>',
    (),
    "",
    'Search.{"query": "x"}',
)
case(
    "harmony cut",
    "harmony",
    '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Pa',
    (Call("get_weather", {"city": "Pa"}, "incomplete: the text ended before '<|call|>'"),),
)
case(
    "harmony a new message before <|call|>",
    "harmony",
    '<|channel|>commentary to=functions.f<|message|>{"a": 1}<|start|>assistant<|channel|>final'
    "<|message|>x<|return|>",
    (Call("f", {"a": 1}, "invalid tool call: '<|start|>' came before the call's '<|call|>'"),),
    "x",
)

# -- auto --------------------------------------------------------------------------------------
case(
    "auto hermes",
    "auto",
    'Hi <tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>',
    (Call("get_time", T),),
    "Hi ",
)
case(
    "auto qwen3-coder",
    "auto",
    "<tool_call>\n<function=get_time>\n<parameter=tz>\nUTC\n</parameter>\n</function>\n"
    "</tool_call>",
    (Call("get_time", T),),
)
case(
    "auto glm-4.5",
    "auto",
    "<tool_call>get_time\n<arg_key>tz</arg_key>\n<arg_value>UTC</arg_value>\n</tool_call>",
    (Call("get_time", T),),
)
case(
    "auto mistral",
    "auto",
    '[TOOL_CALLS]get_time[ARGS]{"tz": "UTC"}',
    (Call("get_time", T),),
)
case(
    "auto kimi-k2",
    "auto",
    f'{K_B}{K_CB}functions.get_time:0{K_A}{{"tz": "UTC"}}{K_CE}{K_E}',
    (Call("get_time", T, id="functions.get_time:0"),),
)
case(
    "auto deepseek",
    "auto",
    f'x{DS_B}{DS_CB}get_time{DS_SEP}{{"tz": "UTC"}}{DS_CE}{DS_E}',
    (Call("get_time", T),),
    "x",
)
case(
    "auto harmony",
    "auto",
    "<|channel|>analysis<|message|>hm<|end|><|start|>assistant<|channel|>commentary "
    'to=functions.get_time<|message|>{"tz": "UTC"}<|call|>',
    (Call("get_time", T),),
    "",
    "hm",
)
case(
    "auto llama3-json with its tag",
    "auto",
    '<|python_tag|>{"name": "get_time", "parameters": {"tz": "UTC"}}',
    (Call("get_time", T),),
)
case(
    "auto pythonic wrapper, a marker inside <think> is reasoning",
    "auto",
    '<think>maybe [TOOL_CALLS] or <tool_call></think><|python_start|>[get_time(tz="UTC")]'
    "<|python_end|>",
    (Call("get_time", T),),
    "",
    "maybe [TOOL_CALLS] or <tool_call>",
)
case(
    "auto no marker: text",
    "auto",
    '{"name": "get_time", "parameters": {}} [f(a=1)] <tool_ call>',
    (),
    '{"name": "get_time", "parameters": {}} [f(a=1)] <tool_ call>',
)

FAMILIES = sorted({c.family for c in CASES})

"""The command line: subcommands, their options, and the default `demo` subcommand.

Each subcommand is a `Command`: a name, a help line, a function that adds its options, and the
dotted path of the function that runs it. The runner is imported only when its subcommand is
chosen, so `jsondrip parse` never imports rich. A later subcommand (say `bench`) registers
itself with `register(Command(...))` before `build_parser()` is called.
"""

from __future__ import annotations

import argparse
import importlib
import re
import textwrap
from dataclasses import dataclass
from typing import Callable

from .._engine import backend_summary
from .._version import __version__
from ..bench import cli as _bench
from ..toolcalls.formats import ALIASES, FORMATS, canonical_format

PROG = "jsondrip"

__all__ = ["COMMANDS", "Command", "build_parser", "parse_args", "register", "resolve"]


@dataclass(frozen=True)
class Command:
    """One subcommand: `configure` adds its options, `run` ("module:function") executes it."""

    name: str
    help: str
    description: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: str


COMMANDS: dict[str, Command] = {}
"""The registered subcommands, in the order `--help` lists them."""

DEFAULT_COMMAND = "demo"


def register(command: Command) -> None:
    """Add a subcommand (or replace the one of the same name)."""
    COMMANDS[command.name] = command


def resolve(command: Command) -> Callable[[argparse.Namespace], int]:
    """Import and return the function that runs `command`."""
    module_name, _, function = command.run.partition(":")
    module = importlib.import_module(module_name, package=__package__)
    return getattr(module, function)


def _speed(text: str) -> float:
    """`--speed`: a pace multiplier, 0 for no pauses at all."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, not {text}")
    return value


def _text_tools(text: str) -> str:
    """`--text-tools`: a family of tool-call markup, or an alias of one."""
    from ..toolcalls.text import canonical_family

    try:
        return canonical_family(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _port(text: str) -> int:
    """`--port`: 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0 to 65535, not {text}")
    return value


FRAMINGS = ("auto", "sse", "jsonl", "text")
PROVIDERS = {
    "openai-chat": "OpenAI Chat Completions and compatible servers such as Mistral, DeepSeek, "
    "Groq, xAI, Cerebras, OpenRouter, vLLM, llama.cpp",
    "openai-responses": "the OpenAI Responses API, also Azure, xAI, LM Studio, Bedrock Mantle",
    "anthropic": "Anthropic Messages",
    "gemini": "Gemini API and Vertex AI, alt=sse",
    "gemini-interactions": "the Gemini Interactions API",
    "bedrock": "Amazon Bedrock ConverseStream, JSON lines of its events",
    "cohere": "Cohere v2 chat",
    "ollama": "Ollama /api/chat, NDJSON",
}
"""Each provider format `ToolCallAccumulator` reads, as `preview --help` names it."""
assert tuple(PROVIDERS) == FORMATS, "a format was added: say what it reads in PROVIDERS"


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, never breaking a line inside a hyphenated name
    (`gemini-interactions`, `--allow-nan`)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(re.sub(r"\s+", " ", text).strip(), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            re.sub(r"\s+", " ", text).strip(),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )


def _provider(text: str) -> str:
    """`preview --format`: a provider format or alias, as `ToolCallAccumulator` takes it (or,
    deprecated, a framing: `sse`, `jsonl`)."""
    if text in ("sse", "jsonl"):
        return text  # the old spelling of --framing: run_preview says so
    try:
        return canonical_format(text)
    except ValueError:
        known = ", ".join(("auto", *FORMATS))
        raise argparse.ArgumentTypeError(
            f"unknown provider format {text!r}: use one of {known} (or an alias: "
            f"{', '.join(ALIASES)})"
        ) from None


def _stream_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by `demo` and `preview`."""
    parser.add_argument(
        "--speed",
        type=_speed,
        default=None,
        metavar="X",
        help="replay pace: 2 is twice as fast, 0 as fast as possible (default: 1 in the live "
        "view, 0 for --json output)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON event per line (NDJSON) instead of drawing; the default when the "
        "output is not a terminal",
    )


def _configure_demo(parser: argparse.ArgumentParser) -> None:
    _stream_options(parser)


def _configure_preview(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a recorded stream (SSE or JSON lines), or - to read standard input as it arrives",
    )
    parser.add_argument(
        "--format",
        type=_provider,
        default="auto",
        metavar="PROVIDER",
        help="the provider format, as ToolCallAccumulator(format=...) takes it: "
        f"{', '.join(FORMATS)}, or an alias (openai, mistral, vertex...); default: auto, "
        "from the first event that tells",
    )
    parser.add_argument(
        "--framing",
        choices=FRAMINGS,
        default="auto",
        help="how the stream is framed: server-sent events or JSON lines (default: auto, "
        "from its first non-blank character), or text: the model's own text, its tool calls "
        "written in it (with --text-tools). Its old spelling, --format sse|jsonl, still "
        "works for one more release, with a warning",
    )
    parser.add_argument(
        "--text-tools",
        type=_text_tools,
        default=None,
        metavar="FAMILY",
        help="read tool calls the model wrote into its text, in this family's markup "
        "(hermes, qwen3-coder, mistral, llama3-json, pythonic, deepseek, kimi-k2, glm-4.5, "
        "harmony, or auto), as ToolCallAccumulator(text_tools=...) does: in the text "
        "content of the provider's stream, or in a file of model text (--framing text)",
    )
    _stream_options(parser)
    parser.add_argument(
        "--web",
        action="store_true",
        help="serve the live view as a page on 127.0.0.1 instead of drawing it here "
        "(the replay starts when the page is opened)",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=0,
        metavar="N",
        help="with --web: the port to listen on (default: 0, any free port)",
    )


def _configure_parse(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default="-",
        help="a JSON document, possibly cut short (default: -, standard input)",
    )
    parser.add_argument(
        "--mode",
        choices=("stable", "jiter"),
        default="stable",
        help="stable: never show what may still change; jiter: numbers as their digits arrive",
    )
    parser.add_argument(
        "--final",
        action="store_true",
        help="require a complete document: an incomplete one is an error",
    )
    parser.add_argument(
        "--compact", action="store_true", help="print the value on one line instead of indented"
    )
    parser.add_argument(
        "--allow-nan",
        action="store_true",
        help="print NaN and Infinity as they were read (JavaScript's spelling, as json.dumps "
        "does) instead of refusing them: standard JSON has no such numbers",
    )


register(
    Command(
        "demo",
        "replay the bundled stream in a live view (the default)",
        "Replay a stream that ships with jsondrip (an Anthropic Messages stream with reasoning, "
        "text and three tool calls) and draw the tool calls' arguments as they are parsed.",
        _configure_demo,
        ".preview_cmd:run_demo",
    )
)
register(
    Command(
        "preview",
        "watch a recorded or piped-in stream's tool calls being written",
        "Read a model's stream, as server-sent events or JSON lines, and show its tool calls, "
        "text and reasoning as they arrive. Every provider format the library reads: "
        + "; ".join(f"{name}: {what}" for name, what in PROVIDERS.items())
        + ". Example: curl -N ... | jsondrip preview -",
        _configure_preview,
        ".preview_cmd:run_preview",
    )
)
register(
    Command(
        "parse",
        "print the best-effort value of a possibly truncated JSON document",
        "Print, as JSON, what can honestly be shown of a JSON document that may be cut short. "
        "Exit status: 0 a value was printed, 1 invalid JSON or no value yet, 2 usage error.",
        _configure_parse,
        ".parse_cmd:run",
    )
)

register(Command("bench", _bench.HELP, _bench.DESCRIPTION, _bench.configure, "..bench.cli:run"))


def _common_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """`--debug`, accepted both before and after the subcommand."""
    parser.add_argument(
        "--debug",
        action="store_true",
        # A subparser's default would overwrite a --debug given before the subcommand.
        default=False if top else argparse.SUPPRESS,
        help="show the full traceback of an error",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Incremental partial-JSON parsing for LLM streams. Without a subcommand, "
        "runs the demo.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"{PROG} {__version__}: {backend_summary()}"
    )
    _common_options(parser, top=True)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS.values():
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            formatter_class=_HelpFormatter,
        )
        _common_options(sub, top=False)
        command.configure(sub)
    return parser


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Parse `argv`; with no subcommand named (`jsondrip`, `jsondrip --speed 2`), run the demo.

    Raises SystemExit (status 2 for usage errors, 0 for --help/--version), as argparse does.
    """
    argv = list(argv)
    asks_top_level = any(arg in ("-h", "--help", "--version") for arg in argv)
    if not any(arg in COMMANDS for arg in argv) and not asks_top_level:
        argv.insert(0, DEFAULT_COMMAND)
    return build_parser().parse_args(argv)

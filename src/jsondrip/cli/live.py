"""The live view (rich): one panel per tool call with its arguments growing as indented JSON
whose multi-line strings read as text, code highlighted (readable.py), the reasoning and text
channels beside them, and a table of the final calls at the end.

The view keeps its own picture of the stream, built only from the accumulator's events, and
redraws at most `FPS` times a second whatever the pace, so that `--speed 0` stays cheap. It
fits the terminal: each panel gets the lines its content needs while they last, a streaming
call shows the end of its arguments (where they grow), a finished one their beginning.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.highlighter import JSONHighlighter
from rich.live import Live
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from .._missing import MISSING
from .ndjson import dumps
from .readable import readable_arguments

__all__ = ["CallView", "LiveView", "StreamView", "Window"]

FPS = 25
"""Most redraws per second."""
MIN_PANEL = 4
"""The smallest panel: borders and two lines."""
WIDE = 100
"""From this many columns on, text and reasoning go beside the tool calls, not below."""
CURSOR = "▍"

_json_highlighter = JSONHighlighter()


class Window:
    """At most `height` lines of a renderable: the last ones (`follow`) or the first ones, with
    a dim line saying how many more there are."""

    def __init__(self, renderable: RenderableType, height: int, *, follow: bool) -> None:
        self.renderable = renderable
        self.height = max(1, height)
        self.follow = follow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.renderable, options.update(height=None), pad=False)
        if len(lines) > self.height:
            hidden = len(lines) - self.height + 1
            more = Text(f"… {hidden} more line{'s' if hidden > 1 else ''}", style="dim")
            if self.follow:
                yield more
                lines = lines[-(self.height - 1) :] if self.height > 1 else []
            else:
                lines = lines[: self.height - 1]
        else:
            more = None
        for line in lines:
            yield from line
            yield Segment.line()
        if more is not None and not self.follow:
            yield more


@dataclass
class CallView:
    """What the view knows of one tool call."""

    index: int
    id: str | None
    name: str
    preview: Any = MISSING
    size: int = 0
    done: bool = False
    complete: bool = False
    error: str | None = None
    raw: str = ""
    kind: str = "function"  # "server": the provider ran it; "output": structured output


@dataclass
class StreamView:
    """The state drawn: calls, text per choice, reasoning, how the stream ended."""

    calls: dict[int, CallView] = field(default_factory=dict)
    outputs: dict[int, CallView] = field(default_factory=dict)
    """The structured output of each choice, drawn as a call named `output`."""
    text: dict[int, list[str]] = field(default_factory=dict)
    reasoning: list[str] = field(default_factory=list)
    finish_reasons: list[str | None] = field(default_factory=list)
    events: int = 0
    last_channel: str = ""
    breaks: int = 0
    """How many tool-call or end-of-response events so far: text that resumes after one
    starts a new paragraph."""
    _seen: dict[str, int] = field(default_factory=dict)

    def _append(self, parts: list[str], channel: str, text: str) -> None:
        if parts and self._seen.get(channel, self.breaks) != self.breaks:
            parts.append("\n\n")
        self._seen[channel] = self.breaks
        parts.append(text)

    def apply(self, event: Any) -> None:
        """Take one accumulator event into account (events are told apart by class name)."""
        self.events += 1
        kind = type(event).__name__
        if kind.startswith("ToolCall") or kind == "StreamDone":
            self.breaks += 1
        if kind == "ToolCallStarted":
            view = CallView(event.index, event.id, event.name)
            view.kind = getattr(event, "kind", "function")
            self.calls[event.index] = view
            self.last_channel = f"call:{event.index}"
        elif kind == "ToolCallDelta":
            call = self.calls.get(event.index)
            if call is None:
                call = self.calls[event.index] = CallView(event.index, event.id, event.name)
            call.preview = event.preview
            call.size += len(event.arguments_delta)
            call.name = event.name or call.name
            self.last_channel = f"call:{event.index}"
        elif kind == "ToolCallDone":
            done = event.tool_call
            call = self.calls.get(done.index)
            if call is None:
                call = self.calls[done.index] = CallView(done.index, done.id, done.name)
            call.done, call.complete, call.error = True, bool(done.complete), done.error
            call.kind = getattr(done, "kind", "function")
            call.raw = done.raw
            call.size = len(call.raw)
            if done.arguments is not MISSING:
                call.preview = done.arguments
        elif kind == "TextDelta":
            choice = getattr(event, "choice", 0)
            self._append(self.text.setdefault(choice, []), f"text:{choice}", event.text)
            self.last_channel = "text"
        elif kind == "ReasoningDelta":
            self._append(self.reasoning, "reasoning", event.text)
            self.last_channel = "reasoning"
        elif kind == "OutputDelta":
            output = self._output(event.choice)
            output.preview = event.preview
            self.last_channel = f"output:{event.choice}"
        elif kind == "OutputDone":
            output = self._output(event.choice)
            output.done, output.complete, output.error = True, event.complete, event.error
            if event.value is not MISSING:
                output.preview = event.value
        elif kind == "StreamDone":
            self.finish_reasons.append(event.finish_reason)

    def _output(self, choice: int) -> CallView:
        output = self.outputs.get(choice)
        if output is None:
            output = self.outputs[choice] = CallView(choice, None, "output", kind="output")
            if choice:
                output.id = f"choice {choice}"
        return output


def _status(call: CallView, interrupted: bool) -> Text:
    """A call's status, in words and colour; an error by its kind only (`truncated by the
    token limit ('max_tokens')`, `invalid JSON`...), the text before its first colon."""
    if call.complete:
        if call.kind == "output":
            return Text("✓ complete, the response ended normally", style="bold green")
        if call.kind == "server":
            return Text("✓ complete, run by the provider", style="bold green")
        return Text("✓ complete", style="bold green")
    if call.error:
        return Text(f"✗ {call.error.split(': ', 1)[0]}", style="bold red")
    if call.done or interrupted:
        return Text("✗ incomplete", style="bold red")
    return Text("… streaming", style="yellow")


def _border(call: CallView) -> str:
    if call.complete:
        return "green"
    if call.error or call.done:
        return "red"
    return "yellow"


def _share(needs: list[int], total: int, minimum: int) -> list[int]:
    """Heights for panels that need `needs` lines, out of `total`: each gets what it needs if
    all fit, else the small ones get theirs and the rest share what is left."""
    if not needs:
        return []
    if sum(needs) <= total:
        return list(needs)
    heights = [0] * len(needs)
    left, todo = total, sorted(range(len(needs)), key=lambda i: needs[i])
    while todo:
        fair = max(minimum, left // len(todo))
        i = todo.pop(0)
        heights[i] = min(needs[i], fair)
        left -= heights[i]
    return heights


def _lines_needed(console: Console, renderable: RenderableType, width: int) -> int:
    options = console.options.update(width=max(1, width), height=None)
    return len(console.render_lines(renderable, options, pad=False))


class LiveView:
    """The rich live view; use as a context manager around `start`, `handle`, `finish`."""

    def __init__(
        self,
        *,
        speed: float = 1.0,
        console: Console | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console = console or Console(highlight=False)
        self.speed = speed
        self.state = StreamView()
        self.source = ""
        self.format = ""
        self.provider = ""
        self.finished = False
        self.interrupted = False
        self._clock = clock
        self._started = clock()
        self._last_draw = 0.0
        self._live = Live(
            console=self.console,
            auto_refresh=False,
            transient=False,
            vertical_overflow="crop",
            redirect_stdout=False,
            redirect_stderr=False,
        )

    def __enter__(self) -> LiveView:
        self._live.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._draw(force=True)
        self._live.stop()

    def start(self, source: str, stream_format: str) -> None:
        """Name the stream in the header and draw the empty view."""
        self.source, self.format = source, stream_format
        self._started = self._clock()
        self._draw(force=True)

    def describe(self, provider: str) -> None:
        """Name the provider's format (`anthropic`, `openai-chat`...) in the header."""
        self.provider = provider

    def handle(self, events: list[Any]) -> None:
        """Apply events and redraw if the last redraw is old enough."""
        for event in events:
            self.state.apply(event)
        self._draw(force=False)

    def finish(self, interrupted: bool = False) -> None:
        """The stream ended (or was interrupted): draw the final view with its status table."""
        self.finished, self.interrupted = True, interrupted
        self._draw(force=True)

    def _draw(self, *, force: bool) -> None:
        now = self._clock()
        if force or now - self._last_draw >= 1 / FPS:
            self._last_draw = now
            self._live.update(self.render(), refresh=True)

    # -- rendering -----------------------------------------------------------------------

    def render(self) -> RenderableType:
        """The whole view, sized to the terminal."""
        width, height = self.console.size
        height = max(12, height - 1)  # leave the last line for the shell prompt
        footer = self._footer(width)
        footer_height = _lines_needed(self.console, footer, width) if footer else 0
        body_height = max(MIN_PANEL, height - 1 - footer_height)
        parts: list[RenderableType] = [self._header(), self._body(width, body_height)]
        if footer is not None:
            parts.append(footer)
        return Group(*parts)

    def _header(self) -> Text:
        state = self.state
        elapsed = self._clock() - self._started
        pace = "max speed" if self.speed == 0 else f"speed {self.speed:g}"
        calls = len(state.calls)
        header = Text(no_wrap=True, overflow="ellipsis")
        header.append(" jsondrip ", style="bold black on cyan")
        if self.interrupted:
            header.append(" ✗ interrupted", style="bold red")
        elif self.finished:
            header.append(" ✓ done", style="bold green")
        else:
            header.append(" ● streaming", style="bold yellow")
        header.append(f"  {calls} tool call{'s' if calls != 1 else ''}")
        header.append(f" · {state.events} events · {elapsed:.1f} s")
        kind = ", ".join(part for part in (self.provider, self.format, pace) if part)
        header.append(f"  {self.source} ({kind})", style="dim")
        return header

    def _body(self, width: int, height: int) -> RenderableType:
        if width >= WIDE:
            left_width = width * 3 // 5
            right_width = width - left_width
            grid = Table.grid(padding=0)
            grid.add_column(width=left_width)
            grid.add_column(width=right_width)
            grid.add_row(self._calls(left_width, height), self._channels(right_width - 1, height))
            return grid
        calls_height = max(MIN_PANEL, height * 3 // 5)
        return Group(self._calls(width, calls_height), self._channels(width, height - calls_height))

    def _call_panel(self, call: CallView, height: int | None, width: int) -> Panel:
        if call.preview is MISSING:
            body: RenderableType = Text(call.raw or "…", style="dim")
        else:
            body = readable_arguments(call.preview)
        if height is not None:
            body = Window(body, height - 2, follow=not call.done)
        title = Text.assemble((call.name or "?", "bold"), "  ", (call.id or "", "dim"))
        status = _status(call, self.interrupted)
        size = f" · {call.size} chars"
        if call.kind != "output" and len(status) + len(size) + 6 <= width:
            status.append(size, style="dim")
        return Panel(
            body,
            title=title,
            title_align="left",
            subtitle=status,
            subtitle_align="right",
            border_style=_border(call),
            box=box.ROUNDED,
            height=height,
        )

    def _calls(self, width: int, height: int) -> RenderableType:
        calls = [*self.state.outputs.values(), *self.state.calls.values()]
        if not calls:
            waiting = "no tool calls" if self.finished else "waiting for tool calls…"
            return Panel(Text(waiting, style="dim"), height=height, border_style="dim")
        fit = max(1, height // MIN_PANEL)
        hidden, calls = calls[:-fit], calls[-fit:]
        needs = [
            _lines_needed(self.console, self._call_panel(call, None, width), width)
            for call in calls
        ]
        room = height - (1 if hidden else 0)
        panels: list[RenderableType] = []
        if hidden:
            names = ", ".join(call.name for call in hidden)
            panels.append(Text(f"… {len(hidden)} earlier: {names}", style="dim", no_wrap=True))
        for call, panel_height in zip(calls, _share(needs, room, MIN_PANEL)):
            panels.append(self._call_panel(call, panel_height, width))
        return Group(*panels)

    def _channels(self, width: int, height: int) -> RenderableType:
        state = self.state
        streaming = not self.finished
        channels: list[tuple[str, Text]] = []
        if state.reasoning:
            text = Text("".join(state.reasoning), style="italic bright_black", overflow="fold")
            if streaming and state.last_channel == "reasoning":
                text.append(CURSOR, style="bright_black")
            channels.append(("reasoning", text))
        for choice, parts in sorted(state.text.items()):
            text = Text("".join(parts), overflow="fold")
            if streaming and state.last_channel == "text":
                text.append(CURSOR)
            title = "text" if len(state.text) == 1 else f"text · choice {choice}"
            channels.append((title, text))
        if not channels:
            channels.append(("text", Text("no text yet" if streaming else "no text", "dim")))
        needs = [
            _lines_needed(self.console, Panel(text, box=box.ROUNDED), width) for _, text in channels
        ]
        heights = _share(needs, height, MIN_PANEL)
        return Group(
            *(
                Panel(
                    Window(text, panel_height - 2, follow=True),
                    title=title,
                    title_align="left",
                    border_style="blue" if title != "reasoning" else "bright_black",
                    height=panel_height,
                    box=box.ROUNDED,
                )
                for (title, text), panel_height in zip(channels, heights)
            )
        )

    def _footer(self, width: int) -> RenderableType | None:
        if not self.finished:
            return None
        state = self.state
        reasons = ", ".join(str(reason) for reason in state.finish_reasons) or "none"
        table = Table(
            title=Text.assemble(
                ("final tool calls", "bold"), ("  ·  stop reason: ", "dim"), (reasons, "bold")
            ),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            expand=True,
            pad_edge=False,
        )
        table.add_column("#", justify="right", no_wrap=True, min_width=1)
        table.add_column("tool", style="bold", no_wrap=True, min_width=8)
        wide = width >= 120
        if wide:
            table.add_column("id", style="dim", no_wrap=True, overflow="ellipsis", max_width=34)
        table.add_column("status", no_wrap=True, overflow="ellipsis", max_width=40)
        table.add_column("arguments", no_wrap=True, overflow="ellipsis", ratio=1, min_width=12)
        for call in state.calls.values():
            arguments = "" if call.preview is MISSING else dumps(call.preview)
            cells: list[RenderableType] = [str(call.index), call.name]
            if wide:
                cells.append(call.id or "")
            cells.append(_status(call, self.interrupted))
            cells.append(_json_highlighter(Text(arguments, no_wrap=True, overflow="ellipsis")))
            table.add_row(*cells)
        for output in state.outputs.values():
            value = "" if output.preview is MISSING else dumps(output.preview)
            cells = ["", "output" + (f" (choice {output.index})" if output.index else "")]
            if wide:
                cells.append("")
            cells.append(_status(output, self.interrupted))
            cells.append(_json_highlighter(Text(value, no_wrap=True, overflow="ellipsis")))
            table.add_row(*cells)
        if not state.calls and not state.outputs:
            table.add_row("", "(no tool calls)", *([""] * (3 if wide else 2)))
        errors = [
            Text.assemble((f"#{call.index} {call.name}: ", "bold"), (call.error, "red"))
            for call in state.calls.values()
            if call.error
        ]
        errors += [
            Text.assemble(("output: ", "bold"), (output.error, "red"))
            for output in state.outputs.values()
            if output.error
        ]
        return Group(table, *errors) if errors else table

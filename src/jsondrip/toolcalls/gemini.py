"""Google Gemini `streamGenerateContent` chunks (`alt=sse`), Gemini API and Vertex AI.

Each chunk is a `GenerateContentResponse`: `candidates[].content.parts[]` and, on a
candidate's last chunk, its `finishReason`. Keys are read in camelCase (the REST API,
`model_dump(by_alias=True)` of google-genai objects) or snake_case (`to_json_dict()`).

- A `functionCall` part with a `name` is a call (its `id`, if any, is the call's id). Without
  `willContinue` it arrives whole: `args` (an object, or absent: no parameters) become its
  arguments, `json.dumps(args, ensure_ascii=False)`. Several such parts are parallel calls.
- Vertex streams arguments: a part `{"functionCall": {"name": ..., "willContinue": true}}`
  opens the call, parts with `partialArgs` (pieces addressed by `jsonPath`, see
  `partial_args.py`) add to it, and a `functionCall` part whose `willContinue` is not true
  (usually `{"functionCall": {}}`) ends it. A call whose `willContinue` never ended is
  incomplete, whatever its text.
- `executableCode` parts are code the API runs itself: a call of `kind="server"` named
  `code_execution` with arguments `{"language": ..., "code": ...}`.
- `text` parts are text, or reasoning when the part has `"thought": true`;
  `thoughtSignature` and `codeExecutionResult` are ignored.

The common Vertex chunk (one part adding pieces to the open call) is routed by its skeleton
without decoding its envelope (`shortcut.py`, `value=True`), exactly as `_piece` reads it; a
whole SSE chunk framed as the last routed one goes from bytes to argument text in one native
call (`take_chunk`, `VertexArgs.feed_chunk`).

A candidate's `finishReason` (`STOP`, `MAX_TOKENS`, `MALFORMED_FUNCTION_CALL`, `SAFETY`...)
closes its calls, and is the response's end once every candidate seen has one; `MAX_TOKENS`
marks incomplete calls as truncated. A new `responseId` starts a new response.
"""

from __future__ import annotations

from typing import Any

from .calls import TRUNCATION_REASONS, CallState, dump_arguments
from .formats import FormatHandler
from .shortcut import FRAGMENT, Envelope
from .vertex_args import VertexArgs

__all__ = ["GeminiHandler"]


def _get(part: dict[str, Any], camel: str, snake: str) -> Any:
    value = part.get(camel)
    return part.get(snake) if value is None else value


class _Candidate:
    __slots__ = ("finished", "streaming", "whole", "writer")

    def __init__(self) -> None:
        self.streaming: CallState | None = None  # a Vertex call whose willContinue is on
        self.writer: VertexArgs | None = None
        self.whole: list[CallState] = []  # calls that wait for the finish reason
        self.finished = False


def _continued_call(event: dict[str, Any]) -> dict[str, Any] | None:
    """The `functionCall` of the common Vertex event: one candidate holding only its content,
    whose one part is that call with `willContinue` on and one other field (its
    `partialArgs`); None for any other event."""
    candidates = event.get("candidates")
    if type(candidates) is not list or len(candidates) != 1:
        return None
    candidate = candidates[0]
    content = candidate.get("content") if type(candidate) is dict else None
    if type(content) is not dict or len(candidate) != 1 or len(content) > 2:
        return None  # a finish reason or anything else beside the content
    parts = content.get("parts")
    if type(parts) is not list or len(parts) != 1 or type(parts[0]) is not dict:
        return None
    part = parts[0]
    call = part.get("functionCall")
    if type(call) is not dict or len(part) != 1 or len(call) != 2:
        return None
    return call if call.get("willContinue") is True else None


def _piece_route(event: dict[str, Any]) -> tuple[int, Any] | None:
    """(candidate, `responseId`) of a skeleton that `_piece` reads (`partialArgs` cut out),
    or None: the same checks as `_piece`, but for the handler's state."""
    call = _continued_call(event)
    if call is None or call.get("partialArgs") != FRAGMENT:
        return None
    response_id = event.get("responseId")
    return None if response_id is None else (0, response_id)


ENVELOPE = Envelope("partialArgs", _piece_route, value=True)
"""The Vertex `partialArgs` chunk's envelope (the array cut out), shared by every stream
(shortcut.py)."""


class GeminiHandler(FormatHandler):
    """Routes Gemini / Vertex AI stream chunks to the call table."""

    __slots__ = ("_candidates", "_reason", "_response_id")

    name = "gemini"
    # the common Vertex chunk (`_piece`) by its skeleton: the `partialArgs` array cut out
    ENVELOPE = ENVELOPE

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._candidates: dict[int, _Candidate] = {}
        self._response_id: Any = None
        self._reason: str | None = None

    def take_fragment(self, route: tuple[int, Any], pieces: Any) -> bool:
        """A `_piece` chunk from its skeleton (`route`: its candidate and `responseId`): what
        `_piece` does with it; False when `_piece` would not take it (decode it in full)."""
        opened = self._open_candidate(route)
        if opened is None or type(pieces) is not list:
            return False
        if pieces:
            self._write(opened[0], pieces)
        return True

    def take_chunk(self, route: tuple[int, Any], matcher: Any, chunk: bytes) -> bool:
        """A whole `_piece` chunk framed as the last routed one (`matcher`), its pieces written
        from its bytes; False when `take_fragment` would not take it or the writer leaves the
        chunk to the long way (nothing changed), which then decides."""
        opened = self._open_candidate(route)
        if opened is None:
            return False
        state, call, writer = opened
        try:
            text = writer.feed_chunk(matcher, chunk)
        except ValueError as error:
            self._invalid(state, error)
            return True
        if text is None:
            return False
        self.table.append(call, text)
        return True

    def _open_candidate(
        self, route: tuple[int, Any]
    ) -> tuple[_Candidate, CallState, VertexArgs] | None:
        """The candidate a routed `_piece` chunk adds to, with its streaming call and that
        call's writer, if it is streaming in the running response; None: `_piece` would not
        take it."""
        if self.done_sent or route[1] != self._response_id:
            return None
        state = self._candidates.get(route[0])
        if state is None or state.streaming is None or state.writer is None:
            return None
        return state, state.streaming, state.writer

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one `GenerateContentResponse` chunk."""
        if self._piece(event):
            return
        response_id = _get(event, "responseId", "response_id")
        if response_id is not None and response_id != self._response_id:
            if self._response_id is not None and not self.done_sent:
                self.end_response(self._reason)
            self._response_id = response_id
        candidates = event.get("candidates")
        if not isinstance(candidates, list):
            feedback = _get(event, "promptFeedback", "prompt_feedback")
            if isinstance(feedback, dict) and _get(feedback, "blockReason", "block_reason"):
                self._begin()
                self.end_response(str(_get(feedback, "blockReason", "block_reason")))
            return
        self._begin()
        for candidate in candidates:
            if type(candidate) is not dict:
                continue
            number = candidate.get("index") or 0
            state = self._candidates.get(number)
            if state is None:
                state = self._candidates[number] = _Candidate()
            content = candidate.get("content")
            parts = content.get("parts") if type(content) is dict else None
            if isinstance(parts, list):
                for part in parts:
                    if type(part) is dict:
                        self._part(number, state, part)
            reason = _get(candidate, "finishReason", "finish_reason")
            if reason:
                reason = str(getattr(reason, "value", reason))
                self._finish_candidate(state, reason)
                self.end_choice(number, reason)
        if self._candidates and all(c.finished for c in self._candidates.values()):
            self.end_response(self._reason)

    def _piece(self, event: dict[str, Any]) -> bool:
        """The common Vertex event, quickly: one candidate whose one part adds `partialArgs`
        to the open call and goes on (`willContinue`), in the same response; False for any
        other event, which `handle` then reads in full (the same result either way)."""
        call = None if self.done_sent else _continued_call(event)
        if call is None:
            return False
        pieces = call.get("partialArgs")
        if type(pieces) is not list:
            return False
        # the candidate holds only its content (`_continued_call`): its index is 0
        state = self._candidates.get(0)
        if state is None or state.streaming is None or state.writer is None:
            return False
        response_id = event.get("responseId")
        if response_id is None or response_id != self._response_id:
            return False
        if pieces:
            self._write(state, pieces)
        return True

    def _begin(self) -> None:
        if self.done_sent:
            self.begin_response()

    def _part(self, choice: int, candidate: _Candidate, part: dict[str, Any]) -> None:
        call = _get(part, "functionCall", "function_call")
        if type(call) is dict:
            self._function_call(choice, candidate, call)
            return
        text = part.get("text")
        if isinstance(text, str):
            if part.get("thought") is True:
                self.reasoning(text, choice)
            else:
                self.text(text, choice)
            return
        code = _get(part, "executableCode", "executable_code")
        if type(code) is dict:
            language = code.get("language")
            language = str(getattr(language, "value", language))  # an SDK enum: its value
            arguments = {"language": language, "code": code.get("code") or ""}
            state = self.table.start(None, "code_execution", choice=choice, kind="server")
            self.table.announce(state)
            self.table.append(state, dump_arguments(arguments))
            candidate.whole.append(state)

    def _function_call(self, choice: int, candidate: _Candidate, call: dict[str, Any]) -> None:
        table = self.table
        name = call.get("name")
        more = _get(call, "willContinue", "will_continue") is True
        partial = _get(call, "partialArgs", "partial_args")
        args = call.get("args")
        if name:
            if candidate.streaming is not None:  # a new call while one streams: it ended
                self._end_streaming(candidate)
            state = table.start(call.get("id") or None, str(name), choice=choice)
            table.announce(state)
            if not more and not partial:
                if args is not None:
                    table.append(state, dump_arguments(args))
                candidate.whole.append(state)
                return
            candidate.streaming = state
            candidate.writer = VertexArgs()
            if isinstance(args, dict) and args:
                self._write(candidate, args, whole=True)
        if candidate.streaming is None:
            return  # pieces of no open call (the stream began mid-call): nothing to add to
        if isinstance(partial, list) and partial:
            self._write(candidate, partial)
        if not more and candidate.streaming is not None:
            self._end_streaming(candidate)

    def _write(self, candidate: _Candidate, pieces: Any, *, whole: bool = False) -> None:
        """Write `partialArgs` pieces (or, `whole`, an `args` object) as argument text."""
        state, writer = candidate.streaming, candidate.writer
        assert state is not None
        if writer is None:  # the call ended on a piece out of order: the rest is ignored
            self.table.ignored_fragments += 1
            return
        try:
            text = writer.whole(pieces) if whole else writer.feed(pieces)
        except ValueError as error:
            self._invalid(candidate, error)
            return
        self.table.append(state, text)

    def _invalid(self, candidate: _Candidate, error: ValueError) -> None:
        """A piece out of document order: the call ends with the writer's error; it stays
        the candidate's open call, without a writer, so that its later pieces are counted
        as ignored until its `willContinue` ends."""
        state = candidate.streaming
        assert state is not None
        candidate.writer = None
        self.table.fail(state, f"invalid JSON: partialArgs {error}", release=False)

    def _end_streaming(self, candidate: _Candidate) -> None:
        """The open call's `willContinue` ended: write its closing text and close it."""
        state, writer = candidate.streaming, candidate.writer
        candidate.streaming = candidate.writer = None
        if state is None or writer is None or state.finished:
            return
        self.table.append(state, writer.end())
        self.table.close(state, None)

    def _finish_candidate(self, candidate: _Candidate, reason: str) -> None:
        candidate.finished = True
        if self._reason is None:
            self._reason = reason
        state = candidate.streaming
        if state is not None:  # willContinue never ended: incomplete whatever its text
            candidate.streaming = candidate.writer = None
            if reason in TRUNCATION_REASONS:
                error = f"truncated by the token limit ({reason!r}): willContinue never ended"
            else:
                error = (
                    f"incomplete JSON: the call ended early ({reason}): willContinue never ended"
                )
            self.table.fail(state, error, release=False)
        for whole in candidate.whole:
            self.table.close(whole, reason)
        candidate.whole.clear()

    def reason_so_far(self) -> str | None:
        """The first finish reason of the running response."""
        return self._reason

    def end_response(self, reason: str | None) -> None:
        """The response ended: close what is open, forget the candidates."""
        for candidate in self._candidates.values():
            if candidate.streaming is not None:
                self._finish_candidate(candidate, reason or "a new response began")
        super().end_response(reason)
        self._candidates.clear()
        self._reason = None

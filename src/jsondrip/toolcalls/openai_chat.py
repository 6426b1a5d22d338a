"""OpenAI Chat Completions chunks, and the OpenAI-compatible providers that imitate them.

Which call a `delta.tool_calls` fragment belongs to, per choice: its `index`; without one, its
`id`; without either, the most recent call (a fragment that names a tool after the last call's
arguments are complete starts a new one). At the same index, a fragment with another id is
the same call (some providers send a new id on every fragment) unless the call's arguments are
already complete and the fragment names a tool: then it is the next call (providers that send
every call at index 0). The first id is kept. A name is assembled once: a fragment equal to the
name so far is a repeat, one that extends it replaces it, anything else is appended.

`finish_reason` on a choice closes that choice's calls; `data: [DONE]` ends the response, and
so does a chunk with another `id` after a finish reason (Cerebras sends two responses back to
back without `[DONE]` between them). `reasoning_content` (DeepSeek, xAI) and `reasoning`
(vLLM, OpenRouter, Groq, Cerebras) become `ReasoningDelta`; so do Mistral's `content` arrays
of `{"type": "thinking", "thinking": [{"type": "text", "text": ...}]}` parts (their `text`
parts are text).
"""

from __future__ import annotations

from typing import Any

from .calls import CallState, shared_name
from .formats import DONE, FormatHandler
from .shortcut import FRAGMENT, Envelope

__all__ = ["OpenAIChatHandler"]


class OneMap:
    """A dict that holds its first entry in slots and makes a dict only for a second key:
    a stream's choices, and a choice's calls by index and by id, are one each in nearly every
    stream, and a dict of one entry is an object of 224 bytes (#28: memory per open stream).

    Only what the handler uses: `get`, `set`, `values` (in insertion order) and `clear`,
    as a dict does them: a key is hashed (an unhashable one raises TypeError, which `feed`
    reports as a malformed event), found by identity or `==`, and an equal key set again
    keeps the first key object. None is never a key (the handler checks that first)."""

    __slots__ = ("key", "more", "value")

    def __init__(self) -> None:
        self.key: Any = None  # the one key, None when empty or when `more` holds them all
        self.value: Any = None
        self.more: dict[Any, Any] | None = None  # every entry, once a second key came

    def get(self, key: Any) -> Any:
        """`dict.get(key)`."""
        more = self.more
        if more is not None:
            return more.get(key)
        hash(key)
        own = self.key
        if own is not None and (own is key or own == key):
            return self.value
        return None

    def set(self, key: Any, value: Any) -> None:
        """`dict[key] = value`."""
        more = self.more
        if more is not None:
            more[key] = value
            return
        hash(key)
        own = self.key
        if own is None:
            self.key = key
        elif own is not key and own != key:
            self.more = {own: self.value, key: value}
            self.key = self.value = None
            return
        self.value = value

    def values(self) -> list[Any]:
        """`list(dict.values())`."""
        more = self.more
        if more is not None:
            return list(more.values())
        return [] if self.key is None else [self.value]

    def clear(self) -> None:
        """`dict.clear()`."""
        self.key = self.value = self.more = None


class _Choice(OneMap):
    """One choice's calls, once a response has a second call: which call a provider's
    `index` names (the choice is that map itself: one object fewer, #28), which an `id`
    names (`by_id`), and the most recent one (`last`)."""

    __slots__ = ("by_id", "last")

    def __init__(self) -> None:
        super().__init__()  # provider index -> CallState
        self.by_id = OneMap()  # call id -> CallState
        self.last: CallState | None = None


def _arguments_route(event: dict[str, Any]) -> tuple[int, int] | None:
    """(choice, tool-call index) of a chunk's skeleton whose only news is one `arguments`
    fragment (no id, name, text, reasoning or finish reason), or None."""
    choices = event.get("choices")
    if event.get("type") == "chunk" or type(choices) is not list or len(choices) != 1:
        return None
    choice = choices[0]
    if type(choice) is not dict or choice.get("finish_reason"):
        return None
    index = choice.get("index") or 0
    delta = choice.get("delta")
    if type(index) is not int or type(delta) is not dict:
        return None
    if any(delta.get(name) for name in ("reasoning_content", "reasoning", "content")):
        return None
    tool_calls = delta.get("tool_calls")
    if delta.get("function_call") or type(tool_calls) is not list or len(tool_calls) != 1:
        return None
    fragment = tool_calls[0]
    if type(fragment) is not dict or fragment.get("id"):
        return None
    position = fragment.get("index")
    function = fragment.get("function")
    if type(position) is not int or type(function) is not dict or function.get("name"):
        return None
    if function.get("arguments") != FRAGMENT:
        return None
    return index, position


# `obfuscation`: random padding OpenAI adds to each chunk, and `created`: the response's time;
# never read. `id`: the response's, which `handle` compares with the running one's.
ENVELOPE = Envelope("arguments", _arguments_route, ("obfuscation", "created"), head="id")
"""The `arguments` fragment chunk's envelope, shared by every stream (shortcut.py)."""


class OpenAIChatHandler(FormatHandler):
    """Routes Chat Completions chunks (`choices[].delta`) to the call table.

    The running response's calls, by choice: while it has one call, that call alone
    (`_only`, and the tool-call `index` it started at, `_only_at`, None if it came without
    one), which an index, an id (its own, if it has one) or the choice's last call names as
    the maps below would; from its second call on, `_choices` (choice index -> `_Choice`).
    Nearly every stream has one call: it holds no map (#28: memory per open stream)."""

    __slots__ = ("_choices", "_only", "_only_at", "_reason")

    name = "openai-chat"
    ENVELOPE = ENVELOPE

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self._only: CallState | None = None
        self._only_at: Any = None
        self._choices: OneMap | None = None
        self._reason: str | None = None
        # the running response's chunk id is the shortcut's `head` (it routes chunks with it)

    def handle(self, event: dict[str, Any]) -> None:
        """Act on one chunk (or `[DONE]`, or the SDK stream helper's `chunk` event)."""
        if event is DONE:
            self.end_response(self._reason)
            return
        if event.get("type") == "chunk" and isinstance(event.get("chunk"), dict):
            event = event["chunk"]
        choices = event.get("choices")
        if choices is None:
            error = event.get("error")
            if isinstance(error, dict):
                self.abort(f"aborted: the API sent an error: {error.get('message', error)}")
                self.end_response("error")
            return  # a stream helper's derived event (content.delta...): already counted
        chunk_id = event.get("id")
        if chunk_id != self.head and choices:  # (a usage chunk's `choices` is empty)
            if self._reason is not None and self.head is not None and not self.done_sent:
                self.end_response(self._reason)  # a new response after a finished one
            self.set_head(chunk_id)  # the running response's: chunks route with it
        if self.done_sent:
            self.begin_response()
        for choice in choices:
            index = choice.get("index") or 0
            delta = choice.get("delta") or {}
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str):
                self.reasoning(reasoning, index)
            content = delta.get("content")
            if content:
                if type(content) is list:
                    self._content_parts(content, index)
                else:
                    self.text(content, index)
            refusal = delta.get("refusal")
            if refusal and isinstance(refusal, str):
                self.refusal(refusal, index)
            tool_calls = delta.get("tool_calls")
            if tool_calls:
                for fragment in tool_calls:
                    self._fragment(index, fragment)
            function_call = delta.get("function_call")  # the deprecated single-function form
            if function_call:
                self._fragment(index, {"index": 0, "function": function_call})
            reason = choice.get("finish_reason")
            if reason:
                self._finish_choice(index, reason)

    def _content_parts(self, parts: list[Any], choice: int) -> None:
        """Mistral's `content` as a list of typed parts: text, and thinking (reasoning)."""
        for part in parts:
            if type(part) is not dict:
                continue
            if part.get("type") == "thinking":
                thinking = part.get("thinking")
                for piece in thinking if type(thinking) is list else [thinking]:
                    if type(piece) is dict:
                        piece = piece.get("text")
                    if isinstance(piece, str):
                        self.reasoning(piece, choice)
            elif isinstance(part.get("text"), str):
                self.text(part["text"], choice)

    def take_fragment(self, route: tuple[int, int], text: str) -> None:
        """A chunk holding one `arguments` fragment, from its skeleton: what `handle` does."""
        if self.done_sent:
            self.begin_response()
        choice, position = route
        state = self._at(choice, position)
        if text and state is not None and not state.finished:
            self.table.append(state, text)  # the common case, as `_fragment` would do it
        else:
            self._fragment(choice, {"index": position, "function": {"arguments": text}})

    def lane_target(self, route: tuple[int, int]) -> CallState | None:
        """The call `take_fragment` appends the route's fragments to, once a response runs
        and while the call is open."""
        state = None if self.done_sent else self._at(route[0], route[1])
        return None if state is None or state.finished else state

    # -- which call: a dict's answers (keys hashed, found by identity or `==`), kept as the
    # one call alone until a second one starts

    def _at(self, choice: Any, position: Any) -> CallState | None:
        """The call the choice's tool-call `index` names."""
        hash(choice)
        hash(position)
        only = self._only
        if only is not None:
            at = self._only_at
            if _same(only.choice, choice) and at is not None and _same(at, position):
                return only
            return None
        cs = None if self._choices is None else self._choices.get(choice)
        return None if cs is None else cs.get(position)  # type: ignore[no-any-return]

    def _by_id(self, choice: Any, call_id: Any) -> CallState | None:
        """The call the choice's call `id` names."""
        hash(choice)
        hash(call_id)
        only = self._only
        if only is not None:
            own = only.id  # (a str: `_started`, `_named`)
            return only if own and _same(own, call_id) and _same(only.choice, choice) else None
        cs = None if self._choices is None else self._choices.get(choice)
        return None if cs is None else cs.by_id.get(call_id)  # type: ignore[no-any-return]

    def _last(self, choice: Any) -> CallState | None:
        """The choice's most recent call."""
        hash(choice)
        only = self._only
        if only is not None:
            return only if _same(only.choice, choice) else None
        cs = None if self._choices is None else self._choices.get(choice)
        return None if cs is None else cs.last

    def _maps(self, choice: Any) -> _Choice:
        """The choice's calls as maps, made now if need be (with the one call so far)."""
        choices = self._choices
        if choices is None:
            choices = self._choices = OneMap()
            only = self._only
            if only is not None:
                cs = _Choice()
                choices.set(only.choice, cs)
                if self._only_at is not None:
                    cs.set(self._only_at, only)
                if only.id:
                    cs.by_id.set(only.id, only)
                cs.last = only
                self._only = self._only_at = None
        found: _Choice | None = choices.get(choice)
        if found is None:
            found = _Choice()
            choices.set(choice, found)
        return found

    def _started(self, choice: Any, position: Any, call_id: Any, state: CallState) -> None:
        """`state` is the choice's new call, at `position` (if not None), with `call_id` (if
        truthy): the one call alone if it is the response's first and its id is a str (or
        None), else in the maps (where an unhashable id raises, as a dict's key does)."""
        if (
            self._only is None
            and self._choices is None
            and (call_id is None or type(call_id) is str)
        ):
            self._only = state
            self._only_at = position
            return
        cs = self._maps(choice)
        if position is not None:
            cs.set(position, state)
        if call_id:
            cs.by_id.set(call_id, state)
        cs.last = state

    def _named(self, choice: Any, call_id: Any, state: CallState) -> None:
        """The call `state`, without an id so far, is given `call_id` (truthy)."""
        if self._only is state and type(call_id) is str:
            state.id = call_id  # the one call: its own id names it
            return
        cs = self._maps(choice)
        state.id = call_id
        cs.by_id.set(call_id, state)

    def _fragment(self, choice: int, fragment: dict[str, Any]) -> None:
        hash(choice)
        position = fragment.get("index")
        call_id = fragment.get("id") or None
        function = fragment.get("function") or {}
        name = function.get("name") or ""
        arguments = function.get("arguments")
        table = self.table
        if position is not None:
            state = self._at(choice, position)
            if (
                state is not None
                and name
                and call_id
                and state.id
                and call_id != state.id
                and _complete(state)
            ):
                table.close(state, None)
                state = None
        elif call_id:
            state = self._by_id(choice, call_id)
        else:
            state = self._last(choice)
            if state is not None and name and _complete(state):
                table.close(state, None)
                state = None
        if state is None:
            state = table.start(call_id, name, choice=choice)
            self._started(choice, position, call_id, state)
        else:
            call = state
            if call.finished:  # ended already (invalid, finish_reason, too large...)
                table.append(state, arguments)  # dropped, counted as ignored
                return
            if call_id and not call.id:
                self._named(choice, call_id, state)
            if name:
                current = call.name
                if not current or name.startswith(current):
                    call.name = shared_name(name)
                elif name != current:
                    call.name = shared_name(current + name)
        if arguments is not None and state.name:
            table.announce(state)
        if arguments:
            table.append(state, arguments)

    def _finish_choice(self, choice: int, reason: str) -> None:
        if self._reason is None or choice == 0:
            self._reason = reason
        self.end_choice(choice, reason)
        hash(choice)
        only = self._only
        if only is not None:
            if _same(only.choice, choice):
                self.table.close(only, reason)
            return
        cs = None if self._choices is None else self._choices.get(choice)
        if cs is None:
            return
        for state in cs.values() + cs.by_id.values():
            self.table.close(state, reason)
        if cs.last is not None:
            self.table.close(cs.last, reason)

    def reason_so_far(self) -> str | None:
        """The finish reason seen in the running response."""
        return self._reason

    def end_response(self, reason: str | None) -> None:
        """`[DONE]` or the end of the stream: close what is open, forget the indexes."""
        super().end_response(reason)
        self._choices = self._only = self._only_at = None
        self._reason = None


def _same(own: Any, key: Any) -> bool:
    """Whether a dict would find `key` where `own` is its key."""
    return own is key or own == key  # type: ignore[no-any-return]


def _complete(state: CallState) -> bool:
    """The call takes no more arguments: its document is complete, or it ended (invalid,
    too large...). A fragment naming a tool is then a new call."""
    parser = state.parser
    return state.finished or (parser is not None and parser.done)

"""The twin machine's positioned events, as a checking sink gets them (`events` set): the same
lines as rust/core/tests.rs's `a_checking_sink_gets_every_token_positioned_in_characters_
whatever_the_split`, for every split of the text."""

from __future__ import annotations

from typing import Any

from jsondrip.twin.builder import Builder
from jsondrip.twin.machine import Machine

TEXT = r'{"é": [1.5, "a\n\u00e9\ud83d\ude00\ud800b\udc00", true,-Infinity], "k": {}}'
EXPECTED = [
    "value { 0",
    "key 1",
    "char é 2",
    "end string 3",
    "value [ 6",
    "value 1 7",
    "end 1.5 10",
    'value " 12',
    "char a 13",
    "escape '\\n' 15",
    "escape 'é' 21",
    "escape '😀' 33",
    "escape '\\ud800' 39",
    "char b 40",
    "escape '\\udc00' 46",
    "end string 47",
    "value t 50",
    "end true 53",
    "value - 55",
    "end -Infinity 63",
    "end container 64",
    "key 67",
    "char k 68",
    "end string 69",
    "value { 72",
    "end container 73",
    "end container 74",
]


class Events(Builder):
    """A builder that also records the events, one line each (string content a character a
    line: the same lines whatever the split)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def value_begins(self, first: str, pos: int) -> None:
        self.lines.append(f"value {first} {pos}")

    def key_begins(self, pos: int) -> None:
        self.lines.append(f"key {pos}")

    def string_text(self, piece: str, start: int, plain: bool, closes: bool) -> None:
        if plain:
            self.lines += [f"char {c} {start + k}" for k, c in enumerate(piece)]
        else:
            self.lines.append(f"escape {piece!r} {start}")

    def string_ends(self, pos: int) -> None:
        self.lines.append(f"end string {pos}")

    def atom_ends(self, kind: int, text: str, pos: int) -> None:
        self.lines.append(f"end {text} {pos}")

    def container_ends(self, pos: int) -> None:
        self.lines.append(f"end container {pos}")


def events(chunks: list[str]) -> list[str]:
    sink = Events()
    machine: Any = Machine(sink, jiter_mode=False, max_depth=100)
    machine.events = True
    for chunk in chunks:
        machine.feed(chunk)
    machine.close()
    return sink.lines


def test_every_token_is_positioned_in_characters_whatever_the_split() -> None:
    assert events([TEXT]) == EXPECTED
    for cut in range(1, len(TEXT)):
        assert events([TEXT[:cut], TEXT[cut:]]) == EXPECTED, cut
    assert events(list(TEXT)) == EXPECTED
    assert events(["1", "2"]) == ["value 1 0", "end 12 2"]  # a root number ends with the stream


def test_a_long_string_fed_in_pieces_takes_the_machines_shortcut_with_its_events() -> None:
    """A fragment wholly inside a string value skips the machine's loop (twin only): its text
    still reaches the sink, positioned."""
    lines = events(['"ab', "cd", 'e"'])
    assert lines == ['value " 0'] + [f"char {c} {k + 1}" for k, c in enumerate("abcde")] + [
        "end string 6"
    ]

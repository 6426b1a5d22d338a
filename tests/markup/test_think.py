"""The reasoning-block splitter (markup/think.py): every tag cut anywhere, several names, only
the opening name's closing tag ends a block, nothing trimmed."""

from __future__ import annotations

import random

import pytest

from jsondrip.markup.think import REASONING_TAGS, ThinkSplitter


def split(pieces: list[str], tags: tuple[str, ...] = REASONING_TAGS) -> tuple[str, str]:
    splitter = ThinkSplitter(tags)
    found = [p for piece in pieces for p in splitter.feed(piece)] + splitter.flush()
    text = "".join(t for reasoning, t in found if not reasoning)
    thought = "".join(t for reasoning, t in found if reasoning)
    return text, thought


CASES = [
    ("<think>a</think>b", "b", "a"),
    ("x<thinking>a</think>b</thinking>c", "xc", "a</think>b"),
    ("<reasoning>r</reasoning> <think>t</think>\n", " \n", "rt"),
    ("a < b <thin x> </think>", "a < b <thin x> </think>", ""),
    ("<think>unclosed <", "", "unclosed <"),
    ("<Think>case</Think>", "<Think>case</Think>", ""),
    ("text <think", "text <think", ""),
]


@pytest.mark.parametrize(("text", "prose", "reasoning"), CASES)
def test_every_cut_gives_the_same_split(text: str, prose: str, reasoning: str) -> None:
    ways = [[text], list(text)]
    rng = random.Random(7)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(text)), min(3, len(text) - 1)))
        ways.append([text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])])
    for pieces in ways:
        assert split(pieces) == (prose, reasoning), pieces


def test_the_tool_call_default_is_think_alone() -> None:
    assert split(["<thinking>a</thinking><think>b</think>"], ("think",)) == (
        "<thinking>a</thinking>",
        "b",
    )


def test_text_is_passed_on_as_soon_as_it_cannot_be_a_tag() -> None:
    splitter = ThinkSplitter(REASONING_TAGS)
    assert splitter.feed("hello <th") == [(False, "hello ")]  # "<th" may open a tag
    assert splitter.feed("in") == []  # "<thin": still the start of <think> or <thinking>
    assert splitter.feed("gs") == [(False, "<things")]  # no tag starts so: text at once


def test_a_tag_name_must_be_a_word() -> None:
    with pytest.raises(ValueError, match="one word"):
        ThinkSplitter(("th ink",))

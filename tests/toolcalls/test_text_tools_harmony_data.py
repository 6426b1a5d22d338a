"""OpenAI's own Harmony test data, read in place: the text files of `openai/harmony`'s
`test-data/` (raw Harmony text: rendered conversations and completions, the function call and
browser messages included).

They are not copied here. The test reads them from a checkout, or from the bare git directory
that a mirror of the repository keeps: `$JSONDRIP_HARMONY` names either; without it, a
`.mirror/openai+harmony/repo` beside a parent folder of the project is used if there is one;
else the test skips and says so. The expected calls, text and reasoning come from a plain
reading of the whole text (split at the markers, as a non-streaming server parser would), and
the streaming reader must give the same for the text whole, by character and at random cuts.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from _toolcall_support import (  # noqa: F401 - make_acc is a fixture
    MakeAcc,
    make_acc_fixture,
    texts,
)
from conftest import ROOT

MESSAGE_END = re.compile(r"<\|(?:end|call|return)\|>")
RECIPIENT = re.compile(r"(?:^|\s)to=([^\s<]+)")


def harmony_repo() -> Path | None:
    named = os.environ.get("JSONDRIP_HARMONY")
    if named:
        return Path(named)
    for parent in ROOT.parents:
        candidate = parent / ".mirror" / "openai+harmony" / "repo"
        if candidate.is_dir():
            return candidate
    return None


def data_files() -> dict[str, str]:
    """`test-data/*.txt` of the repository that hold Harmony text (some hold token ids)."""
    repo = harmony_repo()
    if repo is None:
        return {}
    if (repo / "test-data").is_dir():  # a checkout
        found = {p.name: p.read_text("utf-8") for p in sorted((repo / "test-data").glob("*.txt"))}
    else:  # a bare git directory
        git = ["git", f"--git-dir={repo}"]
        try:
            names = subprocess.run(
                [*git, "ls-tree", "--name-only", "HEAD", "test-data/"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            found = {
                Path(name).name: subprocess.run(
                    [*git, "show", f"HEAD:{name}"], capture_output=True, check=True
                ).stdout.decode("utf-8")
                for name in names
                if name.endswith(".txt")
            }
        except (OSError, subprocess.CalledProcessError):
            return {}
    return {name: text for name, text in found.items() if "<|message|>" in text}


FILES = data_files()


def plain_reading(text: str) -> tuple[list[tuple[str, Any]], str, str]:
    """The calls, text and reasoning of a whole Harmony text, read message by message."""
    calls: list[tuple[str, Any]] = []
    visible, reasoning = [], []
    for number, message in enumerate(text.split("<|start|>")):
        if "<|message|>" not in message:
            continue
        header, _, rest = message.partition("<|message|>")
        content = MESSAGE_END.split(rest, maxsplit=1)[0]
        role_part, _, channel_part = header.partition("<|channel|>")
        role = role_part.split()[:1] if number else []  # the first: its role is the prompt's
        if role not in ([], ["assistant"]):
            continue
        channel = channel_part.split("<|constrain|>")[0].split()[:1]
        found = RECIPIENT.search(role_part + " " + channel_part.split("<|constrain|>")[0])
        if found and found.group(1).startswith("functions."):
            calls.append((found.group(1)[len("functions.") :], json.loads(content)))
        elif found or channel == ["analysis"]:
            reasoning.append(content)
        else:
            visible.append(content)
    return calls, "".join(visible), "".join(reasoning)


# A plain skip, also in CI: openai/harmony's data is another project's repository, not part of
# the shared corpus that CI provides, and the harmony family's own fixtures
# (tests/toolcalls/_text_fixtures.py) run everywhere; this file adds a reading of theirs where
# a checkout is at hand.
@pytest.mark.skipif(
    not FILES,
    reason="openai/harmony's test data not found: set JSONDRIP_HARMONY to a checkout (or to "
    "the git directory of a mirror) of https://github.com/openai/harmony",
)
@pytest.mark.parametrize("name", sorted(FILES) or ["<none>"])
def test_openai_harmony_test_data(make_acc: MakeAcc, name: str) -> None:
    text = FILES[name]
    calls, visible, reasoning = plain_reading(text)
    rng = random.Random(name)
    cuts = sorted(rng.sample(range(1, len(text)), min(30, len(text) - 1)))
    splits = [[text], list(text), [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]]
    for pieces in splits:
        acc = make_acc(text_tools="harmony")
        events: list[Any] = []
        for piece in pieces:
            events += acc.feed_text(piece)
        events += acc.finish()
        assert [(c.name, c.arguments) for c in acc.tool_calls] == calls
        assert all(c.complete for c in acc.tool_calls)
        assert texts(events) == ({0: visible} if visible else {}, reasoning)

"""The official JSON-Schema-Test-Suite (Draft 2020-12): every test of every schema jsondrip
compiles gets the suite's verdict and `jsonschema`'s, on both backends, whole and at every cut;
no valid document is flagged on any prefix, and a violation is reported at the same place
however the text is cut.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from _schema_support import key, run
from conftest import CORPUS, corpus_dir

from jsondrip.schema import Schema, UnsupportedSchema

SUITE = CORPUS / "json-schema-test-suite" / "tests" / "draft2020-12"


def _cases() -> list[Any]:
    if not SUITE.is_dir():
        return [pytest.param(None, id="no-corpus")]
    cases = []
    for path in sorted(SUITE.glob("*.json")):
        for number, group in enumerate(json.loads(path.read_text())):
            cases.append(pytest.param(group, id=f"{path.stem}-{number}"))
    return cases


def _compile(group: Any) -> Schema:
    if group is None:
        corpus_dir("json-schema-test-suite")  # skips, or fails in CI, saying how to get it
    try:
        return Schema(group["schema"])
    except UnsupportedSchema as refused:
        # Refused by name, never half-checked: the message names what is not supported.
        assert "unsupported" in str(refused) or "not supported" in str(refused)
        pytest.skip(f"refused: {refused}")


@pytest.mark.parametrize("group", _cases())
def test_final_verdict_matches_the_suite_and_jsonschema(group: Any, backend: str) -> None:
    schema = _compile(group)
    oracle = jsonschema.Draft202012Validator(group["schema"])
    for test in group["tests"]:
        for text in (
            json.dumps(test["data"]),
            json.dumps(test["data"], ensure_ascii=False, indent=1),
        ):
            violation, _ = run(schema, [text], backend)
            assert (violation is None) == test["valid"] == oracle.is_valid(test["data"]), (
                test,
                text,
                violation,
            )


@pytest.mark.parametrize("group", _cases())
def test_every_cut_gives_the_same_answer_and_valid_prefixes_pass(group: Any, backend: str) -> None:
    schema = _compile(group)
    for test in group["tests"]:
        text = json.dumps(test["data"])
        whole, _ = run(schema, [text], backend)
        # A character at a time: every prefix is checked as it arrives.
        single, fed = run(schema, text, backend)
        assert key(single) == key(whole), (test, text)
        if test["valid"]:
            assert single is None, (test, text, single)
        elif single is not None and fed <= len(text):
            # Flagged before the end: the prefix itself can no longer be completed validly.
            assert single.pos < fed, (text, single.pos, fed)
        for cut in range(1, len(text)):
            parts, _ = run(schema, [text[:cut], text[cut:]], backend)
            assert key(parts) == key(whole), (test, text, cut)
        # UTF-8 bytes a byte at a time (code points cut in the middle): the same answer.
        data = json.dumps(test["data"], ensure_ascii=False).encode()
        as_bytes, _ = run(schema, [data[i : i + 1] for i in range(len(data))], backend)
        assert key(as_bytes) == key(run(schema, [data.decode()], backend)[0]), (test, data)

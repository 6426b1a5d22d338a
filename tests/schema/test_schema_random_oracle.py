"""Random schemas over every supported keyword (the native/twin comparison's generator) and
random documents, cut at random places: every installed backend gives `jsonschema`'s verdict
(issue #30 item 18: the conditional, unevaluated and reference keywords included)."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
from _schema_support import run
from conftest import installed_backends
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_schema_native_twin import DOCUMENTS, flat_schemas, schemas
from test_schema_properties import SCHEMA_AND_VALUE, cuts, render

from jsondrip.schema import Schema


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(schemas(), flat_schemas()),
    st.one_of(DOCUMENTS, SCHEMA_AND_VALUE.map(lambda pair: pair[1])),
    st.randoms(use_true_random=False),
)
def test_the_final_verdict_is_jsonschemas(schema: Any, document: Any, rnd: random.Random) -> None:
    try:
        compiled = Schema(schema)
    except ValueError:
        return  # refused by name (the suite's test proves what may be)
    try:
        valid = jsonschema.Draft202012Validator(schema).is_valid(document)
    except jsonschema.exceptions._WrappedReferencingError:
        return  # an anchor defined twice by the generator: jsonschema gives up too
    text = render(document, rnd)
    for backend in installed_backends():
        violation, _ = run(compiled, cuts(text, rnd), backend)
        assert (violation is None) == valid, (schema, text, violation, backend)

"""The typed-streaming comparison runs and reports every target (a tiny run, no timing asserted)."""

from __future__ import annotations

from conftest import need_module, skip_unless_native

from jsondrip.bench import schema


def test_a_tiny_run_reports_every_contender_and_target() -> None:
    skip_unless_native()  # its contenders include the native backend, and pydantic
    need_module("pydantic")
    results = schema.measure(repeats=1, sizes=(2_000, 4_000))
    table = schema.report(results)
    for name in (
        "jsondrip-native plain",
        "jsondrip-native typed",
        "jsondrip-python typed",
        "pydantic allow_partial",
        "instructor-style",
    ):
        assert f"| {name}" in table
    assert "| typed / plain, native |" in table and "<= 2x:" in table
    assert "| pydantic allow_partial / typed native |" in table
    assert "typed native, 4 KB / 2 KB" in table


def test_the_records_pass_their_schema(backend: str) -> None:
    import jsondrip
    from jsondrip.bench.workloads import records_text

    parser = jsondrip.Parser(schema=schema.DOCUMENT_SCHEMA, backend=backend)
    parser.feed(records_text(20_000))
    assert len(parser.close()["records"]) > 10

"""The verifier never crashes: hypothesis draws structural mutations of real
records (``tests/fuzz/records.py``: renamed keys, wrong types, truncated JSON, extra, missing
and swapped lines, wrong encodings) and every one gets a typed outcome with a message."""

from __future__ import annotations

from hypothesis import given, settings

from service.audit.records import Outcome, verify_record
from tests.fuzz.records import Mutation, apply, base_records, mutations


@settings(max_examples=150, deadline=None)
@given(mutations())
def test_every_mutation_is_a_typed_outcome(mutation: Mutation) -> None:
    """Never an exception; a non-OK outcome names a line (unless about the whole record);
    a changed command key or truncated line is never OK."""
    original = base_records()[mutation.record]
    changed = apply(mutation)
    report = verify_record(changed.split(b"\n"))
    assert isinstance(report.outcome, Outcome) and report.message
    if not report.ok and report.outcome is not Outcome.UNSUPPORTED:
        assert report.divergence is not None
    if changed == original:
        assert report.ok, report.message
    if mutation.kind in ("truncate", "duplicate", "remove", "insert", "encoding"):
        assert changed == original or not report.ok, (mutation, report.message)

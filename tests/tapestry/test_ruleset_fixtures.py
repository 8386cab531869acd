"""Records exported under ``tapestry/1`` (before ``tapestry/2`` changed the rules) still verify
and re-execute byte for byte under the ruleset they were recorded with."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.audit.records import parse_lines, verify_record
from tests.records import read_lines, recorded_hashes, reexecute

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("kind", ["finished", "unfinished"])
def test_tapestry_1_records_verify_and_reexecute(kind: str) -> None:
    """A ruleset is never changed: the ``tapestry/1`` records re-execute to the same hashes."""
    lines = read_lines(FIXTURES / f"tapestry-1-{kind}.jsonl")
    assert parse_lines(lines)[0]["ruleset"] == "tapestry/1"
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted == (kind == "finished")
    seed = bytes.fromhex((FIXTURES / f"tapestry-1-{kind}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)

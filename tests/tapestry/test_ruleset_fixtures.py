"""Records exported under an older Tapestry ruleset (``tapestry/1`` before ``tapestry/2``
changed the rules, ``tapestry/2`` with the boxes before ``tapestry/3``) still verify and
re-execute byte for byte under the ruleset they were recorded with."""

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


@pytest.mark.parametrize("kind", ["finished", "unfinished"])
def test_tapestry_2_records_with_the_boxes_verify_and_reexecute(kind: str) -> None:
    """``tapestry/3`` changed what a civilization gained mid-game may be with Arts &
    Architecture and Fantasies & Futures in play, and where the Celestials' replaced outpost
    goes: ``tapestry/2`` records with both boxes and a starting Celestials (exported before that
    change) re-execute to the same hashes."""
    lines = read_lines(FIXTURES / f"tapestry-2-boxes-{kind}.jsonl")
    header = parse_lines(lines)[0]
    assert header["ruleset"] == "tapestry/2"
    assert header["options"]["starting_civilizations"][0] == "celestials"
    assert any(b'"SkyCapitalMoved"' in line for line in lines)
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted == (kind == "finished")
    seed = bytes.fromhex((FIXTURES / f"tapestry-2-boxes-{kind}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)

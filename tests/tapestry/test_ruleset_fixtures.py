"""Records exported under an older Tapestry ruleset (``tapestry/1`` before ``tapestry/2``
changed the rules, ``tapestry/2`` with the boxes before ``tapestry/3``, ``tapestry/3`` solo and
3-seat games before ``tapestry/4``) still verify and re-execute byte for byte under the ruleset
they were recorded with."""

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


@pytest.mark.parametrize(
    "stem",
    [
        "tapestry-3-solo-level5-bots-first-finished",
        "tapestry-3-solo-level6-bots-first-finished",
        "tapestry-3-solo-level6-bots-first-unfinished",
    ],
)
def test_tapestry_3_solo_records_with_the_bots_first_verify_and_reexecute(stem: str) -> None:
    """``tapestry/4`` plays the advances of the bots' first income turn at levels 5-6 when the
    bots play first: base solo ``tapestry/3`` records where the bots play first (exported
    before that change) re-execute to the same hashes, the advances still missing. (These
    games gain no civilization mid-game and never block the middle island: the other solo
    changes are checked against ``tapestry/3`` in ``test_ruleset4.py``.)"""
    lines = read_lines(FIXTURES / f"{stem}.jsonl")
    items = parse_lines(lines)
    header = items[0]
    assert header["ruleset"] == "tapestry/3"
    assert header["options"]["automa_level"] in (5, 6)
    assert "expansions" not in header["options"]
    setup = [item["kind"] for item in items[1:] if item["type"] == "event"]
    setup = setup[: setup.index("AgendaSet")] if "AgendaSet" in setup else setup
    # the bots' first income turn ran during the setup, without any advance
    assert "AutomaIncomeTurnStarted" in setup
    assert "AutomaAdvanced" not in setup and "ShadowEmpireAdvanced" not in setup
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted == stem.endswith("-finished")
    seed = bytes.fromhex((FIXTURES / f"{stem}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)


@pytest.mark.parametrize("kind", ["finished", "unfinished"])
def test_tapestry_3_records_of_three_seats_verify_and_reexecute(kind: str) -> None:
    """``tapestry/3`` records of a base 3-seat game, exported by the code before
    ``tapestry/4``, re-execute to the same hashes. (No THIS ERA card is played during an
    income turn 5 in them: that change is checked against ``tapestry/3`` in
    ``test_ruleset4.py``.)"""
    lines = read_lines(FIXTURES / f"tapestry-3-three-seats-{kind}.jsonl")
    header = parse_lines(lines)[0]
    assert header["ruleset"] == "tapestry/3"
    assert len(header["seats"]) == 3
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted == (kind == "finished")
    seed = bytes.fromhex((FIXTURES / f"tapestry-3-three-seats-{kind}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)

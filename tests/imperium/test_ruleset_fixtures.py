"""Records exported under ``imperium-classics/1`` (before ``imperium/2`` changed the rules),
solo records of ``imperium/2`` and ``imperium/3`` (before ``imperium/3`` and ``imperium/4``
changed the solo rules) and ``imperium/4`` records, multiplayer and solo (before ``imperium/5``
changed both), still verify and re-execute byte for byte under the ruleset they were recorded
with."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.audit.records import parse_lines, verify_record
from tests.records import read_lines, recorded_hashes, reexecute

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("kind", ["finished", "unfinished"])
def test_imperium_classics_1_records_verify_and_reexecute(kind: str) -> None:
    """A ruleset is never changed: ``imperium-classics/1`` records re-execute identically."""
    lines = read_lines(FIXTURES / f"imperium-classics-1-{kind}.jsonl")
    assert parse_lines(lines)[0]["ruleset"] == "imperium-classics/1"
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted == (kind == "finished")
    seed = bytes.fromhex((FIXTURES / f"imperium-classics-1-{kind}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)


@pytest.mark.parametrize("civ", ["utopians", "arthurians"])
def test_imperium_2_solo_records_reexecute_unchanged(civ: str) -> None:
    """Solo games recorded under ``imperium/2`` (before ``imperium/3`` gave the Utopian C.I.V.
    its voyage and the Arthurian one its pending quests; recorded with that earlier code)
    verify and re-execute byte for byte."""
    lines = read_lines(FIXTURES / f"imperium-2-solo-{civ}.jsonl")
    header = parse_lines(lines)[0]
    assert header["ruleset"] == "imperium/2" and header["options"]["civ_nation"] == civ
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted
    seed = bytes.fromhex((FIXTURES / f"imperium-2-solo-{civ}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)


@pytest.mark.parametrize("civ", ["utopians", "arthurians"])
def test_imperium_3_solo_records_reexecute_unchanged(civ: str) -> None:
    """Solo games recorded under ``imperium/3`` (exported by the code before ``imperium/4``
    read the decision-table rows the OCR had left unreadable, random human against the
    C.I.V. at Chef de clan) verify and re-execute byte for byte."""
    lines = read_lines(FIXTURES / f"imperium-3-solo-{civ}.jsonl")
    header = parse_lines(lines)[0]
    assert header["ruleset"] == "imperium/3" and header["options"]["civ_nation"] == civ
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted
    seed = bytes.fromhex((FIXTURES / f"imperium-3-solo-{civ}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)


@pytest.mark.parametrize(
    ("name", "seats", "nations"),
    [
        ("celts-vikings", 2, ["celts", "vikings"]),
        ("solo-carthaginians", 1, ["greeks"]),
        ("solo-atlanteans", 1, ["romans"]),
    ],
)
def test_imperium_4_records_reexecute_unchanged(name: str, seats: int, nations: list[str]) -> None:
    """Finished games recorded under ``imperium/4`` by the code before ``imperium/5`` (random
    bots): two seats with the Celts and Vikings (nation unrest cards marked 3+/4 in the pile),
    a solo game against a Carthaginian C.I.V. (unrest cards in its personal deck) and one
    against an Atlantean C.I.V. at Seigneur de guerre with a campaign card added to the
    human's deck (1REG10). They verify and re-execute byte for byte."""
    lines = read_lines(FIXTURES / f"imperium-4-{name}.jsonl")
    header = parse_lines(lines)[0]
    assert header["ruleset"] == "imperium/4"
    assert len(header["seats"]) == seats and header["options"]["nations"] == nations
    report = verify_record(lines)
    assert report.ok, report.message
    assert report.reexecuted
    seed = bytes.fromhex((FIXTURES / f"imperium-4-{name}.seed").read_text().strip())
    assert reexecute(lines, seed) == recorded_hashes(lines)

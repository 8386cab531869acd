"""Tournament records exported by earlier releases verify forever (fixtures never
regenerated: ``tests/tournament/fixtures/README.md``)."""

from __future__ import annotations

from pathlib import Path

from service.tournaments.record import verify_tournament

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_record_from_before_salted_commitments_verifies() -> None:
    """Its game (record format 1) commits to SHA-256(seed), not SHA-256(nonce || seed): the
    verifier derives the seed from the master seed and checks the commitment the game made
    (it refused the record: "the game's seed_commitment is not the one assigned"); a changed
    byte of the game is still caught."""
    lines = (FIXTURES / "riseandfall-before-salting.jsonl").read_bytes().splitlines()
    report = verify_tournament(lines)
    assert report.ok, report
    game = b'{"record":"annales.game/1"'
    header = next(i for i, line in enumerate(lines) if line.startswith(game))
    changed = [*lines[:header], lines[header].replace(b'"seats":["A","B"]', b'"seats":["B","A"]'),
               *lines[header + 1 :]]  # fmt: skip
    assert not verify_tournament(changed).ok

"""Record fixtures: games exported under a ruleset, kept in the repository, re-executed forever.

A rules change is a new ruleset; the old one must keep producing the very same bytes. Each
game keeps one finished and one unfinished record exported under an old ruleset (in
``tests/<game>/fixtures/``). A finished record carries its revealed seed, so
:func:`service.audit.records.verify_record` re-executes it. An unfinished one keeps its seed
secret; the fixture's seed is kept beside it (``<name>.seed``, hex) so that
:func:`reexecute` can replay its commands and compare every hash.

Regenerate (only ever for a *new* fixture; never overwrite one that a test pins)::

    .venv/bin/python -m tests.records tapestry tapestry/1 2 tests/tapestry/fixtures
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from domain.bots import make_bot
from service.app.ledger import SETUP_COMMAND_ID, Ledger
from service.audit.records import export_lines, parse_lines
from tests.harness import Table, play


def read_lines(path: Path) -> list[bytes]:
    """The lines of a record file (without their newlines)."""
    return [line for line in path.read_bytes().split(b"\n") if line]


def reexecute(lines: Sequence[bytes], seed: bytes) -> list[str]:
    """Replay a record's commands from ``seed`` under its recorded ruleset; the hashes.

    Returns every recomputed event hash, in order (compare with the recorded ones).
    """
    items = parse_lines(lines)
    header = items[0]
    ledger: Ledger | None = None
    hashes: list[str] = []

    def no_undo(version: int) -> Any:
        raise AssertionError(f"the fixture undoes to version {version}")

    for item in items[1:]:
        if item["type"] != "command":
            continue
        if item["command_id"] == SETUP_COMMAND_ID and ledger is None:
            ledger, produced = Ledger.create(
                str(header["game_id"]),
                str(header["game_type"]),
                dict(header["options"]),
                list(header["seats"]),
                seed,
                str(header["ruleset"]),
            )
        else:
            assert ledger is not None
            command = ledger.codec.command_from_data(item["command"])
            _, produced = ledger.submit(
                int(item["seat"]),
                command,
                str(item["command_id"]),
                seed,
                no_undo,
                item["idempotency_key"],
            )
        hashes.extend(envelope.hash for envelope in produced)
    return hashes


def recorded_hashes(lines: Sequence[bytes]) -> list[str]:
    """The event hashes a record holds, in order."""
    return [str(item["hash"]) for item in parse_lines(lines)[1:] if item["type"] == "event"]


def export_fixture(
    game_type: str, ruleset: str, seats: int, folder: Path, unfinished_commands: int = 60
) -> None:
    """Write ``<ruleset>-finished.jsonl`` and ``<ruleset>-unfinished.jsonl`` (+ ``.seed``)."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = ruleset.replace("/", "-")
    for kind, limit in (("finished", 200_000), ("unfinished", unfinished_commands)):
        seed = f"fixture-{ruleset}-{kind}".encode()
        table = Table(game_type, seats, seed, ruleset=ruleset)
        bots = {i: make_bot("random", seed + bytes([i])) for i in range(seats)}
        play(table, bots, max_commands=limit)
        assert table.is_over() == (kind == "finished")
        lines = export_lines(table.envelopes, table.decode)
        (folder / f"{stem}-{kind}.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
        (folder / f"{stem}-{kind}.seed").write_text(seed.hex() + "\n")


if __name__ == "__main__":
    export_fixture(sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))

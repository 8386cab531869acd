"""Generate the record fixtures of ``tests/audit/fixtures`` (run once, then never again).

The fixtures are records exported by the release before salted seed commitments (commit
``0ccd590``): every game type, finished and unfinished, as a spectator and — where it differs
— as seat 0. ``tests/audit/test_fixtures.py`` verifies them in every later version ("records
verify forever"). Re-running this script with a later version would overwrite them with
records of that version, which would defeat their purpose: it refuses if the fixtures exist.

Usage: ``.venv/bin/python -m tests.audit.make_fixtures`` (from the repository root).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from domain.bots import make_bot
from domain.core.kernel_events import Undo
from service.api.redaction import RecordRequest, Redactor
from service.app.application import GameService
from service.app.autoplay import play_with_bots
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

HERE = Path(__file__).parent / "fixtures"

#: (name, game type, options, seats, seed, bot kind, commands for the unfinished game)
GAMES = [
    ("riseandfall", "riseandfall", {}, 3, b"fixture-riseandfall-2026", "random", 54),
    ("tapestry", "tapestry", {}, 2, b"fixture-tapestry-2026", "greedy", 60),
    ("imperium", "imperium", {"nations": ["romans", "celts"]}, 2, b"fixture-imperium-2026",
     "random", 54),
]  # fmt: skip


def _game_id(game_type: str, limit: int | None) -> str:
    return f"fixture-{game_type}-{'finished' if limit is None else 'unfinished'}"


def _export(service: GameService, game_id: str, viewer: int | None) -> bytes:
    record, _ = Redactor(service).outgoing(game_id, viewer, RecordRequest())
    assert isinstance(record, bytes)
    return record


def _play(service: GameService, game_type: str, options: dict[str, object], seats: int,
          seed: bytes, kind: str, limit: int | None) -> str:  # fmt: skip
    game_id = service.create_game(
        game_type,
        options,
        [f"p{i}" for i in range(seats)],
        seed,
        game_id=_game_id(game_type, limit),
    ).game_id
    bots = {i: make_bot(kind, seed + bytes([i])) for i in range(seats)}
    # a few commands, then an undo (where the rules allow it) so the records hold one
    play_with_bots(service, game_id, bots, max_commands=6)  # type: ignore[arg-type]
    for seat in range(seats):
        try:
            service.submit(game_id, seat, Undo(), idempotency_key=f"undo-{seat}")
            break
        except Exception:
            continue
    play_with_bots(service, game_id, bots, max_commands=None if limit is None else limit)  # type: ignore[arg-type]
    return game_id


def main() -> int:
    """Write the fixtures (refuses to overwrite)."""
    if any(HERE.glob("*.jsonl")):
        print("fixtures exist: they are the records of an old release, never regenerated")
        return 1
    HERE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(StoreConfig(kind="sqlite", path=str(Path(tmp) / "f.db")))
        service = GameService(store)
        for name, game_type, options, seats, seed, kind, limit in GAMES:
            for finished in (True, False):
                game_id = _play(service, game_type, options, seats, seed, kind,
                                None if finished else limit)  # fmt: skip
                over = service.head(game_id).kernel.seed is not None
                assert over == finished, (name, finished)
                state = "finished" if finished else "unfinished"
                spectator = _export(service, game_id, None)
                (HERE / f"{name}-{state}-spectator.jsonl").write_bytes(spectator)
                seat = _export(service, game_id, 0)
                if seat != spectator:
                    (HERE / f"{name}-{state}-seat0.jsonl").write_bytes(seat)
        store.close()
    for path in sorted(HERE.glob("*.jsonl")):
        print(path.name, len(path.read_bytes().splitlines()), "lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

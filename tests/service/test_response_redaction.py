"""SubmitAction's answer is redacted from the state the command itself folded.

The answer to a command carries its events redacted for the caller, each as of its own version
(the state right after that event). The server derives them while the command folds
(``GameService.submit(observe=Redactor.observe)`` → ``Redactor.submitted``) instead of folding
the events a second time on a ledger of the redactor's own (``Redactor.outgoing``). These tests
play seeded bot games of every game type on a real SQLite store, with undos, and check for every
command and every viewer — each seat and the spectator — that both paths give the same bytes,
and the same bytes as each message built on its own (the redactor builds a form shared by
several viewers once).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.bots import make_bot
from domain.core import Undo
from service.api.redaction import Redactor
from service.app.application import GameService
from service.app.errors import RuleRejected
from service.store.config import StoreConfig
from service.store.eventstore import EventStore

#: (game type, seats, options, commands played)
GAMES = (
    ("riseandfall", 3, {}, 160),
    ("tapestry", 3, {}, 120),
    ("imperium", 2, {}, 120),
)
UNDO_EVERY = 9


@pytest.mark.parametrize(("game_type", "seats", "options", "commands"), GAMES)
def test_answer_from_the_commands_fold_equals_a_second_fold(
    tmp_path: Path, game_type: str, seats: int, options: dict[str, object], commands: int
) -> None:
    store = EventStore(StoreConfig(kind="sqlite", path=str(tmp_path / "events.db")))
    try:
        service = GameService(store)
        fresh, refold = Redactor(service), Redactor(service)
        names = [f"p{i}" for i in range(seats)]
        seed = f"response-redaction-{game_type}".encode()
        game_id = service.create_game(game_type, options, names, seed=seed).game_id
        bots = {s: make_bot("random", seed + bytes([s])) for s in range(seats)}
        redacted = multi = undone = 0
        for step in range(commands):
            match = service.head(game_id)
            if match.game.is_over(match.state):
                break
            seat = match.game.pending(match.state).seats[0]
            command = bots[seat].choose(match.game, match.state, seat)
            result = service.submit(
                game_id, seat, command, match.version, f"k{step}", observe=fresh.observe
            )
            multi += len(result.envelopes) > 1
            redacted += _compare(service, fresh, refold, game_id, result)
            if step % UNDO_EVERY == 0:
                try:
                    undo = service.submit(game_id, seat, Undo(), observe=fresh.observe)
                except RuleRejected:
                    continue
                undone += 1
                _compare(service, fresh, refold, game_id, undo)
        # the comparison covered hidden information, commands of several events and undos
        assert redacted > 0 and multi > 0 and undone > 0, (redacted, multi, undone)
    finally:
        store.close()


def _compare(
    service: GameService, fresh: Redactor, refold: Redactor, game_id: str, result: object
) -> int:
    """Both paths' bytes for every viewer; how many events were redacted for someone."""
    envelopes = result.envelopes  # type: ignore[attr-defined]
    observed = result.observed  # type: ignore[attr-defined]
    assert observed is not None and len(observed) == len(envelopes)
    redacted = 0
    for viewer in [None, *range(service.head(game_id).seats)]:
        with service.lock(game_id):
            new = fresh.submitted(game_id, viewer, envelopes, observed)
            old = refold.outgoing(game_id, viewer, list(envelopes))
        assert [m.SerializeToString() for m in new] == [m.SerializeToString() for m in old]
        # and each message as built on its own (the redactor builds equal forms once)
        match = service.head(game_id)
        alone = [
            fresh._message(match, e, event, event if shown is None else shown[viewer])
            for e, (event, shown) in zip(envelopes, observed, strict=True)
        ]
        assert [m.SerializeToString() for m in new] == [m.SerializeToString() for m in alone]
        redacted += sum(m.redacted for m in new)
    return redacted

"""Solo Tapestry through the application layer on a real SQLite file: the human may undo a
command that revealed nothing, never one whose events drew a decision card for the bots (a
``REVEALS`` event); undo restores the exact earlier state; the finished game's record verifies
and lists the Automa as a party.
"""

from __future__ import annotations

from domain.bots import make_bot
from domain.core import Undo
from service.app.application import GameService
from service.app.errors import RuleRejected
from tests.harness import state_bytes


def test_undo_never_passes_a_revealed_decision_card(service: GameService) -> None:
    game_id = service.create_game("tapestry", {"automa_level": 2}, ["solo"], b"solo-undo").game_id
    bot = make_bot("random", b"solo-undo-bot")
    refused = undone = 0
    for step in range(3000):
        match = service.head(game_id)
        game = match.game
        if game.is_over(match.state):
            break
        before = state_bytes(game, match.state)
        version = match.version
        service.submit(game_id, 0, bot.choose(game, match.state, 0))
        new = service.store.read(game_id, after=version, upto=service.head(game_id).version)
        drew = any(e.kind == "AutomaDecisionDrawn" for e in new)
        if step % 3 and not drew:
            continue  # let the game go on: undo is tried after some commands only
        try:
            service.submit(game_id, 0, Undo())
        except RuleRejected:
            refused += drew
            continue
        assert not drew, "undo went past a revealed decision card"
        undone += 1
        assert state_bytes(game, service.head(game_id).state) == before
    assert refused > 0 and undone > 0
    match = service.head(game_id)
    assert match.game.is_over(match.state)
    (party,) = match.game.parties(match.state)
    assert party.name == "Automa"

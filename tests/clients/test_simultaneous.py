"""A simultaneous choice that is still legal after another seat's choice
landed first is sent again, never dropped (``annales_cli.play.submit_rebased``).

Each game is played with seeded uniform choices through a real server; at every decision
where several seats choose at once, the first seat lists its actions, another seat's choice
lands first, then the first seat submits with the now stale version. The decisions met are
checked against each game's simultaneous decisions (Rise & Fall: the card choice and the
decline choice; Tapestry: the setup choices; Imperium: none — its turns are sequential).
"""

from __future__ import annotations

import random

import pytest
from annales_cli.play import submit_rebased
from annales_client import AnnalesClient, Seat

from tests.clients.conftest import ServerProcess

#: game -> (players, options, the simultaneous decisions that must be met, actions budget)
GAMES = {
    "riseandfall": (3, {}, {"choose_card", "decline"}, 1500),
    "tapestry": (3, {}, {"setup"}, 300),
    "imperium": (2, {}, set(), 300),
}


def _play(client: AnnalesClient, game: str, seed: str) -> dict[str, int]:
    players, options, _, budget = GAMES[game]
    created = client.create_game(game, [f"p{i}" for i in range(players)], seed, options)
    seats = {s.seat: s for s in created.seats}
    rng = random.Random(seed)
    rebased: dict[str, int] = {}
    for _ in range(budget):
        summary = client.get_game(created.game_id).game
        if summary.status == 2 and not summary.pending.seats:  # finished
            break
        pending = list(summary.pending.seats)
        if not pending:
            break
        if len(pending) >= 2:
            first, other = seats[pending[0]], seats[pending[1]]
            mine = client.list_legal_actions(first)
            theirs = client.list_legal_actions(other)
            if mine.actions and theirs.actions:
                client.submit_action(other, rng.choice(list(theirs.actions)))
                action = rng.choice(list(mine.actions))
                still = client.list_legal_actions(first)
                legal = action.SerializeToString(deterministic=True) in {
                    a.SerializeToString(deterministic=True) for a in still.actions
                }
                response, note = submit_rebased(client, first, action, mine.version)
                if legal:
                    assert response is not None, note
                    if still.version != mine.version:
                        assert "sent again" in note, note
                    rebased[summary.pending.decision] = rebased.get(summary.pending.decision, 0) + 1
                else:
                    assert response is None and "no longer legal" in note
                continue
        seat: Seat = seats[pending[0]]
        listed = client.list_legal_actions(seat)
        if not listed.actions:
            continue
        client.submit_action(
            seat, rng.choice(list(listed.actions)), expected_version=listed.version
        )
    return rebased


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_simultaneous_choice_still_legal_is_sent_again(
    annales_server: ServerProcess, game: str
) -> None:
    """Every simultaneous decision of the game met in a seeded play keeps the first seat's
    choice after another seat's choice landed first."""
    with AnnalesClient(annales_server.target) as client:
        rebased = _play(client, game, f"simultaneous-{game}")
    expected = GAMES[game][2]
    assert expected <= set(rebased), (game, rebased)

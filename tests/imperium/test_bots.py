"""Seeded random-bot games ("Comment jouer", "Fin de partie").

Games between ``domain.bots`` random bots for several 2-player pairings and random 3-4 player
tables reach scoring or collapse without an exception, and a fresh fold of the events equals
the state held during play. More seeds run with ``-m long``.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.core import Chance
from domain.imperium import content as C
from tests.imperium.helpers import GAME, bot_game, refold

PAIRS = [
    ["macedonians", "romans"],
    ["celts", "vikings"],
    ["greeks", "persians"],
    ["carthaginians", "scythians"],
]


def _table(seed: int, players: int) -> list[str]:
    chance = Chance(f"table-{seed}".encode(), 0)
    return [C.CLASSICS_NATIONS[i] for i in chance.permutation(8)[:players]]


def _check(nations: list[str], seed: int, sides: list[str] | None = None) -> None:
    state, log, _ = bot_game(nations, seed, sides)
    assert GAME.is_over(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert state.collapse or state.end_trigger
    assert refold(nations, log, sides) == msgspec.msgpack.encode(state)


@pytest.mark.parametrize("nations", PAIRS)
def test_two_player_pairings_finish(nations: list[str]) -> None:
    """Each 2-player pairing plays to the end; fold of the log == held state."""
    _check(nations, 1, ["A", "B"])


@pytest.mark.parametrize("players", [3, 4])
def test_random_tables_finish(players: int) -> None:
    """Random 3- and 4-player tables play to the end ("Fin de partie")."""
    _check(_table(players, players), players)


@pytest.mark.long
@pytest.mark.parametrize("seed", range(40))
def test_many_seeded_games(seed: int) -> None:
    """Many seeds, 2-4 players, random power-card faces."""
    players = 2 + seed % 3
    chance = Chance(f"faces-{seed}".encode(), 0)
    sides = ["A" if chance.below(2) else "B" for _ in range(players)]
    _check(_table(seed, players), seed, sides)

"""Helpers for the Imperium engine tests: started games, hand-set positions, random games.

Tests drive :class:`~domain.imperium.game.ImperiumGame` directly (the game is not registered
with the service): ``decide`` then ``evolve``, as the kernel would.
"""

from __future__ import annotations

import msgspec

from domain.bots import make_bot
from domain.core import Chance, Command, Event
from domain.imperium.game import ImperiumGame
from domain.imperium.state import ImperiumState

GAME = ImperiumGame()


def new_game(
    nations: list[str], seed: bytes = b"tests", sides: list[str] | None = None
) -> tuple[ImperiumState, list[Event]]:
    """A game after its setup events (the first seat is choosing its order)."""
    options = GAME.decode_options({"nations": nations, "sides": sides or []})
    state = GAME.initial(options, len(nations))
    events = GAME.setup(state, Chance(seed, 0))
    for event in events:
        GAME.evolve(state, event)
    return state, events


def act(state: ImperiumState, command: Command, seed: bytes = b"tests") -> list[Event]:
    """The pending seat decides ``command``; its events are folded into ``state``."""
    seat = GAME.pending(state).seats[0]
    events = GAME.decide(state, seat, command, Chance(seed, state.turn * 1000 + len(state.agenda)))
    for event in events:
        GAME.evolve(state, event)
    return events


def decision(state: ImperiumState) -> str:
    """The name of the pending decision."""
    return GAME.pending(state).decision


def names(events: list[Event]) -> list[str]:
    """Class names of events."""
    return [type(e).__name__ for e in events]


def bot_game(nations: list[str], seed: int, sides: list[str] | None = None
             ) -> tuple[ImperiumState, list[Event], int]:  # fmt: skip
    """A whole game between random bots (``domain.bots``); the state, the log, commands."""
    game_seed = f"game-{seed}".encode()
    options = GAME.decode_options({"nations": nations, "sides": sides or []})
    state = GAME.initial(options, len(nations))
    log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
    for event in log:
        GAME.evolve(state, event)
    bots = [make_bot("random", f"bot-{seed}-{i}".encode()) for i in range(len(nations))]
    commands = 0
    while not GAME.is_over(state):
        seat = GAME.pending(state).seats[0]
        command = bots[seat].choose(GAME, state, seat)
        events = GAME.decide(state, seat, command, Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
        commands += 1
        assert commands < 20000, "the game does not end"
    return state, log, commands


def refold(nations: list[str], log: list[Event], sides: list[str] | None = None) -> bytes:
    """The bytes of a fresh fold of ``log``."""
    options = GAME.decode_options({"nations": nations, "sides": sides or []})
    state = GAME.initial(options, len(nations))
    for event in log:
        GAME.evolve(state, event)
    return msgspec.msgpack.encode(state)

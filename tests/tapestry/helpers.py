"""Helpers for the Tapestry engine tests: started games, hand-set positions, bots.

Tests drive :class:`~domain.tapestry.game.TapestryGame` directly (the game is not registered
with the service yet): ``decide`` then ``evolve``, as the kernel would.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from domain.core import Chance, Command, Event
from domain.tapestry.engine import frame
from domain.tapestry.game import TapestryGame
from domain.tapestry.state import PLAY, TapestryState

GAME = TapestryGame()


def new_game(seats: int, seed: bytes = b"tests") -> tuple[TapestryState, list[Event]]:
    """A game after its setup events (seats still choosing capital and civilization)."""
    state = GAME.initial(GAME.decode_options({}), seats)
    events = GAME.setup(state, Chance(seed, 0))
    for event in events:
        GAME.evolve(state, event)
    return state, events


def act(state: TapestryState, seat: int, command: Command, seed: bytes = b"tests") -> list[Event]:
    """Decide ``command`` and fold its events into ``state`` (in place); the events."""
    events = GAME.decide(state, seat, command, Chance(seed, state.turn * 1000 + len(state.agenda)))
    for event in events:
        GAME.evolve(state, event)
    return events


def first_choices(state: TapestryState) -> None:
    """Every seat keeps the first capital and civilization offered."""
    while GAME.is_setup(state):
        seat = GAME.pending(state).seats[0]
        act(state, seat, GAME.legal_actions(state, seat)[0])


def table(seats: int = 2, seed: bytes = b"tests") -> TapestryState:
    """A started game where seat 0 is about to take an advance turn in era 1.

    Setup gains are cleared: every seat has income turn 1 behind it, no resources, 0 VP and no
    civilization (tests of civilizations add theirs).
    """
    state, _ = new_game(seats, seed)
    first_choices(state)
    for seat in state.seats:
        seat.income_turns = 1
        seat.resources = [0, 0, 0, 0]
        seat.vp = 0
        seat.tracks = [[0], [0], [0], [0]]
        seat.completed = [False] * 4
        seat.hand = []
        seat.territory = []
        seat.civ_tokens = {}
        seat.civs = []
    state.phase = PLAY
    state.current = 0
    state.turn = 1
    state.agenda = [frame("turn", 0)]
    return state


def settle(state: TapestryState, seat: int | None = None, pick: int = 0) -> None:
    """Answer every pending decision (option ``pick`` or the last one) until a new turn starts."""
    for _ in range(500):
        pending = GAME.pending(state)
        if not pending.seats or pending.decision == "turn":
            return
        who = pending.seats[0]
        options = GAME.legal_actions(state, who)
        act(state, who, options[min(pick, len(options) - 1)])
    raise AssertionError("the turn does not end")


def decision(state: TapestryState) -> str:
    """The name of the pending decision."""
    return GAME.pending(state).decision


def names(events: list[Event]) -> list[str]:
    """Class names of events."""
    return [type(e).__name__ for e in events]


def of(events: list[Event], cls: type[Any]) -> list[Any]:
    """The events of class ``cls``."""
    return [e for e in events if isinstance(e, cls)]


def started(civs: list[str], seats: int = 2, seed: bytes = b"civ") -> TapestryState:
    """A game after setup whose seats start with ``civs`` (``""``: dealt as usual)."""
    options = GAME.decode_options({"starting_civilizations": civs})
    state = GAME.initial(options, seats)
    for event in GAME.setup(state, Chance(seed, 0)):
        GAME.evolve(state, event)
    return state


def play_out(
    civs: list[str],
    seed: bytes,
    prefer: Callable[[Command], bool] | None = None,
) -> TapestryState:
    """A whole seeded game with random legal choices, ``civs`` as starting civilizations;
    among the legal commands, those ``prefer`` accepts are chosen whenever there are any."""
    state = started(civs, len(civs), seed)
    rng = Random(seed)
    for step in range(20000):
        if GAME.is_over(state):
            break
        seat = GAME.pending(state).seats[0]
        found = GAME.legal_actions(state, seat)
        preferred = [c for c in found if prefer(c)] if prefer is not None else []
        command = rng.choice(preferred or found)
        for event in GAME.decide(state, seat, command, Chance(seed, step + 1)):
            GAME.evolve(state, event)
    return state

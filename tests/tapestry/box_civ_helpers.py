"""Helpers for the tests of the expansion boxes' civilizations: seeded whole games started
through the ``starting_civilizations`` option of ``tapestry/2`` with the box in play."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.bots import Bot
from domain.core import Chance, Event
from domain.tapestry import content as C
from domain.tapestry.civs import civ_id
from domain.tapestry.game import TapestryGame2
from domain.tapestry.state import TapestryState

GAME2 = TapestryGame2()


def box_of(key: str) -> str:
    """The expansion box of the civilization ``key``."""
    return C.CIVILIZATIONS[civ_id(key)].box


def boxed_start(key: str, seats: int, seed: bytes) -> tuple[TapestryState, list[Event]]:
    """A ``tapestry/2`` game with ``key``'s box in play, seat 0 starting with ``key``, the
    other seats keeping the first civilization dealt; setup done, first turn pending."""
    options = GAME2.decode_options({"expansions": [box_of(key)], "starting_civilizations": [key]})
    state = GAME2.initial(options, seats)
    log: list[Event] = list(GAME2.setup(state, Chance(seed, 0)))
    for event in log:
        GAME2.evolve(state, event)
    while GAME2.is_setup(state):
        seat = GAME2.pending(state).seats[0]
        events = GAME2.decide(
            state, seat, GAME2.legal_actions(state, seat)[0], Chance(seed, len(log))
        )
        for event in events:
            GAME2.evolve(state, event)
        log.extend(events)
    return state, log


def play_boxed(key: str, seats: int, seed: int) -> tuple[TapestryState, list[Event]]:
    """A whole seeded game where seat 0 starts with ``key``: every seat answers each decision
    with a random legal choice until the game is over; the state and every event."""
    game_seed = f"box-{key}-{seed}".encode()
    state, log = boxed_start(key, seats, game_seed)
    bot = Chance(f"bot-{key}-{seed}".encode(), 0)
    for _ in range(6000):
        if GAME2.is_over(state):
            return state, log
        pending = GAME2.pending(state)
        seat = pending.seats[0]
        actions = GAME2.legal_actions(state, seat)
        assert actions, pending
        events = GAME2.decide(state, seat, bot.choice(actions), Chance(game_seed, len(log)))
        for event in events:
            GAME2.evolve(state, event)
        log.extend(events)
    raise AssertionError("the game does not end")


def state_bytes(state: TapestryState) -> bytes:
    """The state as canonical JSON bytes (for fold comparisons)."""
    return msgspec.json.encode(msgspec.to_builtins(state), order="sorted")


def refold(key: str, log: list[Event], seats: int) -> bytes:
    """The bytes of a fresh fold of ``log`` over a new game with ``key``'s box and seat 0
    starting with ``key`` (compare with :func:`state_bytes` of the state held)."""
    options = GAME2.decode_options({"expansions": [box_of(key)], "starting_civilizations": [key]})
    fresh = GAME2.initial(options, seats)
    for event in log:
        GAME2.evolve(fresh, event)
    return state_bytes(fresh)


def play_bots(key: str, bots: Sequence[Bot], seed: bytes) -> tuple[TapestryState, list[Event]]:
    """A whole game where seat 0 starts with ``key`` and seat ``i`` is played by ``bots[i]``;
    asserts that it ends with every seat finished and returns the state and every event."""
    state, log = boxed_start(key, len(bots), seed)
    for _ in range(8000):
        if GAME2.is_over(state):
            break
        seat = GAME2.pending(state).seats[0]
        command = bots[seat].choose(GAME2, state, seat)
        events = GAME2.decide(state, seat, command, Chance(seed, len(log)))
        for event in events:
            GAME2.evolve(state, event)
        log.extend(events)
    assert GAME2.is_over(state) and all(s.finished for s in state.seats)
    return state, log

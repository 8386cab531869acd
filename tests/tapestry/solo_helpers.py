"""Helpers for the solo tests: seeded solo games driven by a bot for the human seat."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.bots import Bot, RandomBot
from domain.core import Chance, Event
from domain.tapestry.bot import TapestryBot
from domain.tapestry.game import TapestryGame
from domain.tapestry.state import TapestryState

GAME = TapestryGame()


def state_bytes(state: TapestryState) -> bytes:
    """Canonical bytes of a state (sorted JSON)."""
    return msgspec.json.encode(msgspec.to_builtins(state), order="sorted")


def new_solo(
    seed: bytes = b"solo", level: int = 2, options: dict[str, Any] | None = None, seats: int = 1
) -> tuple[TapestryState, list[Event]]:
    """A fresh game with bots, its setup events folded."""
    opts = {"automa_level": level, **(options or {})}
    state = GAME.initial(GAME.decode_options(opts), seats)
    events = GAME.setup(state, Chance(seed, 0))
    for event in events:
        GAME.evolve(state, event)
    return state, list(events)


def make_bot(kind: str, seed: bytes) -> Bot:
    """The human's bot: ``"random"`` or ``"tapestry"``."""
    return TapestryBot(seed) if kind == "tapestry" else RandomBot(seed)


def play(
    seed: int,
    level: int = 2,
    bot: str = "random",
    seats: int = 1,
    options: dict[str, Any] | None = None,
    check: Any = None,
) -> tuple[TapestryState, list[Event], int]:
    """A whole seeded game; ``check(state, seat, actions, game_seed, version)`` is called
    before each command when given."""
    game_seed = f"solo-{seed}".encode()
    state, log = new_solo(game_seed, level, options, seats)
    players = [make_bot(bot, f"{bot}-{seed}-{s}".encode()) for s in range(seats)]
    commands = 0
    while not GAME.is_over(state):
        seat = GAME.pending(state).seats[0]
        if check is not None:
            check(state, seat, GAME.legal_actions(state, seat), game_seed, len(log))
        command = players[seat].choose(GAME, state, seat)
        events = GAME.decide(state, seat, command, Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
        commands += 1
        assert commands < 6000, "game does not end"
    return state, log, commands


def refold(
    log: list[Event], level: int = 2, seats: int = 1, options: dict[str, Any] | None = None
) -> TapestryState:
    """A fresh fold of ``log``."""
    opts = {"automa_level": level, **(options or {})}
    state = GAME.initial(GAME.decode_options(opts), seats)
    for event in log:
        GAME.evolve(state, event)
    return state

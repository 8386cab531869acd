"""Helpers for the solo tests: seeded solo games driven by a bot for the human seat, and
situations past setup where the bots' steps run through the engine's own agenda
(:class:`~domain.tapestry.engine.Ctx`) with recorded chance."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.bots import Bot, RandomBot
from domain.core import Chance, Event
from domain.tapestry.bot import TapestryBot
from domain.tapestry.engine import Ctx
from domain.tapestry.game import TapestryGame
from domain.tapestry.state import PLAY, Frame, TapestryState

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


def of(events: list[Event], cls: type[Any]) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, cls)]


def started(seed: bytes = b"solo-rules", level: int = 2) -> TapestryState:
    """A solo game past setup: the human kept the first capital and civilization."""
    state, _ = new_solo(seed, level)
    while GAME.is_setup(state):
        command = GAME.legal_actions(state, 0)[0]
        for event in GAME.decide(state, 0, command, Chance(seed, 1)):
            GAME.evolve(state, event)
    return state


def bots_run(state: TapestryState, *frames: Frame, seed: bytes = b"bots") -> list[Event]:
    """Run the bots' frames through the engine and fold the events into ``state``."""
    ctx = Ctx(state, Chance(seed, 7))
    saved = list(ctx.state.agenda)
    ctx.state.agenda = []
    ctx.push(*frames)
    ctx.state.phase = "bots"  # run only the pushed frames (no human turn follows)
    while ctx.state.agenda:
        ctx.state.phase = PLAY
        top = ctx.state.agenda[-1]
        if top.kind in ("trap",):
            break
        ctx.state.agenda.pop()
        from domain.tapestry.engine import AUTO

        ctx.current = top
        AUTO[top.kind](ctx, top)
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = ctx.state.agenda or saved
    return ctx.events


def call(state: TapestryState, fn: Any, *args: Any, seed: bytes = b"bots") -> list[Event]:
    """Call one bot step with a recorded chance and fold its events."""
    ctx = Ctx(state, Chance(seed, 3))
    fn(ctx, *args)
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = ctx.state.agenda
    return ctx.events


def with_positions(
    automa: list[int], shadow: list[int], favorites: tuple[int, int]
) -> TapestryState:
    """A solo game past setup with the bots' track positions and favourite tracks set."""
    state = started()
    assert state.solo is not None
    state.solo.bots[0].tracks = list(automa)
    state.solo.bots[1].tracks = list(shadow)
    state.solo.bots[0].favorite, state.solo.bots[1].favorite = favorites
    return state

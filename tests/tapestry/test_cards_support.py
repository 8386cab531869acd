"""Shared helpers of the tapestry-card, tech-card and F.À.Q. tests (this module has no test).

Positions are built on :func:`tests.tapestry.helpers.table` (seat 0 about to play a turn of era
1, everything at zero). Frames pushed on top of its ``turn`` decision resolve at once, so after
a card or a benefit has been fully resolved the pending decision is seat 0's ``turn`` again.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Chance, Command, Event
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import PlayTapestry
from domain.tapestry.engine import Ctx, expr_frame, frame, run
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, Outpost, Played, TapestryState
from tests.tapestry.helpers import GAME, act, decision


def card(key: str) -> int:
    """The id of the tapestry card named ``key``."""
    return next(c.id for c in C.TAPESTRY_CARDS.values() if c.key == key)


def run_frames(state: TapestryState, *frames: Frame, seed: bytes = b"cards") -> list[Event]:
    """Push ``frames`` on the agenda (first on top) and resolve them like ``decide`` would."""
    ctx = Ctx(state, Chance(seed, state.turn * 1000 + len(state.agenda)))
    ctx.push(*frames)
    run(ctx)
    ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda)))
    for event in ctx.events:
        GAME.evolve(state, event)
    return ctx.events


def benefit(state: TapestryState, seat: int, token: str, count: int = 1) -> list[Event]:
    """Resolve one benefit token for ``seat`` (as a track space or a tile would give it)."""
    return run_frames(state, expr_frame(seat, gain(token, count), "test"))


def pending_seat(state: TapestryState) -> int:
    """The seat that must decide now."""
    return GAME.pending(state).seats[0]


def options(state: TapestryState) -> list[Command]:
    """The commands the pending seat may send."""
    return GAME.legal_actions(state, pending_seat(state))


def answer(state: TapestryState, command: Command) -> list[Event]:
    """The pending seat sends ``command``."""
    return act(state, pending_seat(state), command)


def play(state: TapestryState, seat: int, key: str) -> list[Event]:
    """``seat`` plays tapestry card ``key`` from its hand (added to the hand first)."""
    played = card(key)
    state.seats[seat].hand.append(played)
    state.agenda.append(frame("play_tapestry", seat))
    return act(state, seat, PlayTapestry(card=played))


def in_force(state: TapestryState, seat: int, key: str) -> None:
    """Put tapestry card ``key`` face up on ``seat``'s mat for the current era."""
    player = state.seats[seat]
    player.mat.append(Played(card=card(key), era=min(player.income_turns, 4)))


def vp_of(events: list[Event], seat: int, reason: str) -> int:
    """VP scored by ``seat`` for ``reason`` in ``events``."""
    return sum(
        e.vp for e in events if isinstance(e, ev.VPScored) and e.seat == seat and e.reason == reason
    )


def settle_turn(state: TapestryState, pick: int = 0) -> None:
    """Answer every decision with option ``pick`` (or the last) until a ``turn`` decision."""
    for _ in range(300):
        if decision(state) in ("turn", "over"):
            return
        found = options(state)
        answer(state, found[min(pick, len(found) - 1)])
    raise AssertionError("no turn decision reached")


def neighbour_territory(state: TapestryState, seat: int) -> int:
    """A territory next to ``seat``'s home, emptied (no outpost)."""
    from domain.tapestry.rules import rules_neighbours

    home = state.seats[seat].home
    index = next(i for i in rules_neighbours(state, home) if i >= 0 and state.hexes[i].explored)
    state.hexes[index].outposts = []
    return index


def give_hex(state: TapestryState, index: int, seat: int, toppled: bool = False) -> None:
    """Add an outpost of ``seat`` on board hex ``index``."""
    state.hexes[index].outposts.append(Outpost(seat=seat, toppled=toppled))


def forced(state: TapestryState, command: Command, wanted: Callable[[list[Event]], bool]) -> None:
    """The pending seat sends ``command`` with the first seed whose events satisfy ``wanted``
    (dice and draws are forced this way; ``decide`` never changes the state it is given)."""
    seat = pending_seat(state)
    for attempt in range(400):
        events = GAME.decide(state, seat, command, Chance(f"faq-{attempt}".encode(), 0))
        if wanted(events):
            for event in events:
                GAME.evolve(state, event)
            return
    raise AssertionError("no seed gives the wanted outcome")

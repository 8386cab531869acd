"""Shared helpers for the per-space track tests and the rule tests (no tests here).

A test puts seat 0 just before the space it checks, with 5 of each resource and nothing else
(no tiles, cards or tech), pays the advance turn with coins for the "any resource" units, then
answers each decision explicitly and checks the exact effect. Dice are forced by trying
decision seeds until the wanted face shows (the engine is pure: ``decide`` never changes the
state it is given).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.core import Chance, Command, Event
from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, Choose, PlaceBuilding
from domain.tapestry.content import TRACKS, space
from domain.tapestry.rules import dump, gain, split_cost
from domain.tapestry.state import Frame, Outpost, TapestryState
from tests.tapestry.helpers import GAME, act, decision, of, table

RICH = [5, 5, 5, 5]


def at(track: str, number: int, seats: int = 2) -> TapestryState:
    """Seat 0 to move, its token on ``track`` just before space ``number``, 5 of each resource."""
    state = table(seats)
    state.seats[0].resources = list(RICH)
    state.seats[0].tracks[TRACKS.index(track)] = [number - 1]
    return state


def coin_payment(track: str, number: int) -> tuple[str, ...]:
    """The payment of the "any resource" units of a space's cost, all in coins."""
    _, any_units, _ = split_cost(space(track, number).cost)
    return ("coin",) * any_units


def enter(state: TapestryState, track: str) -> list[Event]:
    """Seat 0 takes an advance turn on ``track``, paying the "any" units with coins."""
    number = max(state.seats[0].tracks[TRACKS.index(track)]) + 1
    return act(state, 0, Advance(track=track, payment=coin_payment(track, number)))


def answer(state: TapestryState, command: Command) -> list[Event]:
    """The pending seat answers with ``command`` (which must be offered)."""
    seat = GAME.pending(state).seats[0]
    assert command in GAME.legal_actions(state, seat), (command, GAME.legal_actions(state, seat))
    return act(state, seat, command)


def options(state: TapestryState) -> list[Command]:
    """What the pending seat may answer now."""
    return GAME.legal_actions(state, GAME.pending(state).seats[0])


def place(state: TapestryState) -> list[Event]:
    """Place the pending building on the first offered spot."""
    assert decision(state) == "place_building"
    first = options(state)[0]
    assert isinstance(first, PlaceBuilding)
    return answer(state, first)


def forced(
    state: TapestryState, command: Command, wanted: Callable[[list[Event]], bool]
) -> list[Event]:
    """Answer ``command`` with the first decision seed whose events satisfy ``wanted``."""
    seat = GAME.pending(state).seats[0]
    assert command in GAME.legal_actions(state, seat)
    for attempt in range(500):
        events = GAME.decide(state, seat, command, Chance(f"force-{attempt}".encode(), 0))
        if wanted(events):
            for event in events:
                GAME.evolve(state, event)
            return events
    raise AssertionError("no seed gives the wanted outcome")


def science_shows(track: str) -> Callable[[list[Event]], bool]:
    """The first science die rolled shows ``track``."""

    def check(events: list[Event]) -> bool:
        rolled = of(events, ev.ScienceDieRolled)
        return bool(rolled) and rolled[0].track == track

    return check


def dice_show(red: int, black: int) -> Callable[[list[Event]], bool]:
    """The conquer dice show faces ``red`` and ``black`` (indices into the content dice)."""

    def check(events: list[Event]) -> bool:
        rolled = of(events, ev.ConquerDiceRolled)
        return bool(rolled) and (rolled[0].red, rolled[0].black) == (red, black)

    return check


def offer(state: TapestryState, seat: int, benefit: str) -> list[Event]:
    """Give ``seat`` a benefit expression (JSON) through a two-way choice and take it."""
    state.agenda = [Frame(kind="choose", seat=seat, options=(benefit, gain("_nothing")))]
    return act(state, seat, Choose(index=0))


def tokens(*items: str) -> str:
    """An ``all`` expression of single tokens, as JSON."""
    from domain.tapestry import content as C

    return dump(C.AllOf(items=tuple(C.Gain(token=t) for t in items)))


def turn_passed(state: TapestryState) -> bool:
    """Seat 0's turn is over: seat 1 now chooses its turn."""
    pending = GAME.pending(state)
    return pending.seats == (1,) and pending.decision == "turn"


def neighbour_territories(state: TapestryState, seat: int = 0) -> list[int]:
    """Explored hexes next to the seat's home, in board order."""
    from domain.tapestry.rules import rules_neighbours

    home = state.seats[seat].home
    return [i for i in rules_neighbours(state, home) if i >= 0 and state.hexes[i].explored]


def unexplored_neighbours(state: TapestryState, seat: int = 0) -> list[int]:
    """Unexplored hexes next to the seat's home, in board order."""
    from domain.tapestry.rules import rules_neighbours

    home = state.seats[seat].home
    return [i for i in rules_neighbours(state, home) if i >= 0 and not state.hexes[i].explored]


def occupy(state: TapestryState, index: int, seat: int, toppled: bool = False) -> None:
    """Put an outpost of ``seat`` on hex ``index`` (test set-up, not a game action)."""
    state.hexes[index].outposts.append(Outpost(seat=seat, toppled=toppled))


def snapshot(state: TapestryState) -> bytes:
    """The state's bytes, to check that a refused or skipped step changed nothing."""
    return msgspec.json.encode(state)


def fill(state: TapestryState, seat: int, cells: list[tuple[int, int]]) -> None:
    """Build on the buildable plots among ``cells`` of the seat's capital (test set-up)."""
    player = state.seats[seat]
    rows = [list(row) for row in player.grid_filled]
    for r, c in cells:
        if player.grid_blocked[r][c] != "1":
            rows[r][c] = "M"
    player.grid_filled = ["".join(row) for row in rows]

"""Small hand-built worlds and positions for the Rise & Fall rules tests.

A world is drawn as rows of characters (x to the right, y downwards, from the grid's corner):
``.`` nothing, ``~`` sea, ``p`` plain, ``f`` forest, ``m`` mountain, ``g`` glacier. On the hex
grid (``grid="hex"``) the character at column ``x`` of row ``y`` is the hex of axial
coordinates ``q = x``, ``r = y`` (the drawing is a rhombus: each row's hexes lie half a cell
further right than the row above).
"""

from __future__ import annotations

from typing import Any

from domain.core import Chance, Command, Event
from domain.riseandfall.content import KIND, MERCHANT, PIECES
from domain.riseandfall.game import RiseAndFall, RiseAndFallHex
from domain.riseandfall.state import ACTIONS, RiseFallOptions, RiseFallState
from domain.riseandfall.world import GRID, Terrain, World, cell_of

GAME = RiseAndFall()
HEX_GAME = RiseAndFallHex()
_CHARS = {
    ".": Terrain.EMPTY,
    "~": Terrain.SEA,
    "p": Terrain.PLAIN,
    "f": Terrain.FOREST,
    "m": Terrain.MOUNTAIN,
    "g": Terrain.GLACIER,
}


def world_from(rows: list[str], grid: str = "square") -> World:
    """A world drawn as rows of terrain characters (see the module docstring)."""
    terrain = [int(Terrain.EMPTY)] * (GRID * GRID)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            terrain[cell_of(x, y)] = int(_CHARS[char])
    return World(terrain=terrain, tiles=[], grid=grid)


def table(rows: list[str], seats: int = 2, trophies: int = 4, game: Any = GAME) -> RiseFallState:
    """A position in phase B, round 1, seat 0 first player and actor, nothing on the board
    (under ``game``'s ruleset: ``riseandfall/1`` by default, its world on that ruleset's grid)."""
    state = game.initial(RiseFallOptions(trophies=trophies), seats)
    state.world = world_from(rows, state.world.grid)
    state.phase = ACTIONS
    state.round = 1
    state.first_player = 0
    state.actor = 0
    for seat in state.seats:
        seat.to_deploy = []
        seat.hand = []
        seat.reserve = list(range(len(PIECES)))
    return state


def put(state: RiseFallState, seat: int, piece: str, x: int, y: int) -> int:
    """Put a piece of ``seat`` on ``(x, y)`` (a merchant on a city rides on it); its cell."""
    cell = cell_of(x, y)
    kind = KIND[piece]
    if kind == MERCHANT and state.owner[cell] >= 0:
        state.rider[cell] = seat
    else:
        state.owner[cell] = seat
        state.kind[cell] = kind
    state.seats[seat].pieces[kind] += 1
    return cell


def settle(state: RiseFallState, played: dict[int, str] | None = None) -> RiseFallState:
    """Consistent card states: cards of types in the world active, the others in reserve.

    ``played`` gives each seat's card played this round (on its discard); the other active
    cards are in hand. Cards already in decline stay there.
    """
    played = played or {}
    for index, seat in enumerate(state.seats):
        card = KIND[played[index]] if index in played else -1
        seat.played = card
        seat.discard = [card] if card >= 0 else []
        seat.hand = [
            k
            for k in range(len(PIECES))
            if seat.pieces[k] > 0 and k != card and k not in seat.declined
        ]
        seat.reserve = [
            k
            for k in range(len(PIECES))
            if seat.pieces[k] == 0 and k != card and k not in seat.declined
        ]
    return state


def game_of(state: RiseFallState) -> Any:
    """The ruleset of a position's grid: ``riseandfall/1`` on squares, ``riseandfall/2`` on
    hexes."""
    return HEX_GAME if state.world.grid == "hex" else GAME


def run(state: RiseFallState, seat: int, command: Command) -> tuple[list[Event], RiseFallState]:
    """Decide ``command`` under the ruleset of the state's grid and fold its events into a
    copy; the events and the new state."""
    game = game_of(state)
    events = game.decide(state, seat, command, Chance(b"tests", 0))
    after = game.copy_state(state)
    for event in events:
        game.evolve(after, event)
    return events, after


def kinds(events: list[Event]) -> list[str]:
    """The class names of ``events``."""
    return [type(e).__name__ for e in events]


def of(events: list[Event], cls: type[Any]) -> list[Any]:
    """The events of class ``cls``."""
    return [e for e in events if isinstance(e, cls)]

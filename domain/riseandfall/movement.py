"""Where pieces may go: moves of nomads, ships, mountaineers and merchants, and helpers.

Each function returns the exact destination cells, ascending:

* nomad ("Nomades / Mouvement"): an adjacent empty plain, forest or mountain, no cliff;
* ship ("Navires / Mouvement"): any empty sea cell of the same sea region;
* mountaineer ("Montagnards / Mouvement"): up to 3 steps over plain, forest, mountain and
  glacier, crossing cliffs, passing only through empty cells or cells holding only its own
  colour, ending on an empty cell;
* merchant ("Marchands / Mouvement"): up to 4 steps over plain, forest and mountain, crossing
  cliffs and passing through any piece, ending on an empty cell or on a city (allied or not)
  that has no merchant yet.
"""

from __future__ import annotations

from domain.riseandfall.content import CITY
from domain.riseandfall.state import RiseFallState
from domain.riseandfall.world import Geometry, Terrain

#: terrains nomads, cities and merchants may stand on.
LAND = (Terrain.PLAIN, Terrain.FOREST, Terrain.MOUNTAIN)
#: terrains a mountaineer may stand on.
HIGHLAND = (Terrain.PLAIN, Terrain.FOREST, Terrain.MOUNTAIN, Terrain.GLACIER)


def nomad_moves(state: RiseFallState, geo: Geometry, cell: int) -> list[int]:
    """Destinations of the nomad on ``cell``."""
    return sorted(
        n
        for n in geo.neighbours_of(cell)
        if state.empty(n) and geo.at(n) in LAND and not geo.cliff(cell, n)
    )


def ship_moves(state: RiseFallState, geo: Geometry, cell: int) -> list[int]:
    """Destinations of the ship on ``cell`` (its whole sea region)."""
    region = geo.sea_region_of(cell)
    if region < 0:
        return []
    return [c for c in geo.region(region).cells if c != cell and state.empty(c)]


def _reach(
    geo: Geometry, cell: int, steps: int, terrains: tuple[Terrain, ...], passable: set[int] | None
) -> set[int]:
    """Cells reachable in 1..``steps`` steps over ``terrains``.

    ``passable`` limits the cells one may step *through* (``None``: any); the cells reached
    are returned whatever they hold, the caller filters the stopping cells.
    """
    seen = {cell}
    frontier = [cell]
    reached: set[int] = set()
    for _ in range(steps):
        nxt: list[int] = []
        for here in frontier:
            for n in geo.neighbours_of(here):
                if n in seen or geo.at(n) not in terrains:
                    continue
                seen.add(n)
                reached.add(n)
                if passable is None or n in passable:
                    nxt.append(n)
        frontier = nxt
    return reached


def mountaineer_moves(state: RiseFallState, geo: Geometry, seat: int, cell: int) -> list[int]:
    """Destinations of ``seat``'s mountaineer on ``cell``."""
    ball = _reach(geo, cell, 3, HIGHLAND, None)
    passable = {c for c in ball if all(owner == seat for owner, _ in state.pieces_at(c))}
    reached = _reach(geo, cell, 3, HIGHLAND, passable)
    return sorted(c for c in reached if state.empty(c))


def merchant_stop(state: RiseFallState, cell: int) -> bool:
    """``True`` if a merchant may end a move on ``cell``: empty, or a city without merchant."""
    if state.empty(cell):
        return True
    return state.kind[cell] == CITY and state.rider[cell] < 0


def merchant_moves(state: RiseFallState, geo: Geometry, cell: int) -> list[int]:
    """Destinations of the merchant on ``cell``."""
    reached = _reach(geo, cell, 4, LAND, None)
    return sorted(c for c in reached if c != cell and merchant_stop(state, c))


def within(geo: Geometry, cell: int, steps: int, terrains: tuple[Terrain, ...]) -> set[int]:
    """Cells of ``terrains`` reachable in 1..``steps`` steps from ``cell`` (nothing blocks)."""
    return _reach(geo, cell, steps, terrains, None)


def coastal_cities(state: RiseFallState, geo: Geometry, sea_region: int) -> list[int]:
    """Cells of the cities (any colour) adjacent to ``sea_region`` ("Navires / Commercer")."""
    found: list[int] = []
    for cell in geo.cells:
        if state.owner[cell] >= 0 and state.kind[cell] == CITY and sea_region in geo.coastal(cell):
            found.append(cell)
    return found

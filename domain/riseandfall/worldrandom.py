"""The random world builder of Rise & Fall: a legal world drawn from the game's seed.

Used at set-up when the option ``world="random"`` is chosen; the placement rules are those of
:mod:`domain.riseandfall.worldbuild` ("Création du Monde"), on the world's grid.

>>> from domain.riseandfall.worldbuild import initial_world, place
>>> world = initial_world(3, "hex")
>>> for p in random_world(3, Chance(b"doc", version=0), "hex", None):
...     place(world, p)
>>> sum(1 for t in world.tiles if t.kind == "plain")
14
"""

from __future__ import annotations

from domain.core.chance import Chance
from domain.riseandfall import tiles as catalogue
from domain.riseandfall.placement import _BELOW, _EMPTY, _LAYER, MAX_MOVES, TilePlacement
from domain.riseandfall.world import GRID, World, cell_of
from domain.riseandfall.worldboard import _Board
from domain.riseandfall.worldbuild import initial_world, legal_placements, place, supply

#: legal candidates drawn per tile; the tightest one (fewest free sides) is laid.
_SAMPLE = 4
#: random tries per tile before falling back on the full enumeration.
_ATTEMPTS = 80


def _random_placement(
    world: World,
    board: _Board,
    kind: str,
    shape: int,
    chance: Chance,
    max_moves: int | None,
) -> TilePlacement | None:
    terrain = board.terrain
    nb = board.nb
    if kind == "sea":
        below = _EMPTY
        pool = [
            c
            for c in board.near()
            if terrain[c] == _EMPTY and any(terrain[n] != _EMPTY for n in nb[c])
        ]
    else:
        below = _BELOW[kind]
        pool = [c for c in board.near() if terrain[c] == below]
    orients = catalogue.orientations(kind, shape, world.grid)
    size = len(orients[0].cells)
    best: tuple[int, TilePlacement] | None = None
    legal = 0
    if pool:
        for _ in range(_ATTEMPTS):
            draw = chance.below(len(pool) * len(orients) * size)
            target, rest = divmod(draw, len(orients) * size)
            o = orients[rest // size]
            dx, dy = o.cells[rest % size]
            x, y = pool[target] % GRID - dx, pool[target] // GRID - dy
            if x < 0 or y < 0 or x + o.width > GRID or y + o.height > GRID:
                continue
            cells = [cell_of(x + cx, y + cy) for cx, cy in o.cells]
            ok = board.sea_error(cells) is None if kind == "sea" else board.fits(cells, below)
            if not ok:
                continue
            score = board.tightness(cells, below)
            if best is None or score > best[0]:
                best = (score, TilePlacement(kind, shape, o.rotation, x, y))
            legal += 1
            if legal == _SAMPLE:
                break
    if best is not None:
        return best[1]
    options = legal_placements(world, kind, shape, max_moves)
    if not options:
        return None
    return chance.choice(options)


def random_world(
    players: int, chance: Chance, grid: str = "square", max_moves: int | None = MAX_MOVES
) -> list[TilePlacement]:
    """A legal build of the whole world, drawn from ``chance``.

    Apply the placements in order with :func:`place` to :func:`initial_world` (players).
    Each tile is laid at the tightest of a few random legal positions (few free sides: a
    compact world where the plains rarely need moving); a tile that fits nowhere is set aside
    and has no placement.
    """
    world = initial_world(players, grid)
    board = _Board(world)
    built: list[TilePlacement] = []
    for kind, shape in supply(players, grid):
        chosen = _random_placement(world, board, kind, shape, chance, max_moves)
        if chosen is None:
            continue
        place(world, chosen)
        if chosen.moves:
            board = _Board(world)
        else:
            board.lay(world.tiles[-1].cells, _LAYER[kind], len(world.tiles) - 1)
        built.append(chosen)
    return built

"""Building the Rise & Fall world ("Création du Monde"): placement rules and a random builder.

The world starts from the initial 8-cell sea tiles (:func:`initial_world`); then every tile of
:func:`supply` is laid in order: all seas, then plains, forests, mountains, glaciers.

Rules (rulebook "Création du Monde"; ASSUMED details are listed by
:func:`domain.riseandfall.tiles.assumptions`):

* a sea tile lies on empty cells, touches (shares a side with) at least 2 distinct tiles
  already in the world, and closes no area: afterwards every empty cell is still joined to
  the grid's edge through empty cells sharing sides;
* every cell of a plain covers a sea cell (not the void, not a plain). All plains must be
  laid: when a plain fits nowhere, the player moves the minimum number of plains of their
  choice (lifted together, laid again on sea cells) so that it fits. ``riseandfall/1``
  (ASSUMED) moves at most :data:`MAX_MOVES` plains and sets aside a plain that cannot be laid
  so; ``riseandfall/2`` searches the minimum exactly (``max_moves=None``: up to every plain);
* every cell of a forest covers a plain, of a mountain a forest, of a glacier a mountain;
* ASSUMED: a tile with no legal position (``legal_placements`` is empty) is set aside.

The modules of world building, each with one job: :mod:`~domain.riseandfall.placement` (the
placement commands' data, the cells a tile covers), :mod:`~domain.riseandfall.worldboard` (the
per-cell facts of a world and the positions a tile may take),
:mod:`~domain.riseandfall.relocation` (the minimal plain relocations), this module (the set-up,
the rules checked on a command, the legal placements, laying a tile) and
:mod:`domain.riseandfall.worldrandom` (the random builder of a world drawn from the seed).

>>> from domain.core.chance import Chance
>>> from domain.riseandfall.worldrandom import random_world
>>> world = initial_world(2)
>>> placements = random_world(2, Chance(b"doc", version=0))
>>> for p in placements:
...     check_placement(world, p)
...     place(world, p)
>>> len(placements), [t.kind for t in world.tiles].count("glacier")
(38, 2)
"""

from __future__ import annotations

from domain.riseandfall import tiles as catalogue
from domain.riseandfall.placement import (
    _BELOW,
    _EMPTY,
    _LAYER,
    _SEA,
    MAX_MOVES,
    RULE,
    STAGES,
    TileMove,
    TilePlacement,
    _malformed,
    _violation,
    cells_at,
)
from domain.riseandfall.relocation import minimum_moves, movable_plains, plain_solutions
from domain.riseandfall.world import PlacedTile, Terrain, World
from domain.riseandfall.worldboard import _Board, _layer_positions, _sea_positions

# -- set-up -----------------------------------------------------------------------------


def _players(players: int, grid: str = "square") -> dict[str, int]:
    counts = catalogue.content(grid).counts.get(players)
    if counts is None:
        raise ValueError(f"Rise & Fall is played by 2 to 4 players, not {players}")
    return counts


def stage_counts(players: int, grid: str = "square") -> dict[str, int]:
    """How many tiles of each stage are laid ("Création du Monde" table).

    The initial seas (one per player) are not included: :func:`initial_world` lays them.

    >>> stage_counts(3)
    {'sea': 15, 'plain': 14, 'forest': 11, 'mountain': 8, 'glacier': 3}
    """
    counts = _players(players, grid)
    return {kind: counts[kind] for kind in STAGES}


def supply(players: int, grid: str = "square") -> list[tuple[str, int]]:
    """The ``(kind, shape)`` tiles to lay, in order (ASSUMED fixed box order, see tiles).

    >>> supply(2)[:3], len(supply(2))
    ([('sea', 0), ('sea', 1), ('sea', 2)], 38)
    """
    counts = stage_counts(players, grid)
    order = catalogue.box_order
    return [(kind, s) for kind in STAGES for s in order(kind, grid)[: counts[kind]]]


def initial_world(players: int, grid: str = "square") -> World:
    """The world with the initial sea tiles laid for ``players`` (ASSUMED layout).

    >>> w = initial_world(4)
    >>> len(w.tiles), sum(1 for t in w.terrain if t == Terrain.SEA)
    (4, 32)
    """
    _players(players, grid)
    world = World.empty(grid)
    for rotation, x, y in catalogue.content(grid).layouts[players]:
        cells = cells_at("initial", 0, rotation, x, y, grid)
        if cells is None or any(world.terrain[c] != _EMPTY for c in cells):
            raise catalogue.ContentError(f"initial layout for {players} players does not fit")
        world.tiles.append(PlacedTile("initial", 0, rotation, x, y, cells))
        for c in cells:
            world.terrain[c] = _SEA
    return world


# -- the rules ----------------------------------------------------------------------------


def _check_moves(world: World, placement: TilePlacement) -> None:
    """Check the moved plains of a plain placement and the plain itself after the moves."""
    moves = placement.moves
    indices = [m.tile for m in moves]
    if indices != sorted(set(indices)):
        raise _malformed("BAD_MOVES", "Moved tiles must be distinct and listed by tile index.")
    free = [t == _SEA for t in world.terrain]
    for m in moves:
        if not 0 <= m.tile < len(world.tiles) or world.tiles[m.tile].kind != "plain":
            raise _violation("MOVE_NOT_A_PLAIN", f"Tile {m.tile} is not a plain of the world.")
        tile = world.tiles[m.tile]
        if any(world.terrain[c] != _LAYER["plain"] for c in tile.cells):
            raise _violation("MOVE_COVERED", f"Plain {m.tile} is covered by another tile.")
        for c in tile.cells:
            free[c] = True
    for m in moves:
        shape = world.tiles[m.tile].shape
        cells = cells_at("plain", shape, m.rotation, m.x, m.y, world.grid)
        if cells is None:
            raise _violation("OFF_GRID", f"Moved plain {m.tile} would leave the table.")
        if not all(free[c] for c in cells):
            raise _violation("PLAIN_NOT_ON_SEA", f"Moved plain {m.tile} must lie on sea only.")
        for c in cells:
            free[c] = False
    cells = cells_at(
        "plain", placement.shape, placement.rotation, placement.x, placement.y, world.grid
    )
    if cells is None or not all(free[c] for c in cells):
        raise _violation("PLAIN_NOT_ON_SEA", "Every cell of a plain must cover a sea cell.")


def check_placement(
    world: World, placement: TilePlacement, max_moves: int | None = MAX_MOVES
) -> None:
    """Raise :class:`RuleViolation` (rule "Création du Monde") if the placement is illegal.

    The caller checks that the tile is the one to lay now (kind and shape of the supply).
    ``max_moves`` bounds the plains moved (see :func:`minimum_moves`).
    """
    kind = placement.kind
    if kind not in STAGES:
        raise _malformed("UNKNOWN_TILE", f"{kind!r} is not a tile kind; expected {STAGES}.")
    grid = world.grid
    cells = cells_at(kind, placement.shape, placement.rotation, placement.x, placement.y, grid)
    if cells is None:
        raise _violation("OFF_GRID", "The tile would leave the table.")
    if placement.moves and kind != "plain":
        raise _violation("MOVES_NOT_ALLOWED", "Only plains may be moved, to lay a plain.")
    if kind == "sea":
        error = _Board(world).sea_error(cells)
        if error is not None:
            raise _violation(*error)
        return
    if kind == "plain":
        if not placement.moves and all(world.terrain[c] == _SEA for c in cells):
            return
        if placement.moves:
            _check_moves(world, placement)
        needed = minimum_moves(world, placement.shape, max_moves)
        if needed is None:
            most = "every movable plain" if max_moves is None else f"{max_moves} plains"
            raise _violation(
                "PLAIN_SET_ASIDE",
                f"This plain fits nowhere even moving {most}: it is set aside.",
            )
        if not placement.moves and needed == 0:
            raise _violation("PLAIN_NOT_ON_SEA", "Every cell of a plain must cover a sea cell.")
        if len(placement.moves) != needed:
            raise _violation(
                "PLAIN_MOVES_NOT_MINIMAL",
                f"This plain fits only if exactly {needed} plain(s) are moved, "
                f"not {len(placement.moves)}.",
            )
        return
    below = _BELOW[kind]
    if any(world.terrain[c] != below for c in cells):
        name = Terrain(below).name.lower()
        raise _violation(
            f"{kind.upper()}_NOT_ON_{name.upper()}",
            f"Every cell of a {kind} tile must cover a {name} cell.",
        )


def check_tile(kind: str, shape: int, grid: str = "square") -> None:
    """Raise ``MalformedCommand`` ``UNKNOWN_TILE`` unless ``kind``/``shape`` is a tile of the
    box (whichever tile is due now)."""
    if kind not in STAGES:
        raise _malformed("UNKNOWN_TILE", f"{kind!r} is not a tile kind; expected {STAGES}.")
    if not 0 <= shape < catalogue.shape_count(kind, grid):
        raise _malformed("UNKNOWN_TILE", f"There is no {kind!r} tile shape {shape}.")


def legal_placements(
    world: World, kind: str, shape: int, max_moves: int | None = MAX_MOVES
) -> list[TilePlacement]:
    """Every legal way to lay tile ``kind``/``shape`` now, in a fixed order.

    Empty when the tile fits nowhere (it is set aside, ASSUMED). For a plain that needs
    moves, only the options moving the minimum number of plains are listed.
    """
    check_tile(kind, shape, world.grid)
    if kind == "sea":
        positions = _sea_positions(_Board(world), shape)
    elif kind == "plain":
        needed = minimum_moves(world, shape, max_moves)
        if needed is None:
            return []
        if needed:
            return plain_solutions(world, shape, needed, first_only=False)
        positions = _layer_positions(world, kind, shape)
    else:
        positions = _layer_positions(world, kind, shape)
    return [TilePlacement(kind, shape, r, x, y) for r, x, y, _ in positions]


def place(world: World, placement: TilePlacement) -> None:
    """Lay a tile (after moving plains if any); assumes :func:`check_placement` passed."""
    lifted: list[int] = []
    for m in placement.moves:
        lifted.extend(world.tiles[m.tile].cells)
    for c in lifted:
        world.terrain[c] = _SEA
    for m in placement.moves:
        old = world.tiles[m.tile]
        cells = cells_at("plain", old.shape, m.rotation, m.x, m.y, world.grid)
        assert cells is not None
        world.tiles[m.tile] = PlacedTile("plain", old.shape, m.rotation, m.x, m.y, cells)
        for c in cells:
            world.terrain[c] = _LAYER["plain"]
    kind = placement.kind
    cells = cells_at(
        kind, placement.shape, placement.rotation, placement.x, placement.y, world.grid
    )
    assert cells is not None
    world.tiles.append(
        PlacedTile(kind, placement.shape, placement.rotation, placement.x, placement.y, cells)
    )
    layer = _LAYER[kind]
    for c in cells:
        world.terrain[c] = layer


__all__ = [
    "MAX_MOVES",
    "RULE",
    "STAGES",
    "TileMove",
    "TilePlacement",
    "cells_at",
    "check_placement",
    "initial_world",
    "legal_placements",
    "minimum_moves",
    "movable_plains",
    "place",
    "stage_counts",
    "supply",
]

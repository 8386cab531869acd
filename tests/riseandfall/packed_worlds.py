"""Seeded worlds where a plain does not fit: a blob of sea hexes packed with plains laid at
random until the next plain of the box order finds no room (the plain relocation search's
hard cases, for tests and ``tests/bench/riseandfall_world.py``)."""

from __future__ import annotations

from domain.core import Chance
from domain.riseandfall import tiles as catalogue
from domain.riseandfall.grids import grid_named
from domain.riseandfall.world import GRID, PlacedTile, Terrain, World, cell_of
from domain.riseandfall.worldboard import _Board, _layer_positions


def packed_world(
    seed: int, sea_cells: int = 48, tight: bool = False, grid: str = "hex"
) -> tuple[World, int]:
    """A world (on ``grid``) of ``sea_cells`` sea cells grown from the table's centre (each new
    cell a random empty neighbour of the blob), plains of the box order laid at random positions
    (``tight``: at random among the positions touching the most non-sea sides) until one fits
    nowhere; that world and the shape of the plain that does not fit."""
    suffix = b"" if grid == "hex" else b"-" + grid.encode()
    chance = Chance(b"packed-world-%d%s" % (seed, suffix), 0)
    table = grid_named(grid)
    terrain = [int(Terrain.EMPTY)] * (GRID * GRID)
    blob = [cell_of(GRID // 2, GRID // 2)]
    terrain[blob[0]] = int(Terrain.SEA)
    while len(blob) < sea_cells:
        edge = sorted(
            {n for c in blob for n in table.neighbours[c] if terrain[n] == int(Terrain.EMPTY)}
        )
        cell = edge[chance.below(len(edge))]
        terrain[cell] = int(Terrain.SEA)
        blob.append(cell)
    world = World(terrain=terrain, tiles=[], grid=grid)
    order = catalogue.box_order("plain", grid)
    for shape in order * 4:
        positions = _layer_positions(world, "plain", shape)
        if not positions:
            return world, shape
        if tight:
            board = _Board(world)
            scores = [board.tightness(p[3], int(Terrain.SEA)) for p in positions]
            positions = [p for p, s in zip(positions, scores, strict=True) if s == max(scores)]
        rotation, x, y, cells = positions[chance.below(len(positions))]
        world.tiles.append(PlacedTile("plain", shape, rotation, x, y, cells))
        for c in cells:
            world.terrain[c] = int(Terrain.PLAIN)
    raise AssertionError("the sea never filled up")

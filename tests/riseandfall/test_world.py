"""Tests of the Rise & Fall world geometry (``world.py``) and its tile content (``tiles.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.riseandfall import tiles
from domain.riseandfall.world import (
    GRID,
    NEIGHBOURS,
    Terrain,
    World,
    cell_of,
    geometry,
    is_cliff,
    neighbours,
    orient,
    xy,
)


def world_of(rows: list[str], x0: int = 10, y0: int = 10) -> World:
    """A world from a map: ``~`` sea, ``p`` plain, ``f`` forest, ``m`` mountain, ``g`` glacier."""
    codes = {"~": Terrain.SEA, "p": Terrain.PLAIN, "f": Terrain.FOREST}
    codes |= {"m": Terrain.MOUNTAIN, "g": Terrain.GLACIER}
    world = World.empty()
    for dy, row in enumerate(rows):
        for dx, char in enumerate(row):
            if char != ".":
                world.terrain[cell_of(x0 + dx, y0 + dy)] = codes[char]
    return world


def test_cells_and_neighbours() -> None:
    """Cells and the ASSUMED orthogonal adjacency, in the order N, E, S, W ("Création du Monde")."""
    assert all(cell_of(*xy(c)) == c for c in range(GRID * GRID))
    assert len(NEIGHBOURS) == GRID * GRID
    c = cell_of(5, 7)
    assert neighbours(c) == (cell_of(5, 6), cell_of(6, 7), cell_of(5, 8), cell_of(4, 7))
    assert neighbours(cell_of(GRID - 1, GRID - 1)) == (
        cell_of(GRID - 1, GRID - 2),
        cell_of(GRID - 2, GRID - 1),
    )
    assert all(c in neighbours(n) for c in range(GRID * GRID) for n in neighbours(c))


def test_levels_and_cliffs() -> None:
    """FALAISE: a cliff separates adjacent cells whose levels differ by 2 or more."""
    assert [int(t) for t in Terrain] == [-1, 0, 1, 2, 3, 4]
    assert not is_cliff(Terrain.SEA, Terrain.PLAIN)
    assert not is_cliff(Terrain.MOUNTAIN, Terrain.GLACIER)
    assert is_cliff(Terrain.SEA, Terrain.FOREST)
    assert is_cliff(Terrain.PLAIN, Terrain.MOUNTAIN)  # the rulebook's example
    assert is_cliff(Terrain.GLACIER, Terrain.SEA)
    assert not is_cliff(Terrain.EMPTY, Terrain.GLACIER)
    g = geometry(world_of(["~pm"]))
    a, b, c = cell_of(10, 10), cell_of(11, 10), cell_of(12, 10)
    assert (g.cliff(a, b), g.cliff(b, c), g.cliff(a, c)) == (False, True, True)
    assert (g.level(a), g.level(c), g.level(cell_of(0, 0))) == (0, 3, -1)


def test_regions_count_glacier_as_mountain() -> None:
    """Présence territoriale: regions of adjacent same-terrain cells; glacier counts as mountain."""
    world = world_of(
        [
            "~~pp.",
            "~mgm~",
            "pp.~~",
        ]
    )
    g = geometry(world)
    summary = [(r.terrain, len(r.cells)) for r in g.regions]
    assert summary == [
        (Terrain.SEA, 3),
        (Terrain.PLAIN, 2),
        (Terrain.MOUNTAIN, 3),
        (Terrain.SEA, 3),
        (Terrain.PLAIN, 2),
    ]
    assert [min(r.cells) for r in g.regions] == sorted(min(r.cells) for r in g.regions)
    assert all(list(r.cells) == sorted(r.cells) for r in g.regions)
    glacier, mountain = cell_of(12, 11), cell_of(11, 11)
    assert g.at(glacier) is Terrain.GLACIER
    assert g.region_of(glacier) == g.region_of(mountain) == 2
    assert g.region_of(cell_of(0, 0)) == -1
    assert g.sea_region_of(cell_of(10, 10)) == 0
    assert g.sea_region_of(cell_of(14, 11)) == 3
    assert g.sea_region_of(mountain) == -1
    assert g.coastal(cell_of(13, 11)) == (3,)
    assert g.coastal(cell_of(11, 11)) == (0,)
    assert g.coastal(cell_of(12, 11)) == ()
    assert g.neighbours_of(cell_of(14, 11)) == (cell_of(14, 12), cell_of(13, 11))
    assert g.neighbours_of(cell_of(0, 0)) == ()
    assert g.cells == tuple(sorted(c for c in range(GRID * GRID) if world.terrain[c] >= 0))


def test_geometry_is_memoised_by_terrain() -> None:
    """Présence territoriale: the derived geometry is rebuilt only when the terrain changes."""
    world = world_of(["~~"])
    first = geometry(world)
    assert geometry(world_of(["~~"])) is first
    world.terrain[cell_of(10, 10)] = Terrain.PLAIN
    second = geometry(world)
    assert second is not first and len(second.regions) == 2


def test_orientations() -> None:
    """Création du Monde: tiles are laid in 4 rotations, mirrored or not (ASSUMED)."""
    l_shape = ((0, 0), (1, 0), (2, 0), (0, 1))
    shapes = {orient(l_shape, r) for r in range(8)}
    assert len(shapes) == 8
    assert orient(l_shape, 0) == l_shape
    assert orient(l_shape, 4) == ((0, 0), (1, 0), (2, 0), (2, 1))
    with pytest.raises(ValueError):
        orient(l_shape, 8)
    square = tiles.orientations("forest", 0)
    assert [o.rotation for o in square] == [0]
    assert len(tiles.orientations("forest", 1)) == 4  # T tetromino
    assert len(tiles.orientations("plain", 2)) == 8


def test_tile_content_matches_rulebook() -> None:
    """Matériel: 4 initial seas of 8 cells, 19 seas of 7, 17 plains of 6, 15 forests of 4..."""
    data = tiles.content()
    expected = {
        "initial": (8, 4),
        "sea": (7, 19),
        "plain": (6, 17),
        "forest": (4, 15),
        "mountain": (3, 11),
        "glacier": (2, 4),
    }
    assert {k: (v.cells, v.count) for k, v in data.kinds.items()} == expected
    for kind, shapes in data.shapes.items():
        assert sum(s.copies for s in shapes) == expected[kind][1]
        assert all(len(s.cells) == expected[kind][0] for s in shapes)
        assert len(tiles.box_order(kind)) == expected[kind][1]
    assert data.counts[4] == {
        "initial": 4,
        "sea": 19,
        "plain": 17,
        "forest": 15,
        "mountain": 11,
        "glacier": 4,
    }
    notes = tiles.assumptions()
    assert sum(line.startswith("Tile ") for line in notes) == sum(
        len(s) for s in data.shapes.values()
    )
    assert any("enclosed-area" in line for line in notes)
    assert any("Layout (3p)" in line for line in notes)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.replace('"copies": 5,', '"copies": 6,', 1), "copies sum"),
        (lambda s: s.replace('"source": "assumed"', '"source": "guess"', 1), "tiles.json"),
        (lambda s: s.replace("[[1, 0], [2, 0], [0, 1]", "[[1, 0], [5, 0], [0, 1]", 1), "connected"),
        (
            lambda s: s.replace('"kind": "initial", "index": 0', '"kind": "initial", "index": 1'),
            "0, 1",
        ),
    ],
)
def test_bad_content_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mutate: object, message: str
) -> None:
    """Matériel: content files are validated at load with a clear error."""
    source = tiles.CONTENT
    (tmp_path / "world_setup.json").write_bytes((source / "world_setup.json").read_bytes())
    text = (source / "tiles.json").read_text(encoding="utf-8")
    assert callable(mutate)
    (tmp_path / "tiles.json").write_text(mutate(text), encoding="utf-8")
    monkeypatch.setattr(tiles, "CONTENT", tmp_path)
    with pytest.raises(tiles.ContentError, match=message):
        tiles._load("square")

"""Tests of the capital-city geometry (``domain/tapestry/capital.py``).

Rulebook sections: "BÂTIMENTS & CAPITALES" (placing buildings and landmarks, impassable plots,
overhang, no room left), "COMPLÉTER DES DISTRICTS, DES LIGNES ET DES COLONNES" (districts, rows
and columns) and the F.À.Q. "BÂTIMENTS ET MONUMENTS". Fixtures come straight from the
reference's ``capitals.json`` and ``landmarks.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.tapestry.capital import (
    SINGLE_CELL,
    CapitalGrid,
    Cell,
    Orientations,
    block,
    capital_vp,
    complete_districts,
    complete_rows_and_columns,
    completed_districts,
    distinct_placements,
    district_cells,
    district_of,
    empty_cells,
    footprint_at,
    has_placement,
    is_full,
    is_legal_placement,
    new_capital,
    on_grid,
    orientations,
    place,
    place_at,
    placements,
)

REFERENCE = Path("/work/shared/reference/tapestry")
OPEN = ("000000000",) * 9
SQUARE = orientations([(0, 0), (0, 1), (1, 0), (1, 1)])


def _load(name: str) -> Any:
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


CAPITALS: list[dict[str, Any]] = _load("capitals.json")["capitals"]
LANDMARKS: list[dict[str, Any]] = _load("landmarks.json")["landmarks"]


def landmark(name: str) -> Orientations:
    """The reference's distinct orientations of the landmark called ``name``."""
    record = next(lm for lm in LANDMARKS if lm["name"] == name)
    return tuple(
        tuple((int(r), int(c)) for r, c in o["cells"]) for o in record["distinct_orientations"]
    )


def fill_all(grid: CapitalGrid, cells: list[Cell], mark: str = "H") -> CapitalGrid:
    """``grid`` with every empty plot among ``cells`` filled."""
    todo = [cell for cell in dict.fromkeys(cells) if grid.is_empty(cell)]
    return place(grid, todo, mark) if todo else grid


# ---------------------------------------------------------------- footprints


@pytest.mark.parametrize("record", LANDMARKS, ids=lambda lm: str(lm["name"]))
def test_landmark_rotations_match_reference_distinct_orientations(
    record: dict[str, Any],
) -> None:
    """Each landmark's rotations (section "BÂTIMENTS & CAPITALES": a landmark is placed aligned
    with the grid) give exactly the reference's ``distinct_orientations``, in the same order."""
    expected = tuple(
        tuple(sorted((int(r), int(c)) for r, c in o["cells"]))
        for o in record["distinct_orientations"]
    )
    got = orientations(record["footprint_cells"])
    assert len(got) == len(record["distinct_orientations"])
    assert got == expected


def test_orientations_of_every_shape_are_rotations_of_each_other() -> None:
    """Re-rotating any orientation gives back the same set of orientations (closure)."""
    for record in LANDMARKS:
        first = orientations(record["footprint_cells"])
        for footprint in first:
            assert set(orientations(footprint)) == set(first)


def test_single_cell_building_has_one_orientation() -> None:
    """An income building covers one plot (section "BÂTIMENTS & CAPITALES")."""
    assert orientations([(3, 3)]) == SINGLE_CELL


# ---------------------------------------------------------------- placements


@pytest.mark.parametrize("capital", CAPITALS, ids=lambda c: str(c["name"]))
def test_reference_capitals_have_22_impassable_plots(capital: dict[str, Any]) -> None:
    """Every basic capital mat: 22 impassable plots, 59 plots open for buildings."""
    grid = new_capital(capital["grid"])
    assert len(empty_cells(grid)) == 81 - 22
    assert len(placements(grid, SINGLE_CELL)) == 59
    assert complete_rows_and_columns(grid) == (0, 0)


def test_income_building_goes_on_any_empty_plot_never_on_impassable() -> None:
    """Section "BÂTIMENTS & CAPITALES": build on empty plots; impassable plots take nothing."""
    grid = new_capital(CAPITALS[0]["grid"])
    cells = {(r, c) for r, c, _ in placements(grid, SINGLE_CELL)}
    assert cells == set(empty_cells(grid))
    assert all(not grid.is_impassable(cell) for cell in cells)
    assert (1, 0) not in cells  # printed dot on the Mountain capital


def test_overhang_lets_a_landmark_stick_out_of_the_grid() -> None:
    """Section "BÂTIMENTS & CAPITALES": buildings may overhang the edge of the grid. A 2x2 landmark
    on an open grid has 8x8 fully inside anchors plus 36 overhanging ones (10x10 in all)."""
    grid = new_capital(OPEN)
    legal = placements(grid, SQUARE)
    assert len(legal) == 100
    assert (-1, -1, 0) in legal  # only (0, 0) on the grid
    assert (8, 8, 0) in legal  # only (8, 8) on the grid
    assert footprint_at(SQUARE, (-1, -1, 0)) == ((-1, -1), (-1, 0), (0, -1), (0, 0))


def test_placement_entirely_off_the_grid_is_not_a_placement() -> None:
    """A landmark must touch the grid: entirely outside is the "no room" case, not a choice."""
    grid = new_capital(OPEN)
    assert (-2, 0, 0) not in placements(grid, SQUARE)
    assert not is_legal_placement(grid, SQUARE, (-2, 0, 0))
    assert not is_legal_placement(grid, SQUARE, (9, 9, 0))
    with pytest.raises(ValueError):
        place(grid, [(-1, 0), (9, 9)])


def test_overhanging_cells_still_may_not_cover_filled_or_impassable_plots() -> None:
    """The on-grid part of an overhanging landmark must lie on empty plots."""
    grid = new_capital(("100000000",) + ("000000000",) * 8)
    grid = place(grid, [(8, 8)], "H")
    legal = placements(grid, SQUARE)
    assert (-1, -1, 0) not in legal  # would cover the impassable (0, 0)
    assert (8, 8, 0) not in legal  # would cover the house on (8, 8)
    assert (7, 8, 0) not in legal
    assert (-1, 1, 0) in legal  # on-grid part (0, 1) and (0, 2), both empty
    assert footprint_at(SQUARE, (-1, 1, 0)) == ((-1, 1), (-1, 2), (0, 1), (0, 2))


def test_overhang_anchor_that_touches_impassable_corner_is_rejected() -> None:
    """Anchor (-1, 0) of a 2x2 covers (0, 0) and (0, 1): illegal when (0, 0) is impassable."""
    grid = new_capital(("100000000",) + ("000000000",) * 8)
    assert not is_legal_placement(grid, SQUARE, (-1, 0, 0))
    assert is_legal_placement(grid, SQUARE, (-1, 1, 0))


def test_placements_agree_with_the_direct_legality_check() -> None:
    """``placements`` lists exactly the anchors ``is_legal_placement`` accepts (all anchors near
    the grid, on a real capital with a few buildings), in row, column, orientation order."""
    grid = new_capital(CAPITALS[1]["grid"])
    grid = place(grid, [(0, 0), (0, 1), (4, 4), (8, 8)], "H")
    for name in ("Rubber Works", "Fusion Reactor", "Tech Hub", "Apothecary", "Academy"):
        footprints = landmark(name)
        brute = [
            (r, c, o)
            for r in range(-5, 10)
            for c in range(-5, 10)
            for o in range(len(footprints))
            if is_legal_placement(grid, footprints, (r, c, o))
        ]
        assert placements(grid, footprints) == sorted(brute)


def test_distinct_placements_keep_one_placement_per_covered_plot_set() -> None:
    """Overhanging placements that cover the same plots have the same effect: listed once."""
    grid = new_capital(CAPITALS[2]["grid"])
    footprints = landmark("Tech Hub")
    every = placements(grid, footprints)
    distinct = distinct_placements(grid, footprints)

    def covered(p: tuple[int, int, int]) -> frozenset[Cell]:
        return frozenset(cell for cell in footprint_at(footprints, p) if on_grid(cell))

    assert len({covered(p) for p in distinct}) == len(distinct)
    assert {covered(p) for p in distinct} == {covered(p) for p in every}
    assert set(distinct) <= set(every)
    # only (0, 0) covered: 3x2 at (-2, -1) and 2x3 at (-1, -2); the first in order is kept
    assert (-2, -1, 1) in every and (-1, -2, 0) in every
    assert (-2, -1, 1) in distinct and (-1, -2, 0) not in distinct


def test_landmark_orientation_index_selects_the_rotation() -> None:
    """A 2x4 Academy laid horizontally (orientation 0) or vertically (orientation 1)."""
    academy = landmark("Academy")
    grid = place_at(new_capital(OPEN), academy, (0, 0, 0), "a")
    assert grid.filled[0] == "aaaa....." and grid.filled[1] == "aaaa....."
    grid = place_at(new_capital(OPEN), academy, (0, 0, 1), "a")
    assert [row[:2] for row in grid.filled[:4]] == ["aa"] * 4 and grid.filled[4][0] == "."


def test_no_room_means_the_building_goes_beside_the_capital() -> None:
    """Section "BÂTIMENTS & CAPITALES" and F.À.Q. "BÂTIMENTS ET MONUMENTS": with no room left the
    building is set beside the capital. One isolated empty plot takes a house but no 2x2 landmark
    (even overhanging, because it is not on the edge)."""
    grid = new_capital(("111111111",) * 4 + ("111101111",) + ("111111111",) * 4)
    assert has_placement(grid, SINGLE_CELL)
    assert placements(grid, SINGLE_CELL) == [(4, 4, 0)]
    assert not has_placement(grid, SQUARE)
    assert placements(grid, SQUARE) == []
    grid = place(grid, [(4, 4)])
    assert is_full(grid)
    assert not has_placement(grid, SINGLE_CELL)


def test_a_lone_empty_plot_on_the_edge_still_takes_a_landmark_by_overhang() -> None:
    """With overhang, an empty corner plot surrounded by impassable plots fits a 3x3 landmark."""
    grid = new_capital(("011111111",) + ("111111111",) * 8)
    legal = placements(grid, landmark("Train Station"))
    assert legal == [(-2, -2, 0)]


def test_place_rejects_covering_a_filled_or_impassable_plot() -> None:
    """Buildings go only on empty plots (section "BÂTIMENTS & CAPITALES")."""
    grid = new_capital(CAPITALS[0]["grid"])
    with pytest.raises(ValueError):
        place(grid, [(1, 0)])  # impassable
    grid = place(grid, [(0, 0)], "F")
    with pytest.raises(ValueError):
        place(grid, [(0, 0)])
    with pytest.raises(ValueError):
        place(grid, [(0, 1), (0, 1)])
    with pytest.raises(ValueError):
        place(grid, [(0, 1)], ".")


def test_place_ignores_off_grid_cells_and_keeps_the_old_grid() -> None:
    """Placing returns a new grid; the overhanging part is not recorded."""
    before = new_capital(OPEN)
    after = place(before, [(8, 7), (8, 8), (9, 7), (9, 8)], "L")
    assert before.filled[8] == "........."
    assert after.filled[8] == ".......LL"


# ---------------------------------------------------------------- districts


def test_district_numbering_is_row_major() -> None:
    """The nine 3x3 districts, 0 top-left to 8 bottom-right."""
    assert [district_of(cells[0]) for cells in map(district_cells, range(9))] == list(range(9))
    assert district_cells(4)[0] == (3, 3) and district_cells(4)[-1] == (5, 5)


def test_district_completed_by_the_last_building_counts_impassable_plots() -> None:
    """Section "COMPLÉTER DES DISTRICTS, DES LIGNES ET DES COLONNES": a district is complete when
    all 9 plots are covered; section "BÂTIMENTS & CAPITALES": impassable plots help complete it.
    Mountain capital, district 1 (rows 0-2, cols 3-5) has 4 impassable plots."""
    grid = new_capital(CAPITALS[0]["grid"])
    cells = district_cells(1)
    open_cells = [cell for cell in cells if grid.is_empty(cell)]
    assert len(open_cells) == 5
    before = place(grid, open_cells[:-1], "H")
    after = place(before, open_cells[-1:], "H")
    assert completed_districts(grid, before) == ()
    assert completed_districts(before, after) == (1,)
    assert complete_districts(after) == (1,)
    # a later building elsewhere does not complete district 1 again
    later = place(after, [(8, 8)], "H")
    assert completed_districts(after, later) == ()


def test_one_landmark_can_complete_two_districts_at_once() -> None:
    """A landmark straddling two nearly full districts completes both (1 resource each)."""
    grid = new_capital(("111111111",) * 2 + ("111001111",) + ("000000000",) * 6)
    bar = orientations([(0, 0), (0, 1)])
    assert completed_districts(grid, place_at(grid, bar, (2, 3, 0))) == (1,)
    grid = new_capital(("111111111",) * 2 + ("110011111",) + ("000000000",) * 6)
    assert completed_districts(grid, place_at(grid, bar, (2, 2, 0))) == (0, 1)


def test_architects_cube_blocks_a_plot_and_counts_for_completion() -> None:
    """Architects' rebalancing ("RÉÉQUILIBRAGE DES CIVILISATIONS"): a cube makes a plot
    impassable; impassable plots count towards districts."""
    grid = new_capital(("111111111",) * 2 + ("111111110",) + ("000000000",) * 6)
    blocked = block(grid, [(2, 8)])
    assert blocked.is_impassable((2, 8))
    assert complete_districts(blocked) == (0, 1, 2)
    with pytest.raises(ValueError):
        block(blocked, [(2, 8)])


# ---------------------------------------------------------------- rows and columns


def test_rulebook_example_capital_with_three_complete_rows_and_columns() -> None:
    """Section "COMPLÉTER DES DISTRICTS, DES LIGNES ET DES COLONNES": the example capital has 3
    complete rows and columns, worth 3 VP each time the capital is scored. The picture is not
    in the text, so the position is rebuilt on the Mountain capital (id 1): every empty plot of
    rows 0 and 1 and of column 0 is built on; rows 0 and 1 and column 0 are complete (row 1's
    five printed dots count), nothing else is."""
    grid = new_capital(CAPITALS[0]["grid"])
    cells = [(0, c) for c in range(9)] + [(1, c) for c in range(9)] + [(r, 0) for r in range(9)]
    grid = fill_all(grid, cells)
    assert complete_rows_and_columns(grid) == (2, 1)
    assert capital_vp(grid) == 3


def test_row_or_column_of_only_impassable_and_filled_plots_is_complete() -> None:
    """Impassable plots count towards rows and columns (section "BÂTIMENTS & CAPITALES")."""
    grid = new_capital(("111111111",) + ("000000000",) * 8)
    assert complete_rows_and_columns(grid) == (1, 0)
    grid = fill_all(grid, [(r, 4) for r in range(9)])
    assert complete_rows_and_columns(grid) == (1, 1)


def test_a_row_with_one_empty_plot_does_not_count() -> None:
    """A row scores only when all 9 plots are covered."""
    grid = fill_all(new_capital(OPEN), [(0, c) for c in range(8)])
    assert complete_rows_and_columns(grid) == (0, 0)


def test_full_capital_scores_18() -> None:
    """Every row and column complete: 9 + 9 VP."""
    grid = new_capital(CAPITALS[3]["grid"])
    grid = fill_all(grid, list(empty_cells(grid)))
    assert is_full(grid) and capital_vp(grid) == 18
    assert complete_districts(grid) == tuple(range(9))


# ---------------------------------------------------------------- the value itself


def test_capital_grid_rejects_malformed_rows() -> None:
    """A grid is 9x9; a plot cannot be both impassable and built on."""
    with pytest.raises(ValueError):
        CapitalGrid(blocked=("0" * 9,) * 8)
    with pytest.raises(ValueError):
        CapitalGrid(blocked=("2" * 9,) * 9)
    with pytest.raises(ValueError):
        CapitalGrid(blocked=("1" + "0" * 8, *OPEN[1:]), filled=("H" + "." * 8,) + ("." * 9,) * 8)


def test_capital_grid_round_trips_through_json() -> None:
    """The grid is plain strings, so it serialises in events and states."""
    grid = place_at(new_capital(CAPITALS[4]["grid"]), SQUARE, (-1, -1, 0), "b")
    data = msgspec.json.encode(grid)
    assert msgspec.json.decode(data, type=CapitalGrid) == grid

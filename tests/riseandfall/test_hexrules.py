"""Ruleset ``riseandfall/2``: the spatial rules on hexes and the rule fixes of that ruleset.

Each test names the rule it proves. Worlds are drawn in axial rows (see
:mod:`tests.riseandfall.helpers`): the hex at column ``q`` of row ``r``.
"""

from __future__ import annotations

import pytest

from domain.core import Chance, RuleViolation
from domain.riseandfall.commands import Activate, BuyBack
from domain.riseandfall.content import MERCHANT, NOMAD, SHIP
from domain.riseandfall.game import RiseAndFall, RiseAndFallHex
from domain.riseandfall.hexgrid import HEX
from domain.riseandfall.scoring import score_sheets
from domain.riseandfall.state import RiseFallState
from domain.riseandfall.world import Terrain, geometry
from domain.riseandfall.worldboard import _Board
from domain.riseandfall.worldbuild import (
    cells_at,
    check_placement,
    initial_world,
    place,
)
from domain.riseandfall.worldrandom import random_world
from tests.riseandfall.helpers import put, run, settle, table, world_from

HEXGAME = RiseAndFallHex()
c = HEX.cell_of

WORLD = [
    "~~~~~~~",
    "~pppffp",
    "~ppmffp",
    "~pffmmp",
]


def hex_table(rows: list[str], seats: int = 2) -> RiseFallState:
    """A ``riseandfall/2`` position in phase B on a hand-drawn hex world."""
    return table(rows, seats, game=HEXGAME)


def targets(state: RiseFallState, cell: int, action: str = "move") -> set[int]:
    """The targets of ``action`` legal for seat 0's piece on ``cell``."""
    return {
        a.target
        for a in HEXGAME.legal_actions(state, 0)
        if isinstance(a, Activate) and a.cell == cell and a.action == action
    }


def test_nomad_moves_to_the_six_neighbouring_hexes() -> None:
    """Nomades / Mouvement on hexes: an adjacent empty plain, forest or mountain with no cliff;
    the two hexes a square grid lacks ((q+1, r-1) and (q-1, r+1)) are adjacent."""
    state = hex_table(WORLD)
    put(state, 0, "nomad", 2, 1)
    settle(state, {0: "nomad"})
    assert targets(state, c(2, 1)) == {c(3, 1), c(1, 1), c(1, 2), c(2, 2)}
    events, _ = run(state, 0, Activate(cell=c(2, 1), action="move", target=c(1, 2)))
    assert events[0].cell == c(1, 2)  # type: ignore[attr-defined]
    square = table(WORLD)
    put(square, 0, "nomad", 2, 1)
    settle(square, {0: "nomad"})
    with pytest.raises(RuleViolation) as error:
        RiseAndFall().decide(
            square, 0, Activate(cell=c(2, 1), action="move", target=c(1, 2)), Chance(b"t", 0)
        )
    assert error.value.code == "NOT_ADJACENT"


def test_cliff_between_hexes() -> None:
    """FALAISE on hexes: a plain next to a mountain (levels 1 and 3) is cut by a cliff."""
    state = hex_table(WORLD)
    put(state, 0, "nomad", 2, 2)
    settle(state, {0: "nomad"})
    assert geometry(state.world).cliff(c(2, 2), c(3, 2))
    assert c(3, 2) not in targets(state, c(2, 2))
    assert {c(3, 1), c(2, 1), c(1, 2), c(1, 3), c(2, 3)} == targets(state, c(2, 2))


@pytest.mark.parametrize(("piece", "steps"), [("nomad", 1), ("mountaineer", 3), ("merchant", 4)])
def test_move_ranges_are_hex_distances(piece: str, steps: int) -> None:
    """Nomades (1 case), Montagnards (jusqu'à 3 cases), Marchands (jusqu'à 4 cases) on hexes:
    on open land the reachable hexes are exactly those within that hex distance."""
    rows = ["p" * 13 for _ in range(13)]
    state = hex_table(rows)
    centre = c(6, 6)
    put(state, 0, piece, 6, 6)
    settle(state, {0: piece})
    expected = {
        cell for cell in geometry(state.world).cells if 0 < HEX.distance(centre, cell) <= steps
    }
    assert targets(state, centre) == expected


def test_regions_coasts_and_ship_moves_join_through_hex_sides() -> None:
    """Présence territoriale (regions) and Navires / Mouvement on hexes: sea hexes (1, 0) and
    (0, 1) share a side on hexes (they only touch at a corner on squares), so they form one
    sea region a ship crosses, and the plain (0, 0) is coastal to it."""
    rows = ["p~", "~p"]
    hexes = geometry(world_from(rows, "hex"))
    squares = geometry(world_from(rows))
    assert hexes.region_of(c(1, 0)) == hexes.region_of(c(0, 1))
    assert squares.region_of(c(1, 0)) != squares.region_of(c(0, 1))
    assert hexes.coastal(c(1, 1)) == (hexes.region_of(c(1, 0)),)
    state = hex_table(rows)
    put(state, 0, "ship", 1, 0)
    settle(state, {0: "ship"})
    assert targets(state, c(1, 0)) == {c(0, 1)}


def test_glacier_counts_as_mountain_in_hex_regions() -> None:
    """Présence territoriale: glacier hexes belong to their mountain region."""
    geo = geometry(world_from(["mg", "mm"], "hex"))
    assert len(geo.regions) == 1 and geo.regions[0].terrain == Terrain.MOUNTAIN


def _enclosed_by_flood(terrain: list[int], cells: tuple[int, ...]) -> bool:
    """Brute force: after filling ``cells``, is some empty hex cut off from the table's edge?"""
    filled = set(cells)
    empty = [i for i, t in enumerate(terrain) if t < 0 and i not in filled]
    edge = [i for i in empty if len(HEX.neighbours[i]) < 6]
    open_ = set(HEX.flood(edge, lambda i: terrain[i] < 0 and i not in filled))
    return len(open_) != len(empty)


def test_sea_never_closes_an_area_of_empty_hexes() -> None:
    """Création du Monde, "ne pas fermer une zone contenant des cases vides", on hexes: every
    candidate sea position (on empty hexes, touching 2 tiles) is refused exactly when a flood
    fill from the table's edge no longer reaches every empty hex."""
    world = initial_world(3, "hex")
    for p in random_world(3, Chance(b"enclose", 0), "hex", None)[:9]:
        place(world, p)
    board = _Board(world)
    refused = accepted = 0
    for q in range(10, 30):
        for r in range(10, 30):
            cells = cells_at("sea", 0, 0, q, r, "hex")
            assert cells is not None
            error = board.sea_error(cells)
            if error is not None and error[0] != "SEA_ENCLOSES_EMPTY":
                continue
            assert (error is not None) == _enclosed_by_flood(board.terrain, cells)
            refused += error is not None
            accepted += error is None
    assert refused > 0 and accepted > 0


def test_the_hex_world_builds_with_the_rulebook_counts() -> None:
    """Création du Monde / Matériel on hexes: 2, 3, 4 seats lay every tile of the table (seas
    of 7 hexes, plains of 6, forests of 4, mountains of 3, glaciers of 2)."""
    for players, total in ((2, 38), (3, 51), (4, 66)):
        world = initial_world(players, "hex")
        placements = random_world(players, Chance(b"counts", players), "hex", None)
        assert len(placements) == total
        for p in placements:
            check_placement(world, p, None)
            place(world, p)
        sizes = {t.kind: len(t.cells) for t in world.tiles}
        assert sizes == {
            "initial": 8,
            "sea": 7,
            "plain": 6,
            "forest": 4,
            "mountain": 3,
            "glacier": 2,
        }


def test_buy_back_price_follows_the_trophies_already_won() -> None:
    """D - Rachat d'une carte en Déclin: "dépend du nombre des Trophées déjà obtenus" — after
    2 trophies won in one round (one decline phase) the price is the second one, 10 PO
    (``riseandfall/1`` charged by decline phases: 5 PO)."""
    prices = {}
    for game in (RiseAndFall(), HEXGAME):
        state = table(["pppp", "pppp"], game=game)
        put(state, 0, "nomad", 0, 0)
        settle(state, {0: "nomad"})
        state.phase = "buyback"
        state.actor = 0
        state.declines = 1
        state.trophies_taken = 2
        state.seats[0].declined = [SHIP, MERCHANT]
        state.seats[0].coins = 20
        events, _ = run(state, 0, BuyBack(card="ship"))
        prices[game.ruleset_version] = events[0].price  # type: ignore[attr-defined]
    assert prices == {"riseandfall/1": 5, "riseandfall/2": 10}


def test_quick_scoring_variant_keeps_half_the_coins_rounded_up() -> None:
    """VARIANTE : DÉCOMPTE RAPIDE: "chaque joueur remet dans la boîte la moitié de ses PO
    (arrondi au dessous)... 1PO = 1PV": 7 coins score 4 (the score sheet: 3)."""
    full = HEXGAME.initial(HEXGAME.decode_options({}), 2)
    quick = HEXGAME.initial(HEXGAME.decode_options({"scoring": "quick"}), 2)
    for state in (full, quick):
        state.seats[0].coins = 7
        state.seats[0].hand = [NOMAD]
    assert score_sheets(full)[0].economy == 3
    assert score_sheets(quick)[0].economy == 4
    with pytest.raises(Exception, match="scoring"):
        RiseAndFall().decode_options({"scoring": "quick"})


def test_tithe_and_merchant_trade_count_all_six_neighbours() -> None:
    """Temples / Dîme and Marchands / Commercer on hexes: the pieces and cities on all six
    neighbouring hexes count, the two "diagonal" ones a square grid lacks included
    (tithe 2 PO per own piece around the temple; trade 3 PO per own city, 5 per other)."""
    rows = ["ppp", "ppp", "ppp"]
    state = hex_table(rows)
    put(state, 0, "temple", 1, 1)
    for q, r in ((2, 0), (0, 2), (2, 1)):  # (2, 0) and (0, 2): hex-only neighbours
        put(state, 0, "nomad", q, r)
    put(state, 0, "nomad", 0, 0)  # not a neighbour on hexes
    settle(state, {0: "temple"})
    events, _ = run(state, 0, Activate(cell=c(1, 1), action="tithe"))
    assert events[0].amount == 6  # type: ignore[attr-defined]
    trade = hex_table(rows)
    put(trade, 0, "merchant", 1, 1)
    put(trade, 1, "city", 2, 0)
    put(trade, 0, "city", 0, 2)
    put(trade, 1, "city", 0, 0)  # not a neighbour
    settle(trade, {0: "merchant"})
    events, _ = run(trade, 0, Activate(cell=c(1, 1), action="trade"))
    assert events[0].amount == 8  # type: ignore[attr-defined]

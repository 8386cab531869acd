"""Scoring and content: the rulebook's scoring examples and the content files' provenance."""

from __future__ import annotations

from typing import Any

import pytest

from domain.riseandfall.content import (
    CARDS,
    CITY,
    MERCHANT,
    MOUNTAINEER,
    NOMAD,
    SHIP,
    TEMPLE,
    assumptions,
    bank_coins,
    buy_back_price,
    development_vp,
)
from domain.riseandfall.game import RiseAndFallHex
from domain.riseandfall.scoring import score_sheets
from domain.riseandfall.world import cell_of, geometry
from tests.riseandfall.helpers import GAME, put, settle, table

#: the example tests run under both rulesets (square and hexagonal worlds).
RULESETS = [GAME, RiseAndFallHex()]

RED, YELLOW, GREEN = 0, 1, 2
REGIONS_WORLD = [
    "~~~~~~~.......",
    "ppppff.p.ffmmm",
    "...........mmg",
]


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_territorial_presence_example(game: Any) -> None:
    """Présence territoriale: regions A–F of the rulebook's example score 4, 0, 14, 1, 6, 24.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(REGIONS_WORLD, seats=3, game=game)
    # A - plain of 4 cells: Red 2 pieces, Yellow 1.
    put(state, RED, "city", 0, 1)
    put(state, RED, "nomad", 1, 1)
    put(state, YELLOW, "nomad", 3, 1)
    # B - forest of 2 cells: Yellow and Red, 1 each.
    put(state, YELLOW, "nomad", 4, 1)
    put(state, RED, "nomad", 5, 1)
    # C - sea of 7 cells: Red 2 ships, Yellow 1.
    put(state, RED, "ship", 0, 0)
    put(state, RED, "ship", 3, 0)
    put(state, YELLOW, "ship", 6, 0)
    # D - plain of 1 cell: Green.
    put(state, GREEN, "city", 7, 1)
    # E - forest of 2 cells: Yellow alone.
    put(state, YELLOW, "nomad", 9, 1)
    # F - mountain of 6 cells (a glacier counts as mountain): Yellow 2, Red 1.
    put(state, YELLOW, "mountaineer", 11, 1)
    put(state, YELLOW, "mountaineer", 13, 2)
    put(state, RED, "mountaineer", 12, 2)
    settle(state)
    geo = geometry(state.world)
    assert len(geo.regions) == 6
    sheets = score_sheets(state)
    red, yellow, green = sheets
    assert red.regions == ((7,), (4,), (), ())
    assert red.territory == (14, 4, 0, 0)
    assert yellow.regions == ((), (), (2,), (6,))
    assert yellow.territory == (0, 0, 6, 24)
    assert green.territory == (0, 1, 0, 0)
    assert sum(red.territory) + sum(yellow.territory) + sum(green.territory) == 4 + 14 + 1 + 6 + 24


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_city_with_merchant_counts_two_pieces(game: Any) -> None:
    """Présence territoriale (decision): a city with a merchant on it counts as two pieces.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["pppp"], game=game)
    put(state, RED, "city", 0, 0)
    put(state, RED, "merchant", 0, 0)
    put(state, YELLOW, "nomad", 2, 0)
    settle(state)
    assert score_sheets(state)[RED].territory == (0, 4, 0, 0)
    put(state, YELLOW, "nomad", 3, 0)
    assert score_sheets(state)[RED].territory == (0, 0, 0, 0)  # 2 against 2: a tie


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_score_sheet_example_140_points(game: Any) -> None:
    """Décompte des Points de Victoire: the example sheet, 43 + 30 + 33 + 34 = 140 PV.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    rows = [
        "~~~~~~~",
        "ppp.ffff",
        "........",
        "ppppp",
    ]
    state = table(rows, game=game)
    me = state.seats[0]
    me.coins = 87
    me.trophies = [NOMAD, CITY, SHIP]
    me.declined = [MOUNTAINEER, TEMPLE]
    land = [(0, 1), (1, 1), (2, 1), (4, 1), (5, 1), (6, 1), (7, 1), (0, 3), (1, 3), (2, 3), (3, 3)]
    for x, y in land[:7]:
        put(state, 0, "nomad", x, y)
    for x, y in land[7:10]:
        put(state, 0, "city", x, y)
        put(state, 0, "merchant", x, y)
    put(state, 0, "merchant", *land[10])
    put(state, 0, "ship", 0, 0)
    put(state, 0, "ship", 5, 0)
    settle(state, {0: "merchant"})
    sheet = score_sheets(state)[0]
    assert (sheet.coins, sheet.economy) == (87, 43)
    assert sheet.trophies == 30
    assert sheet.developed == (7, 3, 2, -1, 4, -1)
    assert sheet.development == (7, 15, 4, -1, 7, -1)
    assert sheet.regions == ((7,), (3, 5), (4,), ())
    assert sheet.territory == (14, 8, 12, 0)
    assert sheet.total == 140
    assert GAME.scores(state)[0] == 140


def test_development_tables_match_the_example() -> None:
    """Développement example: 7 nomads 7 PV, 3 cities 15, 2 ships 4, 4 merchants 7."""
    assert development_vp(NOMAD, 7) == 7
    assert development_vp(CITY, 3) == 15
    assert development_vp(SHIP, 2) == 4
    assert development_vp(MERCHANT, 4) == 7
    assert [c.pieces for c in CARDS] == [8, 8, 5, 3, 6, 3]


def test_content_provenance_and_assumptions() -> None:
    """Mise en place / D - Rachat: bank per player count and the 5, 10, 20 PO ladder."""
    assert buy_back_price(1) == 5 and buy_back_price(2) == 10 and buy_back_price(3) == 20
    assert bank_coins(4) - bank_coins(3) == 200 and bank_coins(4) - bank_coins(2) == 400
    notes = assumptions()
    assert any("three_second_rule" in line for line in notes)
    assert all(line.strip() for line in notes)


def test_extinct_seat_scores_only_trophies() -> None:
    """Cas rares (Extinction): trophies are kept and counted; nothing else scores."""
    state = table(["ppp"])
    put(state, 1, "nomad", 0, 0)
    settle(state)
    state.seats[1].trophies = [TEMPLE]
    state.seats[1].extinct = True
    state.seats[1].coins = 0
    state.owner[cell_of(0, 0)] = -1
    assert score_sheets(state)[1].total == 10

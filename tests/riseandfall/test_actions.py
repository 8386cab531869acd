"""Phase B actions, one test per action: accepted, and every refusal reason.

Each test names the rulebook section of the action ("Explication détaillée des cartes").
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import Chance, Event, MalformedCommand, RuleViolation
from domain.riseandfall import events as ev
from domain.riseandfall.commands import Activate, ChooseCard
from domain.riseandfall.content import CITY, MERCHANT, NOMAD, SHIP
from domain.riseandfall.game import RiseAndFallHex
from domain.riseandfall.state import RiseFallState
from domain.riseandfall.world import cell_of as c
from tests.riseandfall.helpers import GAME, game_of, of, put, run, settle, table

#: the example tests run under both rulesets (square and hexagonal worlds).
RULESETS = [GAME, RiseAndFallHex()]

# x: 0 1 2 3 4 5
NOMAD_WORLD = [
    "~~pfm.",  # y0
    "~ppfmg",  # y1
    "..pm..",  # y2
]


def refused(state: RiseFallState, command: Activate, seat: int = 0) -> str:
    """The code of the violation ``command`` raises (fails if it is accepted), under the
    ruleset of the state's grid."""
    game = game_of(state)
    with pytest.raises(RuleViolation) as err:
        game.decide(state, seat, command, _chance())
    assert command not in game.legal_actions(state, seat)
    return err.value.code


def accepted(state: RiseFallState, command: Activate, seat: int = 0) -> list[Event]:
    """The events of an accepted ``command`` (also checks it is listed as legal)."""
    assert command in game_of(state).legal_actions(state, seat)
    events, _ = run(state, seat, command)
    return events


def _chance() -> Chance:
    return Chance(b"t", 0)


def act(x: int, y: int, action: str, tx: int | None = None, ty: int | None = None) -> Activate:
    """``Activate`` of the piece on ``(x, y)`` with an optional target ``(tx, ty)``."""
    target = -1 if tx is None or ty is None else c(tx, ty)
    return Activate(cell=c(x, y), action=action, target=target)  # type: ignore[arg-type]


def nomad_table(game: Any = GAME) -> RiseFallState:
    state = table(NOMAD_WORLD, game=game)
    put(state, 0, "nomad", 2, 1)
    put(state, 1, "nomad", 1, 1)
    return settle(state, {0: "nomad", 1: "nomad"})


# -- generic checks ------------------------------------------------------------------------
@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_generic_refusals(game: Any) -> None:
    """B - Actions: own turn, own piece of the played type, known action, target or not.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = nomad_table(game)
    assert refused(state, act(1, 1, "produce"), seat=1) == "NOT_YOUR_TURN"
    assert refused(state, act(1, 1, "produce")) == "NO_SUCH_PIECE"
    assert refused(state, act(2, 2, "produce")) == "NO_SUCH_PIECE"
    assert refused(state, act(2, 1, "tax")) == "NO_SUCH_ACTION"
    assert refused(state, act(2, 1, "move")) == "TARGET_REQUIRED"
    assert refused(state, act(2, 1, "produce", 2, 0)) == "NO_TARGET"
    with pytest.raises(MalformedCommand):
        game.decide(state, 0, Activate(cell=-4, action="produce"), _chance())
    with pytest.raises(MalformedCommand):
        game.decide(state, 0, Activate(cell=c(2, 1), action="fly"), _chance())  # type: ignore[arg-type]
    with pytest.raises(RuleViolation) as err:
        game.decide(state, 0, ChooseCard(card="city"), _chance())
    assert err.value.code == "WRONG_PHASE"
    with pytest.raises(MalformedCommand):
        game.decide(state, 0, Activate(cell="x", action="move"), _chance())  # type: ignore[arg-type]
    with pytest.raises(RuleViolation) as err:
        game.decide(state, 7, Activate(cell=c(2, 1), action="produce"), _chance())
    assert err.value.code == "NO_SUCH_SEAT" and game.legal_actions(state, 7) == []


# -- nomads --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_nomad_move(game: Any) -> None:
    """Nomades / Mouvement: adjacent empty plain, forest or mountain, no cliff; once a turn.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = nomad_table(game)
    events, after = run(state, 0, act(2, 1, "move", 2, 2))
    assert events[0] == ev.PieceMoved(seat=0, piece="nomad", origin=c(2, 1), cell=c(2, 2))
    assert refused(after, act(2, 2, "move", 2, 1)) == "ALREADY_ACTIVATED"
    assert refused(state, act(2, 1, "move", 2, 3)) == "NOT_ADJACENT"
    assert refused(state, act(2, 1, "move", 1, 1)) == "OCCUPIED"
    state2 = table(NOMAD_WORLD, game=game)
    put(state2, 0, "nomad", 2, 2)
    put(state2, 0, "nomad", 4, 1)
    settle(state2, {0: "nomad"})
    assert refused(state2, act(2, 2, "move", 3, 2)) == "CLIFF"
    assert refused(state2, act(4, 1, "move", 5, 1)) == "BAD_TERRAIN"
    state3 = table(NOMAD_WORLD, game=game)
    put(state3, 0, "nomad", 1, 1)
    settle(state3, {0: "nomad"})
    assert refused(state3, act(1, 1, "move", 0, 1)) == "BAD_TERRAIN"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_nomad_produce(game: Any) -> None:
    """Nomades / Production: wood in a forest, stone on a mountain; cap of 5; bank stock.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(NOMAD_WORLD, game=game)
    put(state, 0, "nomad", 3, 1)
    put(state, 0, "nomad", 4, 1)
    put(state, 0, "nomad", 2, 1)
    settle(state, {0: "nomad"})
    assert of(accepted(state, act(3, 1, "produce")), ev.ResourceProduced)[0].resource == "wood"
    assert of(accepted(state, act(4, 1, "produce")), ev.ResourceProduced)[0].resource == "stone"
    assert refused(state, act(2, 1, "produce")) == "BAD_TERRAIN"
    state.seats[0].wood = 5
    assert refused(state, act(3, 1, "produce")) == "RESOURCE_CAP"
    state.bank_stone = 0
    assert refused(state, act(4, 1, "produce")) == "BANK_EMPTY"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_nomad_builds_city(game: Any) -> None:
    """Nomades / Construction d'une ville: plain or forest, 1 wood and 1 stone.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(NOMAD_WORLD, game=game)
    put(state, 0, "nomad", 2, 1)
    put(state, 0, "nomad", 4, 1)
    put(state, 0, "city", 2, 0)
    settle(state, {0: "nomad"})
    state.seats[0].wood = state.seats[0].stone = 1
    events, after = run(state, 0, act(2, 1, "build_city"))
    assert events[0] == ev.CityBuilt(
        seat=0, builder="nomad", origin=c(2, 1), cell=c(2, 1), wood=1, stone=1
    )
    assert after.kind[c(2, 1)] == CITY and after.seats[0].wood == 0 and after.bank_wood == 21
    assert refused(state, act(4, 1, "build_city")) == "BAD_TERRAIN"
    state.seats[0].stone = 0
    assert refused(state, act(2, 1, "build_city")) == "NOT_ENOUGH_STONE"
    state.seats[0].stone = 1
    state.seats[0].pieces[CITY] = 8
    assert refused(state, act(2, 1, "build_city")) == "NO_PIECE_IN_RESERVE"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_nomad_builds_temple(game: Any) -> None:
    """Nomades / Construction d'un temple: plain or mountain (not forest), 2 stone.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(NOMAD_WORLD, game=game)
    put(state, 0, "nomad", 4, 1)
    put(state, 0, "nomad", 3, 1)
    settle(state, {0: "nomad"})
    state.seats[0].stone = 2
    events = accepted(state, act(4, 1, "build_temple"))
    assert isinstance(events[0], ev.TempleBuilt)
    assert of(events, ev.CardToHand) == [ev.CardToHand(seat=0, card="temple")]
    assert refused(state, act(3, 1, "build_temple")) == "BAD_TERRAIN"
    state.seats[0].stone = 1
    assert refused(state, act(4, 1, "build_temple")) == "NOT_ENOUGH_STONE"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_nomad_builds_ship(game: Any) -> None:
    """Nomades / Construction d'un navire: on a plain next to an empty sea cell, 1 wood.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(NOMAD_WORLD, game=game)
    put(state, 0, "nomad", 1, 1)
    put(state, 0, "nomad", 3, 1)
    put(state, 1, "ship", 1, 0)
    settle(state, {0: "nomad"})
    state.seats[0].wood = 1
    events, after = run(state, 0, act(1, 1, "build_ship", 0, 1))
    assert events[0] == ev.ShipBuilt(seat=0, builder="nomad", origin=c(1, 1), cell=c(0, 1), wood=1)
    assert after.owner[c(1, 1)] == -1 and after.kind[c(0, 1)] == SHIP
    assert refused(state, act(1, 1, "build_ship", 2, 1)) == "NOT_SEA"
    assert refused(state, act(1, 1, "build_ship", 1, 0)) == "OCCUPIED"
    assert refused(state, act(3, 1, "build_ship", 3, 0)) == "BAD_TERRAIN"
    state.seats[0].wood = 0
    assert refused(state, act(1, 1, "build_ship", 0, 1)) == "NOT_ENOUGH_WOOD"


# -- cities --------------------------------------------------------------------------------
def city_table(game: Any = GAME) -> RiseFallState:
    state = table(NOMAD_WORLD, game=game)
    put(state, 0, "city", 2, 1)
    put(state, 0, "city", 2, 2)
    put(state, 0, "nomad", 1, 1)
    return settle(state, {0: "city"})


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_city_grows(game: Any) -> None:
    """Villes / Croissance: a nomad on an adjacent empty plain, forest or mountain, no cliff.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = city_table(game)
    events = accepted(state, act(2, 1, "grow", 3, 1))
    assert events[0] == ev.NomadGrown(seat=0, city=c(2, 1), cell=c(3, 1))
    assert refused(state, act(2, 1, "grow", 1, 1)) == "OCCUPIED"
    assert refused(state, act(2, 2, "grow", 3, 2)) == "CLIFF"
    assert refused(state, act(2, 1, "grow", 4, 1)) == "NOT_ADJACENT"
    state.seats[0].pieces[NOMAD] = 8
    assert refused(state, act(2, 1, "grow", 3, 1)) == "NO_PIECE_IN_RESERVE"
    sea = table(["~p"], game=game)
    put(sea, 0, "city", 1, 0)
    settle(sea, {0: "city"})
    assert refused(sea, act(1, 0, "grow", 0, 0)) == "BAD_TERRAIN"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_city_education(game: Any) -> None:
    """Villes / Éducation: an adjacent own nomad (no cliff) becomes a merchant (2) or a
    mountaineer (1).
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = city_table(game)
    state.seats[0].coins = 2
    events, after = run(state, 0, act(2, 1, "train_merchant", 1, 1))
    assert events[0] == ev.PieceTrained(
        seat=0, city=c(2, 1), cell=c(1, 1), piece="merchant", coins=2
    )
    assert after.kind[c(1, 1)] == MERCHANT and after.seats[0].coins == 0
    assert ev.CardToHand(seat=0, card="merchant") in events
    assert ev.CardToReserve(seat=0, card="nomad") in events
    assert isinstance(accepted(state, act(2, 1, "train_mountaineer", 1, 1))[0], ev.PieceTrained)
    assert refused(state, act(2, 1, "train_merchant", 3, 1)) == "NO_NOMAD"
    state.seats[0].coins = 1
    assert refused(state, act(2, 1, "train_merchant", 1, 1)) == "NOT_ENOUGH_COINS"
    cliff = table(["pm"], game=game)
    put(cliff, 0, "city", 0, 0)
    put(cliff, 0, "nomad", 1, 0)
    settle(cliff, {0: "city"})
    cliff.seats[0].coins = 5
    assert refused(cliff, act(0, 0, "train_mountaineer", 1, 0)) == "CLIFF"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_city_taxes_and_empty_bank(game: Any) -> None:
    """Villes / Taxes: mountain 1, plain 2, forest 3; Les coffres de la banque sont vides.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["pfm"], game=game)
    for x in range(3):
        put(state, 0, "city", x, 0)
    settle(state, {0: "city"})
    paid = [of(accepted(state, act(x, 0, "tax")), ev.CoinsEarned)[0].paid for x in range(3)]
    assert paid == [2, 3, 1]
    state.bank_coins = 1
    events, after = run(state, 0, act(0, 0, "tax"))
    assert events[0] == ev.CoinsEarned(
        seat=0, piece="city", cell=c(0, 0), action="tax", amount=2, paid=1
    )
    assert after.bank_coins == 0 and after.seats[0].coins == 1
    _, broke = run(after, 0, act(1, 0, "tax"))
    assert broke.seats[0].coins == 1 and broke.bank_coins == 0


# -- ships ---------------------------------------------------------------------------------
SHIP_WORLD = [
    "~~~p~~",  # y0: two seas split by a plain
    "~~~pff",
    "pfm...",
]


def ship_table(game: Any = GAME) -> RiseFallState:
    state = table(SHIP_WORLD, game=game)
    put(state, 0, "ship", 2, 1)
    put(state, 0, "ship", 1, 1)
    put(state, 1, "ship", 1, 0)
    return settle(state, {0: "ship", 1: "ship"})


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_ship_moves_within_its_sea_region(game: Any) -> None:
    """Navires / Mouvement: any empty sea cell of the same region, through occupied cells.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = ship_table(game)
    assert isinstance(accepted(state, act(2, 1, "move", 0, 0))[0], ev.PieceMoved)
    assert refused(state, act(2, 1, "move", 4, 0)) == "OTHER_SEA_REGION"
    assert refused(state, act(2, 1, "move", 1, 0)) == "OCCUPIED"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_ship_builds(game: Any) -> None:
    """Navires / Construction: next to an empty plain, 1 stone a city, 2 stone a temple.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = ship_table(game)
    state.seats[0].stone = 2
    events = accepted(state, act(2, 1, "build_city", 3, 1))
    assert events[0] == ev.CityBuilt(
        seat=0, builder="ship", origin=c(2, 1), cell=c(3, 1), wood=0, stone=1
    )
    assert isinstance(accepted(state, act(2, 1, "build_temple", 3, 1))[0], ev.TempleBuilt)
    assert refused(state, act(1, 1, "build_city", 1, 2)) == "BAD_TERRAIN"
    assert refused(state, act(1, 1, "build_city", 3, 0)) == "NOT_ADJACENT"
    if state.world.grid == "hex":  # (3, 0) is the sixth neighbour of (2, 1) on hexes
        assert isinstance(accepted(state, act(2, 1, "build_city", 3, 0))[0], ev.CityBuilt)
    else:
        assert refused(state, act(2, 1, "build_city", 3, 0)) == "NOT_ADJACENT"
    state.seats[0].stone = 1
    assert refused(state, act(2, 1, "build_temple", 3, 1)) == "NOT_ENOUGH_STONE"
    state.seats[0].stone = 0
    assert refused(state, act(2, 1, "build_city", 3, 1)) == "NOT_ENOUGH_STONE"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_ship_transforms(game: Any) -> None:
    """Navires / Transformation: a nomad on an empty plain or forest (free), a merchant on a
    plain or forest empty or holding a city alone (2 PO).
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = ship_table(game)
    put(state, 1, "city", 3, 1)
    settle(state, {0: "ship", 1: "ship"})
    state.seats[0].coins = 2
    events = accepted(state, act(1, 1, "become_nomad", 1, 2))
    assert events[0] == ev.ShipTransformed(
        seat=0, origin=c(1, 1), cell=c(1, 2), piece="nomad", coins=0
    )
    assert refused(state, act(2, 1, "become_nomad", 2, 2)) == "BAD_TERRAIN"
    assert refused(state, act(2, 1, "become_nomad", 3, 1)) == "OCCUPIED"
    events, after = run(state, 0, act(2, 1, "become_merchant", 3, 1))
    assert after.rider[c(3, 1)] == 0 and after.owner[c(3, 1)] == 1
    assert isinstance(accepted(state, act(1, 1, "become_merchant", 1, 2))[0], ev.ShipTransformed)
    state.seats[0].coins = 1
    assert refused(state, act(2, 1, "become_merchant", 3, 1)) == "NOT_ENOUGH_COINS"
    assert refused(state, act(1, 1, "become_merchant", 3, 0)) == "NOT_ADJACENT"
    after.seats[0].coins = 5
    put(after, 0, "city", 1, 2)
    put(after, 1, "merchant", 1, 2)
    assert refused(after, act(1, 1, "become_merchant", 1, 2)) == "OCCUPIED"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_ship_trade_four_coastal_cities(game: Any) -> None:
    """Navires / Commercer, example: a ship on a sea bordered by 4 coastal cities earns 12 PO.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    rows = [
        "pppp.",
        "~~~~p",
        "ppp~p",
        "...p.",
    ]
    state = table(rows, seats=3, game=game)
    put(state, 0, "ship", 0, 1)
    put(state, 0, "city", 0, 0)  # coastal
    put(state, 1, "city", 2, 0)  # coastal
    put(state, 2, "city", 4, 1)  # coastal, touches two cells of the sea
    put(state, 1, "city", 1, 2)  # coastal
    put(state, 2, "city", 3, 3)  # coastal too (below the sea cell 3,2)
    put(state, 0, "city", 4, 2)  # coastal
    settle(state, {0: "ship"})
    earned = of(accepted(state, act(0, 1, "trade")), ev.CoinsEarned)[0]
    assert earned.amount == 18  # six coastal cities
    state.owner[c(3, 3)] = state.kind[c(3, 3)] = -1
    state.owner[c(4, 2)] = state.kind[c(4, 2)] = -1
    assert of(accepted(state, act(0, 1, "trade")), ev.CoinsEarned)[0].amount == 12
    lonely = table(["~~", "pp"], game=game)
    put(lonely, 0, "ship", 0, 0)
    settle(lonely, {0: "ship"})
    assert refused(lonely, act(0, 0, "trade")) == "NOTHING_TO_GAIN"


# -- temples -------------------------------------------------------------------------------
TEMPLE_WORLD = [
    "~ppp",
    "ppppp",
    "..p..",
]


def temple_table(game: Any = GAME) -> RiseFallState:
    state = table(TEMPLE_WORLD, game=game)
    put(state, 0, "temple", 1, 1)
    put(state, 0, "temple", 3, 1)
    put(state, 1, "nomad", 1, 0)
    put(state, 1, "ship", 0, 0)
    put(state, 0, "nomad", 2, 1)
    put(state, 1, "city", 4, 1)
    put(state, 1, "merchant", 4, 1)
    state.seats[0].coins = 20
    return settle(state, {0: "temple"})


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_temple_converts(game: Any) -> None:
    """Temples / Conversion: an adjacent opponent unit, paid 2/3/5/5, replaced from the
    converter's reserve; one conversion per temple per turn.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = temple_table(game)
    events, after = run(state, 0, act(1, 1, "convert", 1, 0))
    assert events[0] == ev.PieceConverted(
        seat=0, temple=c(1, 1), victim=1, piece="nomad", cell=c(1, 0), coins=2
    )
    assert after.owner[c(1, 0)] == 0 and after.seats[0].coins == 18
    assert after.seats[1].pieces[NOMAD] == 0 and after.seats[0].pieces[NOMAD] == 2
    assert ev.CardToReserve(seat=1, card="nomad") in events
    assert refused(after, act(1, 1, "convert", 0, 1)) == "ALREADY_ACTIVATED"
    assert refused(state, act(1, 1, "convert", 2, 1)) == "NOTHING_TO_CONVERT"
    merchant = of(accepted(state, act(3, 1, "convert", 4, 1)), ev.PieceConverted)[0]
    assert (merchant.piece, merchant.coins) == ("merchant", 5)
    assert refused(state, act(3, 1, "convert", 2, 1)) == "NOTHING_TO_CONVERT"
    state.seats[0].coins = 1
    assert refused(state, act(1, 1, "convert", 1, 0)) == "NOT_ENOUGH_COINS"
    state.seats[0].coins = 20
    state.seats[0].pieces[NOMAD] = 8
    assert refused(state, act(1, 1, "convert", 1, 0)) == "NO_PIECE_IN_RESERVE"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_temple_converts_ship_and_mountaineer(game: Any) -> None:
    """Temples / Conversion: a ship costs 5 PO, a mountaineer 3 PO.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["~p", ".m"], game=game)
    put(state, 0, "temple", 1, 0)
    put(state, 1, "ship", 0, 0)
    put(state, 1, "mountaineer", 1, 1)
    settle(state, {0: "temple"})
    state.seats[0].coins = 10
    assert of(accepted(state, act(1, 0, "convert", 0, 0)), ev.PieceConverted)[0].coins == 5
    assert of(accepted(state, act(1, 0, "convert", 1, 1)), ev.PieceConverted)[0].coins == 3


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_temple_tithe(game: Any) -> None:
    """Temples / Dîme: 2 PO per adjacent own piece, temples excepted (a stack counts 2).
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = temple_table(game)
    earned = of(accepted(state, act(1, 1, "tithe")), ev.CoinsEarned)[0]
    assert earned.amount == 2  # own nomad; the opponent's nomad does not pay
    stack = table(["ppp"], game=game)
    put(stack, 0, "temple", 0, 0)
    put(stack, 0, "city", 1, 0)
    put(stack, 0, "merchant", 1, 0)
    settle(stack, {0: "temple"})
    assert of(accepted(stack, act(0, 0, "tithe")), ev.CoinsEarned)[0].amount == 4
    alone = table(["ppp"], game=game)
    put(alone, 0, "temple", 0, 0)
    put(alone, 0, "temple", 1, 0)
    settle(alone, {0: "temple"})
    assert refused(alone, act(0, 0, "tithe")) == "NOTHING_TO_GAIN"


# -- mountaineers --------------------------------------------------------------------------
MOUNTAIN_WORLD = [
    "pmgmf.",
    "p.m.p.",
    "pffff.",
]


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_mountaineer_moves(game: Any) -> None:
    """Montagnards / Mouvement: up to 3 cells, glaciers allowed, cliffs crossed, through own
    pieces only, ending on an empty cell.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(MOUNTAIN_WORLD, game=game)
    put(state, 0, "mountaineer", 0, 0)
    put(state, 0, "nomad", 1, 0)
    put(state, 1, "nomad", 0, 1)
    settle(state, {0: "mountaineer"})
    accepted(state, act(0, 0, "move", 2, 0))  # plain -> through own nomad -> glacier
    accepted(state, act(0, 0, "move", 3, 0))  # 3 cells
    assert refused(state, act(0, 0, "move", 4, 0)) == "TOO_FAR"
    assert refused(state, act(0, 0, "move", 1, 0)) == "OCCUPIED"
    assert refused(state, act(0, 0, "move", 0, 2)) == "BLOCKED"  # only through the enemy
    cliff = table(["pm"], game=game)
    put(cliff, 0, "mountaineer", 0, 0)
    settle(cliff, {0: "mountaineer"})
    accepted(cliff, act(0, 0, "move", 1, 0))


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_mountaineer_produces_and_builds(game: Any) -> None:
    """Montagnards / Production (forest wood, mountain or glacier stone) and Construction
    d'une ville (forest or mountain, 2 wood).
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(MOUNTAIN_WORLD, game=game)
    put(state, 0, "mountaineer", 2, 0)
    put(state, 0, "mountaineer", 1, 2)
    put(state, 0, "mountaineer", 0, 1)
    settle(state, {0: "mountaineer"})
    assert of(accepted(state, act(2, 0, "produce")), ev.ResourceProduced)[0].resource == "stone"
    assert of(accepted(state, act(1, 2, "produce")), ev.ResourceProduced)[0].resource == "wood"
    assert refused(state, act(0, 1, "produce")) == "BAD_TERRAIN"
    state.seats[0].wood = 2
    assert isinstance(accepted(state, act(1, 2, "build_city"))[0], ev.CityBuilt)
    assert refused(state, act(0, 1, "build_city")) == "BAD_TERRAIN"
    assert refused(state, act(2, 0, "build_city")) == "BAD_TERRAIN"  # glacier
    state.seats[0].wood = 1
    assert refused(state, act(1, 2, "build_city")) == "NOT_ENOUGH_WOOD"


# -- merchants -----------------------------------------------------------------------------
@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_merchant_moves(game: Any) -> None:
    """Marchands / Mouvement: up to 4 cells of plain, forest, mountain, through any piece,
    stopping on an empty cell or a city without merchant.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["pppppp", "~~~~~g"], game=game)
    put(state, 0, "merchant", 0, 0)
    put(state, 1, "nomad", 1, 0)
    put(state, 1, "city", 2, 0)
    put(state, 1, "city", 3, 0)
    put(state, 1, "merchant", 3, 0)
    settle(state, {0: "merchant"})
    _events, after = run(state, 0, act(0, 0, "move", 2, 0))
    assert after.rider[c(2, 0)] == 0 and after.owner[c(2, 0)] == 1
    accepted(state, act(0, 0, "move", 4, 0))
    assert refused(state, act(0, 0, "move", 5, 0)) == "TOO_FAR"
    assert refused(state, act(0, 0, "move", 3, 0)) == "OCCUPIED"
    assert refused(state, act(0, 0, "move", 1, 0)) == "OCCUPIED"
    assert refused(state, act(0, 0, "move", 5, 1)) == "BAD_TERRAIN"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_merchant_trade_four_cities(game: Any) -> None:
    """Marchands / Commercer, example: 4 cities, 5 PO per opponent city and 3 per own: 16 PO.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["ppp", "ppp", "ppp"], game=game)
    put(state, 0, "city", 1, 1)
    put(state, 0, "merchant", 1, 1)  # on its own city
    put(state, 1, "city", 1, 0)
    put(state, 1, "city", 2, 1)
    put(state, 0, "city", 1, 2)
    put(state, 0, "nomad", 0, 1)
    put(state, 1, "city", 0, 0)  # diagonal: not adjacent
    settle(state, {0: "merchant"})
    earned = of(accepted(state, act(1, 1, "trade")), ev.CoinsEarned)[0]
    assert earned.amount == 16
    lonely = table(["pp"], game=game)
    put(lonely, 0, "merchant", 0, 0)
    settle(lonely, {0: "merchant"})
    assert refused(lonely, act(0, 0, "trade")) == "NOTHING_TO_GAIN"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_merchant_bank_trade(game: Any) -> None:
    """Marchands / Commercer avec la banque: sell or buy one resource for 5 PO.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["pp"], game=game)
    put(state, 0, "merchant", 0, 0)
    settle(state, {0: "merchant"})
    assert refused(state, act(0, 0, "sell_wood")) == "NOT_ENOUGH_WOOD"
    assert refused(state, act(0, 0, "buy_stone")) == "NOT_ENOUGH_COINS"
    state.seats[0].wood = 1
    state.seats[0].coins = 5
    sold = of(accepted(state, act(0, 0, "sell_wood")), ev.ResourceSold)[0]
    assert sold.paid == 5
    events, after = run(state, 0, act(0, 0, "buy_stone"))
    assert events[0] == ev.ResourceBought(seat=0, cell=c(0, 0), resource="stone", coins=5)
    assert after.seats[0].stone == 1 and after.seats[0].coins == 0 and after.bank_stone == 19
    state.seats[0].stone = 5
    assert refused(state, act(0, 0, "buy_stone")) == "RESOURCE_CAP"
    state.bank_wood = 0
    assert refused(state, act(0, 0, "buy_wood")) == "BANK_EMPTY"
    state.bank_coins = 3
    assert of(accepted(state, act(0, 0, "sell_wood")), ev.ResourceSold)[0].paid == 3


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_merchant_builds_ship(game: Any) -> None:
    """Marchands / Construction d'un navire: on a plain next to an empty sea cell, 1 wood.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["~p", "~f"], game=game)
    put(state, 0, "city", 1, 0)
    put(state, 0, "merchant", 1, 0)
    put(state, 0, "merchant", 1, 1)
    settle(state, {0: "merchant"})
    state.seats[0].wood = 1
    events, after = run(state, 0, act(1, 0, "build_ship", 0, 0))
    assert events[0] == ev.ShipBuilt(
        seat=0, builder="merchant", origin=c(1, 0), cell=c(0, 0), wood=1
    )
    assert after.rider[c(1, 0)] == -1 and after.owner[c(1, 0)] == 0
    assert refused(state, act(1, 1, "build_ship", 0, 1)) == "BAD_TERRAIN"


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_cliffs_only_block_what_the_rules_say(game: Any) -> None:
    """Falaise: a nomad and a city's growth cannot cross a cliff; mountaineers and merchants
    can.
    Run on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""
    state = table(["pm"], game=game)
    put(state, 0, "merchant", 0, 0)
    settle(state, {0: "merchant"})
    accepted(state, act(0, 0, "move", 1, 0))
    nomad = table(["pm"], game=game)
    put(nomad, 0, "nomad", 0, 0)
    settle(nomad, {0: "nomad"})
    assert refused(nomad, act(0, 0, "move", 1, 0)) == "CLIFF"

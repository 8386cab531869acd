"""Card states ("Changement d'état"), trophies ("Obtenir un Trophée") and the unlucky case,
the rulebook's examples on squares (``riseandfall/1``) and hexes (``riseandfall/2``)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.riseandfall import events as ev
from domain.riseandfall.commands import Activate, EndActions
from domain.riseandfall.content import SHIP, TEMPLE
from domain.riseandfall.world import cell_of as c
from tests.riseandfall.helpers import GAME, HEX_GAME, kinds, of, put, run, settle, table

ERIC, CATHY, JOANNA = 0, 1, 2
#: every example runs on squares (``riseandfall/1``) and hexes (``riseandfall/2``).
RULESETS = [GAME, HEX_GAME]


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_eric_last_ship_builds_a_city(game: Any) -> None:
    """Changement d'état, example: Eric's only ship builds a city; his ship card goes to the
    reserve."""
    state = table(["~p"], game=game)
    put(state, ERIC, "ship", 0, 0)
    settle(state, {ERIC: "ship"})
    state.seats[ERIC].stone = 1
    events, after = run(state, ERIC, Activate(cell=c(0, 0), action="build_city", target=c(1, 0)))
    assert sorted(kinds(events)) == ["CardToHand", "CardToReserve", "CityBuilt"]
    assert ev.CardToReserve(seat=ERIC, card="ship") in events
    assert ev.CardToHand(seat=ERIC, card="city") in events
    assert SHIP in after.seats[ERIC].reserve and SHIP not in after.seats[ERIC].discard


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_cathy_first_temple_and_eric_ship_again(game: Any) -> None:
    """Changement d'état, examples: Cathy's first temple brings the temple card to her hand;
    Eric, who abandoned navigation, builds a ship again and takes his ship card back."""
    state = table(["~pm"], seats=2, game=game)
    put(state, CATHY, "nomad", 2, 0)
    settle(state, {CATHY: "nomad"})
    state.actor = CATHY
    state.seats[CATHY].stone = 2
    events, after = run(state, CATHY, Activate(cell=c(2, 0), action="build_temple"))
    assert ev.CardToHand(seat=CATHY, card="temple") in events
    assert TEMPLE in after.seats[CATHY].hand
    eric = table(["~p"], game=game)
    put(eric, ERIC, "nomad", 1, 0)
    settle(eric, {ERIC: "nomad"})
    eric.seats[ERIC].wood = 1
    assert SHIP in eric.seats[ERIC].reserve
    events, after = run(eric, ERIC, Activate(cell=c(1, 0), action="build_ship", target=c(0, 0)))
    assert ev.CardToHand(seat=ERIC, card="ship") in events
    assert ev.CardToReserve(seat=ERIC, card="nomad") in events
    assert SHIP in after.seats[ERIC].hand


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_declined_cards_never_move(game: Any) -> None:
    """C - Déclin, examples: Cathy's ship card in decline stays there when Joanna converts her
    last ship; Joanna's temple card in decline is not taken back when she builds a temple."""
    state = table(["~pp", "..m"], seats=3, game=game)
    put(state, JOANNA, "temple", 1, 0)
    put(state, CATHY, "ship", 0, 0)
    put(state, JOANNA, "nomad", 2, 1)
    state.seats[CATHY].declined = [SHIP]
    state.seats[JOANNA].declined = [TEMPLE]
    settle(state, {JOANNA: "nomad", CATHY: "city"})
    state.actor = JOANNA
    state.seats[JOANNA].stone = 2
    events, after = run(state, JOANNA, Activate(cell=c(2, 1), action="build_temple"))
    assert of(events, ev.CardToHand) == [] and after.seats[JOANNA].declined == [TEMPLE]
    assert after.seats[JOANNA].pieces[TEMPLE] == 2
    # Joanna's temple (in play through another card) converts Cathy's last ship.
    convert = table(["~pp"], seats=3, game=game)
    put(convert, JOANNA, "temple", 1, 0)
    put(convert, CATHY, "ship", 0, 0)
    convert.seats[CATHY].declined = [SHIP]
    settle(convert, {JOANNA: "temple"})
    convert.actor = JOANNA
    convert.seats[JOANNA].coins = 5
    events, after = run(convert, JOANNA, Activate(cell=c(1, 0), action="convert", target=c(0, 0)))
    assert of(events, ev.CardToReserve) == []
    assert after.seats[CATHY].declined == [SHIP] and SHIP not in after.seats[CATHY].reserve
    assert ev.CardToHand(seat=JOANNA, card="ship") in events


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_trophy_first_to_place_last_piece(game: Any) -> None:
    """Obtenir un Trophée: the first to place its last piece of a type takes that trophy at
    once; it is never lost and nobody else can take it."""
    state = table(["pppp", "pppp"], game=game)
    put(state, 0, "temple", 0, 0)
    put(state, 0, "temple", 1, 0)
    put(state, 0, "nomad", 2, 0)
    put(state, 1, "temple", 0, 1)
    put(state, 1, "temple", 1, 1)
    put(state, 1, "nomad", 2, 1)
    settle(state, {0: "nomad", 1: "nomad"})
    state.seats[0].stone = state.seats[1].stone = 2
    events, after = run(state, 0, Activate(cell=c(2, 0), action="build_temple"))
    assert ev.TrophyWon(seat=0, piece="temple") in events
    assert after.trophy_owner[TEMPLE] == 0 and after.trophies_this_round == 1
    events, after = run(after, 0, EndActions())
    assert after.actor == 1
    events, after = run(after, 1, Activate(cell=c(2, 1), action="build_temple"))
    assert of(events, ev.TrophyWon) == [] and after.trophies_taken == 1


@pytest.mark.parametrize("game", RULESETS, ids=["square", "hex"])
def test_unlucky_case(game: Any) -> None:
    """Cas malheureux: a seat whose last piece of its played type was converted earlier in
    the round puts the card in its reserve and its turn passes."""
    state = table(["~pp"], seats=2, game=game)
    put(state, 0, "temple", 1, 0)
    put(state, 1, "ship", 0, 0)
    put(state, 1, "nomad", 2, 0)
    settle(state, {0: "temple", 1: "ship"})
    state.seats[0].coins = 5
    events, after = run(state, 0, Activate(cell=c(1, 0), action="convert", target=c(0, 0)))
    assert ev.CardToReserve(seat=1, card="ship") in events
    events, after = run(after, 0, EndActions())
    assert ev.TurnForfeited(seat=1, card="ship") in events
    assert SHIP in after.seats[1].reserve
    assert after.phase == "choose" and after.round == 2

"""Aliens (Extraterrestres, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#31``: « Start with 4 space tiles.
Income turns 2-5: discard any space tile on the mat, then either explore one from supply onto
the mat (costs 1 any resource if you just discarded) or gain 1 any resource. »);
"RÉÉQUILIBRAGE DES CIVILISATIONS" (« EXTRATERRESTRES [...] Pas de changement »); "Exploration de
l'espace" (a space tile's benefit when explored); ``decisions.json#aliens_mat``.
"""

from __future__ import annotations

import pytest

from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, ChooseResource
from domain.tapestry.expansions import civ_aliens as al
from tests.tapestry.box_pp_helpers import BOX, bot_game, income, seated, seeded_games_refold
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_cards_support import answer, options, run_frames

KEY = "aliens"
#: base space tiles: 13 gives 13 VP; 5 a coin, a worker and 8 VP.
THIRTEEN_VP, COIN_WORKER_8 = 13, 5


def test_record_setup_four_space_tiles_and_no_rebalancing() -> None:
    """Facts folder ``civilizations.json#31``: four space tiles to begin; "RÉÉQUILIBRAGE":
    « Pas de changement »."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Extraterrestres" and record.implemented
    assert record.setup == C.Gain(token="gain_space_tile", count=4)
    assert KEY not in civs.ADJUSTMENTS and record.adjustment_gain is None
    state = seated(KEY)
    events = run_frames(state, *setup_frames(state, 0))
    drawn = of(events, ev.SpaceTilesDrawn)
    assert len(drawn) == 1 and len(drawn[0].tiles) == 4
    assert sorted(state.seats[0].space) == sorted(drawn[0].tiles)


def test_dealt_and_gained_only_with_the_box() -> None:
    """ "PREMIÈRE MISE EN PLACE": in the deal and the mid-game pool only with its box."""
    assert civ_id(KEY) not in civs.implemented_ids()
    assert civ_id(KEY) in civs.implemented_ids((BOX,))
    assert KEY not in civs.gainable() and KEY in civs.gainable((BOX,))


def test_income_turn_one_gives_nothing() -> None:
    """Facts folder: the ability works on income turns 2-5 only."""
    state = seated(KEY)
    state.seats[0].space = [THIRTEEN_VP]
    income(state, KEY, era=1)
    assert decision(state) == "turn"


def test_explore_a_space_tile_onto_the_empty_mat() -> None:
    """« explore one from supply onto the mat »: the tile's benefit (13 VP), the tile lies on
    the mat; a resource of choice is the other option."""
    state = seated(KEY)
    state.seats[0].space = [COIN_WORKER_8, THIRTEEN_VP]
    income(state, KEY)
    assert options(state) == [
        Choose(index=COIN_WORKER_8),
        Choose(index=THIRTEEN_VP),
        Choose(index=al.RESOURCE),
    ]
    events = answer(state, Choose(index=THIRTEEN_VP))
    assert ev.SpaceTileExplored(seat=0, tile=THIRTEEN_VP) in events
    assert [e.vp for e in of(events, ev.VPScored)] == [13]
    assert al.on_mat(state, 0) == THIRTEEN_VP and state.seats[0].space == [COIN_WORKER_8]


def test_discarding_the_mat_tile_makes_the_next_explore_cost_a_resource() -> None:
    """« discard any space tile on the mat, then [...] explore one from supply onto the mat
    (costs 1 any resource if you just discarded) »."""
    state = seated(KEY)
    state.seats[0].space = [COIN_WORKER_8]
    state.seats[0].civ_tokens[KEY] = [THIRTEEN_VP]
    state.seats[0].resources = [0, 0, 1, 1]
    income(state, KEY)
    assert options(state) == [
        Choose(index=al.DISCARD + COIN_WORKER_8),
        Choose(index=al.RESOURCE),
        Choose(index=al.DISCARD + al.RESOURCE),
    ]
    answer(state, Choose(index=al.DISCARD + COIN_WORKER_8))
    assert decision(state) == "resource"
    assert options(state) == [ChooseResource(resource="food"), ChooseResource(resource="culture")]
    events = answer(state, ChooseResource(resource="food"))
    assert [e.vp for e in of(events, ev.VPScored)] == [8]
    assert state.seats[0].resources == [1, 1, 0, 1]
    assert al.on_mat(state, 0) == COIN_WORKER_8


def test_without_a_resource_the_mat_tile_stays_or_goes_for_a_resource() -> None:
    """An explore after a discard costs a resource: with none, only the resource options."""
    state = seated(KEY)
    state.seats[0].space = [COIN_WORKER_8]
    state.seats[0].civ_tokens[KEY] = [THIRTEEN_VP]
    income(state, KEY)
    assert options(state) == [Choose(index=al.RESOURCE), Choose(index=al.DISCARD + al.RESOURCE)]
    answer(state, Choose(index=al.DISCARD + al.RESOURCE))
    answer(state, ChooseResource(resource="coin"))
    assert al.on_mat(state, 0) == 0 and state.seats[0].resources == [1, 0, 0, 0]


def test_seeded_games_at_every_player_count_refold() -> None:
    """ "Fin de la partie": seeded games at 2-5 seats with the Aliens finish; fold == state."""
    finals = seeded_games_refold(KEY)
    assert any(s.seats[0].space_explored for s in finals)


@pytest.mark.parametrize("bot", ["tapestry"])
def test_the_bots_play_the_aliens(bot: str) -> None:
    """The bots answer the ``aliens`` decision (a 3-seat game to its end)."""
    state, log = bot_game(KEY, bot)
    assert state.final_scores is not None
    assert any(isinstance(e, ev.CivTokensSet) and e.key == KEY for e in log)

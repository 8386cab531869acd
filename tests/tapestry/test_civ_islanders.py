"""Islanders (Insulaires, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#33``: « Start with 4 territory tiles.
Income turns 2-5: you may explore one hex of the mat's 7-hex island (normal VP and benefit);
normal explores may target it too. Final income: 4 VP per mat tile with all-water outer
edges. », mid-game « May discard and draw another; if kept, place up to 4 territory tiles on
the island without benefits. ») and its mat (``map.json#islanders_mat``); "RÉÉQUILIBRAGE DES
CIVILISATIONS" (« INSULAIRES [...] Pas de changement »); "Exploration" (1 VP per side lined up,
then the tile's benefit); ``decisions.json#islanders_*``.
"""

from __future__ import annotations

import pytest

from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.expansions import civ_islanders as isl
from domain.tapestry.rules import territory_deck
from domain.tapestry.state import Frame
from tests.tapestry.box_pp_helpers import (
    BOX,
    bot_game,
    gain_mid_game,
    income,
    seated,
    seeded_games_refold,
)
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_cards_support import answer, options, run_frames

KEY = "islanders"
#: tile 2: corners sea, mountain, mountain, desert, desert, sea; benefit: 2 territory tiles.
TILE = 2
#: mat hex 1 is (0, -1): its side toward the centre is edge 2, facing the centre's edge 5
#: (samples mountain, mountain); its outer edge is edge 4 (corners 4 and 5).
HEX1 = 1


def code(hex_: int, tile: int, rotation: int) -> Choose:
    """The command putting ``tile`` turned ``rotation`` on mat hex ``hex_``."""
    return Choose(index=hex_ * isl.HEX + tile * isl.TILE + rotation)


def test_record_four_tiles_no_rebalancing_and_the_mat() -> None:
    """Facts folder: four territory tiles to begin, a 7-hex island on the mat (centre printed
    with 12 samples); "RÉÉQUILIBRAGE": « Pas de changement »."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Insulaires" and record.implemented
    assert record.setup == C.Gain(token="gain_territory_tile", count=4)
    assert KEY not in civs.ADJUSTMENTS
    assert len(isl.ISLAND.centre) == 12 and len(isl.ISLAND.hexes) == 6
    assert isl.ISLAND.provenance_error() == ""
    state = seated(KEY)
    run_frames(state, *setup_frames(state, 0))
    assert len(state.seats[0].territory) == 4
    assert civ_id(KEY) in civs.implemented_ids((BOX,)) and KEY in civs.gainable((BOX,))


def test_exploring_a_mat_hex_scores_the_side_lined_up_with_the_centre() -> None:
    """« explore one hex of the mat's 7-hex island (normal VP and benefit) »: tile 2 unturned
    lays mountain against the centre's mountain (1 VP), then its benefit (2 tiles); the tile
    leaves the supply and the stack."""
    state = seated(KEY)
    state.seats[0].territory = [TILE]
    income(state, KEY)
    assert decision(state) == KEY and options(state)[-1] == Decline()
    assert code(HEX1, TILE, 0) in options(state)
    events = answer(state, code(HEX1, TILE, 0))
    assert ev.IslandTileExplored(seat=0, hex=HEX1, tile=TILE, rotation=0) in events
    assert [(e.vp, e.reason) for e in of(events, ev.VPScored)] == [(1, "exploration")]
    assert len(of(events, ev.TerritoryTilesDrawn)[0].tiles) == 2
    assert isl.placed(state, 0)[0] == (TILE, 0)
    assert TILE not in state.seats[0].territory and TILE not in territory_deck(state)


def test_a_side_with_nothing_lined_up_scores_nothing() -> None:
    """ "Exploration": turned 3 sixths, tile 2 shows sea against the centre's mountains."""
    state = seated(KEY)
    assert isl.mat_vp(state, 0, HEX1, TILE, 3) == 0
    assert isl.mat_vp(state, 0, HEX1, TILE, 0) == 1


def test_ordinary_explorations_may_target_the_mat() -> None:
    """« normal explores may target it too »; another civilization's explore may not."""
    state = seated(KEY)
    state.seats[0].territory = [TILE]
    run_frames(state, Frame(kind="explore", seat=0, ints=(0,)))
    assert code(HEX1, TILE, 0) in options(state)
    answer(state, code(HEX1, TILE, 0))
    assert isl.placed(state, 0)[0] == (TILE, 0)
    other = seated("heralds")
    other.seats[0].territory = [TILE]
    run_frames(other, Frame(kind="explore", seat=0, ints=(0,)))
    assert not any(isinstance(c, Choose) for c in options(other))


def test_final_income_scores_tiles_with_sea_on_the_outer_edge() -> None:
    """« Final income: 4 VP per mat tile with all-water outer edges » (income turn 5)."""
    state = seated(KEY)
    values = [0] * 12
    values[0:2] = [TILE, 5]  # hex 1: corners 4 and 5 show sea
    values[2:4] = [TILE, 0]  # hex 2 (outer edge 1: mountain, mountain)
    state.seats[0].civ_tokens[KEY] = values
    assert isl.sea_tiles(state, 0) == 1
    events = income(state, KEY, era=4)
    assert not of(events, ev.VPScored)
    events = income(state, KEY, era=5)
    assert [(e.vp, e.reason) for e in of(events, ev.VPScored)] == [(4, f"civ:{KEY}")]


def test_gained_and_kept_places_up_to_four_tiles_without_benefits() -> None:
    """Mid-game: « if kept, place up to 4 territory tiles on the island without benefits »."""
    state = seated("heralds")
    state.seats[0].territory = [TILE, 5]
    gain_mid_game(state, KEY)
    assert decision(state) == isl.GAINED
    answer(state, Choose(index=0))
    assert decision(state) == isl.PLACE
    events = answer(state, code(HEX1, TILE, 0))
    assert not of(events, ev.VPScored) and not of(events, ev.TerritoryTilesDrawn)
    answer(state, Decline())
    assert isl.placed(state, 0)[0] == (TILE, 0) and state.seats[0].territory == [5]


def test_gained_may_be_given_back_for_another() -> None:
    """Mid-game: « May discard and draw another »."""
    state = seated("heralds")
    gain_mid_game(state, KEY)
    events = answer(state, Choose(index=1))
    assert ev.CivilizationReturned(seat=0, civilization=civ_id(KEY)) in events
    gained = of(events, ev.CivilizationGained)
    assert len(gained) == 1 and gained[0].civilization != civ_id(KEY)
    assert civ_id(KEY) not in state.seats[0].civs and civ_id(KEY) in state.civs_out


def test_seeded_games_at_every_player_count_refold() -> None:
    """ "Fin de la partie": seeded games at 2-5 seats with the Islanders finish; fold == state."""
    finals = seeded_games_refold(KEY)
    assert any(any(t for t, _ in isl.placed(s, 0)) for s in finals)


@pytest.mark.parametrize("bot", ["tapestry"])
def test_the_bots_play_the_islanders(bot: str) -> None:
    """The bot explores the mat (a 3-seat game to its end)."""
    state, log = bot_game(KEY, bot)
    assert state.final_scores is not None
    assert any(isinstance(e, ev.IslandTileExplored) and e.seat == 0 for e in log)

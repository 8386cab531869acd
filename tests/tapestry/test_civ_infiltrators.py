"""Infiltrators (Infiltrés, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#32``: « Start with 1 culture. Income
turns 2-5, either: add an outpost beside a lone opponent outpost (shared control,
unconquerable) and take its benefit; or token an opponent's capital hex for 1 VP per outpost
they have not placed. », notes « Third token on the same opponent capital grants another
civilization. Whenever you would gain a civilization: draw 3, keep 1. The shared territory is
ignored for the middle-island achievement. »); "RÉÉQUILIBRAGE DES CIVILISATIONS" (« INFILTRÉS
Ne gagnez pas [icon] si vous commencez la partie avec les Infiltrés. »); "Conquête" (a
territory holding two pieces may not be conquered); ``decisions.json#infiltrators_*``.
"""

from __future__ import annotations

import pytest

from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose
from domain.tapestry.expansions import civ_infiltrators as inf
from domain.tapestry.rules import conquer_targets, controlled
from domain.tapestry.state import Frame, Outpost
from tests.tapestry.box_pp_helpers import BOX, bot_game, income, seated, seeded_games_refold
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_cards_support import answer, options, run_frames

KEY = "infiltrators"
#: small board: seat 0's home is hex 18; 12 is a printed territory beside it.
HOME0, PRINTED = 18, 12
#: a territory tile whose benefit is a coin.
COIN_TILE = 1


def test_rebalancing_drops_the_starting_culture() -> None:
    """ "RÉÉQUILIBRAGE": « Ne gagnez pas [la culture] si vous commencez la partie avec les
    Infiltrés »; gained later, a civilization takes no setup: the record has none."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Infiltrés" and record.implemented
    assert record.setup is None
    assert setup_frames(seated(KEY), 0) == []
    assert civ_id(KEY) in civs.implemented_ids((BOX,)) and KEY in civs.gainable((BOX,))


def test_an_outpost_beside_a_lone_opposing_outpost_shares_control() -> None:
    """« add an outpost beside a lone opponent outpost (shared control, unconquerable) and take
    its benefit »: both seats control the territory, a third seat may not conquer it, and the
    tile's benefit is gained."""
    state = seated(KEY, seats=3)
    state.hexes[PRINTED].tile = COIN_TILE
    state.hexes[PRINTED].outposts = [Outpost(seat=1)]
    supply = state.seats[0].outposts
    income(state, KEY)
    assert Choose(index=PRINTED) in options(state)
    events = answer(state, Choose(index=PRINTED))
    assert ev.PiecePlaced(seat=0, hex=PRINTED, piece=KEY) in events
    assert state.seats[0].outposts == supply - 1
    assert state.seats[0].resources[0] == 1  # the tile's coin
    assert PRINTED in controlled(state, 0) and PRINTED in controlled(state, 1)
    assert state.hexes[PRINTED].controller() == 1  # the middle-island achievement: unchanged
    assert PRINTED not in conquer_targets(state, 2, True)


def test_no_outpost_where_two_pieces_or_a_toppled_outpost_stand() -> None:
    """« a lone opponent outpost »: a territory with two pieces, a toppled outpost or one of
    the seat's own outposts is no target."""
    state = seated(KEY, seats=3)
    state.hexes[PRINTED].outposts = [Outpost(seat=1, toppled=True)]
    home1 = state.seats[1].home
    income(state, KEY)
    found = options(state)
    assert Choose(index=PRINTED) not in found and Choose(index=home1) not in found
    assert Choose(index=HOME0) not in found


def test_a_mark_on_a_capital_scores_its_outposts_in_supply() -> None:
    """« token an opponent's capital hex for 1 VP per outpost they have not placed »."""
    state = seated(KEY)
    state.seats[1].outposts = 6
    assert inf._options(state, Frame(kind=KEY, seat=0)) == [Choose(index=inf.CAPITAL + 1)]
    events = income(state, KEY)  # the only option is taken
    assert [e.vp for e in of(events, ev.VPScored)] == [6]
    assert inf.marks(state, 0) == [0, 1]


def test_the_third_mark_gains_a_civilization_drawn_three_keep_one() -> None:
    """Notes: « Third token on the same opponent capital grants another civilization. Whenever
    you would gain a civilization: draw 3, keep 1. »"""
    state = seated(KEY)
    state.seats[0].civ_tokens[KEY] = [0, 2]
    events = income(state, KEY)  # the only option (a mark on seat 1's capital) is taken
    offered = of(events, ev.CivilizationsOffered)
    assert len(offered) == 1 and len(offered[0].civilizations) == 3
    assert decision(state) == "keep_civilization"
    kept = offered[0].civilizations[1]
    events = answer(state, Choose(index=kept))
    assert ev.CivilizationGained(seat=0, civilization=kept) in events


def test_other_civilizations_still_draw_one() -> None:
    """Only an Infiltrator draws three (without the draw-two variant, one civilization)."""
    state = seated("heralds")
    events = run_frames(
        state,
        Frame(
            kind="expr", seat=0, expr='{"kind":"gain","token":"gain_random_civilization","count":1}'
        ),
    )
    assert len(of(events, ev.CivilizationGained)) == 1 and not of(events, ev.CivilizationsOffered)


def test_seeded_games_at_every_player_count_refold() -> None:
    """ "Fin de la partie": seeded games at 2-5 seats with the Infiltrators finish; fold ==
    state."""
    finals = seeded_games_refold(KEY)
    assert any(inf.marks(s, 0) != [0] * s.n for s in finals)


@pytest.mark.parametrize("bot", ["tapestry"])
def test_the_bots_play_the_infiltrators(bot: str) -> None:
    """The bot answers the ``infiltrators`` decision (a 3-seat game to its end)."""
    state, log = bot_game(KEY, bot)
    assert state.final_scores is not None
    placed = [e for e in log if isinstance(e, ev.PiecePlaced) and e.piece == KEY]
    marked = [e for e in log if isinstance(e, ev.CivTokensSet) and e.key == KEY]
    assert placed or marked

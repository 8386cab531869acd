"""Advisors (Conseillers, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#30``: « Start with 3 tapestry cards.
Income turns 2-5: 1 VP per card in hand, then discard down to 4 (discarding earns 1 any
resource). When a neighbour would draw a tapestry on advance turns, you may give one, then
draw. », mid-game « You may give any of the 3 starting cards to neighbours for 5 VP each. »);
"RÉÉQUILIBRAGE DES CIVILISATIONS" (« CONSEILLERS [...] Pas de changement »); the player aid
(« retirer aussi les fiches Conseillers et Espions » in solo); ``decisions.json#advisors_*``.
"""

from __future__ import annotations

import pytest

from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, ChooseResource, Decline
from domain.tapestry.engine import expr_frame
from domain.tapestry.expansions import civ_advisors as adv
from domain.tapestry.game import TapestryGame2
from domain.tapestry.rules import gain
from domain.tapestry.state import OVER, Frame, TapestryState
from tests.tapestry.box_pp_helpers import (
    BOX,
    bot_game,
    gain_mid_game,
    income,
    seated,
    seeded_games_refold,
)
from tests.tapestry.helpers import decision, of
from tests.tapestry.test_cards_support import answer, options, pending_seat, run_frames

KEY = "advisors"
GAME2 = TapestryGame2()


def neighbour_draws(state: TapestryState, seat: int, source: str) -> list[ev.Event]:
    """``seat`` gains a tapestry card from ``source`` (e.g. a track space) on its turn."""
    state.current = seat
    return run_frames(state, expr_frame(seat, gain("gain_tapestry_card"), source))


def test_record_three_cards_no_rebalancing_no_solo() -> None:
    """Facts folder: three tapestry cards to begin; "RÉÉQUILIBRAGE": « Pas de changement »;
    the player aid removes the Advisors from solo games."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Conseillers" and record.implemented
    assert record.setup == C.Gain(token="gain_tapestry_card", count=3) and not record.solo
    assert KEY not in civs.ADJUSTMENTS
    state = seated(KEY)
    run_frames(state, *setup_frames(state, 0))
    assert len(state.seats[0].hand) == 3
    assert civ_id(KEY) in civs.implemented_ids((BOX,)) and KEY in civs.gainable((BOX,))


def test_income_scores_the_hand_then_discards_down_to_four_for_resources() -> None:
    """« Income turns 2-5: 1 VP per card in hand, then discard down to 4 (discarding earns 1
    any resource) »."""
    state = seated(KEY)
    state.seats[0].hand = [1, 2, 3, 4, 5, 6]
    events = income(state, KEY)
    assert [e.vp for e in of(events, ev.VPScored)] == [6]
    assert decision(state) == adv.DISCARD
    assert options(state) == [Choose(index=c) for c in (1, 2, 3, 4, 5, 6)]
    events = answer(state, Choose(index=5))
    assert ev.TapestryDiscarded(seat=0, cards=(5,)) in events
    answer(state, ChooseResource(resource="coin"))
    answer(state, Choose(index=2))
    answer(state, ChooseResource(resource="food"))
    assert sorted(state.seats[0].hand) == [1, 3, 4, 6]
    assert state.seats[0].resources == [1, 0, 1, 0] and decision(state) == "turn"


def test_income_turn_one_gives_nothing() -> None:
    """The ability works on income turns 2-5 only."""
    state = seated(KEY)
    state.seats[0].hand = [1, 2, 3, 4, 5]
    events = income(state, KEY, era=1)
    assert not of(events, ev.VPScored) and decision(state) == "turn"


def test_a_neighbour_drawing_on_an_advance_turn_may_be_given_a_card() -> None:
    """« When a neighbour would draw a tapestry on advance turns, you may give one, then
    draw »: the neighbour gets the Advisor's card, the Advisor draws one."""
    state = seated(KEY, seats=3)
    state.seats[0].hand = [7]
    neighbour_draws(state, 1, "track:exploration:2")
    assert decision(state) == adv.GIVE and pending_seat(state) == 0
    assert options(state) == [Choose(index=7), Decline()]
    events = answer(state, Choose(index=7))
    assert ev.TapestryGiven(seat=0, to=1, card=7) in events
    assert state.seats[1].hand == [7] and len(state.seats[0].hand) == 1
    assert [e.seat for e in of(events, ev.TapestryDrawn)] == [0]


def test_declining_lets_the_neighbour_draw() -> None:
    """The gift is optional: declined, the neighbour draws as usual."""
    state = seated(KEY, seats=3)
    state.seats[0].hand = [7]
    neighbour_draws(state, 2, "track:science:1")
    events = answer(state, Decline())
    assert [e.seat for e in of(events, ev.TapestryDrawn)] == [2]
    assert state.seats[0].hand == [7] and len(state.seats[2].hand) == 1


def test_no_gift_outside_a_track_benefit_nor_without_a_card() -> None:
    """« on advance turns »: a draw from elsewhere (here a tile), or with an empty hand, is
    drawn at once."""
    state = seated(KEY, seats=3)
    state.seats[0].hand = [7]
    events = neighbour_draws(state, 1, "tile:3")
    assert [e.seat for e in of(events, ev.TapestryDrawn)] == [1]
    state.seats[0].hand = []
    events = neighbour_draws(state, 1, "track:exploration:2")
    assert [e.seat for e in of(events, ev.TapestryDrawn)] == [1]


def test_the_given_card_is_hidden_from_the_other_seats() -> None:
    """Hands are private ("Fresque"): only the two seats see the card handed over, everyone
    once the game is over."""
    state = seated(KEY, seats=3)
    given = ev.TapestryGiven(seat=0, to=1, card=7)
    assert GAME2.redact_event(state, given, 0) == given
    assert GAME2.redact_event(state, given, 1) == given
    assert GAME2.redact_event(state, given, 2) == ev.TapestryGiven(seat=0, to=1, card=0)
    assert GAME2.redact_event(state, given, None).card == 0
    state.phase = OVER
    assert GAME2.redact_event(state, given, 2) == given


def test_gained_mid_game_three_cards_and_gifts_for_five_points() -> None:
    """Mid-game: « You may give any of the 3 starting cards to neighbours for 5 VP each »
    (``decisions.json#advisors_gained``)."""
    state = seated("heralds", seats=3)
    events = gain_mid_game(state, KEY)
    drawn = of(events, ev.TapestryDrawn)
    assert len(drawn) == 1 and drawn[0].count == 3
    assert decision(state) == adv.GIFT
    card = sorted(state.seats[0].hand)[0]
    assert Choose(index=card * adv.SEAT + 2) in options(state)
    events = answer(state, Choose(index=card * adv.SEAT + 2))
    assert ev.TapestryGiven(seat=0, to=2, card=card) in events
    assert [e.vp for e in of(events, ev.VPScored)] == [adv.GIFT_VP]
    answer(state, Decline())
    assert len(state.seats[0].hand) == 2 and decision(state) == "turn"


def test_seeded_games_at_every_player_count_refold() -> None:
    """ "Fin de la partie": seeded games at 2-5 seats with the Advisors finish; fold == state."""
    finals = seeded_games_refold(KEY)
    assert all(s.final_scores is not None for s in finals)


@pytest.mark.parametrize("bot", ["tapestry"])
def test_the_bots_play_the_advisors(bot: str) -> None:
    """The bot answers the Advisors' decisions (a 3-seat game to its end)."""
    state, log = bot_game(KEY, bot)
    assert state.final_scores is not None
    assert any(isinstance(e, ev.VPScored) and e.reason == f"civ:{KEY}" for e in log)


def test_frames_name_no_card() -> None:
    """Frames are public (the view's ``frame``): the Advisors' frames carry no card id."""
    state = seated(KEY, seats=3)
    state.seats[0].hand = [7]
    neighbour_draws(state, 1, "track:exploration:2")
    top: Frame = state.agenda[-1]
    assert top.kind == adv.GIVE and top.ints == (1, 1)

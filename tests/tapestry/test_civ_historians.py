"""Historians (Historiens): tokens given to opponents pay out when they gain landmarks.

Sources: player aid "CIVILISATIONS / Historiens" (4 tokens; income turns 2-5: discard a
territory tile to give a token to an opponent; an opponent holding a token who gains a
landmark pays you the uncovered benefits; gained mid-game: give the 4 tokens at once), facts
folder ``civilizations.json#7`` (the mat's benefits), "Fin de la partie" (after its fifth
income turn a seat still scores passive civilization points, nothing else), "RÉÉQUILIBRAGE
DES CIVILISATIONS" (the HISTORIENS entry read as the Heralds', no change: content assumption,
RULEBOOK_CROSSCHECK C6), "Tours de revenus" (civilization abilities on income turns 2-5).
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry import civ_historians as hist
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline, PayBonus, TakeIncome
from domain.tapestry.state import TRACK_IDS, TapestryState
from domain.tapestry.tracks import FULL, advance_frame
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import answer, benefit, options, run_frames, vp_of
from tests.tapestry.test_civ_architects import play_with, start_with

KEY = "historians"
REASON = "civ:historians"


def historian(seats: int = 3, tokens: tuple[int, ...] = (-1, -1, -1, -1)) -> TapestryState:
    """Seat 0 holds the Historians, its tokens held as given (-1: on the mat)."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].civ_tokens[KEY] = list(tokens)
    return state


def landmark_for(state: TapestryState, seat: int, name: str = "academy") -> list[Event]:
    """``seat`` gains a landmark (the token of the track/tech landmark ``name``)."""
    return run_frames_for(state, seat, f"gain_landmark_{name}")


def run_frames_for(state: TapestryState, seat: int, token: str) -> list[Event]:
    """Resolve ``token`` for ``seat`` and answer the placements it asks for."""
    events = benefit(state, seat, token)
    while decision(state) not in ("turn", "over"):
        events += answer(state, options(state)[0])
    return events


def income_turn_2(state: TapestryState) -> list[Event]:
    """Seat 0 starts its second income turn (the Historians' ability comes first)."""
    state.seats[0].hand = [42]
    return act(state, 0, TakeIncome())


# -- income turns ---------------------------------------------------------------------------
def test_income_turn_discards_a_tile_to_give_a_token() -> None:
    """Aid "Historiens": income turns 2-5: discard a territory tile of your supply to give a
    token of your mat to an opponent (any opponent, any token still on the mat)."""
    state = historian()
    state.seats[0].territory = [5, 9]
    income_turn_2(state)
    assert decision(state) == "bonus"
    found = options(state)
    assert set(found) == {PayBonus(discard=(5,)), PayBonus(discard=(9,)), Decline()}
    events = answer(state, PayBonus(discard=(9,)))
    assert of(events, ev.TilesDiscarded)[0].tiles == (9,)
    assert decision(state) == "historians_give"
    assert set(options(state)) == {Choose(index=o * 10 + s) for o in (1, 2) for s in range(4)}
    answer(state, Choose(index=2 * 10 + 1))
    assert hist.holders(state, 0) == [-1, 2, -1, -1]
    assert state.seats[0].territory == [5]


def test_giving_is_optional() -> None:
    """Aid "Historiens": the gift is an option: declining keeps the tile and the tokens."""
    state = historian()
    state.seats[0].territory = [5]
    income_turn_2(state)
    answer(state, Decline())
    assert hist.holders(state, 0) == [-1] * 4
    assert state.seats[0].territory == [5]


def test_no_tile_no_gift() -> None:
    """Aid "Historiens": without a territory tile nothing can be paid: nothing is asked."""
    state = historian()
    events = income_turn_2(state)
    assert decision(state) != "historians_give"
    assert not of(events, ev.CivTokensSet)


def test_no_gift_when_every_token_is_out() -> None:
    """Once the four tokens are given, the income ability has nothing left to do."""
    state = historian(tokens=(1, 2, 1, 2))
    state.seats[0].territory = [5]
    income_turn_2(state)
    assert not any(f.source == REASON for f in state.agenda)
    assert state.seats[0].territory == [5]


def test_first_income_turn_has_no_ability() -> None:
    """ "Tours de revenus": civilization abilities apply on income turns 2 to 5 only."""
    state = historian()
    state.seats[0].income_turns = 0
    state.seats[0].territory = [5]
    act(state, 0, TakeIncome())
    assert decision(state) != "bonus"
    assert state.seats[0].territory[:1] == [5]


# -- landmarks ------------------------------------------------------------------------------
def test_holder_gaining_a_landmark_pays_the_uncovered_benefits() -> None:
    """Aid "Historiens": an opponent with at least one of your tokens gains a landmark: you
    gain the benefits uncovered on your mat (here 3 VP and a worker)."""
    state = historian(tokens=(1, 2, -1, -1))
    events = landmark_for(state, 1)
    assert vp_of(events, 0, REASON) == 3
    assert state.seats[0].resources[1] == 1
    events = landmark_for(state, 2, "apothecary")
    assert vp_of(events, 0, REASON) == 3 and state.seats[0].resources[1] == 2


def test_every_uncovered_benefit_pays_whoever_holds_the_token() -> None:
    """Aid: "les bénéfices dévoilés": all uncovered benefits, even those whose token another
    opponent holds; several tokens at one opponent pay once per landmark."""
    state = historian(tokens=(1, 1, 2, 1))
    events = landmark_for(state, 1)
    assert vp_of(events, 0, REASON) == 6
    assert state.seats[0].resources[1:3] == [1, 1]


def test_no_token_no_payout() -> None:
    """Aid "Historiens": only an opponent holding a token triggers the mat."""
    state = historian(tokens=(1, -1, -1, -1))
    events = landmark_for(state, 2)
    assert vp_of(events, 0, REASON) == 0
    events = landmark_for(state, 0, "apothecary")  # the Historian's own landmark
    assert vp_of(events, 0, REASON) == 0


def test_track_landmark_of_an_opponent_pays_during_its_turn() -> None:
    """A real interaction: an opponent holding a token advances first into tier II of a track
    ("Tours de développement": the landmark) and the Historian is paid at once."""
    state = historian(seats=2, tokens=(1, -1, -1, 1))
    state.seats[1].tracks[TRACK_IDS.index("science")] = [3]
    events = run_frames(state, advance_frame(1, TRACK_IDS.index("science"), FULL))
    while decision(state) not in ("turn", "over"):
        events += answer(state, options(state)[0])
    assert of(events, ev.LandmarkClaimed)[0].seat == 1
    assert vp_of(events, 0, REASON) == 6


def test_finished_historian_still_scores_points_only() -> None:
    """ "Fin de la partie": after its fifth income turn a seat may still score points from a
    passive civilization ability, but gains nothing else (no worker)."""
    state = historian(tokens=(1, 1, -1, -1))
    state.seats[0].finished = True
    events = landmark_for(state, 1)
    assert vp_of(events, 0, REASON) == 3
    assert state.seats[0].resources[1] == 0


# -- gained during the game, setup, view ---------------------------------------------------
def test_gained_mid_game_gives_all_four_tokens() -> None:
    """Aid "Historiens": gained during the game, give your 4 tokens to opponents at once."""
    state = table(3)
    state.civs_out = [civ_id(k) for k in civs.GAINABLE if k != KEY]
    benefit(state, 0, "gain_random_civilization")
    for slot in range(4):
        assert decision(state) == "historians_give"
        assert set(options(state)) == {Choose(index=10 + slot), Choose(index=20 + slot)}
        answer(state, Choose(index=10 + slot if slot % 2 else 20 + slot))
    assert hist.holders(state, 0) == [2, 1, 2, 1]
    assert decision(state) == "turn"


def test_gained_in_two_players_tokens_go_to_the_opponent() -> None:
    """With one opponent every token goes to it, without a question."""
    state = table(2)
    state.civs_out = [civ_id(k) for k in civs.GAINABLE if k != KEY]
    benefit(state, 0, "gain_random_civilization")
    assert hist.holders(state, 0) == [1, 1, 1, 1]
    assert decision(state) == "turn"


def test_no_rebalancing_for_a_starting_historian() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": the HISTORIENS entry describes the Heralds' rule
    (content assumption ``civilizations.json#7``): a starting Historian gets nothing."""
    state = start_with(KEY, 3)
    assert civs.setup_frames(state, 0) == []
    assert state.seats[0].vp == 0 and state.seats[0].hand == []


def test_tokens_are_public() -> None:
    """Who holds the tokens is public: every seat and spectators see it in the view."""
    state = historian(tokens=(1, -1, 2, -1))
    for viewer in (None, 1, 2):
        assert GAME.view(state, viewer).seats[0].civ_tokens[KEY] == (1, -1, 2, -1)


def test_seeded_games_with_starting_historians_finish() -> None:
    """ "Fin de la partie": games with a starting Historian end, every seat finished."""
    for seats, seed in ((2, 1), (5, 2)):
        state = play_with(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert 0 not in hist.holders(state, 0)

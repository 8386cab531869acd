"""Collectors (Collectionneurs, Arts & Architecture): a component just gained shelved on the mat
for a reward; VP for the spaces filled.

Sources: facts folder ``civilizations.json#21`` (during advance turns, an outpost, house,
landmark, tapestry card, territory tile or tech card just gained may go on its space of the
mat, one per space, for the space's reward; shelved cards and tiles face down; 1/3/6/10/15/21
VP for 1-6 spaces), rulebook "RÉÉQUILIBRAGE DES CIVILISATIONS" (COLLECTIONNEURS: "Gagnez
[icon]", read as one resource of your choice, ``decisions.json#collectors_rebalancing``), the
shelf rewards ``decisions.json#collectors_shelf``.
"""

from __future__ import annotations

from domain.bots import RandomBot
from domain.tapestry import civ_collectors as col
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, ChooseResource, Conquer, Decline, PlaceBuilding
from domain.tapestry.engine import frame
from domain.tapestry.rules import load, tapestry_deck, territory_deck
from domain.tapestry.state import COLLECTORS, TapestryState
from domain.tapestry.view import redact, seat_view
from tests.tapestry.box_civ_helpers import (
    boxed_start,
    play_bots,
    play_boxed,
    refold,
    state_bytes,
)
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, benefit, options, run_frames, vp_of

KEY = "collectors"


def collector(filled: tuple[int, ...] = ()) -> TapestryState:
    """Seat 0 holds the Collectors during an advance turn; ``filled`` spaces hold something."""
    state = table(2)
    state.seats[0].civs = [civ_id(KEY)]
    state.seats[0].resources = [2, 2, 2, 2]
    values = list(col.EMPTY)
    for slot in filled:
        values[slot] = 1
    state.seats[0].civ_tokens[COLLECTORS] = values
    return state


def test_a_tapestry_card_gained_may_be_shelved_for_a_resource() -> None:
    """Facts ``#21``: a tapestry card just gained in an advance turn goes face down on its
    space; the space's reward (one resource of your choice) follows."""
    state = collector()
    benefit(state, 0, "gain_tapestry_card")
    assert decision(state) == col.DECISION
    drawn = state.seats[0].hand[-1]
    assert options(state) == [Choose(index=drawn), Decline()]
    events = answer(state, Choose(index=drawn))
    assert of(events, ev.Collected) == [ev.Collected(seat=0, slot=col.TAPESTRY, item=drawn)]
    assert drawn not in state.seats[0].hand
    assert col.mat(state, 0)[col.TAPESTRY] == drawn
    assert decision(state) == "resource"
    answer(state, ChooseResource(resource="food"))
    assert state.seats[0].resources == [2, 2, 3, 2]


def test_declining_keeps_the_card_in_hand() -> None:
    """The shelving is optional ("may")."""
    state = collector()
    benefit(state, 0, "gain_tapestry_card")
    drawn = state.seats[0].hand[-1]
    answer(state, Decline())
    assert state.seats[0].hand == [drawn] and not col.filled(state, 0)


def test_one_component_per_space() -> None:
    """Facts ``#21``: one per type: a filled space offers nothing more."""
    state = collector(filled=(col.TAPESTRY,))
    benefit(state, 0, "gain_tapestry_card")
    assert decision(state) != col.DECISION


def test_not_during_an_income_turn() -> None:
    """Facts ``#21``: "during advance turns" only: a card of the income turn stays in hand."""
    state = collector()
    state.seats[0].civ_tokens[COLLECTORS][col.INCOME_TURN] = state.turn
    benefit(state, 0, "gain_tapestry_card")
    assert decision(state) != col.DECISION and len(state.seats[0].hand) == 1


def test_a_house_is_shelved_instead_of_placed() -> None:
    """A house just gained: shelved, it leaves the income mat (its income is uncovered) but is
    not placed in the capital."""
    state = collector()
    benefit(state, 0, "gain_house")
    assert decision(state) == "place_building"
    assert Choose(index=col.SHELVE + col.HOUSE) in options(state)
    events = answer(state, Choose(index=col.SHELVE + col.HOUSE))
    assert of(events, ev.Collected)[0].slot == col.HOUSE
    assert not of(events, ev.BuildingPlaced)
    assert state.seats[0].taken[1] == 1
    assert not any(b.building == "house" for b in state.seats[0].buildings)


def test_a_landmark_is_shelved_and_stays_owned() -> None:
    """A landmark just gained: shelved, still the seat's own, not in the capital."""
    state = collector()
    benefit(state, 0, "gain_landmark_apothecary")
    events = answer(state, Choose(index=col.SHELVE + col.LANDMARK))
    landmark = of(events, ev.Collected)[0].item
    assert col.mat(state, 0)[col.LANDMARK] == landmark == 2
    assert state.landmark_owner[str(landmark)] == 0 and landmark in state.seats[0].landmarks
    assert not state.seats[0].buildings


def test_an_outpost_is_shelved_instead_of_a_conquest() -> None:
    """Facts ``#21``: the outpost space is a conquest without dice: no territory, no roll."""
    state = collector()
    benefit(state, 0, "conquer")
    assert decision(state) == "conquer"
    found = options(state)
    assert any(isinstance(c, Conquer) for c in found)
    assert found[-1] == Choose(index=col.SHELVE + col.OUTPOST)
    before = state.seats[0].outposts
    events = answer(state, found[-1])
    assert state.seats[0].outposts == before - 1
    assert not of(events, ev.OutpostPlaced) and not of(events, ev.ConquerDiceRolled)
    assert col.mat(state, 0)[col.OUTPOST] == 1


def test_a_territory_tile_is_shelved_out_of_the_supply() -> None:
    """A territory tile just gained leaves the supply; it is out of the stack too."""
    state = collector()
    benefit(state, 0, "gain_territory_tile")
    tile = state.seats[0].territory[-1]
    assert options(state) == [Choose(index=tile), Decline()]
    answer(state, Choose(index=tile))
    assert tile not in state.seats[0].territory and tile not in territory_deck(state)
    assert col.mat(state, 0)[col.TERRITORY] == tile


def test_a_tech_card_invented_is_shelved() -> None:
    """A tech card just invented leaves the seat's tech cards for the mat."""
    state = collector()
    benefit(state, 0, "invent")
    while decision(state) != col.DECISION:
        answer(state, options(state)[0])
    card = state.seats[0].tech[-1].card
    answer(state, Choose(index=card))
    assert not state.seats[0].tech and col.mat(state, 0)[col.TECH] == card


def test_shelved_card_is_face_down_for_the_others() -> None:
    """Facts ``#21`` note: cards and tiles are kept face down: the other seats see neither the
    card's id in the event nor on the mat; the owner sees both; it is out of the deck."""
    state = collector()
    events = benefit(state, 0, "gain_tapestry_card")
    drawn = state.seats[0].hand[-1]
    before = tapestry_deck(state).count(drawn)
    events = answer(state, Choose(index=drawn))
    shelved = of(events, ev.Collected)[0]
    assert redact(state, shelved, 1) == ev.Collected(seat=0, slot=col.TAPESTRY, item=0)
    assert redact(state, shelved, 0) == shelved
    assert seat_view(state, 0, 1).civ_tokens[COLLECTORS][col.TAPESTRY] == -1
    assert seat_view(state, 0, 0).civ_tokens[COLLECTORS][col.TAPESTRY] == drawn
    assert tapestry_deck(state).count(drawn) == before


def test_final_vp_for_the_spaces_filled() -> None:
    """Facts ``#21`` ``final_scoring``: 1/3/6/10/15/21 VP for 1-6 spaces, at the end of the
    fifth income turn."""
    assert col.FINAL_VP[1:] == (1, 3, 6, 10, 15, 21)
    state = collector(filled=(col.OUTPOST, col.HOUSE, col.TECH, col.TERRITORY))
    state.seats[0].income_turns = 5
    events = run_frames(state, frame("income", 0, ints=(5, 5)))
    assert vp_of(events, 0, "civ:collectors") == 10


def test_rebalancing_gives_a_resource_of_choice() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS", COLLECTIONNEURS: "Gagnez [icon]", read as one
    resource of your choice (``decisions.json#collectors_rebalancing``)."""
    state, _ = boxed_start(KEY, 2, b"col")
    frames = civs.setup_frames(state, 0)
    assert [load(f.expr) for f in frames] == [load('{"kind":"gain","token":"gain_any_resource"}')]
    assert frames[0].source == "adjustment:collectors"


def test_seeded_games_with_starting_collectors_finish() -> None:
    """ "Fin de la partie": whole random games at 2 to 5 seats with starting Collectors end;
    at most one component per space; a fresh fold of the events equals the state."""
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert all(s.finished for s in state.seats)
        slots = [e.slot for e in of(log, ev.Collected)]
        assert len(slots) == len(set(slots))
        assert refold(KEY, log, seats) == state_bytes(state)


def test_the_tapestry_bot_plays_the_collectors() -> None:
    """The Tapestry bot answers the Collectors' decisions in a whole 3-seat game."""
    seats, seed = 3, b"collectors-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"col-smart"), RandomBot(b"col-1"), RandomBot(b"col-2")], seed
    )
    assert refold(KEY, log, seats) == state_bytes(state)
    assert of(log, ev.Collected)


def test_placements_still_offered() -> None:
    """Shelving is an alternative: the house may still be placed in the capital."""
    state = collector()
    benefit(state, 0, "gain_house")
    placements = [c for c in options(state) if isinstance(c, PlaceBuilding)]
    answer(state, placements[0])
    assert col.mat(state, 0)[col.HOUSE] == 0


def test_shelved_cards_still_count_for_scoring() -> None:
    """Facts ``#21`` note: shelved items still count as yours for scoring (a tech card and a
    tapestry card on the mat count for "VP per tech card" / "VP per tapestry card")."""
    state = collector()
    state.seats[0].civ_tokens[COLLECTORS][col.TECH] = 7
    state.seats[0].civ_tokens[COLLECTORS][col.TAPESTRY] = 3
    assert vp_of(benefit(state, 0, "vp_per_tech_card"), 0, "vp_per_tech_card") == 1
    assert vp_of(benefit(state, 0, "vp_per_tapestry_card"), 0, "vp_per_tapestry_card") == 1

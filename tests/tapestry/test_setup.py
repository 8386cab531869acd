"""Setting up a game: "Mise en place générale", "Mise en place des joueurs" (A: civilizations
and capitals, start territory and outposts; B: income mat, resources at 0; E: tokens on the
start spaces; G: rebalancing for the starting civilization only), "Premier joueur" and
"Déroulement du jeu" (the first turn is an income turn).
"""

from __future__ import annotations

import pytest

from domain.core import RuleViolation
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, implemented_ids
from domain.tapestry.commands import ChooseCapital, ChooseCivilization, ChooseResource, TakeIncome
from domain.tapestry.rules import gain, hex_at
from domain.tapestry.setup import dealt_count
from domain.tapestry.state import PLAY, SETUP
from tests.tapestry.helpers import GAME, act, first_choices, new_game, of, table
from tests.tapestry.test_tracks_support import offer

PAIRS = {(1, 6), (2, 4), (3, 5)}


@pytest.mark.parametrize(
    ("seats", "board", "hexes"),
    [(2, "small", 34), (3, "small", 34), (4, "large", 61), (5, "large", 61)],
)
def test_board_by_player_count(seats: int, board: str, hexes: int) -> None:
    """ "Mise en place générale" 1: the small map for 1-3 players, the large one for 4-5."""
    state, _ = new_game(seats)
    assert state.board == board and len(state.hexes) == hexes


@pytest.mark.parametrize("seed", [b"a", b"b", b"c", b"d"])
def test_capitals_dealt_by_pairs_with_three_players(seed: bytes) -> None:
    """ "Mise en place des joueurs" A: with 1-3 players the capitals form pairs by the numbers
    on the board (1/6, 2/4, 3/5) and each player takes a pair at random, then keeps one."""
    state, _ = new_game(3, seed)
    pairs = [tuple(sorted(s.capital_offer)) for s in state.seats]
    assert set(pairs) == PAIRS
    keep = pairs[0][1]
    act(state, 0, ChooseCapital(capital=keep))
    assert state.seats[0].capital == keep
    with pytest.raises(RuleViolation):
        act(state, 1, ChooseCapital(capital=pairs[0][0]))


def test_capitals_pairs_are_distinct_with_two_players() -> None:
    """ "Mise en place des joueurs" A: two players draw two different pairs."""
    for seed in (b"x", b"y", b"z"):
        state, _ = new_game(2, seed)
        pairs = {tuple(sorted(s.capital_offer)) for s in state.seats}
        assert len(pairs) == 2 and pairs <= PAIRS


@pytest.mark.parametrize("seats", [4, 5])
def test_capitals_at_random_with_four_or_five_players(seats: int) -> None:
    """ "Mise en place des joueurs" A: with 4-5 players each takes 1 capital at random (no
    choice), its start territory on the large map, 2 outposts there."""
    state, events = new_game(seats)
    capitals = [s.capital for s in state.seats]
    assert len(set(capitals)) == seats and all(c in C.CAPITALS for c in capitals)
    assert all(s.capital_offer == [s.capital] for s in state.seats)
    for number, seat in enumerate(state.seats):
        q, r = C.CAPITALS[seat.capital].start_large
        assert seat.home == hex_at(state, q, r)
        assert [o.seat for o in state.hexes[seat.home].outposts] == [number, number]
    assert len(of(events, ev.OutpostsStarted)) == seats


def test_start_territory_two_outposts_and_eight_in_supply() -> None:
    """ "Mise en place des joueurs" A: 2 outposts on the territory numbered like the capital
    (on the small map a pair shares one territory); the other 8 stay in the supply."""
    state, _ = new_game(3)
    first_choices(state)
    for number, seat in enumerate(state.seats):
        q, r = C.CAPITALS[seat.capital].start_small
        assert seat.home == hex_at(state, q, r)
        assert [(o.seat, o.toppled) for o in state.hexes[seat.home].outposts] == [
            (number, False),
            (number, False),
        ]
        assert seat.outposts == 8
        assert state.hexes[seat.home].controller() == number


def test_income_mat_resources_and_tracks_start_empty() -> None:
    """ "Mise en place des joueurs" B and E: every building on the income mat (none taken),
    each resource at 0, a token on the start space of each track, 0 VP, no tiles or cards."""
    state, _ = new_game(3)
    assert state.phase == SETUP  # before any civilization setup (F) or rebalancing (G)
    for seat in state.seats:
        assert seat.taken == [0, 0, 0, 0]
        assert seat.resources == [0, 0, 0, 0]
        assert seat.tracks == [[0], [0], [0], [0]]
        assert seat.vp == 0 and seat.hand == [] and seat.territory == [] and seat.tech == []
    assert all(t.start_buildings == 5 for t in C.INCOME_TRACKS)


def test_three_face_up_tech_cards() -> None:
    """ "Mise en place générale" 3: shuffle the tech cards and reveal 3."""
    state, events = new_game(2)
    assert len(state.tech_display) == 3 and len(set(state.tech_display)) == 3
    assert all(card in C.TECH_CARDS for card in state.tech_display)
    assert sum(len(e.cards) for e in of(events, ev.TechDisplayFilled)) == 3


def test_two_civilizations_dealt_keep_one() -> None:
    """ "Mise en place des joueurs" A: draw 2 civilizations, keep 1; the other goes back to be
    shuffled with the unused ones."""
    state, _ = new_game(2)
    offers = [list(s.civ_offer) for s in state.seats]
    assert all(len(o) == 2 for o in offers)
    assert not set(offers[0]) & set(offers[1])
    assert all(c in implemented_ids() for o in offers for c in o)
    act(state, 0, ChooseCivilization(civilization=offers[0][1]))
    assert state.seats[0].civs == [offers[0][1]]
    assert offers[0][0] not in state.civs_out and offers[0][1] in state.civs_out


def test_five_players_are_each_dealt_two_distinct_civilizations() -> None:
    """ "Mise en place des joueurs" A: every seat draws 2 civilizations and keeps 1; with 5
    players 10 distinct civilizations of the 16 are dealt (all 16 are implemented)."""
    assert len(implemented_ids()) == 16
    state, events = new_game(5)
    assert dealt_count(state) == 2
    dealt = [e.civilizations for e in of(events, ev.CivilizationsDealt)]
    assert [len(c) for c in dealt] == [2] * 5
    assert len({civ for pair in dealt for civ in pair}) == 10


def test_rebalancing_applies_to_the_starting_civilization() -> None:
    """ "Mise en place des joueurs" G and "Rééquilibrage des civilisations": a starting
    Alchemist takes 2 resources of choice and 10 VP; The Chosen 15 VP per opponent."""
    state, _ = new_game(3)
    state.seats[0].civ_offer = [civ_id("alchemists")]
    state.seats[1].civ_offer = [civ_id("the_chosen")]
    act(state, 0, ChooseCivilization(civilization=civ_id("alchemists")))
    act(state, 1, ChooseCivilization(civilization=civ_id("the_chosen")))
    first_choices(state)
    while GAME.pending(state).decision == "resource":
        seat = GAME.pending(state).seats[0]
        act(state, seat, ChooseResource(resource="food"))
    assert state.phase == PLAY
    assert state.seats[0].vp == 10 and state.seats[0].resources == [0, 0, 2, 0]
    assert state.seats[1].vp == 15 * 2


def test_rebalancing_not_applied_to_a_civilization_gained_later() -> None:
    """ "Rééquilibrage des civilisations": do not apply it to civilizations gained during the
    game (an Alchemist gained mid-game brings no VP and no resource)."""
    state = table(2)
    state.civs_out = [c for c in implemented_ids() if c != civ_id("alchemists")]
    events = offer(state, 0, gain("gain_random_civilization"))
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [civ_id("alchemists")]
    assert state.seats[0].vp == 0 and state.seats[0].resources == [0, 0, 0, 0]


def test_first_player_at_random() -> None:
    """ "Premier joueur": chosen at random (every seat is first for some seed)."""
    firsts = set()
    for n in range(24):
        _, events = new_game(3, f"first-{n}".encode())
        firsts.add(of(events, ev.FirstPlayerChosen)[0].seat)
    assert firsts == {0, 1, 2}


def test_first_turn_of_every_seat_is_income_turn_1() -> None:
    """ "Déroulement du jeu": your first turn is an income turn (turn 1: only "gain income");
    play goes clockwise from the first player."""
    state, _ = new_game(3)
    assert state.phase == SETUP
    first_choices(state)
    while GAME.pending(state).decision != "turn":
        seat = GAME.pending(state).seats[0]
        act(state, seat, GAME.legal_actions(state, seat)[0])
    order = []
    for _ in range(3):
        seat = GAME.pending(state).seats[0]
        order.append(seat)
        assert GAME.legal_actions(state, seat) == [TakeIncome()]
        events = act(state, seat, TakeIncome())
        assert [e.era for e in of(events, ev.IncomeTurnStarted)] == [1]
        assert not of(events, ev.TapestryPlayed) and not of(events, ev.VPScored)
        while GAME.pending(state).decision != "turn":
            who = GAME.pending(state).seats[0]
            act(state, who, GAME.legal_actions(state, who)[0])
    first = state.first_player
    assert order == [first, (first + 1) % 3, (first + 2) % 3]
    assert GAME.legal_actions(state, first) != [TakeIncome()]

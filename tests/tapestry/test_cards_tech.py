"""Tech cards: the circle (bottom -> middle row) and square (middle -> top row) benefits of all
33 cards, and the top-row requirement (you or a neighbour).

Sources: rulebook "Technologie / Amélioration" (circle on reaching the middle row, square on
reaching the top row if you or a neighbour meets the condition; for income conditions the named
space of the income mat must be uncovered) and "Guide des cartes Technologie" (each card's two
benefits), reference ``tech_cards.json``.

Every case starts from the same position: seat 0 at exploration 2, science 3, technology 4,
military 5; income buildings taken 1 market, 2 houses, 1 farm, 3 armories; landmarks Tech Hub
and Rubber Works; 2 territory tiles in supply; no resource, no VP; the tested card is its only
tech card. Seat 1 (its neighbour) meets every top-row condition.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry.civs import implemented_ids
from domain.tapestry.commands import Choose, Decline, Explore, Upgrade
from domain.tapestry.engine import frame
from domain.tapestry.rules import INCOME_INDEX, exploration_vp, track_index
from domain.tapestry.state import Played, TapestryState, TechOwned
from tests.tapestry.helpers import GAME, decision, table
from tests.tapestry.test_cards_support import answer, card, options, run_frames, settle_turn

E, S, T, M = range(4)
BASE_TAKEN = [1, 2, 1, 3]
BASE_LANDMARKS = [1, 8]
#: not checked in the table (exploration VP, conquer dice): see the dedicated tests.
ANY = object()
DICE: dict[str, Any] = {"vp": ANY, "resources": ANY, "tracks": ANY}


def _position(tested: int, row: int, seats: int = 2) -> TapestryState:
    state = table(seats)
    seat = state.seats[0]
    seat.tracks = [[2], [3], [4], [5]]
    seat.taken = list(BASE_TAKEN)
    seat.landmarks = list(BASE_LANDMARKS)
    state.landmark_owner = {str(lm): 0 for lm in BASE_LANDMARKS}
    seat.territory = [5, 6]
    seat.tech = [TechOwned(card=tested, row=row)]
    rival = state.seats[1]
    rival.tracks = [[10], [10], [10], [10]]
    rival.taken = [3, 3, 3, 3]
    return state


def _upgrade(state: TapestryState, tested: int, picks: list[Any]) -> None:
    """Upgrade ``tested`` one row, then answer: ``picks`` first (commands or option indices),
    then the first option, until seat 0's turn comes back."""
    run_frames(state, frame("upgrade_card", 0, ints=(tested,)))
    queue = list(picks)
    for _ in range(200):
        if decision(state) == "turn":
            return
        found = options(state)
        pick = queue.pop(0) if queue else 0
        answer(state, pick if isinstance(pick, Command) else found[pick])
    raise AssertionError("the upgrade does not end")


def _check(state: TapestryState, expected: dict[str, Any]) -> None:
    seat = state.seats[0]
    actual = {
        "resources": seat.resources,
        "vp": seat.vp,
        "taken": seat.taken,
        "tracks": [t[0] for t in seat.tracks],
        "territory": len(seat.territory),
        "hand": len(seat.hand),
        "landmarks": seat.landmarks,
        "tech": len(seat.tech),
        "civs": len(seat.civs),
        "activated": seat.activated,
    }
    base = {
        "resources": [0, 0, 0, 0],
        "vp": 0,
        "taken": BASE_TAKEN,
        "tracks": [2, 3, 4, 5],
        "territory": 2,
        "hand": 0,
        "landmarks": BASE_LANDMARKS,
        "tech": 1,
        "civs": 0,
        "activated": [],
    }
    base.update(expected)
    for key in [k for k, v in base.items() if v is ANY]:
        del base[key], actual[key]
    assert actual == base


def _taken(market: int = 1, house: int = 2, farm: int = 1, armory: int = 3) -> list[int]:
    return [market, house, farm, armory]


#: (card, name, circle expectation, circle picks, square expectation, square picks)
CASES: list[tuple[int, str, dict[str, Any], list[Any], dict[str, Any], list[Any]]] = [
    (1, "Air Conditioning", {"resources": [0, 1, 0, 0]}, [], {"taken": _taken(house=3)}, []),
    (2, "Ammonia", {"taken": _taken(farm=2)}, [], {"vp": 1}, []),
    (3, "Anesthesia", {"taken": _taken(armory=4)}, [], {"vp": 3}, []),
    (5, "Bakery", {"vp": 4}, [], {"landmarks": [1, 8, 13]}, []),
    (6, "Barn", {"vp": 3}, [], {"landmarks": [1, 8, 14]}, []),
    (
        7,
        "Lithium-Ion Battery",
        {"vp": 4},
        [],
        {"taken": _taken(house=3), "activated": ["icon:tech:7", "science:3"]},
        [Choose(index=S), Choose(index=1)],
    ),
    (8, "Calendar", {"resources": [0, 0, 0, 1]}, [], {"vp": 7}, []),
    (9, "Canned Food", {"resources": [0, 0, 1, 0]}, [], {"vp": 7}, []),
    (10, "Clocks", {"tracks": [2, 3, 5, 5]}, [], {"vp": 4}, []),
    (11, "Compass", {"territory": 4}, [], {"territory": 1, "vp": ANY, "resources": ANY}, []),
    (12, "Com Tower", {"vp": 5}, [], {"landmarks": [1, 8, 15]}, []),
    (13, "Concrete", {"taken": _taken(market=2)}, [], {"vp": 1}, []),
    (14, "Dynamite", DICE, [], {"vp": 1}, []),
    (15, "Eyeglasses", {"tech": 2}, [], {"vp": 1}, []),
    (16, "Irrigation", {"resources": [0, 0, 1, 0]}, [], {"taken": _taken(farm=2)}, []),
    (17, "Library", {"vp": 3}, [], {"landmarks": [1, 8, 16]}, []),
    (18, "Light Bulb", {"resources": [1, 0, 0, 0]}, [], {"taken": _taken(market=2)}, []),
    (19, "Paper", {"taken": _taken(house=3)}, [], {"vp": 2}, []),
    (20, "Penicillin", {}, [Choose(index=1)], {"vp": 5}, []),
    (21, "Printing Press", {"hand": 1}, [], {}, []),
    (22, "Radio", {"vp": 3}, [], {"civs": 1}, []),
    (23, "Sewage & Plumbing", {"resources": [0, 0, 0, 1]}, [], {"taken": _taken(armory=4)}, []),
    (24, "Siegecraft", {"tracks": [2, 3, 4, 6]}, [], {"vp": 5}, []),
    (25, "Stock Market", {"vp": 5}, [], {"landmarks": [1, 8, 17]}, []),
    (26, "Telescope", {"resources": [0, 0, 0, 1], "territory": 3}, [], {"vp": 2}, []),
    (27, "The Nail", {"hand": 1}, [], {"taken": _taken(house=3)}, [Choose(index=1)]),
    (28, "Time Travel", {"resources": [1, 0, 0, 0]}, [], {"tracks": [1, 3, 4, 5]}, []),
    (29, "Transistors", {"resources": [1, 0, 0, 0]}, [], {"resources": [0, 0, 0, 1], "vp": 4}, []),
    (30, "Treasury", {"vp": 4}, [], {"landmarks": [1, 8, 18]}, []),
    (31, "Vaccines", {"tracks": [2, 4, 4, 5], "landmarks": [1, 8, 2]}, [], {"vp": 3}, []),
    (
        32,
        "Warships",
        {"resources": [0, 1, 0, 0]},
        [],
        {"vp": ANY, "resources": ANY, "tracks": ANY},
        [],
    ),
    (33, "Zeppelins", {"tracks": [3, 3, 4, 5]}, [], {"vp": 2}, []),
]


def test_every_tech_card_has_a_case() -> None:
    """All 33 tech cards are covered (Assembly Line separately)."""
    assert sorted([c[0] for c in CASES] + [4]) == sorted(C.TECH_CARDS)
    assert all(C.TECH_CARDS[c[0]].name == c[1] for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_circle_benefit_on_reaching_the_middle_row(case: tuple[Any, ...]) -> None:
    """ "Amélioration": bottom -> middle row gives the card's circle benefit."""
    tested, _, expected, picks, _, _ = case
    state = _position(tested, 0)
    _upgrade(state, tested, picks)
    _check(state, expected)
    assert state.seats[0].tech[0].row == 1


@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_square_benefit_on_reaching_the_top_row(case: tuple[Any, ...]) -> None:
    """ "Amélioration": middle -> top row gives the card's square benefit."""
    tested, _, _, _, expected, picks = case
    state = _position(tested, 1)
    if tested == 21:  # Printing Press: play a card over the current one
        state.seats[0].hand = [card("trap")]
        expected = {"vp": 10}
    _upgrade(state, tested, picks)
    _check(state, expected)
    assert state.seats[0].tech[0].row == 2


def test_conquering_tech_cards_really_conquer() -> None:
    """Dynamite (circle) and Warships (square): conquer a territory next to yours."""
    for tested, row in ((14, 0), (32, 1)):
        state = _position(tested, row)
        run_frames(state, frame("upgrade_card", 0, ints=(tested,)))
        assert decision(state) == "conquer"
        answer(state, options(state)[0])
        assert sum(1 for h in state.hexes if h.controller() == 0) == 2


def test_compass_square_explores_a_tile_of_the_supply() -> None:
    """Compass square: explore (a tile of your supply, VP for matching sides, its benefit)."""
    state = _position(11, 1)
    run_frames(state, frame("upgrade_card", 0, ints=(11,)))
    choice = options(state)[0]
    assert isinstance(choice, Explore)
    index = state.hex_index(choice.q, choice.r)
    vp = exploration_vp(state, index, choice.tile, choice.rotation)
    answer(state, choice)
    settle_turn(state)
    assert state.hexes[index].tile == choice.tile and state.seats[0].vp == vp
    assert state.seats[0].territory == [t for t in (5, 6) if t != choice.tile]


def test_printing_press_square_plays_over_the_current_card() -> None:
    """Printing Press (Imprimerie) square: play a tapestry card over your current one."""
    state = _position(21, 1)
    state.seats[0].mat = [Played(card=card("monarchy"), era=1)]
    state.seats[0].hand = [card("trap")]
    _upgrade(state, 21, [])
    assert [p.card for p in state.seats[0].mat] == [card("monarchy"), card("trap")]
    assert state.seats[0].mat[-1].era == 1 and state.seats[0].vp == 10


def test_assembly_line_repeats_a_square_then_a_circle() -> None:
    """Assembly Line: circle = the square benefit of a card in your top row; square = the
    circle benefit of a card in your middle row."""
    state = _position(4, 0)
    state.seats[0].tech += [TechOwned(card=8, row=2), TechOwned(card=9, row=1)]
    _upgrade(state, 4, [])
    _check(state, {"vp": 7, "tech": 3})  # Calendar's square
    state = _position(4, 1)
    state.seats[0].tech += [TechOwned(card=8, row=2), TechOwned(card=9, row=1)]
    _upgrade(state, 4, [])
    _check(state, {"resources": [0, 0, 1, 0], "tech": 3})  # Canned Food's circle


def test_radio_gains_an_implemented_civilization() -> None:
    """Radio square: gain a new civilization at random (among those not in play)."""
    state = _position(22, 1)
    _upgrade(state, 22, [])
    assert state.seats[0].civs[0] in implemented_ids()


def _requirement_cases() -> list[tuple[int, str]]:
    return [(c.id, c.name) for c in C.TECH_CARDS.values()]


@pytest.mark.parametrize("case", _requirement_cases(), ids=[n for _, n in _requirement_cases()])
def test_top_row_requirement_you_or_a_neighbour(case: tuple[int, str]) -> None:
    """ "Amélioration": the top row needs the card's condition met by you or a neighbour (a
    track position, or an uncovered income space); a non-neighbour does not help."""
    tested, _ = case
    requirement = C.TECH_CARDS[tested].requirement
    assert requirement is not None
    cases = ((0, False, False), (0, True, True), (1, True, True), (3, True, True))
    for helper, enough, allowed in cases:
        state = table(4)
        state.seats[0].tech = [TechOwned(card=tested, row=1)]
        _meet(state, 2, requirement, True)  # seat 2 is not a neighbour of seat 0
        _meet(state, helper, requirement, enough)
        state.agenda.append(frame("upgrade", 0, optional=True))
        offered = GAME.legal_actions(state, 0)
        assert (Upgrade(card=tested) in offered) == allowed
        assert Decline() in offered


def _meet(state: TapestryState, seat: int, requirement: Any, enough: bool) -> None:
    """Put ``seat`` exactly at the condition (``enough``) or one step short of it."""
    player = state.seats[seat]
    short = 0 if enough else 1
    if requirement.type == "advancement_track":
        player.tracks[track_index(requirement.track)] = [requirement.min_space - short]
    else:
        player.taken[INCOME_INDEX[requirement.income_track]] = requirement.min_space - 1 - short


def test_faq_each_repeat_icon_once_per_turn_lithium_ion() -> None:
    """F.À.Q. "Recherches universitaires … Batterie Lithium-Ion lors du même tour": each repeat
    icon may be used only once per turn. Gaining the top-row (square) benefit of Lithium-Ion
    Battery twice in one turn repeats a position once; the second time gives nothing."""
    from domain.tapestry.engine import expr_frame
    from domain.tapestry.state import Frame

    lithium = next(c.id for c in C.TECH_CARDS.values() if c.name == "Lithium-Ion Battery")
    state = _position(lithium, 2)
    square = C.Gain(token="gain_square_benefit_top_row")
    run_frames(state, expr_frame(0, square, "test"), expr_frame(0, square, "test"))
    repeats = 0
    for _ in range(100):
        if decision(state) in ("turn", "over"):
            break
        top: Frame = state.agenda[-1]
        if top.kind == "track" and top.token == "repeat":
            repeats += 1
        answer(state, options(state)[0])
    assert repeats == 1
    assert state.seats[0].activated.count(f"icon:tech:{lithium}") == 1

"""Exploration, conquest, tech cards, tapestry cards and civilizations.

Sections: "Exploration", "Conquête", "Cartes riposte", "Objectifs", "Technologie /
Amélioration" (the Zeppelins example), "Capacités des cartes Fresque", "Plateaux civilisation".
"""

from __future__ import annotations

from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import (
    Choose,
    ChooseResource,
    Conquer,
    Decline,
    Explore,
    PlayTapestry,
    PlayTrap,
    TakeIncome,
    Upgrade,
)
from domain.tapestry.content import TAPESTRY_CARDS
from domain.tapestry.engine import frame
from domain.tapestry.rules import exploration_vp, rules_neighbours
from domain.tapestry.state import TechOwned
from tests.tapestry.helpers import GAME, act, decision, of, settle, table


def _card(key: str) -> int:
    return next(c.id for c in TAPESTRY_CARDS.values() if c.key == key)


def test_explore_scores_matching_sides_and_tile_benefit() -> None:
    """ "Exploration": a tile next to a controlled territory; 1 VP per matching side."""
    state = table(2)
    state.seats[0].territory = [1]
    state.agenda = [frame("explore", 0, ints=(0,))]
    options = GAME.legal_actions(state, 0)
    home = state.seats[0].home
    assert options and all(isinstance(o, Explore) for o in options)
    for option in options:
        assert isinstance(option, Explore)
        index = next(i for i, h in enumerate(state.hexes) if (h.q, h.r) == (option.q, option.r))
        assert home in rules_neighbours(state, index)
    choice = options[0]
    assert isinstance(choice, Explore)
    index = next(i for i, h in enumerate(state.hexes) if (h.q, h.r) == (choice.q, choice.r))
    expected = exploration_vp(state, index, 1, choice.rotation)
    events = act(state, 0, choice)
    assert state.hexes[index].tile == 1
    assert sum(e.vp for e in of(events, ev.VPScored) if e.reason == "exploration") == expected
    assert state.seats[0].resources[0] == 1  # tile 1 gives a coin


def test_conquer_topples_or_is_trapped() -> None:
    """ "Conquête": a lone opposing outpost is toppled; "Cartes riposte": a Trap topples yours."""
    for trap in (False, True):
        state = table(2)
        home = state.seats[0].home
        target = next(
            i for i in rules_neighbours(state, home) if i >= 0 and state.hexes[i].explored
        )
        state.hexes[target].outposts = []
        from domain.tapestry.state import Outpost

        state.hexes[target].outposts.append(Outpost(seat=1))
        state.seats[1].hand = [_card("trap")] if trap else [_card("dystopia")]
        state.agenda = [frame("conquer", 0, ints=(0,))]
        cell = state.hexes[target]
        act(state, 0, Conquer(q=cell.q, r=cell.r))
        assert GAME.pending(state).seats == (1,) and decision(state) == "trap"
        options = GAME.legal_actions(state, 1)
        assert (PlayTrap() in options) == trap
        act(state, 1, PlayTrap() if trap else Decline())
        standing = [o.seat for o in state.hexes[target].outposts if not o.toppled]
        assert standing == ([1] if trap else [0])
        if trap:  # the Trap also gives the defender 1 resource of its choice
            assert decision(state) == "resource"
            act(state, 1, ChooseResource(resource="coin"))
        assert decision(state) == "choose_die"
        act(state, 0, Choose(index=0))
        assert GAME.pending(state).seats == (1,) or decision(state) == "turn"


def test_zeppelins_upgrade_example() -> None:
    """ "Améliorer 1 carte Techno" example: Zeppelins to the middle row gives its circle
    (advance on exploration without benefit or bonus)."""
    state = table(2)
    seat = state.seats[0]
    seat.tech = [TechOwned(card=33, row=0)]
    seat.hand = [42]
    seat.income_turns = 1
    act(state, 0, TakeIncome())
    while decision(state) != "upgrade":
        act(state, 0, GAME.legal_actions(state, 0)[0])
    assert GAME.legal_actions(state, 0) == [Upgrade(card=33), Decline()]
    events = act(state, 0, Upgrade(card=33))
    assert of(events, ev.TechUpgraded)[0].row == 1
    assert seat.tracks[0] == [1]
    assert not of(events, ev.TerritoryTilesDrawn) or seat.tracks[0] == [1]


def test_square_requirement_met_by_a_neighbour() -> None:
    """ "Amélioration": you or a neighbour must meet the top-row requirement (Calendar:
    exploration II)."""
    state = table(2)
    state.seats[0].tech = [TechOwned(card=8, row=1)]
    state.agenda = [frame("upgrade", 0, optional=True)]
    assert GAME.legal_actions(state, 0) == [Decline()]
    state.seats[1].tracks[0] = [4]
    assert GAME.legal_actions(state, 0) == [Upgrade(card=8), Decline()]
    act(state, 0, Upgrade(card=8))
    assert state.seats[0].vp == 7


def test_boast_of_superiority() -> None:
    """Boast of Superiority: 4 VP per track where nobody is ahead of you."""
    state = table(3)
    state.seats[0].tracks = [[3], [1], [0], [5]]
    state.seats[1].tracks = [[2], [2], [0], [1]]
    state.seats[2].tracks = [[1], [0], [1], [1]]
    state.seats[0].hand = [_card("boast_of_superiority")]
    state.agenda = [frame("play_tapestry", 0, ints=(1,)), frame("play_tapestry", 0, ints=(1,))]
    state.agenda.pop()
    state.seats[0].hand.append(_card("dystopia"))
    act(state, 0, PlayTapestry(card=_card("boast_of_superiority")))
    assert state.seats[0].vp == 8


def test_every_card_of_the_hand_is_playable() -> None:
    """ "Jouer 1 carte Fresque": every card of the hand may be played (Alliance included)."""
    state = table(2)
    state.seats[0].hand = [_card("alliance"), _card("dystopia")]
    state.agenda = [frame("play_tapestry", 0, ints=(1,))]
    assert GAME.legal_actions(state, 0) == [
        PlayTapestry(card=_card("alliance")),
        PlayTapestry(card=_card("dystopia")),
    ]


def test_hands_are_hidden_from_others() -> None:
    """Hidden information: other seats see only the size of a tapestry hand."""
    state = table(2)
    state.seats[1].hand = [3, 4]
    view = GAME.view(state, 0)
    assert view.seats[1].hand is None and view.seats[1].hand_size == 2
    assert GAME.view(state, 1).seats[1].hand == (3, 4)
    drawn = ev.TapestryDrawn(seat=1, count=2, cards=(3, 4))
    assert GAME.redact_event(state, drawn, 0) == ev.TapestryDrawn(seat=1, count=2)
    assert GAME.redact_event(state, drawn, 1) == drawn


def test_leaders_advance_with_benefit() -> None:
    """Leaders (Dirigeants): income turns 2-5, one unused leader advances you once."""
    state = table(2)
    state.seats[0].civs = [civ_id("leaders")]
    state.seats[0].hand = [42]
    act(state, 0, TakeIncome())
    assert decision(state) == "civilization"
    act(state, 0, Choose(index=3))
    assert state.seats[0].tracks[2] == [1]


def test_the_chosen_setup_and_income() -> None:
    """The Chosen (Les Élus): +15 VP per opponent at setup (rebalancing); income: 1 VP per
    opponent per track where nobody is ahead."""
    state = table(3)
    state.seats[0].civs = [civ_id("the_chosen")]
    state.seats[0].hand = [42]
    state.seats[0].tracks = [[1], [0], [0], [0]]
    act(state, 0, TakeIncome())
    settle(state, pick=0)
    assert state.seats[0].vp >= 8 + 10  # 4 tracks x 2 opponents, the Trap's 10 VP


def test_militants_take_outposts_from_their_mat() -> None:
    """Militants: each conquest takes the leftmost outpost of a row; income pays what shows."""
    state = table(2)
    state.seats[0].civs = [civ_id("militants")]
    home = state.seats[0].home
    target = next(i for i in rules_neighbours(state, home) if i >= 0 and state.hexes[i].explored)
    state.hexes[target].outposts = []
    state.agenda = [frame("conquer", 0, ints=(0,))]
    cell = state.hexes[target]
    act(state, 0, Conquer(q=cell.q, r=cell.r))
    assert decision(state) == "civilization"
    act(state, 0, Choose(index=1))
    assert state.seats[0].civ_tokens["militants"] == [0, 1]

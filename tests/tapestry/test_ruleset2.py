"""``tapestry/2``: the rules corrected after the rules audit, each
test naming the rule it proves; ``tapestry/1`` keeps its old behaviour (pinned here too).

Positions are built on :func:`tests.tapestry.helpers.table` and switched to the second
revision by setting ``state.rules`` as ``TapestryGame2.initial`` does.
"""

from __future__ import annotations

import pytest

from domain.core import MalformedCommand
from domain.registry import GAMES, get_ruleset
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Conquer, Decline, Explore, PlayTrap
from domain.tapestry.game import TapestryGame2
from domain.tapestry.scoring import landmark_height, tallest_landmark, winners
from domain.tapestry.state import PlacedBuilding, TapestryRules, TapestryState
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    benefit,
    card,
    give_hex,
    in_force,
    neighbour_territory,
    options,
    play,
)


def revised(state: TapestryState) -> TapestryState:
    """The position played under ``tapestry/2``."""
    state.rules = TapestryRules(revision=2)
    return state


def test_tapestry_2_and_tapestry_1_stay_registered() -> None:
    """A rules change is a new ruleset: ``tapestry/2`` and ``tapestry/1`` stay registered
    after ``tapestry/3`` (``tests/tapestry/test_ruleset3.py``) and ``tapestry/4`` (the default:
    ``tests/tapestry/test_ruleset4.py``)."""
    assert GAMES["tapestry"].ruleset_version != "tapestry/2"
    assert get_ruleset("tapestry/1").ruleset_version == "tapestry/1"
    game = get_ruleset("tapestry/2")
    assert game.initial(game.decode_options({}), 2).rules.revision == 2
    old = get_ruleset("tapestry/1")
    assert old.initial(old.decode_options({}), 2).rules == TapestryRules()


# -- item 7: the tie-break ------------------------------------------------------------------
def _tied(state: TapestryState) -> None:
    for seat in state.seats:
        seat.vp = 100
        seat.buildings = []


def _landmark(state: TapestryState, seat: int, landmark: int) -> None:
    state.seats[seat].buildings.append(
        PlacedBuilding(building="landmark", landmark=landmark, row=0, col=0)
    )


def test_tie_goes_to_the_tallest_landmark_in_the_capital() -> None:
    """ "Fin de la partie": « En cas d'égalité, le joueur possédant le plus haut monument dans
    sa capitale est déclaré vainqueur. » (heights ranked by footprint, assumed) — even against
    more resources left."""
    state = revised(table(3))
    _tied(state)
    small, tall = 2, 3  # Apothecary: 4 cells, Academy: 8 cells
    assert landmark_height(tall) > landmark_height(small)
    _landmark(state, 0, small)
    _landmark(state, 1, tall)
    state.seats[0].resources = [8, 8, 8, 8]
    state.seats[2].vp = 99
    assert tallest_landmark(state, 1) == landmark_height(tall)
    assert winners(state) == (1,)


def test_equal_landmarks_then_most_resources_then_a_shared_win() -> None:
    """ "Fin de la partie", then the English rulebook's next rule: « the player with the most
    total resources remaining is the winner. Otherwise, players share the victory. »"""
    state = revised(table(3))
    _tied(state)
    for seat in (0, 1, 2):
        _landmark(state, seat, 2)
    state.seats[1].resources = [1, 0, 0, 0]
    assert winners(state) == (1,)
    state.seats[0].resources = [0, 0, 0, 1]
    assert winners(state) == (0, 1)


def test_tapestry_1_keeps_the_resources_tiebreak() -> None:
    """``tapestry/1`` (decision ``tiebreak``): resources first, landmarks ignored."""
    state = table(2)
    _tied(state)
    _landmark(state, 0, 3)
    state.seats[1].resources = [1, 0, 0, 0]
    assert winners(state) == (1,)


def test_a_landmark_on_the_map_is_not_in_the_capital() -> None:
    """« dans sa capitale »: a seat without a landmark in its capital ranks 0."""
    state = revised(table(2))
    assert tallest_landmark(state, 0) == 0


# -- item 8: Militarism, Revolution, the Trap -----------------------------------------------
def _explore(state: TapestryState) -> Explore:
    return next(o for o in options(state) if isinstance(o, Explore))


@pytest.mark.parametrize("accept", [True, False])
def test_militarism_outpost_is_a_choice(accept: bool) -> None:
    """Militarism (tapestry_cards.json#26): « vous pouvez » add an outpost on the territory
    you explore — ``tapestry/2`` asks (0: place it; Decline: do not)."""
    state = revised(table(2))
    in_force(state, 0, "militarism")
    state.seats[0].territory = [1]
    benefit(state, 0, "explore")
    choice = _explore(state)
    answer(state, choice)
    assert decision(state) == "militarism"
    assert options(state) == [Choose(index=0), Decline()]
    answer(state, Choose(index=0) if accept else Decline())
    cell = state.hexes[state.hex_index(choice.q, choice.r)]
    assert [o.seat for o in cell.outposts] == ([0] if accept else [])


def test_militarism_without_outposts_left_asks_nothing() -> None:
    """No outpost in supply: nothing to place, no question."""
    state = revised(table(2))
    in_force(state, 0, "militarism")
    state.seats[0].territory = [1]
    state.seats[0].outposts = 0
    benefit(state, 0, "explore")
    answer(state, _explore(state))
    assert decision(state) != "militarism"


def _revolt_position() -> tuple[TapestryState, list[int]]:
    state = revised(table(2))
    home = state.seats[0].home
    targets = [
        i
        for i, cell in enumerate(state.hexes)
        if cell.explored and i != home and i != state.seats[1].home
    ][:4]
    for index in targets:
        state.hexes[index].outposts = []
        give_hex(state, index, 0, toppled=True)
        give_hex(state, index, 1)
    return state, targets


def test_revolution_lets_the_player_choose_up_to_three_territories() -> None:
    """Revolution (tapestry_cards.json#35): « up to 3 territories » of the player's choice
    (``tapestry/2``): four qualify, the player picks the last three it wants, one at a time."""
    state, targets = _revolt_position()
    play(state, 0, "revolution")
    answer(state, Choose(index=1))  # the card's second option: the outposts
    assert decision(state) == "revolution"
    assert options(state) == [*(Choose(index=i) for i in targets), Decline()]
    for index in reversed(targets[1:]):
        answer(state, Choose(index=index))
    assert decision(state) == "turn"
    assert state.hexes[targets[0]].controller() == 1
    assert all(state.hexes[i].controller() == 0 for i in targets[1:])


def test_revolution_may_stop_early() -> None:
    """« jusqu'à 3 »: the player may stop after one territory."""
    state, targets = _revolt_position()
    play(state, 0, "revolution")
    answer(state, Choose(index=1))
    answer(state, Choose(index=targets[2]))
    answer(state, Decline())
    assert [state.hexes[i].controller() for i in targets] == [1, 1, 0, 1]


def test_trap_gives_the_defender_no_resource() -> None:
    """ "Cartes riposte": « l'adversaire garde le contrôle du territoire, mais vous gagnez
    toujours le bénéfice d'un des dés de conquête » — no resource for the defender
    (``tapestry/2``; decision ``trap_no_resource``)."""
    state = revised(table(2))
    target = neighbour_territory(state, 0)
    give_hex(state, target, 1)
    state.seats[1].hand = [card("trap")]
    benefit(state, 0, "conquer")
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    events = answer(state, PlayTrap())
    assert of(events, ev.TrapPlayed) and decision(state) == "choose_die"
    assert state.seats[1].resources == [0, 0, 0, 0] and cell.controller() == 1


def test_unknown_removed_card_is_refused_naming_it() -> None:
    """ "VARIANTES": only cards of the game can be removed; an unknown one is named."""
    game = TapestryGame2()
    with pytest.raises(MalformedCommand, match=r"removed_tech_cards.*'Warp Drive'"):
        game.initial(game.decode_options({"removed_tech_cards": ["Warp Drive"]}), 2)

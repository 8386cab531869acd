"""The rulebook's "MOTS-CLEFS" that reach the other players, one test per keyword, each naming
the keyword it reproduces: ATTAQUE (and the protections against it), VOLER, TOUS LES JOUEURS /
TOUS LES AUTRES JOUEURS. Positions are hand-set (tests/imperium/positions.py) on top of a real
setup; the engine is driven through ``decide`` only.
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, PlayCard
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import activate, hand, put, tokens

MR = ["macedonians", "romans"]


def test_attaque_affects_every_other_player_and_protection_ignores_it() -> None:
    """ATTAQUE: the effect hits all other players; a protected player may ignore it
    (Wilderness: recall it to ignore the attack)."""
    state = activate(["macedonians", "romans", "greeks"])
    hand(state, 0, "PER7")
    state.seats[0].empire = True
    put(state, 2, "play", "1REG1")
    unrest = len(state.unrest)
    act(state, PlayCard(card="PER7"))
    assert decision(state) == "defend" and GAME.pending(state).seats == (2,)
    act(state, Choose(index=0))
    if decision(state) == "option":
        act(state, Choose(index=0))
    assert "1REG1" in state.seats[2].hand
    assert len(state.unrest) == unrest - 1
    assert sum("unrest" in C.CARDS[c].suits for c in state.seats[1].discard) >= 1
    assert not any("unrest" in C.CARDS[c].suits for c in state.seats[2].discard)


def test_attaque_standing_army_unless_the_attacker_gives_progress() -> None:
    """ATTAQUE (protection, Standing Army): the attacker may give 1 progress to hit anyway."""
    state = activate(MR)
    hand(state, 0, "1FAM3")
    put(state, 1, "play", "1UNC1")
    tokens(state, 1, progress=2)
    act(state, PlayCard(card="1FAM3"))
    act(state, Choose(index=0))  # the defender uses Standing Army
    assert decision(state) == "bribe" and GAME.pending(state).seats == (0,)
    act(state, Choose(index=0))  # the attacker gives 1 progress
    assert state.seats[1].progress == 2  # +1 given, -1 stolen
    assert state.seats[0].progress == 1


def test_voler_takes_as_much_as_possible_and_reports_who_could_not_pay() -> None:
    """VOLER: take the tokens from each other player as far as possible; Go a'Viking gives an
    unrest card to each player who could not pay in full."""
    state = activate(["vikings", "romans", "greeks"])
    tokens(state, 1, materials=5)
    tokens(state, 2, materials=1)
    hand(state, 0, "VIK13")
    act(state, PlayCard(card="VIK13"))
    assert state.seats[0].materials == 3 + 2 + 1
    assert (state.seats[1].materials, state.seats[2].materials) == (3, 0)
    assert any("unrest" in C.CARDS[c].suits for c in state.seats[2].discard)
    assert not any("unrest" in C.CARDS[c].suits for c in state.seats[1].discard)


def test_tous_les_joueurs_includes_you_tous_les_autres_does_not() -> None:
    """TOUS LES JOUEURS / TOUS LES AUTRES JOUEURS: Corruption: every player gains 2 materials
    (you too), every other player takes an unrest card (not you)."""
    state = activate(["macedonians", "romans", "greeks"])
    state.seats[0].empire = True
    hand(state, 0, "1CIV4")
    act(state, PlayCard(card="1CIV4"))
    assert [s.materials for s in state.seats] == [5, 5, 5]
    unrest = [sum("unrest" in C.CARDS[c].suits for c in s.discard) for s in state.seats]
    assert unrest[0] == 0 and unrest[1] >= 1 and unrest[2] >= 1

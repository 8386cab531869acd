"""Egyptians (Legends box): every special rule and the rulebook's nation notes, one test each.

Rulebook sections: "Notes au sujet des cartes : Embaumement" (the passive fires whenever you
pay population during an action, an exhaust effect, a Solstice effect or a development, not
when progress pays for all of it), "Nations : Égyptiens" (an empire builder; the floods of
the Nile give new chances to develop; key civilised cards).
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pass, Pick, PlayCard
from domain.imperium.ops import development_cost
from domain.imperium.scoring import card_vp
from tests.imperium.helpers import act, decision
from tests.imperium.positions import activate, effect, hand, legal, put, set_market, tokens

ER = ["egyptians", "romans"]


def test_egyptians_content_matches_the_component_list() -> None:
    """Matériel: "23 cartes Égyptiens" — power card, Unification in the accession slot, 3
    nation cards, 8 developments, 10 starting cards."""
    egy = C.NATIONS["egyptians"]
    assert "egyptians" in C.LEGENDS_NATIONS and egy.box == "legends"
    assert egy.accession == ("EGY2",) and len(egy.nation_deck) == 3
    assert len(egy.development) == 8 and len(egy.starting_deck) == 10
    assert egy.unrest_pile == () and egy.rulebook_count == 23


def _embalming(state) -> None:  # type: ignore[no-untyped-def]
    state.seats[0].empire = True
    put(state, 0, "play", "EGY4")


def test_embalming_fires_when_paying_population_for_an_action() -> None:
    """Embaumement: paying population during an action (the population option of an unrest
    card) lets you put a card from your hand into your history."""
    state = activate(ER)
    _embalming(state)
    hand(state, 0, "EGY22", "EGY16", "EGY17")
    tokens(state, 0, materials=0, population=1, progress=0)
    act(state, PlayCard(card="EGY22"))
    assert decision(state) == "option"
    act(state, Choose(index=0))  # pay 1 population
    assert state.seats[0].population == 0
    assert decision(state) == "option"  # Embalming: you may archive a card from hand
    act(state, Choose(index=0))
    act(state, Pick(card="EGY16"))
    assert "EGY16" in state.seats[0].history and "EGY22" in state.unrest


def test_embalming_fires_when_developing_with_population() -> None:
    """Embaumement: "pendant un développement" — developing Egyptian Expansion (4 population)
    triggers it."""
    state = activate(ER)
    _embalming(state)
    hand(state, 0, "EGY16")
    tokens(state, 0, materials=0, population=4, progress=0)
    effect(state, 0, "EGY2", {"develop": {}})
    if decision(state) == "pick_develop":
        act(state, Pick(card="EGY7"))
    assert state.seats[0].population == 0
    assert decision(state) == "option"  # Embalming, as soon as the population is paid
    act(state, Choose(index=0))
    assert "EGY16" in state.seats[0].history and "EGY7" in state.seats[0].discard


def test_embalming_not_when_progress_pays_everything() -> None:
    """Embaumement: "Elle ne se déclenche pas si le coût est entièrement payé en utilisant des
    [progrès] à la place"."""
    state = activate(ER)
    _embalming(state)
    hand(state, 0, "EGY16")
    tokens(state, 0, materials=0, population=0, progress=4)
    effect(state, 0, "EGY2", {"pay": {"population": 1}})
    assert state.seats[0].progress == 3
    assert decision(state) == "activate" and state.seats[0].history == []


def test_embalming_not_for_materials() -> None:
    """Embalming reacts to population only: paying materials does nothing."""
    state = activate(ER)
    _embalming(state)
    hand(state, 0, "EGY16")
    tokens(state, 0, materials=3, population=0, progress=0)
    effect(state, 0, "EGY2", {"pay": {"materials": 3}})
    assert decision(state) == "activate" and state.seats[0].history == []


def test_flood_of_the_nile_abandons_a_river_for_materials() -> None:
    """Nations : Égyptiens — "les fréquentes Crues du Nil": Flood of the Nile abandons a river
    region to gain 5 materials..."""
    state = activate(ER)
    put(state, 0, "play", "EGY20")
    hand(state, 0, "EGY14", "EGY16")
    tokens(state, 0, materials=0)
    act(state, PlayCard(card="EGY14"))
    if decision(state) == "option":
        act(state, Choose(index=0))
    me = state.seats[0]
    assert "EGY20" in me.discard and me.materials == 5


def test_flood_of_the_nile_innovates_as_an_empire() -> None:
    """... or, as an empire only, innovate for an uncivilised or civilised card; without a
    river region in play it cannot be played."""
    state = activate(ER)
    hand(state, 0, "EGY14", "EGY16")
    assert PlayCard(card="EGY14") not in legal(state)
    set_market(state)
    state.seats[0].empire = True
    put(state, 0, "play", "EGY21")
    act(state, PlayCard(card="EGY14"))
    assert decision(state) == "option"
    act(state, Choose(index=1))
    assert decision(state).startswith("pick")
    before = len(state.seats[0].hand)
    act(state, legal(state)[0])
    assert len(state.seats[0].hand) == before + 1


def test_medicine_lowers_development_population() -> None:
    """Medicine (passive): developments cost 1 population less (never below 0)."""
    state = activate(ER)
    assert development_cost(state, 0, "EGY7") == (0, 4, 0)
    state.seats[0].empire = True
    put(state, 0, "play", "EGY8")
    assert development_cost(state, 0, "EGY7") == (0, 3, 0)
    assert development_cost(state, 0, "EGY10") == (5, 0, 0)
    tokens(state, 0, materials=0, population=3, progress=0)
    effect(state, 0, "EGY2", {"develop": {}})
    assert "EGY7" in state.seats[0].discard and state.seats[0].population == 0


def test_egyptians_power_a_develops_for_an_action_and_an_unrest() -> None:
    """Egyptians, face A (exhaust): pay an action and take an unrest card to develop, or pay
    a population and take an unrest card to gain an action."""
    state = activate(ER, sides=["A", "A"])
    tokens(state, 0, materials=5, population=0, progress=0, actions=1)
    hand(state, 0, "EGY16")
    act(state, Exhaust(card="EGY1A"))  # no population: only the develop option remains
    assert decision(state) == "pick_develop"
    act(state, Pick(card="EGY10"))
    me = state.seats[0]
    assert me.actions == 0 and "EGY10" in me.discard
    assert any("unrest" in C.CARDS[c].suits for c in me.discard)


def test_egyptian_power_scores_civilised_icons() -> None:
    """Egyptians power card: 2 VP (face A) or 3 VP (face B) per civilised icon among the
    scored cards; Egyptian Legacy 1 VP each."""
    for face, each in (("A", 2), ("B", 3)):
        state = activate(ER, sides=[face, "A"])
        put(state, 0, "discard", "1CIV6")
        put(state, 0, "history", "1CIV10")
        assert card_vp(state, 0, state.seats[0].power) == 2 * each
        assert card_vp(state, 0, "EGY10") == 2


def test_obelisk_plays_an_unrest_card_for_free() -> None:
    """Obelisk (exhaust): play an unrest card from your hand as a free action."""
    state = activate(ER)
    state.seats[0].empire = True
    put(state, 0, "play", "EGY5")
    hand(state, 0, "EGY22", "EGY16", "EGY17")
    tokens(state, 0, materials=3, population=0, progress=0, actions=2)
    act(state, Exhaust(card="EGY5"))
    while decision(state) == "option":
        act(state, legal(state)[-1] if Pass() not in legal(state) else Pass())
    assert "EGY22" in state.unrest and state.seats[0].actions == 2

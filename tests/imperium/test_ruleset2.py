"""``imperium/2``: the rules corrected after the rules audit, each
test naming the rule it proves; ``imperium-classics/1`` keeps its old behaviour (pinned).

Positions are built with :mod:`tests.imperium.positions` and switched to the second revision
by setting ``state.revision`` as ``ImperiumGame2.initial`` does.
"""

from __future__ import annotations

import pytest

from domain.core import Chance, MalformedCommand
from domain.imperium.commands import Pick
from domain.imperium.game import ImperiumGame2
from domain.imperium.reactions import defend_frames
from domain.imperium.scoring import card_vp, unrest_count
from domain.imperium.state import ImperiumState
from domain.registry import GAMES, get_ruleset
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import activate, effect, garrison, legal, put, resolve

MR = ["macedonians", "romans"]
ELEPHANTS = {"name": "Indian Elephants", "ids": ["MAU12", "MAU13"]}


def revised(state: ImperiumState) -> ImperiumState:
    """The position played under ``imperium/2``."""
    state.revision = 2
    return state


def test_imperium_2_and_classics_1_stay_registered() -> None:
    """A rules change is a new ruleset: ``imperium/2`` games carry revision 2 (the default is
    now ``imperium/3``, ``tests/imperium/test_solo_ruleset3.py``)."""
    assert GAMES["imperium"].ruleset_version != "imperium/2"
    game = get_ruleset("imperium/2")
    options = game.decode_options({"nations": MR})
    assert game.initial(options, 2).revision == 2
    assert get_ruleset("imperium-classics/1").initial(options, 2).revision == 1


# -- item 10: Trouver -----------------------------------------------------------------------
def _find(state: ImperiumState) -> None:
    effect(state, 0, "MAU18", {"find": {"card": ELEPHANTS, "to": "discard"}})


def test_find_stops_at_the_first_zone_holding_the_card() -> None:
    """TROUVER: « Cherchez parmi les éléments suivants, et dans cet ordre [...] : votre main,
    votre défausse, votre deck et votre pioche Nation » and « Si vous trouvez la carte
    spécifiée, cessez vos recherches »: a copy in the discard pile is found, the one in the
    deck is not offered, and the deck is not searched so its known top stays known."""
    state = revised(activate(MR))
    put(state, 0, "discard", "MAU12")
    put(state, 0, "deck", "MAU13")
    put(state, 0, "deck_top", "ROM10")
    _find(state)
    assert "MAU12" in state.seats[0].discard and "MAU13" in state.seats[0].deck
    assert state.seats[0].deck_top == ["ROM10"]


def test_find_in_the_deck_shuffles_it() -> None:
    """TROUVER: « Quand vous avez terminé vos recherches, que ce soit dans votre deck ou dans
    votre pioche Nation, mélangez-les »: found in the deck, the known top is forgotten."""
    state = revised(activate(MR))
    for zone in ("hand", "discard"):
        for card in list(getattr(state.seats[0], zone)):
            put(state, 0, "deck", card)
    put(state, 0, "deck", "MAU12")
    put(state, 0, "deck_top", "ROM10")
    _find(state)
    assert "MAU12" in state.seats[0].discard
    assert state.seats[0].deck_top == [] and "ROM10" in state.seats[0].deck


def test_a_search_finding_nothing_forgets_the_known_order() -> None:
    """TROUVER: « Si vous ne trouvez pas la carte spécifiée, il ne se passe rien », but the
    searched deck and nation deck are shuffled all the same: what was known of their order
    (cards put back on top) is unknown again."""
    state = revised(activate(MR))
    put(state, 0, "deck_top", "ROM10")
    owner = state.seats[0]
    owner.nation_top = owner.nation_deck[:1]
    owner.nation_deck = owner.nation_deck[1:]
    _find(state)
    assert owner.deck_top == [] and "ROM10" in owner.deck
    assert owner.nation_top == []


def test_classics_1_offers_every_copy_and_keeps_the_order_when_nothing_is_found() -> None:
    """``imperium-classics/1`` (pinned): every copy of every zone is offered; nothing found
    leaves the known top of the deck as it was."""
    state = activate(MR)
    put(state, 0, "discard", "MAU12")
    put(state, 0, "deck", "MAU13")
    _find(state)
    assert decision(state) == "pick_find"
    assert set(legal(state)) == {Pick(card="MAU12"), Pick(card="MAU13")}
    act(state, Pick(card="MAU13"))
    empty = activate(MR)
    put(empty, 0, "deck_top", "ROM10")
    _find(empty)
    assert empty.seats[0].deck_top == ["ROM10"]


# -- item 11: options -----------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["imperium-classics/1", "imperium/2"])
def test_unknown_option_key_is_refused_naming_it(ruleset: str) -> None:
    """Options are validated at creation: an unknown key names itself and its value."""
    with pytest.raises(MalformedCommand, match=r"'nation' \(value \['romans'\]\)"):
        get_ruleset(ruleset).decode_options({"nation": ["romans"]})


def test_unknown_nation_is_named_with_the_valid_ones() -> None:
    """An unknown nation is named, and the valid nations are listed (it used to say "give
    one different nation per seat")."""
    game = ImperiumGame2()
    state = game.initial(game.decode_options({"nations": ["foo", "romans"]}), 2)
    with pytest.raises(MalformedCommand, match=r"nations: unknown nation 'foo'.*romans"):
        game.setup(state, Chance(b"x", 0))


# -- item 12: collapse, the submerged pile, passive protections -----------------------------
def test_collapse_counts_garrisoned_and_submerged_unrest() -> None:
    """EFFONDREMENT: « Comptez le nombre de cartes [Instabilité] de votre main, de votre zone
    de jeu, de votre deck, de votre défausse et de votre Histoire » — ``imperium/2`` counts
    the cards garrisoned in the play area and the Atlanteans' submerged pile (their History:
    « Au lieu d'une pile Histoire, les Atlantes ont une pile Submersion »)."""
    state = activate(["atlanteans", "romans"])
    owner = state.seats[0]
    for zone in ("hand", "deck", "deck_top", "discard", "play", "history"):
        setattr(owner, zone, [])
    owner.garrison = {}
    put(state, 0, "play", "1REG1")
    garrison(state, 0, "1REG1", "ATL19")
    put(state, 0, "submerged", "ATL21")
    assert unrest_count(state, 0) == 0
    assert unrest_count(revised(state), 0) == 2


def test_a_history_card_scores_nothing_when_submerged() -> None:
    """SUBMERGÉE: « Les cartes qui rapportent des points quand elles sont dans votre pile
    Histoire n'en rapportent aucun quand elles sont dans votre pile Submersion » — Imperial
    (8 VP in the History, otherwise 2) gives 0 submerged under ``imperium/2``."""
    state = activate(["atlanteans", "romans"])
    put(state, 0, "submerged", "2FAM1")
    assert card_vp(state, 0, "2FAM1") == 2
    assert card_vp(revised(state), 0, "2FAM1") == 0
    put(state, 0, "history", "2FAM1")
    assert card_vp(state, 0, "2FAM1") == 8


def _attacked(revision: int) -> ImperiumState:
    state = activate(MR)
    state.revision = revision
    put(state, 1, "play", "1UNC1")  # Standing Army: a passive defence, no "may"
    return state


def test_a_passive_protection_without_choice_applies_by_itself() -> None:
    """Standing Army (passive, no "may" in its text) protects its owner against an attack
    unless the attacker gives it 1 progress: ``imperium/2`` asks the defender nothing — the
    next decision is the attacker's (give the progress or be ignored)."""
    state = _attacked(2)
    resolve(state, *defend_frames(state, 0))
    assert decision(state) == "bribe" and GAME.pending(state).seats == (0,)


def test_classics_1_asks_for_the_passive_protection() -> None:
    """``imperium-classics/1`` (pinned): the defender is asked (use it or pass)."""
    state = _attacked(1)
    resolve(state, *defend_frames(state, 0))
    assert decision(state) == "defend" and GAME.pending(state).seats == (1,)

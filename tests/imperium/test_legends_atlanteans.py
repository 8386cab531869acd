"""Atlanteans (Legends box): every special rule and the rulebook's nation notes, one test each.

Rulebook sections: "Mise en place des joueurs" (the Atlanteans put their state card on its
Empire side), "Engloutissez" (submerged cards go under the power card; triggered by another
nation, the cards are discarded instead), "Submergée" (a submerged pile instead of a
history: out of play, no interaction, still scored, only its owner may look at it; cards
scoring in the history score nothing when submerged), "Nations : Atlantes".
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, Pass, Pick, PlayCard
from domain.imperium.game import ImperiumGame
from domain.imperium.ops import development_cost
from domain.imperium.scoring import card_vp
from tests.imperium.helpers import act, decision, new_game
from tests.imperium.positions import (
    activate,
    effect,
    garrison,
    hand,
    legal,
    put,
    put_shared,
    set_market,
    tokens,
)

AR = ["atlanteans", "romans"]


def test_atlanteans_content_matches_the_component_list() -> None:
    """Matériel: "22 cartes Atlantes" — power card, no accession card, no nation deck, 10
    developments and 11 starting cards."""
    atl = C.NATIONS["atlanteans"]
    assert "atlanteans" in C.LEGENDS_NATIONS and atl.box == "legends"
    assert atl.accession == () and atl.nation_deck == () and atl.accession_role == "none"
    assert len(atl.development) == 10 and len(atl.starting_deck) == 11


def test_atlanteans_start_as_an_empire() -> None:
    """Mise en place des joueurs: "Si vous jouez les Atlantes, placez votre carte Statut sur sa
    face Empire" — their empire cards are playable from the first turn."""
    state, _ = new_game(AR)
    me = state.seats[0]
    assert me.empire and me.nation_deck == [] and me.accession == []
    assert not state.seats[1].empire
    state = activate(AR)
    hand(state, 0, "ATL15", "ATL16")
    assert PlayCard(card="ATL15") in legal(state)  # Prosperity with the empire icon


def test_flood_submerges_itself_and_a_region() -> None:
    """Engloutissez: Flood submerges itself and a region of the play area (its cost) to
    acquire a card; the cards lie under the power card, out of play."""
    state = activate(AR, sides=["B", "A"])
    set_market(state, "1REG5")
    put(state, 0, "play", "ATL16")
    hand(state, 0, "ATL12", "ATL15")
    act(state, PlayCard(card="ATL12"))
    while decision(state).startswith("pick"):
        options = legal(state)
        act(state, Pick(card="1REG5") if Pick(card="1REG5") in options else options[0])
    me = state.seats[0]
    assert set(me.submerged) == {"ATL12", "ATL16"} and "ATL16" not in me.play
    assert "1REG5" in me.hand


def test_atlantean_power_a_reacts_to_a_submersion() -> None:
    """Atlanteans, face A (exhaust, when one of your cards is submerged): put a card of your
    discard pile on top of your deck."""
    state = activate(AR, sides=["A", "A"])
    put(state, 0, "play", "ATL16")
    put(state, 0, "discard", "ATL17")
    effect(
        state,
        0,
        "ATL12",
        {"submerge": {"from": "play_area", "filter": {"suit": "region"}, "count": 1}},
    )
    assert decision(state) == "react"
    act(state, Pick(card="ATL1A"))
    me = state.seats[0]
    assert "ATL16" in me.submerged and me.deck_top[-1:] == ["ATL17"]


def test_submerge_by_another_nation_discards() -> None:
    """Engloutissez: "Si un autre joueur que les Atlantes déclenche ce mot-clef, les cartes
    ciblées sont à la place défaussées"."""
    state = activate(["romans", "atlanteans"])
    put(state, 0, "play", "1REG5")
    effect(state, 0, "1REG5", {"submerge": "self"})
    assert "1REG5" in state.seats[0].discard and state.seats[0].submerged == []


def test_history_goes_to_discard() -> None:
    """Submergée: "Au lieu d'une pile Histoire, les Atlantes ont une pile Submersion" — a
    card they would put into their history is discarded."""
    state = activate(AR)
    put(state, 0, "play", "ATL9")
    effect(state, 0, "ATL9", {"history": "self"})
    me = state.seats[0]
    assert "ATL9" in me.discard and me.history == []


def test_submerged_pile_is_private_but_sized() -> None:
    """Submergée: "Vous pouvez toujours consulter les cartes de votre pile Submersion, mais pas
    les autres joueurs"."""
    state = activate(AR)
    put(state, 0, "submerged", "ATL16", "ATL17")
    game = ImperiumGame()
    own, other = game.view(state, 0).seats[0], game.view(state, 1).seats[0]
    assert own.submerged == ("ATL16", "ATL17")  # type: ignore[attr-defined]
    assert other.submerged is None and other.submerged_size == 2  # type: ignore[attr-defined]


def test_submerged_cards_score_but_not_as_history() -> None:
    """Submergée: submerged cards still count for victory points (the power card counts their
    region icons), but a card scoring in the history scores nothing when submerged."""
    state = activate(AR, sides=["B", "A"])
    before = card_vp(state, 0, "ATL1B")  # 1 VP per region icon among the scored cards
    put(state, 0, "submerged", "ATL16", "ATL17")
    assert card_vp(state, 0, "ATL1B") == before and before >= 2
    put_shared(state, "removed", "ATL16")  # out of the game: no longer counted
    assert card_vp(state, 0, "ATL1B") == before - 1
    put(state, 0, "submerged", "QIN8")  # King Wu of Qin: 2 VP in the history only
    assert card_vp(state, 0, "QIN8") == 0
    state.seats[0].history.append("MAU5")
    assert card_vp(state, 0, "QIN8") == 0


def test_garrisoned_cards_follow_a_submerged_host() -> None:
    """Réserver: a card garrisoned under a card that is submerged is submerged with it."""
    state = activate(AR)
    put(state, 0, "play", "ATL16")
    garrison(state, 0, "ATL16", "ATL15")
    effect(
        state,
        0,
        "ATL12",
        {"submerge": {"from": "play_area", "filter": {"suit": "region"}, "count": 1}},
    )
    if decision(state) == "react":
        act(state, Pass())
    assert {"ATL16", "ATL15"} <= set(state.seats[0].submerged)


def test_palace_of_poseidon_sinks_with_the_mountain() -> None:
    """Palace of Poseidon: playable only with Mountain of Atlantis in play; when the Mountain
    leaves play, the Palace is submerged."""
    state = activate(AR)
    hand(state, 0, "ATL3", "ATL15")
    assert PlayCard(card="ATL3") not in legal(state)
    put(state, 0, "play", "ATL10")
    assert PlayCard(card="ATL3") in legal(state)
    act(state, PlayCard(card="ATL3"))
    me = state.seats[0]
    assert "ATL3" in me.play
    effect(state, 0, "1UNC7", {"recall": {"count": 1, "filter": {"suit": "region"}}})
    if decision(state) == "react":
        act(state, Pass())
    assert "ATL10" in me.hand and "ATL3" in me.submerged


def test_vast_wealth_discount_and_unrest_reaction() -> None:
    """Vast Wealth (passive): developments cost 2 materials less; (exhaust) when you return
    an unrest card, gain 3 materials."""
    state = activate(AR)
    assert development_cost(state, 0, "ATL2") == (5, 0, 1)
    put(state, 0, "play", "ATL8")
    assert development_cost(state, 0, "ATL2") == (3, 0, 1)
    hand(state, 0, "ATL19", "ATL15")
    tokens(state, 0, materials=0, population=1, progress=0)
    act(state, PlayCard(card="ATL19"))
    if decision(state) == "option":
        act(state, Choose(index=0))
    assert decision(state) == "react"
    act(state, Pick(card="ATL8"))
    assert state.seats[0].materials == 3 and "ATL19" in state.unrest

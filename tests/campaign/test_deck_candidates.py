"""The deck change offered after a won campaign game: the cards « de votre Histoire, de votre
deck, de votre défausse ou de votre main » (MODE CAMPAGNE, rulebook l.2261-2262), not the play
area (games of ``imperium/5``; earlier rulesets offered it too); no fame card; nothing of the
player's own nation."""

from __future__ import annotations

from domain.campaign import engine
from domain.campaign.deck import deck_change_candidates
from domain.imperium import content as C
from domain.imperium.state import SeatState


def _campaign(nation: str) -> engine.CampaignState:
    state = engine.CampaignState()
    for event in engine.create("campaign-deck", "Ann", nation):
        engine.evolve(state, event)
    return state


def test_gained_cards_come_from_history_deck_discard_and_hand_only() -> None:
    """A region in the play area is not offered (``imperium/5``; after an ``imperium/4`` game
    it is); the same kind of card in the History, the deck, the discard or the hand is; fame,
    unrest and the nation's own cards never are."""
    state = _campaign("romans")
    own = C.NATIONS["romans"].starting_deck[0]
    human = SeatState(
        nation="romans",
        play=["1REG10"],
        history=["1REG14"],
        deck=["1CIV3"],
        deck_top=["1UNC5"],
        discard=["1CIV4", C.COMMON_UNREST[0]],
        hand=["1FAM1", own],
    )
    gained, starting = deck_change_candidates(state, human, 5)
    assert gained == ("1CIV3", "1CIV4", "1REG14", "1UNC5")
    assert deck_change_candidates(state, human, 4)[0] == ("1CIV3", "1CIV4", "1REG10", "1REG14",
                                                          "1UNC5")  # fmt: skip
    assert starting == tuple(sorted(set(C.NATIONS["romans"].starting_deck)))


def test_cards_added_or_removed_by_earlier_wins() -> None:
    """A card added by an earlier win is in the starting deck (may be removed), not offered
    again; a removed starting card is no longer in the starting deck."""
    state = _campaign("romans")
    removed = C.NATIONS["romans"].starting_deck[0]
    state.deck_added.append("1REG14")
    state.deck_removed.append(removed)
    human = SeatState(nation="romans", history=["1REG14", "1REG10"])
    gained, starting = deck_change_candidates(state, human, 5)
    assert gained == ("1REG10",)
    assert "1REG14" in starting and removed not in starting


def test_a_card_added_then_removed_left_the_deck_from_imperium_5() -> None:
    """A card added by one win and removed by a later one: from ``imperium/5`` it is no longer
    in the starting deck and, gained again, may be added again; after an ``imperium/4`` game
    it stays in the starting deck (that ruleset kept it in the deck) and is not offered."""
    state = _campaign("romans")
    state.deck_added.append("1REG14")
    state.deck_removed.append("1REG14")
    human = SeatState(nation="romans", discard=["1REG14"])
    gained, starting = deck_change_candidates(state, human, 5)
    assert gained == ("1REG14",) and "1REG14" not in starting
    gained, starting = deck_change_candidates(state, human, 4)
    assert gained == () and "1REG14" in starting


def test_the_atlanteans_submerged_pile_is_their_history() -> None:
    """« Au lieu d'une pile Histoire, les Atlantes ont une pile Submersion »: a card gained and
    submerged is offered after an ``imperium/5`` game (earlier rulesets did not search it)."""
    state = _campaign("atlanteans")
    human = SeatState(nation="atlanteans", submerged=["1REG10"])
    assert deck_change_candidates(state, human, 5)[0] == ("1REG10",)
    assert deck_change_candidates(state, human, 4)[0] == ()

"""Utopians: one test per special rule ("Nations : Utopiens", "Les Utopiens et leur voyage",
"Mise en place des joueurs", "Mise en place générale", "Nettoyage", "Mélanger votre deck",
"Fin de partie" 6) and the rulebook's nation note as tests."""

from __future__ import annotations

import msgspec

from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pick, PlayCard
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.turns import solstice_cards
from tests.imperium.helpers import GAME, act, bot_game, decision, new_game, refold
from tests.imperium.positions import activate, effect, hand, legal, put, resolve, tokens

UR = ["utopians", "romans"]


def _solstice(state: ImperiumState, seat: int = 0) -> None:
    """Start ``seat``'s Solstice resolution (the round has ended)."""
    resolve(state, Frame(kind="solstice", seat=seat))


def _unrest(cards: list[str]) -> list[str]:
    return [c for c in cards if "unrest" in C.CARDS[c].suits]


def test_setup_journey_stack_no_nation_deck_three_exhaust_tokens() -> None:
    """Mise en place des joueurs / générale: Visions of Shangri-La lies on Gates of Shangri-La
    under the power card (only the top card is in play); no accession card, no nation deck,
    no development cards; 13 personal cards; the Utopian player takes 3 exhaust tokens."""
    state, _ = new_game(UR)
    uto, rom = state.seats
    assert uto.play == ["UTO2A"] and uto.journey == ["UTO3A"]
    assert uto.nation_deck == [] and uto.accession == [] and uto.dev == []
    assert len(uto.hand) + len(uto.deck) == 13 and len(uto.hand) == 5
    assert (uto.exhaust, rom.exhaust) == (3, 5)
    faces_b = {"UTO2B", "UTO3B"}
    assert not faces_b & {c for s in state.seats for z in (s.play, s.journey) for c in z}


def test_cleanup_puts_back_only_three_exhaust_tokens() -> None:
    """Nettoyage: "Si vous jouez les Utopiens, vous ne placez que 3 jetons épuisement"."""
    state = activate(UR)
    tokens(state, 0, exhaust=0)
    resolve(state, Frame(kind="reset", seat=0), Frame(kind="reset", seat=1))
    assert (state.seats[0].exhaust, state.seats[1].exhaust) == (3, 5)


def test_only_the_visible_face_of_the_top_journey_card_is_in_play() -> None:
    """Les Utopiens et leur voyage: the journey cards always form a stack and only the visible
    face of the top card is in play: Gates of Shangri-La below has no effect."""
    state = activate(UR)
    assert "UTO3A" not in K.play_area(state.seats[0])
    assert "UTO2A" in solstice_cards(state, 0) and "UTO3A" not in solstice_cards(state, 0)
    assert Exhaust(card="UTO3A") not in legal(state)


def test_journey_card_leaves_play_only_through_its_solstice() -> None:
    """Les Utopiens et leur voyage: "Une carte Voyage ne peut être retirée du jeu qu'en
    utilisant son mot-clef Solstice": effects moving cards of the play area never offer it."""
    state = activate(UR)
    put(state, 0, "play", "1REG1")
    effect(state, 0, "1UNC6", {"exile": {"from": "play_area", "count": 1}})
    assert "1REG1" in state.exile and state.seats[0].play == ["UTO2A"]  # the only choice


def test_visions_turns_over_when_paying_all_progress_at_least_5() -> None:
    """Visions of Shangri-La, Solstice: pay all your progress (at least 5) to turn it over
    (Path to Shangri-La); otherwise discard 1 then draw 1."""
    state = activate(UR)
    tokens(state, 0, progress=6)
    _solstice(state)
    if decision(state) == "pick_solstice":
        act(state, Pick(card="UTO2A"))
    act(state, Choose(index=0))
    uto = state.seats[0]
    assert uto.progress == 0 and uto.play == ["UTO2B"] and uto.journey == ["UTO3A"]


def test_visions_without_5_progress_only_offers_discard_and_draw() -> None:
    """Visions of Shangri-La: with 4 progress the turning-over option cannot be paid, so the
    other option (discard 1, draw 1) is resolved."""
    state = activate(UR)
    tokens(state, 0, progress=4)
    hand_before = len(state.seats[0].hand)
    _solstice(state)
    while decision(state) != "activate" and legal(state):
        options = legal(state)
        assert Choose(index=0) not in options or decision(state) != "option"
        act(state, options[0])
    uto = state.seats[0]
    assert uto.play == ["UTO2A"] and uto.progress == 4 and len(uto.hand) == hand_before


def test_path_is_replaced_by_gates_which_makes_you_an_empire() -> None:
    """Path to Shangri-La, Solstice: pay all progress (at least 5): the card leaves the game
    and Gates of Shangri-La becomes the top journey card; entering play it turns the state
    card to its empire side."""
    state = activate(UR)
    state.seats[0].play = ["UTO2B"]
    tokens(state, 0, progress=5)
    _solstice(state)
    act(state, Choose(index=0))
    uto = state.seats[0]
    assert uto.play == ["UTO3A"] and uto.journey == [] and "UTO2B" in state.removed
    assert uto.empire and uto.progress == 0


def test_gates_turns_over_into_shangri_la() -> None:
    """Gates of Shangri-La, Solstice: pay all progress (at least 5) to turn it over."""
    state = activate(UR)
    put(state, 0, "play", "UTO3A")
    state.seats[0].play = ["UTO3A"]
    tokens(state, 0, progress=7)
    _solstice(state)
    act(state, Choose(index=0))
    assert state.seats[0].play == ["UTO3B"]


def _shangri_la(population: int) -> ImperiumState:
    state = activate(UR)
    put(state, 0, "play", "UTO3A")
    uto = state.seats[0]
    uto.play, uto.empire = ["UTO3B"], True
    tokens(state, 0, population=population, progress=0)
    return state


def test_shangri_la_replaces_every_materials_gain() -> None:
    """Shangri-La, passive: instead of gaining materials, every other player gains 1 progress
    and you gain 2 population (here through its own exhaust effect: gain 1 material)."""
    state = _shangri_la(3)
    uto, rom = state.seats
    materials, rom_progress = uto.materials, rom.progress
    act(state, Exhaust(card="UTO3B"))
    assert uto.materials == materials and uto.population == 5
    assert rom.progress == rom_progress + 1


def test_shangri_la_with_24_population_ends_the_game() -> None:
    """Fin de partie, 6: a final scoring is triggered when the Utopian player has at least
    24 population when resolving the Solstice keyword of Shangri-La."""
    state = _shangri_la(24)
    _solstice(state, 0)
    assert state.end_trigger == "UTO3B"


def test_shangri_la_with_23_population_does_not_end_the_game() -> None:
    """Fin de partie, 6: with 23 population, Shangri-La's Solstice does nothing."""
    state = _shangri_la(23)
    assert "UTO3B" not in solstice_cards(state, 0)
    _solstice(state, 0)
    assert state.end_trigger == ""


def test_power_passive_fires_when_the_deck_runs_out_without_reshuffle() -> None:
    """Nation note: the passive effect of the Utopian power card fires as soon as the deck
    is empty, even if it is not reshuffled (take an unrest card); adding cards to the deck
    and emptying it again fires it again."""
    state = activate(UR)
    uto = state.seats[0]
    put(state, 0, "discard", *uto.deck)
    put(state, 0, "deck", "UTO9")
    unrest = len(_unrest(uto.discard))
    effect(state, 0, "UTO10", {"draw": 1})
    assert uto.deck == [] and "UTO9" in uto.hand
    assert len(_unrest(uto.discard)) == unrest + 1
    put(state, 0, "deck", "UTO10")
    effect(state, 0, "UTO10", {"draw": 1})
    assert len(_unrest(uto.discard)) == unrest + 2


def test_power_passive_fires_before_the_reshuffle_of_a_longer_draw() -> None:
    """Mélanger votre deck + nation note: drawing 2 from a 1-card deck empties it: the unrest
    card is taken first, then the discard pile (with it) is shuffled to draw the second."""
    state = activate(UR)
    uto = state.seats[0]
    put(state, 0, "discard", *uto.deck)
    put(state, 0, "deck", "UTO9")
    in_play = len(_unrest(uto.discard + uto.hand + uto.deck))
    effect(state, 0, "UTO10", {"draw": 2})
    assert len(_unrest(uto.hand + uto.deck + uto.discard)) == in_play + 1
    assert uto.discard == [] and len(uto.deck) > 0


def test_power_face_a_solstice_population_per_unrest_returned_by_others() -> None:
    """Utopians power card, face A, Solstice: each other player may return an unrest card
    from hand; you gain 1 population per card returned."""
    state = activate(UR, sides=["A", "B"])
    hand(state, 1, "UNR1")
    population = state.seats[0].population
    _solstice(state)
    if decision(state) == "pick_solstice":
        act(state, Pick(card="UTO1A"))
    while GAME.pending(state).seats == (1,):
        options = legal(state)
        act(state, Pick(card="UNR1") if Pick(card="UNR1") in options else options[0])
    assert "UNR1" in state.unrest and state.seats[0].population == population + 1


def test_monastery_exiles_and_gains_progress_for_an_attack_card() -> None:
    """Monastery, exhaust: garrison a scroll from hand here; exile a non-unrest card from hand,
    gain 2 population, and 1 progress if the exiled card has the attack icon; scores 1 VP per
    4 cards in the exile pile."""
    state = activate(UR)
    attack = next(c for c, card in C.CARDS.items() if card.attack and not card.nation)
    put(state, 0, "play", "UTO4")
    hand(state, 0, "UTO12", attack)
    before = (state.seats[0].population, state.seats[0].progress)
    act(state, Exhaust(card="UTO4"))
    while decision(state) != "activate":
        options = legal(state)
        act(state, Pick(card=attack) if Pick(card=attack) in options else options[0])
    uto = state.seats[0]
    assert uto.garrison["UTO4"] == ["UTO12"] and attack in state.exile
    assert (uto.population, uto.progress) == (before[0] + 2, before[1] + 1)
    from domain.imperium.scoring import card_vp

    state.exile[:] = [attack, "1UNC6", "1UNC15", "1UNC16"]
    assert card_vp(state, 0, "UTO4") == 1


def test_bot_games_with_utopians_fold_to_the_held_state() -> None:
    """Comment jouer: random-bot games with the Utopians end, and a fresh fold of the log
    equals the state held during play."""
    for seed, table in enumerate((["utopians", "romans"], ["vikings", "utopians"])):
        state, log, _ = bot_game(table, seed, ["A", "B"])
        assert GAME.is_over(state)
        assert refold(table, log, ["A", "B"]) == msgspec.msgpack.encode(state)


def test_daochang_pays_a_population_to_ignore_an_attack() -> None:
    """Daochang, passive (any turn): when another player plays an attack card you may pay 1
    population to ignore it (here the Celts' Cattle Raid)."""
    state = activate(["celts", "utopians"])
    put(state, 1, "play", "UTO6")
    hand(state, 0, "CEL19")
    uto = state.seats[1]
    before = (uto.population, uto.progress)
    act(state, PlayCard(card="CEL19"))
    assert decision(state) == "defend" and GAME.pending(state).seats == (1,)
    act(state, Choose(index=0))
    assert decision(state) == "payment"  # 1 population, or 1 progress standing for it
    act(state, Choose(index=1))
    assert (uto.population, uto.progress) == (before[0] - 1, before[1])
    assert 1 in state.memo.immune

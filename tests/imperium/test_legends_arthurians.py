"""Arthurians: one test per special rule ("Nations : Arthuriens", "Les Arthuriens et leurs
quêtes", "Mise en place des joueurs", "Mélanger votre deck", "Empire", "Développer", "Réserver",
"Fin de partie" 2 and 5) and the rulebook's nation note as tests."""

from __future__ import annotations

import msgspec

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium.commands import Choose, Pass, Pick, PlayCard
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.turns import solstice_cards
from tests.imperium.helpers import GAME, act, bot_game, decision, new_game, refold
from tests.imperium.positions import (
    activate,
    effect,
    garrison,
    hand,
    legal,
    put,
    put_shared,
    resolve,
    tokens,
)

AR = ["arthurians", "romans"]
QUESTS = ("ART3", "ART4", "ART5", "ART6", "ART7")


def _court_solstice(state: ImperiumState) -> None:
    """Resolve King Arthur's Court's Solstice effect up to its garrison choice."""
    resolve(state, Frame(kind="solstice", seat=0))
    if decision(state) == "pick_solstice":
        act(state, Pick(card="ART2"))
    assert decision(state) == "option"  # "may": take an unrest card to garrison a quest
    act(state, Choose(index=0))


def _answer(state: ImperiumState, *wanted: Command) -> None:
    """Answer decisions with the first of ``wanted`` offered (else the first option) until
    the Activate decision is back (or the cleanup starts) or nothing is pending."""
    while legal(state) and decision(state) not in ("activate", "cleanup_token"):
        options = legal(state)
        act(state, next((w for w in wanted if w in options), options[0]))


def test_setup_court_in_play_nadir_quests_and_unrest() -> None:
    """Mise en place des joueurs: King Arthur's Court starts in play; Gwaith Camlan is the
    nadir card under the 7-card nation deck; the 5 quest cards fill the development area;
    the 4 Arthurian unrest cards join the market's unrest pile; 10 personal cards."""
    state, _ = new_game(AR)
    art = state.seats[0]
    assert art.play == ["ART2"] and art.accession == ["ART8"] and len(art.nation_deck) == 7
    assert sorted(art.dev) == sorted(QUESTS) and not art.empire
    assert len(art.hand) + len(art.deck) == 10
    tucked = [c for slot in state.market for c in slot.unrest]
    assert {"ART26", "ART27", "ART28", "ART29"} <= set(state.unrest + tucked)


def test_nadir_card_goes_into_play_and_the_state_card_stays_barbarian() -> None:
    """Mélanger votre deck: for the Arthurians the card under the nation deck is the nadir
    card: instead of the discard pile it goes straight into play; the state card is not
    turned over."""
    state = activate(AR)
    art = state.seats[0]
    art.nation_deck = []
    put(state, 0, "discard", *art.deck)
    effect(state, 0, "ART1B", {"draw": 1})
    assert "ART8" in art.play and "ART8" not in art.discard and not art.empire
    assert art.nation_token


def test_the_state_card_is_never_turned_to_empire() -> None:
    """Empire: "Si vous jouez les Vikings ou les Arthuriens, vous ne pouvez jamais retourner
    votre carte Statut" (an effect turning it does nothing)."""
    state = activate(AR)
    effect(state, 0, "ART1B", {"flip_state_card": "empire"})
    assert not state.seats[0].empire


def test_arthurians_can_never_develop() -> None:
    """Développer: the Arthurians have no development area in the usual sense and can never
    use the develop keyword (their quests stay where they are)."""
    state = activate(AR)
    tokens(state, 0, materials=20, population=20, progress=20)
    effect(state, 0, "ART1B", {"develop": {}})
    assert sorted(state.seats[0].dev) == sorted(QUESTS) and state.end_trigger == ""


def test_court_solstice_makes_an_impending_quest_active() -> None:
    """Les Arthuriens et leurs quêtes: with King Arthur's Court's Solstice keyword you may
    garrison an impending quest on it (taking an unrest card); it becomes the active quest.
    The Graal is not offered while other quests wait."""
    state = activate(AR)
    _court_solstice(state)
    offered = {c.card for c in legal(state) if isinstance(c, Pick)}
    assert offered == {"ART4", "ART5", "ART6", "ART7"}
    act(state, Pick(card="ART6"))
    art = state.seats[0]
    assert K.active_quest(art) == ["ART6"] and "ART6" not in art.dev
    assert any("unrest" in C.CARDS[c].suits for c in art.discard)


def test_only_one_active_quest_at_a_time() -> None:
    """Les Arthuriens et leurs quêtes: "Vous ne pouvez avoir qu'une seule quête active à la
    fois": with an active quest, the Court's Solstice effect is not resolved."""
    state = activate(AR)
    garrison(state, 0, "ART2", "ART7")
    assert "ART2" not in solstice_cards(state, 0)


def test_graal_can_become_active_once_it_is_the_last_quest() -> None:
    """Les Arthuriens et leurs quêtes: the Graal can be the active quest once no other quest
    waits."""
    state = activate(AR)
    put(state, 0, "discard", "ART4", "ART5", "ART6", "ART7")
    _court_solstice(state)
    _answer(state, Pick(card="ART3"))
    assert K.active_quest(state.seats[0]) == ["ART3"]


def test_moving_the_last_quest_does_not_end_the_game() -> None:
    """Fin de partie, 2: the condition is not met when the Arthurian player moves the last
    quest out of the quest zone."""
    state = activate(AR)
    put(state, 0, "discard", "ART4", "ART5", "ART6", "ART7")
    _court_solstice(state)
    _answer(state, Pick(card="ART3"))
    assert state.seats[0].dev == [] and state.end_trigger == ""


def test_myrddin_brings_the_active_quest_to_hand() -> None:
    """Les Arthuriens et leurs quêtes: with Myrddin Wyllt (abandon 3 knights garrisoned in
    regions) the active quest goes to your hand; it is no longer active."""
    state = activate(AR)
    put(state, 0, "play", "ART21", "ART22")
    garrison(state, 0, "ART21", "ART9", "ART14")
    garrison(state, 0, "ART22", "ART18")
    garrison(state, 0, "ART2", "ART7")
    hand(state, 0, "ART23")
    act(state, PlayCard(card="ART23"))
    _answer(state)
    art = state.seats[0]
    assert "ART7" in art.hand and K.active_quest(art) == []
    assert {"ART9", "ART14", "ART18"} <= set(art.discard)
    assert art.play[:1] == ["ART2"] and "ART21" in art.play


def test_morgan_sends_the_active_quest_to_the_discard_pile() -> None:
    """Les Arthuriens et leurs quêtes: with Morgan (Morigena: abandon a region hosting
    Myrddin Wyllt) the active quest goes to the discard pile, then the top card of the
    nation deck too; every player takes an unrest card."""
    state = activate(AR)
    put(state, 0, "play", "ART21")
    garrison(state, 0, "ART21", "ART23")
    garrison(state, 0, "ART2", "ART5")
    state.seats[0].nation_top = ["ART11"]
    hand(state, 0, "ART16")
    unrest = len(state.unrest)
    act(state, PlayCard(card="ART16"))
    _answer(state, Choose(index=0), Pick(card="ART21"))
    art = state.seats[0]
    assert "ART5" in art.discard and K.active_quest(art) == []
    assert "ART11" in art.discard and "ART21" in art.discard and "ART23" in art.discard
    assert len(state.unrest) == unrest - 2


def test_playing_the_graal_ends_the_game() -> None:
    """Fin de partie, 5: a final scoring is triggered when the Arthurian player plays the
    Graal (a free action)."""
    state = activate(AR)
    hand(state, 0, "ART3")
    act(state, PlayCard(card="ART3"))
    _answer(state)
    assert state.end_trigger == "ART3" and state.seats[0].actions == 3


def test_graal_recovers_from_history_and_acquires_from_the_exile_only() -> None:
    """Graal: you may recover a card from your history, then acquire an exiled card other
    than a knight (from the exile pile only, not the market)."""
    state = activate(AR)
    put_shared(state, "exile", "1UNC6", "ART9")
    put(state, 0, "history", "ART20")
    hand(state, 0, "ART3")
    act(state, PlayCard(card="ART3"))
    act(state, Choose(index=0))  # recover the only history card
    act(state, Choose(index=0))  # acquire: 1UNC6 is the only choice (ART9 is a knight)
    art = state.seats[0]
    assert "ART20" in art.hand and "1UNC6" not in state.exile and "ART9" in state.exile
    assert "1UNC6" in art.hand + art.discard


def test_gwaith_camlan_can_be_neither_abandoned_nor_recalled() -> None:
    """Gwaith Camlan (nadir card): it can be neither abandoned nor recalled."""
    state = activate(AR)
    put(state, 0, "play", "ART8", "ART21")
    effect(state, 0, "ART1B", {"abandon": {"count": 1}})
    art = state.seats[0]
    assert "ART8" in art.play and "ART21" in art.discard


def test_gwaith_camlan_solstice_knight_to_history_or_two_unrest() -> None:
    """Gwaith Camlan, Solstice: put a knight from hand or garrisoned in your history, or take
    2 unrest cards."""
    state = activate(AR)
    put(state, 0, "play", "ART8", "ART21")
    garrison(state, 0, "ART21", "ART18")
    resolve(state, Frame(kind="solstice", seat=0))
    if decision(state) == "pick_solstice":
        act(state, Pick(card="ART8"))
    _answer(state, Choose(index=0), Pick(card="ART18"))
    art = state.seats[0]
    assert "ART18" in art.history and "ART21" in art.play


def test_knights_garrison_themselves_under_regions_and_trigger_them() -> None:
    """Réserver / Chevalier: Cai (Sir Kay) may garrison itself under a region in play, whose
    play effect then resolves (Britannia Prima: draw 1)."""
    state = activate(AR)
    put(state, 0, "play", "ART21")
    hand(state, 0, "ART18")
    before = len(state.seats[0].hand)
    act(state, PlayCard(card="ART18"))
    act(state, Pass())  # no region recovered from the discard pile
    act(state, Choose(index=0))  # garrison under Britannia Prima (the only region)
    art = state.seats[0]
    assert art.garrison.get("ART21") == ["ART18"] and "ART18" not in art.play
    assert len(art.hand) == before  # Cai left the hand, Britannia Prima drew 1
    assert decision(state) == "option"  # then Britannia Prima's "may garrison"


def test_guennuvar_plays_an_empire_card_although_barbarian() -> None:
    """Empire: the Arthurians may still play empire cards through Gwenhwyfar (Guennuvar):
    abandon King Arthur (garrisoned under a region) to play an empire card from hand."""
    state = activate(AR)
    empire_card = next(c for c, card in C.CARDS.items()
                       if card.state_icon == "empire" and not card.nation
                       and card.pile == "civilised" and not K.blocks(c, "play"))  # fmt: skip
    put(state, 0, "play", "ART21")
    garrison(state, 0, "ART21", "ART19")
    hand(state, 0, "ART24", empire_card)
    act(state, PlayCard(card="ART24"))
    _answer(state, Choose(index=1), Pick(card=empire_card))
    art = state.seats[0]
    assert "ART19" in art.discard and empire_card not in art.hand and not art.empire


def test_lancelot_finds_guennuvar_for_the_history() -> None:
    """Lawnslot Llyn (Sir Lancelot): find Guennuvar and put it in your history, take a fame
    card, exile this card."""
    state = activate(AR)
    put(state, 0, "discard", "ART24")
    hand(state, 0, "ART4")
    act(state, PlayCard(card="ART4"))
    _answer(state)
    art = state.seats[0]
    assert "ART24" in art.history and "ART4" in state.exile


def test_bot_games_with_arthurians_fold_to_the_held_state() -> None:
    """Comment jouer: random-bot games with the Arthurians end, and a fresh fold of the log
    equals the state held during play."""
    for seed, table in enumerate((["arthurians", "romans"], ["utopians", "arthurians"])):
        state, log, _ = bot_game(table, seed, ["A", "B"])
        assert GAME.is_over(state)
        assert refold(table, log, ["A", "B"]) == msgspec.msgpack.encode(state)


def test_twrch_trwyth_exiles_a_waiting_quest_but_never_the_graal() -> None:
    """Twrch Trwyth, Solstice: discard a knight to exile an impending quest other than the
    Graal (or return up to 2 unrest cards)."""
    state = activate(AR)
    put(state, 0, "play", "ART5")
    put(state, 0, "discard", "ART4", "ART6")
    hand(state, 0, "ART9")
    resolve(state, Frame(kind="solstice", seat=0))
    if decision(state) == "pick_solstice":
        act(state, Pick(card="ART5"))
    _answer(state, Choose(index=0), Pick(card="ART9"))
    art = state.seats[0]
    assert "ART7" in state.exile and "ART3" not in state.exile
    assert "ART3" in art.dev + K.active_quest(art)  # the Court may then make it active


def test_cafall_exiles_twrch_trwyth_from_the_active_quest() -> None:
    """Cafall: draw 2, put a card back on the deck, then you may exile Twrch Trwyth from your
    play area or from the active quest."""
    state = activate(AR)
    garrison(state, 0, "ART2", "ART5")
    hand(state, 0, "ART25")
    act(state, PlayCard(card="ART25"))
    _answer(state, Choose(index=0))
    assert "ART5" in state.exile and K.active_quest(state.seats[0]) == []


def test_peredur_finds_the_graal() -> None:
    """Peredur (Sir Percival): search the discard pile and the deck for the Graal (to the
    hand: decision ``peredur_graal_destination``) and exile this card."""
    state = activate(AR)
    put(state, 0, "deck", "ART3")
    hand(state, 0, "ART17")
    act(state, PlayCard(card="ART17"))
    _answer(state, Choose(index=1))
    assert "ART3" in state.seats[0].hand and "ART17" in state.exile


def test_court_exhaust_returns_unrest_with_camelot_in_play() -> None:
    """King Arthur's Court, exhaust (only with the City of Camelot in play): discard a card
    to return an unrest card from your hand."""
    state = activate(AR)
    from domain.imperium.commands import Exhaust

    assert Exhaust(card="ART2") not in legal(state)
    put(state, 0, "play", "ART11")
    hand(state, 0, "ART20", "ART26")
    assert Exhaust(card="ART2") in legal(state)
    act(state, Exhaust(card="ART2"))
    _answer(state, Pick(card="ART20"))
    assert "ART26" in state.unrest and "ART20" in state.seats[0].discard


def test_gwaith_camlan_gained_otherwise_goes_into_play() -> None:
    """Gwaith Camlan, on gain: put it into play (the nadir rule, for a way of gaining it
    other than the nation deck)."""
    state = activate(AR)
    put(state, 0, "discard", "ART8")
    effect(state, 0, "ART8", {"put_into_play": "self"})
    assert "ART8" in state.seats[0].play and "ART8" not in state.seats[0].discard

"""The rulebook's "MOTS-CLEFS" that move a player's own cards between deck, hand, discard,
play area, history and garrison, one test per keyword, each naming the keyword it
reproduces: ABANDONNER, ARCHIVER, DÉFAUSSER, PERSISTANTE, PIOCHE NATION, PIOCHER, RAPPELER,
RÉCUPÉRER, REGARDER, RENVOYER UNE INSTABILITÉ, RÉSERVER, TROUVER. Positions are hand-set
(tests/imperium/positions.py) on top of a real setup; the engine is driven through ``decide``
only.
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pass, Pick, PlayCard
from tests.imperium.helpers import act, decision
from tests.imperium.positions import activate, effect, garrison, hand, legal, put

MR = ["macedonians", "romans"]


def test_abandonner_moves_a_persistent_card_and_what_it_garrisons() -> None:
    """ABANDONNER (+ RÉSERVER): Boudicca makes the other player abandon a region: it goes to
    the discard pile with the card garrisoned under it."""
    state = activate(MR)
    hand(state, 0, "CEL18")
    put(state, 1, "play", "ROM20")
    garrison(state, 1, "ROM20", "ROM22")
    act(state, PlayCard(card="CEL18"))
    foe = state.seats[1]
    assert foe.play == [] and foe.garrison == {}
    assert foe.discard[-2:] == ["ROM20", "ROM22"]
    assert "CEL18" in state.seats[0].history and state.seats[0].progress == 2


def test_archiver_puts_cards_in_history_vikings_discard_instead() -> None:
    """ARCHIVER UNE CARTE: the card goes under the power card (history); the Vikings have no
    history and discard it instead."""
    state = activate(["macedonians", "vikings"])
    put(state, 0, "play", "PER12")
    effect(state, 0, "PER12", {"history": "self"})
    assert "PER12" in state.seats[0].history
    put(state, 1, "play", "VIK12")
    effect(state, 1, "VIK12", {"history": "self"})
    assert "VIK12" in state.seats[1].discard and not state.seats[1].history


def test_defausser_from_hand() -> None:
    """DÉFAUSSER: a card from hand, face up on the discard pile."""
    state = activate(MR)
    hand(state, 0, "MAC13", "MAC14")
    effect(state, 0, "1UNC6", {"discard": 1})
    act(state, Pick(card="MAC14"))
    assert state.seats[0].discard[-1] == "MAC14" and state.seats[0].hand == ["MAC13"]


def test_regarder_puts_cards_back_in_the_same_order() -> None:
    """REGARDER: look privately, put back in the same order (Glory looks at 2 fame cards and
    takes 1; the other stays on top)."""
    state = activate(MR)
    state.fame_top = ["1FAM1", "1FAM2"]  # 1FAM2 on top
    effect(state, 0, "MAC12", {"look": {"pile": "fame", "count": 2}},
           {"take": {"from": "looked_at", "count": 1}})  # fmt: skip
    assert decision(state) == "pick_take_looked"
    act(state, Pick(card="1FAM2"))
    assert state.fame_top == ["1FAM1"] and "1FAM2" in state.seats[0].discard


def test_regarder_fame_with_none_left_resolves_king_of_kings() -> None:
    """REGARDER + card note "Roi des rois": looking at fame cards when none is face down
    resolves King of Kings instead."""
    state = activate(MR)
    state.fame_top, state.piles["fame"] = [], []
    before = state.seats[0].progress
    effect(state, 0, "MAC12", {"look": {"pile": "fame", "count": 2}})
    assert state.seats[0].progress == before + 6 and state.kok_face == "B"


def test_persistante_stays_in_play() -> None:
    """PERSISTANTE: a persistent card stays in the play area; others go to the discard."""
    state = activate(MR)
    hand(state, 0, "MAC19", "1TRI8")
    act(state, PlayCard(card="MAC19"))
    if decision(state) == "option":
        act(state, Pass())
    act(state, PlayCard(card="1TRI8"))
    me = state.seats[0]
    assert "MAC19" in me.play and "1TRI8" in me.discard and "1TRI8" not in me.play


def test_pioche_nation_accession_stays_at_the_bottom() -> None:
    """PIOCHE NATION: the accession card always stays at the bottom: the Vikings' power card
    may move the looked card to the bottom, but above the zenith card; a shuffle keeps it
    last."""
    state = activate(["vikings", "romans"])
    vik = state.seats[0]
    vik.nation_deck, vik.nation_top = ["VIK3", "VIK4"], ["VIK5"]
    effect(state, 0, "VIK1B", {"look": {"pile": "nation_deck", "count": 1}},
           {"may": [{"move": {"what": "looked_at", "to": "nation_deck_bottom"}}]})  # fmt: skip
    act(state, Choose(index=0))
    assert vik.nation_bottom == ["VIK5"] and vik.accession == ["VIK2"]
    effect(state, 0, "VIK16", {"look": {"pile": "nation_deck", "count": 1}},
           {"shuffle": "nation_deck"})  # fmt: skip
    assert sorted(vik.nation_deck) == ["VIK3", "VIK4", "VIK5"] and vik.accession == ["VIK2"]
    assert vik.looked == [] and vik.nation_top == [] and vik.nation_bottom == []


def test_pioche_nation_looking_at_the_accession_card_does_not_take_it() -> None:
    """PIOCHE NATION + REGARDER: looking at the accession card (last card) neither flips the
    state card nor triggers the Vikings' zenith; it goes back to its slot."""
    state = activate(["vikings", "greeks"])
    vik, gre = state.seats
    vik.nation_deck = []
    effect(state, 0, "VIK16", {"look": {"pile": "nation_deck", "count": 1}},
           {"may": [{"move": {"what": "looked_at", "to": "nation_deck_bottom"}}]})  # fmt: skip
    act(state, Choose(index=0))
    assert vik.accession == ["VIK2"] and not state.end_trigger and vik.nation_bottom == []
    gre.nation_deck = []
    effect(state, 1, "GRE11", {"look": {"pile": "nation_deck", "count": 1}})
    assert gre.accession == ["GRE2"] and not gre.empire


def test_piocher_reshuffles_when_the_deck_runs_out() -> None:
    """PIOCHER X CARTES: draw what is left, reshuffle (procedure of "Mélanger votre deck"),
    go on drawing."""
    state = activate(MR)
    me = state.seats[0]
    me.deck, me.deck_top, me.hand = ["MAC13"], [], []
    me.discard = ["MAC14", "MAC15"]
    me.nation_deck = ["MAC10"]
    effect(state, 0, "GRE2", {"draw": 2})
    assert len(me.hand) == 2 and "MAC13" in me.hand
    assert me.nation_token and len(me.deck) == 2  # 2 discards + the nation card, 1 drawn


def test_piocher_si_possible_never_reshuffles() -> None:
    """PIOCHER ... si possible: with an empty deck, nothing is drawn and no reshuffle."""
    state = activate(MR)
    me = state.seats[0]
    me.deck, me.deck_top, me.hand, me.discard = [], [], [], ["MAC14"]
    effect(state, 0, "1FAM4", {"draw": {"count": 1, "if_able": True}})
    assert me.hand == [] and me.discard == ["MAC14"] and not me.nation_token


def test_piocher_jusqua_may_reshuffle() -> None:
    """PIOCHER jusqu'à X (without « si possible »): missing cards may come from a reshuffle."""
    state = activate(MR)
    me = state.seats[0]
    me.deck, me.deck_top, me.hand, me.discard = ["MAC13"], [], [], ["MAC14", "MAC15"]
    effect(state, 0, "1FAM5", {"draw": {"up_to": 3}})
    act(state, Choose(index=3))
    assert len(me.hand) == 3


def test_piocher_une_renommee_and_king_of_kings_faces() -> None:
    """PIOCHER UNE RENOMMÉE + card note "Roi des rois": the top fame card to hand; with none
    face down, King of Kings is resolved instead: face A (barbarian: 6 progress) flips to B
    and triggers the end; face B (empire: free develop) stays; each player once."""
    state = activate(["macedonians", "romans", "greeks"])
    state.fame_top, state.piles["fame"] = ["1FAM8"], []
    effect(state, 0, "MAC12", {"draw_fame": 1})
    assert "1FAM8" in state.seats[0].hand
    before = state.seats[0].progress
    effect(state, 0, "MAC12", {"draw_fame": 1})
    assert state.seats[0].progress == before + 6
    assert state.kok_face == "B" and state.end_trigger == "KOK-A"
    effect(state, 0, "MAC12", {"draw_fame": 1})
    assert state.seats[0].progress == before + 6  # only once per player
    rom = state.seats[1]
    rom.empire = True
    effect(state, 1, "MAC12", {"draw_fame": 1})
    act(state, Pick(card="ROM3"))
    assert "ROM3" in rom.discard and state.kok_face == "B"


def test_rappeler_returns_the_card_and_its_garrison_to_hand() -> None:
    """RAPPELER: a persistent card back to hand with the cards garrisoned under it."""
    state = activate(MR)
    put(state, 1, "play", "ROM20")
    garrison(state, 1, "ROM20", "ROM14")
    effect(state, 1, "SCY13", {"recall": {"count": 1, "filter": {"suit": "region"}}})
    assert {"ROM20", "ROM14"} <= set(state.seats[1].hand) and state.seats[1].garrison == {}


def test_recuperer_chooses_the_card() -> None:
    """RÉCUPÉRER: choose the card in the pile (discard to hand, or to the top of the deck)."""
    state = activate(MR)
    me = state.seats[0]
    me.discard = ["MAC13", "MAC14"]
    effect(state, 0, "CEL21", {"recover": {"from": "discard", "count": 1, "to": "deck_top"}})
    act(state, Pick(card="MAC13"))
    assert me.deck_top == ["MAC13"] and me.discard == ["MAC14"]


def test_renvoyer_une_instabilite_from_hand_or_discard() -> None:
    """RENVOYER UNE INSTABILITÉ: from hand (default) or, when the card says so, from the
    discard pile."""
    state = activate(MR)
    hand(state, 0, "MAC21")
    put(state, 0, "discard", "MAC22")
    pile = len(state.unrest)
    effect(state, 0, "GRE18", {"return_unrest": {"from": "hand", "count": 1}})
    effect(state, 0, "1CIV14", {"return_unrest": {"from": "discard", "count": 1}})
    assert state.unrest[-2:] == ["MAC21", "MAC22"] and len(state.unrest) == pile + 2


def test_reserver_garrisoned_cards_are_out_of_play_but_scored() -> None:
    """RÉSERVER: a card from hand tucked under the card just played; it is not in the play
    area (no effect) but scores; Glory cannot be garrisoned."""
    state = activate(MR)
    hand(state, 0, "MAC19", "1UNC19", "MAC12", "MAC13")
    act(state, PlayCard(card="MAC19"))
    act(state, Choose(index=0))
    assert Pick(card="MAC12") not in legal(state)
    act(state, Pick(card="1UNC19"))
    me = state.seats[0]
    assert me.garrison == {"MAC19": ["1UNC19"]} and "1UNC19" not in me.play
    assert Exhaust(card="1UNC19") not in legal(state)
    from domain.imperium.cards import scored_cards

    assert "1UNC19" in scored_cards(me)


def test_trouver_searches_hand_discard_deck_then_nation_deck() -> None:
    """TROUVER: choose a matching card among hand, discard, deck and nation deck; the deck
    and nation deck are shuffled afterwards."""
    state = activate(["vikings", "romans"])
    vik = state.seats[0]
    vik.nation_top = ["VIK3"]
    vik.deck_top = ["VIK16"]
    effect(state, 0, "VIK21", {"find": {"filter": {"suit": "region"}, "to": "hand"}})
    options = {c.card for c in legal(state) if isinstance(c, Pick)}
    assert "VIK3" in options and all("region" in C.CARDS[c].suits for c in options)
    act(state, Pick(card="VIK3"))
    assert "VIK3" in vik.hand and vik.nation_top == [] and vik.deck_top == []

"""Qin (Legends box): every special rule and the rulebook's nation notes, one test each.

Rulebook sections: "Nettoyage" (the Qin place 1 population instead of the progress token),
"Mise en place des joueurs" (the Qin unrest cards join the market unrest pile), "Nations :
Qin" (the Mandate of Heaven, Confucianism or Legalism, the Great Wall as an empire).
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, EndActivate, Exhaust, Pick, PlayCard
from domain.imperium.scoring import card_vp
from tests.imperium.helpers import GAME, act, decision, new_game
from tests.imperium.positions import (
    activate,
    garrison,
    hand,
    legal,
    market_card,
    put,
    set_market,
    tokens,
)

QR = ["qin", "romans"]


def test_qin_content_matches_the_component_list() -> None:
    """Matériel: "25 cartes Qin" — power card, Long Walls I in the accession slot, 4 nation
    cards, 8 developments, 2 unrest cards for the market pile and 9 starting cards."""
    qin = C.NATIONS["qin"]
    assert "qin" in C.LEGENDS_NATIONS and qin.box == "legends"
    assert qin.accession == ("QIN2",) and len(qin.nation_deck) == 4
    assert len(qin.development) == 8 and len(qin.starting_deck) == 9
    assert qin.unrest_pile == ("QIN24", "QIN25") and qin.rulebook_count == 25


def test_qin_unrest_cards_join_the_market_unrest_pile() -> None:
    """Mise en place des joueurs: the Qin unrest cards (3+ and 4 icons) go to the unrest pile
    when the Qin play, by player count (rulebook l.187-189, l.292-296): neither at two
    players, QIN24 (3+) at three, both at four. Before ``imperium/5`` both always went."""
    two = C.unrest_pile(2, ("qin", "romans"), nations_by_count=True)
    three = C.unrest_pile(3, ("qin", "romans", "celts"), nations_by_count=True)
    four = C.unrest_pile(4, ("qin", "romans", "celts", "greeks"), nations_by_count=True)
    assert "QIN24" not in two and "QIN25" not in two
    assert "QIN24" in three and "QIN25" not in three
    assert "QIN24" in four and "QIN25" in four
    old = C.unrest_pile(2, ("qin", "romans"), nations_by_count=False)
    assert "QIN24" in old and "QIN25" in old
    state, _ = new_game(QR)
    tucked = [c for slot in state.market for c in slot.unrest]
    assert {"QIN24", "QIN25"} <= set(state.unrest) | set(tucked)


def test_qin_cleanup_places_one_population() -> None:
    """Nettoyage 1: "Si vous jouez les Qin, à la place ajoutez 1 jeton population" — on both
    faces of the power card."""
    for face in ("A", "B"):
        state = activate(QR, sides=[face, "A"])
        set_market(state)
        act(state, EndActivate())
        assert decision(state) == "cleanup_token"
        act(state, Pick(card="1CIV6"))
        slot = state.market[0]
        assert (slot.materials, slot.population, slot.progress) == (0, 1, 0)


def test_qin_face_a_doubles_population_taken_with_a_market_card() -> None:
    """Qin, face A (exhaust): when you acquire a market card carrying population, exhaust to
    gain that population again."""
    state = activate(QR, sides=["A", "A"])
    set_market(state)
    market_card(state, 1, "1UNC15", population=2)
    hand(state, 0, "QIN19")
    tokens(state, 0, materials=3, population=0, progress=0)
    act(state, PlayCard(card="QIN19"))
    assert decision(state) == "pick_acquire"
    act(state, Pick(card="1UNC15"))
    assert decision(state) == "react"
    act(state, Pick(card="QIN1A"))
    assert state.seats[0].population == 4 and state.seats[0].exhaust == 4


def test_mandate_of_heaven_enables_the_rulers() -> None:
    """Nations : Qin — "régner avec le Mandat Céleste": Duke Zhuang of Qin is playable only
    while the Mandate of Heaven is in play; King Wu needs Duke Zhuang in the history too."""
    state = activate(QR)
    hand(state, 0, "QIN21", "QIN8")
    assert PlayCard(card="QIN21") not in legal(state)
    put(state, 0, "play", "QIN22")
    assert PlayCard(card="QIN21") in legal(state)
    state.seats[0].empire = True
    assert PlayCard(card="QIN8") not in legal(state)
    put(state, 0, "history", "QIN21")
    assert PlayCard(card="QIN8") in legal(state)


def test_king_wu_acquires_once_per_progress_paid() -> None:
    """King Wu of Qin: pay up to 3 progress, acquire one card for each progress paid, then
    put it into the history, where it scores 2 VP."""
    state = activate(QR)
    set_market(state)
    state.seats[0].empire = True
    put(state, 0, "play", "QIN22")
    put(state, 0, "history", "QIN21")
    hand(state, 0, "QIN8")
    tokens(state, 0, progress=5)
    act(state, PlayCard(card="QIN8"))
    assert decision(state) == "option"
    assert legal(state) == [Choose(index=i) for i in range(4)]  # pay 0..3
    act(state, Choose(index=2))
    assert state.seats[0].progress == 3
    taken = 0
    while decision(state) == "pick_acquire":
        act(state, legal(state)[0])
        taken += 1
    assert taken == 2
    assert "QIN8" in state.seats[0].history
    assert card_vp(state, 0, "QIN8") == 2


def test_mandate_of_heaven_costs_two_points_unless_in_play() -> None:
    """Mandate of Heaven: -2 VP anywhere but in the play area (its burden)."""
    state = activate(QR)
    put(state, 0, "discard", "QIN22")
    assert card_vp(state, 0, "QIN22") == -2
    put(state, 0, "play", "QIN22")
    assert card_vp(state, 0, "QIN22") == 0


def test_confucianism_abandons_legalism() -> None:
    """Nations : Qin — "choisir entre le Confucianisme et le Légalisme": playing one abandons
    the other from the play area (only from the play area: one in hand stays there)."""
    state = activate(QR)
    put(state, 0, "play", "QIN16")
    hand(state, 0, "QIN15", "QIN19", "QIN20")
    act(state, PlayCard(card="QIN15"))
    me = state.seats[0]
    assert "QIN15" in me.play and "QIN16" in me.discard
    state = activate(QR)
    me = state.seats[0]
    hand(state, 0, "QIN16", "QIN15", "QIN19")
    act(state, PlayCard(card="QIN16"))
    assert "QIN16" in me.play and "QIN15" in me.hand


def test_legalism_exhaust_pays_population_to_acquire() -> None:
    """Legalism (exhaust): pay 3 population to acquire a region or tributary."""
    state = activate(QR)
    set_market(state, "1REG5")
    put(state, 0, "play", "QIN16")
    tokens(state, 0, population=3, progress=0)
    act(state, Exhaust(card="QIN16"))
    assert "1REG5" in state.seats[0].hand and state.seats[0].population == 0


def test_great_wall_long_walls_score_per_wall() -> None:
    """Nations : Qin — the Great Wall: each Long Walls card scores 1 VP per Long Walls card in
    play (4 walls: 16 VP)."""
    state = activate(QR)
    put(state, 0, "play", "QIN2", "QIN3")
    assert card_vp(state, 0, "QIN2") == 2
    put(state, 0, "play", "QIN4", "QIN5")
    assert sum(card_vp(state, 0, c) for c in ("QIN2", "QIN3", "QIN4", "QIN5")) == 16
    put(state, 0, "discard", "QIN5")  # scores wherever it is, per wall still in play
    assert card_vp(state, 0, "QIN5") == 3


def test_long_walls_iv_needs_three_walls() -> None:
    """Long Walls IV (exhaust, only with 3 Long Walls in play): put a card from hand on the
    deck to gain an action."""
    state = activate(QR)
    put(state, 0, "play", "QIN5", "QIN2")
    hand(state, 0, "QIN19")
    assert Exhaust(card="QIN5") not in legal(state)
    put(state, 0, "play", "QIN3")
    assert Exhaust(card="QIN5") in legal(state)
    actions = state.seats[0].actions
    act(state, Exhaust(card="QIN5"))
    assert state.seats[0].deck_top[-1:] == ["QIN19"] or "QIN19" in state.seats[0].deck
    assert state.seats[0].actions == actions + 1


def test_long_walls_i_lowers_unrest_material_option() -> None:
    """Long Walls I (passive): the material option of unrest cards costs 2 less (at least 1)."""
    state = activate(QR)
    put(state, 0, "play", "QIN2")
    hand(state, 0, "QIN23")
    tokens(state, 0, materials=1, population=0, progress=0)
    act(state, PlayCard(card="QIN23"))
    if decision(state) == "option":
        assert Choose(index=2) in legal(state)
        act(state, Choose(index=2))
    assert "QIN23" in state.unrest and state.seats[0].materials == 0


def test_long_walls_ii_recalls_a_wall_to_ignore_an_attack() -> None:
    """Long Walls II (passive): when another player attacks, you may recall a Long Walls card
    to ignore the attack."""
    state = activate(["romans", "qin"])
    state.seats[0].empire = True
    hand(state, 0, "ROM3")
    put(state, 1, "play", "QIN3")
    hand(state, 1, "QIN19", "QIN20")
    act(state, PlayCard(card="ROM3"))
    assert decision(state) == "defend" and GAME.pending(state).seats == (1,)
    act(state, Choose(index=0))
    while decision(state) in ("option", "pick") and GAME.pending(state).seats == (1,):
        act(state, legal(state)[0])
    me = state.seats[1]
    assert "QIN3" in me.hand and {"QIN19", "QIN20"} <= set(me.hand)


def test_terracotta_warriors_score_garrisoned_or_in_history() -> None:
    """Terracotta Warriors (unplayable): 7 VP garrisoned under another card, 3 VP in the
    history, nothing elsewhere."""
    state = activate(QR)
    hand(state, 0, "QIN10")
    assert PlayCard(card="QIN10") not in legal(state)
    assert card_vp(state, 0, "QIN10") == 0
    put(state, 0, "play", "QIN18")
    garrison(state, 0, "QIN18", "QIN10")
    assert card_vp(state, 0, "QIN10") == 7
    put(state, 0, "history", "QIN10")
    assert card_vp(state, 0, "QIN10") == 3


def test_school_of_diplomacy_acquires_per_region_abandoned() -> None:
    """School of Diplomacy: abandon up to 3 regions; for each one abandoned, you may acquire
    a region or tributary."""
    state = activate(QR)
    set_market(state, "1REG5", "1REG6")
    put(state, 0, "play", "QIN18", "QIN11")
    hand(state, 0, "QIN17", "QIN19")
    act(state, PlayCard(card="QIN17"))
    act(state, Pick(card="QIN18"))
    act(state, Pick(card="QIN11"))
    for card in ("1REG5", "1REG6"):
        assert decision(state) == "option"  # "you may acquire"
        act(state, Choose(index=0))
        if decision(state) == "pick_acquire":  # else the only candidate was taken at once
            act(state, Pick(card=card))
    me = state.seats[0]
    assert {"1REG5", "1REG6"} <= set(me.hand) and {"QIN18", "QIN11"} <= set(me.discard)


def test_qin_power_scores_persistent_non_regions() -> None:
    """Qin power card: 1 VP (face A) or 2 VP (face B) per persistent non-region card in
    play."""
    for face, each in (("A", 1), ("B", 2)):
        state = activate(QR, sides=[face, "A"])
        put(state, 0, "play", "QIN15", "QIN22", "QIN18")
        assert card_vp(state, 0, state.seats[0].power) == 2 * each


def test_emperor_qin_shi_huang_closes_the_chain() -> None:
    """Emperor Qin Shi Huang: playable only with the Mandate of Heaven in play and King Wu
    in the history; a free action: draw a fame card, then into the history."""
    state = activate(QR)
    state.seats[0].empire = True
    put(state, 0, "play", "QIN22")
    hand(state, 0, "QIN6", "QIN19")
    assert PlayCard(card="QIN6") not in legal(state)
    put(state, 0, "history", "QIN8")
    assert PlayCard(card="QIN6") in legal(state)
    actions = state.seats[0].actions
    act(state, PlayCard(card="QIN6"))
    me = state.seats[0]
    assert "QIN6" in me.history and me.actions == actions
    assert any("fame" in C.CARDS[c].suits for c in me.hand)


def test_mandate_of_heaven_exhaust_feeds_the_market() -> None:
    """Mandate of Heaven (exhaust): put 1 population from the supply on a market card, then
    you may abandon the Mandate."""
    state = activate(QR)
    set_market(state)
    put(state, 0, "play", "QIN22")
    hand(state, 0, "QIN19", "QIN20", "QIN18")
    act(state, Exhaust(card="QIN22"))
    assert decision(state).startswith("pick")
    act(state, Pick(card="1CIV6"))
    assert state.market[0].population == 1
    assert decision(state) == "option"  # you may abandon it
    act(state, Choose(index=0))
    assert "QIN22" in state.seats[0].discard

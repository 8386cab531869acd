"""Mauryans (Legends box): every special rule and the rulebook's nation notes, one test each.

Rulebook sections: "Notes au sujet des cartes : Grande route" (it counts as 2 region cards
for other card effects: the Mauryan power card, Glory, the Macedonian card), "Éléphants
indiens" (two versions, only one with the icon), "Nations : Maurya" (expand with regions and
tributaries using the elephants; as an empire, keep expanding for Glory or follow Ashoka).
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pass, Pick, PlayCard
from domain.imperium.scoring import card_vp
from tests.imperium.helpers import GAME, act, decision
from tests.imperium.positions import activate, effect, hand, legal, put, set_market, tokens

MR = ["mauryans", "romans"]


def test_mauryans_content_matches_the_component_list() -> None:
    """Matériel: "24 cartes Maurya" — power card, Glory in the accession slot, 8 nation
    cards, 6 developments and only 8 starting cards."""
    mau = C.NATIONS["mauryans"]
    assert "mauryans" in C.LEGENDS_NATIONS and mau.box == "legends"
    assert mau.accession == ("MAU2",) and len(mau.nation_deck) == 8
    assert len(mau.development) == 6 and len(mau.starting_deck) == 8


def test_grand_trunk_road_counts_as_two_regions_for_the_power_card() -> None:
    """Grande route: counts as 2 region cards for the Mauryan power card (1 VP per region
    icon in play)."""
    state = activate(MR, sides=["A", "A"])
    put(state, 0, "play", "MAU21")
    assert card_vp(state, 0, "MAU1A") == 1
    put(state, 0, "play", "MAU4")
    assert card_vp(state, 0, "MAU1A") == 3


def test_grand_trunk_road_counts_as_two_regions_for_glory() -> None:
    """Grande route: counts as 2 regions for Glory ("abandon 3 regions"): Grand Trunk Road and
    one other region are enough, and abandoning both pays the cost."""
    state = activate(MR)
    state.seats[0].empire = True
    put(state, 0, "play", "MAU21", "MAU4")
    hand(state, 0, "MAU2", "MAU22")
    assert PlayCard(card="MAU2") in legal(state)
    act(state, PlayCard(card="MAU2"))
    assert decision(state).startswith("pick")
    act(state, Pick(card="MAU4"))
    if decision(state) == "pick_abandon":
        act(state, Pick(card="MAU21"))
    me = state.seats[0]
    assert {"MAU4", "MAU21"} <= set(me.discard)
    assert decision(state) != "pick_abandon"


def test_grand_trunk_road_counts_twice_for_per_region_gains() -> None:
    """Grande route: Prosperity's "1 population per region in play" counts it twice."""
    state = activate(MR)
    put(state, 0, "play", "MAU21", "MAU4")
    tokens(state, 0, population=0)
    effect(
        state,
        0,
        "MAU22",
        {
            "gain": {
                "population": {
                    "per": {"filter": {"suit": "region"}, "zone": "play_area"},
                    "each": 1,
                }
            }
        },
    )
    assert state.seats[0].population == 3


def test_grand_trunk_road_exhaust_gives_every_player_a_material() -> None:
    """Grand Trunk Road (exhaust): every player gains 1 material, you also gain 1 progress."""
    state = activate(MR)
    state.seats[0].empire = True
    put(state, 0, "play", "MAU4")
    tokens(state, 0, materials=0, progress=0)
    tokens(state, 1, materials=0)
    act(state, Exhaust(card="MAU4"))
    assert (state.seats[0].materials, state.seats[0].progress) == (1, 1)
    assert state.seats[1].materials == 1


def test_indian_elephants_two_versions() -> None:
    """Éléphants indiens: two versions, only one shows the (barbarian) icon — an empire can
    play the other one only."""
    assert C.CARDS["MAU12"].state_icon is None and C.CARDS["MAU13"].state_icon == "barbarian"
    state = activate(MR)
    state.seats[0].empire = True
    hand(state, 0, "MAU12", "MAU13")
    options = legal(state)
    assert PlayCard(card="MAU12") in options and PlayCard(card="MAU13") not in options


def test_indian_elephants_attack_recalls_a_region_then_innovate() -> None:
    """Indian Elephants (attack): every other player recalls a region; you may innovate for a
    region or tributary."""
    state = activate(MR)
    set_market(state, "1REG5")
    put(state, 1, "play", "1REG6")
    hand(state, 0, "MAU12", "MAU22")
    act(state, PlayCard(card="MAU12"))
    while decision(state) == "defend":
        act(state, Pass())
    assert "1REG6" in state.seats[1].hand
    assert decision(state) == "option"
    act(state, Choose(index=0))
    act(state, Pick(card="1REG5"))
    assert "1REG5" in state.seats[0].hand


def test_ashoka_puts_every_attack_card_into_history() -> None:
    """Nations : Maurya — "suivre Ashoka": Ashoka takes a fame card, reveals hand, deck and
    discard pile, puts every attack card found there into the history, then itself."""
    state = activate(MR)
    state.seats[0].empire = True
    hand(state, 0, "MAU5", "MAU12", "MAU22")
    put(state, 0, "discard", "MAU13")
    act(state, PlayCard(card="MAU5"))
    while GAME.pending(state).seats == (0,) and decision(state).startswith("pick"):
        act(state, legal(state)[0])
    me = state.seats[0]
    assert {"MAU5", "MAU12", "MAU13"} <= set(me.history) and "MAU22" in me.hand
    assert any("fame" in C.CARDS[c].suits for c in me.discard + me.hand)


def test_edicts_of_ashoka_need_ashoka_in_history() -> None:
    """Edicts of Ashoka: playable only once Ashoka is in your history."""
    state = activate(MR)
    state.seats[0].empire = True
    hand(state, 0, "MAU7", "MAU22")
    assert PlayCard(card="MAU7") not in legal(state)
    put(state, 0, "history", "MAU5")
    assert PlayCard(card="MAU7") in legal(state)


def test_chandragupta_finds_the_indian_elephants() -> None:
    """Chandragupta: acquire a region, find Indian Elephants (hand, discard, deck, nation
    deck) into your discard pile, then into the history."""
    state = activate(MR)
    set_market(state, "1REG5")
    hand(state, 0, "MAU18", "MAU22")
    act(state, PlayCard(card="MAU18"))
    while GAME.pending(state).seats == (0,) and decision(state).startswith("pick"):
        options = legal(state)
        act(state, Pick(card="MAU12") if Pick(card="MAU12") in options else options[0])
    me = state.seats[0]
    assert "1REG5" in me.hand and "MAU18" in me.history
    assert any(c in me.discard for c in ("MAU12", "MAU13"))


def test_arthashastra_draws_or_gains_per_unrest_discarded() -> None:
    """Arthashastra (Solstice): discard any number of unrest cards; for each, draw a card or
    gain 1 progress."""
    state = activate(MR)
    put(state, 0, "play", "MAU9")
    hand(state, 0, "MAU15", "MAU16", "MAU22")
    tokens(state, 0, progress=0)
    effect(
        state,
        0,
        "MAU9",
        *[
            {"discard": {"count": "any", "filter": {"suit": "unrest"}}},
            {
                "for_each": "card_discarded_by_previous_step",
                "do": [{"choose": [[{"draw": 1}], [{"gain": {"progress": 1}}]]}],
            },
        ],
    )
    act(state, Pick(card="MAU15"))
    act(state, Pick(card="MAU16"))
    for _ in range(2):
        assert decision(state) == "option"
        act(state, Choose(index=1))
    assert state.seats[0].progress == 2 and decision(state) == "activate"


def test_mauryan_power_b_scores_history() -> None:
    """Mauryans, face B: 2 VP per card in the history (Buddhism: 1 VP each)."""
    state = activate(MR, sides=["B", "A"])
    put(state, 0, "history", "MAU5", "MAU18")
    assert card_vp(state, 0, "MAU1B") == 4 and card_vp(state, 0, "MAU6") == 2

"""Minoans (Legends box): every special rule and the rulebook's nation notes, one test each.

Rulebook section "Nations : Minoens": the Minoans need progress to develop; they make
Pottery with materials, "mais méfiez-vous de leur icône : si vous les abandonnez après avoir
établi votre empire, vous ne pourrez plus les jouer"; their Writing System puts unneeded
cards into the history.
"""

from __future__ import annotations

from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium.commands import Choose, Exhaust, Pick, PlayCard
from domain.imperium.engine import steps_frame
from domain.imperium.ops import development_cost
from domain.imperium.scoring import card_vp, score
from domain.imperium.state import ImperiumState
from tests.imperium.helpers import act, decision
from tests.imperium.positions import activate, hand, legal, put, resolve, tokens

MR = ["minoans", "romans"]


def _solstice(state: ImperiumState, seat: int, card: str) -> None:
    """Resolve the Solstice effect of ``card`` (as the end of a round does)."""
    (block,) = K.blocks(card, "solstice")
    resolve(state, steps_frame(seat, card, block.do))


def test_minoans_content_matches_the_component_list() -> None:
    """Matériel: "23 cartes Minoens" — power card, King Minos in the accession slot, 4 nation
    cards, 7 developments, 10 starting cards."""
    mino = C.NATIONS["minoans"]
    assert "minoans" in C.LEGENDS_NATIONS and mino.box == "legends"
    assert mino.accession == ("MIN2",) and len(mino.nation_deck) == 4
    assert len(mino.development) == 7 and len(mino.starting_deck) == 10


def test_pottery_stores_progress_then_cashes_it() -> None:
    """Nations : Minoens — "Gérez adroitement vos ressources pour fabriquer de magnifiques
    Poteries": at the Solstice, pay 2 materials to put 1 progress on Pottery; or abandon it and
    gain every progress on it."""
    state = activate(MR)
    put(state, 0, "play", "MIN16")
    me = state.seats[0]
    for _ in range(3):
        tokens(state, 0, materials=2, progress=0)
        _solstice(state, 0, "MIN16")
        assert decision(state) == "option"
        act(state, Choose(index=0))
        assert me.materials == 0 and me.progress == 0
    assert me.card_tokens == {"MIN16": 3}
    _solstice(state, 0, "MIN16")  # no materials left: abandoning is the only option
    assert "MIN16" in me.discard and me.progress == 3 and me.card_tokens == {}


def test_pottery_tokens_are_public_and_reset_when_played_again() -> None:
    """Tokens on a card are visible to every player; a card entering play again carries
    none."""
    from domain.imperium.game import ImperiumGame

    state = activate(MR)
    put(state, 0, "play", "MIN16")
    tokens(state, 0, materials=2, progress=0)
    _solstice(state, 0, "MIN16")
    act(state, Choose(index=0))
    view = ImperiumGame().view(state, 1)
    assert view.seats[0].card_tokens == {"MIN16": 1}  # type: ignore[attr-defined]
    put(state, 0, "hand", "MIN16")
    hand(state, 0, "MIN16", "MIN20")
    act(state, PlayCard(card="MIN16"))
    assert "MIN16" in state.seats[0].play and state.seats[0].card_tokens == {}


def test_pottery_icon_after_becoming_an_empire() -> None:
    """Nations : Minoens — Pottery shows the barbarian icon: in play it keeps working once you
    are an empire, but once abandoned it can no longer be played."""
    assert C.CARDS["MIN16"].state_icon == "barbarian"
    state = activate(MR)
    me = state.seats[0]
    put(state, 0, "play", "MIN16")
    me.empire = True
    tokens(state, 0, materials=2, progress=0)
    _solstice(state, 0, "MIN16")
    act(state, Choose(index=0))
    assert me.card_tokens == {"MIN16": 1}
    _solstice(state, 0, "MIN16")  # no materials: abandoned, its progress gained
    assert "MIN16" in me.discard and me.progress == 1
    hand(state, 0, "MIN16", "MIN20")
    assert PlayCard(card="MIN16") not in legal(state)
    me.empire = False
    assert PlayCard(card="MIN16") in legal(state)


def test_writing_system_archives_a_discarded_card_to_draw() -> None:
    """Nations : Minoens — "utilisez votre Système d'écriture pour consigner des cartes sans
    importance dans votre Histoire": exhaust, put a card of your discard pile into your
    history, draw a card."""
    state = activate(MR)
    put(state, 0, "play", "MIN12")
    put(state, 0, "discard", "MIN21")
    hand(state, 0, "MIN20")
    size = len(state.seats[0].hand)
    act(state, Exhaust(card="MIN12"))
    if decision(state) == "pick_history":
        act(state, Pick(card="MIN21"))
    me = state.seats[0]
    assert "MIN21" in me.history and len(me.hand) == size + 1


def test_architecture_lowers_the_progress_cost_of_developments() -> None:
    """Architecture (passive): developments cost 1 progress less (never below 0)."""
    state = activate(MR)
    assert development_cost(state, 0, "MIN6") == (3, 1, 2)
    state.seats[0].empire = True
    put(state, 0, "play", "MIN5")
    assert development_cost(state, 0, "MIN6") == (3, 1, 1)
    assert development_cost(state, 0, "MIN8") == (0, 4, 0)


def test_seal_stones_unplayable_score_progress() -> None:
    """Seal Stones: cannot be played; 1 VP per progress token (at most 10)."""
    state = activate(MR)
    hand(state, 0, "MIN9", "MIN20")
    assert PlayCard(card="MIN9") not in legal(state)
    tokens(state, 0, progress=4)
    assert card_vp(state, 0, "MIN9") == 4
    tokens(state, 0, progress=14)
    assert card_vp(state, 0, "MIN9") == 10 and score(state, 0)["progress"] == 14


def test_king_minos_develops_then_history() -> None:
    """King Minos (accession card): gain 1 progress, you may develop, then into history."""
    state = activate(MR)
    state.seats[0].empire = True
    hand(state, 0, "MIN2", "MIN20")
    tokens(state, 0, materials=0, population=4, progress=0)
    act(state, PlayCard(card="MIN2"))
    assert decision(state) == "option"
    act(state, Choose(index=0))
    if decision(state) == "pick_develop":
        act(state, Pick(card="MIN8"))
    if decision(state) == "payment":
        act(state, legal(state)[-1])  # 4 population (the progress is not spent)
    me = state.seats[0]
    assert "MIN8" in me.discard and "MIN2" in me.history and me.progress == 1

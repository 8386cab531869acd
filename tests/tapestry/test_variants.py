"""The rulebook's "VARIANTES" as ``tapestry/2`` options, with their new
decisions, their legal actions and the redaction of what stays private.

Whole games run through the kernel (:class:`tests.harness.Table`); single rules are checked
on built positions (:func:`tests.tapestry.helpers.table` switched to the variant).
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import make_bot
from domain.core import Chance, Event, MalformedCommand
from domain.registry import get_ruleset
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline, PayBonus
from domain.tapestry.engine import Ctx
from domain.tapestry.rules import tapestry_deck, tech_deck
from domain.tapestry.state import TapestryRules, TapestryState, TechOwned
from domain.tapestry.tracks import FULL, space_frames
from tests.harness import Table, play
from tests.tapestry.helpers import GAME, decision, table
from tests.tapestry.test_cards_support import answer, benefit, options


def _income_turn_1_keep(seed: bytes) -> tuple[Table, int]:
    """A 2-seat ``tapestry/2`` game with the variant, played until a seat must discard."""
    table = Table("tapestry", 2, seed, {"draw_two_tapestry": True})
    bots = {i: make_bot("random", seed + bytes([i])) for i in range(2)}
    while table.game.pending(table.match.state).decision != "keep_tapestry":
        seat = table.game.pending(table.match.state).seats[0]
        table.submit(seat, bots[seat].choose(table.game, table.match.state, seat))
    return table, table.game.pending(table.match.state).seats[0]


def test_income_turn_1_draws_two_tapestry_cards_and_keeps_one() -> None:
    """ "VARIANTES": « Lors du tour de Revenus 1, piochez 2 cartes Fresque au lieu de 1.
    Gardez-en 1 et défaussez l'autre. » The seat names the card it discards (its id)."""
    table, seat = _income_turn_1_keep(b"variant-draw")
    state = table.match.state
    hand = list(state.seats[seat].hand)
    assert len(hand) == 2
    listed = table.game.legal_actions(state, seat)
    assert listed == [Choose(index=c) for c in sorted(set(hand))]
    discard = listed[-1]
    assert isinstance(discard, Choose)
    table.submit(seat, discard)
    kept = list(hand)
    kept.remove(discard.index)
    assert table.match.state.seats[seat].hand[: len(kept)] == kept
    assert discard.index in table.match.state.tapestry_discard


def test_the_kept_tapestry_card_stays_private() -> None:
    """A kept card is private: the draw reaches the other seat without its cards, the pending
    decision carries no card id, and only the discarded card becomes public."""
    table, seat = _income_turn_1_keep(b"variant-private")
    other = 1 - seat
    game, state = table.game, table.match.state
    drawn = [table.decode(e) for e in table.envelopes if e.kind == "TapestryDrawn"]
    assert drawn and all(
        game.redact_event(state, e, other).cards == () for e in drawn if e.seat == seat
    )
    agenda = [table.decode(e) for e in table.envelopes if e.kind == "AgendaSet"][-1]
    top = agenda.frames[-1]
    assert top.kind == "keep_tapestry" and top.ints == (2,)
    assert game.view(state, other).seats[seat].hand is None
    assert game.legal_actions(state, other) == []


def test_without_the_variant_income_turn_1_draws_one_card() -> None:
    """The variant is off by default: no ``keep_tapestry`` decision in a whole game."""
    table = Table("tapestry", 2, b"variant-off")
    bots = {i: make_bot("random", bytes([i])) for i in range(2)}
    seen: set[str] = set()
    play(table, bots, before=lambda t, s, c: seen.add(t.game.pending(t.match.state).decision))
    assert "keep_tapestry" not in seen and table.is_over()


def _gain_civ_position(variant: bool) -> tuple[TapestryState, list[Event]]:
    state = table(3)
    state.rules = TapestryRules(revision=2, draw_two_civilizations=variant)
    events = benefit(state, 0, "gain_random_civilization")
    return state, events


def test_gaining_a_civilization_draws_two_and_keeps_one() -> None:
    """ "VARIANTES": « Chaque fois que vous piochez une civilisation, piochez-en 2, gardez-en 1
    et défaussez l'autre. » The discarded one goes back to the deck (it may be drawn again)."""
    state, events = _gain_civ_position(True)
    offered = [e for e in events if isinstance(e, ev.CivilizationsOffered)]
    assert len(offered) == 1 and len(set(offered[0].civilizations)) == 2
    assert decision(state) == "keep_civilization"
    choices = offered[0].civilizations
    assert options(state) == [Choose(index=c) for c in choices]
    answer(state, Choose(index=choices[1]))
    assert state.seats[0].civs[-1] == choices[1] and state.seats[0].civ_offer == []
    assert choices[0] not in state.civs_out


def test_the_civilizations_drawn_are_hidden_from_the_others() -> None:
    """The two civilizations drawn reach the other seats empty until the game ends; the
    other seats' view shows no offer."""
    state, events = _gain_civ_position(True)
    offered = next(e for e in events if isinstance(e, ev.CivilizationsOffered))
    assert GAME.redact_event(state, offered, 1).civilizations == ()
    assert GAME.redact_event(state, offered, None).civilizations == ()
    assert GAME.redact_event(state, offered, 0) == offered
    assert GAME.view(state, 1).seats[0].civ_offer is None
    assert GAME.view(state, 0).seats[0].civ_offer == offered.civilizations


def test_without_the_variant_one_civilization_is_gained_at_once() -> None:
    """Off: one civilization drawn and gained, no decision."""
    _, events = _gain_civ_position(False)
    assert [e for e in events if isinstance(e, ev.CivilizationGained)]
    assert not [e for e in events if isinstance(e, ev.CivilizationsOffered)]


@pytest.mark.parametrize(("variant", "cards"), [(True, 2), (False, 3)])
def test_nanotechnology_bonus_with_two_tech_cards(variant: bool, cards: int) -> None:
    """ "VARIANTES": « vous devez défausser 2 cartes Technologie (au lieu de 3) pour gagner le
    bonus de Nanotechnologie. » (technology space 11)."""
    state = table(2)
    state.rules = TapestryRules(revision=2, nanotechnology_two_cards=variant)
    state.seats[0].tech = [TechOwned(card=c) for c in sorted(C.TECH_CARDS)[:3]]
    ctx = Ctx(state, Chance(b"nano", 0))
    frames = space_frames(ctx, 0, 2, 11, FULL, "")
    bonus = frames[-1]
    assert bonus.kind == "bonus" and bonus.options == ("tech_card",) * cards


def test_removed_cards_never_come_out() -> None:
    """ "VARIANTES": « vous pouvez vous mettre d'accord pour retirer des cartes Fresque [...]
    ou des cartes Technologie ». Names or keys, English or French, any case."""
    game = get_ruleset("tapestry/2")
    options = game.decode_options(
        {"removed_tapestry_cards": ["Renaissance", "alliance"], "removed_tech_cards": ["radio"]}
    )
    state = game.initial(options, 2)
    removed = {c.id for c in C.TAPESTRY_CARDS.values() if c.key in ("renaissance", "alliance")}
    assert set(state.rules.removed_tapestry) == removed
    assert not removed & set(tapestry_deck(state))
    radio = next(c.id for c in C.TECH_CARDS.values() if c.name == "Radio")
    assert state.rules.removed_tech == (radio,) and radio not in tech_deck(state)
    for event in game.setup(state, Chance(b"removed", 0)):
        game.evolve(state, event)
    assert radio not in state.tech_display


def test_variants_are_options_of_tapestry_2_only() -> None:
    """``tapestry/1`` knows none of them: an unknown option is refused, naming it."""
    with pytest.raises(MalformedCommand, match=r"draw_two_tapestry.*True"):
        get_ruleset("tapestry/1").decode_options({"draw_two_tapestry": True})
    with pytest.raises(MalformedCommand, match="'foo'"):
        get_ruleset("tapestry/2").decode_options({"foo": 1})
    with pytest.raises(msgspec.ValidationError):
        get_ruleset("tapestry/2").decode_options({"draw_two_tapestry": "yes"})


def test_decline_is_not_offered_where_the_variant_forces_a_discard() -> None:
    """Keeping both cards is not an option: exactly one card goes."""
    table_, seat = _income_turn_1_keep(b"variant-no-decline")
    assert Decline() not in table_.game.legal_actions(table_.match.state, seat)
    assert PayBonus() not in table_.game.legal_actions(table_.match.state, seat)


def test_variant_games_run_to_the_end() -> None:
    """Every variant at once, whole games at 2 to 5 seats, no exception."""
    for seats in (2, 3, 4, 5):
        table_ = Table(
            "tapestry",
            seats,
            f"variants-{seats}".encode(),
            {
                "draw_two_tapestry": True,
                "draw_two_civilizations": True,
                "nanotechnology_two_cards": True,
                "removed_tapestry_cards": ["renaissance"],
                "removed_tech_cards": ["radio"],
                "island_start": True,
            },
        )
        bots = {i: make_bot("random", bytes([i, seats])) for i in range(seats)}
        play(table_, bots)
        assert table_.is_over()

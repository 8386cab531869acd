"""Card facts as the rules read them: filters, conditions, icon counts, playability helpers.

Everything here reads the content (:mod:`domain.imperium.content`) and the state; nothing
changes either. Filters and conditions follow ``effects_dsl.md`` §5 and §7.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from domain.core import RuleViolation
from domain.imperium import content as C
from domain.imperium.content_effects import (
    Block,
    Condition,
    CountsAs,
    DefinesZone,
    Filter,
    HandSize,
    Redirect,
    RemoveStateIcon,
    Step,
)
from domain.imperium.state import ImperiumState, SeatState

#: ``(state_icon)``: a card with no barbarian/empire icon.
SUITS_MARKET: tuple[str, ...] = ("uncivilised", "civilised", "region", "tributary")


def card(card_id: str) -> Any:
    """The content record of ``card_id`` (raises ``KeyError`` for an unknown id)."""
    return C.CARDS[card_id]


def name(card_id: str) -> str:
    """The English name of a card."""
    return str(card(card_id).name)


def suits(card_id: str) -> tuple[str, ...]:
    """The categories of a card (both for uncivilised+civilised cards)."""
    return tuple(card(card_id).suits)


def blocks(card_id: str, trigger: str) -> list[Block]:
    """The effect blocks of ``card_id`` with ``trigger``."""
    return [b for b in card(card_id).effects if b.trigger == trigger]


def static_rules(card_id: str) -> list[Any]:
    """The static rules of a card (``unplayable``, ``playable_only_if``...)."""
    return [b.rule for b in card(card_id).effects if b.trigger == "static"]


@cache
def icons(card_id: str) -> tuple[str, ...]:
    """Every icon printed on a card, repeated when printed twice (types, region types)."""
    record = card(card_id)
    return tuple(record.type_icons) + tuple(record.region_type_icons)


@cache
def vp_data(card_id: str) -> dict[str, Any]:
    """The card's VP record as plain data (``kind``, ``value``, ``cases``, ``terms``...)."""
    data: dict[str, Any] = msgspec.to_builtins(card(card_id).vp)
    return data


def icons_now(state: ImperiumState, card_id: str) -> tuple[str, ...]:
    """The icons ``card_id`` counts as showing now: printed ones, unless an effect makes it
    count as showing others until the end of the turn (``SeatState.treated``)."""
    printed = icons(card_id)
    for seat in state.seats:
        extra = seat.treated.get(card_id)
        if extra:
            kept = tuple(i for i in printed if i not in extra)
            added = tuple(
                i for i, n in sorted(extra.items()) for _ in range(max(n, printed.count(i)))
            )
            return kept + added
    return printed


def matches(state: ImperiumState, card_id: str, flt: Filter | None, slot: int = -1) -> bool:
    """``True`` when ``card_id`` satisfies ``flt`` (``slot``: its market slot, for tokens)."""
    if flt is None:
        return True
    record = card(card_id)
    if flt.suit is not None and flt.suit not in record.suits:
        return False
    if flt.type_icon is not None and flt.type_icon not in icons_now(state, card_id):
        return False
    if flt.state_icon is not None and record.state_icon != flt.state_icon:
        return False
    if flt.persistent is not None and bool(record.persistent) != flt.persistent:
        return False
    if flt.attack is not None and bool(record.attack) != flt.attack:
        return False
    if flt.vp_icon is not None and vp_data(card_id).get("kind") != flt.vp_icon:
        return False
    if flt.has_tokens is not None and (
        slot < 0 or getattr(state.market[slot], flt.has_tokens) <= 0
    ):
        return False
    if flt.ids and card_id not in flt.ids:  # a named card: its numbers decide
        return False
    if flt.name is not None and not flt.ids and record.name != flt.name:
        return False
    if flt.name_starts_with is not None and not str(record.name).startswith(flt.name_starts_with):
        return False
    if flt.not_ is not None and matches(state, card_id, flt.not_, slot):
        return False
    return not (flt.any_of and not any(matches(state, card_id, f, slot) for f in flt.any_of))


def icon_count(state: ImperiumState, card_id: str, flt: Filter | None) -> int:
    """How many times ``card_id`` counts for ``flt``: icons one by one, else 0 or 1."""
    if flt is None:
        return 1
    only_icons = flt.type_icon is not None and flt == Filter(type_icon=flt.type_icon)
    if only_icons:
        return icons_now(state, card_id).count(str(flt.type_icon))
    if flt.suit is not None and flt == Filter(suit=flt.suit):
        return counts_as(card_id, flt.suit) if matches(state, card_id, flt) else 0
    plain = flt.any_of and flt == Filter(any_of=flt.any_of)
    if plain and all(f.type_icon is not None and f == Filter(type_icon=f.type_icon)
                     for f in flt.any_of):  # fmt: skip
        wanted = {str(f.type_icon) for f in flt.any_of}
        return sum(1 for icon in icons_now(state, card_id) if icon in wanted)
    return 1 if matches(state, card_id, flt) else 0


def _weight(state: ImperiumState, card_id: str, flt: Filter | None) -> int:
    """How many cards matching ``flt`` ``card_id`` counts as (Grand Trunk Road: 2 regions)."""
    if flt is not None and flt.suit is not None and flt == Filter(suit=flt.suit):
        return icon_count(state, card_id, flt)
    return int(matches(state, card_id, flt))


@cache
def counts_as(card_id: str, suit: str) -> int:
    """How many cards of ``suit`` ``card_id`` counts as for other effects: its ``counts_as``
    passive (Grand Trunk Road: 2 regions, "Notes au sujet des cartes : Grande route"), else 1.
    """
    for block in blocks(card_id, "passive"):
        for step in block.do:
            if isinstance(step, CountsAs) and step.suit == suit:
                return int(step.count)
    return 1


def pick_weight(card_id: str, options: tuple[str, ...] | list[str]) -> int:
    """How many of the cards a pick asks for ``card_id`` stands for: its ``counts_as`` count
    when every candidate shows that suit (the pick is one of cards of that suit: Glory's
    "abandon 3 regions"), else 1 (also for choices that are not cards: ``deck:<suit>``)."""
    if card_id not in C.CARDS or any(c not in C.CARDS for c in options):
        return 1
    for block in blocks(card_id, "passive"):
        for step in block.do:
            if isinstance(step, CountsAs) and all(step.suit in suits(c) for c in options):
                return int(step.count)
    return 1


def play_area(seat: SeatState) -> list[str]:
    """The cards in a seat's play area (the power card is always in play)."""
    return [seat.power, *seat.play]


def in_history_ref(seat: SeatState, ids: tuple[str, ...], ref_name: str) -> bool:
    """``True`` when a card named ``ref_name`` (or one of ``ids``) is in the history."""
    return any((c in ids) or name(c) == ref_name for c in seat.history)


def in_play_ref(seat: SeatState, ids: tuple[str, ...], ref_name: str) -> bool:
    """``True`` when a card named ``ref_name`` (or one of ``ids``) is in the play area."""
    return any((c in ids) or name(c) == ref_name for c in seat.play)


def condition(state: ImperiumState, seat_index: int, cond: Condition | None, card: str = ""
              ) -> bool:  # fmt: skip
    """Whether ``cond`` holds for ``seat_index`` (``effects_dsl.md`` §7); ``card``: the card
    whose effect it conditions (for ``garrisoned_here`` counts)."""
    if cond is None:
        return True
    seat = state.seats[seat_index]
    if cond.state is not None and seat.empire != (cond.state == "empire"):
        return False
    if cond.in_play is not None and not in_play_ref(seat, cond.in_play.ids, cond.in_play.name):
        return False
    if cond.in_history is not None and not in_history_ref(
        seat, cond.in_history.ids, cond.in_history.name
    ):
        return False
    if cond.all_ and not all(condition(state, seat_index, c) for c in cond.all_):
        return False
    if cond.count_at_least is not None:
        need = cond.count_at_least
        pool = seat.garrison.get(card, []) if need.zone == "garrisoned_here" else play_area(seat)
        found = sum(_weight(state, c, need.filter) for c in pool)
        if found < need.n:
            return False
    if cond.resources_at_least is not None:
        want = cond.resources_at_least
        if seat.materials < want.materials or seat.population < want.population:
            return False
        if seat.progress < want.progress:
            return False
    if cond.revealed_matches_declared is not None:
        declared = state.memo.declared
        hit = bool(declared) and any(declared in suits(c) for c in state.memo.revealed)
        if hit != cond.revealed_matches_declared:
            return False
    lacks = cond.previous_abandoned_lacks  # Mining: the card just abandoned lacks an icon
    if lacks is not None:
        abandoned = state.memo.last_abandoned
        if not abandoned or matches(state, abandoned, lacks):
            return False
    exiled = cond.previous_exiled_matches
    if exiled is not None and not any(matches(state, c, exiled) for c in state.memo.exiled):
        return False
    if cond.no_active_quest is not None and bool(active_quest(seat)) == cond.no_active_quest:
        return False
    if cond.received_from_you is not None and not any(
        given.split(":", 1)[0] == str(seat_index)
        and matches(state, given.split(":", 1)[1], cond.received_from_you)
        for given in state.memo.given
    ):
        return False
    unsupported = [key for key in _LEGENDS_CONDITIONS if getattr(cond, key) is not None]
    if unsupported:
        raise RuleViolation(
            "NOT_IMPLEMENTED", f"The condition {unsupported[0]!r} is not implemented yet."
        )
    failed = cond.failed_previous_step
    return failed is None or (seat_index in state.memo.failed) == failed


#: condition keys only Legends cards use (a Classics game never meets them).
_LEGENDS_CONDITIONS: tuple[str, ...] = ()


def passive_steps(state: ImperiumState, seat_index: int) -> list[tuple[str, Step]]:
    """``(card, step)`` for every passive modifier step active for a seat (no ``when``).

    Raises ``NOT_IMPLEMENTED`` for the modifiers only Legends cards have (zones) while no
    rule reads them."""
    seat = state.seats[seat_index]
    found: list[tuple[str, Step]] = []
    for card_id in play_area(seat):
        for block in blocks(card_id, "passive"):
            if block.when is None:
                found.extend((card_id, step) for step in block.do)
    return found


def quest_hosts(seat: SeatState) -> list[str]:
    """Cards of the play area defining the active-quest zone (King Arthur's Court:
    ``defines_zone``): the development card garrisoned under one is the active quest."""
    return [
        c for c in play_area(seat)
        if any(isinstance(s, DefinesZone) and s.zone == "active_quest"
               for b in blocks(c, "passive") for s in b.do)
    ]  # fmt: skip


def active_quest(seat: SeatState) -> list[str]:
    """The Arthurians' active quest (at most one card; "Les Arthuriens et leurs quêtes")."""
    return [c for host in quest_hosts(seat) for c in seat.garrison.get(host, [])]


def hand_size(state: ImperiumState, seat_index: int) -> int:
    """The hand-size limit: 5 plus passive increases ("Nettoyage", 4)."""
    bonus = sum(s.delta for _, s in passive_steps(state, seat_index) if isinstance(s, HandSize))
    return 5 + bonus


def effective_state_icon(state: ImperiumState, seat_index: int, card_id: str) -> str | None:
    """The state icon that counts for playing ``card_id`` (passives may remove it; Combs makes
    the next card played this turn ignore it)."""
    icon = card(card_id).state_icon
    if icon is None or state.seats[seat_index].ignore_icon == icon:
        return None
    for _, step in passive_steps(state, seat_index):
        if isinstance(step, RemoveStateIcon) and step.icon == icon:
            ref = step.cards
            if card(card_id).name == ref.name or card_id in ref.ids:
                return None
    return str(icon)


def history_zone(state: ImperiumState, seat_index: int) -> str:
    """Where a card archived by this seat goes: history, or discard for nations without one
    (Vikings: ``redirect`` passive, "Archiver une carte")."""
    for _, step in passive_steps(state, seat_index):
        if isinstance(step, Redirect) and step.instead_of == "history":
            return f"{seat_index}:discard"
    return f"{seat_index}:history"


def unplayable(card_id: str) -> bool:
    """``True`` for cards with the static rule ``unplayable``."""
    return "unplayable" in static_rules(card_id)


def can_garrison(card_id: str) -> bool:
    """``False`` for cards with the static rule ``cannot_be_garrisoned``."""
    return "cannot_be_garrisoned" not in static_rules(card_id)


def scored_cards(seat: SeatState) -> list[str]:
    """Every card a seat scores: hand, play area and power card, deck, discard, history (or
    submerged pile) and garrisoned cards ("Décompte", "Submergée"); never the nation deck nor
    the development area. A seat not yet prepared at setup has no power card."""
    cards = [seat.power] if seat.power else []
    cards += [*seat.hand, *seat.play, *seat.deck, *seat.deck_top, *seat.discard]
    cards += seat.history + seat.submerged
    for host in sorted(seat.garrison):
        cards += seat.garrison[host]
    return cards

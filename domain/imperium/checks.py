"""What an effect can do now: costs that can be paid, steps that can be done, move candidates.

The checks the interpreter (:mod:`domain.imperium.steps`) and the turn logic use before
offering a card, an option or an exhaust effect: :func:`payable` (cost steps can be done in
full), :func:`feasible` (mandatory costs and :data:`POSSIBLE` checks), :func:`candidates` (the
cards a move step may choose) and :func:`implemented` (no step this engine cannot resolve).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.imperium import cards as K
from domain.imperium import content_effects as E
from domain.imperium.discard_relief import relief
from domain.imperium.nation_rules import rules_for
from domain.imperium.ops import can_pay
from domain.imperium.picks import zone_cards
from domain.imperium.state import ImperiumState

#: step types this engine does not resolve yet (a card using one is never legal to use).
#: Only Legends cards use them; every Classics step is resolved.
NOT_IMPLEMENTED: tuple[type, ...] = ()
#: ``(card, step) -> bool``: whether a step can be done at all now (an option, a card or an
#: exhaust effect that cannot is not offered; filled by :mod:`domain.imperium.special`).
POSSIBLE: dict[type, Callable[[ImperiumState, int, str, Any], bool]] = {}


def unsupported(step: Any) -> bool:
    """Parameters only Legends cards use (the handlers below do not read them)."""
    checks: dict[type, Callable[[Any], bool]] = {
        E.Innovate: lambda s: s.any_category != (s.filter is not None),
        E.Reveal: lambda s: s.pile not in (None, "main_deck"),
        E.Look: lambda s: s.pile == "main_deck",
        E.Find: lambda s: s.to not in ("hand", "discard", "history", "unspecified"),
        E.PlaceTokens: lambda s: s.on not in ("market_card", "self")
        or (s.on == "self" and bool(s.amount.materials or s.amount.population)),
        E.Recover: lambda s: s.to not in ("hand", "deck_top"),
        E.Garrison: lambda s: s.on not in (None, "self"),
        E.Gain: lambda s: any(_odd_amount(getattr(s, r))
                              for r in ("materials", "population", "progress", "actions")),
        E.Draw: lambda s: s.per is not None and _odd_selector(s.per),
    }  # fmt: skip
    check = checks.get(type(step))
    return isinstance(step, NOT_IMPLEMENTED) or (check is not None and bool(check(step)))


def _odd_amount(amount: Any) -> bool:
    return isinstance(amount, E.Per) and _odd_selector(amount.per)


def _odd_selector(sel: E.Selector) -> bool:
    """Selectors :func:`amount_count` does not count (Legends: quests, unrest returned)."""
    return sel.zone == "active_quest"


def implemented(steps: tuple[Any, ...]) -> bool:
    """``False`` when any (nested) step is one of :data:`NOT_IMPLEMENTED` (or uses a Legends
    parameter this engine does not resolve yet)."""
    return not any(unsupported(s) for s in E.walk_steps(steps))


def amount_count(state: ImperiumState, seat: int, amount: Any, card: str) -> int:
    """How many a step's ``amount`` is for ``seat`` now: a number as it is, or what a named
    amount counts (``all_on_this_card``: the tokens on ``card``; a ``per`` amount: so many
    per thing counted)."""
    if isinstance(amount, int):
        return amount
    if amount == "all_on_this_card":
        return state.seats[seat].card_tokens.get(card, 0)
    if isinstance(amount, E.Per):
        sel = amount.per
        if sel.count == "cards_abandoned_by_previous_step":
            return state.memo.abandoned * amount.each
        if sel.count == "unrest_returned_by_previous_step":
            return state.memo.returned * amount.each
        owner = state.seats[seat]
        cards = K.play_area(owner) if sel.zone == "play_area" else []
        if sel.zone in ("garrisoned", "garrisoned_here"):
            hosts = [card] if sel.zone == "garrisoned_here" else sorted(owner.garrison)
            cards = [c for h in hosts for c in owner.garrison.get(h, [])]
        return sum(K.icon_count(state, c, sel.filter) for c in cards) * amount.each
    return 0


# -- costs ---------------------------------------------------------------------------------------
def payable(state: ImperiumState, seat: int, card: str, steps: tuple[Any, ...]) -> bool:
    """``True`` when cost steps ``steps`` can be done in full by ``seat`` now."""
    owner = state.seats[seat]
    need = [0, 0, 0]
    for step in steps:
        if isinstance(step, E.Pay):
            for i, res in enumerate(("materials", "population", "progress")):
                value = getattr(step, res)
                need[i] += value if isinstance(value, int) else step.min if value == "all" else 0
            if isinstance(step.actions, int) and owner.actions < step.actions:
                return False
        elif isinstance(step, E.Choose):
            if not any(payable(state, seat, card, opt) for opt in step.options):
                return False
        elif isinstance(step, E.CostThen):
            if not payable(state, seat, card, step.cost):
                return False
        elif isinstance(step, (E.Discard, E.PutOnDeck, E.History, E.Abandon, E.Recall,
                               E.ReturnUnrest, E.Submerge)):  # fmt: skip
            if step.card == "self" and isinstance(step, (E.Abandon, E.Recall)):
                if card not in owner.play:
                    return False
                continue
            if step.card == "self" or isinstance(step.card, E.Ref):
                if (
                    isinstance(step.card, E.Ref)
                    and not K.in_play_ref(owner, step.card.ids, step.card.name)
                    and not any(c in step.card.ids for c in zone_cards(state, seat, "garrisoned"))
                ):
                    return False
                continue
            want = step.count if isinstance(step.count, int) else 0
            if isinstance(step, E.Discard):
                want -= relief(state, seat, step.filter)
            found = candidates(state, seat, card, step)
            if sum(K.pick_weight(c, found) for c in found) < want:
                return False
        elif isinstance(step, E.Take) and step.pile == "unrest" and not state.unrest:
            return False
    return can_pay(owner, *need)


def feasible(state: ImperiumState, seat: int, card: str, steps: tuple[Any, ...]) -> bool:
    """``True`` when an effect can be resolved: its mandatory costs can be paid."""
    for step in steps:
        if isinstance(step, E.Pay) and not payable(state, seat, card, (step,)):
            return False
        if isinstance(step, E.CostThen) and not (
            payable(state, seat, card, step.cost)
            and all(possible(state, seat, card, s) for s in step.then)
        ):
            return False
        if not possible(state, seat, card, step):
            return False
        if isinstance(step, E.Choose) and not any(
            feasible(state, seat, card, opt) for opt in step.options
        ):
            return False
    return True


def possible(state: ImperiumState, seat: int, card: str, step: Any) -> bool:
    """``False`` when ``step`` is one that :data:`POSSIBLE` says cannot be done now."""
    check = POSSIBLE.get(type(step))
    return check is None or check(state, seat, card, step)


def candidates(state: ImperiumState, seat: int, card: str, step: Any) -> list[str]:
    """Cards a move step may choose (hand, play area, discard... as the step says)."""
    owner = state.seats[seat]
    flt = getattr(step, "filter", None)
    if isinstance(step, (E.Abandon, E.Recall)) and step.from_ is not None:
        pool = zone_cards(state, seat, step.from_, card)  # Viviane: a knight garrisoned here
    elif isinstance(step, E.Abandon) and step.garrisoned_in is not None:  # Myrddin Wyllt
        pool = [c for h in owner.play if K.matches(state, h, step.garrisoned_in)
                for c in owner.garrison.get(h, [])]  # fmt: skip
    elif isinstance(step, (E.Abandon, E.Recall)):
        pool = [c for c in owner.play if K.card(c).persistent]
        hosting = getattr(step, "hosting", None)  # King Arthur: a region hosting a knight
        if hosting is not None:
            pool = [
                h
                for h in pool
                if any(K.matches(state, c, hosting) for c in owner.garrison.get(h, []))
            ]
    elif isinstance(step, E.ReturnUnrest):
        zones = step.from_ or "hand"
        pool = [c for c in zone_cards(state, seat, zones, card) if "unrest" in K.suits(c)]
    elif isinstance(step, E.Discard):
        if step.from_ == "just_drawn":
            pool = [c for c in state.memo.just_drawn if c in owner.hand]
        else:
            pool = list(owner.hand)
    elif isinstance(step, E.Garrison):
        pool = [c for c in zone_cards(state, seat, step.from_ or "hand", card)
                if K.can_garrison(c)]  # fmt: skip
    else:
        zones = getattr(step, "from_", None) or "hand"
        pool = zone_cards(state, seat, zones, card)
    pool = [c for c in pool if c != card or isinstance(step, (E.Abandon, E.Recall))]
    exclude = getattr(step, "except_", None)  # Twrch Trwyth: "unless it is the Graal"
    if exclude is not None:
        pool = [c for c in pool if c not in exclude.ids and K.name(c) != exclude.name]
    rules = rules_for(owner.nation)
    return [c for c in pool if K.matches(state, c, flt) and rules.movable(state, seat, c)]

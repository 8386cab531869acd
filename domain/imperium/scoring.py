"""Scoring ("Décompte") and collapse ("Effondrement").

Each progress token is worth 1 VP. Scored cards (hand, play area with the power card, deck,
discard, history, garrisoned cards) give fixed, negative, conditional (by where the card is)
or variable VP, a variable card never more than 10. On collapse the seat with the fewest
unrest cards (hand, play area, deck, discard, history) wins; tied seats compare scores.

``game_end`` effects (Sumerians: return up to 2 unrest cards) resolve first, automatically:
returning an unrest card never costs its owner points, so the engine returns as many as it can
(hand, play area, discard, deck, history in that order) — an assumption recorded in the report.
"""

from __future__ import annotations

from typing import Any

from domain.imperium import cards as K
from domain.imperium import events as ev
from domain.imperium.content_effects import ReturnUnrest, UpTo, walk_steps
from domain.imperium.engine import Ctx
from domain.imperium.ops import move, z
from domain.imperium.state import ImperiumState, SeatState

CAP = 10


def _icon_total(state: ImperiumState, cards: list[str], names: list[str]) -> int:
    total = 0
    for card in cards:
        suits = K.suits(card)
        icons = K.icons(card)
        for icon in names:
            total += suits.count(icon) + icons.count(icon)
    return total


def _term_count(state: ImperiumState, seat: int, card: str, of: dict[str, Any]) -> int:
    owner = state.seats[seat]
    if "resource" in of:
        return owner.tokens(of["resource"])
    if of.get("icons"):
        pool = K.play_area(owner) if of.get("zone") == "play_area" else K.scored_cards(owner)
        return _icon_total(state, pool, list(of["icons"]))
    if of.get("players"):  # Sacred Grove: other players with fewer tokens than you
        resource = of["players"]["with_fewer"]
        mine = owner.tokens(resource)
        return sum(1 for i, s in enumerate(state.seats) if i != seat and s.tokens(resource) < mine)
    spec = of.get("cards") or {}
    zone = spec.get("zone", "scored")
    if zone == "scored":
        pool = K.scored_cards(owner)
    elif zone == "play_area":
        pool = K.play_area(owner)
    elif zone == "history":
        pool = list(owner.history)
    elif zone == "garrisoned_here":
        pool = list(owner.garrison.get(card, []))
    elif zone == "exile_pile":  # Monastery: every exiled card, whoever exiled it
        pool = list(state.exile)
    else:
        pool = [c for i, s in enumerate(state.seats) if i != seat for c in K.scored_cards(s)]
    flt = spec.get("filter")
    if flt is None:
        return len(pool)
    return sum(1 for c in pool if _plain_match(c, flt))


def _plain_match(card: str, flt: dict[str, Any]) -> bool:
    record = K.card(card)
    if "suit" in flt and flt["suit"] not in record.suits:
        return False
    if "vp_icon" in flt and K.vp_data(card).get("kind") != flt["vp_icon"]:
        return False
    if "persistent" in flt and bool(record.persistent) != flt["persistent"]:
        return False
    if "name_starts_with" in flt and not record.name.startswith(flt["name_starts_with"]):
        return False
    return not ("not" in flt and _plain_match(card, flt["not"]))


def card_vp(state: ImperiumState, seat: int, card: str) -> int:
    """The VP ``card`` gives ``seat`` where it lies now."""
    vp = K.vp_data(card)
    kind = vp.get("kind", "none")
    owner = state.seats[seat]
    if kind in ("fixed", "negative"):
        return int(vp.get("value", 0))
    if kind in ("conditional", "negative_conditional"):
        if (
            state.revision >= 2
            and card in owner.submerged
            and any(case["where"] == "history" for case in vp.get("cases", []))
        ):
            # "Submergée": "Les cartes qui rapportent des points quand elles sont dans votre
            # pile Histoire n'en rapportent aucun quand elles sont dans votre pile Submersion."
            return 0
        for case in vp.get("cases", []):
            if _lies(owner, card, case["where"]):
                return int(case["value"])
        return int(vp.get("otherwise", 0))
    if kind == "variable":
        total = 0
        for term in vp.get("terms", []):
            count = _term_count(state, seat, card, term["of"])
            total += term["vp_each"] * (count // max(1, term["per_count"]))
        return min(CAP, total)
    return 0


def _lies(owner: SeatState, card: str, where: str) -> bool:
    """Whether ``card`` ends the game ``where`` (a conditional VP case): in the history, in
    the play area, garrisoned under another card, or anywhere but the play area."""
    if where == "history":
        return card in owner.history
    if where == "garrisoned":
        return any(card in cards for cards in owner.garrison.values())
    in_play = card in K.play_area(owner)
    return in_play if where == "play_area" else not in_play


def score(state: ImperiumState, seat: int) -> dict[str, int]:
    """``seat``'s score sheet: ``progress``, ``cards`` and ``total``."""
    owner = state.seats[seat]
    cards = sum(card_vp(state, seat, c) for c in K.scored_cards(owner))
    return {"progress": owner.progress, "cards": cards, "total": owner.progress + cards}


def unrest_count(state: ImperiumState, seat: int) -> int:
    """Unrest cards a seat holds for collapse ("Effondrement": "Comptez le nombre de cartes
    [Instabilité] de votre main, de votre zone de jeu, de votre deck, de votre défausse et de
    votre Histoire").

    ``imperium-classics/1`` counts exactly those piles. ``imperium/2`` counts every unrest
    card the seat holds: cards garrisoned under a card of its play area are in its play area,
    and the Atlanteans' submerged pile is their History ("Au lieu d'une pile Histoire, les
    Atlantes ont une pile Submersion"); ``rulings.py#collapse_counts_every_unrest``.
    From ``imperium/5`` a card garrisoned (reserved) under another is no longer counted:
    « Une carte réservée n'est pas considérée comme étant dans votre zone de jeu »
    (MOTS-CLEFS, Réserver); the submerged pile still is.
    """
    owner = state.seats[seat]
    pool = [*owner.hand, *owner.play, *owner.deck, *owner.deck_top, *owner.discard,
            *owner.history]  # fmt: skip
    if state.revision >= 2:
        pool += owner.submerged
    if 2 <= state.revision < 5:
        for host in sorted(owner.garrison):
            pool += owner.garrison[host]
    return sum(1 for c in pool if "unrest" in K.suits(c))


def _game_end_effects(ctx: Ctx) -> None:
    for seat, owner in enumerate(ctx.state.seats):
        for card in K.scored_cards(owner):
            for block in K.blocks(card, "game_end"):
                for step in walk_steps(block.do):
                    if isinstance(step, ReturnUnrest):
                        count = step.count.up_to if isinstance(step.count, UpTo) else 1
                        _return_unrest(ctx, seat, int(count) if isinstance(count, int) else 1)


def _return_unrest(ctx: Ctx, seat: int, count: int) -> None:
    owner = ctx.state.seats[seat]
    for zone in ("hand", "play", "discard", "deck", "deck_top", "history"):
        for card in list(getattr(owner, zone)):
            if count and "unrest" in K.suits(card):
                move(ctx, seat, card, z(seat, zone), "unrest")
                count -= 1


def finish_multiplayer(ctx: Ctx, collapse: bool) -> None:
    """Resolve game-end effects, score every seat, and end a multiplayer game."""
    state = ctx.state
    _game_end_effects(ctx)
    sheets = [score(state, s) for s in range(state.n)]
    totals = tuple(sheet["total"] for sheet in sheets)
    contenders = list(range(state.n))
    if collapse:
        fewest = min(unrest_count(state, s) for s in contenders)
        contenders = [s for s in contenders if unrest_count(state, s) == fewest]
    best = max(totals[s] for s in contenders)
    winners = tuple(s for s in contenders if totals[s] == best)
    for seat, sheet in enumerate(sheets):
        sheet["unrest"] = unrest_count(state, seat)
    ctx.emit(ev.GameEnded(scores=totals, winners=winners, collapse=collapse,
                          details=tuple(sheets)))  # fmt: skip

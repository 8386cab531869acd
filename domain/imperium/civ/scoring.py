"""The end of a solo game ("DÉCOMPTE" and "EFFONDREMENT", solo).

The human scores as in a multiplayer game. The C.I.V.: 1 VP per progress token, 1 VP per 10
materials and population together (Souverain, Suzerain: per 5), and its cards in hand, play
area, deck, discard and history (not its power card, not its dynasty deck): fixed and negative
VP as printed, conditional cards their highest value, variable cards 5. The human wins only
with more VP than the C.I.V. (a tie goes to the C.I.V.); a collapse is a loss for the human.
"""

from __future__ import annotations

from domain.imperium import cards as K
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ.events import CivScored
from domain.imperium.content_effects import ReturnUnrest, UpTo, walk_steps
from domain.imperium.engine import Ctx
from domain.imperium.ops import move, z
from domain.imperium.scoring import score, unrest_count
from domain.imperium.state import ImperiumState


def card_value(card: str) -> int:
    """The VP one of its cards gives the C.I.V."""
    vp = K.vp_data(card)
    kind = vp.get("kind", "none")
    if kind in ("fixed", "negative"):
        return int(vp.get("value", 0))
    if kind in ("conditional", "negative_conditional"):
        values = [int(c["value"]) for c in vp.get("cases", [])] + [int(vp.get("otherwise", 0))]
        return max(values)
    return 5 if kind == "variable" else 0


def civ_sheet(state: ImperiumState) -> dict[str, int]:
    """The C.I.V.'s score sheet: ``progress``, ``tokens``, ``cards``, ``total``."""
    civ = state.civ
    assert civ is not None
    seat = state.seats[CIV]
    per = S.level(civ.level).tokens_per_vp
    cards = [*seat.hand, *seat.play, *seat.deck, *seat.deck_top, *seat.discard, *seat.history]
    sheet = {
        "progress": seat.progress,
        "tokens": (seat.materials + seat.population) // per,
        "cards": sum(card_value(c) for c in cards),
    }
    sheet["total"] = sum(sheet.values())
    return sheet


def _human_game_end(ctx: Ctx) -> None:
    """The human's ``game_end`` effects (the C.I.V. resolves no card text)."""
    owner = ctx.state.seats[0]
    for card in K.scored_cards(owner):
        for block in K.blocks(card, "game_end"):
            for step in walk_steps(block.do):
                if isinstance(step, ReturnUnrest):
                    count = step.count.up_to if isinstance(step.count, UpTo) else 1
                    left = int(count) if isinstance(count, int) else 1
                    for zone in ("hand", "play", "discard", "deck", "deck_top", "history"):
                        for other in list(getattr(owner, zone)):
                            if left and "unrest" in K.suits(other):
                                move(ctx, 0, other, z(0, zone), "unrest")
                                left -= 1


def civ_finish(ctx: Ctx, collapse: bool) -> None:
    """Score both parties and end the game."""
    state = ctx.state
    if not collapse:
        _human_game_end(ctx)
    human = score(state, 0)
    human["unrest"] = unrest_count(state, 0)
    civ = civ_sheet(state)
    civ_wins = collapse or human["total"] <= civ["total"]
    ctx.emit(CivScored(score=civ["total"], details=civ, winner=civ_wins))
    ctx.emit(ev.GameEnded(scores=(human["total"],), winners=() if civ_wins else (0,),
                          collapse=collapse, details=(human,)))  # fmt: skip


def public_score(state: ImperiumState) -> int:
    """The C.I.V.'s score as everyone can count it while playing (progress, tokens, its cards
    in public zones: play area, discard, history of revealed cards)."""
    civ = state.civ
    if civ is None:
        return 0
    if civ.score is not None:
        return civ.score
    seat = state.seats[CIV]
    per = S.level(civ.level).tokens_per_vp
    cards = [*seat.play, *seat.discard, *seat.history]
    return (
        seat.progress
        + (seat.materials + seat.population) // per
        + sum(card_value(c) for c in cards)
    )

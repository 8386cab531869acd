"""Elder Ones (Anciens, Fantasies & Futures): a civilization that plays on after its fifth
income turn.

Rules (facts folder ``civilizations.json#42``):

* income turns 2-4 (step 1): gain 1 resource of your choice or 2 tapestry cards
  (the content's first slot, a ``one_of``);
* income turn 5 (step 1): discard up to 6 tapestry cards from your hand, gaining 2 resources
  of your choice per card (:data:`DISCARD`: ``Choose(index=card)`` one card at a time, or
  ``Decline`` to stop);
* after income turn 5 you go on taking advance turns (no income turn any more, no Trap or
  other response card played): ``rules.PLAYS_ON`` is set at the end of that income turn. While
  you play on, the THIS ERA card on top of era 4 stays in force, and each landmark you gain
  scores 10 VP (:data:`LANDMARK_VP`). Your game ends when you can no longer take an advance
  turn (``turns``: the seat finishes instead of starting a turn).

Rebalancing: the rulebook's page ("RÉÉQUILIBRAGE DES CIVILISATIONS") has no ANCIENS entry:
none.

Assumed: advance turns go on as long as one is possible (the mat: "The game ends for you when
you are no longer able to take an advance turn"); the THIS ERA card in force is the top card
of the era-4 slot, as the aid's "until your next income turn" would otherwise end it.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, has_civ, set_tokens
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.rules import PLAYS_ON, gain, plays_on
from domain.tapestry.state import Frame, TapestryState

KEY = "elder_ones"
DISCARD = "elder_ones_discard"
#: tapestry cards that may be discarded at income turn 5, and resources gained per card.
MAX_DISCARDS = 6
RESOURCES_PER_CARD = 2
#: VP for each landmark gained while playing on after income turn 5.
LANDMARK_VP = 10


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if era < 5:
        ctx.push(expr_frame(seat, C.CIVILIZATIONS[civ_id(KEY)].slots[0], f"civ:{KEY}"))
    else:
        ctx.push(Frame(kind=DISCARD, seat=seat, ints=(MAX_DISCARDS,), source=f"civ:{KEY}"))


def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    """End of income turn 5: the Elder Ones play on (unless the seat held the Merfolk first:
    :func:`~domain.tapestry.civs.play_on_mat`)."""
    if era >= 5 and civs.play_on_mat(ctx.state, seat) == KEY:
        set_tokens(ctx, seat, PLAYS_ON, [1])


civs.INCOME[KEY] = _income
civs.AFTER_INCOME.append(_after_income)


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """A card of the hand to discard (its id), or ``Decline``; nothing once 6 are gone."""
    if top.ints[0] <= 0:
        return []
    hand = state.seats[top.seat].hand
    return [*(Choose(index=c) for c in sorted(set(hand))), Decline()]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=(command.index,)))
    ctx.push(
        expr_frame(top.seat, gain("gain_any_resource", RESOURCES_PER_CARD), f"civ:{KEY}"),
        Frame(kind=DISCARD, seat=top.seat, ints=(top.ints[0] - 1,), source=f"civ:{KEY}"),
    )


DECISIONS[DISCARD] = (_options, _answer)


def _after_emit(ctx: Ctx, event: Event) -> None:
    """A landmark gained while playing on scores 10 VP."""
    if (
        isinstance(event, ev.LandmarkClaimed)
        and plays_on(ctx.state.seats[event.seat])
        and has_civ(ctx.state, event.seat, KEY)
    ):
        score(ctx, event.seat, LANDMARK_VP, f"civ:{KEY}")


AFTER_EMIT.append(_after_emit)

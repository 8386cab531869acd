"""Gamblers (Joueurs de Casino, Arts & Architecture): three tapestry cards revealed, one
WHEN PLAYED card played from them.

Rules (facts folder ``civilizations.json#22``, its ``_notes`` and README known gap 13): at
income turns 2-4 (step 1, the civilization's ability) — and, for a starting Gambler, once
more at the end of income turn 1 — reveal 3 tapestry cards from the deck. Play one of them that
has a WHEN PLAYED ability over the current era's slot (income turn 1: Maker of Fire) and
resolve it (:data:`DECISION`: ``PlayTapestry``); when none of them has one, keep one of them in
hand instead (``Choose(index=card)``). The other revealed cards are discarded.

Rebalancing: none ("RÉÉQUILIBRAGE DES CIVILISATIONS": JOUEURS DE CASINO under "Pas de
changement"); the facts folder's Adjustment-pack wording (2 cards) is not the rulebook's.

Assumed: the revealed cards are drawn like any tapestry card (an empty deck is rebuilt from
the discards; fewer cards when none are left) and pass through the hand until the choice is
made, so the viewers of other seats see them when played or discarded; "the era slot" of
income turns 2-4 is the new era's slot, which the card played at step 2 then covers (as Maker
of Fire is the era-1 slot at income turn 1).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.cards import play, playable, slot_era
from domain.tapestry.civ_heralds import when_played
from domain.tapestry.commands import Choose, PlayTapestry
from domain.tapestry.engine import DECISIONS, Ctx
from domain.tapestry.gains import draw_tapestry
from domain.tapestry.state import Frame, TapestryState

KEY = "gamblers"
DECISION = "gamblers"
#: tapestry cards revealed each time.
REVEALED = 3
#: income turns whose step 1 uses the ability (income turn 1: at its end, starting civ only).
INCOME_TURNS: tuple[int, ...] = (2, 3, 4)


def _gamble(ctx: Ctx, seat: int) -> None:
    """Reveal the cards and ask which to play (or keep)."""
    era = slot_era(ctx.state.seats[seat])
    revealed = draw_tapestry(ctx, seat, REVEALED)
    if revealed:
        ctx.push(Frame(kind=DECISION, seat=seat, ints=(era, *revealed), source=f"civ:{KEY}"))


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if era in INCOME_TURNS:
        _gamble(ctx, seat)


def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    """End of income turn 1 of a starting Gambler: the ability, over Maker of Fire."""
    player = ctx.state.seats[seat]
    if era == 1 and player.civs and player.civs[0] == civs.civ_id(KEY):
        _gamble(ctx, seat)


civs.INCOME[KEY] = _income
civs.AFTER_INCOME.append(_after_income)


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """A revealed WHEN PLAYED card to play; when there is none, a revealed card to keep."""
    revealed = sorted(set(top.ints[1:]))
    hand = state.seats[top.seat].hand
    found: list[Command] = [
        PlayTapestry(card=c) for c in revealed if c in hand and when_played(c) and playable(c)
    ]
    if found:
        return found
    return [Choose(index=c) for c in revealed if c in hand]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    seat, era = top.seat, top.ints[0]
    rest = list(top.ints[1:])
    if isinstance(command, PlayTapestry):
        rest.remove(command.card)
    else:
        assert isinstance(command, Choose)
        rest.remove(command.index)
    if rest:
        ctx.emit(ev.TapestryDiscarded(seat=seat, cards=tuple(rest)))
    if isinstance(command, PlayTapestry):
        play(ctx, seat, command.card, era)


DECISIONS[DECISION] = (_options, _answer)

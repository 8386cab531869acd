"""Merfolk (Sirènes, Fantasies & Futures): tapestry cards sunk under the mat, then spent.

Rules (facts folder ``civilizations.json#46``: ``effect_summary``,
``after_income_5_discard_vp_each``, ``hand_kept_at_end_of_income_5``; rulebook F.À.Q. "TOURS
DE REVENUS": a card played during or after income turn 5 goes on top of the era-4 stack, and
the Sirènes keep playing after it):

* Income turns 2-4 (step 1): gain a tapestry card, then put all but 2 cards of the hand under
  the mat (:data:`SINK`: ``Choose(index=card)``, one card at a time while more than 2 are in
  hand). Submerged cards may not be played, spent or scored (they are out of the hand); their
  number is public, the cards private (``CardsSubmerged``).
* Income turn 5 (step 1): gain a tapestry card and take every submerged card back. At the end
  of that income turn keep at most 5 cards (:data:`TRIM`: discard one at a time, its id).
* Afterwards, while cards are left, each turn of the Merfolk (the ``turn`` decision,
  ``rules.CARD_TURNS``) either discards cards for 5 VP each (``Choose(index=card)``, then
  :data:`DISCARD` for more or ``Decline``) or plays a WHEN PLAYED card onto the era-4 stack for
  its ability (``PlayTapestry``). No income or advance turn; a Trap may still answer a
  conquest ("If attacked, you may play response cards"). The game ends for them when the hand
  is empty.

The FF tapestry cards (their [ERA 5] effects and charm bonuses) are in none of our sources:
only the base cards exist here, so those never arise. Rebalancing: the rulebook's page has no
Sirènes entry: none. Gained during the game (``tapestry/3``): the mat prints no mid-game
rule, nothing more happens.

Assumed (``decisions.json`` ``merfolk_cards``): only WHEN PLAYED cards are played after income
turn 5 (the mat: "for its WHEN PLAYED ability"); the income-turn gains are the plain random
draw (a Psionics-like extra option does not apply: another civilization's).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs, turns
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.cards import play, playable
from domain.tapestry.civs import INCOME, has_civ, set_tokens
from domain.tapestry.commands import Choose, Decline, PlayTapestry
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx
from domain.tapestry.gains import score
from domain.tapestry.rules import CARD_TURNS, PLAYS_ON, SUNK
from domain.tapestry.state import Frame, TapestryState

KEY = "merfolk"
SINK, TRIM, DISCARD = "merfolk_sink", "merfolk_trim", "merfolk_discard"
SOURCE = f"civ:{KEY}"
#: cards kept in hand at income turns 2-4.
KEPT_IN_HAND = 2
#: cards kept at the end of income turn 5.
KEPT_AT_END = 5
#: VP per card discarded after income turn 5.
VP_PER_CARD = 5
#: the era stack cards are played onto after income turn 5.
LAST_ERA = 4


def sunk(state: TapestryState, seat: int) -> list[int]:
    """The cards under ``seat``'s Merfolk mat."""
    return list(state.seats[seat].civ_tokens.get(SUNK, ()))


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if era < 2:
        return
    draw = TOKENS["gain_tapestry_card"]
    if era >= 5:
        ctx.push(Frame(kind="merfolk_surface", seat=seat, source=SOURCE))
        draw(ctx, seat, 1, Frame(kind="expr", seat=seat, source=SOURCE))
        return
    ctx.push(Frame(kind=SINK, seat=seat, source=SOURCE))
    draw(ctx, seat, 1, Frame(kind="expr", seat=seat, source=SOURCE))


INCOME[KEY] = _income


def _surface(ctx: Ctx, top: Frame) -> None:
    cards = sunk(ctx.state, top.seat)
    if cards:
        ctx.emit(ev.CardsSubmerged(seat=top.seat, count=0, cards=tuple(cards), surfaced=True))


AUTO["merfolk_surface"] = _surface


# -- income turns 2-4: all but two cards under the mat ---------------------------------------
def _sink_options(state: TapestryState, top: Frame) -> list[Command]:
    """A card of the hand (its id) to put under the mat, while more than 2 are in hand."""
    hand = state.seats[top.seat].hand
    if len(hand) <= KEPT_IN_HAND:
        return []
    return [Choose(index=c) for c in sorted(set(hand))]


def _sink_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    count = len(sunk(ctx.state, top.seat)) + 1
    ctx.emit(ev.CardsSubmerged(seat=top.seat, count=count, cards=(command.index,)))
    if len(ctx.state.seats[top.seat].hand) > KEPT_IN_HAND:
        ctx.push(Frame(kind=SINK, seat=top.seat, source=SOURCE))


DECISIONS[SINK] = (_sink_options, _sink_answer)


# -- the end of income turn 5: keep five, then play on ---------------------------------------
def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    if era < 5 or not has_civ(ctx.state, seat, KEY):
        return
    hand = ctx.state.seats[seat].hand
    if hand and civs.play_on_mat(ctx.state, seat) == KEY:  # not after the Elder Ones held first
        set_tokens(ctx, seat, PLAYS_ON, [CARD_TURNS])
    if len(hand) > KEPT_AT_END:
        ctx.push(Frame(kind=TRIM, seat=seat, source=SOURCE))


civs.AFTER_INCOME.append(_after_income)


def _trim_options(state: TapestryState, top: Frame) -> list[Command]:
    """A card of the hand (its id) to discard, while more than 5 are in hand."""
    hand = state.seats[top.seat].hand
    if len(hand) <= KEPT_AT_END:
        return []
    return [Choose(index=c) for c in sorted(set(hand))]


def _trim_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.emit(ev.TapestryDiscarded(seat=top.seat, cards=(command.index,)))
    if len(ctx.state.seats[top.seat].hand) > KEPT_AT_END:
        ctx.push(Frame(kind=TRIM, seat=top.seat, source=SOURCE))


DECISIONS[TRIM] = (_trim_options, _trim_answer)


# -- turns after income turn 5 ----------------------------------------------------------------
def _when_played(card: int) -> bool:
    return playable(card) and C.TAPESTRY_CARDS[card].kind == "when_played"


def turn_commands(state: TapestryState, seat: int) -> list[Command]:
    """A Merfolk turn after income turn 5: play a WHEN PLAYED card onto the era-4 stack, or
    discard a card (its id) for 5 VP (more may follow)."""
    hand = sorted(set(state.seats[seat].hand))
    plays: list[Command] = [PlayTapestry(card=c) for c in hand if _when_played(c)]
    return [*plays, *(Choose(index=c) for c in hand)]


def _turn_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    seat = top.seat
    if isinstance(command, PlayTapestry):
        play(ctx, seat, command.card, LAST_ERA)
        return
    assert isinstance(command, Choose)
    _discard(ctx, seat, command.index)


def _discard(ctx: Ctx, seat: int, card: int) -> None:
    ctx.emit(ev.TapestryDiscarded(seat=seat, cards=(card,)))
    score(ctx, seat, VP_PER_CARD, SOURCE)
    if ctx.state.seats[seat].hand:
        ctx.push(Frame(kind=DISCARD, seat=seat, source=SOURCE))


turns.PLAY_ON_TURNS[CARD_TURNS] = (turn_commands, _turn_answer)


def _discard_options(state: TapestryState, top: Frame) -> list[Command]:
    """Another card (its id) discarded for 5 VP, or stop."""
    return [*(Choose(index=c) for c in sorted(set(state.seats[top.seat].hand))), Decline()]


def _discard_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        _discard(ctx, top.seat, command.index)


DECISIONS[DISCARD] = (_discard_options, _discard_answer)

"""Advisors (Conseillers, Plans & Ploys): a hand of tapestry cards, scored and handed out.

Facts: the facts folder's record (``civilizations.json#30``: « Start with 3 tapestry cards.
Income turns 2-5: 1 VP per card in hand, then discard down to 4 (discarding earns 1 any
resource). When a neighbour would draw a tapestry on advance turns, you may give one, then
draw. », mid-game « You may give any of the 3 starting cards to neighbours for 5 VP each. »),
the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« CONSEILLERS [...] Pas de changement ») and
the player aid (the box's Advisors are removed from solo games). Our content:
``content/civilizations_plans_and_ploys.json#30``; readings the sources leave open are records
of ``decisions.json`` (``advisors_*``).

* Setup: three tapestry cards (``gain_tapestry_card`` x3).
* Income turns 2-5: 1 VP per card in hand, then while more than :data:`HAND_LIMIT` are held,
  discard one (decision :data:`DISCARD`: ``Choose(index=card)``, public ``TapestryDiscarded``)
  for a resource of choice.
* A neighbour about to draw tapestry cards from a track space's benefit on an advance turn
  (``gain_tapestry_card`` with a ``track:`` source, no income turn of theirs under way): the
  Advisor may give one card of its hand instead of the neighbour's first draw (decision
  :data:`GIVE`: ``Choose(index=card)`` or ``Decline``), then draws one itself. The card moves
  hands with ``TapestryGiven``, hidden from the other seats.
* Gained during the game: three tapestry cards, then up to three gifts to neighbours for 5 VP
  each (decision :data:`GIFT`: ``Choose(index=card * SEAT + neighbour)`` or ``Decline``).

No frame names a card (frames are public): the options, sent only to the deciding seat, do.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import draw_tapestry, score
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState

KEY = "advisors"
BOX = "plans_and_ploys"
#: decision kinds: discard down to the limit; give a card to a drawing neighbour; the gifts of
#: a civilization gained during the game.
DISCARD, GIVE, GIFT = "advisors_discard", "advisors_give", "advisors_gift"
HAND_LIMIT = 4
#: cards drawn when gained during the game, and VP per card given then.
GAINED_CARDS, GIFT_VP = 3, 5
#: ``Choose`` code of a gift: ``card * SEAT + neighbour``.
SEAT = 10


def _cards(state: TapestryState, seat: int) -> list[Command]:
    return [Choose(index=card) for card in sorted(set(state.seats[seat].hand))]


# -- income turns 2-5 ------------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 5:
        score(ctx, seat, len(ctx.state.seats[seat].hand), f"civ:{KEY}")
        if len(ctx.state.seats[seat].hand) > HAND_LIMIT:
            ctx.push(Frame(kind=DISCARD, seat=seat, source=f"civ:{KEY}"))


def _discard_options(state: TapestryState, top: Frame) -> list[Command]:
    return _cards(state, top.seat) if len(state.seats[top.seat].hand) > HAND_LIMIT else []


def _discard_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat = top.seat
    ctx.emit(ev.TapestryDiscarded(seat=seat, cards=(command.index,)))
    frames = [expr_frame(seat, gain("gain_any_resource"), f"civ:{KEY}")]
    if len(ctx.state.seats[seat].hand) > HAND_LIMIT:
        frames.append(Frame(kind=DISCARD, seat=seat, source=f"civ:{KEY}"))
    ctx.push(*frames)


DECISIONS[DISCARD] = (_discard_options, _discard_answer)


# -- a neighbour's draw on an advance turn -----------------------------------------------------
_plain_draw = TOKENS["gain_tapestry_card"]


def _in_income_turn(state: TapestryState, seat: int) -> bool:
    return any(f.kind == "income" and f.seat == seat for f in state.agenda)


def giver(state: TapestryState, drawer: int, source: str) -> int:
    """The Advisor offered to give ``drawer`` a card for a draw from ``source`` (-1: none):
    the first neighbour holding the Advisors, with a card in hand and its game not over."""
    if not source.startswith("track:") or _in_income_turn(state, drawer):
        return -1
    for seat in state.neighbours(drawer):
        player = state.seats[seat]
        if civs.has_civ(state, seat, KEY) and player.hand and not player.finished:
            return seat
    return -1


def _draw(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    advisor = giver(ctx.state, seat, top.source) if count > 0 else -1
    if advisor < 0:
        _plain_draw(ctx, seat, count, top)
        return
    ctx.push(Frame(kind=GIVE, seat=advisor, ints=(seat, count), source=top.source))


TOKENS["gain_tapestry_card"] = _draw


def _give_options(state: TapestryState, top: Frame) -> list[Command]:
    return [*_cards(state, top.seat), Decline()]


def _give_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    drawer, count = top.ints
    if isinstance(command, Decline):
        draw_tapestry(ctx, drawer, count)
        return
    assert isinstance(command, Choose)
    ctx.emit(ev.TapestryGiven(seat=top.seat, to=drawer, card=command.index))
    draw_tapestry(ctx, top.seat, 1)
    if count > 1:
        draw_tapestry(ctx, drawer, count - 1)


DECISIONS[GIVE] = (_give_options, _give_answer)


# -- gained during the game ----------------------------------------------------------------------
def _gained(ctx: Ctx, seat: int) -> None:
    if draw_tapestry(ctx, seat, GAINED_CARDS) and ctx.state.neighbours(seat):
        ctx.push(Frame(kind=GIFT, seat=seat, ints=(GAINED_CARDS,), source=f"civ:{KEY}"))


def _gift_options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [
        Choose(index=card * SEAT + other)
        for card in sorted(set(state.seats[top.seat].hand))
        for other in state.neighbours(top.seat)
    ]
    return [*found, Decline()] if found else []


def _gift_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    card, other = divmod(command.index, SEAT)
    ctx.emit(ev.TapestryGiven(seat=top.seat, to=other, card=card))
    score(ctx, top.seat, GIFT_VP, f"civ:{KEY}")
    left = top.ints[0] - 1
    if left > 0:
        ctx.push(Frame(kind=GIFT, seat=top.seat, ints=(left,), source=top.source))


DECISIONS[GIFT] = (_gift_options, _gift_answer)

civs.ON_GAIN[KEY] = _gained
civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)

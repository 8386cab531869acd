"""Recyclers (Recycleurs, Plans & Ploys): tech cards carried back down and invented again.

Facts: the facts folder's record (``civilizations.json#34``: « Start by drawing 3 tech cards,
keeping 1 (no upgrade at income turn 1). Income turns 2-5: one extra upgrade. Upgrading may
send a top-row card back to the bottom for 5 VP. You may invent from the discard. »), the
rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« RECYCLEURS Améliorez une carte Technologie si
vous commencez la partie avec les Recycleurs. ») and its F.À.Q. (« Déplacer une carte
Technologie de la ligne du haut vers la ligne du bas requiert une action Amélioration
spécifiquement dédiée à ce déplacement »). Our content:
``content/civilizations_plans_and_ploys.json#34``; readings the sources leave open are records
of ``decisions.json`` (``recyclers_*``).

* Setup (token ``recyclers_draw_3_keep_1``): three cards from the deck come into the seat's
  bottom row (``TechInvented``, from the deck), then the seat keeps one (decision
  :data:`KEEP`: ``Choose(index=card)``) and the two others go to the tech discard
  (``TechDiscarded``). Rebalancing (starting only): one upgrade.
* Income turns 2-5: one upgrade (``upgrade_tech``).
* Every upgrade of a Recycler may instead take a top-row card back down to the bottom row
  (``Upgrade(card)`` of a top-row card: ``TechUpgraded`` to row 0) for 5 VP, with no benefit.
* Every invention of a Recycler may also take a card of the tech discard
  (``Invent(card)``).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Invent, Upgrade
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.rules import gain, tech_deck
from domain.tapestry.state import Frame, TapestryState

KEY = "recyclers"
BOX = "plans_and_ploys"
#: decision kind: keep one of the three cards drawn at the start.
KEEP = "recyclers_keep"
DRAWN = 3
RECYCLE_VP = 5
TOP = 2


def _draw_three(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    deck = tech_deck(ctx.state)
    drawn: list[int] = []
    for _ in range(min(DRAWN, len(deck))):
        card = ctx.chance.choice([c for c in deck if c not in drawn])
        drawn.append(card)
        ctx.emit(ev.TechInvented(seat=seat, card=card, from_deck=True))
    if len(drawn) > 1:
        ctx.push(Frame(kind=KEEP, seat=seat, ints=tuple(drawn), source=f"civ:{KEY}"))


TOKENS["recyclers_draw_3_keep_1"] = _draw_three


def _keep_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=card) for card in top.ints]


def _keep_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    others = tuple(card for card in top.ints if card != command.index)
    ctx.emit(ev.TechDiscarded(seat=top.seat, cards=others))


DECISIONS[KEEP] = (_keep_options, _keep_answer)


def _adjustment(state: TapestryState, seat: int) -> list[Frame]:
    """ "RÉÉQUILIBRAGE": « Améliorez une carte Technologie »."""
    return [expr_frame(seat, gain("upgrade_tech"), f"adjustment:{KEY}")]


civs.ADJUSTMENTS[KEY] = _adjustment


# -- upgrades: a top-row card back to the bottom -----------------------------------------------
_upgrade_options, _upgrade_answer = DECISIONS["upgrade"]


def recyclable(state: TapestryState, seat: int) -> list[int]:
    """Top-row tech cards a Recycler may carry back down, in ownership order."""
    if not civs.has_civ(state, seat, KEY):
        return []
    return [t.card for t in state.seats[seat].tech if t.row == TOP]


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found = _upgrade_options(state, top)
    extra: list[Command] = [Upgrade(card=c) for c in recyclable(state, top.seat)]
    if not extra:
        return found
    plain = [c for c in found if isinstance(c, Upgrade)]
    rest = [c for c in found if not isinstance(c, Upgrade)]
    return [*plain, *extra, *rest]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Upgrade) and command.card in recyclable(ctx.state, top.seat):
        ctx.emit(ev.TechUpgraded(seat=top.seat, card=command.card, row=0))
        score(ctx, top.seat, RECYCLE_VP, f"civ:{KEY}")
        return
    _upgrade_answer(ctx, top, command)


DECISIONS["upgrade"] = (_options, _answer)


# -- inventing from the discard ------------------------------------------------------------------
_invent_options, _invent_answer = DECISIONS["invent"]


def _invent_with_discard(state: TapestryState, top: Frame) -> list[Command]:
    found = _invent_options(state, top)
    if not civs.has_civ(state, top.seat, KEY):
        return found
    listed = {c.card for c in found if isinstance(c, Invent)}
    extra = [Invent(card=c) for c in sorted(state.tech_discard) if c not in listed]
    return [*found, *extra]


DECISIONS["invent"] = (_invent_with_discard, _invent_answer)


# -- income turns 2-5 ------------------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 5:
        ctx.push(Frame(kind="upgrade", seat=seat, source=f"civ:{KEY}"))


civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)

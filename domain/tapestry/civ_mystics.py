"""Mystics (Mystiques): sealed predictions of four counts, rewarded when reached and when exact.

Rules (player aid, "CIVILISATIONS / Mystiques"; facts folder ``civilizations.json#13``):

* on taking the civilization (its setup, the content's ``mystics_predict`` token), predict a
  number in each of four categories (:data:`CATEGORIES`): tech cards owned (1-9), complete
  districts of the capital (1-9), controlled territories (1-9), completed tracks (1-4) — one
  :data:`DECISION` per category, in that order;
* the first time a count reaches its prediction, gain 1 resource of your choice (the
  categories reached are public, :data:`REACHED`);
* at your fifth income turn (step 1, the civilization's ability), the predictions are
  revealed (:class:`~domain.tapestry.events.PredictionsRevealed`) and each exact one scores
  10 VP (:data:`EXACT_VP`);
* the civilization cannot be gained during the game (player aid), so it is not in
  :data:`~domain.tapestry.civs.GAINABLE`.

Hidden information: a prediction is a sealed choice. :class:`PredictionMade` carries a salt
from ``chance.secret`` and other seats receive it with value 0 and no salt until the reveal;
views show the predictions (civ_tokens ``"mystics"``) to their seat only until then
(:mod:`domain.tapestry.view`).

Rebalancing ("RÉÉQUILIBRAGE DES CIVILISATIONS / MYSTIQUES", icon lost): a starting Mystic
gains 1 resource of their choice (the content's ``adjustment_gain``).

Assumed, with their sources:

* "Conquêtes" is read as the territories you control (facts folder, RULEBOOK_CROSSCHECK C12);
* a count "reaches" a prediction when it becomes equal or greater for the first time (a
  landmark may complete two districts at once); once revealed, nothing more is rewarded.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import capital as cap
from domain.tapestry import events as ev
from domain.tapestry.civs import INCOME, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, TOKENS, Ctx
from domain.tapestry.evolve import MYSTICS, MYSTICS_REVEALED
from domain.tapestry.gains import score
from domain.tapestry.rules import controlled, grid_of
from domain.tapestry.state import Frame, TapestryState

KEY = MYSTICS
#: the decision: predict one category (``Choose(index=value)``).
DECISION = "mystics_predict"
#: civ_tokens key of the public flags: 1 once a category's prediction was reached.
REACHED = "mystics_reached"
#: the categories, in order, and the largest prediction allowed in each (from 1).
CATEGORIES: tuple[str, ...] = (
    "tech_cards",
    "complete_districts",
    "controlled_territories",
    "completed_tracks",
)
MAXIMUM: tuple[int, ...] = (9, 9, 9, 4)
EXACT_VP = 10
_NONE = (0, 0, 0, 0)
#: events that cannot change a count (skipped by the check, which also avoids recursion).
_IDLE: tuple[type[Event], ...] = (
    ev.AgendaSet,
    ev.CivTokensSet,
    ev.ResourcesChanged,
    ev.VPScored,
    ev.SpaceActivated,
    ev.TurnStarted,
    ev.TapestryDrawn,
    ev.ScienceDieRolled,
    ev.ConquerDiceRolled,
    ev.PredictionsRevealed,
)


def counts(state: TapestryState, seat: int) -> tuple[int, int, int, int]:
    """The four counts of ``seat`` now, in :data:`CATEGORIES` order."""
    player = state.seats[seat]
    districts = len(cap.complete_districts(grid_of(player))) if player.grid_filled else 0
    return (
        len(player.tech),
        districts,
        len(controlled(state, seat)),
        sum(1 for done in player.completed if done),
    )


def predictions(state: TapestryState, seat: int) -> list[int]:
    """``seat``'s predictions (0: not made yet); private to the seat until revealed."""
    return tokens_of(state, seat, KEY, _NONE)


def revealed(state: TapestryState, seat: int) -> bool:
    """``True`` once ``seat``'s predictions were revealed and scored."""
    return MYSTICS_REVEALED in state.seats[seat].civ_tokens


# -- predicting ----------------------------------------------------------------------------
def _predict(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(
        *(
            Frame(kind=DECISION, seat=seat, ints=(category,), source=f"civ:{KEY}")
            for category in range(len(CATEGORIES))
        )
    )


TOKENS["mystics_predict"] = _predict


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """Every value of the category (from 1)."""
    return [Choose(index=v) for v in range(1, MAXIMUM[top.ints[0]] + 1)]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    category = top.ints[0]
    salt = ctx.chance.secret(f"tapestry/mystics/{top.seat}/{category}")
    ctx.emit(ev.PredictionMade(seat=top.seat, category=category, value=command.index, salt=salt))


DECISIONS[DECISION] = (_options, _answer)


# -- reaching a prediction -----------------------------------------------------------------
def _after_emit(ctx: Ctx, event: Event) -> None:
    """After a change, each prediction reached for the first time pays 1 resource."""
    if isinstance(event, _IDLE):
        return
    state = ctx.state
    for seat in range(state.n):
        if not has_civ(state, seat, KEY) or KEY not in state.seats[seat].civ_tokens:
            continue
        if revealed(state, seat) or state.seats[seat].finished:
            continue
        guess = predictions(state, seat)
        reached = tokens_of(state, seat, REACHED, _NONE)
        now = counts(state, seat)
        new = [c for c in range(len(CATEGORIES)) if not reached[c] and 0 < guess[c] <= now[c]]
        if not new:
            continue
        for c in new:
            reached[c] = 1
        set_tokens(ctx, seat, REACHED, reached)
        ctx.push(*(Frame(kind="resource", seat=seat, ints=(1,), source=f"civ:{KEY}") for _ in new))


AFTER_EMIT.append(_after_emit)


# -- the fifth income turn -----------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    """Fifth income turn: reveal the predictions; 10 VP for each exact one."""
    if era < 5 or revealed(ctx.state, seat):
        return
    guess = predictions(ctx.state, seat)
    now = counts(ctx.state, seat)
    ctx.emit(ev.PredictionsRevealed(seat=seat, predictions=tuple(guess), counts=now))
    exact = sum(1 for g, n in zip(guess, now, strict=True) if g and g == n)
    score(ctx, seat, EXACT_VP * exact, f"civ:{KEY}")


INCOME[KEY] = _income

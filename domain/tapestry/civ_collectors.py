"""Collectors (Collectionneurs, Arts & Architecture): one component of each kind shelved on the
mat for a reward, and VP for the kinds shelved at the end.

Rules (facts folder ``civilizations.json#21``): during your advance turns, when you gain an
outpost (a conquest), a house, a landmark, a tapestry card, a territory tile or a tech card,
you may put it on the matching empty space of this mat instead of using it, and take that
space's reward (the content's ``slots``, one per space of :data:`~domain.tapestry.state.SHELF`).
Each space holds one component for the rest of the game. A shelved outpost is a conquest
given up: no territory, no dice (``Choose(index=SHELVE + 0)`` on the conquest decision); a
shelved house or landmark is not placed in the capital (``Choose(index=SHELVE + slot)`` on its
placement); a tapestry card, territory tile or tech card just gained is offered at once
(:data:`DECISION`: ``Choose(index=id)`` or ``Decline``). At the end of your fifth income turn:
1/3/6/10/15/21 VP for 1-6 spaces filled (:data:`FINAL_VP`).

Rebalancing: "RÉÉQUILIBRAGE DES CIVILISATIONS", COLLECTIONNEURS: "Gagnez [icon] si vous
commencez la partie avec les Collectionneurs", the icon lost in our text: read as one resource
of your choice (the content's ``adjustment_gain``, ``decisions.json#collectors_rebalancing``).

Assumed (``decisions.json#collectors_shelf``): each space's reward is one resource of your
choice (the facts folder's Adjustment-pack wording gives 1 for the card, tile and house and 2
for the others; the original mat only says "the listed benefit"; the source implementation
gives 1 for every space without the pack). "During advance turns": not during an income turn
(:func:`advance_turn`). A shelved card or tile lies face down: other seats do not see which
(:class:`~domain.tapestry.events.Collected` is redacted, the view masks it as -1); shelved
components are out of the decks and are not used (a shelved landmark stays the seat's own;
a shelved tech or tapestry card still counts for "VP per" such card, see
:func:`~domain.tapestry.rules.tech_count` and
:func:`~domain.tapestry.rules.tapestry_count`). Gained during the game (``tapestry/3``):
nothing more happens; the facts folder's only mid-game rule is the Adjustment pack's, not
applied.

Mat state (``civ_tokens["collectors"]``, :data:`~domain.tapestry.state.COLLECTORS`): one entry
per space (0 empty, else the id shelved, 1 for an outpost or a house), then the number of the
turn of the seat's last income turn.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import cards as _cards  # noqa: F401  (its conquer wrapper goes first)
from domain.tapestry import civ_craftsmen as _craftsmen  # noqa: F401  (its build wrapper first)
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, has_civ, set_tokens, tokens_of
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.state import COLLECTORS, PLAY, SHELF, Frame, TapestryState

KEY = COLLECTORS
DECISION = "collectors"
OUTPOST, HOUSE, LANDMARK, TAPESTRY, TERRITORY, TECH = range(len(SHELF))
#: the entry of the mat holding the turn of the last income turn.
INCOME_TURN = len(SHELF)
EMPTY: tuple[int, ...] = (0,) * (len(SHELF) + 1)
#: ``Choose`` index offset of "shelve it" on the conquest and placement decisions (clear of
#: the Craftsmen's columns and of the Urban Planners' answer).
SHELVE = 100
#: VP at the end for 0..6 spaces filled (facts folder ``final_scoring.distinct_types_vp``).
FINAL_VP: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21)


def mat(state: TapestryState, seat: int) -> list[int]:
    """``seat``'s Collectors mat: per space the id shelved (0: empty), then the income turn."""
    values = tokens_of(state, seat, KEY, EMPTY)
    return values + [0] * (len(EMPTY) - len(values))


def filled(state: TapestryState, seat: int) -> int:
    """Spaces of ``seat``'s mat holding a component."""
    return sum(1 for v in mat(state, seat)[:INCOME_TURN] if v)


def advance_turn(state: TapestryState, seat: int) -> bool:
    """``True`` while ``seat`` plays one of its own turns that is not an income turn."""
    return (
        state.phase == PLAY
        and state.current == seat
        and mat(state, seat)[INCOME_TURN] != state.turn
        and not state.seats[seat].finished
    )


def may_shelve(state: TapestryState, seat: int, slot: int) -> bool:
    """``True`` when ``seat`` holds the Collectors, plays an advance turn and space ``slot``
    is empty."""
    return has_civ(state, seat, KEY) and advance_turn(state, seat) and not mat(state, seat)[slot]


def _shelve(ctx: Ctx, seat: int, slot: int, item: int) -> None:
    """Put ``item`` on space ``slot`` and queue the space's reward."""
    ctx.emit(ev.Collected(seat=seat, slot=slot, item=item))
    reward = C.CIVILIZATIONS[civ_id(KEY)].slots[slot]
    ctx.push(expr_frame(seat, reward, f"civ:{KEY}"))


# -- income turns: no shelving -----------------------------------------------------------------
def _after_emit(ctx: Ctx, event: Event) -> None:
    """Notes the Collectors' income turns; offers a tapestry card, territory tile or tech card
    just gained during an advance turn."""
    state = ctx.state
    if isinstance(event, ev.IncomeTurnStarted):
        if has_civ(state, event.seat, KEY):
            values = mat(state, event.seat)
            values[INCOME_TURN] = state.turn
            set_tokens(ctx, event.seat, KEY, values)
        return
    ints: tuple[int, ...]
    if isinstance(event, ev.TapestryDrawn) and event.cards:
        slot, ints = TAPESTRY, (TAPESTRY, len(event.cards))  # the cards stay out of the frame
    elif isinstance(event, ev.TerritoryTilesDrawn):
        slot, ints = TERRITORY, (TERRITORY, *event.tiles)
    elif isinstance(event, ev.TechInvented):
        slot, ints = TECH, (TECH, event.card)
    else:
        return
    if may_shelve(state, event.seat, slot):
        ctx.push(Frame(kind=DECISION, seat=event.seat, ints=ints, source=f"civ:{KEY}"))


AFTER_EMIT.append(_after_emit)


def _candidates(state: TapestryState, top: Frame) -> list[int]:
    """The ids the decision may still shelve (those gained and still held)."""
    seat, slot = top.seat, top.ints[0]
    player = state.seats[seat]
    if slot == TAPESTRY:
        return sorted(set(player.hand[-top.ints[1] :]))
    if slot == TERRITORY:
        return sorted(t for t in set(top.ints[1:]) if t in player.territory)
    return [c for c in top.ints[1:] if any(t.card == c for t in player.tech)]


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """A card or tile just gained to shelve (its id), or ``Decline``."""
    if mat(state, top.seat)[top.ints[0]]:
        return []
    found: list[Command] = [Choose(index=c) for c in _candidates(state, top)]
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose):
        _shelve(ctx, top.seat, top.ints[0], command.index)


DECISIONS[DECISION] = (_options, _answer)


# -- a house or a landmark: instead of placing it ----------------------------------------------
_build_options, _build_answer = DECISIONS["build"]
_BUILD_SLOTS = {"house": HOUSE, "landmark": LANDMARK}


def _build_slot(state: TapestryState, top: Frame) -> int:
    """The space a building being placed may go to (-1: none)."""
    slot = _BUILD_SLOTS.get(top.token, -1)
    if slot < 0 or top.source == "civ:urban_planners" or not may_shelve(state, top.seat, slot):
        return -1
    return slot


def _build_opts(state: TapestryState, top: Frame) -> list[Command]:
    """The placements, and shelving a house or landmark just gained."""
    found = _build_options(state, top)
    slot = _build_slot(state, top)
    return [*found, Choose(index=SHELVE + slot)] if slot >= 0 else found


def _build_ans(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose) and command.index >= SHELVE:
        slot = command.index - SHELVE
        _shelve(ctx, top.seat, slot, top.ints[0] if slot == LANDMARK else 1)
        return
    _build_answer(ctx, top, command)


DECISIONS["build"] = (_build_opts, _build_ans)


# -- an outpost: instead of the conquest -------------------------------------------------------
_conquer_options, _conquer_answer = DECISIONS["conquer"]


def _conquer_opts(state: TapestryState, top: Frame) -> list[Command]:
    """The conquests, and shelving the outpost instead (no territory, no dice)."""
    found = _conquer_options(state, top)
    if not may_shelve(state, top.seat, OUTPOST) or state.seats[top.seat].outposts <= 0:
        return found
    return [*found, Choose(index=SHELVE + OUTPOST)] if found else [Choose(index=SHELVE), Decline()]


def _conquer_ans(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Choose) and command.index == SHELVE + OUTPOST:
        _shelve(ctx, top.seat, OUTPOST, 1)
        return
    if not isinstance(command, Decline):
        _conquer_answer(ctx, top, command)


DECISIONS["conquer"] = (_conquer_opts, _conquer_ans)


# -- the end ---------------------------------------------------------------------------------
def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    """End of the fifth income turn: VP for the spaces filled."""
    if era >= 5 and has_civ(ctx.state, seat, KEY):
        score(ctx, seat, FINAL_VP[filled(ctx.state, seat)], f"civ:{KEY}")


civs.AFTER_INCOME.append(_after_income)

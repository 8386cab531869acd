"""The decision engine: a context that emits events, and the agenda loop.

:class:`Ctx` folds every event it emits into a private copy of the state (the R&F ``Sim``
pattern), so each step reads the state as it will be. The agenda (``state.agenda``, top last)
holds :class:`~domain.tapestry.state.Frame` entries: *automatic* frames run as soon as they
reach the top, *decision* frames wait for a command. :func:`run` processes the agenda until a
decision needs a seat (or the game ends); when the agenda is empty the turn is over.

Modules register their frame kinds here:

* :data:`AUTO` — ``kind -> handler(ctx, frame)``;
* :data:`DECISIONS` — ``kind -> (options(state, frame), answer(ctx, frame, command))``; a
  decision with no option is skipped, one with a single option is answered at once unless
  its kind is in :data:`ALWAYS_ASK` (e.g. a trap: asking every defender hides who holds one).

Benefit expressions (:mod:`domain.tapestry.content`) are interpreted by :func:`push_expr`:
``all`` in order, ``any_order`` as a choice of what comes next, ``one_of`` as a choice,
``pay`` as an optional exchange, and tokens through :data:`TOKENS` (``token -> handler(ctx,
seat, count, frame)``).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.core import Chance, Command, Event, RuleViolation
from domain.tapestry import content as C
from domain.tapestry.commands import Choose
from domain.tapestry.evolve import evolve
from domain.tapestry.rules import dump, load
from domain.tapestry.state import PLAY, Frame, TapestryState


class Ctx:
    """Events being decided and the state they lead to (a private copy).

    ``current`` is the agenda frame being processed (``None`` outside the agenda loop), so that
    a hook can tell in which circumstances an event was emitted.
    """

    __slots__ = ("chance", "current", "events", "state")

    def __init__(self, state: TapestryState, chance: Chance) -> None:
        self.state: TapestryState = msgspec.msgpack.decode(
            msgspec.msgpack.encode(state), type=TapestryState
        )
        self.chance = chance
        self.events: list[Event] = []
        self.current: Frame | None = None

    def emit(self, event: Event) -> None:
        """Record ``event``, fold it into the private copy, then run :data:`AFTER_EMIT`."""
        self.events.append(event)
        evolve(self.state, event)
        for hook in AFTER_EMIT:
            hook(self, event)

    def push(self, *frames: Frame) -> None:
        """Put ``frames`` on the agenda so that they run in the given order."""
        for frame in reversed(frames):
            self.state.agenda.append(frame)


AutoHandler = Callable[[Ctx, Frame], None]
Options = Callable[[TapestryState, Frame], list[Command]]
Answer = Callable[[Ctx, Frame, Command], None]
TokenHandler = Callable[[Ctx, int, int, Frame], None]

AUTO: dict[str, AutoHandler] = {}
DECISIONS: dict[str, tuple[Options, Answer]] = {}
TOKENS: dict[str, TokenHandler] = {}
ALWAYS_ASK: set[str] = {"turn", "trap"}
#: hooks run when the agenda empties (end of a turn): set by ``turns``.
END_TURN: list[Callable[[Ctx], None]] = []
#: hooks giving the frames that run when play begins, after every seat's civilization setup
#: and before the first turn (the bots' first income turn when they play first): set by
#: ``solo.turn``.
OPENING: list[Callable[[TapestryState], list[Frame]]] = []
#: hooks run after each emitted event is folded (THIS ERA tapestry cards react to events); a
#: hook may emit events and push frames (pushed frames run after the emitter's own frames).
AFTER_EMIT: list[Callable[[Ctx, Event], None]] = []


def frame(kind: str, seat: int, **fields: object) -> Frame:
    """A new agenda frame (``fields`` as in :class:`~domain.tapestry.state.Frame`)."""
    return msgspec.convert({"kind": kind, "seat": seat, **fields}, Frame)


def expr_frame(seat: int, benefit: C.Benefit | str, source: str = "") -> Frame:
    """An automatic frame that resolves a benefit expression for ``seat``."""
    text = benefit if isinstance(benefit, str) else dump(benefit)
    return Frame(kind="expr", seat=seat, expr=text, source=source)


def _expr(ctx: Ctx, top: Frame) -> None:
    benefit = load(top.expr)
    seat = top.seat
    if isinstance(benefit, C.Gain):
        handler = TOKENS.get(benefit.token)
        if handler is None:
            raise RuleViolation(
                "NOT_IMPLEMENTED", f"The benefit {benefit.token!r} is not implemented yet."
            )
        handler(ctx, seat, benefit.count, top)
    elif isinstance(benefit, C.AllOf):
        ctx.push(*(expr_frame(seat, item, top.source) for item in benefit.items))
    elif isinstance(benefit, C.AnyOrder):
        items = [dump(item) for item in benefit.items]
        if len(set(items)) <= 1:
            ctx.push(*(expr_frame(seat, item, top.source) for item in items))
        else:
            ctx.push(Frame(kind="order", seat=seat, options=tuple(items), source=top.source))
    elif isinstance(benefit, C.OneOf):
        choices = tuple(dump(item) for item in benefit.items)
        ctx.push(Frame(kind="choose", seat=seat, options=choices, source=top.source))
    else:
        ctx.push(
            Frame(
                kind="bonus",
                seat=seat,
                options=tuple(benefit.pay),
                expr=dump(benefit.gain),
                optional=True,
                source=top.source,
            )
        )


AUTO["expr"] = _expr


def run(ctx: Ctx) -> None:
    """Process the agenda until a seat must decide or the game is over."""
    state = ctx.state
    while state.phase == PLAY:
        if not state.agenda:
            for hook in END_TURN:
                hook(ctx)
                if state.agenda or state.phase != PLAY:
                    break  # a hook queued work (the bots' turn) or ended the game
            continue
        top = state.agenda[-1]
        if top.kind in DECISIONS:
            options, answer = DECISIONS[top.kind]
            found = options(state, top)
            if not found:
                state.agenda.pop()
                continue
            if len(found) == 1 and top.kind not in ALWAYS_ASK:
                state.agenda.pop()
                ctx.current = top
                answer(ctx, top, found[0])
                continue
            return
        state.agenda.pop()
        ctx.current = top
        AUTO[top.kind](ctx, top)


def current_options(state: TapestryState) -> list[Command]:
    """The commands the decision on top of the agenda accepts."""
    if not state.agenda:
        return []
    top = state.agenda[-1]
    if top.kind not in DECISIONS:
        return []
    return DECISIONS[top.kind][0](state, top)


def answer_top(ctx: Ctx, command: Command) -> None:
    """Answer the decision on top of the agenda with ``command`` (already checked legal)."""
    top = ctx.state.agenda.pop()
    ctx.current = top
    DECISIONS[top.kind][1](ctx, top, command)


def _choose_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in range(len(top.options))]


def _choose_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.push(expr_frame(top.seat, top.options[command.index], top.source))


def _order_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    rest = [item for i, item in enumerate(top.options) if i != command.index]
    later = (
        Frame(kind="order", seat=top.seat, options=tuple(rest), source=top.source)
        if len(set(rest)) > 1
        else expr_frame(top.seat, C.AllOf(items=tuple(load(r) for r in rest)), top.source)
    )
    ctx.push(expr_frame(top.seat, top.options[command.index], top.source), later)


DECISIONS["choose"] = (_choose_options, _choose_answer)
DECISIONS["order"] = (_choose_options, _order_answer)

"""The decision engine: a context that emits events, and the agenda loop.

:class:`Ctx` folds every event it emits into a private copy of the state, so each step reads
the state as it will be. The agenda (``state.agenda``, top last) holds
:class:`~domain.imperium.state.Frame` entries: *automatic* frames (:data:`AUTO`) run as soon
as they reach the top, *decision* frames (:data:`DECISIONS`) wait for a command. A decision
with no option is dropped; one with a single option is answered at once unless its kind is in
:data:`ALWAYS_ASK`. :func:`run` processes the agenda until a decision needs a seat, the game
ends, or — when the agenda is empty — :data:`END_TURN` hooks start the next turn.

Collapse ("Effondrement"): whenever the unrest pile is empty the game ends at once; the loop
checks it before every frame.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import msgspec

from domain.core import Chance, Command, Event
from domain.imperium.content_effects import Step
from domain.imperium.evolve import evolve
from domain.imperium.state import PLAY, Frame, ImperiumState


class Ctx:
    """Events being decided and the state they lead to (a private copy)."""

    __slots__ = ("chance", "events", "state")

    def __init__(self, state: ImperiumState, chance: Chance) -> None:
        self.state: ImperiumState = msgspec.msgpack.decode(
            msgspec.msgpack.encode(state), type=ImperiumState
        )
        self.chance = chance
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record ``event`` and fold it into the private copy."""
        self.events.append(event)
        evolve(self.state, event)

    def push(self, *frames: Frame) -> None:
        """Put ``frames`` on the agenda so that they run in the given order."""
        for item in reversed(frames):
            self.state.agenda.append(item)


AutoHandler = Callable[[Ctx, Frame], None]
Options = Callable[[ImperiumState, Frame], list[Command]]
Answer = Callable[[Ctx, Frame, Command], None]

AUTO: dict[str, AutoHandler] = {}
DECISIONS: dict[str, tuple[Options, Answer]] = {}
ALWAYS_ASK: set[str] = {"order"}
#: hooks run when the agenda empties (end of a turn): set by ``turns``.
END_TURN: list[Callable[[Ctx], None]] = []
#: solo games: runs every frame of the C.I.V.'s seat (set by ``civ.hooks``).
CIV_FRAMES: list[Callable[[Ctx, Frame], None]] = []
#: hooks run when the unrest pile is empty (collapse): set by ``ending``.
COLLAPSE: list[Callable[[Ctx], None]] = []

_STEPS = msgspec.json.Decoder(tuple[Step, ...])
_ENCODER = msgspec.json.Encoder()


def dump_steps(steps: tuple[Step, ...] | list[Step]) -> str:
    """Steps as JSON (the tagged form)."""
    return _ENCODER.encode(tuple(steps)).decode()


@lru_cache(maxsize=4096)
def load_steps(text: str) -> tuple[Step, ...]:
    """Steps from :func:`dump_steps` (cached: frames repeat the same texts)."""
    if not text:
        return ()
    return _STEPS.decode(text)


def steps_frame(seat: int, card: str, steps: tuple[Step, ...] | list[Step]) -> Frame:
    """An automatic frame resolving ``steps`` of ``card`` for ``seat``."""
    return Frame(kind="steps", seat=seat, card=card, steps=dump_steps(steps))


def run(ctx: Ctx) -> None:
    """Process the agenda until a seat must decide or the game is over."""
    state = ctx.state
    while state.phase == PLAY:
        if not state.unrest and state.market:
            for hook in COLLAPSE:
                hook(ctx)
            continue
        if not state.agenda:
            for hook in END_TURN:
                hook(ctx)
            continue
        top = state.agenda[-1]
        if state.civ is not None and top.seat == 1 and CIV_FRAMES:
            CIV_FRAMES[0](ctx, state.agenda.pop())
            continue
        if top.kind in DECISIONS:
            options, answer = DECISIONS[top.kind]
            found = options(state, top)
            if not found:
                state.agenda.pop()
                continue
            if len(found) == 1 and top.kind not in ALWAYS_ASK:
                state.agenda.pop()
                answer(ctx, top, found[0])
                continue
            return
        state.agenda.pop()
        AUTO[top.kind](ctx, top)


def current_options(state: ImperiumState) -> list[Command]:
    """The commands the decision on top of the agenda accepts."""
    if not state.agenda or state.phase != PLAY:
        return []
    top = state.agenda[-1]
    if top.kind not in DECISIONS:
        return []
    return DECISIONS[top.kind][0](state, top)


def answer_top(ctx: Ctx, command: Command) -> None:
    """Answer the decision on top of the agenda with ``command`` (already checked legal)."""
    top = ctx.state.agenda.pop()
    DECISIONS[top.kind][1](ctx, top, command)

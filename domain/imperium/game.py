"""Imperium: Classics and Legends (2-4 players, multiplayer rules) as a pure decider (see
``domain.core.game``); rulesets ``imperium-classics/1``, ``imperium/2``, ``imperium/3`` and
``imperium/4`` (the default).

The rules follow the French rulebook (``rules/imperium-rulebook-fr.txt``, multiplayer part);
sections are named in module docstrings and in every ``RuleViolation``. Card effects are data
(:mod:`domain.imperium.content`) interpreted by one step interpreter
(:mod:`domain.imperium.steps`). Every turn is a stack of small decisions (the agenda, see
:mod:`domain.imperium.engine`): ``legal_actions`` lists exactly the commands the decision on
top accepts, and ``decide`` accepts exactly those.

>>> from domain.core import Chance
>>> game = ImperiumGame()
>>> state = game.initial(game.decode_options({"nations": ["macedonians", "romans"]}), 2)
>>> for event in game.setup(state, Chance(b"doc", 0)):
...     state = game.evolve(state, event)
>>> game.pending(state).decision
'order'
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core import Chance, Command, Event, Game, MalformedCommand, Outcome, Pending
from domain.core import RuleViolation as Violation
from domain.core.game import PartyScore
from domain.core.refusal import refuse_choice
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium import scoring
from domain.imperium.checks import implemented
from domain.imperium.civ.content import assumptions as solo_assumptions
from domain.imperium.civ.scoring import public_score
from domain.imperium.civ.setup import check_options, solo_deal, solo_initial
from domain.imperium.commands import ImperiumCommand, PlayCard
from domain.imperium.engine import Ctx, answer_top, current_options, run
from domain.imperium.events import ImperiumEvent
from domain.imperium.evolve import evolve as fold
from domain.imperium.rulings import assumptions
from domain.imperium.setup import deal
from domain.imperium.state import OVER, ImperiumOptions, ImperiumState, SeatState
from domain.imperium.turns import play_block
from domain.imperium.view import ImperiumView, make_view, redact

PROMPTS: dict[str, tuple[str, str]] = {
    "order": ("order", "Choose your order: activate, innovate or pacify."),
    "activate": ("activate", "Play a card, use an exhaust effect, or end your actions."),
    "option": ("option", "Choose one of the options of the effect (or pass)."),
    "pick": ("pick", "Choose a card."),
    "payment": ("payment", "Choose how to pay (progress may replace materials or population)."),
    "cleanup_token": ("cleanup_token", "Put the cleanup token on a market card."),
    "cleanup_discard": ("cleanup_discard", "Discard a card from your hand, or stop."),
    "develop_reshuffle": ("develop", "Develop a card before reshuffling, or pass."),
    "draw_up_to": ("draw_up_to", "Choose how many cards to draw."),
    "react": ("react", "Use this card's exhaust effect in reaction, or pass."),
    "defend": ("defend", "Use a defence against the attack, or pass."),
    "bribe": ("bribe", "Give 1 progress (0) or let the player ignore your attack (1)."),
    "declare": ("declare", "Name a category before the top card of the main deck is revealed."),
}


class ImperiumGame(Game[ImperiumState]):
    """The Imperium rules (Classics and Legends nations; 2-4 seats, or 1 seat solo against the
    C.I.V.), ruleset ``imperium-classics/1``; :class:`ImperiumGame2` is ``imperium/2``."""

    name = "imperium"
    ruleset_version = "imperium-classics/1"
    #: the rules revision copied into every state (``state.rules``); 2 for ``imperium/2``.
    revision = 1
    min_seats = 1
    max_seats = 4
    state_type = ImperiumState
    options_type = ImperiumOptions
    #: the solo and campaign options came after imperium-classics/1's first release.
    late_options = frozenset(
        {
            "difficulty", "supreme_master", "civ_nation", "civ_side", "campaign_id",
            "deck_added", "deck_removed", "bonus_tokens", "unrest_removed",
        }
    )  # fmt: skip
    command_type = ImperiumCommand
    event_type = ImperiumEvent

    # -- construction -----------------------------------------------------------------
    def initial(self, options: Any, seats: int) -> ImperiumState:
        """Empty seats; nations and the market come with the setup events."""
        if not isinstance(options, ImperiumOptions):
            options = self.decode_options(options)
        check_options(options, seats)
        if seats == 1:
            # solo games of imperium-classics/1 and imperium/2 keep the revision-1 state they
            # were recorded with; from imperium/3 a solo game carries its ruleset's revision.
            return solo_initial(options, self.revision if self.revision >= 3 else 1)
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedCommand("SEATS", "Imperium plays 2 to 4 players here.")
        if options.box not in ("", *C.BOXES):
            raise MalformedCommand("BOX", f"Unknown box {options.box!r}: classics or legends.")
        return ImperiumState(
            options=options,
            n=seats,
            seats=[SeatState() for _ in range(seats)],
            revision=self.revision,
        )

    def setup(self, state: ImperiumState, chance: Chance) -> list[Event]:
        """Nations, market, opening hands, the Solstice card, the first order decision."""
        ctx = Ctx(state, chance)
        (solo_deal if state.civ is not None else deal)(ctx)
        self._settle(ctx)
        return ctx.events

    @staticmethod
    def _settle(ctx: Ctx) -> None:
        run(ctx)
        if ctx.state.phase != OVER:
            ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda), memo=ctx.state.memo))

    # -- the decider --------------------------------------------------------------------
    def decide(
        self, state: ImperiumState, seat: int, command: Command, chance: Chance
    ) -> list[Event]:
        """The events following ``command`` by ``seat``; raises ``RuleViolation``."""
        if not 0 <= seat < state.n:
            raise Violation("NO_SUCH_SEAT", f"There is no seat {seat} in this game.")
        if state.phase == OVER:
            raise Violation("GAME_OVER", "The game is over.", "Fin de partie")
        if not isinstance(command, ImperiumCommand):
            raise MalformedCommand("UNKNOWN_COMMAND", f"{type(command).__name__} is unknown.")
        if command not in self.legal_actions(state, seat):
            self._refuse(state, seat, command)
        ctx = Ctx(state, chance)
        answer_top(ctx, command)
        self._settle(ctx)
        return ctx.events

    def _refuse(self, state: ImperiumState, seat: int, command: Command) -> None:
        pending = self.pending(state)
        if seat not in pending.seats:
            raise Violation(
                "NOT_YOUR_TURN", f"Seat(s) {pending.seats} must decide now.", "Comment jouer"
            )
        if isinstance(command, PlayCard) and command.card in C.CARDS:
            steps, _ = play_block(command.card)
            if not implemented(steps):
                raise Violation(
                    "NOT_IMPLEMENTED",
                    f"The effect of {command.card} is not implemented yet.",
                )
        refuse_choice(command, self.legal_actions(state, seat), pending, "Comment jouer")

    def evolve(self, state: ImperiumState, event: Event) -> ImperiumState:
        """Fold one event in place (total, never draws)."""
        return fold(state, event)

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self, state: ImperiumState, seat: int) -> list[Command]:
        """Exactly the commands :meth:`decide` accepts from ``seat`` now."""
        if not 0 <= seat < state.n or state.phase == OVER:
            return []
        if not state.agenda or state.agenda[-1].seat != seat:
            return []
        return current_options(state)

    # -- progress -----------------------------------------------------------------------
    def pending(self, state: ImperiumState) -> Pending:
        """Who must decide what now."""
        if state.phase == OVER:
            return Pending((), "over", "The game is over.")
        if not state.agenda:
            return Pending((), "none", "")
        top = state.agenda[-1]
        decision, prompt = PROMPTS.get(top.kind, (top.kind, ""))
        if top.kind == "pick" and top.action:
            decision = f"pick_{top.action}"
        return Pending((top.seat,), decision, prompt)

    def is_over(self, state: ImperiumState) -> bool:
        """``True`` once the game was scored (or collapsed)."""
        return state.phase == OVER

    def outcome(self, state: ImperiumState) -> Outcome | None:
        """Final scores and winners (``None`` while playing)."""
        if state.phase != OVER or state.final_scores is None:
            return None
        return Outcome(
            tuple(state.final_scores),
            tuple(state.winners or ()),
            tuple(dict(d) for d in state.score_details),
        )

    def scores(self, state: ImperiumState) -> tuple[int, ...]:
        """The final scores once over; while playing, each seat's VP as everyone can count
        them: progress tokens and the cards in public zones. Hands, decks, histories and the
        Atlanteans' submerged pile are hidden, so they are left out: counting them would leak
        their cards through the score that every viewer (and the public game list) receives."""
        if state.final_scores is not None:
            return tuple(state.final_scores)
        if not state.seats or not state.seats[0].power:
            return tuple(0 for _ in range(state.n))
        hidden: dict[str, list[str]] = {
            zone: [] for zone in ("hand", "deck", "deck_top", "history", "looked", "submerged")
        }
        public = msgspec.structs.replace(
            state, seats=[msgspec.structs.replace(s, **hidden) for s in state.seats]
        )
        return tuple(scoring.score(public, s)["total"] for s in range(self.seat_count(state)))

    def parties(self, state: ImperiumState) -> tuple[PartyScore, ...]:
        """Solo games: the C.I.V., its public score while playing, its final one once over."""
        if state.civ is None:
            return ()
        winner = state.phase == OVER and not state.winners
        return (PartyScore(name="C.I.V.", score=public_score(state), winner=winner),)

    def turn_key(self, state: ImperiumState) -> str:
        """``round:turn:seat`` — changes with every new turn."""
        return f"{state.phase}:{state.round}:{state.turn}:{state.current}"

    def seat_count(self, state: ImperiumState) -> int:
        """Number of seats (the C.I.V. holds none)."""
        return 1 if state.civ is not None else state.n

    def balance_keys(self, state: ImperiumState) -> tuple[str, ...]:
        """The nation of each seat ("?" before setup)."""
        seats = state.seats[: self.seat_count(state)]
        return tuple(C.NATIONS[s.nation].name if s.nation else "?" for s in seats)

    # -- visibility -----------------------------------------------------------------------
    def view(self, state: ImperiumState, seat: int | None) -> ImperiumView:
        """Everything ``seat`` may see (``None``: a spectator)."""
        pending = self.pending(state)
        return make_view(state, seat, (pending.seats, pending.decision, pending.prompt))

    def redact_event(self, state: ImperiumState, event: Event, viewer: int | None) -> Event:
        """Hidden card moves and setup piles are blanked for viewers who may not see them."""
        return redact(state, event, viewer)

    # -- content --------------------------------------------------------------------------
    def assumptions(self) -> list[str]:
        """Every content record marked ``assumed``, then the engine's assumed rulings."""
        return C.assumptions() + assumptions() + solo_assumptions()


class ImperiumGame2(ImperiumGame):
    """Ruleset ``imperium/2``: the rules of ``imperium-classics/1`` corrected after the rules
    audit (see ``docs/games/rulesets.md``)."""

    ruleset_version = "imperium/2"
    revision = 2


class ImperiumGame3(ImperiumGame2):
    """Ruleset ``imperium/3``: ``imperium/2`` plus, in solo games, the Utopian C.I.V.'s
    voyage card on its reshuffles and the Arthurian C.I.V.'s pending quests (see
    ``docs/games/rulesets.md``); a solo game also carries the ``imperium/2`` corrections."""

    ruleset_version = "imperium/3"
    revision = 3


class ImperiumGame4(ImperiumGame3):
    """Ruleset ``imperium/4``: ``imperium/3`` plus, in solo games, the decision-table rows and
    row parts whose icons the OCR lost, read (``assumed``, with evidence) and resolved by the
    C.I.V. (the Arthurian C.I.V. brings its pending quests onto its deck; see
    ``docs/games/rulesets.md``)."""

    ruleset_version = "imperium/4"
    revision = 4


class ImperiumGame5(ImperiumGame4):
    """Ruleset ``imperium/5``: ``imperium/4`` corrected after a second audit of the rulebook,
    in multiplayer and solo games (see ``docs/games/rulesets.md``)."""

    ruleset_version = "imperium/5"
    revision = 5


__all__ = ["ImperiumGame", "ImperiumGame2", "ImperiumGame3", "ImperiumGame4", "ImperiumGame5"]

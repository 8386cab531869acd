"""Tapestry (base game, 2-5 players) as a pure decider (see ``domain.core.game``).

The rules follow the French rulebook (``rules/tapestry-rulebook-fr.txt``); sections are named
in module docstrings and in every ``RuleViolation``. A game goes: setup (capitals, civilizations
kept by each seat), then turns clockwise from a random first player. Each turn is an income
turn (the first one always) or an advance; a seat's game ends after its fifth income turn and
the game ends when every seat has finished.

Every turn is a stack of small decisions (the agenda, see :mod:`domain.tapestry.engine`):
``legal_actions`` lists exactly the commands the decision on top accepts, and ``decide``
accepts exactly those.

>>> from domain.core import Chance
>>> game = TapestryGame()
>>> state = game.initial(game.decode_options({}), 3)
>>> for event in game.setup(state, Chance(b"doc", 0)):
...     state = game.evolve(state, event)
>>> game.pending(state).decision
'setup'
"""

from __future__ import annotations

from typing import Any

from domain.core import Chance, Command, Event, Game, MalformedCommand, Outcome, Pending
from domain.core import RuleViolation as Violation
from domain.core.game import PartyScore
from domain.core.refusal import refuse_choice
from domain.tapestry import (
    cards,
    civ_urban_planners,
    handlers,  # noqa: F401  (every handler registered, in one order)
    setup,
)
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civ_catalogue import starting_civilization_id
from domain.tapestry.commands import (
    ChooseCapital,
    ChooseCivilization,
    PlayTapestry,
    TapestryCommand,
)
from domain.tapestry.engine import Ctx, answer_top, current_options, run
from domain.tapestry.events import TapestryEvent
from domain.tapestry.evolve import evolve as fold
from domain.tapestry.expansions import inventory
from domain.tapestry.prompts import PROMPTS
from domain.tapestry.prompts_boxes import CARD_TURN_PROMPT
from domain.tapestry.rules import CARD_TURNS, play_on_mode
from domain.tapestry.solo import hooks as solo
from domain.tapestry.state import (
    EXPANSIONS,
    OVER,
    PLAY,
    SETUP,
    SeatState,
    TapestryOptions,
    TapestryOptions2,
    TapestryRules,
    TapestryState,
)
from domain.tapestry.view import TapestryView, make_view, redact


class TapestryGame(Game[TapestryState]):
    """The Tapestry rules (base game, 2-5 seats), ruleset ``tapestry/1``.

    ``revision`` is the rules revision copied into every state it creates
    (:class:`~domain.tapestry.state.TapestryRules`); :class:`TapestryGame2` is ``tapestry/2``.
    """

    name = "tapestry"
    ruleset_version = "tapestry/1"
    revision = 1
    min_seats = 1  # 1 seat: against the Automa and the Shadow Empire (domain.tapestry.solo)
    max_seats = 5
    state_type = TapestryState
    options_type = TapestryOptions
    #: the solo options came after tapestry/1's first release.
    late_options = frozenset({"automa_level", "shadow_empire"})
    command_type = TapestryCommand
    event_type = TapestryEvent

    # -- construction -----------------------------------------------------------------
    def initial(self, options: Any, seats: int) -> TapestryState:
        """Seats with empty income mats; the board comes with the setup events."""
        if not isinstance(options, TapestryOptions):
            options = self.decode_options(options)
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedCommand("SEATS", "This Tapestry engine plays 1 to 5 players.")
        solo.check_options(options, seats)
        if isinstance(options, TapestryOptions2) and options.island_start and seats < 2:
            raise MalformedCommand(
                "INVALID_OPTION",
                "Option island_start: the start on the nearest island needs 2 to 5 seats "
                "(a solo game starts where the Automa's rules say).",
            )
        if len(options.starting_civilizations) > seats:
            raise ValueError(f"starting_civilizations has more entries than the {seats} seats")
        rules = TapestryRules(revision=self.revision)
        if not isinstance(options, TapestryOptions2):  # no box in play: base civilizations
            for text in options.starting_civilizations:
                if text:
                    starting_civilization_id(text)
        if isinstance(options, TapestryOptions2):
            rules = variant_rules(options, self.revision)
            # the tapestry/1 options, every one of them (the solo options too)
            options = TapestryOptions(
                **{name: getattr(options, name) for name in TapestryOptions.__struct_fields__}
            )
        for text in options.starting_civilizations:
            if text:  # a civilization of a box not in play is refused, naming the box
                starting_civilization_id(text, rules.expansions)
        return TapestryState(
            options=options, seats=[SeatState() for _ in range(seats)], rules=rules
        )

    def setup(self, state: TapestryState, chance: Chance) -> list[Event]:
        """Board, tech display, capitals and civilizations dealt, first player."""
        ctx = Ctx(state, chance)
        setup.deal(ctx)
        solo.prepare(ctx)
        self._settle(ctx)
        return ctx.events

    @staticmethod
    def _settle(ctx: Ctx) -> None:
        run(ctx)
        if ctx.state.phase != SETUP:
            ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda)))

    # -- the decider --------------------------------------------------------------------
    def decide(
        self, state: TapestryState, seat: int, command: Command, chance: Chance
    ) -> list[Event]:
        """The events following ``command`` by ``seat``; raises ``RuleViolation``."""
        if not 0 <= seat < state.n:
            raise Violation("NO_SUCH_SEAT", f"There is no seat {seat} in this game.")
        if state.phase == OVER:
            raise Violation("GAME_OVER", "The game is over.", "Fin de la partie")
        if not isinstance(command, TapestryCommand):
            raise MalformedCommand("UNKNOWN_COMMAND", f"{type(command).__name__} is unknown.")
        if command not in self.legal_actions(state, seat):
            self._refuse(state, seat, command)
        ctx = Ctx(state, chance)
        if state.phase == SETUP:
            if isinstance(command, ChooseCapital):
                setup.choose_capital(ctx, seat, command.capital)
            elif isinstance(command, ChooseCivilization):
                ctx.emit(ev.CivilizationChosen(seat=seat, civilization=command.civilization))
            if setup.ready(ctx.state):
                setup.begin(ctx)
            self._settle(ctx)
            return ctx.events
        answer_top(ctx, command)
        self._settle(ctx)
        return ctx.events

    def _refuse(self, state: TapestryState, seat: int, command: Command) -> None:
        if isinstance(command, PlayTapestry) and command.card in C.TAPESTRY_CARDS:
            cards.check_playable(command.card)
        pending = self.pending(state)
        if seat not in pending.seats:
            rule = "Mise en place des joueurs" if state.phase == SETUP else "Déroulement du jeu"
            raise Violation("NOT_YOUR_TURN", f"Seat(s) {pending.seats} must decide now.", rule)
        if state.phase == SETUP:
            raise Violation(
                "NOT_OFFERED",
                "Choose one of the capitals/civilizations dealt to you.",
                "Mise en place des joueurs",
            )
        refuse_choice(command, self.legal_actions(state, seat), pending, "Déroulement du jeu")

    def evolve(self, state: TapestryState, event: Event) -> TapestryState:
        """Fold one event in place (total, never draws)."""
        return fold(state, event)

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self, state: TapestryState, seat: int) -> list[Command]:
        """Exactly the commands :meth:`decide` accepts from ``seat`` now."""
        if not 0 <= seat < state.n or state.phase == OVER:
            return []
        if state.phase == SETUP:
            return setup.setup_options(state, seat)
        if not state.agenda or state.agenda[-1].seat != seat:
            return []
        return current_options(state)

    # -- progress -----------------------------------------------------------------------
    def pending(self, state: TapestryState) -> Pending:
        """Who must decide what now."""
        if state.phase == OVER:
            return Pending((), "over", "The game is over.")
        if state.phase == SETUP:
            seats = tuple(i for i, s in enumerate(state.seats) if s.capital < 0 or not s.civs)
            return Pending(seats, "setup", "Keep one capital and one civilization.")
        if not state.agenda:
            return Pending((), "none", "")
        top = state.agenda[-1]
        decision, prompt = PROMPTS.get(top.kind, (top.kind, ""))
        if top.kind == "turn" and play_on_mode(state.seats[top.seat]) == CARD_TURNS:
            prompt = CARD_TURN_PROMPT
        return Pending((top.seat,), decision, prompt)

    def is_over(self, state: TapestryState) -> bool:
        """``True`` once every seat has finished and the game was scored."""
        return state.phase == OVER

    def is_setup(self, state: TapestryState) -> bool:
        """``True`` while seats keep their capital and civilization."""
        return state.phase == SETUP

    def outcome(self, state: TapestryState) -> Outcome | None:
        """Final scores and winners (``None`` while playing)."""
        if state.phase != OVER or state.final_scores is None:
            return None
        details = tuple(
            {
                "vp": s.vp,
                "resources": sum(s.resources),
                "landmarks": len(s.landmarks),
                "territories": sum(1 for h in state.hexes if h.controller() == i),
            }
            for i, s in enumerate(state.seats)
        )
        return Outcome(tuple(state.final_scores), tuple(state.winners or ()), details)

    def scores(self, state: TapestryState) -> tuple[int, ...]:
        """Each seat's VP now (the final scores once over)."""
        return tuple(s.vp for s in state.seats)

    def parties(self, state: TapestryState) -> tuple[PartyScore, ...]:
        """The Automa's score in a solo game (no other party scores)."""
        return solo.parties(state)

    def turn_key(self, state: TapestryState) -> str:
        """``phase:turn:seat`` — changes with every new turn."""
        if state.phase == SETUP:
            return "setup"
        return f"{state.phase}:{state.turn}:{state.current}"

    def seat_count(self, state: TapestryState) -> int:
        """Number of seats."""
        return state.n

    def balance_keys(self, state: TapestryState) -> tuple[str, ...]:
        """The name of each seat's starting civilization ("?" while not chosen)."""
        return tuple(C.CIVILIZATIONS[s.civs[0]].name if s.civs else "?" for s in state.seats)

    # -- visibility -----------------------------------------------------------------------
    def view(self, state: TapestryState, seat: int | None) -> TapestryView:
        """Everything ``seat`` may see (``None``: a spectator)."""
        pending = self.pending(state)
        return make_view(state, seat, (pending.seats, pending.decision, pending.prompt))

    def redact_event(self, state: TapestryState, event: Event, viewer: int | None) -> Event:
        """Other seats' draws and deals are hidden; blind tapestry cards from everyone."""
        return redact(state, event, viewer)

    # -- content --------------------------------------------------------------------------
    def assumptions(self) -> list[str]:
        """Every content record marked ``assumed`` (``"<file>#<record>: <note>"``)."""
        return C.assumptions() + solo.assumptions()

    def missing_content(self) -> list[str]:
        """The expansion components in none of our sources (``expansions.json``)."""
        return inventory.report_lines()

    def notes(self, state: TapestryState) -> tuple[str, ...]:
        """For each box in play, the components left out because no source gives them (and, in
        a solo game, the box's solo changes that need them)."""
        return civ_urban_planners.notes(inventory.notes(state.rules.expansions)) + solo.notes(state)


class TapestryGame2(TapestryGame):
    """Ruleset ``tapestry/2``: the rules of ``tapestry/1`` corrected after the rules audit,
    and the rulebook's variants as options (see ``docs/games/rulesets.md``).

    * "Fin de la partie": a tie goes to the tallest landmark in the capital, then to the most
      resources left, else the win is shared (:func:`domain.tapestry.scoring.winners`);
    * Militarism's outpost is a choice ("vous pouvez"), Revolution lets the player choose the
      territories, the Trap gives the defender no resource;
    * "VARIANTES": :class:`~domain.tapestry.state.TapestryOptions2`;
    * the expansion boxes in play (``TapestryOptions2.expansions``, copied in canonical order
      into ``TapestryRules.expansions``).
    """

    ruleset_version = "tapestry/2"
    revision = 2
    options_type = TapestryOptions2
    #: the island start and the expansion boxes came after tapestry/2's first release
    #: (base-game creation events stay byte-identical: each is recorded only when set).
    late_options = TapestryGame.late_options | {"island_start", "expansions", "civilization_box"}


class TapestryGame3(TapestryGame2):
    """Ruleset ``tapestry/3``: the rules of ``tapestry/2`` with the civilizations of Arts &
    Architecture and Fantasies & Futures, and the Riverfolk, gained during the game too (see
    ``docs/games/rulesets.md``).

    * "Gagnez une nouvelle civilisation au hasard" draws them when their box is in play, each
      with its mat's mid-game rule (:data:`~domain.tapestry.civ_catalogue.GAINABLE_FROM`,
      :data:`~domain.tapestry.civs.RETURNABLE`);
    * the outpost the Celestials' token replaces goes back to the seat's supply.
    """

    ruleset_version = "tapestry/3"
    revision = 3


class TapestryGame4(TapestryGame3):
    """Ruleset ``tapestry/4``: the rules of ``tapestry/3`` corrected after the audits of the
    base game, of the solo mode and of the boxes (see ``docs/games/rulesets.md``).

    * a THIS ERA card played during income turn 5 (over the era-4 card) is in force for the
      rest of that income turn (:func:`~domain.tapestry.rules.active_card`; rulebook l.191);
    * solo: a civilization gained during the game is never one the player aid removes from
      solo, with or without a box (:func:`~domain.tapestry.civs.solo_pool`);
    * solo levels 5-6: when the bots play first, their first income turn opens play, after
      the human's setup, with its advances (``domain.tapestry.solo.turn``, the engine's
      :data:`~domain.tapestry.engine.OPENING` hook);
    * solo: the Automa aims at the middle island only while it can still be conquered
      (:func:`~domain.tapestry.solo.conquest.island_open`; player aid l.350);
    * a finished Illuminati still scores the points of the conquer dice an opponent rolls
      from its mat (``domain.tapestry.civ_illuminati``; rulebook l.546).
    """

    ruleset_version = "tapestry/4"
    revision = 4


def variant_rules(options: TapestryOptions2, revision: int) -> TapestryRules:
    """The rules of a game created with ``options`` (card names checked; ``MalformedCommand``
    names an unknown card)."""
    return TapestryRules(
        revision=revision,
        draw_two_tapestry=options.draw_two_tapestry,
        draw_two_civilizations=options.draw_two_civilizations,
        nanotechnology_two_cards=options.nanotechnology_two_cards,
        island_start=options.island_start,
        removed_tapestry=_card_ids(
            "removed_tapestry_cards",
            options.removed_tapestry_cards,
            {c.id: (c.key, c.name, c.name_fr) for c in C.TAPESTRY_CARDS.values()},
        ),
        removed_tech=_card_ids(
            "removed_tech_cards",
            options.removed_tech_cards,
            {c.id: (c.name, c.name_fr) for c in C.TECH_CARDS.values()},
        ),
        expansions=tuple(box for box in EXPANSIONS if box in options.expansions),
        civilization_box=options.civilization_box,
    )


def _card_ids(
    field: str, wanted: tuple[str, ...], names: dict[int, tuple[str, ...]]
) -> tuple[int, ...]:
    """Card ids for names given by a player: a key, an English or French name (any case), or
    the id as text."""
    found: list[int] = []
    for text in wanted:
        folded = text.strip().casefold()
        match = [
            card
            for card, labels in sorted(names.items())
            if folded == str(card) or folded in (label.casefold() for label in labels if label)
        ]
        if not match:
            raise MalformedCommand(
                "INVALID_OPTION",
                f"Option {field}: unknown card {text!r}; "
                f"known: {', '.join(sorted(n[0] for n in names.values()))}.",
            )
        if match[0] not in found:
            found.append(match[0])
    return tuple(sorted(found))


__all__ = ["PLAY", "TapestryGame", "TapestryGame2", "TapestryGame3", "TapestryGame4"]

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
from domain.tapestry import (  # noqa: F401  (registers frame kinds and tokens)
    cards,
    civ_architects,
    civ_artificers,
    civ_celestials,
    civ_collectors,
    civ_craftsmen,
    civ_elder_ones,
    civ_faefolk,
    civ_gamblers,
    civ_genies,
    civ_heralds,
    civ_historians,
    civ_illuminati,
    civ_inventors,
    civ_isolationists,
    civ_merfolk,
    civ_militants,
    civ_mystics,
    civ_nomads,
    civ_psionics,
    civ_relentless,
    civ_renegades,
    civ_traders,
    civ_urban_planners,
    civ_weefolk,
    civ_werefolk,
    civs,
    gains,
    mapping,
    offers,
    scoring,
    setup,
    tech,
    tracks,
    turns,
)
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import (
    ChooseCapital,
    ChooseCivilization,
    PlayTapestry,
    TapestryCommand,
)
from domain.tapestry.engine import Ctx, answer_top, current_options, run
from domain.tapestry.events import TapestryEvent
from domain.tapestry.evolve import evolve as fold
from domain.tapestry.expansions import (  # noqa: F401  (registers the boxes' civilizations)
    civ_advisors,
    civ_aliens,
    civ_infiltrators,
    civ_islanders,
    civ_recyclers,
    civ_riverfolk,
    civ_spies,
    civ_tinkerers,
    civ_treasure_hunters,
    civ_utilitarians,
    inventory,
)
from domain.tapestry.prompts_boxes import BOX_PROMPTS, CARD_TURN_PROMPT
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

PROMPTS: dict[str, tuple[str, str]] = {
    "turn": ("turn", "Take an income turn or advance on a track."),
    "choose": ("choose", "Choose one of the offered benefits."),
    "order": ("order", "Choose which benefit to take next."),
    "resource": ("resource", "Choose a resource."),
    "bonus": ("bonus", "Pay for the optional bonus, or decline it."),
    "build": ("place_building", "Place the building in your capital."),
    "explore": ("explore", "Choose a territory tile, a hex and a rotation to explore."),
    "explore_space": ("explore_space", "Choose a space tile to explore."),
    "conquer": ("conquer", "Choose a territory to conquer."),
    "trap": ("trap", "Your territory is being conquered: play a Trap or let it fall."),
    "militarism": (
        "militarism",
        "Militarism: put an outpost on the territory you explored (0), or decline.",
    ),
    "keep_tapestry": (
        "keep_tapestry",
        "Variant: discard one of the tapestry cards just drawn (its id); keep the others.",
    ),
    "keep_civilization": (
        "keep_civilization",
        "Variant: keep one of the civilizations drawn (its id); the other goes back.",
    ),
    "revolution": (
        "revolution",
        "Revolution: choose a territory (hex index) where your outpost stands back up, or stop.",
    ),
    "die": ("choose_die", "Keep the red (0) or the black (1) conquer die."),
    "research": ("research", "Advance on the rolled track (0) or stay (1)."),
    "research_pick": ("research_pick", "Keep the first (0) or the second (1) science roll."),
    "invent": ("invent", "Take a face-up tech card or the top of the deck."),
    "upgrade": ("upgrade", "Upgrade one of your tech cards."),
    "tech_pick": ("tech_pick", "Choose a tech card whose benefit you gain again."),
    "play_tapestry": ("play_tapestry", "Play a tapestry card from your hand."),
    "track": ("track", "Choose a track."),
    "token_pick": ("token_pick", "Choose which of your tokens advances."),
    "civ_choice": ("civilization", "Use your civilization's ability."),
    "civ_order": (
        "civilization_order",
        "Choose which of your civilizations uses its income ability first.",
    ),
    "militants_place": ("militants_place", "Put an outpost on a row of your Militants mat."),
    "democracy": ("democracy", "Discard a tapestry card for 2 VP, or stop."),
    "espionage": ("espionage", "Choose a tapestry card visible on an income mat to copy."),
    "guilds": ("guilds", "Exchange resources for VP (positive) or VP for resources."),
    "colonialism": ("colonialism", "Choose a territory tile you control."),
    "trade_economy": ("trade_economy", "Choose an opponent (tens) and a track (units)."),
    "olympic": ("olympic", "Pay a worker for 10 VP, or decline."),
    "card_track": ("card_track", "Choose a track (Socialism: track * 100 + the space to reach)."),
    "tycoon_invent": ("invent", "Take a face-up tech card; it is upgraded at once."),
    "alliance": ("alliance", "Choose the opponent you ally with."),
    "marriage": ("marriage", "Choose an opponent (tens) and a track (units)."),
    "mercantilism": ("mercantilism", "Convert a food into another resource for 2 VP, or stop."),
    "sail_give": ("age_of_sail", "Give a territory tile (opponent * 100 + tile) for 3 VP?"),
    "exploitation": ("exploitation", "Keep the VP (0) or take the tile's benefit again (1)."),
    "tyranny": ("tyranny", "Play a card you just drew over Tyranny for 5 VP, or decline."),
    "architects_cube": (
        "architects_cube",
        "Put an impassable cube on an empty plot (one per district).",
    ),
    "architects_swap": (
        "architects_swap",
        "Swap two income buildings (plot a * 81 + plot b; plot = row * 9 + col), or stop.",
    ),
    "historians_give": (
        "historians_give",
        "Give one of your Historians tokens: opponent (tens) and token (units).",
    ),
    "heralds": (
        "heralds",
        "Put a Herald token on a visible WHEN PLAYED tapestry card (owner * 100 + its place on "
        "that mat) to use its ability, or decline.",
    ),
    "herald_spy": ("espionage", "Choose a visible WHEN PLAYED tapestry card to copy."),
    "herald_fire": (
        "maker_of_fire",
        "Play a WHEN PLAYED tapestry card over Maker of Fire, or decline.",
    ),
    "inventors": (
        "inventors",
        "Put an Inventors token on a bottom- or middle-row tech card of any seat: it moves up.",
    ),
    "traders": (
        "traders",
        "Put a trade token on an empty territory or beside a lone opposing outpost (hex index), "
        "or decline.",
    ),
    "isolationists": (
        "isolationists",
        "Leave an Isolationist token with your outpost (0: the territory can no longer be "
        "conquered, 1 resource of your choice), or decline.",
    ),
    "treasure_hunters": (
        "treasure_hunters",
        "Treasure Hunters: put a token on an empty territory next to yours showing an unclaimed "
        "treasure's terrain (treasure slot * 100 + hex index), or decline.",
    ),
    "treasure_die": ("treasure_die", "Keep the first (0) or the second (1) die thrown."),
    "recyclers_keep": (
        "recyclers_keep",
        "Recyclers: keep one of the three tech cards drawn (its card id); the others are "
        "discarded.",
    ),
    "advisors_discard": (
        "advisors_discard",
        "Advisors: discard a tapestry card of your hand (its card id) for a resource of choice.",
    ),
    "advisors_give": (
        "advisors_give",
        "Advisors: give a neighbour about to draw a tapestry card one of yours (its card id), "
        "then draw one; or decline.",
    ),
    "advisors_gift": (
        "advisors_gift",
        "Advisors: give a tapestry card to a neighbour for 5 VP (card id * 10 + their seat), "
        "or decline.",
    ),
    "aliens": (
        "aliens",
        "Aliens: explore a space tile of your supply onto the mat (its id; + 100 to throw away "
        "the tile there first and pay a resource), or gain a resource (0; 100: after throwing "
        "the mat's tile away).",
    ),
    "infiltrators": (
        "infiltrators",
        "Infiltrators: put an outpost beside a lone opposing outpost (the territory's board "
        "index), or mark an opponent's capital (1000 + their seat).",
    ),
    "islanders": (
        "islanders",
        "Islanders: explore a hex of your mat's island (hex * 10000 + tile * 10 + rotation), "
        "or decline.",
    ),
    "spies": (
        "spies",
        "Spies: copy from a neighbour with an unused option (option * 10000 + neighbour * 1000 "
        "+ item: 0 a WHEN PLAYED card on their mat, item its place; 1 a tile in their supply, "
        "item its id, 500 + id for a space tile; 2 their track space, item the track; 3 a tech "
        "card at its row, item its id), or decline.",
    ),
    "tinkerers": (
        "tinkerers",
        "Tinkerers: use an unused option on a track token (option * 100 + track * 10 + token: "
        "0 refund its space's cost, 1 match the nearest opponent ahead, 2 move back 3, 3 jump "
        "to the next bonus), or decline.",
    ),
    "utilitarians_move": (
        "utilitarians_move",
        "Utilitarians: move a token onto the landmark just gained from the landmark it leaves "
        "(its id), or decline.",
    ),
    "utilitarians_place": (
        "utilitarians_place",
        "Utilitarians: put a token on a landmark of the mat you own (its id).",
    ),
    "faefolk": (
        "faefolk",
        "Gain a tapestry card before the Faefolk token moves (0), or decline.",
    ),
    "elder_ones_discard": (
        "elder_ones_discard",
        "Discard a tapestry card from your hand for 2 resources of your choice (its id), or "
        "decline.",
    ),
    "gamblers": (
        "gamblers",
        "Play one of the revealed WHEN PLAYED tapestry cards over the era slot (or, with none, "
        "keep one revealed card: its id).",
    ),
    "genies_wish": (
        "genies_wish",
        "The Genies grant you a wish: choose a circled benefit of their ring (its index) to "
        "score; they score it too.",
    ),
    "genies_grant": (
        "genies_grant",
        "Take the squared benefit before (0) or after (1) the circled benefit chosen.",
    ),
    "genies_final": (
        "genies_final",
        "Choose a circled benefit of the Genies' ring to score (two different ones).",
    ),
    "illuminati_keep": (
        "illuminati_keep",
        "Keep one of the three tapestry cards drawn (its id); the others are discarded.",
    ),
    "illuminati_advance": (
        "illuminati_advance",
        "An opponent took the science die from your mat: advance on the track rolled (0), "
        "without benefit or bonus, or decline.",
    ),
    "collectors": (
        "collectors",
        "Put the tapestry card, territory tile or tech card just gained (its id) on your "
        "Collectors mat for its reward, or decline.",
    ),
    "renegades": (
        "renegades",
        "Advance on the Renegades track for its reward instead of this space's benefit and bonus "
        "(0), or decline.",
    ),
    "celestials_move": (
        "celestials_move",
        "Move your floating capital to an adjacent territory (its board index) and gain both "
        "conquer dice, or decline.",
    ),
    "weefolk_give": (
        "weefolk_give",
        "Give a Weefolk token to an opponent (their seat): they place it in their capital.",
    ),
    "weefolk_plot": (
        "weefolk_plot",
        "Place the Weefolk token on a plot of your capital (row * 9 + col); a full capital: on "
        "an income building, set aside.",
    ),
    "weefolk_swap": (
        "weefolk_swap",
        "Spend a territory tile (its id) for an income building of your choice, or decline.",
    ),
    "werefolk_regress": (
        "werefolk_regress",
        "The space tile landed face up: regress on a track (its index; then explore the tile "
        "onto the mat), or decline for 4 VP.",
    ),
    "werefolk_advance": (
        "werefolk_advance",
        "The space tile landed face down: advance on a track (its index), benefit and bonus free.",
    ),
    "mystics_predict": (
        "mystics_predict",
        "Predict (sealed) your count in this category: tech cards, complete districts, "
        "controlled territories or completed tracks (frame ints[0]).",
    ),
}
PROMPTS.update(BOX_PROMPTS)


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
                    setup.starting_civilization_id(text)
        if isinstance(options, TapestryOptions2):
            rules = variant_rules(options, self.revision)
            # the tapestry/1 options, every one of them (the solo options too)
            options = TapestryOptions(
                **{name: getattr(options, name) for name in TapestryOptions.__struct_fields__}
            )
        for text in options.starting_civilizations:
            if text:  # a civilization of a box not in play is refused, naming the box
                setup.starting_civilization_id(text, rules.expansions)
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
        if state.phase == SETUP:
            raise Violation(
                "NOT_OFFERED",
                "Choose one of the capitals/civilizations dealt to you.",
                "Mise en place des joueurs",
            )
        pending = self.pending(state)
        if seat not in pending.seats:
            raise Violation(
                "NOT_YOUR_TURN", f"Seat(s) {pending.seats} must decide now.", "Déroulement du jeu"
            )
        raise Violation(
            "ILLEGAL_CHOICE",
            f"{type(command).__name__} does not answer the current decision "
            f"({pending.decision}): {pending.prompt}",
            "Déroulement du jeu",
        )

    def evolve(self, state: TapestryState, event: Event) -> TapestryState:
        """Fold one event in place (total, never draws)."""
        return fold(state, event)

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self, state: TapestryState, seat: int) -> list[Command]:
        """Exactly the commands :meth:`decide` accepts from ``seat`` now."""
        if not 0 <= seat < state.n or state.phase == OVER:
            return []
        player = state.seats[seat]
        if state.phase == SETUP:
            found: list[Command] = []
            if player.capital < 0:
                found.extend(ChooseCapital(capital=c) for c in player.capital_offer)
            if not player.civs:
                found.extend(ChooseCivilization(civilization=c) for c in player.civ_offer)
            return found
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
    late_options = TapestryGame.late_options | {"island_start", "expansions"}


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


__all__ = ["PLAY", "TapestryGame", "TapestryGame2"]

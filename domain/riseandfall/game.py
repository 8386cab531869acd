"""Rise & Fall for 2 to 4 players as a pure decider (see ``domain.core.game``).

The rules follow the French rulebook (``rules/rise-and-fall-rulebook-fr.txt``); rulebook
sections are named in every ``RuleViolation``. Choices the rulebook leaves open are recorded
in ``content/*.json`` and listed by :func:`domain.riseandfall.content.assumptions`.

A game goes: world (random from the seed, or built by the seats), initial deployment, then
rounds of A (sealed card choice), B (actions in turn order), C (sealed decline when a trophy
was won), D (buy-back in turn order), E (recycling, first-player token) and F (end check).
The optional 3-second rule is always ignored: a seat's card choice waits for that seat.

>>> from domain.core import Chance
>>> game = RiseAndFall()
>>> state = game.initial(game.decode_options({}), 2)
>>> for event in game.setup(state, Chance(b"doc", 0)):
...     state = game.evolve(state, event)
>>> game.pending(state).decision
'deploy'
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from domain.core import Chance, Command, Event, Game, MalformedCommand, Outcome, Pending
from domain.core import RuleViolation as Violation
from domain.riseandfall import content, phases, tiles
from domain.riseandfall import events as ev
from domain.riseandfall.actions import activation_event, legal_activations
from domain.riseandfall.commands import (
    Activate,
    BuyBack,
    ChooseCard,
    DeclineCards,
    Deploy,
    EndActions,
    PlaceTile,
    RiseFallCommand,
    SkipBuyBack,
)
from domain.riseandfall.content import (
    KIND,
    PIECES,
    SHIP,
    STARTING,
    STARTING_COINS,
    STONE_IN_BOX,
    WOOD_IN_BOX,
    bank_coins,
)
from domain.riseandfall.events import RiseFallEvent
from domain.riseandfall.evolve import evolve as fold
from domain.riseandfall.rulesets import RULES_1, RULES_2, RiseFallOptions2, RiseFallRules
from domain.riseandfall.scoring import score_sheets
from domain.riseandfall.state import (
    ACTIONS,
    BUYBACK,
    CELLS,
    CHOOSE,
    DECLINE,
    DEPLOY,
    OVER,
    WORLD,
    RiseFallOptions,
    RiseFallState,
    SeatState,
)
from domain.riseandfall.view import RiseFallView, make_view, redact
from domain.riseandfall.world import Terrain, World, geometry
from domain.riseandfall.worldbuild import (
    check_placement,
    check_tile,
    initial_world,
    legal_placements,
    supply,
)
from domain.riseandfall.worldrandom import random_world

R_DEPLOY = "Déploiement initial"
R_CHOOSE = "A - Jouer une carte Civilisation"
R_ACTIONS = "B - Actions"
R_DECLINE = "C - Déclin"
R_BUYBACK = "D - Rachat d'une carte en Déclin"
_PHASE_COMMANDS: dict[str, tuple[type[Command], ...]] = {
    WORLD: (PlaceTile,),
    DEPLOY: (Deploy,),
    CHOOSE: (ChooseCard,),
    ACTIONS: (Activate, EndActions),
    DECLINE: (DeclineCards,),
    BUYBACK: (BuyBack, SkipBuyBack),
}
_PROMPTS = {
    WORLD: "place_tile",
    DEPLOY: "deploy",
    CHOOSE: "choose_card",
    ACTIONS: "actions",
    DECLINE: "decline",
    BUYBACK: "buy_back",
}


def _kind_of(name: str) -> int:
    kind = KIND.get(name, -1)
    if kind < 0:
        raise MalformedCommand(
            "UNKNOWN_CARD", f"Unknown piece or card {name!r}; known: {', '.join(PIECES)}."
        )
    return kind


#: stands in for the world while a state is copied (:func:`_copy`)
_NO_WORLD = World(terrain=[], tiles=[])


def _copy(state: RiseFallState) -> RiseFallState:
    """A private copy of ``state`` for deciding a command (:class:`~domain.riseandfall.phases.Sim`).

    Only a ``TilePlaced`` event changes the world, and only during world building
    ("Création du Monde"): after it the copy shares the world object instead of copying it
    (about half of the state's bytes), which changes no event and no state.
    """
    if state.phase == WORLD:
        return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=RiseFallState)
    bare = msgspec.structs.replace(state, world=_NO_WORLD)
    copy = msgspec.msgpack.decode(msgspec.msgpack.encode(bare), type=RiseFallState)
    copy.world = state.world
    return copy


class RiseAndFall(Game[RiseFallState]):
    """The Rise & Fall rules (2–4 seats)."""

    name = "riseandfall"
    ruleset_version = "riseandfall/1"
    min_seats = 2
    max_seats = 4
    state_type = RiseFallState
    options_type: ClassVar[type[msgspec.Struct]] = RiseFallOptions
    command_type = RiseFallCommand
    event_type = RiseFallEvent
    #: the rule parameters of this ruleset (see :mod:`domain.riseandfall.rulesets`).
    rules: ClassVar[RiseFallRules] = RULES_1

    # -- construction ---------------------------------------------------------------------

    def initial(self, options: Any, seats: int) -> RiseFallState:
        """Seats with their three starting cards in hand and pieces to deploy; a full bank."""
        if not isinstance(options, (RiseFallOptions, RiseFallOptions2)):
            options = self.decode_options(options)
        rules = self.rules
        if getattr(options, "scoring", "full") == "quick":
            rules = msgspec.structs.replace(rules, quick_scoring=True)
        options = RiseFallOptions(world=options.world, trophies=options.trophies)
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedCommand("SEATS", "Rise & Fall is played by 2 to 4 players.")
        players = [
            SeatState(
                hand=sorted(STARTING),
                to_deploy=sorted(STARTING),
                coins=STARTING_COINS,
                reserve=[k for k in range(len(PIECES)) if k not in STARTING],
            )
            for _ in range(seats)
        ]
        return RiseFallState(
            options=options,
            world=initial_world(seats, rules.grid),
            seats=players,
            bank_coins=bank_coins(seats) - STARTING_COINS * seats,
            bank_wood=WOOD_IN_BOX,
            bank_stone=STONE_IN_BOX,
            rules=rules,
        )

    def setup(self, state: RiseFallState, chance: Chance) -> list[Event]:
        """The random world and first player, or the first player of the world building."""
        events: list[Event] = []
        if state.options.world == "players":
            events.append(ev.FirstPlayerDrawn(seat=chance.below(state.n), purpose="world"))
            return events
        rules = state.rules
        for placement in random_world(state.n, chance, rules.grid, rules.max_moves):
            events.append(ev.WorldTilePlaced(seat=-1, placement=placement))
        events.append(ev.FirstPlayerDrawn(seat=chance.below(state.n), purpose="deployment"))
        return events

    # -- the decider --------------------------------------------------------------------
    def decide(
        self, state: RiseFallState, seat: int, command: Command, chance: Chance
    ) -> list[Event]:
        """The events following ``command`` by ``seat``; raises ``RuleViolation``."""
        if not 0 <= seat < state.n:
            raise Violation("NO_SUCH_SEAT", f"There is no seat {seat} in this game.")
        _check_cells(command)
        if state.phase == OVER:
            raise Violation("GAME_OVER", "The game is over.", "F - Fin de tour")
        allowed = _PHASE_COMMANDS.get(state.phase, ())
        if not isinstance(command, allowed):
            names = ", ".join(c.__name__ for c in allowed)
            raise Violation(
                "WRONG_PHASE", f"Now ({state.phase}) the game expects {names}.", _rule(state.phase)
            )
        if state.seats[seat].extinct:
            raise Violation(
                "EXTINCT",
                "Your civilisation is extinct.",
                "Cas rares (Extinction d'une civilisation)",
            )
        try:
            return self._dispatch(state, seat, command, chance)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
            # Commands built in Python without msgspec validation (e.g. a str cell).
            raise MalformedCommand("MALFORMED_COMMAND", f"Malformed command: {error}") from error

    def _dispatch(
        self, state: RiseFallState, seat: int, command: Command, chance: Chance
    ) -> list[Event]:
        if isinstance(command, PlaceTile):
            return self._place_tile(state, seat, command, chance)
        if isinstance(command, Deploy):
            return self._deploy(state, seat, command)
        if isinstance(command, ChooseCard):
            return self._choose(state, seat, command, chance)
        if isinstance(command, Activate | EndActions):
            return self._act(state, seat, command)
        if isinstance(command, DeclineCards):
            return self._decline(state, seat, command, chance)
        if isinstance(command, BuyBack | SkipBuyBack):
            return self._buy_back(state, seat, command)
        raise MalformedCommand("UNKNOWN_COMMAND", f"{type(command).__name__} is not a command.")

    def _sim(self, state: RiseFallState) -> phases.Sim:
        return phases.Sim(state, fold, _copy)

    @staticmethod
    def _turn(state: RiseFallState, seat: int, rule: str) -> None:
        if state.actor != seat:
            raise Violation("NOT_YOUR_TURN", f"It is seat {state.actor}'s turn.", rule)

    def _place_tile(
        self, state: RiseFallState, seat: int, command: PlaceTile, chance: Chance
    ) -> list[Event]:
        self._turn(state, seat, "Création du Monde")
        tiles = supply(state.n, state.world.grid)
        kind, shape = tiles[state.tiles_placed]
        placement = command.placement
        check_tile(placement.kind, placement.shape, state.world.grid)  # UNKNOWN_TILE first
        if (placement.kind, placement.shape) != (kind, shape):
            raise Violation(
                "WRONG_TILE", f"The next tile to place is {kind} #{shape}.", "Création du Monde"
            )
        try:
            check_placement(state.world, placement, state.rules.max_moves)
        except (ValueError, IndexError, KeyError, TypeError) as error:
            raise MalformedCommand("BAD_PLACEMENT", str(error)) from error
        sim = phases.Sim(state, fold, _copy)
        sim.emit(ev.WorldTilePlaced(seat=seat, placement=placement))
        while sim.state.tiles_placed < len(tiles):
            next_kind, next_shape = tiles[sim.state.tiles_placed]
            if legal_placements(sim.state.world, next_kind, next_shape, state.rules.max_moves):
                break
            sim.emit(ev.TileSetAside(kind=next_kind, shape=next_shape))
        if sim.state.tiles_placed < len(tiles):
            sim.emit(ev.TurnStarted(seat=(seat + 1) % state.n))
        else:
            sim.emit(ev.FirstPlayerDrawn(seat=chance.below(state.n), purpose="deployment"))
        return sim.events

    def _deploy(self, state: RiseFallState, seat: int, command: Deploy) -> list[Event]:
        self._turn(state, seat, R_DEPLOY)
        kind = _kind_of(command.piece)
        cell = command.cell
        if not 0 <= cell < CELLS:
            raise MalformedCommand("BAD_CELL", f"Cells are numbered 0 to {CELLS - 1}.")
        if kind not in state.seats[seat].to_deploy:
            raise Violation(
                "NOT_A_STARTING_PIECE", f"You have no {command.piece} left to place.", R_DEPLOY
            )
        _check_deploy(state, kind, cell)
        sim = self._sim(state)
        sim.emit(ev.PieceDeployed(seat=seat, piece=command.piece, cell=cell))
        phases.after_deploy(sim, seat)
        return sim.events

    def _choose(
        self, state: RiseFallState, seat: int, command: ChooseCard, chance: Chance
    ) -> list[Event]:
        kind = _kind_of(command.card)
        player = state.seats[seat]
        if player.chosen >= 0:
            raise Violation("ALREADY_CHOSEN", "You already laid your card this round.", R_CHOOSE)
        if kind not in player.hand:
            raise Violation(
                "NOT_IN_HAND", f"Your {command.card} card is not in your hand.", R_CHOOSE
            )
        sim = self._sim(state)
        salt = chance.secret(f"riseandfall/choice/{state.round}/{seat}")
        sim.emit(ev.CardChosen(seat=seat, round=state.round, card=command.card, salt=salt))
        phases.after_choice(sim)
        return sim.events

    def _act(self, state: RiseFallState, seat: int, command: Activate | EndActions) -> list[Event]:
        self._turn(state, seat, R_ACTIONS)
        if isinstance(command, EndActions):
            sim = self._sim(state)
            sim.emit(ev.ActionsEnded(seat=seat))
            phases.next_actor(sim)
            return sim.events
        event = activation_event(state, seat, command)
        sim = self._sim(state)
        sim.emit(event)
        phases.after_action(sim, seat)
        return sim.events

    def _decline(
        self, state: RiseFallState, seat: int, command: DeclineCards, chance: Chance
    ) -> list[Event]:
        player = state.seats[seat]
        kinds = [_kind_of(name) for name in command.cards]
        if player.decline_due <= 0:
            raise Violation("NOTHING_TO_DECLINE", "You owe no card to the decline.", R_DECLINE)
        if player.decline_choice is not None:
            raise Violation("ALREADY_CHOSEN", "You already chose your declined cards.", R_DECLINE)
        if len(kinds) != player.decline_due:
            raise Violation(
                "WRONG_COUNT",
                f"Put exactly {player.decline_due} card(s) in decline "
                "(one per trophy won this round).",
                R_DECLINE,
            )
        if kinds != sorted(set(kinds)):
            raise Violation(
                "CARDS_NOT_IN_ORDER",
                "List distinct cards in card order (nomad, city, "
                "ship, mountaineer, merchant, temple).",
                R_DECLINE,
            )
        active = player.active()
        for kind in kinds:
            if kind not in active:
                raise Violation(
                    "NOT_ACTIVE",
                    f"Your {PIECES[kind]} card is not in your hand or discard.",
                    R_DECLINE,
                )
        sim = self._sim(state)
        salt = chance.secret(f"riseandfall/decline/{state.round}/{seat}")
        cards = tuple(command.cards)
        sim.emit(ev.DeclineChosen(seat=seat, round=state.round, cards=cards, salt=salt))
        phases.after_decline_choice(sim)
        return sim.events

    def _buy_back(
        self, state: RiseFallState, seat: int, command: BuyBack | SkipBuyBack
    ) -> list[Event]:
        self._turn(state, seat, R_BUYBACK)
        player = state.seats[seat]
        sim: phases.Sim
        if isinstance(command, SkipBuyBack):
            if not player.active():
                raise Violation(
                    "MUST_BUY_BACK", "With no active card you must buy a card back.", R_BUYBACK
                )
            sim = self._sim(state)
            sim.emit(ev.BuyBackSkipped(seat=seat))
        else:
            kind = _kind_of(command.card)
            price = state.buy_back_price()
            if kind not in player.declined:
                raise Violation(
                    "NOT_IN_DECLINE", f"Your {command.card} card is not in decline.", R_BUYBACK
                )
            if player.coins < price:
                raise Violation(
                    "NOT_ENOUGH_COINS", f"Buying a card back costs {price} PO.", R_BUYBACK
                )
            to: Literal["hand", "reserve"] = "hand" if player.pieces[kind] > 0 else "reserve"
            sim = self._sim(state)
            sim.emit(ev.CardBoughtBack(seat=seat, card=command.card, price=price, to=to))
        phases.next_buyer(sim)
        return sim.events

    def evolve(self, state: RiseFallState, event: Event) -> RiseFallState:
        """Fold one event in place (total, never draws)."""
        return fold(state, event)

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self, state: RiseFallState, seat: int) -> list[Command]:
        """Exactly the commands :meth:`decide` accepts from ``seat`` now."""
        if not 0 <= seat < state.n or state.phase == OVER or state.seats[seat].extinct:
            return []
        player = state.seats[seat]
        phase = state.phase
        if phase == WORLD:
            if state.actor != seat:
                return []
            kind, shape = supply(state.n, state.world.grid)[state.tiles_placed]
            found = legal_placements(state.world, kind, shape, state.rules.max_moves)
            return [PlaceTile(placement=p) for p in found]
        if phase == DEPLOY:
            if state.actor != seat:
                return []
            return [
                Deploy(piece=PIECES[kind], cell=cell)
                for kind in sorted(player.to_deploy)
                for cell in geometry(state.world).cells
                if _deploy_ok(state, kind, cell)
            ]
        if phase == CHOOSE:
            if player.chosen >= 0:
                return []
            return [ChooseCard(card=PIECES[k]) for k in sorted(set(player.hand))]
        if phase == ACTIONS:
            if state.actor != seat:
                return []
            return [*legal_activations(state, seat), EndActions()]
        if phase == DECLINE:
            if player.decline_due <= 0 or player.decline_choice is not None:
                return []
            return [
                DeclineCards(cards=tuple(PIECES[k] for k in combo))
                for combo in _combinations(player.active(), player.decline_due)
            ]
        if phase == BUYBACK:
            if state.actor != seat:
                return []
            options: list[Command] = []
            if player.coins >= state.buy_back_price():
                options.extend(BuyBack(card=PIECES[k]) for k in player.declined)
            if player.active():
                options.append(SkipBuyBack())
            return options
        return []

    # -- progress -------------------------------------------------------------------------
    def pending(self, state: RiseFallState) -> Pending:
        """Who must decide what now."""
        phase = state.phase
        if phase == OVER:
            return Pending((), "over", "The game is over.")
        if phase == CHOOSE:
            seats = tuple(s for s in state.living() if state.seats[s].chosen < 0)
            return Pending(seats, "choose_card", "Choose a civilisation card, face down.")
        if phase == DECLINE:
            seats = tuple(
                s
                for s, p in enumerate(state.seats)
                if p.decline_due > 0 and p.decline_choice is None
            )
            return Pending(seats, "decline", "Put cards in decline, face down.")
        seats = (state.actor,) if state.actor >= 0 else ()
        prompts = {
            WORLD: "Place the next terrain tile.",
            DEPLOY: "Place one of your starting pieces.",
            ACTIONS: "Activate your pieces, then end your actions.",
            BUYBACK: "Buy a card back from the decline, or skip.",
        }
        return Pending(seats, _PROMPTS.get(phase, phase), prompts.get(phase, ""))

    def is_over(self, state: RiseFallState) -> bool:
        """``True`` once the game has been scored."""
        return state.phase == OVER

    def is_setup(self, state: RiseFallState) -> bool:
        """``True`` while the world is built and the starting pieces are placed."""
        return state.phase in (WORLD, DEPLOY)

    def outcome(self, state: RiseFallState) -> Outcome | None:
        """Final scores, winners and per-seat score sheets (``None`` while playing)."""
        if state.phase != OVER or state.final_scores is None:
            return None
        sheets = score_sheets(state)
        details = tuple(
            {
                "economy": s.economy,
                "trophies": s.trophies,
                "development": sum(v for v in s.development if v > 0),
                "territory": sum(s.territory),
                "total": state.final_scores[i],
            }
            for i, s in enumerate(sheets)
        )
        return Outcome(tuple(state.final_scores), tuple(state.winners or ()), details)

    def scores(self, state: RiseFallState) -> tuple[int, ...]:
        """The four-part score of every seat now (the final scores once over)."""
        if state.final_scores is not None:
            return tuple(state.final_scores)
        return tuple(sheet.total for sheet in score_sheets(state))

    def turn_key(self, state: RiseFallState) -> str:
        """``round:phase:actor:step`` — changes with the seat to act and with the phase."""
        step = state.tiles_placed + sum(3 - len(s.to_deploy) for s in state.seats)
        return f"{state.round}:{state.phase}:{state.actor}:{step}"

    def seat_count(self, state: RiseFallState) -> int:
        """Number of seats."""
        return state.n

    # -- visibility -----------------------------------------------------------------------
    def view(self, state: RiseFallState, seat: int | None) -> RiseFallView:
        """Everything ``seat`` may see (``None``: a spectator)."""
        return make_view(self, state, seat)

    def redact_event(self, state: RiseFallState, event: Event, viewer: int | None) -> Event:
        """Sealed choices are hidden from other seats until they are revealed."""
        return redact(state, event, viewer)

    # -- content --------------------------------------------------------------------------
    def assumptions(self) -> list[str]:
        """The assumed facts of the rules content (cards, trophies, bank, decisions), then
        of the world (grid, tile shapes, layouts, placement rules)."""
        return [*content.assumptions(), *tiles.assumptions(self.rules.grid)]


def _rule(phase: str) -> str:
    return {
        WORLD: "Création du Monde",
        DEPLOY: R_DEPLOY,
        CHOOSE: R_CHOOSE,
        ACTIONS: R_ACTIONS,
        DECLINE: R_DECLINE,
        BUYBACK: R_BUYBACK,
    }.get(phase, "Tour de jeu")


def _deploy_ok(state: RiseFallState, kind: int, cell: int) -> bool:
    try:
        _check_deploy(state, kind, cell)
    except Violation:
        return False
    return True


def _check_deploy(state: RiseFallState, kind: int, cell: int) -> None:
    """One piece per cell; ships on the sea; cities and nomads on land but not glaciers."""
    terrain = state.world.at(cell)
    if terrain == Terrain.EMPTY:
        raise Violation("OFF_WORLD", f"Cell {cell} is not part of the world.", R_DEPLOY)
    if not state.empty(cell):
        raise Violation("OCCUPIED", "Only one piece per cell.", R_DEPLOY)
    if kind == SHIP and terrain != Terrain.SEA:
        raise Violation("BAD_TERRAIN", "Ships are placed on the sea.", R_DEPLOY)
    if kind != SHIP and terrain in (Terrain.SEA, Terrain.GLACIER):
        raise Violation(
            "BAD_TERRAIN", "Cities and nomads cannot be placed on the sea or on glaciers.", R_DEPLOY
        )


def _combinations(items: list[int], k: int) -> list[tuple[int, ...]]:
    """The ``k``-subsets of ``items`` (ascending), in lexicographic order."""
    if k == 0:
        return [()]
    found: list[tuple[int, ...]] = []
    for i, item in enumerate(items):
        for rest in _combinations(items[i + 1 :], k - 1):
            found.append((item, *rest))
    return found


__all__ = ["RiseAndFall"]


def _check_cells(command: Command) -> None:
    """Cells out of the grid are malformed whatever the phase (INVALID_ARGUMENT)."""
    if isinstance(command, Deploy | Activate):
        cells = [command.cell] + ([command.target] if isinstance(command, Activate) else [])
        for index, cell in enumerate(cells):
            if not isinstance(cell, int) or not (0 <= cell < CELLS or (index == 1 and cell == -1)):
                raise MalformedCommand("BAD_CELL", f"Cells are numbered 0 to {CELLS - 1}.")


class RiseAndFallHex(RiseAndFall):
    """Ruleset ``riseandfall/2``: Rise & Fall on its hexagonal world.

    Differs from ``riseandfall/1`` (see :mod:`domain.riseandfall.rulesets`): hex cells, every
    plain laid (the minimum number of plains moved, searched exactly), the buy-back price by
    the trophies won so far, and the option ``scoring="quick"`` ("VARIANTE : DÉCOMPTE
    RAPIDE").

    >>> from domain.core import Chance
    >>> game = RiseAndFallHex()
    >>> state = game.initial(game.decode_options({"scoring": "quick"}), 3)
    >>> state.world.grid, state.rules.quick_scoring, game.ruleset_version
    ('hex', True, 'riseandfall/2')
    """

    ruleset_version = "riseandfall/2"
    options_type = RiseFallOptions2
    rules = RULES_2

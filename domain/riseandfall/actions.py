"""Phase B: the actions of the six piece types, checked and turned into events.

:func:`activation_event` checks one :class:`~domain.riseandfall.commands.Activate` in full
and returns the event of the action (the trophy and card-state consequences are added by
:mod:`domain.riseandfall.phases`). :func:`legal_activations` lists every accepted activation:
it enumerates a superset of targets per action and keeps those :func:`activation_event`
accepts, so the list and the checks cannot disagree.

"Une action ne peut être choisie que si elle peut être entièrement réalisée": every action
needs its costs, a free piece in the reserve for what it places, room under the 5 wood /
5 stone cap and the bank's stock for what it takes (coins excepted: an empty bank pays what
it can, "Les coffres de la banque sont vides").
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Event, MalformedCommand, RuleViolation
from domain.riseandfall import events as ev
from domain.riseandfall.commands import ActionName, Activate
from domain.riseandfall.content import (
    CARDS,
    CITY,
    MERCHANT,
    MOUNTAINEER,
    NOMAD,
    PIECES,
    RESOURCE_CAP,
    SHIP,
    TEMPLE,
    PieceName,
)
from domain.riseandfall.events import ResourceName
from domain.riseandfall.movement import (
    LAND,
    coastal_cities,
    merchant_moves,
    merchant_stop,
    mountaineer_moves,
    nomad_moves,
    ship_moves,
    within,
)
from domain.riseandfall.state import CELLS, RiseFallState
from domain.riseandfall.world import Geometry, Terrain, geometry

R_ALL = "Quelques règles importantes (action entièrement réalisée)"
R_CAP = "Trésorerie de chaque joueur"
R_CLIFF = "Falaise"
SECTION = ("Nomades", "Villes", "Navires", "Montagnards", "Marchands", "Temples")
#: coins to convert each kind ("Temples / Conversion"); cities and temples cannot be converted.
CONVERT_COST = {NOMAD: 2, MOUNTAINEER: 3, MERCHANT: 5, SHIP: 5}
#: coins a city earns with taxes, per terrain ("Villes / Taxes").
TAX = {Terrain.MOUNTAIN: 1, Terrain.PLAIN: 2, Terrain.FOREST: 3}
#: actions that take a target cell.
TARGETED = frozenset(
    {
        "move",
        "build_ship",
        "grow",
        "train_merchant",
        "train_mountaineer",
        "become_nomad",
        "become_merchant",
        "convert",
    }
)
_SHIP_TARGETED = frozenset({"build_city", "build_temple"})


class Ctx:
    """One activation being checked: state, geometry, seat, piece cell and kind, target."""

    __slots__ = ("cell", "geo", "kind", "seat", "state", "target")

    def __init__(
        self, state: RiseFallState, geo: Geometry, seat: int, kind: int, cell: int, target: int
    ) -> None:
        self.state = state
        self.geo = geo
        self.seat = seat
        self.kind = kind
        self.cell = cell
        self.target = target

    @property
    def name(self) -> PieceName:
        """The piece type's name."""
        return PIECES[self.kind]

    def fail(self, code: str, message: str, rule: str = "") -> RuleViolation:
        """A refusal citing this piece type's rulebook section by default."""
        return RuleViolation(code, message, rule or f"{SECTION[self.kind]}")

    def terrain(self, cell: int | None = None) -> Terrain:
        """The terrain of ``cell`` (default: the piece's own cell)."""
        return self.geo.at(self.cell if cell is None else cell)

    def adjacent_target(self) -> int:
        """The target, checked to be a neighbour of the piece."""
        if self.target not in self.geo.neighbours_of(self.cell):
            raise self.fail(
                "NOT_ADJACENT", f"Cell {self.target} is not adjacent to the {self.name}."
            )
        return self.target

    def need_reserve(self, kind: int) -> None:
        """Refuse unless the seat has a piece of ``kind`` in its reserve."""
        if self.state.seats[self.seat].in_reserve(kind) <= 0:
            raise self.fail(
                "NO_PIECE_IN_RESERVE", f"No {PIECES[kind]} left in your reserve.", R_ALL
            )

    def need(self, coins: int = 0, wood: int = 0, stone: int = 0) -> None:
        """Refuse unless the seat can pay."""
        seat = self.state.seats[self.seat]
        if seat.coins < coins:
            raise self.fail("NOT_ENOUGH_COINS", f"This costs {coins} PO.", R_ALL)
        if seat.wood < wood:
            raise self.fail("NOT_ENOUGH_WOOD", f"This costs {wood} wood.", R_ALL)
        if seat.stone < stone:
            raise self.fail("NOT_ENOUGH_STONE", f"This costs {stone} stone.", R_ALL)

    def earn(self, action: ActionName, amount: int) -> ev.CoinsEarned:
        """Income from the bank (it pays what it can)."""
        if amount <= 0:
            raise self.fail("NOTHING_TO_GAIN", "This action would earn nothing.", R_ALL)
        paid = min(amount, self.state.bank_coins)
        return ev.CoinsEarned(
            seat=self.seat, piece=self.name, cell=self.cell, action=action, amount=amount, paid=paid
        )


# -- shared actions ------------------------------------------------------------------------
def _move(ctx: Ctx) -> Event:
    state, geo, cell, target = ctx.state, ctx.geo, ctx.cell, ctx.target
    if ctx.kind == NOMAD:
        options = nomad_moves(state, geo, cell)
    elif ctx.kind == SHIP:
        options = ship_moves(state, geo, cell)
    elif ctx.kind == MOUNTAINEER:
        options = mountaineer_moves(state, geo, ctx.seat, cell)
    else:
        options = merchant_moves(state, geo, cell)
    if target not in options:
        raise _move_refusal(ctx)
    return ev.PieceMoved(seat=ctx.seat, piece=ctx.name, origin=cell, cell=target)


def _move_refusal(ctx: Ctx) -> RuleViolation:
    geo, target = ctx.geo, ctx.target
    if ctx.kind == NOMAD:
        ctx.adjacent_target()
        if not ctx.state.empty(target):
            return ctx.fail("OCCUPIED", "A nomad moves to an empty cell.")
        if geo.at(target) not in LAND:
            return ctx.fail("BAD_TERRAIN", "A nomad moves to a plain, forest or mountain.")
        return ctx.fail("CLIFF", "A nomad cannot cross a cliff.", R_CLIFF)
    if ctx.kind == SHIP:
        if geo.sea_region_of(target) != geo.sea_region_of(ctx.cell):
            return ctx.fail("OTHER_SEA_REGION", "A ship moves within its own sea region.")
        return ctx.fail("OCCUPIED", "A ship moves to an empty sea cell.")
    steps = 3 if ctx.kind == MOUNTAINEER else 4
    if ctx.kind == MERCHANT and geo.at(target) not in LAND:
        return ctx.fail("BAD_TERRAIN", "A merchant moves over plains, forests and mountains.")
    if target == ctx.cell or target not in within(geo, ctx.cell, steps, _terrains(ctx.kind)):
        return ctx.fail("TOO_FAR", f"A {ctx.name} moves up to {steps} cells of its terrains.")
    if ctx.kind == MERCHANT:
        return ctx.fail("OCCUPIED", "A merchant stops on an empty cell or a city alone.")
    if not ctx.state.empty(target):
        return ctx.fail("OCCUPIED", "A mountaineer ends its move on an empty cell.")
    return ctx.fail("BLOCKED", "A mountaineer passes only through cells of its own colour.")


def _terrains(kind: int) -> tuple[Terrain, ...]:
    if kind == MOUNTAINEER:
        return (*LAND, Terrain.GLACIER)
    return LAND


def _produce(ctx: Ctx) -> Event:
    terrain = ctx.terrain()
    resource: ResourceName
    stony = (Terrain.MOUNTAIN, Terrain.GLACIER) if ctx.kind == MOUNTAINEER else (Terrain.MOUNTAIN,)
    if terrain == Terrain.FOREST:
        resource = "wood"
    elif terrain in stony:
        resource = "stone"
    else:
        raise ctx.fail("BAD_TERRAIN", f"A {ctx.name} produces in a forest or on a mountain.")
    seat = ctx.state.seats[ctx.seat]
    held = seat.wood if resource == "wood" else seat.stone
    if held >= RESOURCE_CAP:
        raise ctx.fail(
            "RESOURCE_CAP", f"You may not hold more than {RESOURCE_CAP} {resource}.", R_CAP
        )
    stock = ctx.state.bank_wood if resource == "wood" else ctx.state.bank_stone
    if stock <= 0:
        raise ctx.fail("BANK_EMPTY", f"The bank has no {resource} left.", R_ALL)
    return ev.ResourceProduced(seat=ctx.seat, piece=ctx.name, cell=ctx.cell, resource=resource)


def _build_in_place(
    ctx: Ctx, built: int, terrains: tuple[Terrain, ...], wood: int, stone: int
) -> tuple[int, int]:
    if ctx.terrain() not in terrains:
        where = " or ".join(t.name.lower() for t in terrains)
        raise ctx.fail("BAD_TERRAIN", f"A {ctx.name} builds a {PIECES[built]} on a {where}.")
    ctx.need_reserve(built)
    ctx.need(wood=wood, stone=stone)
    return wood, stone


def _sea_target(ctx: Ctx) -> int:
    """The empty sea cell next to a plain where a nomad or merchant builds a ship."""
    if ctx.terrain() != Terrain.PLAIN:
        raise ctx.fail("BAD_TERRAIN", f"A {ctx.name} builds a ship from a plain.")
    target = ctx.adjacent_target()
    if ctx.geo.at(target) != Terrain.SEA:
        raise ctx.fail("NOT_SEA", "A ship is built on a sea cell.")
    if not ctx.state.empty(target):
        raise ctx.fail("OCCUPIED", "A ship is built on an empty sea cell.")
    ctx.need_reserve(SHIP)
    ctx.need(wood=1)
    return target


def _build_ship(ctx: Ctx) -> Event:
    target = _sea_target(ctx)
    return ev.ShipBuilt(seat=ctx.seat, builder=ctx.name, origin=ctx.cell, cell=target, wood=1)


# -- nomads --------------------------------------------------------------------------------
def _nomad_city(ctx: Ctx) -> Event:
    wood, stone = _build_in_place(ctx, CITY, (Terrain.PLAIN, Terrain.FOREST), 1, 1)
    return ev.CityBuilt(
        seat=ctx.seat, builder=ctx.name, origin=ctx.cell, cell=ctx.cell, wood=wood, stone=stone
    )


def _nomad_temple(ctx: Ctx) -> Event:
    _, stone = _build_in_place(ctx, TEMPLE, (Terrain.PLAIN, Terrain.MOUNTAIN), 0, 2)
    return ev.TempleBuilt(
        seat=ctx.seat, builder=ctx.name, origin=ctx.cell, cell=ctx.cell, stone=stone
    )


def _mountaineer_city(ctx: Ctx) -> Event:
    wood, stone = _build_in_place(ctx, CITY, (Terrain.FOREST, Terrain.MOUNTAIN), 2, 0)
    return ev.CityBuilt(
        seat=ctx.seat, builder=ctx.name, origin=ctx.cell, cell=ctx.cell, wood=wood, stone=stone
    )


# -- cities --------------------------------------------------------------------------------
def _grow(ctx: Ctx) -> Event:
    target = ctx.adjacent_target()
    if not ctx.state.empty(target):
        raise ctx.fail("OCCUPIED", "The new nomad needs an empty cell.")
    if ctx.geo.at(target) not in LAND:
        raise ctx.fail("BAD_TERRAIN", "The new nomad goes on a plain, forest or mountain.")
    if ctx.geo.cliff(ctx.cell, target):
        raise ctx.fail("CLIFF", "A city cannot grow across a cliff.", R_CLIFF)
    ctx.need_reserve(NOMAD)
    return ev.NomadGrown(seat=ctx.seat, city=ctx.cell, cell=target)


def _train(ctx: Ctx, piece: int, coins: int) -> Event:
    target = ctx.adjacent_target()
    if ctx.state.piece_of(target, NOMAD) != ctx.seat or ctx.state.kind[target] != NOMAD:
        raise ctx.fail("NO_NOMAD", "Education needs one of your nomads next to the city.")
    if ctx.geo.cliff(ctx.cell, target):
        raise ctx.fail("CLIFF", "Education cannot reach across a cliff.", R_CLIFF)
    ctx.need_reserve(piece)
    ctx.need(coins=coins)
    return ev.PieceTrained(
        seat=ctx.seat, city=ctx.cell, cell=target, piece=PIECES[piece], coins=coins
    )


def _tax(ctx: Ctx) -> Event:
    return ctx.earn("tax", TAX.get(ctx.terrain(), 0))


# -- ships ---------------------------------------------------------------------------------
def _ship_build(ctx: Ctx, built: int, stone: int) -> Event:
    target = ctx.adjacent_target()
    if ctx.geo.at(target) != Terrain.PLAIN:
        raise ctx.fail("BAD_TERRAIN", "A ship builds on an adjacent plain.")
    if not ctx.state.empty(target):
        raise ctx.fail("OCCUPIED", "A ship builds on an empty plain.")
    ctx.need_reserve(built)
    ctx.need(stone=stone)
    if built == CITY:
        return ev.CityBuilt(
            seat=ctx.seat, builder=ctx.name, origin=ctx.cell, cell=target, wood=0, stone=stone
        )
    return ev.TempleBuilt(
        seat=ctx.seat, builder=ctx.name, origin=ctx.cell, cell=target, stone=stone
    )


def _transform(ctx: Ctx, piece: int) -> Event:
    target = ctx.adjacent_target()
    if ctx.geo.at(target) not in (Terrain.PLAIN, Terrain.FOREST):
        raise ctx.fail("BAD_TERRAIN", "A ship lands on an adjacent plain or forest.")
    if piece == NOMAD:
        if not ctx.state.empty(target):
            raise ctx.fail("OCCUPIED", "A ship becomes a nomad on an empty cell.")
        coins = 0
    else:
        if not merchant_stop(ctx.state, target):
            raise ctx.fail(
                "OCCUPIED", "A ship becomes a merchant on an empty cell or a city alone."
            )
        coins = 2
    ctx.need_reserve(piece)
    ctx.need(coins=coins)
    return ev.ShipTransformed(
        seat=ctx.seat, origin=ctx.cell, cell=target, piece=PIECES[piece], coins=coins
    )


def _ship_trade(ctx: Ctx) -> Event:
    cities = coastal_cities(ctx.state, ctx.geo, ctx.geo.sea_region_of(ctx.cell))
    return ctx.earn("trade", 3 * len(cities))


# -- temples -------------------------------------------------------------------------------
def _convert(ctx: Ctx) -> Event:
    target = ctx.adjacent_target()
    state = ctx.state
    victim, kind = -1, -1
    for owner, piece in reversed(state.pieces_at(target)):
        if piece in CONVERT_COST and owner != ctx.seat:
            victim, kind = owner, piece
            break
    if victim < 0:
        raise ctx.fail(
            "NOTHING_TO_CONVERT",
            "A temple converts an adjacent opponent's nomad, mountaineer, merchant or ship.",
        )
    ctx.need_reserve(kind)
    coins = CONVERT_COST[kind]
    ctx.need(coins=coins)
    return ev.PieceConverted(
        seat=ctx.seat, temple=ctx.cell, victim=victim, piece=PIECES[kind], cell=target, coins=coins
    )


def _tithe(ctx: Ctx) -> Event:
    followers = sum(
        1
        for n in ctx.geo.neighbours_of(ctx.cell)
        for owner, piece in ctx.state.pieces_at(n)
        if owner == ctx.seat and piece != TEMPLE
    )
    return ctx.earn("tithe", 2 * followers)


# -- merchants -----------------------------------------------------------------------------
def _merchant_trade(ctx: Ctx) -> Event:
    state = ctx.state
    cells = [ctx.cell, *ctx.geo.neighbours_of(ctx.cell)]
    total = 0
    for cell in cells:
        if state.owner[cell] >= 0 and state.kind[cell] == CITY:
            total += 3 if state.owner[cell] == ctx.seat else 5
    return ctx.earn("trade", total)


def _sell(ctx: Ctx, resource: str) -> Event:
    seat = ctx.state.seats[ctx.seat]
    held = seat.wood if resource == "wood" else seat.stone
    if held <= 0:
        raise ctx.fail("NOT_ENOUGH_" + resource.upper(), f"You have no {resource} to sell.")
    paid = min(5, ctx.state.bank_coins)
    return ev.ResourceSold(
        seat=ctx.seat, cell=ctx.cell, resource="wood" if resource == "wood" else "stone", paid=paid
    )


def _buy(ctx: Ctx, resource: str) -> Event:
    seat = ctx.state.seats[ctx.seat]
    held = seat.wood if resource == "wood" else seat.stone
    if held >= RESOURCE_CAP:
        raise ctx.fail(
            "RESOURCE_CAP", f"You may not hold more than {RESOURCE_CAP} {resource}.", R_CAP
        )
    stock = ctx.state.bank_wood if resource == "wood" else ctx.state.bank_stone
    if stock <= 0:
        raise ctx.fail("BANK_EMPTY", f"The bank has no {resource} left.", R_ALL)
    ctx.need(coins=5)
    return ev.ResourceBought(
        seat=ctx.seat, cell=ctx.cell, resource="wood" if resource == "wood" else "stone", coins=5
    )


Handler = Callable[[Ctx], Event]
HANDLERS: dict[tuple[int, str], Handler] = {
    (NOMAD, "move"): _move,
    (NOMAD, "produce"): _produce,
    (NOMAD, "build_city"): _nomad_city,
    (NOMAD, "build_temple"): _nomad_temple,
    (NOMAD, "build_ship"): _build_ship,
    (CITY, "grow"): _grow,
    (CITY, "train_merchant"): lambda c: _train(c, MERCHANT, 2),
    (CITY, "train_mountaineer"): lambda c: _train(c, MOUNTAINEER, 1),
    (CITY, "tax"): _tax,
    (SHIP, "move"): _move,
    (SHIP, "build_city"): lambda c: _ship_build(c, CITY, 1),
    (SHIP, "build_temple"): lambda c: _ship_build(c, TEMPLE, 2),
    (SHIP, "become_nomad"): lambda c: _transform(c, NOMAD),
    (SHIP, "become_merchant"): lambda c: _transform(c, MERCHANT),
    (SHIP, "trade"): _ship_trade,
    (MOUNTAINEER, "move"): _move,
    (MOUNTAINEER, "produce"): _produce,
    (MOUNTAINEER, "build_city"): _mountaineer_city,
    (MERCHANT, "move"): _move,
    (MERCHANT, "trade"): _merchant_trade,
    (MERCHANT, "sell_wood"): lambda c: _sell(c, "wood"),
    (MERCHANT, "sell_stone"): lambda c: _sell(c, "stone"),
    (MERCHANT, "buy_wood"): lambda c: _buy(c, "wood"),
    (MERCHANT, "buy_stone"): lambda c: _buy(c, "stone"),
    (MERCHANT, "build_ship"): _build_ship,
    (TEMPLE, "convert"): _convert,
    (TEMPLE, "tithe"): _tithe,
}


#: every action name of every card.
ALL_ACTIONS = frozenset(action for _, action in HANDLERS)


def takes_target(kind: int, action: str) -> bool:
    """``True`` if ``action`` of a piece of ``kind`` names a target cell."""
    return action in TARGETED or (kind == SHIP and action in _SHIP_TARGETED)


def activation_event(state: RiseFallState, seat: int, command: Activate) -> Event:
    """The event of ``command`` by ``seat`` (the actor of phase B); raises ``RuleViolation``."""
    kind = state.seats[seat].played
    cell, action, target = command.cell, command.action, command.target
    if not 0 <= cell < CELLS or not -1 <= target < CELLS:
        raise MalformedCommand("BAD_CELL", f"Cells are numbered 0 to {CELLS - 1}.")
    if action not in ALL_ACTIONS:
        raise MalformedCommand("UNKNOWN_ACTION", f"Unknown action {action!r}.")
    if kind < 0 or state.piece_of(cell, kind) != seat:
        raise RuleViolation(
            "NO_SUCH_PIECE",
            f"You have no {PIECES[kind] if kind >= 0 else 'piece'} of the card "
            f"played on cell {cell}.",
            "B - Actions",
        )
    handler = HANDLERS.get((kind, action))
    if handler is None:
        raise RuleViolation(
            "NO_SUCH_ACTION",
            f"The {PIECES[kind]} card has no action {action!r}; it has "
            f"{', '.join(CARDS[kind].actions)}.",
            SECTION[kind],
        )
    if cell in state.activated:
        raise RuleViolation(
            "ALREADY_ACTIVATED",
            "Each piece is activated at most once per turn.",
            "B - Actions (Activation des pièces)",
        )
    needs_target = takes_target(kind, action)
    if needs_target and target < 0:
        raise RuleViolation(
            "TARGET_REQUIRED", f"Action {action!r} needs a target cell.", SECTION[kind]
        )
    if not needs_target and target != -1:
        raise RuleViolation(
            "NO_TARGET", f"Action {action!r} takes no target (use -1).", SECTION[kind]
        )
    return handler(Ctx(state, geometry(state.world), seat, kind, cell, target))


def _candidates(
    state: RiseFallState, geo: Geometry, seat: int, kind: int, cell: int, action: str
) -> list[int]:
    if not takes_target(kind, action):
        return [-1]
    if action == "move":
        if kind == NOMAD:
            return nomad_moves(state, geo, cell)
        if kind == SHIP:
            return ship_moves(state, geo, cell)
        if kind == MOUNTAINEER:
            return mountaineer_moves(state, geo, seat, cell)
        return merchant_moves(state, geo, cell)
    return sorted(geo.neighbours_of(cell))


def legal_activations(state: RiseFallState, seat: int) -> list[Activate]:
    """Every activation ``seat`` (the actor of phase B) may perform now."""
    kind = state.seats[seat].played
    if kind < 0:
        return []
    geo = geometry(state.world)
    found: list[Activate] = []
    for cell in state.cells_of(seat, kind):
        if cell in state.activated:
            continue
        for action in CARDS[kind].actions:
            handler = HANDLERS[(kind, action)]
            for target in _candidates(state, geo, seat, kind, cell, action):
                if action != "move":  # move candidates are exactly the legal destinations
                    try:
                        handler(Ctx(state, geo, seat, kind, cell, target))
                    except RuleViolation:
                        continue
                found.append(Activate(cell=cell, action=action, target=target))  # type: ignore[arg-type]
    return found

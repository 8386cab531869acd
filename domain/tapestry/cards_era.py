"""THIS ERA tapestry cards with a set-up or a hook of their own (see :mod:`domain.tapestry.cards`).

Rules: "Capacités des cartes Fresque" (a THIS ERA ability applies from the moment the card is
played until the start of your next income turn, and only while the card is visible), the card
texts summarised in ``content/tapestry_cards.json``, F.À.Q. "Cartes Fresque particulières"
(Marriage of State and Espionage cannot loop), "Règles générales" (after your fifth income turn
you gain nothing more).

Whether a card is in force is always :func:`domain.tapestry.rules.has_active`. The cards act
through three means:

* a set-up when the card comes into force (:data:`~domain.tapestry.cards.ON_PLAY`): Alliance
  and Marriage of State choose a partner, Mercantilism queues its exchange after the income;
* hooks on emitted events (:data:`domain.tapestry.engine.AFTER_EMIT`): Alliance (a tech
  upgrade by the ally), Marriage of State (a space benefit of the partner), Exploitation (a
  tile placed), Revisionism (a token entering a tier), Tyranny (tapestry cards drawn);
* wrappers of an existing decision or token: Age of Sail (before each exploration), Alliance
  (conquest targets), Terraforming (building placements).

Played cards the others already handle: Academia, Broker of Peace, Capitalism, Empiricism,
Golden Age, Industrialism, Militarism, Monarchy, Pillage and Plunder, Pirate Rule, Theocracy,
Wartime Economy (tracks, tech, gains, mapping, turns). The Trap's response (mapping) gets its
resource for the defender here.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import capital as cap
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry import mapping  # noqa: F401  (its tokens and decisions are wrapped here)
from domain.tapestry.cards import ON_PLAY, others, play
from domain.tapestry.commands import (
    Choose,
    ChooseResource,
    Conquer,
    Decline,
    PlaceBuilding,
    PlayTapestry,
)
from domain.tapestry.engine import AFTER_EMIT, AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import OUTSIDE, draw_territory, gain_resources, score
from domain.tapestry.offers import draw_frame
from domain.tapestry.rules import (
    exploration_vp,
    explore_targets,
    extra_options,
    footprints,
    gain,
    grid_of,
    has_active,
    tier_of,
)
from domain.tapestry.state import RESOURCES, TRACK_IDS, Frame, TapestryState
from domain.tapestry.tracks import FREE_BONUS

ALLIANCE, MARRIAGE = "_alliance", "_marriage"
#: Age of Sail: territory tiles drawn before each exploration, VP for giving one away.
SAIL_DRAW, SAIL_VP = 3, 3
TYRANNY_VP, TERRAFORMING_VP, MERCANTILISM_VP = 5, 5, 2


def _in_force(state: TapestryState, seat: int, key: str) -> bool:
    player = state.seats[seat]
    return not player.finished and has_active(player, key)


# -- Alliance ------------------------------------------------------------------------------
def _alliance(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="alliance", seat=seat))


def _alliance_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=o) for o in others(state, top.seat)]


def _alliance_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    ctx.emit(ev.CivTokensSet(seat=top.seat, key=ALLIANCE, values=(command.index,)))


DECISIONS["alliance"] = (_alliance_options, _alliance_answer)
ON_PLAY["alliance"] = _alliance


def ally_of(state: TapestryState, seat: int) -> int:
    """The opponent ``seat``'s Alliance names while it is in force (-1: none)."""
    chosen = state.seats[seat].civ_tokens.get(ALLIANCE, [])
    return chosen[0] if chosen and _in_force(state, seat, "alliance") else -1


def allied(state: TapestryState, a: int, b: int) -> bool:
    """``True`` when an Alliance in force binds seats ``a`` and ``b`` (either named the other)."""
    return ally_of(state, a) == b or ally_of(state, b) == a


_conquer_options, _conquer_answer = DECISIONS["conquer"]


def _allied_conquer_options(state: TapestryState, top: Frame) -> list[Command]:
    """Alliance: neither ally may conquer a territory where the other has an outpost."""
    found: list[Command] = []
    for option in _conquer_options(state, top):
        assert isinstance(option, Conquer)
        cell = state.hexes[state.hex_index(option.q, option.r)]
        others = [o.seat for o in cell.outposts if o.seat != top.seat and o.seat >= 0]  # no bot
        if not any(allied(state, top.seat, other) for other in others):
            found.append(option)
    return found


DECISIONS["conquer"] = (_allied_conquer_options, _conquer_answer)


def _on_upgrade(ctx: Ctx, event: Event) -> None:
    """Alliance: after the ally upgrades a tech card, you gain the same benefit."""
    if not isinstance(event, ev.TechUpgraded) or event.row == 0:
        return  # row 0: a Recycler carried a card back down (no benefit to share)
    record = C.TECH_CARDS[event.card]
    benefit = record.circle if event.row == 1 else record.square
    for seat in others(ctx.state, event.seat):
        if ally_of(ctx.state, seat) == event.seat:
            ctx.push(expr_frame(seat, benefit, "alliance"))


# -- Marriage of State ---------------------------------------------------------------------
def marriage_of(state: TapestryState, seat: int) -> tuple[int, int] | None:
    """``(partner, track)`` of ``seat``'s Marriage of State while in force."""
    chosen = state.seats[seat].civ_tokens.get(MARRIAGE, [])
    if len(chosen) == 2 and _in_force(state, seat, "marriage_of_state"):
        return chosen[0], chosen[1]
    return None


def _marriage(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="marriage", seat=seat))


def _marriage_options(state: TapestryState, top: Frame) -> list[Command]:
    """``partner * 10 + track``; a track already used by a marriage in force is excluded
    (F.À.Q. "Mariage Arrangé et Espionnage": a copy must choose another track)."""
    used = set()
    for seat in others(state, top.seat):
        marriage = marriage_of(state, seat)
        if marriage is not None:
            used.add(marriage[1])
    return [
        Choose(index=o * 10 + t)
        for o in others(state, top.seat)
        for t in range(len(TRACK_IDS))
        if t not in used
    ]


def _marriage_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    partner, track = divmod(command.index, 10)
    ctx.emit(ev.CivTokensSet(seat=top.seat, key=MARRIAGE, values=(partner, track)))


DECISIONS["marriage"] = (_marriage_options, _marriage_answer)
ON_PLAY["marriage_of_state"] = _marriage


def marriage_echo(ctx: Ctx, gainer: int, track: int, space: int) -> None:
    """Marriage of State: ``gainer`` gains the benefit of ``space`` on ``track``; every seat
    married to it on that track gains that benefit too, afterwards (never the bonus)."""
    if space <= 0:
        return
    benefit = C.space(TRACK_IDS[track], space).benefit
    for seat in others(ctx.state, gainer):
        if marriage_of(ctx.state, seat) == (gainer, track):
            ctx.push(expr_frame(seat, benefit, "marriage_of_state"))


def _on_space(ctx: Ctx, event: Event) -> None:
    if not isinstance(event, ev.SpaceActivated) or ":" not in event.key:
        return
    name, space = event.key.split(":", 1)
    if name not in TRACK_IDS or not space.isdigit():
        return
    current = ctx.current
    if current is not None and current.kind == "advance" and current.ints[1:2] == (FREE_BONUS,):
        return  # Renaissance: the bonus only, no benefit to share
    marriage_echo(ctx, event.seat, TRACK_IDS.index(name), int(space))


# -- Mercantilism --------------------------------------------------------------------------
def _mercantilism(ctx: Ctx, seat: int) -> None:
    """Queue the food exchange right after this income turn's income step (if still to come)."""
    agenda = ctx.state.agenda
    for index, frame in enumerate(agenda):
        if frame.kind == "income" and frame.seat == seat and frame.ints[:1] == (4,):
            agenda.insert(index, Frame(kind="mercantilism", seat=seat))
            return


def _mercantilism_options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    if player.resources[RESOURCES.index("food")] <= 0 or not _in_force(
        state, top.seat, "mercantilism"
    ):
        return []
    found: list[Command] = [ChooseResource(resource=r) for r in RESOURCES if r != "food"]
    return [*found, Decline()]


def _mercantilism_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """One food becomes the chosen resource for 2 VP; then the seat may convert another."""
    if isinstance(command, Decline):
        return
    assert isinstance(command, ChooseResource)
    delta = [0, 0, 0, 0]
    delta[RESOURCES.index("food")] -= 1
    delta[RESOURCES.index(command.resource)] += 1
    gain_resources(ctx, top.seat, (delta[0], delta[1], delta[2], delta[3]), "mercantilism")
    score(ctx, top.seat, MERCANTILISM_VP, "mercantilism")
    ctx.push(Frame(kind="mercantilism", seat=top.seat))


DECISIONS["mercantilism"] = (_mercantilism_options, _mercantilism_answer)
ON_PLAY["mercantilism"] = _mercantilism


# -- Age of Sail ---------------------------------------------------------------------------
def _sail_token(name: str, anywhere: bool) -> None:
    inner = TOKENS[name]

    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        base = len(ctx.state.agenda)
        for _ in range(count):
            inner(ctx, seat, 1, top)
            explore = ctx.state.agenda[base:]
            del ctx.state.agenda[base:]
            sail = Frame(kind="age_of_sail", seat=seat, ints=(int(anywhere),))
            # the agenda's top runs first: Age of Sail, its exploration, then the next pair.
            ctx.state.agenda[base:base] = [*explore, sail]

    TOKENS[name] = handler


def _age_of_sail(ctx: Ctx, top: Frame) -> None:
    """Before an exploration: draw 3 territory tiles, then you may give one away for 3 VP."""
    seat = top.seat
    if not _in_force(ctx.state, seat, "age_of_sail"):
        return
    if not explore_targets(ctx.state, seat, bool(top.ints[0])):
        return
    extra = extra_options(ctx.state, seat)
    if extra:  # the Psionics: one pair per tile, one kept of each (F.À.Q. Âge de la Navigation)
        ctx.push(
            draw_frame(seat, "territory", SAIL_DRAW, extra), Frame(kind="sail_give", seat=seat)
        )
        return
    draw_territory(ctx, seat, SAIL_DRAW)
    ctx.push(Frame(kind="sail_give", seat=seat))


def _sail_options(state: TapestryState, top: Frame) -> list[Command]:
    """``opponent * 100 + tile``: give that tile of your supply to that opponent."""
    tiles = sorted(set(state.seats[top.seat].territory))
    rivals = [o for o in others(state, top.seat) if not state.seats[o].finished]
    if not tiles or not rivals:
        return []
    return [*(Choose(index=o * 100 + t) for o in rivals for t in tiles), Decline()]


def _sail_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    other, tile = divmod(command.index, 100)
    ctx.emit(ev.TerritoryTileGiven(seat=top.seat, to=other, tile=tile))
    score(ctx, top.seat, SAIL_VP, "age_of_sail")


AUTO["age_of_sail"] = _age_of_sail
DECISIONS["sail_give"] = (_sail_options, _sail_answer)
_sail_token("explore", False)
_sail_token("explore_anywhere", True)


# -- Exploitation --------------------------------------------------------------------------
def _on_explored(ctx: Ctx, event: Event) -> None:
    """Exploitation: once the placed tile's benefit is gained, the seat may give back the
    exploration VP to gain that benefit a second time."""
    if not isinstance(event, ev.TileExplored) or not _in_force(
        ctx.state, event.seat, "exploitation"
    ):
        return
    if C.TERRITORY_TILES[event.tile].benefit is None:
        return
    vp = exploration_vp(ctx.state, event.hex, event.tile, event.rotation)
    ctx.push(Frame(kind="exploitation", seat=event.seat, ints=(vp, event.tile)))


def _exploitation_options(state: TapestryState, top: Frame) -> list[Command]:
    """0: keep the exploration VP; 1: the tile's benefit again instead of the VP."""
    return [Choose(index=0), Choose(index=1)]


def _exploitation_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    if command.index == 1:
        vp, tile = top.ints
        score(ctx, top.seat, -vp, "exploitation")
        benefit = C.TERRITORY_TILES[tile].benefit
        assert benefit is not None
        ctx.push(expr_frame(top.seat, benefit, f"tile:{tile}"))


DECISIONS["exploitation"] = (_exploitation_options, _exploitation_answer)


# -- Revisionism ---------------------------------------------------------------------------
def _on_token(ctx: Ctx, event: Event) -> None:
    """Revisionism: entering a tier on a track gives 1 resource with its landmark, or an
    armory when that landmark is already taken."""
    if not isinstance(event, ev.TokenMoved) or event.origin < 0 or event.to <= event.origin:
        return
    if not _in_force(ctx.state, event.seat, "revisionism"):
        return
    for tier in range(tier_of(event.origin) + 1, tier_of(event.to) + 1):
        landmark = C.space(event.track, (tier - 1) * 3 + 1).landmark if tier >= 2 else None
        if landmark is None:
            continue
        token = "gain_armory" if str(landmark) in ctx.state.landmark_owner else "gain_any_resource"
        ctx.push(expr_frame(event.seat, gain(token), "revisionism"))


# -- Terraforming --------------------------------------------------------------------------
_build_options, _build_answer = DECISIONS["build"]
_CLEAR = ("0" * 9,) * 9


def _open_grid(state: TapestryState, seat: int) -> cap.CapitalGrid:
    return cap.CapitalGrid(blocked=_CLEAR, filled=tuple(state.seats[seat].grid_filled))


def _terra_options(state: TapestryState, top: Frame) -> list[Command]:
    """Terraforming: impassable plots are buildable too."""
    if not _in_force(state, top.seat, "terraforming"):
        return _build_options(state, top)
    shapes = footprints(top.token, top.ints[0] if top.ints else 0)
    spots = cap.distinct_placements(_open_grid(state, top.seat), shapes)
    if not spots:
        return [PlaceBuilding(row=OUTSIDE, col=OUTSIDE)]
    return [PlaceBuilding(row=r, col=c, orientation=o) for r, c, o in spots]


def _terra_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """A placement over impassable plots clears them first and scores 5 VP."""
    assert isinstance(command, PlaceBuilding)
    seat = top.seat
    player = ctx.state.seats[seat]
    landmark = top.ints[0] if top.ints else 0
    cells: tuple[tuple[int, int], ...] = ()
    if command.row != OUTSIDE:
        shapes = footprints(top.token, landmark)
        placement = (command.row, command.col, command.orientation)
        cells = tuple(c for c in cap.footprint_at(shapes, placement) if cap.on_grid(c))
    rocky = tuple((r, c) for r, c in cells if player.grid_blocked[r][c] == "1")
    if not rocky:
        _build_answer(ctx, top, command)
        return
    complete = set(cap.complete_districts(grid_of(player)))
    ctx.emit(ev.PlotsCleared(seat=seat, cells=rocky))
    ctx.emit(
        ev.BuildingPlaced(
            seat=seat,
            building=top.token,
            landmark=landmark,
            row=command.row,
            col=command.col,
            orientation=command.orientation,
            cells=cells,
        )
    )
    score(ctx, seat, TERRAFORMING_VP, "terraforming")
    for district in cap.complete_districts(grid_of(ctx.state.seats[seat])):
        if district not in complete:
            ctx.emit(ev.DistrictCompleted(seat=seat, district=district))
            ctx.push(Frame(kind="resource", seat=seat, ints=(1,), source="district"))


DECISIONS["build"] = (_terra_options, _terra_answer)


# -- Tyranny -------------------------------------------------------------------------------
def _on_drawn(ctx: Ctx, event: Event) -> None:
    """Tyranny: a tapestry card just gained may be played over it at once (5 VP, once)."""
    if not isinstance(event, ev.TapestryDrawn) or not _in_force(ctx.state, event.seat, "tyranny"):
        return
    size = len(ctx.state.seats[event.seat].hand)
    ctx.push(Frame(kind="tyranny", seat=event.seat, ints=(event.count, size)))


def _tyranny_options(state: TapestryState, top: Frame) -> list[Command]:
    """The cards just drawn (the end of the hand, unless the hand changed since)."""
    count, size = top.ints
    hand = state.seats[top.seat].hand
    if len(hand) != size or not _in_force(state, top.seat, "tyranny"):
        return []
    return [*(PlayTapestry(card=c) for c in sorted(set(hand[size - count :]))), Decline()]


def _tyranny_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, PlayTapestry)
    era = ctx.state.seats[top.seat].mat[-1].era
    score(ctx, top.seat, TYRANNY_VP, "tyranny")
    play(ctx, top.seat, command.card, era)


DECISIONS["tyranny"] = (_tyranny_options, _tyranny_answer)


# -- Trap ----------------------------------------------------------------------------------
def _on_trap(ctx: Ctx, event: Event) -> None:
    """Trap (response), ``tapestry/1`` only: the defender who discards it also gains 1
    resource of its choice. ``tapestry/2`` follows the rulebook ("Cartes riposte"), which
    gives the defender nothing but the territory."""
    if isinstance(event, ev.TrapPlayed) and ctx.state.rules.revision < 2:
        ctx.push(expr_frame(event.seat, gain("gain_any_resource"), "trap"))


def _after_emit(ctx: Ctx, event: Event) -> None:
    for hook in (_on_upgrade, _on_space, _on_explored, _on_token, _on_drawn, _on_trap):
        hook(ctx, event)


AFTER_EMIT.append(_after_emit)

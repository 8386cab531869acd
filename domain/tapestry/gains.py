"""Simple gains: resources, VP, buildings and their placement, landmarks, draws, achievements.

Rules: "Tours de revenus" (cap of 8 per resource), "Bâtiments & Capitales" (buildings,
landmarks, districts), "Règles générales / Objectifs" (achievements), "Capitales" F.À.Q.
"""

from __future__ import annotations

from domain.core import Command, RuleViolation
from domain.tapestry import capital as cap
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import ChooseResource, PlaceBuilding
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.rules import (
    footprints,
    gain,
    grid_of,
    has_active,
    space_deck,
    tapestry_deck,
    territory_deck,
    toppled_by,
)
from domain.tapestry.state import BUILDINGS, RESOURCES, Frame, TapestryState

OUTSIDE = -99


# -- resources and points ------------------------------------------------------------------
def gain_resources(ctx: Ctx, seat: int, delta: tuple[int, int, int, int], reason: str) -> None:
    """Add (or remove) resources, capped at 8 and floored at 0; nothing when no change."""
    have = ctx.state.seats[seat].resources
    real = tuple(
        max(0, min(C.RESOURCE_CAP, have[i] + delta[i])) - have[i] for i in range(len(RESOURCES))
    )
    if any(real):
        ctx.emit(
            ev.ResourcesChanged(
                seat=seat, delta=(real[0], real[1], real[2], real[3]), reason=reason
            )
        )


def score(ctx: Ctx, seat: int, vp: int, reason: str) -> None:
    """Score ``vp`` (nothing for 0)."""
    if vp:
        ctx.emit(ev.VPScored(seat=seat, vp=vp, reason=reason))


def _resource_token(resource: str) -> None:
    index = RESOURCES.index(resource)

    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        delta = [0, 0, 0, 0]
        delta[index] = count
        gain_resources(ctx, seat, (delta[0], delta[1], delta[2], delta[3]), top.source)

    TOKENS[f"gain_{resource}"] = handler


for _resource in RESOURCES:
    _resource_token(_resource)


def _vp(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    score(ctx, seat, count, top.source or "vp")


TOKENS["vp"] = _vp


def _any_resource(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(
        *(Frame(kind="resource", seat=seat, ints=(1,), source=top.source) for _ in range(count))
    )


TOKENS["gain_any_resource"] = _any_resource


def _resource_options(state: TapestryState, top: Frame) -> list[Command]:
    if top.ints and top.ints[0] < 0:
        have = state.seats[top.seat].resources
        return [ChooseResource(resource=r) for i, r in enumerate(RESOURCES) if have[i] > 0]
    return [ChooseResource(resource=r) for r in RESOURCES]


def _resource_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, ChooseResource)
    sign = -1 if top.ints and top.ints[0] < 0 else 1
    delta = [0, 0, 0, 0]
    delta[RESOURCES.index(command.resource)] = sign
    gain_resources(ctx, top.seat, (delta[0], delta[1], delta[2], delta[3]), top.source)


DECISIONS["resource"] = (_resource_options, _resource_answer)


# -- buildings -----------------------------------------------------------------------------
def take_building(ctx: Ctx, seat: int, building: str, source: str) -> None:
    """Take the leftmost ``building`` off the income mat and place it ("Bâtiments de revenus").

    With none left of that type nothing happens (F.À.Q.: no substitute type).
    """
    player = ctx.state.seats[seat]
    if player.taken[BUILDINGS.index(building)] >= 5:
        return
    ctx.emit(ev.BuildingTaken(seat=seat, building=building))
    if has_active(player, "monarchy"):
        score(ctx, seat, 3, "monarchy")
    if building == "market" and has_active(player, "capitalism"):
        gain_resources(ctx, seat, (1, 0, 0, 0), "capitalism")
    ctx.push(Frame(kind="build", seat=seat, token=building, source=source))


def _building_token(building: str) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        for _ in range(count):
            take_building(ctx, seat, building, top.source)

    TOKENS[f"gain_{building}"] = handler


for _building in BUILDINGS:
    _building_token(_building)


def _any_building(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    player = ctx.state.seats[seat]
    options = tuple(gain(f"gain_{b}") for i, b in enumerate(BUILDINGS) if player.taken[i] < 5)
    for _ in range(count):
        if options:
            ctx.push(Frame(kind="choose", seat=seat, options=options, source=top.source))


TOKENS["gain_any_income_building"] = _any_building


def claim_landmark(ctx: Ctx, seat: int, landmark: int, source: str) -> bool:
    """Claim ``landmark`` if still available and queue its placement; ``True`` if claimed."""
    if str(landmark) in ctx.state.landmark_owner:
        return False
    ctx.emit(ev.LandmarkClaimed(seat=seat, landmark=landmark))
    ctx.push(Frame(kind="build", seat=seat, token="landmark", ints=(landmark,), source=source))
    return True


def _landmark_token(landmark: int) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        claim_landmark(ctx, seat, landmark, top.source)

    key = C.LANDMARKS[landmark].name.lower().replace(" ", "_")
    TOKENS[f"gain_landmark_{key}"] = handler


for _landmark in C.LANDMARKS:
    _landmark_token(_landmark)


def _any_landmark(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    free = [lm for lm in sorted(C.LANDMARKS) if str(lm) not in ctx.state.landmark_owner]
    if free:
        options = tuple(gain(f"_landmark_{lm}") for lm in free)
        ctx.push(Frame(kind="choose", seat=seat, options=options, source=top.source))


TOKENS["gain_any_available_landmark"] = _any_landmark
for _landmark in C.LANDMARKS:

    def _claim(ctx: Ctx, seat: int, count: int, top: Frame, lm: int = _landmark) -> None:
        claim_landmark(ctx, seat, lm, top.source)

    TOKENS[f"_landmark_{_landmark}"] = _claim


def _build_options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    shapes = footprints(top.token, top.ints[0] if top.ints else 0)
    spots = cap.distinct_placements(grid_of(player), shapes)
    if not spots:
        return [PlaceBuilding(row=OUTSIDE, col=OUTSIDE)]
    return [PlaceBuilding(row=r, col=c, orientation=o) for r, c, o in spots]


def _build_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, PlaceBuilding)
    player = ctx.state.seats[top.seat]
    landmark = top.ints[0] if top.ints else 0
    cells: tuple[tuple[int, int], ...] = ()
    before = grid_of(player)
    if command.row != OUTSIDE:
        shapes = footprints(top.token, landmark)
        placement = (command.row, command.col, command.orientation)
        cells = tuple(c for c in cap.footprint_at(shapes, placement) if cap.on_grid(c))
    ctx.emit(
        ev.BuildingPlaced(
            seat=top.seat,
            building=top.token,
            landmark=landmark,
            row=command.row,
            col=command.col,
            orientation=command.orientation,
            cells=cells,
        )
    )
    if cells:
        for district in cap.completed_districts(before, grid_of(ctx.state.seats[top.seat])):
            ctx.emit(ev.DistrictCompleted(seat=top.seat, district=district))
            ctx.push(Frame(kind="resource", seat=top.seat, ints=(1,), source="district"))


DECISIONS["build"] = (_build_options, _build_answer)


# -- draws -------------------------------------------------------------------------------
def pick_tapestry_cards(ctx: Ctx, count: int) -> list[int]:
    """Pick ``count`` tapestry cards by chance (fewer when the deck and discard run out),
    emitting ``TapestryReshuffled`` when an empty deck is rebuilt from the discard pile
    (F.À.Q. "plus de cartes Fresque"); the caller records who drew them."""
    cards: list[int] = []
    for _ in range(count):
        deck = tapestry_deck(ctx.state)
        for card in cards:
            deck.remove(card)
        if not deck and ctx.state.tapestry_discard:
            ctx.emit(ev.TapestryReshuffled())
            deck = tapestry_deck(ctx.state)
            for card in cards:
                deck.remove(card)
        if not deck:
            break
        cards.append(ctx.chance.choice(deck))
    return cards


def draw_tapestry(ctx: Ctx, seat: int, count: int) -> list[int]:
    """Draw ``count`` tapestry cards (fewer when the deck and discard run out); the cards.

    An empty deck is rebuilt from the discard pile (F.À.Q. "plus de cartes Fresque").
    """
    cards = pick_tapestry_cards(ctx, count)
    receive_tapestry(ctx, seat, cards)
    return cards


def receive_tapestry(ctx: Ctx, seat: int, cards: list[int]) -> None:
    """``seat`` takes ``cards`` drawn into its hand (Academia: 3 VP per card)."""
    if cards:
        ctx.emit(ev.TapestryDrawn(seat=seat, count=len(cards), cards=tuple(cards)))
        if has_active(ctx.state.seats[seat], "academia"):
            score(ctx, seat, 3 * len(cards), "academia")


def _tapestry(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    draw_tapestry(ctx, seat, count)


TOKENS["gain_tapestry_card"] = _tapestry


def draw_territory(ctx: Ctx, seat: int, count: int) -> list[int]:
    """Draw territory tiles into the face-up supply (none once the stack is empty)."""
    deck = territory_deck(ctx.state)
    tiles: list[int] = []
    for _ in range(min(count, len(deck))):
        tile = ctx.chance.choice(deck)
        deck.remove(tile)
        tiles.append(tile)
    if tiles:
        ctx.emit(ev.TerritoryTilesDrawn(seat=seat, tiles=tuple(tiles)))
    return tiles


def _territory(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    draw_territory(ctx, seat, count)


TOKENS["gain_territory_tile"] = _territory


def _space(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    deck = space_deck(ctx.state)
    tiles: list[int] = []
    for _ in range(min(count, len(deck))):
        tile = ctx.chance.choice(deck)
        deck.remove(tile)
        tiles.append(tile)
    if tiles:
        ctx.emit(ev.SpaceTilesDrawn(seat=seat, tiles=tuple(tiles)))


TOKENS["gain_space_tile"] = _space


def _nothing(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """An explicit "no gain" option (e.g. declining an optional refresh)."""


TOKENS["_nothing"] = _nothing


def _everyone_resource(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """Each seat in turn order takes a resource; a seat whose game is over gains nothing
    ("Fin de la partie": after your fifth income turn you gain nothing more)."""
    n = ctx.state.n
    ctx.push(
        *(
            Frame(kind="resource", seat=(seat + i) % n, ints=(1,), source=top.source)
            for i in range(n)
            if not ctx.state.seats[(seat + i) % n].finished
        )
    )


TOKENS["all_players_gain_any_resource"] = _everyone_resource


# -- achievements ----------------------------------------------------------------------
def achievement_vp(state: TapestryState, achievement: int) -> int:
    """VP for the next seat to fulfil ``achievement`` (0 once every slot is taken)."""
    record = C.ACHIEVEMENTS[achievement]
    values = record.vp_small if state.board == "small" else record.vp_large
    rank = len(state.achievement_claims.get(str(achievement), []))
    return values[rank] if rank < len(values) else 0


def _achievement_id(key: str) -> int:
    for achievement in C.ACHIEVEMENTS.values():
        if achievement.key == key:
            return achievement.id
    raise RuleViolation("NOT_IMPLEMENTED", f"Achievement {key!r} is unknown.")


def earn(ctx: Ctx, seat: int, key: str) -> None:
    """``seat`` fulfils achievement ``key`` unless it already did ("Objectifs")."""
    achievement = _achievement_id(key)
    if achievement in ctx.state.seats[seat].achievements:
        return
    ctx.emit(
        ev.AchievementEarned(
            seat=seat, achievement=achievement, vp=achievement_vp(ctx.state, achievement)
        )
    )


def check_toppled(ctx: Ctx) -> None:
    """Every seat now standing over 2 toppled opponent outposts earns that achievement."""
    for seat in range(ctx.state.n):
        if toppled_by(ctx.state, seat) >= 2:
            earn(ctx, seat, TOPPLE_KEY)


TRACK_KEY, TOPPLE_KEY, ISLAND_KEY = "complete_track", "topple_two_outposts", "conquer_middle_island"

__all__ = ["OUTSIDE", "claim_landmark", "draw_tapestry", "draw_territory", "earn", "expr_frame"]

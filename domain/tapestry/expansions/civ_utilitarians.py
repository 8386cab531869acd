"""Utilitarians (Utilitaristes, Plans & Ploys): two tokens switch on landmarks' abilities.

Facts: the facts folder's record (``civilizations.json#39``: « If starting civ, take a tier II
landmark of your choice. Two tokens switch on abilities of landmarks you own (one starts on that
landmark); after gaining a listed landmark you may place or move a token onto it. », its eight
``mat_slots``, each a base landmark of ``content/landmarks.json`` with its ability, and its
``gained_mid_game``: « Place up to 2 tokens on abilities of landmarks you already own. »), the
rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« UTILITARISTES Perdez [icône] si vous commencez
la partie avec les Utilitaristes. ») and F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS" (a resource
lost is lost at the end of the first income turn). Our content:
``content/civilizations_plans_and_ploys.json#39``; readings the sources leave open are records
of ``decisions.json`` (``utilitarians_*``).

``civ_tokens["utilitarians"]`` lists the landmarks (ids) holding a token, at most
:data:`TOKENS_ON_MAT`; an ability works while its landmark holds a token:

* Forge: an upgrade to the top row also gives 1 resource of choice;
* Rubber Works, Tank Factory, Train Station, Academy: 4 VP per forward move of a token into or
  within tiers III-IV of technology, military, exploration, science;
* Barracks: every conquest's dice roll also gives the red die's face (even when it was kept);
* Lighthouse: once per advance turn, after the advance, 2 territory tiles of the supply may be
  discarded for 1 resource of choice (an optional exchange);
* Apothecary: every further landmark gained gives 1 resource of choice.

Setup (token ``utilitarians_tier_two_landmark``, starting only): a tier II landmark still on its
track, chosen, claimed and built; a token goes on it. After a listed landmark is claimed: a token
left goes on it, else one token may move onto it (decision :data:`MOVE`: ``Choose(index=the
landmark it leaves)`` or ``Decline``). Gained mid-game: tokens go on up to two listed landmarks
already owned (decision :data:`PLACE` when more than two are owned). Rebalancing (starting
only): one resource of choice lost at the end of the first income turn.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Advance, Choose, Decline
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, TOKENS, Ctx
from domain.tapestry.expansions.civ_treasure_hunters import RED, face_frame
from domain.tapestry.gains import score
from domain.tapestry.mapping import DICE_ROLLED
from domain.tapestry.rules import dump, gain, tier_of
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState

KEY = "utilitarians"
BOX = "plans_and_ploys"
#: decision kinds: move a token onto a landmark just claimed; place a token when gained.
MOVE, PLACE = "utilitarians_move", "utilitarians_place"
TOKENS_ON_MAT = 2
FORGE, RUBBER_WORKS, BARRACKS, TANK_FACTORY = 10, 8, 6, 5
LIGHTHOUSE, TRAIN_STATION, APOTHECARY, ACADEMY = 9, 4, 2, 3
#: the mat's landmarks, in slot order (facts folder ``mat_slots``).
MAT: tuple[int, ...] = (
    FORGE,
    RUBBER_WORKS,
    BARRACKS,
    TANK_FACTORY,
    LIGHTHOUSE,
    TRAIN_STATION,
    APOTHECARY,
    ACADEMY,
)
#: the landmark scoring each track's tiers III-IV.
TRACK_LANDMARK: dict[str, int] = {
    "technology": RUBBER_WORKS,
    "military": TANK_FACTORY,
    "exploration": TRAIN_STATION,
    "science": ACADEMY,
}
TIER_VP = 4
#: the tier II landmarks (first space of tier II of a track).
TIER_TWO_SPACE = 4
#: the Lighthouse's exchange: its cost units.
LIGHTHOUSE_COST: tuple[str, ...] = ("territory_tile", "territory_tile")


def tier_two() -> list[int]:
    """The tier II landmarks, by id."""
    return sorted(lm.id for lm in C.LANDMARKS.values() if lm.track and lm.space == TIER_TWO_SPACE)


def tokened(state: TapestryState, seat: int) -> list[int]:
    """The landmarks holding ``seat``'s Utilitarian tokens, in placement order."""
    return civs.tokens_of(state, seat, KEY, ())


def active(state: TapestryState, seat: int, landmark: int) -> bool:
    """``True`` when ``seat`` holds the Utilitarians with a token on ``landmark``."""
    return (
        civs.has_civ(state, seat, KEY)
        and not state.seats[seat].finished
        and landmark in tokened(state, seat)
    )


def _owned_listed(state: TapestryState, seat: int) -> list[int]:
    return [lm for lm in MAT if lm in state.seats[seat].landmarks]


# -- setup -----------------------------------------------------------------------------------
def _take_tier_two(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    free = [lm for lm in tier_two() if str(lm) not in ctx.state.landmark_owner]
    if free:
        options = tuple(gain(f"_landmark_{lm}") for lm in free)
        ctx.push(Frame(kind="choose", seat=seat, options=options, source=f"civ:{KEY}"))


TOKENS["utilitarians_tier_two_landmark"] = _take_tier_two


# -- tokens: claimed landmarks, a gained mat ---------------------------------------------------
def _on_claim(ctx: Ctx, seat: int, landmark: int) -> None:
    state = ctx.state
    if active(state, seat, APOTHECARY) and landmark != APOTHECARY:
        ctx.push(Frame(kind="resource", seat=seat, ints=(1,), source=f"civ:{KEY}:apothecary"))
    if landmark not in MAT or not civs.has_civ(state, seat, KEY):
        return
    on = tokened(state, seat)
    if len(on) < TOKENS_ON_MAT:
        civs.set_tokens(ctx, seat, KEY, [*on, landmark])
    else:
        ctx.push(Frame(kind=MOVE, seat=seat, ints=(landmark,), source=f"civ:{KEY}"))


def _after_emit(ctx: Ctx, event: Event) -> None:
    """Landmarks claimed, the mat gained, top-row upgrades and forward moves."""
    if isinstance(event, ev.LandmarkClaimed):
        _on_claim(ctx, event.seat, event.landmark)
    elif isinstance(event, ev.CivilizationGained) and event.civilization == civs.civ_id(KEY):
        owned = _owned_listed(ctx.state, event.seat)
        if len(owned) <= TOKENS_ON_MAT:
            civs.set_tokens(ctx, event.seat, KEY, owned)
        else:
            civs.set_tokens(ctx, event.seat, KEY, [])
            ctx.push(Frame(kind=PLACE, seat=event.seat, ints=(TOKENS_ON_MAT,), source=f"civ:{KEY}"))
    elif isinstance(event, ev.TechUpgraded) and event.row == 2:
        if active(ctx.state, event.seat, FORGE):
            ctx.push(Frame(kind="resource", seat=event.seat, ints=(1,), source=f"civ:{KEY}:forge"))
    elif isinstance(event, ev.TokenMoved) and 0 <= event.origin < event.to:
        landmark = TRACK_LANDMARK[event.track]
        if tier_of(event.to) >= 3 and active(ctx.state, event.seat, landmark):
            score(ctx, event.seat, TIER_VP, f"civ:{KEY}:{C.LANDMARKS[landmark].name}")


AFTER_EMIT.append(_after_emit)


def _move_options(state: TapestryState, top: Frame) -> list[Command]:
    """A token moves from one of the landmarks holding one (its id), or stays."""
    if top.ints[0] in tokened(state, top.seat):
        return []
    return [*(Choose(index=lm) for lm in tokened(state, top.seat)), Decline()]


def _move_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    on = [top.ints[0] if lm == command.index else lm for lm in tokened(ctx.state, top.seat)]
    civs.set_tokens(ctx, top.seat, KEY, on)


DECISIONS[MOVE] = (_move_options, _move_answer)


def _place_options(state: TapestryState, top: Frame) -> list[Command]:
    """A listed landmark owned and still bare (its id)."""
    on = tokened(state, top.seat)
    return [Choose(index=lm) for lm in _owned_listed(state, top.seat) if lm not in on]


def _place_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    civs.set_tokens(ctx, top.seat, KEY, [*tokened(ctx.state, top.seat), command.index])
    if top.ints[0] > 1:
        ctx.push(Frame(kind=PLACE, seat=top.seat, ints=(top.ints[0] - 1,), source=top.source))


DECISIONS[PLACE] = (_place_options, _place_answer)


# -- Barracks: the red die of every conquest -------------------------------------------------
def _dice_rolled(ctx: Ctx, seat: int, index: int, red: int, black: int) -> None:
    if active(ctx.state, seat, BARRACKS):
        ctx.push(face_frame(seat, index, RED, red))


DICE_ROLLED.append(_dice_rolled)


# -- Lighthouse: 2 territory tiles for a resource, once per advance turn ---------------------
_turn_options, _turn_answer = DECISIONS["turn"]


def _turn_with_lighthouse(ctx: Ctx, top: Frame, command: Command) -> None:
    """After an advance, a Lighthouse with a token offers its exchange (pushed first, so it
    resolves once the advance is done)."""
    seat = top.seat
    if isinstance(command, Advance) and active(ctx.state, seat, LIGHTHOUSE):
        ctx.push(
            Frame(
                kind="bonus",
                seat=seat,
                options=LIGHTHOUSE_COST,
                expr=dump(C.Gain(token="gain_any_resource")),
                optional=True,
                source=f"civ:{KEY}:lighthouse",
            )
        )
    _turn_answer(ctx, top, command)


DECISIONS["turn"] = (_turn_options, _turn_with_lighthouse)


# -- the bots: what the tokens are worth -----------------------------------------------------
def abilities_value(state: TapestryState, seat: int) -> float:
    """A rough VP-equivalent of the abilities switched on for the rest of the game (the
    Tapestry bot adds it to its evaluation, so that it moves a token where it pays more)."""
    if not civs.has_civ(state, seat, KEY) or state.seats[seat].finished:
        return 0.0
    player = state.seats[seat]
    eras_left = max(0, 5 - player.income_turns)
    total = 0.0
    for landmark in tokened(state, seat):
        tracks = [t for t, lm in TRACK_LANDMARK.items() if lm == landmark]
        if tracks:
            at = player.position(TRACK_IDS.index(tracks[0]))
            total += TIER_VP * 0.5 * max(0, 12 - max(at, 6))
        elif landmark == FORGE:
            total += 0.8 * sum(1 for t in player.tech if t.row == 1) + 0.5 * eras_left
        elif landmark == BARRACKS:
            total += 1.5 * eras_left
        elif landmark == LIGHTHOUSE:
            total += 0.5 * (len(player.territory) // 2) + 0.3 * eras_left
        else:
            total += 0.8 * eras_left
    return total


civs.BOT_VALUES.append(abilities_value)


# -- rebalancing: a resource lost at the end of the first income turn ------------------------
def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    player = ctx.state.seats[seat]
    if era == 1 and player.civs and player.civs[0] == civs.civ_id(KEY) and any(player.resources):
        ctx.push(Frame(kind="resource", seat=seat, ints=(-1,), source=f"adjustment:{KEY}"))


civs.AFTER_INCOME.append(_after_income)
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)

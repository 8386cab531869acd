"""Scoring: the "VP per ..." benefit tokens, track-position tokens and the end of the game.

Rules: "Guide des icônes" (VP per building, tech card, tapestry card, territory, space on a
track...), "Compléter des districts, des lignes et des colonnes" (capital scoring), "Règles
générales" (repeat the benefit of your current position once per turn per icon; AI
Singularity), "Fin de la partie" (most VP wins; ties: see :func:`winners`).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx
from domain.tapestry.gains import score
from domain.tapestry.rules import (
    buildings_of,
    capital_score,
    controlled,
    tapestry_count,
    tech_count,
    track_index,
)
from domain.tapestry.state import TRACK_IDS, Frame, SeatState, TapestryState
from domain.tapestry.tracks import FULL, space_frames

Counter = Callable[[TapestryState, int], int]


def _per(counter: Counter, name: str) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        score(ctx, seat, count * counter(ctx.state, seat), name)

    TOKENS[name] = handler


def _seat(fn: Callable[[SeatState], int]) -> Counter:
    return lambda state, seat: fn(state.seats[seat])


def _building_count(building: str) -> Counter:
    return _seat(lambda s: buildings_of(s, building))


def _track_position(track: str) -> Counter:
    return _seat(lambda s: s.position(track_index(track)))


for _building in ("market", "house", "farm", "armory"):
    _per(_building_count(_building), f"vp_per_{_building}")
for _track in TRACK_IDS:
    _per(_track_position(_track), f"vp_per_{_track}_space")
_per(_seat(tech_count), "vp_per_tech_card")
_per(_seat(lambda s: len(s.territory)), "vp_per_territory_tile_in_supply")
_per(_seat(tapestry_count), "vp_per_tapestry_card")
_per(_seat(lambda s: len(s.hand)), "vp_per_tapestry_card_in_hand")
_per(_seat(lambda s: len(s.landmarks)), "vp_per_landmark")
_per(_seat(lambda s: 3 * len(s.landmarks)), "vp_3_per_landmark")
_per(_seat(lambda s: sum(s.taken)), "vp_per_income_building")
_per(lambda state, seat: len(controlled(state, seat)), "vp_per_controlled_territory")
_per(_seat(capital_score), "score_capital")


# -- repeating a position, AI Singularity ------------------------------------------------
def repeatable(state: TapestryState, seat: int) -> list[int]:
    """Tracks whose current space ``seat`` may activate again this turn."""
    player = state.seats[seat]
    found = []
    for track, name in enumerate(TRACK_IDS):
        tokens = player.tracks[track]
        position = max(tokens) if tokens else 0
        if position > 0 and f"{name}:{position}" not in player.activated:
            found.append(track)
    return found


def _repeat(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """The repeat icon: each icon once per turn (F.À.Q. "Recherches universitaires … Batterie
    Lithium-Ion": "chaque icône … qu'une seule fois par tour"); an icon met again in the same
    turn gives nothing. A tech card's icon is recorded as ``"icon:tech:<card>"``."""
    if top.source.startswith("tech:"):  # a track space's icon: the space-once rule covers it
        icon = f"icon:{top.source}"
        if icon in ctx.state.seats[seat].activated:
            return
        ctx.emit(ev.SpaceActivated(seat=seat, key=icon))
    ctx.push(Frame(kind="track", seat=seat, token="repeat", source=top.source))


def _restart(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(Frame(kind="track", seat=seat, token="restart", source=top.source))


TOKENS["repeat_current_position"] = _repeat
TOKENS["restart_token_on_any_track"] = _restart


def _track_options(state: TapestryState, top: Frame) -> list[Command]:
    if top.token == "repeat":
        return [Choose(index=t) for t in repeatable(state, top.seat)]
    if top.token == "restart":
        if not state.seats[top.seat].tracks[track_index("technology")]:
            return []
        return [Choose(index=t) for t in range(len(TRACK_IDS))]
    return [Choose(index=t) for t in range(len(TRACK_IDS))]


def _track_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat, track = top.seat, command.index
    player = ctx.state.seats[seat]
    if top.token == "repeat":
        position = max(player.tracks[track])
        ctx.push(*space_frames(ctx, seat, track, position, FULL, f"repeat:{TRACK_IDS[track]}"))
    elif top.token == "restart":
        tech = track_index("technology")
        tokens = player.tracks[tech]
        index = tokens.index(max(tokens))
        ctx.emit(
            ev.TokenMoved(seat=seat, track="technology", token=index, origin=tokens[index], to=-1)
        )
        ctx.emit(ev.TokenMoved(seat=seat, track=TRACK_IDS[track], token=-1, origin=-1, to=0))


DECISIONS["track"] = (_track_options, _track_answer)


# -- end of the game -----------------------------------------------------------------------
def tiebreak(state: TapestryState, seat: int) -> int:
    """The tie-breaker value of a seat (assumed: resources left, see :func:`winners`)."""
    return sum(state.seats[seat].resources)


def winners(state: TapestryState) -> tuple[int, ...]:
    """Seats with the most VP, ties broken as the game's rules revision says.

    ``tapestry/1``: the most resources left, then the win is shared (the older player aid).
    ``tapestry/2``: "En cas d'égalité, le joueur possédant le plus haut monument dans sa
    capitale est déclaré vainqueur" ("Fin de la partie"), see :func:`tallest_landmark`; if
    still tied, the English rulebook's rule (the most resources left, "Otherwise, players
    share the victory"), then the win is shared.
    """
    best = max(s.vp for s in state.seats)
    tied = [i for i, s in enumerate(state.seats) if s.vp == best]
    if state.rules.revision >= 2:
        tallest = max(tallest_landmark(state, i) for i in tied)
        tied = [i for i in tied if tallest_landmark(state, i) == tallest]
    top = max(tiebreak(state, i) for i in tied)
    return tuple(i for i in tied if tiebreak(state, i) == top)


def landmark_height(landmark: int) -> int:
    """The height rank of a landmark miniature (higher: taller).

    Assumed (``decisions.json#tiebreak_landmark_height``): no source gives the miniatures'
    heights, so a landmark's height is ranked by the cells of its footprint (the bigger
    miniature is taken as the taller); equal footprints rank equal.
    """
    return len(C.LANDMARKS[landmark].orientations[0])


def tallest_landmark(state: TapestryState, seat: int) -> int:
    """The height rank of the tallest landmark in ``seat``'s capital (0: none). Landmarks the
    Nomads put on the map are not in the capital."""
    return max(
        (landmark_height(b.landmark) for b in state.seats[seat].buildings if b.landmark),
        default=0,
    )


def end_game(ctx: Ctx) -> None:
    """Every seat has finished: final scores and winners."""
    scores = tuple(s.vp for s in ctx.state.seats)
    ctx.emit(ev.GameEnded(scores=scores, winners=winners(ctx.state)))

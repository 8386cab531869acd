"""Aliens (Extraterrestres, Plans & Ploys): space tiles explored onto the civilization mat.

Facts: the facts folder's record (``civilizations.json#31``: « Start with 4 space tiles.
Income turns 2-5: discard any space tile on the mat, then either explore one from supply onto
the mat (costs 1 any resource if you just discarded) or gain 1 any resource. »; mat slots
``explore_space_onto_civ_mat`` and ``gain_any_resource`` + ``discard_space_tile_from_civ_mat``,
one option per activation), the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« [...]
EXTRATERRESTRES [...] Pas de changement »). Our content:
``content/civilizations_plans_and_ploys.json#31``; readings the sources leave open are records
of ``decisions.json`` (``aliens_*``).

* Setup: four space tiles into the seat's supply (``gain_space_tile`` x4, ``SpaceTilesDrawn``).
  Only the base game's 15 space tiles exist in our sources (the box's four are not), so the
  tiles come from those.
* Income turns 2-5 (decision :data:`KEY`, one ``Choose``):

  - ``Choose(index=tile)``: with the mat empty, explore ``tile`` from the supply onto the mat
    (``SpaceTileExplored``, then the tile's benefit);
  - ``Choose(index=DISCARD + tile)``: throw away the tile on the mat, pay one resource of
    choice, explore ``tile`` onto the mat;
  - ``Choose(index=RESOURCE)``: gain one resource of choice; ``Choose(index=DISCARD +
    RESOURCE)``: throw away the tile on the mat, then gain one resource of choice.

The tile lying on the mat is the mat's counter (``civ_tokens["aliens"] == [tile]``; ``[]``
once thrown away). A thrown-away tile leaves the game; it stays listed among the seat's
explored space tiles (``space_explored``: nothing counts them).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState

KEY = "aliens"
BOX = "plans_and_ploys"
#: option codes: ``RESOURCE`` gains a resource; ``DISCARD +`` throws the mat's tile away first.
RESOURCE, DISCARD = 0, 100


def on_mat(state: TapestryState, seat: int) -> int:
    """The space tile lying on ``seat``'s Aliens mat (0: none)."""
    held = civs.tokens_of(state, seat, KEY, ())
    return held[0] if held else 0


def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 5:
        ctx.push(Frame(kind=KEY, seat=seat, source=f"civ:{KEY}"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    player = state.seats[top.seat]
    supply = sorted(set(player.space))
    found: list[Command] = []
    if on_mat(state, top.seat):
        if sum(player.resources) > 0:
            found.extend(Choose(index=DISCARD + tile) for tile in supply)
        found.extend([Choose(index=RESOURCE), Choose(index=DISCARD + RESOURCE)])
    else:
        found.extend(Choose(index=tile) for tile in supply)
        found.append(Choose(index=RESOURCE))
    return found


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat, source = top.seat, f"civ:{KEY}"
    discard, tile = divmod(command.index, DISCARD)
    frames: list[Frame] = []
    if discard:
        civs.set_tokens(ctx, seat, KEY, [])
    if tile == RESOURCE:
        ctx.push(expr_frame(seat, gain("gain_any_resource"), source))
        return
    if discard:  # « costs 1 any resource if you just discarded »
        frames.append(Frame(kind="resource", seat=seat, ints=(-1,), source=source))
    ctx.emit(ev.SpaceTileExplored(seat=seat, tile=tile))
    civs.set_tokens(ctx, seat, KEY, [tile])
    frames.append(expr_frame(seat, C.SPACE_TILES[tile].benefit, f"space:{tile}"))
    ctx.push(*frames)


DECISIONS[KEY] = (_options, _answer)

civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)

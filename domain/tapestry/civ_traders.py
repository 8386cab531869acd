"""Traders (Négociants): trade tokens on the map's territories.

Rules: the player aid's summary "CIVILISATIONS / Négociants" (four tokens on the mat; on income
turns 2-5 you may place one either on an empty territory, for 1 VP per adjacent territory of
an opponent — should that territory be conquered, you gain the benefit of the die the
conqueror did not keep —, or on a territory holding one opposing outpost, for that territory's
benefit), "Conquête" (no conquest of a territory holding two pieces: a trade token is a piece,
as the facts folder notes), "Rééquilibrage des civilisations" (a starting Trader gains 2
resources of its choice and 10 VP: ``adjustment_gain`` in ``content/civilizations.json#16``,
applied by :func:`domain.tapestry.civs.setup_frames`), "Règles générales" (after your fifth
income turn you gain nothing more).

A trade token is a map piece (:class:`~domain.tapestry.events.PiecePlaced` with ``piece``
``"traders"``, kept in the hex's ``outposts`` list like every piece): it takes room on the
territory but gives no control and is never toppled. ``4 -`` the tokens on the map are still
on the mat. Decision: ``traders`` (``Choose(index=hex)``, the board index, or ``Decline``).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.mapping import DIE_KEPT
from domain.tapestry.rules import rules_neighbours
from domain.tapestry.state import CONTROLLING_PIECES, Frame, TapestryState

KEY = "traders"
#: player tokens on the Traders' mat ("Posez 4 pions sur la fiche").
MAT_TOKENS = 4


def tokens_on_map(state: TapestryState, seat: int) -> list[int]:
    """Board indices of the territories holding one of ``seat``'s trade tokens."""
    return [
        i
        for i, cell in enumerate(state.hexes)
        if any(p.piece == KEY and p.seat == seat for p in cell.outposts)
    ]


def empty_territories(state: TapestryState) -> list[int]:
    """Territories (printed or explored) with no piece at all."""
    return [i for i, cell in enumerate(state.hexes) if cell.explored and not cell.outposts]


def lone_outposts(state: TapestryState, seat: int) -> list[int]:
    """Territories whose only piece is a standing outpost of an opponent of ``seat``."""
    found = []
    for i, cell in enumerate(state.hexes):
        if cell.explored and len(cell.outposts) == 1:
            piece = cell.outposts[0]
            if piece.seat != seat and piece.piece in CONTROLLING_PIECES and not piece.toppled:
                found.append(i)
    return found


def neighbour_vp(state: TapestryState, seat: int, index: int) -> int:
    """1 VP per territory next to ``index`` controlled by an opponent of ``seat``."""
    return sum(
        1
        for n in rules_neighbours(state, index)
        if n >= 0 and state.hexes[n].controller() not in (-1, seat)
    )


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if len(tokens_on_map(ctx.state, seat)) < MAT_TOKENS:
        ctx.push(Frame(kind="traders", seat=seat, source="civ:traders"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    places = sorted({*empty_territories(state), *lone_outposts(state, top.seat)})
    found: list[Command] = [Choose(index=i) for i in places]
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """An empty territory scores its opposing neighbours; beside a lone opposing outpost, the
    territory's benefit (a printed territory has none)."""
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    seat, index = top.seat, command.index
    empty = not ctx.state.hexes[index].outposts
    ctx.emit(ev.PiecePlaced(seat=seat, hex=index, piece=KEY))
    if empty:
        score(ctx, seat, neighbour_vp(ctx.state, seat, index), "civ:traders")
        return
    tile = ctx.state.hexes[index].tile
    benefit = C.TERRITORY_TILES[tile].benefit if tile >= 0 else None
    if benefit is not None:
        ctx.push(expr_frame(seat, benefit, f"tile:{tile}"))


DECISIONS["traders"] = (_options, _answer)


# -- a territory holding a trade token is conquered ----------------------------------------
def unkept_face(seat: int, index: int, red: int, black: int, kept: int) -> Frame:
    """The frame giving ``seat`` the face of the die not kept (0 red, 1 black kept)."""
    benefit = C.BLACK_DIE[black] if kept == 0 else C.RED_DIE[red]
    if isinstance(benefit, C.Gain) and benefit.token == "gain_conquered_tile_benefit":
        return Frame(kind="tile_benefit", seat=seat, ints=(index,))
    return expr_frame(seat, benefit, "civ:traders")


def _die_kept(ctx: Ctx, conqueror: int, index: int, red: int, black: int, kept: int) -> None:
    """The conqueror kept one die: each trade token there gives its owner the other die
    (after the conqueror's own face). Only a token placed on an empty territory can be there:
    a token beside an outpost makes two pieces, which no conquest may target."""
    for piece in ctx.state.hexes[index].outposts:
        if piece.piece == KEY and not ctx.state.seats[piece.seat].finished:
            ctx.push(unkept_face(piece.seat, index, red, black, kept))


civs.INCOME[KEY] = _income
DIE_KEPT.append(_die_kept)

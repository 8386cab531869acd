"""Isolationists (Isolationnistes): tokens that wall off conquered territories, and a final
bonus for the largest connected mass of one terrain.

Rules (player aid, "CIVILISATIONS / Isolationnistes"; facts folder ``civilizations.json#9``):

* the mat holds 4 player tokens (:data:`MAT_TOKENS`). When you conquer an *empty* territory
  (no piece on it before your outpost), you may take a token off the mat and put it with your
  outpost (:data:`DECISION`): the territory now holds 2 pieces, so nobody can conquer it any
  more ("Conquête": no conquest of a territory holding 2 pieces or more), and you gain 1
  resource of your choice;
* at your fifth income turn (step 1, the civilization's ability), the largest connected mass
  of one land terrain over the territories you control scores 5, 10, 16, 23, 31 or 40 VP for
  1 to 6 (or more) territories (:data:`MASS_VP`, :func:`largest_mass`).

F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS": the central island is no joker terrain; it is
surrounded by sea, so it never joins a mass (it counts alone, as 1).

Rebalancing ("RÉÉQUILIBRAGE DES CIVILISATIONS / ISOLATIONNISTES", icon lost): a starting
Isolationist also gains 1 resource of their choice (the content's ``adjustment_gain``,
applied by :func:`domain.tapestry.civs.setup_frames`).

Assumed, with their sources:

* the mass is made of the territories you *control* when it is scored (facts folder; the aid
  says "conquis", RULEBOOK_CROSSCHECK C13), your start territory included;
* terrain is known at the 6 corners of a hex (``hexmap``): two of your territories are
  connected through a terrain when they share a corner of that land terrain; the corners of
  one territory with the same land terrain belong to one mass (as the facts folder's source
  implementation reads the tiles); a small-island tile's centre land and the central island's
  lands touch no other territory. With no territory at all, the bonus is 0.
"""

from __future__ import annotations

from domain.core import Command, Event
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry import hexmap
from domain.tapestry.civs import INCOME, has_civ
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AFTER_EMIT, DECISIONS, Ctx
from domain.tapestry.gains import score
from domain.tapestry.rules import board_neighbours, controlled, corners
from domain.tapestry.state import Frame, TapestryState

KEY = "isolationists"
#: the decision offered after conquering an empty territory: leave a token there, or not.
DECISION = "isolationists"
#: player tokens on the mat when the civilization is taken.
MAT_TOKENS = 4
#: VP at the fifth income turn by size of the largest mass (index: territories, 6 or more).
MASS_VP: tuple[int, ...] = (0, 5, 10, 16, 23, 31, 40)
SEA = "sea"


def tokens_left(state: TapestryState, seat: int) -> int:
    """Tokens still on ``seat``'s mat: those not yet put on the map."""
    placed = sum(
        1
        for cell in state.hexes
        for piece in cell.outposts
        if piece.seat == seat and piece.piece == KEY
    )
    return max(0, MAT_TOKENS - placed)


# -- conquering an empty territory ---------------------------------------------------------
def _after_emit(ctx: Ctx, event: Event) -> None:
    """A conquest of an empty territory by an Isolationist offers to leave a token there."""
    top = ctx.current
    if (
        isinstance(event, ev.OutpostPlaced)
        and top is not None
        and top.kind == "conquer"
        and top.seat == event.seat
        and has_civ(ctx.state, event.seat, KEY)
        and len(ctx.state.hexes[event.hex].outposts) == 1
        and tokens_left(ctx.state, event.seat) > 0
    ):
        ctx.push(
            Frame(
                kind=DECISION,
                seat=event.seat,
                ints=(event.hex,),
                optional=True,
                source=f"civ:{KEY}",
            )
        )


AFTER_EMIT.append(_after_emit)


def _options(state: TapestryState, top: Frame) -> list[Command]:
    """Leave a token (``Choose(0)``) or not, while the territory still holds only your
    standing outpost and a token is left on the mat."""
    cell = state.hexes[top.ints[0]]
    alone = (
        len(cell.outposts) == 1
        and cell.outposts[0].seat == top.seat
        and cell.outposts[0].piece == ""
        and not cell.outposts[0].toppled
    )
    if not alone or tokens_left(state, top.seat) <= 0:
        return []
    return [Choose(index=0), Decline()]


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    ctx.emit(ev.PiecePlaced(seat=top.seat, hex=top.ints[0], piece=KEY))
    ctx.push(Frame(kind="resource", seat=top.seat, ints=(1,), source=f"civ:{KEY}"))


DECISIONS[DECISION] = (_options, _answer)


# -- final scoring -------------------------------------------------------------------------
def _lands(state: TapestryState, index: int) -> tuple[list[str], list[str]]:
    """A territory's land terrain per corner (``""`` for sea) and its inner lands (a small
    island's centre, the central island's lands), which touch no neighbour."""
    at = [t if t != SEA else "" for t in corners(state, index)]
    cell = state.hexes[index]
    inner: list[str] = []
    if cell.tile >= 0:
        centre = C.TERRITORY_TILES[cell.tile].center
        inner = [centre] if centre else []
    elif cell.printed:
        printed = C.BOARDS[state.board].hexes[index]
        inner = [*([printed.center] if printed.center else []), *printed.lands]
    return at, inner


def largest_mass(state: TapestryState, seat: int) -> int:
    """Territories in the largest connected mass of one land terrain that ``seat`` controls."""
    mine = controlled(state, seat)
    owned = set(mine)
    parent: dict[tuple[int, str], tuple[int, str]] = {}

    def find(node: tuple[int, str]) -> tuple[int, str]:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    lands = {index: _lands(state, index) for index in mine}
    for index in mine:
        at, inner = lands[index]
        for terrain in [*at, *inner]:
            if terrain:
                parent.setdefault((index, terrain), (index, terrain))
    near = board_neighbours(state.board)
    for index in mine:
        at = lands[index][0]
        for direction, other in enumerate(near[index]):
            if other not in owned or other < index:
                continue
            theirs = lands[other][0]
            for mine_corner, their_corner in hexmap.shared_corners(direction):
                terrain = at[mine_corner] if at else ""
                if terrain and theirs and theirs[their_corner] == terrain:
                    a, b = find((index, terrain)), find((other, terrain))
                    if a != b:
                        parent[max(a, b)] = min(a, b)
    sizes: dict[tuple[int, str], int] = {}
    for node in parent:
        root = find(node)
        sizes[root] = sizes.get(root, 0) + 1
    return max(sizes.values(), default=0)


def mass_vp(size: int) -> int:
    """VP for a mass of ``size`` territories (5/10/16/23/31/40, 6 or more score 40)."""
    return MASS_VP[min(size, len(MASS_VP) - 1)]


def _income(ctx: Ctx, seat: int, era: int) -> None:
    """Fifth income turn: the largest mass of one terrain scores."""
    if era >= 5:
        score(ctx, seat, mass_vp(largest_mass(ctx.state, seat)), f"civ:{KEY}")


INCOME[KEY] = _income

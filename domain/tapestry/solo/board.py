"""The map as the bots read it: hex priority and distances ("PRIORITE D'HEXAGONE ET
DISTANCE").

Hex priority: a decision card shows a start hex, a direction along its row and the next row.
We walk every row (all hexes ``start + k * next_row + t * along``) by increasing ``t``, rows
``k = 0, 1, 2…`` first and then the rows behind the start (``k = -1, -2…``) — the printed
arrows only name the first row and the direction, so covering the rows behind the start is
our reading (``decisions.json``-style note in ``docs/games/tapestry-solo.md``).

Distance: the length of the shortest path of hexes with no Automa outpost and at most one
human piece ("l'hexagone le plus proche").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import lru_cache

from domain.tapestry.rules import board_hexes, board_neighbours
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo.content import DecisionCard
from domain.tapestry.state import CONTROLLING_PIECES, TapestryState

FAR = 10_000


@lru_cache(maxsize=64)
def _priority(
    board: str, start: tuple[int, int], along: tuple[int, int], nxt: tuple[int, int]
) -> tuple[int, ...]:
    keys: list[tuple[int, int, int]] = []
    det = along[0] * nxt[1] - along[1] * nxt[0]
    for index, (q, r, _) in enumerate(board_hexes(board)):
        dq, dr = q - start[0], r - start[1]
        # solve (dq, dr) = t * along + k * nxt (integer on a hex grid for unit vectors)
        t = (dq * nxt[1] - dr * nxt[0]) // det if det else 0
        k = (along[0] * dr - along[1] * dq) // det if det else 0
        row = k if k >= 0 else FAR - k
        keys.append((row, t, index))
    return tuple(index for _, _, index in sorted(keys))


def priority(state: TapestryState, card: DecisionCard) -> tuple[int, ...]:
    """Every board index in the priority order of ``card`` (its hex tiebreak)."""
    hexes = card.hex
    return _priority(state.board, hexes.start, hexes.along, hexes.next_row)


def first_by_priority(state: TapestryState, card: DecisionCard, among: Iterable[int]) -> int:
    """The first of ``among`` in ``card``'s hex order (-1 when ``among`` is empty)."""
    wanted = set(among)
    for index in priority(state, card):
        if index in wanted:
            return index
    return -1


def controlled_by(state: TapestryState, party: int) -> list[int]:
    """Board indices of the territories ``party`` (a seat or a bot) controls."""
    return [i for i, cell in enumerate(state.hexes) if cell.controller() == party]


def human_pieces(state: TapestryState, index: int) -> int:
    """Pieces of the human seats on a hex (standing or not)."""
    return sum(1 for o in state.hexes[index].outposts if o.seat >= 0)


def standing_human_outposts(state: TapestryState, index: int) -> int:
    """Standing human outposts on a hex."""
    return sum(
        1
        for o in state.hexes[index].outposts
        if o.seat >= 0 and not o.toppled and o.piece in CONTROLLING_PIECES
    )


def _passable(state: TapestryState, index: int) -> bool:
    cell = state.hexes[index]
    automa = any(o.seat == AUTOMA for o in cell.outposts)
    return not automa and human_pieces(state, index) <= 1


def distances(state: TapestryState, sources: Iterable[int]) -> list[int]:
    """Shortest distance of each hex to the nearest of ``sources`` through passable hexes
    (the sources themselves always count; :data:`FAR` when unreachable)."""
    near = board_neighbours(state.board)
    dist = [FAR] * len(state.hexes)
    queue: deque[int] = deque()
    for source in sorted(set(sources)):
        dist[source] = 0
        queue.append(source)
    while queue:
        here = queue.popleft()
        for nxt in near[here]:
            if nxt < 0 or dist[nxt] <= dist[here] + 1:
                continue
            dist[nxt] = dist[here] + 1
            if _passable(state, nxt):
                queue.append(nxt)
    return dist


def adjacent_to(state: TapestryState, index: int, targets: set[int]) -> bool:
    """``True`` when hex ``index`` touches one of ``targets``."""
    return any(n in targets for n in board_neighbours(state.board)[index] if n >= 0)

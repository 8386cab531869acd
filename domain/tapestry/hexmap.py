"""Hex-map geometry for Tapestry: coordinates, adjacency, tile rotation and exploration VP.

Conventions (those of the reference's ``README.md``, ``map.json`` and ``territory_tiles.json``):

* A :data:`Hex` is an axial ``(q, r)``. Hexes are flat-top; on screen "down" grows with
  ``q + r`` and "right" with ``r - q``, so ``(q + 1, r + 1)`` is straight below ``(q, r)``.
* Edge directions, clockwise from the top: 0 top ``(q-1, r-1)``, 1 upper-right ``(q-1, r)``,
  2 lower-right ``(q, r+1)``, 3 bottom ``(q+1, r+1)``, 4 lower-left ``(q+1, r)``, 5 upper-left
  ``(q, r-1)`` (:data:`DIRECTIONS`).
* A hex's terrain is sampled at its 6 corners: 0 top-left, then clockwise (1 top-right,
  2 right, 3 bottom-right, 4 bottom-left, 5 left). Edge ``d`` joins corners ``d`` and
  ``d + 1``, so corner ``d`` of a hex is corner ``d + 4`` of its neighbour in direction ``d``,
  and corner ``d + 1`` is the neighbour's corner ``d + 3`` (:func:`shared_corners`).
* A territory tile placed with rotation ``r`` is turned clockwise by ``r`` x 60 degrees:
  printed corner ``i`` lands on board corner ``(i + r) mod 6`` (:func:`rotate`).

Rule implemented (French rulebook, section "EXPLORATION", and F.À.Q. "COMBIEN DE POINTS
PUIS-JE GAGNER EN EXPLORANT ?"): the explorer scores 1 VP for each side of the new tile having
at least one terrain lined up with the neighbouring territory (sea included; rivers ignored),
so 0 to 6 VP. A side counts only if a territory lies beyond it (a printed hex or an explored
tile); an unexplored hex or the edge of the board gives nothing (:func:`exploration_vp`).

Rotations giving the same board-frame corners are indistinguishable in this model (terrain is
sampled at corners), so :func:`distinct_rotations` keeps the smallest rotation of each
distinct result; every rotation 0..5 remains a valid argument of :func:`rotate`.

>>> neighbours((0, 0))
((-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0), (0, -1))
>>> edge_direction((0, 0), (1, 1))
3
>>> rotate(("sea", "desert", "sea", "sea", "sea", "sea"), 1)
('sea', 'sea', 'desert', 'sea', 'sea', 'sea')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

#: an axial hex coordinate ``(q, r)``.
Hex = tuple[int, int]

#: the step to the neighbour across edge ``d``, for ``d`` = 0 (top) .. 5 (upper-left).
DIRECTIONS: tuple[Hex, ...] = ((-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0), (0, -1))
#: English names of the edge directions, for messages.
DIRECTION_NAMES: tuple[str, ...] = (
    "top",
    "upper-right",
    "lower-right",
    "bottom",
    "lower-left",
    "upper-left",
)
_DIRECTION_OF: dict[Hex, int] = {step: d for d, step in enumerate(DIRECTIONS)}


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex across edge ``direction`` (0..5) of ``h``.

    >>> neighbour((2, -1), 0), neighbour((2, -1), 3)
    ((1, -2), (3, 0))
    """
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The 6 neighbours of ``h``, in edge-direction order 0..5 (top first, then clockwise).

    >>> neighbours((1, 2))[3]
    (2, 3)
    """
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def opposite(direction: int) -> int:
    """The edge direction pointing back: ``(direction + 3) mod 6``.

    >>> opposite(0), opposite(4)
    (3, 1)
    """
    return (direction + 3) % 6


def are_adjacent(a: Hex, b: Hex) -> bool:
    """``True`` when ``a`` and ``b`` share an edge.

    >>> are_adjacent((0, 0), (1, 1)), are_adjacent((0, 0), (1, -1))
    (True, False)
    """
    return (b[0] - a[0], b[1] - a[1]) in _DIRECTION_OF


def edge_direction(a: Hex, b: Hex) -> int:
    """The edge direction (0..5) from ``a`` to its neighbour ``b``; ``ValueError`` if not adjacent.

    >>> edge_direction((0, 0), (0, -1)), edge_direction((0, -1), (0, 0))
    (5, 2)
    """
    step = (b[0] - a[0], b[1] - a[1])
    if step not in _DIRECTION_OF:
        raise ValueError(f"{a} and {b} are not adjacent")
    return _DIRECTION_OF[step]


def distance(a: Hex, b: Hex) -> int:
    """The number of steps between two hexes.

    >>> distance((0, 0), (2, 2)), distance((0, 0), (2, -1)), distance((0, 0), (-3, 0))
    (2, 3, 3)
    """
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq - dr))


# ---------------------------------------------------------------- boards


def board_hexes(radius: int, missing: Iterable[Hex] = ()) -> tuple[Hex, ...]:
    """The hexes within ``radius`` of ``(0, 0)`` minus ``missing``, sorted by ``q`` then ``r``.

    The reference's small board is ``board_hexes(3, [(0, -3), (-3, 0), (3, 3)])`` (34 hexes),
    its large board ``board_hexes(4)`` (61 hexes).

    >>> len(board_hexes(3, [(0, -3), (-3, 0), (3, 3)])), len(board_hexes(4))
    (34, 61)
    """
    gone = set(missing)
    return tuple(
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q - r) <= radius and (q, r) not in gone
    )


def neighbours_on(h: Hex, board: Collection[Hex]) -> tuple[Hex, ...]:
    """The neighbours of ``h`` that belong to ``board``, in edge-direction order.

    >>> neighbours_on((3, 3), board_hexes(3))
    ((2, 2), (2, 3), (3, 2))
    """
    return tuple(n for n in neighbours(h) if n in board)


def adjacent_hexes(hexes: Iterable[Hex], board: Sequence[Hex]) -> tuple[Hex, ...]:
    """The hexes of ``board`` adjacent to one of ``hexes`` but not among them, in board order.

    Exploring targets such a hex next to a territory you control that is still unexplored
    (section "EXPLORATION"); the caller filters out the explored ones.

    >>> adjacent_hexes([(0, 0)], board_hexes(1))
    ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1))
    """
    own = set(hexes)
    near = {n for h in own for n in neighbours(h)} - own
    return tuple(h for h in board if h in near)


# ---------------------------------------------------------------- tiles and exploration


def rotate(corners: Sequence[str], rotation: int) -> tuple[str, ...]:
    """Board-frame corners of a tile whose printed ``corners`` are turned ``rotation`` x 60°.

    Printed corner ``i`` lands on board corner ``(i + rotation) mod 6``, so board corner ``j``
    shows printed corner ``(j - rotation) mod 6``. Rotation 6 is rotation 0.

    >>> rotate("abcdef", 2)
    ('e', 'f', 'a', 'b', 'c', 'd')
    >>> rotate("abcdef", 6) == rotate("abcdef", 0) == tuple("abcdef")
    True
    """
    if len(corners) != 6:
        raise ValueError("a hex has 6 corners")
    return tuple(corners[(j - rotation) % 6] for j in range(6))


def distinct_rotations(corners: Sequence[str]) -> tuple[int, ...]:
    """The rotations 0..5 that give distinct board-frame corners, keeping the smallest of each.

    >>> distinct_rotations(["sea"] * 6)
    (0,)
    >>> distinct_rotations(["sea", "desert"] * 3)
    (0, 1)
    >>> distinct_rotations(["sea", "desert", "sea", "sea", "sea", "sea"])
    (0, 1, 2, 3, 4, 5)
    """
    seen: list[tuple[str, ...]] = []
    kept: list[int] = []
    for rotation in range(6):
        result = rotate(corners, rotation)
        if result not in seen:
            seen.append(result)
            kept.append(rotation)
    return tuple(kept)


def shared_corners(direction: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two physical corners of edge ``direction``: ``((mine, theirs), (mine, theirs))``.

    ``mine`` indexes the hex's corners, ``theirs`` the corners of its neighbour in that
    direction; each pair is the same point of the board.

    >>> shared_corners(0)
    ((0, 4), (1, 3))
    >>> shared_corners(3)
    ((3, 1), (4, 0))
    """
    d = direction % 6
    return ((d, (d + 4) % 6), ((d + 1) % 6, (d + 3) % 6))


def side_matches(corners: Sequence[str], other: Sequence[str], direction: int) -> bool:
    """``True`` when at least one corner of edge ``direction`` has the same terrain on both sides.

    ``corners`` are the hex's board-frame corners, ``other`` those of its neighbour in
    ``direction``.

    >>> side_matches("abcdef", "xxxxax", 0), side_matches("abcdef", "xxxbxx", 0)
    (True, True)
    >>> side_matches("abcdef", "abcdef", 0)
    False
    """
    return any(corners[mine] == other[theirs] for mine, theirs in shared_corners(direction))


def exploration_vp(placed: Sequence[str], neighbour_corners: Sequence[Sequence[str] | None]) -> int:
    """VP for exploring: 1 per side with at least one lined-up terrain (0..6).

    ``placed`` is the new tile's board-frame corners (after :func:`rotate`);
    ``neighbour_corners[d]`` the board-frame corners of the territory across edge ``d``, or
    ``None`` / ``()`` when no territory lies there (unexplored hex, off the board). Printed
    hexes and the central island count as territories through their corners.

    >>> new = ("mountain", "mountain", "desert", "sea", "sea", "grassland")
    >>> above = ("sea", "sea", "desert", "forest", "mountain", "sea")
    >>> exploration_vp(new, [above, None, None, None, None, ()])
    1
    """
    if len(placed) != 6 or len(neighbour_corners) != 6:
        raise ValueError("a hex has 6 corners and 6 neighbours")
    vp = 0
    for direction, other in enumerate(neighbour_corners):
        if not other:
            continue
        if len(other) != 6:
            raise ValueError("a hex has 6 corners")
        if side_matches(placed, other, direction):
            vp += 1
    return vp


def exploration_vp_at(
    h: Hex, placed: Sequence[str], territories: Mapping[Hex, Sequence[str]]
) -> int:
    """:func:`exploration_vp` for a tile put on ``h``, reading neighbours from ``territories``.

    ``territories`` maps each hex holding a territory (printed or explored) to its board-frame
    corners; missing hexes and empty corner lists count as no territory.

    >>> exploration_vp_at((0, 0), ["sea"] * 6, {(1, 1): ["sea"] * 6, (5, 5): ["sea"] * 6})
    1
    """
    return exploration_vp(placed, [territories.get(n) for n in neighbours(h)])

"""Scoring ("Décompte des Points de Victoire"): the four-part score sheet of every seat.

* Economy: 1 VP per 2 coins (rounded down). With the "VARIANTE : DÉCOMPTE RAPIDE"
  (``riseandfall/2``, option ``scoring="quick"``) each seat puts half its coins, rounded
  down, back in the box and the rest count 1 VP each; development and territory VP are taken
  as coins, which changes no total (ASSUMED: the bank's stock does not limit them).
* Trophies: the VP of the trophies won (``content/trophies.json``).
* Development: for each active card (hand, discard — and the card laid face down this round,
  which sits on the discard), the card's VP for the pieces of its type in the world; cards in
  decline or in the reserve are crossed out.
* Territorial presence: per region (adjacent cells of one terrain, glacier counted as
  mountain) the seat with strictly the most pieces scores its cells: sea 2, plain 1, forest 3,
  mountain 4 VP each; a tie scores nothing. A city with a merchant on it counts two pieces.

An extinct seat scores only its trophies and never wins; seats tied on the best score share
the win (the rulebook gives no tie-break).
"""

from __future__ import annotations

from domain.riseandfall.content import PIECES, TROPHY_VP, development_vp
from domain.riseandfall.events import ScoreSheet
from domain.riseandfall.state import RiseFallState
from domain.riseandfall.world import geometry

#: VP per cell of a dominated region, by region terrain value (sea, plain, forest, mountain).
CELL_VP = (2, 1, 3, 4)


def dominated_regions(state: RiseFallState) -> list[list[list[int]]]:
    """Per seat, per terrain (sea, plain, forest, mountain): sizes of the regions it dominates."""
    result: list[list[list[int]]] = [[[] for _ in CELL_VP] for _ in state.seats]
    geo = geometry(state.world)
    for region in geo.regions:
        counts = [0] * state.n
        for cell in region.cells:
            for owner, _ in state.pieces_at(cell):
                counts[owner] += 1
        best = max(counts)
        if best <= 0 or counts.count(best) > 1:
            continue
        terrain = int(region.terrain)
        if 0 <= terrain < len(CELL_VP):
            result[counts.index(best)][terrain].append(len(region.cells))
    return result


def _active(state: RiseFallState, seat_no: int) -> set[int]:
    seat = state.seats[seat_no]
    cards = {*seat.hand, *seat.discard}
    if seat.chosen >= 0:
        cards.add(seat.chosen)
    return cards


def score_sheet(state: RiseFallState, seat_no: int, regions: list[list[int]]) -> ScoreSheet:
    """The score sheet of ``seat_no`` given the sizes of the regions it dominates."""
    seat = state.seats[seat_no]
    trophies = sum(TROPHY_VP[k] for k in seat.trophies)
    if seat.extinct:
        crossed = tuple(-1 for _ in PIECES)
        empty = tuple(() for _ in CELL_VP)
        return ScoreSheet(
            coins=0,
            economy=0,
            trophies=trophies,
            developed=crossed,
            development=crossed,
            regions=empty,
            territory=(0, 0, 0, 0),
            total=trophies,
        )
    active = _active(state, seat_no)
    developed = tuple(seat.pieces[k] if k in active else -1 for k in range(len(PIECES)))
    development = tuple(
        development_vp(k, seat.pieces[k]) if k in active else -1 for k in range(len(PIECES))
    )
    territory = tuple(CELL_VP[t] * sum(sizes) for t, sizes in enumerate(regions))
    economy = seat.coins - seat.coins // 2 if state.rules.quick_scoring else seat.coins // 2
    total = economy + trophies + sum(v for v in development if v > 0) + sum(territory)
    return ScoreSheet(
        coins=seat.coins,
        economy=economy,
        trophies=trophies,
        developed=developed,
        development=development,
        regions=tuple(tuple(r) for r in regions),
        territory=territory,
        total=total,
    )


def score_sheets(state: RiseFallState) -> tuple[ScoreSheet, ...]:
    """Every seat's score sheet for the state as it is now."""
    regions = dominated_regions(state)
    return tuple(score_sheet(state, s, regions[s]) for s in range(state.n))


def final_outcome(
    state: RiseFallState,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[ScoreSheet, ...]]:
    """Scores, winners (best score among living seats, ties share) and score sheets."""
    sheets = score_sheets(state)
    scores = tuple(sheet.total for sheet in sheets)
    living = state.living()
    if not living:
        return scores, (), sheets
    best = max(scores[s] for s in living)
    winners = tuple(s for s in living if scores[s] == best)
    return scores, winners, sheets

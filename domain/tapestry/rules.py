"""Pure rule helpers over the state and the content: costs, control, map, decks, requirements.

Nothing here changes the state or emits events; the engine and ``legal_actions`` share these
functions so that what is offered and what is accepted never drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

import msgspec

from domain.tapestry import capital as cap
from domain.tapestry import content as C
from domain.tapestry import hexmap
from domain.tapestry.solo.content import REMOVED_CARDS
from domain.tapestry.state import (
    BUILDINGS,
    COLLECTORS,
    RESOURCES,
    SHARING_PIECES,
    SHELF,
    TRACK_IDS,
    UNCONQUERABLE_PIECES,
    SeatState,
    TapestryState,
)

#: income-track id -> index in ``BUILDINGS``.
INCOME_INDEX: dict[str, int] = {t.id: i for i, t in enumerate(C.INCOME_TRACKS)}
_BENEFIT_CODEC = msgspec.json.Encoder()
_BENEFIT_DECODER = msgspec.json.Decoder(C.Benefit)


# -- benefit expressions as JSON ------------------------------------------------------------
def dump(benefit: C.Benefit) -> str:
    """A benefit expression as compact JSON (how the agenda stores it)."""
    return _BENEFIT_CODEC.encode(benefit).decode()


@lru_cache(maxsize=4096)
def load(text: str) -> C.Benefit:
    """The benefit expression stored by :func:`dump`."""
    benefit: C.Benefit = _BENEFIT_DECODER.decode(text)
    return benefit


def gain(token: str, count: int = 1) -> str:
    """A one-token expression as JSON."""
    return dump(C.Gain(token=token, count=count))


# -- board ---------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def board_hexes(board: str) -> tuple[tuple[int, int, bool], ...]:
    """``(q, r, printed)`` for every hex of a board, in content order."""
    return tuple((h.q, h.r, bool(h.corners)) for h in C.BOARDS[board].hexes)


@lru_cache(maxsize=4)
def _board_index(board: str) -> dict[tuple[int, int], int]:
    return {(q, r): i for i, (q, r, _) in enumerate(board_hexes(board))}


def hex_at(state: TapestryState, q: int, r: int) -> int:
    """Board index of ``(q, r)`` (-1 off the board)."""
    return _board_index(state.board).get((q, r), -1)


@lru_cache(maxsize=4)
def board_neighbours(board: str) -> tuple[tuple[int, ...], ...]:
    """For each board index, the board indices of its neighbours by edge direction (-1: none)."""
    index = _board_index(board)
    return tuple(
        tuple(index.get(n, -1) for n in hexmap.neighbours((q, r))) for q, r, _ in board_hexes(board)
    )


def corners(state: TapestryState, index: int) -> tuple[str, ...]:
    """Board-frame corner terrains of a territory (``()`` for an unexplored hex)."""
    cell = state.hexes[index]
    if cell.tile >= 0:
        return hexmap.rotate(C.TERRITORY_TILES[cell.tile].corners, cell.rotation)
    if cell.printed:
        return tuple(C.BOARDS[state.board].hexes[index].corners)
    return ()


def is_central_island(state: TapestryState, index: int) -> bool:
    """``True`` for the central island ("Conquérir l'île centrale")."""
    return C.BOARDS[state.board].hexes[index].central_island


def controlled(state: TapestryState, seat: int) -> list[int]:
    """Board indices of the territories ``seat`` controls (its only standing outpost there, or
    a piece of :data:`~domain.tapestry.state.SHARING_PIECES` of its own: shared control)."""
    return [
        i
        for i, cell in enumerate(state.hexes)
        if cell.controller() == seat
        or any(o.seat == seat and o.piece in SHARING_PIECES for o in cell.outposts)
    ]


def explore_targets(state: TapestryState, seat: int, anywhere: bool) -> list[int]:
    """Unexplored hexes ``seat`` may explore: adjacent to its territories, or any (Airplanes)."""
    near = board_neighbours(state.board)
    mine = set(controlled(state, seat))
    found = []
    for i, cell in enumerate(state.hexes):
        if cell.explored or cell.outposts:
            continue
        if anywhere or any(n in mine for n in near[i] if n >= 0):
            found.append(i)
    return found


def exploration_vp(state: TapestryState, index: int, tile: int, rotation: int) -> int:
    """VP for exploring ``tile`` on ``index`` with ``rotation`` ("Exploration")."""
    placed = hexmap.rotate(C.TERRITORY_TILES[tile].corners, rotation)
    others = [corners(state, n) if n >= 0 else () for n in board_neighbours(state.board)[index]]
    return hexmap.exploration_vp(placed, others)


def conquer_targets(state: TapestryState, seat: int, anywhere: bool) -> list[int]:
    """Territories ``seat`` may conquer ("Conquête"): at most one token, not already its own,
    adjacent to a territory it controls (anywhere for Warplanes); needs an outpost in supply."""
    if outposts_left(state, seat) <= 0:
        return []
    near = board_neighbours(state.board)
    mine = set(controlled(state, seat))
    found = []
    for i, cell in enumerate(state.hexes):
        if not cell.explored or len(cell.outposts) > 1 or i in mine:
            continue
        if cell.outposts and cell.outposts[0].seat == seat and not cell.outposts[0].piece:
            continue  # your own outpost; a lone token of yours (Traders) may be conquered
        if any(o.piece in UNCONQUERABLE_PIECES for o in cell.outposts):
            continue  # a Treasure Hunters token holds it (Plans & Ploys)
        if anywhere or any(n in mine for n in near[i] if n >= 0):
            found.append(i)
    return found


def outposts_left(state: TapestryState, seat: int) -> int:
    """Outposts ``seat`` may still put on the map."""
    return state.seats[seat].outposts


def toppled_by(state: TapestryState, seat: int) -> int:
    """Opponent outposts currently toppled on territories where ``seat`` stands."""
    count = 0
    for cell in state.hexes:
        if cell.controller() == seat:
            count += sum(1 for o in cell.outposts if o.toppled and o.seat != seat)
    return count


# -- capital -------------------------------------------------------------------------------
def capital_grid(capital: int) -> tuple[str, ...]:
    """The impassable-plot grid of a capital mat."""
    return tuple(C.CAPITALS[capital].grid)


def grid_of(seat: SeatState) -> cap.CapitalGrid:
    """The seat's capital as the geometry module sees it."""
    return cap.CapitalGrid(blocked=tuple(seat.grid_blocked), filled=tuple(seat.grid_filled))


def footprints(building: str, landmark: int) -> cap.Orientations:
    """The orientations of a building's footprint (one plot for income buildings)."""
    if building != "landmark":
        return cap.SINGLE_CELL
    return tuple(tuple((r, c) for r, c in o) for o in C.LANDMARKS[landmark].orientations)


def capital_score(seat: SeatState) -> int:
    """VP for scoring the capital: complete rows plus complete columns."""
    return cap.capital_vp(grid_of(seat))


# -- resources and costs -------------------------------------------------------------------
def payments(have: list[int], fixed: Iterable[str], any_units: int) -> list[tuple[str, ...]]:
    """Every distinct way to pay ``fixed`` resources plus ``any_units`` resources of choice.

    Each way is the sorted tuple (``RESOURCES`` order) of the resources chosen for the "any"
    units; an empty list when the cost cannot be paid.
    """
    rest = list(have)
    for unit in fixed:
        i = RESOURCES.index(unit)
        rest[i] -= 1
        if rest[i] < 0:
            return []
    found: list[tuple[str, ...]] = []

    def walk(start: int, left: int, chosen: list[str]) -> None:
        if left == 0:
            found.append(tuple(chosen))
            return
        for i in range(start, len(RESOURCES)):
            if rest[i] > 0:
                rest[i] -= 1
                chosen.append(RESOURCES[i])
                walk(i, left - 1, chosen)
                chosen.pop()
                rest[i] += 1

    walk(0, any_units, [])
    return found


def split_cost(cost: Iterable[str]) -> tuple[list[str], int, dict[str, int]]:
    """A cost list as (fixed resources, "any resource" units, other units by token)."""
    fixed: list[str] = []
    any_units = 0
    other: dict[str, int] = {}
    for unit in cost:
        if unit in RESOURCES:
            fixed.append(unit)
        elif unit == "any_resource":
            any_units += 1
        else:
            other[unit] = other.get(unit, 0) + 1
    return fixed, any_units, other


def delta(resources: Iterable[str], sign: int = 1) -> tuple[int, int, int, int]:
    """A resource delta from a list of resource names."""
    counts = [0, 0, 0, 0]
    for name in resources:
        counts[RESOURCES.index(name)] += sign
    return (counts[0], counts[1], counts[2], counts[3])


def combinations(items: list[int], k: int) -> list[tuple[int, ...]]:
    """Distinct ``k``-multisets drawn from ``items`` (sorted), in lexicographic order."""
    ordered = sorted(items)
    found: list[tuple[int, ...]] = []

    def walk(start: int, chosen: list[int]) -> None:
        if len(chosen) == k:
            found.append(tuple(chosen))
            return
        previous = None
        for i in range(start, len(ordered)):
            if ordered[i] == previous:
                continue
            previous = ordered[i]
            chosen.append(ordered[i])
            walk(i + 1, chosen)
            chosen.pop()

    walk(0, [])
    return found


# -- tracks --------------------------------------------------------------------------------
def track_index(track: str) -> int:
    """Index of a track in ``TRACK_IDS``."""
    return TRACK_IDS.index(track)


def tier_of(space: int) -> int:
    """The tier (1..4) of a space (0 is the start space: tier 0)."""
    return 0 if space <= 0 else (space - 1) // 3 + 1


def advance_cost(track: str, space: int) -> tuple[str, ...]:
    """The cost to enter ``space`` of ``track`` ("Tours de développement")."""
    return tuple(C.space(track, space).cost)


# -- decks ---------------------------------------------------------------------------------
def collected(seat: SeatState, what: str) -> int:
    """The id of the ``what`` (a name of :data:`~domain.tapestry.state.SHELF`) on ``seat``'s
    Collectors mat (0: none); components there are out of the decks."""
    values = seat.civ_tokens.get(COLLECTORS)
    return values[SHELF.index(what)] if values else 0


def tech_deck(state: TapestryState) -> list[int]:
    """Tech cards still in the deck (not displayed, owned, discarded or removed by the
    "VARIANTES" option), ascending."""
    used = set(state.tech_display) | set(state.tech_discard) | set(state.rules.removed_tech)
    for seat in state.seats:
        used.update(t.card for t in seat.tech)
        used.add(collected(seat, "tech"))
    return [card for card in sorted(C.TECH_CARDS) if card not in used]


def tapestry_deck(state: TapestryState) -> list[int]:
    """Tapestry cards still in the deck (one entry per copy; none of a card removed by the
    "VARIANTES" option), ascending."""
    removed = state.rules.removed_tapestry
    counts = {
        card.id: 0 if card.id in removed else card.copies for card in C.TAPESTRY_CARDS.values()
    }
    for card in state.tapestry_discard:
        counts[card] -= 1
    if state.solo is not None:  # solo removals and the Automa's cards (domain.tapestry.solo)
        for card in (*solo_removed(state), *state.solo.cards_out()):
            counts[card] -= 1
    for seat in state.seats:
        for card in (*seat.hand, *seat.civ_tokens.get(SUNK, ())):
            counts[card] -= 1
        for played in seat.mat:
            counts[played.card] -= 1
        shelved = collected(seat, "tapestry")
        if shelved:
            counts[shelved] -= 1
    return [card for card in sorted(counts) for _ in range(max(0, counts[card]))]


def territory_deck(state: TapestryState) -> list[int]:
    """Territory tiles still face down in the supply."""
    used = set(state.territory_out)
    for seat in state.seats:
        used.update(seat.territory)
        used.add(collected(seat, "territory"))
    used.update(cell.tile for cell in state.hexes if cell.tile >= 0)
    return [tile for tile in sorted(C.TERRITORY_TILES) if tile not in used]


def space_deck(state: TapestryState) -> list[int]:
    """Space tiles still in the stack."""
    used = set(state.space_out)
    for seat in state.seats:
        used.update(seat.space)
        used.update(seat.space_explored)
    return [tile for tile in sorted(C.SPACE_TILES) if tile not in used]


# -- tech upgrades -------------------------------------------------------------------------
def requirement_met(state: TapestryState, seat: int, card: int) -> bool:
    """``True`` when ``seat`` or a neighbour meets the square prerequisite of ``card``."""
    requirement = C.TECH_CARDS[card].requirement
    if requirement is None:
        return True
    if requirement.type == "advancement_track" and bots_reach(state, requirement):
        return True  # the bots count as neighbours (domain.tapestry.solo)
    for who in [seat, *state.neighbours(seat)]:
        player = state.seats[who]
        if requirement.type == "advancement_track":
            if player.position(track_index(requirement.track)) >= requirement.min_space:
                return True
        else:
            taken = player.taken[INCOME_INDEX[requirement.income_track]]
            if taken >= requirement.min_space - 1:
                return True
    return False


def upgradable(state: TapestryState, seat: int, ignore_requirements: bool = False) -> list[int]:
    """Tech cards of ``seat`` that may move up a row now, in ownership order."""
    found = []
    for owned in state.seats[seat].tech:
        if owned.row == 0 or (
            owned.row == 1 and (ignore_requirements or requirement_met(state, seat, owned.card))
        ):
            found.append(owned.card)
    return found


# -- scoring helpers -----------------------------------------------------------------------
def buildings_of(seat: SeatState, building: str) -> int:
    """Income buildings of one type the seat owns (those set aside are not the seat's)."""
    return seat.taken[BUILDINGS.index(building)] - seat.aside.get(building, 0)


#: spaces of an income track (space 0 always shows; buildings stand on 1..5).
INCOME_SPACES = 6


def covered_spaces(seat: SeatState, building: str) -> list[int]:
    """The spaces (1..5) of ``building``'s income track a building still covers, ascending:
    the block right of the ``taken`` ones, unless the Artificers left gaps
    (:attr:`~domain.tapestry.state.SeatState.covered`)."""
    if building in seat.covered:
        return list(seat.covered[building])
    return list(range(seat.taken[BUILDINGS.index(building)] + 1, INCOME_SPACES))


def visible_spaces(seat: SeatState, building: str) -> list[int]:
    """The spaces of ``building``'s income track that show, ascending (their income and VP
    are gained)."""
    hidden = covered_spaces(seat, building)
    return [space for space in range(INCOME_SPACES) if space not in hidden]


def tapestry_count(seat: SeatState) -> int:
    """Tapestry cards in hand and on the income mat (and one on a Collectors mat: shelved
    components still count as the seat's for scoring, facts folder ``civilizations.json#21``)."""
    return len(seat.hand) + len(seat.mat) + bool(collected(seat, "tapestry"))


def tech_count(seat: SeatState) -> int:
    """Tech cards the seat owns (and one on a Collectors mat, as for :func:`tapestry_count`)."""
    return len(seat.tech) + bool(collected(seat, "tech"))


#: civ_tokens key of the THIS ERA card an Espionage copied: (card, era of the Espionage).
ESPIONAGE_COPY = "_espionage"


#: civ_tokens key set (``[1]``) for a seat that plays on after its fifth income turn, taking
#: advance turns only (the Elder Ones); its era-4 THIS ERA card stays in force.
PLAYS_ON = "_plays_on"


#: civ_tokens key set from ``tapestry/4`` when a seat's fifth income turn starts: the number
#: of cards then on its income mat (those played after it were played during that income turn;
#: ``decisions.json#this_era_after_era_4``).
INCOME_5_MAT = "_income_5_mat"


#: :data:`PLAYS_ON` values: advance turns (the Elder Ones), tapestry-card turns (the Merfolk).
ADVANCE_TURNS, CARD_TURNS = 1, 2
#: the civ_tokens key of tapestry cards held out of the hand (the Merfolk's submerged cards):
#: still out of the deck, private to their seat.
SUNK = "merfolk_sunk"


def plays_on(seat: SeatState) -> bool:
    """``True`` for a seat playing on after its fifth income turn (:data:`PLAYS_ON`)."""
    return bool(seat.civ_tokens.get(PLAYS_ON))


def play_on_mode(seat: SeatState) -> int:
    """How a seat plays on after its fifth income turn: :data:`ADVANCE_TURNS`,
    :data:`CARD_TURNS`, or 0 (it does not)."""
    value = seat.civ_tokens.get(PLAYS_ON)
    return value[0] if value else 0


def active_card(seat: SeatState) -> int:
    """The THIS ERA tapestry card in force for ``seat`` (-1: none).

    A THIS ERA card applies from the income turn it is played until the seat's next income
    turn ("Capacités des cartes Fresque"); only the visible (top) card counts. An Espionage on
    top that copied a THIS ERA card (:data:`ESPIONAGE_COPY`) is in force as that card. A card
    played during the fifth income turn goes on the era-4 slot: up to ``tapestry/3`` it is
    never in force; from ``tapestry/4`` it is, for the rest of that income turn (the seat's
    game ends with it; rulebook l.191, l.526, l.546).
    """
    if not seat.mat:
        return -1
    top = seat.mat[-1]
    in_force = play_on_mode(seat) == ADVANCE_TURNS or _played_in_last_income(seat)
    era = top.era if in_force else seat.income_turns
    if not top.face_up or top.era != era:
        return -1
    card = C.TAPESTRY_CARDS.get(top.card)
    if card is not None and card.key == "espionage":
        copied = seat.civ_tokens.get(ESPIONAGE_COPY, [])
        return copied[0] if len(copied) == 2 and copied[1] == top.era else -1
    return top.card if card is not None and card.kind == "this_era" else -1


def _played_in_last_income(seat: SeatState) -> bool:
    """``True`` while the seat's top card was played during its fifth income turn, which is
    not over yet (from ``tapestry/4``, :data:`INCOME_5_MAT`): the card went on the era-4 slot
    and is in force "maintenant" until the seat's game ends."""
    before = seat.civ_tokens.get(INCOME_5_MAT)
    if not before or seat.income_turns != 5 or seat.finished or plays_on(seat):
        return False
    return len(seat.mat) > before[0]


def has_active(seat: SeatState, key: str) -> bool:
    """``True`` when the THIS ERA card named ``key`` is in force for the seat."""
    card = active_card(seat)
    return card >= 0 and C.TAPESTRY_CARDS[card].key == key


def rules_neighbours(state: TapestryState, index: int) -> tuple[int, ...]:
    """Board indices of the neighbours of board hex ``index`` (-1 off the board)."""
    return board_neighbours(state.board)[index]


def solo_removed(state: TapestryState) -> tuple[int, ...]:
    """Tapestry cards out of the game against the Automa ("MISE EN PLACE GENERALE (SOLO)")."""
    return REMOVED_CARDS if state.solo is not None and state.solo.automa else ()


def bots_reach(state: TapestryState, requirement: C.Requirement) -> bool:
    """``True`` when a bot's token meets an advancement-track prerequisite."""
    if state.solo is None:
        return False
    track = track_index(requirement.track)
    return any(bot.tracks[track] >= requirement.min_space for bot in state.solo.bots)


# -- random gains ----------------------------------------------------------------------------
#: extra options a seat gets on every random gain: functions ``(state, seat) -> count``, each
#: adding that many more dice rolls or cards / tiles drawn to keep one (the Psionics,
#: :mod:`domain.tapestry.civ_psionics`); they add up with the rulebook's own extra options
#: (Empiricism, the "VARIANTES" draws).
EXTRA_OPTIONS: list[Callable[[TapestryState, int], int]] = []


def extra_options(state: TapestryState, seat: int) -> int:
    """How many extra options ``seat`` gets on a random gain (0 for most seats)."""
    if seat < 0 or seat >= len(state.seats):
        return 0
    return sum(rule(state, seat) for rule in EXTRA_OPTIONS)

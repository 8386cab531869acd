"""Folding Tapestry events into the state (``TapestryGame.evolve``).

:func:`evolve` is total: it never raises and never draws. Each event carries everything it
implies, so folding is a plain update. Unknown or redacted values are ignored where they would
not fit (a redacted draw adds nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core import Event
from domain.tapestry import events as ev
from domain.tapestry.rules import INCOME_5_MAT, SUNK, board_hexes, capital_grid, covered_spaces
from domain.tapestry.solo.fold import fold_solo
from domain.tapestry.state import (
    BUILDINGS,
    COLLECTORS,
    CONTROLLING_PIECES,
    OVER,
    PLAY,
    RESOURCES,
    SHARING_PIECES,
    SHELF,
    TRACK_IDS,
    HexState,
    Outpost,
    PlacedBuilding,
    Played,
    SeatState,
    TapestryState,
    TechOwned,
)

RESOURCE_CAP = 8


def _remove(items: list[int], values: tuple[int, ...] | list[int]) -> None:
    for value in values:
        if value in items:
            items.remove(value)


def _fill(rows: list[str], cells: tuple[tuple[int, int], ...], mark: str) -> None:
    for row, col in cells:
        if 0 <= row < 9 and 0 <= col < 9:
            line = rows[row]
            rows[row] = line[:col] + mark + line[col + 1 :]


def _swap(seat: SeatState, first: tuple[int, int], second: tuple[int, int]) -> None:
    """Swap the income buildings on two plots (marks and recorded places)."""
    (r1, c1), (r2, c2) = first, second
    if not all(0 <= v < 9 for v in (r1, c1, r2, c2)):
        return
    a, b = seat.grid_filled[r1][c1], seat.grid_filled[r2][c2]
    _fill(seat.grid_filled, (first,), b)
    _fill(seat.grid_filled, (second,), a)
    for placed in seat.buildings:
        if placed.building != "landmark" and (placed.row, placed.col) in (first, second):
            placed.row, placed.col = second if (placed.row, placed.col) == first else first


def _setup(state: TapestryState, event: Any) -> None:
    if isinstance(event, ev.BoardPrepared):
        state.board = event.board
        state.hexes = [
            HexState(q=q, r=r, printed=printed) for q, r, printed in board_hexes(event.board)
        ]
    elif isinstance(event, ev.CapitalsDealt):
        state.seats[event.seat].capital_offer = list(event.capitals)
    elif isinstance(event, ev.CivilizationsDealt):
        state.seats[event.seat].civ_offer = list(event.civilizations)
        state.civs_out.extend(event.civilizations)
    elif isinstance(event, ev.FirstPlayerChosen):
        state.first_player = event.seat
    elif isinstance(event, ev.CapitalChosen):
        seat = state.seats[event.seat]
        seat.capital = event.capital
        seat.home = event.home
        seat.grid_blocked = list(capital_grid(event.capital))
        seat.grid_filled = ["." * 9] * 9
    elif isinstance(event, ev.CivilizationChosen):
        seat = state.seats[event.seat]
        seat.civs = [event.civilization]
        for civ in seat.civ_offer:
            if civ != event.civilization and civ in state.civs_out:
                state.civs_out.remove(civ)
        seat.civ_offer = []
    elif isinstance(event, ev.CivilizationGained):
        state.seats[event.seat].civs.append(event.civilization)
        state.civs_out.append(event.civilization)
        state.seats[event.seat].civ_offer = []  # the offer of a "VARIANTES" draw, if any
    elif isinstance(event, ev.CivilizationsOffered):
        state.seats[event.seat].civ_offer = list(event.civilizations)
    elif isinstance(event, ev.OutpostsStarted):
        for _ in range(event.count):
            state.hexes[event.hex].outposts.append(Outpost(seat=event.seat))
    elif isinstance(event, ev.GameStarted):
        state.phase = PLAY
        state.first_player = event.first_player


def _turns(state: TapestryState, event: Any) -> None:
    if isinstance(event, ev.TurnStarted):
        state.current = event.seat
        state.turn = event.turn
        seat = state.seats[event.seat]
        seat.activated = []
        seat.repeats = []
    elif isinstance(event, ev.IncomeTurnStarted):
        seat = state.seats[event.seat]
        seat.income_turns = event.era
        if event.era == 5 and state.rules.revision >= 4:  # rules.active_card
            seat.civ_tokens[INCOME_5_MAT] = [len(seat.mat)]
    elif isinstance(event, ev.SeatFinished):
        state.seats[event.seat].finished = True
    elif isinstance(event, ev.SpaceActivated):
        state.seats[event.seat].activated.append(event.key)
    elif isinstance(event, ev.AgendaSet):
        state.agenda = list(event.frames)
    elif isinstance(event, ev.GameEnded):
        state.phase = OVER
        state.final_scores = list(event.scores)
        state.winners = list(event.winners)
        state.agenda = []


def _points(state: TapestryState, event: Any) -> None:
    if isinstance(event, ev.ResourcesChanged):
        seat = state.seats[event.seat]
        for i in range(len(RESOURCES)):
            seat.resources[i] = max(0, min(RESOURCE_CAP, seat.resources[i] + event.delta[i]))
    elif isinstance(event, ev.VPScored):
        state.seats[event.seat].vp += event.vp
    elif isinstance(event, ev.AchievementEarned):
        state.seats[event.seat].vp += event.vp
        state.seats[event.seat].achievements.append(event.achievement)
        state.achievement_claims.setdefault(str(event.achievement), []).append(event.seat)


def _tracks(state: TapestryState, event: Any) -> None:
    if isinstance(event, ev.TokenMoved):
        seat = state.seats[event.seat]
        tokens = seat.tracks[TRACK_IDS.index(event.track)]
        if event.origin == -1:
            tokens.append(event.to)
        elif event.to == -1:
            if 0 <= event.token < len(tokens):
                tokens.pop(event.token)
            if event.origin == 12:
                seat.retired.append(TRACK_IDS.index(event.track))
        elif 0 <= event.token < len(tokens):
            tokens[event.token] = event.to
    elif isinstance(event, ev.TrackCompleted):
        state.seats[event.seat].completed[TRACK_IDS.index(event.track)] = True
    elif isinstance(event, ev.LandmarkClaimed):
        state.landmark_owner[str(event.landmark)] = event.seat
        state.seats[event.seat].landmarks.append(event.landmark)
    elif isinstance(event, ev.BuildingTaken | ev.BuildingSetAside):
        seat = state.seats[event.seat]
        if event.building in seat.covered:  # the leftmost building of a track with gaps
            seat.covered[event.building] = seat.covered[event.building][1:]
        seat.taken[BUILDINGS.index(event.building)] += 1
        if isinstance(event, ev.BuildingSetAside):
            seat.aside[event.building] = seat.aside.get(event.building, 0) + 1
    elif isinstance(event, ev.BuildingSlid):
        seat = state.seats[event.seat]
        spaces = [
            event.to if s == event.origin else s for s in covered_spaces(seat, event.building)
        ]
        seat.covered[event.building] = sorted(spaces)
    elif isinstance(event, ev.BuildingPlaced):
        seat = state.seats[event.seat]
        seat.buildings.append(
            PlacedBuilding(
                building=event.building,
                landmark=event.landmark,
                row=event.row,
                col=event.col,
                orientation=event.orientation,
            )
        )
        mark = "L" if event.building == "landmark" else event.building[0].upper()
        _fill(seat.grid_filled, event.cells, mark)
    elif isinstance(event, ev.PlotsCleared):
        _fill(state.seats[event.seat].grid_blocked, event.cells, "0")
    elif isinstance(event, ev.PlotsBlocked):
        _fill(state.seats[event.seat].grid_blocked, event.cells, "1")
    elif isinstance(event, ev.BuildingsSwapped):
        _swap(state.seats[event.seat], event.first, event.second)
    elif isinstance(event, ev.ClanPlaced):
        _clan(state.seats[event.seat], event)


def _clan(seat: SeatState, event: ev.ClanPlaced) -> None:
    """A Weefolk token fills a plot; a replaced income building goes beside the capital."""
    if event.set_aside:
        placed = next(
            b
            for b in seat.buildings
            if (b.row, b.col) == (event.row, event.col) and b.building == event.set_aside
        )
        placed.row = placed.col = -99
    _fill(seat.grid_filled, ((event.row, event.col),), "W")


def _sky(state: TapestryState, event: ev.SkyCapitalMoved) -> None:
    """The Celestials' token: replaces a starting outpost (back to the supply from
    ``tapestry/3``), or leaves its hex for ``hex``."""
    wanted = "" if event.start else "celestials"
    for cell in state.hexes:
        found = [o for o in cell.outposts if o.seat == event.seat and o.piece == wanted]
        if found and (not event.start or cell is state.hexes[event.hex]):
            cell.outposts.remove(found[-1])
            if event.start and state.rules.revision >= 3:
                state.seats[event.seat].outposts += 1
            break
    state.hexes[event.hex].outposts.append(Outpost(seat=event.seat, piece="celestials"))


#: civ_tokens key of the Islanders' mat: ``tile, rotation`` for each of its hexes 1-6.
ISLANDERS, ISLAND_HEXES = "islanders", 6


def _island(state: TapestryState, event: ev.IslandTileExplored) -> None:
    """Islanders: a tile leaves the supply (and the stack) for a hex of the mat's island."""
    seat = state.seats[event.seat]
    _remove(seat.territory, (event.tile,))
    state.territory_out.append(event.tile)
    values = seat.civ_tokens.setdefault(ISLANDERS, [0] * (2 * ISLAND_HEXES))
    values[2 * (event.hex - 1)] = event.tile
    values[2 * (event.hex - 1) + 1] = event.rotation


def _map(state: TapestryState, event: Any) -> None:
    if isinstance(event, ev.TerritoryTilesDrawn):
        state.seats[event.seat].territory.extend(event.tiles)
    elif isinstance(event, ev.SpaceTilesDrawn):
        state.seats[event.seat].space.extend(event.tiles)
    elif isinstance(event, ev.TilesDiscarded):
        _remove(state.seats[event.seat].territory, event.tiles)
        state.territory_out.extend(event.tiles)
    elif isinstance(event, ev.TerritoryTileGiven):
        _remove(state.seats[event.seat].territory, (event.tile,))
        state.seats[event.to].territory.append(event.tile)
    elif isinstance(event, ev.TileExplored):
        _remove(state.seats[event.seat].territory, (event.tile,))
        cell = state.hexes[event.hex]
        cell.tile = event.tile
        cell.rotation = event.rotation
    elif isinstance(event, ev.SpaceTileExplored):
        seat = state.seats[event.seat]
        _remove(seat.space, (event.tile,))
        seat.space_explored.append(event.tile)
    elif isinstance(event, ev.OutpostPlaced):
        state.hexes[event.hex].outposts.append(Outpost(seat=event.seat))
        state.seats[event.seat].outposts -= 1
    elif isinstance(event, ev.OutpostToppled | ev.OutpostRaised):
        toppled = isinstance(event, ev.OutpostToppled)
        for outpost in state.hexes[event.hex].outposts:
            if (
                outpost.seat == event.owner
                and outpost.toppled != toppled
                and outpost.piece in CONTROLLING_PIECES
            ):
                outpost.toppled = toppled
                break
    elif isinstance(event, ev.ConquerDiceRolled):
        state.last_dice = [event.red, event.black]
    elif isinstance(event, ev.TrapPlayed):
        _remove(state.seats[event.seat].hand, (event.card,))
        state.tapestry_discard.append(event.card)


def _cards(state: TapestryState, event: Any) -> None:
    if isinstance(event, ev.TechDisplayFilled):
        state.tech_display.extend(event.cards)
    elif isinstance(event, ev.TechDisplayCleared):
        _remove(state.tech_display, event.cards)
        state.tech_discard.extend(event.cards)
    elif isinstance(event, ev.TechInvented):
        if event.card in state.tech_display:
            state.tech_display.remove(event.card)
        if event.card in state.tech_discard:
            state.tech_discard.remove(event.card)
        state.seats[event.seat].tech.append(TechOwned(card=event.card))
    elif isinstance(event, ev.TechUpgraded):
        for owned in state.seats[event.seat].tech:
            if owned.card == event.card:
                owned.row = event.row
    elif isinstance(event, ev.TechDiscarded):
        seat = state.seats[event.seat]
        seat.tech = [t for t in seat.tech if t.card not in event.cards]
        state.tech_discard.extend(event.cards)
    elif isinstance(event, ev.TechTaken):
        owner = state.seats[event.owner]
        if any(t.card == event.card for t in owner.tech):
            owner.tech = [t for t in owner.tech if t.card != event.card]
            state.seats[event.seat].tech.append(TechOwned(card=event.card))
    elif isinstance(event, ev.TapestryDrawn):
        state.seats[event.seat].hand.extend(event.cards)
    elif isinstance(event, ev.TapestryReshuffled):
        state.tapestry_discard = []
    elif isinstance(event, ev.TapestryPlayed):
        seat = state.seats[event.seat]
        if event.from_hand:
            _remove(seat.hand, (event.card,))
        seat.mat.append(Played(card=event.card, era=event.era, face_up=event.face_up))
    elif isinstance(event, ev.TapestryDiscarded):
        _remove(state.seats[event.seat].hand, event.cards)
        state.tapestry_discard.extend(event.cards)
    elif isinstance(event, ev.TapestryGiven):
        if event.card:  # 0: redacted (the hands it moves between are hidden from the viewer)
            _remove(state.seats[event.seat].hand, (event.card,))
            state.seats[event.to].hand.append(event.card)
    elif isinstance(event, ev.IslandTileExplored):
        _island(state, event)
    elif isinstance(event, ev.CivilizationReturned):
        _remove(state.seats[event.seat].civs, (event.civilization,))
    elif isinstance(event, ev.CivTokensSet):
        state.seats[event.seat].civ_tokens[event.key] = list(event.values)
    elif isinstance(event, ev.Collected):
        _collected(state.seats[event.seat], event)


def _collected(seat: SeatState, event: ev.Collected) -> None:
    """A component leaves its usual place for a space of the Collectors' mat."""
    what = SHELF[event.slot]
    if what == "outpost":
        seat.outposts -= 1
    elif what == "tapestry":
        _remove(seat.hand, (event.item,))
    elif what == "territory":
        _remove(seat.territory, (event.item,))
    elif what == "tech":
        seat.tech = [t for t in seat.tech if t.card != event.item]
    values = seat.civ_tokens.setdefault(COLLECTORS, [0] * (len(SHELF) + 1))
    values[event.slot] = event.item


#: the civ_tokens key of a Psionics draw waiting for its keeps: ``[kind, group, discard,
#: *items]`` (kind: index in :data:`OFFER_KINDS`); private to its seat.
OFFER = "psionics_offer"
#: what a Psionics draw may hold.
OFFER_KINDS: tuple[str, ...] = ("tapestry", "territory", "space", "tech")


#: the public civ_tokens key of the Merfolk: ``[cards under the mat]``.
MERFOLK = "merfolk"


def _offers(state: TapestryState, event: Any) -> None:
    """The Psionics' draws to keep one of each group; the Merfolk's submerged cards."""
    if isinstance(event, ev.CardsSubmerged):
        seat = state.seats[event.seat]
        sunk = seat.civ_tokens.setdefault(SUNK, [])
        if event.surfaced:
            _remove(sunk, event.cards)
            seat.hand.extend(event.cards)
        else:
            _remove(seat.hand, event.cards)
            sunk.extend(event.cards)
        seat.civ_tokens[MERFOLK] = [len(sunk)]
    elif isinstance(event, ev.OptionsDrawn):
        tokens = state.seats[event.seat].civ_tokens
        head = [OFFER_KINDS.index(event.kind), event.group, int(event.discard)]
        tokens[OFFER] = [*head, *event.items]
    elif isinstance(event, ev.OptionKept):
        tokens = state.seats[event.seat].civ_tokens
        offer = tokens.get(OFFER, [])
        if len(offer) < 3:
            return
        rest = offer[3 + offer[1] :]
        if rest:
            tokens[OFFER] = [*offer[:3], *rest]
        else:
            del tokens[OFFER]


#: civ_tokens keys of the Mystics: sealed predictions, and the counts revealed at the end.
MYSTICS, MYSTICS_REVEALED = "mystics", "mystics_revealed"


def _pieces_and_predictions(state: TapestryState, event: Any) -> None:
    """Pieces other than outposts on the map; the Mystics' predictions."""
    if isinstance(event, ev.SkyCapitalMoved):
        _sky(state, event)
    elif isinstance(event, ev.PiecePlaced):
        piece = Outpost(
            seat=event.seat, piece=event.piece, building=event.building, landmark=event.landmark
        )
        state.hexes[event.hex].outposts.append(piece)
        if event.piece in SHARING_PIECES:  # an outpost from the seat's supply
            state.seats[event.seat].outposts -= 1
    elif isinstance(event, ev.PredictionMade):
        values = state.seats[event.seat].civ_tokens.setdefault(MYSTICS, [0, 0, 0, 0])
        if 0 <= event.category < len(values):
            values[event.category] = event.value
    elif isinstance(event, ev.PredictionsRevealed):
        tokens = state.seats[event.seat].civ_tokens
        tokens[MYSTICS] = list(event.predictions)
        tokens[MYSTICS_REVEALED] = list(event.counts)


_FOLDS: tuple[Callable[[TapestryState, Any], None], ...] = (
    _setup,
    _turns,
    _points,
    _tracks,
    _map,
    _cards,
    _pieces_and_predictions,
    _offers,
    fold_solo,
)


def evolve(state: TapestryState, event: Event) -> TapestryState:
    """Fold ``event`` into ``state`` in place and return it (total, never draws)."""
    for fold in _FOLDS:
        fold(state, event)
    return state

"""Weefolk (Fantasies & Futures): clans living in the opponents' capitals.

Sources: facts folder ``civilizations.json#48`` (income turns 2-5: an opponent fills a plot of
their capital with your token; a full capital: it replaces a building, set aside; income turns
2-4: a territory tile for an income building; income turn 5: 1 VP per building sharing a row
or column with your tokens, counted once per matching row/column of each token), rulebook
"COMPLÉTER DES DISTRICTS" (a completed district gives a resource), "FIN DE PARTIE",
"RÉÉQUILIBRAGE DES CIVILISATIONS" (no Weefolk entry).
"""

from __future__ import annotations

from domain.bots import RandomBot
from domain.tapestry import civ_weefolk as wee
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import frame
from domain.tapestry.state import PlacedBuilding, TapestryState
from tests.tapestry.box_civ_helpers import (
    play_bots,
    play_boxed,
    refold,
    state_bytes,
)
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, options, pending_seat, run_frames

KEY = "weefolk"


def weefolk(seats: int = 3) -> TapestryState:
    """Seat 0 holds the Weefolk."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def _build(state: TapestryState, seat: int, building: str, row: int, col: int) -> None:
    player = state.seats[seat]
    player.buildings.append(PlacedBuilding(building=building, row=row, col=col))
    line = player.grid_filled[row]
    player.grid_filled[row] = line[:col] + building[0].upper() + line[col + 1 :]


def test_an_opponent_places_the_token_in_their_capital() -> None:
    """Income turns 2-5: the Weefolk choose an opponent, who chooses a plot: it is filled."""
    state = weefolk(3)
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert decision(state) == wee.GIVE and pending_seat(state) == 0
    assert options(state) == [Choose(index=1), Choose(index=2)]
    answer(state, Choose(index=2))
    assert decision(state) == wee.PLOT and pending_seat(state) == 2
    row, col = wee.plots(state.seats[2])[0]
    events = answer(state, Choose(index=row * 9 + col))
    assert of(events, ev.ClanPlaced)[0] == ev.ClanPlaced(seat=2, owner=0, row=row, col=col)
    assert state.seats[2].grid_filled[row][col] == wee.MARK
    assert (row, col) not in wee.plots(state.seats[2])


def test_a_full_capital_sets_a_building_aside() -> None:
    """A full capital: the token replaces an income building, set beside the capital."""
    state = weefolk(2)
    player = state.seats[1]
    player.grid_filled = ["F" * 9] * 9
    player.grid_blocked = ["0" * 9] * 9
    player.buildings = [
        PlacedBuilding(building="farm", row=r, col=c) for r in range(9) for c in range(9)
    ]
    state.agenda.append(frame(wee.PLOT, 1, ints=(0,)))
    assert len(options(state)) == 81
    events = answer(state, Choose(index=4 * 9 + 4))
    assert of(events, ev.ClanPlaced)[0].set_aside == "farm"
    assert player.grid_filled[4][4] == wee.MARK
    assert sum(1 for b in player.buildings if b.row == -99) == 1


def test_the_token_can_complete_a_district() -> None:
    """The filled plot counts for the opponent's capital: completing a district gives it a
    resource of its choice."""
    state = weefolk(2)
    player = state.seats[1]
    for r in range(3):
        for c in range(3):
            if (r, c) != (0, 0) and player.grid_blocked[r][c] == "0":
                _build(state, 1, "house", r, c)
    state.agenda.append(frame(wee.PLOT, 1, ints=(0,)))
    events = answer(state, Choose(index=0))
    assert of(events, ev.DistrictCompleted)[0].district == 0
    assert pending_seat(state) == 1 and decision(state) != "turn"


def test_a_territory_tile_for_an_income_building() -> None:
    """Income turns 2-4: spend a territory tile for an income building of your choice."""
    state = weefolk(2)
    state.seats[0].territory = [5]
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    assert decision(state) == wee.PLOT  # a single opponent: the token goes to seat 1
    answer(state, options(state)[0])
    assert decision(state) == wee.SWAP
    assert options(state) == [Choose(index=5), Decline()]
    events = answer(state, Choose(index=5))
    assert of(events, ev.TilesDiscarded)[0].tiles == (5,)
    assert state.seats[0].territory == []


def test_no_swap_without_a_tile() -> None:
    """No territory tile in supply: nothing to spend, only the token."""
    state = weefolk(2)
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(4,)))
    answer(state, options(state)[0])
    assert decision(state) != wee.SWAP


def test_income_turn_five_scores_rows_and_columns() -> None:
    """Income turn 5: 1 VP per building in each token's row and column; a building in both
    lines of one token counts twice."""
    state = weefolk(2)
    opponent = state.seats[1]
    opponent.grid_filled = ["." * 9] * 9
    opponent.grid_blocked = ["0" * 9] * 9
    _build(state, 1, "farm", 2, 5)
    _build(state, 1, "house", 7, 3)
    _build(state, 1, "market", 6, 6)
    line = opponent.grid_filled[2]
    opponent.grid_filled[2] = line[:3] + wee.MARK + line[4:]
    assert wee.clan_vp(opponent) == 2
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    events = answer(state, Choose(index=7 * 9 + 5))
    assert wee.clan_vp(opponent) == 2 + 2
    vp = sum(e.vp for e in of(events, ev.VPScored) if e.seat == 0)
    assert vp == 4


def test_no_rebalancing_and_no_solo() -> None:
    """No Weefolk entry on the rebalancing page; the mat needs opponents (not solo)."""
    state = weefolk(2)
    assert civs.setup_frames(state, 0) == []
    assert C.CIVILIZATIONS[civ_id(KEY)].solo is False


def test_seeded_games_with_starting_weefolk_finish() -> None:
    """ "Fin de la partie": whole random games with starting Weefolk end at 2-5 seats, a
    token placed on each of income turns 2-5; folding the events again gives the state."""
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert len(of(log, ev.ClanPlaced)) == 4
        assert refold(KEY, log, seats) == state_bytes(state)


def test_the_tapestry_bot_plays_the_weefolk() -> None:
    """The Tapestry bot answers the Weefolk's decisions in a whole 3-seat game that finishes
    and refolds exactly."""
    seats, seed = 3, b"weefolk-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"wee-smart"), RandomBot(b"wee-1"), RandomBot(b"wee-2")], seed
    )
    assert len(of(log, ev.ClanPlaced)) == 4
    assert refold(KEY, log, seats) == state_bytes(state)

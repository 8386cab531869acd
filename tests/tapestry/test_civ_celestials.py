"""Celestials (Fantasies & Futures): a capital floating above the map.

Sources: facts folder ``civilizations.json#41`` (setup: 1 outpost and the floating-capital
token on the start territory; income turns 2-4: the token may move to an adjacent territory,
even one with 2 outposts, then both conquer dice are gained, no conquest and no control;
income turn 5: -2 VP per landmark hanging off the capital, +5 VP per landmark inside; the
token blocks conquest as a second item), rulebook "Conquête" (no conquest of a territory
holding 2 items), "RÉÉQUILIBRAGE DES CIVILISATIONS" (no Celestials entry).
"""

from __future__ import annotations

from domain.bots import RandomBot
from domain.tapestry import civ_celestials as cel
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import frame
from domain.tapestry.rules import board_neighbours, conquer_targets
from domain.tapestry.state import Outpost, PlacedBuilding, TapestryState
from tests.tapestry.box_civ_helpers import (
    boxed_start,
    play_bots,
    play_boxed,
    refold,
    state_bytes,
)
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import answer, options, pending_seat, run_frames

KEY = "celestials"


def celestials(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Celestials, its token replacing a starting outpost."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    run_frames(state, frame(cel.START, 0))
    return state


def test_setup_replaces_one_starting_outpost() -> None:
    """Setup: the start territory holds 1 outpost and the token (seeded start)."""
    state, log = boxed_start(KEY, 2, b"cel")
    home = state.seats[0].home
    pieces = sorted(o.piece for o in state.hexes[home].outposts if o.seat == 0)
    assert pieces == ["", KEY]
    assert of(log, ev.SkyCapitalMoved) == [ev.SkyCapitalMoved(seat=0, hex=home, start=True)]
    assert state.hexes[home].controller() == 0


def test_the_token_blocks_conquest_but_gives_no_control() -> None:
    """Two items (outpost and token) block conquest; the token alone controls nothing."""
    state = celestials(2)
    home = state.seats[0].home
    assert home not in conquer_targets(state, 1, True)
    state.hexes[home].outposts = [Outpost(seat=0, piece=KEY)]
    assert state.hexes[home].controller() == -1


def test_income_move_rolls_both_dice_without_conquest() -> None:
    """Income turns 2-4: move to an adjacent territory (even with 2 outposts) and gain both
    dice; no outpost is placed and control does not change."""
    state = celestials(2)
    home = state.seats[0].home
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert decision(state) == cel.MOVE and pending_seat(state) == 0
    near = {n for n in board_neighbours(state.board)[home] if n >= 0}
    found = options(state)
    assert found[-1] == Decline()
    target = next(c.index for c in found if isinstance(c, Choose))
    assert target in near
    state.hexes[target].outposts = [Outpost(seat=1), Outpost(seat=1)]
    events = answer(state, Choose(index=target))
    assert of(events, ev.SkyCapitalMoved) == [ev.SkyCapitalMoved(seat=0, hex=target)]
    assert len(of(events, ev.ConquerDiceRolled)) == 1
    assert not of(events, ev.OutpostPlaced)
    assert cel.token_hex(state, 0) == target
    assert state.hexes[target].controller() == 1
    assert [o.piece for o in state.hexes[home].outposts] == [""]


def test_declining_keeps_the_token() -> None:
    """The move is optional."""
    state = celestials(2)
    home = state.seats[0].home
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    events = answer(state, Decline())
    assert not of(events, ev.ConquerDiceRolled)
    assert cel.token_hex(state, 0) == home


def test_income_turn_five_scores_landmarks() -> None:
    """Income turn 5: +5 VP per landmark inside the capital, -2 VP per one hanging off."""
    state = celestials(2)
    landmark = min(C.LANDMARKS)
    player = state.seats[0]
    player.buildings = [
        PlacedBuilding(building="landmark", landmark=landmark, row=4, col=4),
        PlacedBuilding(building="landmark", landmark=landmark, row=-1, col=-1),
        PlacedBuilding(building="landmark", landmark=landmark),
    ]
    assert cel.landmark_vp(player) == 5 - 2
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert sum(e.vp for e in of(events, ev.VPScored) if e.seat == 0) == 3


def test_seeded_games_with_starting_celestials_finish() -> None:
    """ "Fin de la partie": whole random games with starting Celestials end at 2-5 seats;
    folding the events again gives the state held."""
    moved = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert refold(KEY, log, seats) == state_bytes(state)
        moved += len([e for e in of(log, ev.SkyCapitalMoved) if not e.start])
    assert moved > 0


def test_the_tapestry_bot_plays_the_celestials() -> None:
    """The Tapestry bot answers the Celestials' decisions in a whole 3-seat game."""
    seats, seed = 3, b"celestials-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"cel-smart"), RandomBot(b"cel-1"), RandomBot(b"cel-2")], seed
    )
    assert refold(KEY, log, seats) == state_bytes(state)

"""Nomads (Nomades): buildings and landmarks on the map instead of the capital.

Sources: the player aid, "CIVILISATIONS / Nomades"; the rulebook, "Conquête" (2 pieces: no
conquest; control), "Objectifs" (the central island needs a conquest), the F.À.Q. "BÂTIMENTS
ET MONUMENTS" (a gained building must be used if it can be) and "RÉÉQUILIBRAGE DES
CIVILISATIONS" (NOMADES: no change).
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civ_nomads import KEY, PIECE, map_spots
from domain.tapestry.civs import GAINABLE, civ_id, implemented_ids, setup_frames
from domain.tapestry.commands import (
    BuildOnMap,
    ChooseResource,
    Conquer,
    Decline,
    PlaceBuilding,
)
from domain.tapestry.engine import frame
from domain.tapestry.gains import OUTSIDE
from domain.tapestry.rules import conquer_targets, controlled, gain, rules_neighbours
from domain.tapestry.state import TapestryState
from tests.tapestry.helpers import GAME, act, decision, of, play_out, table
from tests.tapestry.test_cards_support import benefit, give_hex, run_frames

NOMADS = civ_id(KEY)
BESIDE = PlaceBuilding(row=OUTSIDE, col=OUTSIDE)


def _nomad() -> TapestryState:
    """Seat 0 plays the Nomads; the only pieces are its home outposts and one lone outpost of
    its own next door (``_lone``); the other territories around are empty."""
    state = table(2)
    state.seats[0].civs = [NOMADS]
    home = state.seats[0].home
    for index, cell in enumerate(state.hexes):
        if index not in (home, state.seats[1].home):
            cell.outposts = []
    return state


def _land_near(state: TapestryState, index: int) -> list[int]:
    return [n for n in rules_neighbours(state, index) if n >= 0 and state.hexes[n].explored]


def _fill_capital(state: TapestryState, seat: int) -> None:
    """Every buildable plot of ``seat``'s capital holds a market."""
    player = state.seats[seat]
    player.grid_filled = [
        "".join("M" if plot == "0" else "." for plot in row) for row in player.grid_blocked
    ]


def _at(state: TapestryState, index: int) -> BuildOnMap:
    cell = state.hexes[index]
    return BuildOnMap(q=cell.q, r=cell.r)


def test_map_spots_are_lone_controlled_or_empty_adjacent_territories() -> None:
    """Aid: a territory you control with 1 outpost (or 1 building), or an empty territory
    next to a controlled one. The start territory (2 outposts) is not offered."""
    state = _nomad()
    home = state.seats[0].home
    near = _land_near(state, home)
    lone = near[0]
    give_hex(state, lone, 0)
    spots = map_spots(state, 0)
    assert home not in spots
    assert lone in spots
    for index in near[1:]:
        assert index in spots
    for index in spots:
        cell = state.hexes[index]
        assert cell.explored
        assert (cell.controller() == 0 and len(cell.outposts) == 1) or not cell.outposts
        if not cell.outposts:
            assert set(_land_near(state, index)) & set(controlled(state, 0))


def test_build_decision_offers_the_map_to_nomads_only() -> None:
    """Aid: only the Nomads may put a gained building on the map."""
    state = _nomad()
    benefit(state, 0, "gain_market")
    assert decision(state) == "place_building"
    found = GAME.legal_actions(state, 0)
    assert {_at(state, i) for i in map_spots(state, 0)} <= set(found)
    assert any(isinstance(c, PlaceBuilding) for c in found)
    other = table(2)
    benefit(other, 0, "gain_market")
    assert not any(isinstance(c, BuildOnMap) for c in GAME.legal_actions(other, 0))


def test_building_on_a_lone_outpost_pays_a_resource_and_blocks_conquest() -> None:
    """Aid: on a controlled territory with 1 outpost, +1 resource of your choice; with 2
    pieces the territory can no longer be conquered ("Conquête")."""
    state = _nomad()
    lone = _land_near(state, state.seats[0].home)[0]
    give_hex(state, lone, 0)
    assert lone in conquer_targets(state, 1, anywhere=True)
    benefit(state, 0, "gain_house")
    events = act(state, 0, _at(state, lone))
    placed = of(events, ev.PiecePlaced)
    assert placed == [ev.PiecePlaced(seat=0, hex=lone, piece=PIECE, building="house")]
    assert decision(state) == "resource"
    act(state, 0, ChooseResource(resource="food"))
    assert state.seats[0].resources[2] == 1
    assert lone not in conquer_targets(state, 1, anywhere=True)
    assert state.seats[0].taken[1] == 1  # the house left the income mat
    assert all(row == "." * 9 for row in state.seats[0].grid_filled)  # not in the capital


def test_building_on_an_empty_territory_gives_control() -> None:
    """Aid: on an empty territory next to one you control, the building counts as an outpost:
    you control the territory (no resource for this one)."""
    state = _nomad()
    empty = _land_near(state, state.seats[0].home)[0]
    before = len(controlled(state, 0))
    benefit(state, 0, "gain_farm")
    events = act(state, 0, _at(state, empty))
    assert of(events, ev.PiecePlaced)[0].hex == empty
    assert not of(events, ev.ResourcesChanged)
    assert state.hexes[empty].controller() == 0
    assert len(controlled(state, 0)) == before + 1
    score = run_frames(state, frame("expr", 0, expr=gain("vp_per_controlled_territory")))
    assert sum(e.vp for e in of(score, ev.VPScored)) == before + 1


def test_building_alone_is_conquered_like_an_outpost() -> None:
    """Aid: "compte comme un Avant-poste" — an opponent may conquer the territory; the
    building is toppled and the conqueror takes control ("Conquête")."""
    state = _nomad()
    empty = _land_near(state, state.seats[0].home)[0]
    benefit(state, 0, "gain_armory")
    act(state, 0, _at(state, empty))
    assert empty in conquer_targets(state, 1, anywhere=True)
    state.agenda = [frame("turn", 1), frame("conquer", 1, ints=(3,))]  # anywhere
    cell = state.hexes[empty]
    act(state, 1, Conquer(q=cell.q, r=cell.r))
    assert decision(state) == "trap"  # the Nomad defends as an outpost owner would
    act(state, 0, Decline())
    pieces = state.hexes[empty].outposts
    assert [(p.seat, p.piece, p.toppled) for p in pieces] == [(0, PIECE, True), (1, "", False)]
    assert state.hexes[empty].controller() == 1


def test_landmark_on_the_map_stays_owned() -> None:
    """Aid: landmarks too may go on the map; the landmark stays the Nomad's (scored as if in
    the capital) and fills no capital plot."""
    state = _nomad()
    empty = _land_near(state, state.seats[0].home)[0]
    landmark = min(C.LANDMARKS)
    run_frames(state, frame("expr", 0, expr=gain(f"_landmark_{landmark}")))
    assert decision(state) == "place_building"
    events = act(state, 0, _at(state, empty))
    assert of(events, ev.PiecePlaced) == [
        ev.PiecePlaced(seat=0, hex=empty, piece=PIECE, building="landmark", landmark=landmark)
    ]
    assert state.seats[0].landmarks == [landmark]
    assert state.landmark_owner[str(landmark)] == 0
    score = run_frames(state, frame("expr", 0, expr=gain("vp_per_landmark")))
    assert sum(e.vp for e in of(score, ev.VPScored)) == 1


def test_map_buildings_score_as_capital_buildings() -> None:
    """Aid: "Les PV pour les Bâtiments sont gagnés comme s'ils étaient dans votre Capitale"."""
    state = _nomad()
    empty = _land_near(state, state.seats[0].home)[0]
    benefit(state, 0, "gain_market")
    act(state, 0, _at(state, empty))
    score = run_frames(state, frame("expr", 0, expr=gain("vp_per_market")))
    assert sum(e.vp for e in of(score, ev.VPScored)) == 1


def test_full_capital_must_use_the_map() -> None:
    """F.À.Q. "BÂTIMENTS ET MONUMENTS": a gained building must be used if possible — with a
    full capital, a Nomad with a map spot may not set it beside the capital; with no spot, it
    goes beside."""
    state = _nomad()
    _fill_capital(state, 0)
    benefit(state, 0, "gain_market")
    found = GAME.legal_actions(state, 0)
    assert BESIDE not in found and found
    assert all(isinstance(c, BuildOnMap) for c in found)
    boxed = _nomad()
    _fill_capital(boxed, 0)
    for index in _land_near(boxed, boxed.seats[0].home):
        give_hex(boxed, index, 1)
        give_hex(boxed, index, 1)
    assert map_spots(boxed, 0) == []
    events = benefit(boxed, 0, "gain_market")  # the only option is taken at once
    assert [(e.row, e.col) for e in of(events, ev.BuildingPlaced)] == [(OUTSIDE, OUTSIDE)]


def test_settling_the_central_island_is_no_conquest() -> None:
    """ "Objectifs / Conquérir l'île centrale": placing a piece there other than by a conquest
    does not fulfil the achievement."""
    state = _nomad()
    island = state.hex_index(0, 0)
    below = state.hex_index(1, 1)
    state.hexes[below].tile = 1  # an explored territory next to the island, held by seat 0
    give_hex(state, below, 0)
    assert island in map_spots(state, 0)
    benefit(state, 0, "gain_market")
    events = act(state, 0, _at(state, island))
    assert state.hexes[island].controller() == 0
    assert not of(events, ev.AchievementEarned)


def test_no_rebalancing_for_nomads() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS": NOMADES, no change (no setup, no adjustment)."""
    record = C.CIVILIZATIONS[NOMADS]
    assert record.adjustment == "" and record.adjustment_gain is None
    state = table(2)
    state.seats[0].civs = [NOMADS]
    assert setup_frames(state, 0) == []


def test_gained_mid_game_uses_the_map_from_then_on() -> None:
    """ "Règles générales": a civilization gained during the game works from then on."""
    assert KEY in GAINABLE
    state = table(2)
    state.civs_out = [c for c in implemented_ids() if c != NOMADS]
    events = run_frames(state, frame("expr", 0, expr=gain("gain_random_civilization")))
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [NOMADS]
    home = state.seats[0].home
    for index in _land_near(state, home):
        state.hexes[index].outposts = []
    benefit(state, 0, "gain_market")
    assert any(isinstance(c, BuildOnMap) for c in GAME.legal_actions(state, 0))


def test_seeded_games_with_starting_nomads_finish() -> None:
    """Seeded games (2 to 4 seats) with the Nomads as a starting civilization reach their end;
    Nomads buildings are put on the map in some of them."""
    placed = 0
    for seats in (2, 3, 4, 2):
        state = play_out(
            [KEY] + [""] * (seats - 1),
            f"nomads-{seats}-{placed}".encode(),
            prefer=lambda command: isinstance(command, BuildOnMap),
        )
        assert GAME.is_over(state)
        placed += sum(1 for c in state.hexes for p in c.outposts if p.piece == PIECE)
    assert placed > 0

"""Architects (Architectes): uniform districts, uniform rows and columns, cubes and swaps.

Sources: player aid "CIVILISATIONS / Architectes" (the abilities and the mid-game swaps),
rulebook "RÉÉQUILIBRAGE DES CIVILISATIONS / ARCHITECTES" (one impassable cube per opponent,
each in a different district; it wins over the aid's "+10 VP per opponent",
RULEBOOK_CROSSCHECK C1), "BÂTIMENTS & CAPITALES" / "COMPLÉTER DES DISTRICTS, DES LIGNES ET
DES COLONNES" (impassable plots count as filled), "Fin de la partie" (seeded games finish).
"""

from __future__ import annotations

from domain.core import Chance, Command, Event
from domain.tapestry import civ_architects as arch
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, ChooseResource, Decline, PlaceBuilding
from domain.tapestry.engine import frame
from domain.tapestry.state import TapestryState
from tests.tapestry.helpers import GAME, act, decision, new_game, of, table
from tests.tapestry.test_cards_support import answer, benefit, options, run_frames, vp_of

KEY = "architects"


def architect(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Architects, with a capital free of impassable plots."""
    state = table(seats)
    player = state.seats[0]
    player.civs = [civ_id(KEY)]
    player.grid_blocked = ["0" * 9] * 9
    player.grid_filled = ["." * 9] * 9
    return state


def put(state: TapestryState, seat: int, cells: list[tuple[int, int]], mark: str) -> None:
    """Write building ``mark`` on plots of ``seat``'s capital."""
    rows = [list(row) for row in state.seats[seat].grid_filled]
    for r, c in cells:
        rows[r][c] = mark
    state.seats[seat].grid_filled = ["".join(row) for row in rows]


DISTRICT_0 = [(r, c) for r in range(3) for c in range(3)]


def complete_district_with_house(state: TapestryState) -> list[Event]:
    """Seat 0 gains a house and places it on plot (2, 2), the last one of district 0."""
    events = benefit(state, 0, "gain_house")
    events += answer(state, PlaceBuilding(row=2, col=2))
    while decision(state) == "resource":
        events += answer(state, ChooseResource(resource="coin"))
    return events


def resources_for(events: list[Event], reason: str) -> int:
    """Resources gained by seat 0 for ``reason``."""
    return sum(
        sum(e.delta) for e in of(events, ev.ResourcesChanged) if e.seat == 0 and e.reason == reason
    )


# -- districts -----------------------------------------------------------------------------
def test_uniform_district_pays_an_extra_resource() -> None:
    """Aid "Architectes": +1 resource for a completed district whose buildings are alike."""
    state = architect()
    put(state, 0, DISTRICT_0[:-1], "H")
    events = complete_district_with_house(state)
    assert len(of(events, ev.DistrictCompleted)) == 1
    assert resources_for(events, "district") == 1
    assert resources_for(events, "civ:architects") == 1
    assert state.seats[0].resources[0] == 2


def test_mixed_district_pays_only_the_district_resource() -> None:
    """Aid "Architectes": "tous identiques": a district with two types gives no extra."""
    state = architect()
    put(state, 0, DISTRICT_0[:-1], "H")
    put(state, 0, [(0, 0)], "F")
    events = complete_district_with_house(state)
    assert resources_for(events, "district") == 1
    assert resources_for(events, "civ:architects") == 0


def test_impassable_plots_and_landmarks_do_not_spoil_a_uniform_district() -> None:
    """Impassable plots count as filled ("BÂTIMENTS & CAPITALES"); landmarks are not income
    buildings and are ignored (assumed, facts folder: "income buildings (at least one)")."""
    state = architect()
    state.seats[0].grid_blocked = ["100" + "0" * 6] + ["0" * 9] * 8
    put(state, 0, [(0, 1), (0, 2), (1, 0)], "L")
    put(state, 0, [(1, 1), (1, 2), (2, 0), (2, 1)], "M")
    events = benefit(state, 0, "gain_house")
    events += answer(state, PlaceBuilding(row=2, col=2))
    while decision(state) == "resource":
        events += answer(state, ChooseResource(resource="food"))
    assert resources_for(events, "district") == 1
    assert resources_for(events, "civ:architects") == 0  # a house among markets
    state = architect()
    state.seats[0].grid_blocked = ["100" + "0" * 6] + ["0" * 9] * 8
    put(state, 0, [(0, 1), (0, 2), (1, 0)], "L")
    put(state, 0, [(1, 1), (1, 2), (2, 0), (2, 1)], "H")
    events = complete_district_with_house(state)
    assert resources_for(events, "civ:architects") == 1


def test_district_without_income_building_pays_no_extra() -> None:
    """Aid "Architectes": "si au moins 1 Bâtiment": a district of landmark plots completed by a
    cube pays the district's resource and nothing more."""
    state = architect()
    put(state, 0, DISTRICT_0[:-1], "L")
    run_frames(state, frame("architects_cube", 0))
    events = answer(state, PlaceBuilding(row=2, col=2))
    while decision(state) == "resource":
        events += answer(state, ChooseResource(resource="coin"))
    assert [e.district for e in of(events, ev.DistrictCompleted)] == [0]
    assert resources_for(events, "district") == 1
    assert resources_for(events, "civ:architects") == 0


def test_other_civilizations_get_no_extra_resource() -> None:
    """The ability is the Architects' only: the same district pays one resource to others."""
    state = architect()
    state.seats[0].civs = [civ_id("leaders")]
    put(state, 0, DISTRICT_0[:-1], "H")
    events = complete_district_with_house(state)
    assert resources_for(events, "district") == 1
    assert resources_for(events, "civ:architects") == 0


# -- capital scoring -----------------------------------------------------------------------
def test_uniform_rows_and_columns_score_one_more_vp() -> None:
    """Aid "Architectes": +1 VP per complete row/column of identical buildings (1 minimum)."""
    state = architect()
    put(state, 0, [(0, c) for c in range(9)], "H")  # uniform row
    put(state, 0, [(1, c) for c in range(9)], "H")
    put(state, 0, [(1, 4)], "F")  # complete, mixed row
    put(state, 0, [(r, 8) for r in range(2, 9)], "H")  # column 8: uniform
    assert arch.uniform_lines(state.seats[0]) == 2
    events = benefit(state, 0, "score_capital")
    assert vp_of(events, 0, "score_capital") == 3  # two rows and a column
    assert vp_of(events, 0, "civ:architects") == 2


def test_impassable_row_needs_a_building() -> None:
    """Aid: "(1 minimum)": a complete row of impassable plots alone is not uniform."""
    state = architect()
    state.seats[0].grid_blocked = ["1" * 9] + ["0" * 9] * 8
    assert arch.uniform_lines(state.seats[0]) == 0
    put(state, 0, [(1, c) for c in range(9)], "A")
    state.seats[0].grid_blocked[1] = "110000000"
    put(state, 0, [(1, 0), (1, 1)], ".")
    assert arch.uniform_lines(state.seats[0]) == 1


def test_capital_scoring_of_other_civilizations_is_unchanged() -> None:
    """Only an Architect scores the extra VP."""
    state = architect()
    state.seats[0].civs = [civ_id("leaders")]
    put(state, 0, [(0, c) for c in range(9)], "H")
    events = benefit(state, 0, "score_capital")
    assert vp_of(events, 0, "score_capital") == 1
    assert vp_of(events, 0, "civ:architects") == 0


# -- rebalancing: cubes --------------------------------------------------------------------
def start_with(key: str, seats: int, seed: bytes = b"civ") -> TapestryState:
    """A game set up with seat 0 starting with ``key`` (others: Leaders, then Militants)."""
    state, _ = new_game(seats, seed)
    fillers = [k for k in ("leaders", "militants", "merrymakers", "alchemists") if k != key]
    for seat in range(seats):
        chosen = key if seat == 0 else fillers[(seat - 1) % len(fillers)]
        state.seats[seat].civ_offer = [civ_id(chosen)]
    while GAME.is_setup(state):
        seat = GAME.pending(state).seats[0]
        act(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def test_starting_architect_places_one_cube_per_opponent() -> None:
    """ "RÉÉQUILIBRAGE / ARCHITECTES": 1 cube per opponent, each in a different district, and
    no VP (the aid's "+10 VP per opponent" loses to the rulebook, RULEBOOK_CROSSCHECK C1)."""
    state = start_with(KEY, 3)
    printed = list(state.seats[0].grid_blocked)
    placed: list[int] = []
    while decision(state) == "architects_cube":
        found = [o for o in options(state) if isinstance(o, PlaceBuilding)]
        assert len(found) == len(options(state))
        assert all((o.row // 3) * 3 + o.col // 3 not in placed for o in found)
        cube = found[0]
        events = answer(state, cube)
        assert of(events, ev.PlotsBlocked)[0].cells == ((cube.row, cube.col),)
        placed.append((cube.row // 3) * 3 + cube.col // 3)
        while decision(state) == "resource":
            answer(state, ChooseResource(resource="coin"))
    assert len(placed) == 2 and len(set(placed)) == 2
    assert state.seats[0].vp == 0
    cubes = arch.cube_cells(state.seats[0])
    assert len(cubes) == 2 and state.seats[0].grid_blocked != printed
    view = GAME.view(state, 1)  # public: another seat sees the cubes
    assert all(view.seats[0].capital_blocked[r][c] == "1" for r, c in cubes)


def test_two_players_one_cube() -> None:
    """ "RÉÉQUILIBRAGE / ARCHITECTES": with one opponent, one cube."""
    state = start_with(KEY, 2)
    assert decision(state) == "architects_cube"
    answer(state, options(state)[0])
    while decision(state) == "resource":
        answer(state, ChooseResource(resource="coin"))
    assert len(arch.cube_cells(state.seats[0])) == 1
    assert decision(state) == "turn"


def test_a_cube_may_complete_a_district() -> None:
    """ "COMPLÉTER DES DISTRICTS": an impassable plot counts as filled, so a cube on the last
    empty plot completes the district and pays its resource."""
    state = architect()
    put(state, 0, DISTRICT_0[:-1], "H")
    run_frames(state, frame("architects_cube", 0))
    events = answer(state, PlaceBuilding(row=2, col=2))
    assert [e.district for e in of(events, ev.DistrictCompleted)] == [0]
    while decision(state) == "resource":
        events += answer(state, ChooseResource(resource="worker"))
    assert resources_for(events, "district") == 1
    assert resources_for(events, "civ:architects") == 1  # eight houses, no other type


def test_setup_adjustment_only_for_a_starting_architect() -> None:
    """ "RÉÉQUILIBRAGE": "N'appliquez pas ces règles pour les civilisations obtenues pendant la
    partie": a gained Architect places no cube but gets its swaps."""
    state = gained_architect()
    assert decision(state) == "architects_swap"
    assert not of(settle_swaps(state), ev.PlotsBlocked)
    assert [f.kind for f in civs.setup_frames(start_with(KEY, 2), 0)] == ["architects_cube"]


# -- gained during the game: swaps --------------------------------------------------------
def gained_architect() -> TapestryState:
    """Seat 0 gains the Architects mid-game (every other gainable civilization is out)."""
    state = architect()
    state.seats[0].civs = []
    put(state, 0, [(4, 4), (4, 5)], "H")
    put(state, 0, [(6, 6)], "F")
    put(state, 0, [(7, 7)], "L")
    state.civs_out = [civ_id(k) for k in civs.GAINABLE if k != KEY]
    benefit(state, 0, "gain_random_civilization")
    assert state.seats[0].civs == [civ_id(KEY)]
    return state


def settle_swaps(state: TapestryState) -> list[Event]:
    """Decline the swaps still offered."""
    events: list[Event] = []
    while decision(state) == "architects_swap":
        events += answer(state, Decline())
    return events


def swap(a: tuple[int, int], b: tuple[int, int]) -> Command:
    """The command swapping plots ``a`` and ``b``."""
    return Choose(index=(a[0] * 9 + a[1]) * 81 + b[0] * 9 + b[1])


def test_gained_architects_swap_up_to_three_times() -> None:
    """Aid "Architectes": gained mid-game, swap two buildings, three swaps at most."""
    state = gained_architect()
    found = options(state)
    assert swap((4, 4), (6, 6)) in found and swap((4, 5), (6, 6)) in found
    assert swap((4, 4), (4, 5)) not in found  # two houses: nothing would change
    assert all(swap((7, 7), other) not in found for other in ((4, 4), (6, 6)))  # a landmark
    assert Decline() in found
    events = answer(state, swap((4, 4), (6, 6)))
    assert of(events, ev.BuildingsSwapped)[0].first == (4, 4)
    assert state.seats[0].grid_filled[4][4] == "F" and state.seats[0].grid_filled[6][6] == "H"
    answer(state, swap((4, 4), (4, 5)))
    answer(state, swap((4, 4), (4, 5)))
    assert decision(state) != "architects_swap"
    assert state.seats[0].grid_filled[4][4] == "F" and state.seats[0].grid_filled[4][5] == "H"


def test_swaps_may_stop_early() -> None:
    """Aid: "3 échanges max": the Architect may stop before the third swap."""
    state = gained_architect()
    answer(state, Decline())
    assert decision(state) == "turn"
    assert state.seats[0].grid_filled[4][4] == "H"


def test_swap_refolds_the_buildings_places() -> None:
    """The swap moves the recorded places of the two buildings, and refolds exactly."""
    state = architect()
    put(state, 0, [(0, 0)], "H")
    put(state, 0, [(0, 1)], "M")
    from domain.tapestry.state import PlacedBuilding

    state.seats[0].buildings = [
        PlacedBuilding(building="house", row=0, col=0),
        PlacedBuilding(building="market", row=0, col=1),
    ]
    GAME.evolve(state, ev.BuildingsSwapped(seat=0, first=(0, 0), second=(0, 1)))
    assert state.seats[0].grid_filled[0][:2] == "MH"
    assert [(b.building, b.col) for b in state.seats[0].buildings] == [("house", 1), ("market", 0)]


# -- whole games ---------------------------------------------------------------------------
#: decisions checked for soundness in the seeded games (every option offered is accepted).
MINE = (
    "architects_cube",
    "architects_swap",
    "historians_give",
    "place_building",
    "civilization",
    "bonus",
)


def play_with(key: str, seats: int, seed: int) -> TapestryState:
    """A seeded random game where seat 0 starts with ``key``; every option offered at a
    civilization decision is accepted (soundness) and the game reaches its end."""
    game_seed = f"civ-{key}-{seed}".encode()
    state = GAME.initial(GAME.decode_options({}), seats)
    log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
    for event in log:
        GAME.evolve(state, event)
    state.seats[0].civ_offer = [civ_id(key)]
    for seat in range(1, seats):
        state.seats[seat].civ_offer = [c for c in state.seats[seat].civ_offer if c != civ_id(key)]
    bot = Chance(f"bot-{key}-{seed}".encode(), 0)
    for _ in range(5000):
        if GAME.is_over(state):
            return state
        pending = GAME.pending(state)
        seat = pending.seats[0]
        actions = GAME.legal_actions(state, seat)
        assert actions, pending
        if pending.decision in MINE:
            for action in actions:
                GAME.decide(state, seat, action, Chance(game_seed, len(log)))
        events = GAME.decide(state, seat, bot.choice(actions), Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
    raise AssertionError("the game does not end")


def test_seeded_games_with_starting_architects_finish() -> None:
    """ "Fin de la partie": games with a starting Architect end, every seat finished."""
    for seats, seed in ((2, 1), (4, 2)):
        state = play_with(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert len(arch.cube_cells(state.seats[0])) <= seats - 1


def test_content_marks_the_rebalancing() -> None:
    """The content describes the cubes (RÉÉQUILIBRAGE) and no machine gain or VP."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert "impassable" in record.adjustment
    assert record.adjustment_gain is None and record.adjustment_vp_per_opponent == 0

"""Isolationists (Isolationnistes): tokens with conquests of empty territories, final mass.

Sources: the player aid, "CIVILISATIONS / Isolationnistes"; the rulebook, "Conquête" (no
conquest of a territory with 2 pieces), "RÉÉQUILIBRAGE DES CIVILISATIONS / ISOLATIONNISTES"
and the F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS" (the central island is no joker).
"""

from __future__ import annotations

from domain.tapestry import events as ev
from domain.tapestry.civ_isolationists import (
    DECISION,
    KEY,
    MAT_TOKENS,
    largest_mass,
    mass_vp,
    tokens_left,
)
from domain.tapestry.civs import GAINABLE, civ_id, implemented_ids
from domain.tapestry.commands import Choose, ChooseResource, Conquer, Decline, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.rules import conquer_targets, gain
from domain.tapestry.state import Frame, Outpost, TapestryState
from tests.tapestry.helpers import GAME, act, decision, first_choices, of, play_out, started, table
from tests.tapestry.test_cards_support import give_hex, neighbour_territory, run_frames

ISO = civ_id(KEY)


def _isolationist(seats: int = 2) -> TapestryState:
    state = table(seats)
    state.seats[0].civs = [ISO]
    return state


def _conquer(state: TapestryState, seat: int, index: int) -> list[ev.Event]:
    """``seat`` conquers board hex ``index``; the dice are resolved with the first option
    until the Isolationist decision (or the end of the turn)."""
    state.agenda = [frame("turn", seat), frame("conquer", seat, ints=(0,))]
    cell = state.hexes[index]
    events = act(state, seat, Conquer(q=cell.q, r=cell.r))
    for _ in range(50):
        if decision(state) in (DECISION, "turn", "trap"):
            break
        who = GAME.pending(state).seats[0]
        events += act(state, who, GAME.legal_actions(state, who)[0])
    return events


def _clear_map(state: TapestryState) -> None:
    for cell in state.hexes:
        cell.outposts = []


def _control(state: TapestryState, seat: int, *hexes: tuple[int, int]) -> list[int]:
    found = []
    for q, r in hexes:
        index = state.hex_index(q, r)
        give_hex(state, index, seat)
        found.append(index)
    return found


def test_token_offered_after_conquering_an_empty_territory() -> None:
    """Aid: conquering an empty territory, you may put a mat token with your outpost and
    gain 1 resource of your choice; the territory can then not be conquered ("Conquête":
    2 pieces)."""
    state = _isolationist()
    target = neighbour_territory(state, 0)
    _conquer(state, 0, target)
    assert decision(state) == DECISION
    assert GAME.legal_actions(state, 0) == [Choose(index=0), Decline()]
    events = act(state, 0, Choose(index=0))
    assert of(events, ev.PiecePlaced) == [ev.PiecePlaced(seat=0, hex=target, piece=KEY)]
    assert decision(state) == "resource"
    act(state, 0, ChooseResource(resource="worker"))
    assert state.seats[0].resources[1] == 1
    assert tokens_left(state, 0) == MAT_TOKENS - 1
    assert state.hexes[target].controller() == 0  # the token gives no control of its own
    assert target not in conquer_targets(state, 1, anywhere=True)  # 2 pieces: unconquerable


def test_token_declined_keeps_the_mat() -> None:
    """Aid: "vous pouvez" — the token is optional; declining leaves the 4 tokens on the mat
    and the territory conquerable."""
    state = _isolationist()
    target = neighbour_territory(state, 0)
    _conquer(state, 0, target)
    events = act(state, 0, Decline())
    assert not of(events, ev.PiecePlaced)
    assert tokens_left(state, 0) == MAT_TOKENS
    assert target in conquer_targets(state, 1, anywhere=True)


def test_no_token_after_conquering_an_occupied_territory() -> None:
    """Aid: only the conquest of an *empty* territory lets a token go down."""
    state = _isolationist()
    target = neighbour_territory(state, 0)
    give_hex(state, target, 1)
    state.seats[1].hand = []
    events = _conquer(state, 0, target)
    while decision(state) == "trap":
        act(state, 1, Decline())
        events += _conquer_rest(state)
    assert not any(f.kind == DECISION for f in state.agenda)
    assert not of(events, ev.PiecePlaced)


def _conquer_rest(state: TapestryState) -> list[ev.Event]:
    events: list[ev.Event] = []
    for _ in range(50):
        if decision(state) in (DECISION, "turn"):
            break
        who = GAME.pending(state).seats[0]
        events += act(state, who, GAME.legal_actions(state, who)[0])
    return events


def test_no_token_left_no_offer() -> None:
    """Aid: 4 tokens on the mat; once all 4 are on the map, conquests offer nothing more."""
    state = _isolationist()
    spare = [i for i, c in enumerate(state.hexes) if c.explored and not c.outposts]
    for index in spare[:MAT_TOKENS]:
        state.hexes[index].outposts = [Outpost(seat=0), Outpost(seat=0, piece=KEY)]
    assert tokens_left(state, 0) == 0
    target = neighbour_territory(state, 0)
    _conquer(state, 0, target)
    assert decision(state) != DECISION


def test_other_civilizations_are_not_offered_the_token() -> None:
    """Aid: the ability belongs to the Isolationists only."""
    state = table(2)
    target = neighbour_territory(state, 0)
    _conquer(state, 0, target)
    assert decision(state) != DECISION


def test_mass_vp_table() -> None:
    """Aid: 5/10/16/23/31/40 VP for 1 to 6 connected identical terrains (more than 6: 40)."""
    assert [mass_vp(n) for n in range(8)] == [0, 5, 10, 16, 23, 31, 40, 40]


def test_largest_mass_follows_shared_land_corners() -> None:
    """Aid: the largest mass of connected terrains of one type over the territories held;
    small board: (-2,-2) shares a forest corner with (-3,-3) and another with (-1,-2)."""
    state = table(2)
    _clear_map(state)
    _control(state, 0, (-2, -2), (-3, -3), (-1, -2))
    assert largest_mass(state, 0) == 3
    _clear_map(state)
    _control(state, 0, (-3, -3), (-1, -2))  # no longer linked through (-2, -2)
    assert largest_mass(state, 0) == 1
    _clear_map(state)
    assert largest_mass(state, 0) == 0


def test_mass_counts_controlled_territories_only() -> None:
    """Assumed (facts folder, C13): a territory whose outpost was toppled is not held, so it
    breaks the mass."""
    state = table(2)
    _clear_map(state)
    linked = _control(state, 0, (-2, -2), (-3, -3), (-1, -2))
    state.hexes[linked[0]].outposts = [Outpost(seat=0, toppled=True), Outpost(seat=1)]
    assert largest_mass(state, 0) == 1


def test_faq_central_island_is_no_joker() -> None:
    """F.À.Q. "PLATEAUX CIVILISATION PARTICULIERS": the central island is surrounded by water,
    so it never joins a mass; held alone it counts as 1."""
    state = table(2)
    _clear_map(state)
    island = state.hex_index(0, 0)
    give_hex(state, island, 0)
    assert largest_mass(state, 0) == 1
    # a desert tile next to the island, desert on every corner it shares: still no link
    below = state.hex_index(1, 1)
    state.hexes[below].tile = 25  # ('sea', 'desert', 'desert', 'desert', 'grassland', ...)
    state.hexes[below].rotation = 5  # desert on the top corners (0 and 1)
    give_hex(state, below, 0)
    assert largest_mass(state, 0) == 1


def test_fifth_income_scores_the_mass() -> None:
    """Aid: "5ème tour de Revenus: +X PV" — the mass scores at the fifth income turn only."""
    state = _isolationist()
    _clear_map(state)
    _control(state, 0, (-2, -2), (-3, -3), (-1, -2))
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(4,)))
    assert not of(events, ev.VPScored)
    events = run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(5,)))
    assert [(e.vp, e.reason) for e in of(events, ev.VPScored)] == [(16, f"civ:{KEY}")]


def test_fifth_income_turn_through_the_turn() -> None:
    """ "Tours de revenus" step 1 of income turn 5 runs the Isolationists' scoring."""
    state = _isolationist()
    _clear_map(state)
    _control(state, 0, (-2, -2), (-3, -3))
    state.seats[0].income_turns = 4
    events = act(state, 0, TakeIncome())
    assert (10, f"civ:{KEY}") in [(e.vp, e.reason) for e in of(events, ev.VPScored)]


def test_starting_isolationist_gains_a_resource() -> None:
    """ "RÉÉQUILIBRAGE DES CIVILISATIONS / ISOLATIONNISTES" (icon lost, assumed 1 resource of
    choice): a starting Isolationist takes a resource; the mat starts with 4 tokens."""
    state = started([KEY, ""], seed=b"iso-start")
    first_choices(state)
    seen = False
    while decision(state) == "resource":
        top = state.agenda[-1]
        seen = seen or (top.seat == 0 and top.source == f"adjustment:{KEY}")
        act(state, top.seat, ChooseResource(resource="coin"))
    assert seen
    assert tokens_left(state, 0) == MAT_TOKENS


def test_gained_mid_game_without_rebalancing() -> None:
    """ "Règles générales" (gain a civilization) and "RÉÉQUILIBRAGE": gained mid-game, the
    Isolationists bring their 4 tokens but no resource."""
    assert KEY in GAINABLE
    state = table(2)
    state.civs_out = [c for c in implemented_ids() if c != ISO]
    events = run_frames(state, frame("expr", 0, expr=gain("gain_random_civilization")))
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [ISO]
    assert state.seats[0].resources == [0, 0, 0, 0]
    assert tokens_left(state, 0) == MAT_TOKENS


def test_seeded_games_with_a_starting_isolationist_finish() -> None:
    """A few seeded games (2 to 4 seats) with the Isolationists as a starting civilization
    reach their end."""
    for seats in (2, 3, 4):
        state = play_out([KEY] + [""] * (seats - 1), f"iso-{seats}".encode())
        assert GAME.is_over(state)
        assert GAME.outcome(state) is not None


def test_central_island_conquered_then_walled_off() -> None:
    """ "Objectifs / Conquérir l'île centrale" with the aid: the empty central island conquered
    fulfils the achievement, and the Isolationist may then leave a token there."""
    state = _isolationist()
    island = state.hex_index(0, 0)
    assert not state.hexes[island].outposts
    state.agenda = [frame("turn", 0), frame("conquer", 0, ints=(3,))]  # anywhere
    cell = state.hexes[island]
    events = act(state, 0, Conquer(q=cell.q, r=cell.r))
    for _ in range(50):
        if decision(state) in (DECISION, "turn"):
            break
        events += act(state, 0, GAME.legal_actions(state, 0)[0])
    assert of(events, ev.AchievementEarned)
    assert decision(state) == DECISION and state.agenda[-1].ints == (island,)
    act(state, 0, Choose(index=0))
    assert [p.piece for p in state.hexes[island].outposts] == ["", KEY]

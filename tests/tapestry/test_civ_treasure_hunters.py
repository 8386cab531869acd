"""Treasure Hunters (Chasseurs de Trésors, Plans & Ploys).

Sources: the facts folder's mat (``civilizations.json#38``: four tokens and two territory
tiles at the start; income turns 2-5, a token on an empty territory next to yours showing an
unclaimed treasure's terrain, held without conquest, and that treasure: desert coin + black die
twice keep one, grassland culture + science die twice keep one, mountain worker + both conquer
dice, forest food + red die twice); "RÉÉQUILIBRAGE DES CIVILISATIONS" (« CHASSEURS DE TRÉSORS
[...] Pas de changement »); "PREMIÈRE MISE EN PLACE" (a box's components only when it is in
play); ``decisions.json#treasure_hunters_*`` for the readings the sources leave open.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.core import Chance
from domain.registry import get_ruleset
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.expansions import civ_treasure_hunters as th
from domain.tapestry.rules import conquer_targets
from domain.tapestry.state import Frame, Outpost, TapestryState
from tests.tapestry.helpers import of, table
from tests.tapestry.test_cards_support import answer, forced, options, run_frames

KEY = "treasure_hunters"
BOX = "plans_and_ploys"
#: small board, 2 seats: seat 0's home is hex 18; printed neighbours 12 (desert, grassland),
#: 19 (grassland) and 24 (desert, forest, grassland); 13, 17 and 25 are unexplored.
HOME0 = 18
DESERT, GRASSLAND, MOUNTAIN, FOREST = range(4)


def hunter() -> TapestryState:
    """Seat 0 holds the Treasure Hunters in a 2-seat game with Plans & Ploys."""
    state = table(2)
    state.rules = msgspec.structs.replace(state.rules, expansions=(BOX,))
    assert state.seats[0].home == HOME0
    state.seats[0].civs = [civ_id(KEY)]
    return state


def income_ability(state: TapestryState, era: int = 2) -> list[ev.Event]:
    """Step 1 of income turn ``era`` for seat 0."""
    return run_frames(state, Frame(kind="civ_income", seat=0, token=KEY, ints=(era,)))


def claim(slot: int, index: int) -> Choose:
    """The command claiming treasure ``slot`` on board hex ``index``."""
    return Choose(index=slot * th.SLOT_BASE + index)


# -- content and dealing ----------------------------------------------------------------------
def test_mat_and_setup_follow_the_facts_folder() -> None:
    """Facts folder ``civilizations.json#38``: four treasures in mat order, two territory tiles
    to begin; "RÉÉQUILIBRAGE": « Pas de changement » (no adjustment)."""
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.box == BOX and record.name_fr == "Chasseurs de Trésors"
    assert th.TERRAINS == ("desert", "grassland", "mountain", "forest")
    assert len(record.slots) == 4
    assert record.setup == C.Gain(token="gain_territory_tile", count=2)
    assert record.adjustment_gain is None and record.adjustment_vp_per_opponent == 0
    state = hunter()
    frames = setup_frames(state, 0)
    assert [f.source for f in frames] == [f"civ:{KEY}"]
    run_frames(state, *frames)
    assert len(state.seats[0].territory) == 2


def test_dealt_only_when_the_box_is_in_play() -> None:
    """ "PREMIÈRE MISE EN PLACE": « Combinez [...] les extensions avec lesquelles vous souhaitez
    jouer »: the base game never deals it nor lets it be gained; with the box it is in both
    pools; naming it without the box is refused, naming the box."""
    assert civ_id(KEY) not in civs.implemented_ids()
    assert civ_id(KEY) in civs.implemented_ids((BOX,))
    assert KEY not in civs.gainable() and KEY in civs.gainable((BOX,))
    game = get_ruleset("tapestry/2")
    with pytest.raises(ValueError, match="plans_and_ploys box"):
        game.initial(game.decode_options({"starting_civilizations": [KEY]}), 2)
    options = game.decode_options({"expansions": [BOX], "starting_civilizations": [KEY]})
    state = game.initial(options, 2)
    for event in game.setup(state, Chance(b"hunters", 0)):
        game.evolve(state, event)
    assert state.seats[0].civs == [civ_id(KEY)]
    dealt = set()
    for seed in range(12):
        fresh = game.initial(game.decode_options({"expansions": [BOX]}), 5)
        for event in game.setup(fresh, Chance(f"deal-{seed}".encode(), 0)):
            game.evolve(fresh, event)
        dealt |= {c for s in fresh.seats for c in s.civ_offer}
    assert civ_id(KEY) in dealt


# -- placing a token -----------------------------------------------------------------------------
def test_offered_territories_show_an_unclaimed_terrain() -> None:
    """Facts folder: an empty territory next to one you control, showing the terrain of an
    unclaimed treasure (``decisions.json#treasure_hunters_terrain``); declining is allowed
    (``#treasure_hunters_optional``); no mountain around, so no mountain treasure."""
    state = hunter()
    income_ability(state)
    offered = {(o.index // th.SLOT_BASE, o.index % th.SLOT_BASE) for o in options(state)[:-1]}
    assert offered == {
        (DESERT, 12), (GRASSLAND, 12), (GRASSLAND, 19),
        (DESERT, 24), (FOREST, 24), (GRASSLAND, 24),
    }  # fmt: skip
    assert options(state)[-1] == Decline()
    assert not of(answer(state, Decline()), ev.PiecePlaced)


def test_a_token_holds_the_territory_without_conquest() -> None:
    """Facts folder: the token controls the territory without conquering it; no conquest may
    target it (``decisions.json#treasure_hunters_control``)."""
    state = hunter()
    income_ability(state)
    events = answer(state, claim(FOREST, 24))
    assert ev.PiecePlaced(seat=0, hex=24, piece=KEY) in events
    assert state.hexes[24].controller() == 0
    assert th.claimed(state, 0) == [FOREST]
    state.hexes[23].outposts = [Outpost(seat=1)]  # seat 1 next door, outposts in supply
    assert 24 not in conquer_targets(state, 1, anywhere=True)
    assert 12 in conquer_targets(state, 1, anywhere=True)  # an empty territory still is


def test_each_treasure_once_and_four_tokens() -> None:
    """Facts folder: four tokens, one per treasure: a claimed treasure is not offered again;
    with all four claimed, no decision."""
    state = hunter()
    state.seats[0].civ_tokens[KEY] = [DESERT, GRASSLAND]
    income_ability(state)
    slots = {o.index // th.SLOT_BASE for o in options(state)[:-1]}
    assert slots == {FOREST}
    state = hunter()
    state.seats[0].civ_tokens[KEY] = [DESERT, GRASSLAND, MOUNTAIN, FOREST]
    income_ability(state)
    assert state.agenda[-1].kind == "turn"


# -- the treasures ---------------------------------------------------------------------------------
def test_forest_treasure_food_and_red_die_twice() -> None:
    """Forest: a food, then the red die thrown twice, both faces gained."""
    state = hunter()
    income_ability(state)
    events = answer(state, claim(FOREST, 24))
    assert [e.die for e in of(events, ev.DieRolled)] == ["red", "red"]
    assert state.seats[0].resources[2] >= 1
    assert all(f.kind != "treasure_die" for f in state.agenda)  # both faces, no choice


def test_desert_treasure_coin_and_black_die_keep_one() -> None:
    """Desert: a coin, then the black die thrown twice; the seat keeps one face (decision
    ``treasure_die``) unless both show the same."""
    state = hunter()
    income_ability(state)

    def two_faces(events: list[ev.Event]) -> bool:
        faces = [e.face for e in of(events, ev.DieRolled)]
        return len(faces) == 2 and faces[0] != faces[1]

    forced(state, claim(DESERT, 12), two_faces)
    assert state.seats[0].resources[0] >= 1
    top = state.agenda[-1]
    assert top.kind == "treasure_die" and top.ints[:2] == (12, th.BLACK)
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    assert state.agenda[-1].kind != "treasure_die"


def test_mountain_treasure_worker_and_both_dice() -> None:
    """Mountain: a worker, then both conquer dice, both faces gained (a mountain territory is
    made next to seat 0's home)."""
    state = hunter()
    state.hexes[13].tile = next(t.id for t in C.TERRITORY_TILES.values() if "mountain" in t.corners)
    income_ability(state)
    assert (MOUNTAIN, 13) in {divmod(o.index, th.SLOT_BASE) for o in options(state)[:-1]}
    events = answer(state, claim(MOUNTAIN, 13))
    assert [e.die for e in of(events, ev.DieRolled)] == ["red", "black"]
    assert state.seats[0].resources[1] >= 1


def test_grassland_treasure_culture_and_science_die_keep_one() -> None:
    """Grassland: a culture, then the science die thrown twice; one track is kept (the
    ``research_pick`` decision when they differ) and researched with its benefit."""
    state = hunter()
    income_ability(state)
    events = answer(state, claim(GRASSLAND, 19))
    assert len(of(events, ev.ScienceDieRolled)) == 2
    assert state.seats[0].resources[3] >= 1
    kinds = {state.agenda[-1].kind}
    assert kinds <= {"research_pick", "research", "turn", "choose", "build", "explore"}

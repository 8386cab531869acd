"""F.À.Q. of the rulebook outside the tapestry cards: "Tours de revenus", "Pistes",
"Bâtiments et monuments", "Plateaux civilisation particuliers" (implemented civilizations only),
"Autres questions générales", and the questions of the track guide ("Guide des pistes":
exploration, technology incl. Electronics' double activation, science, military).

Each test names its F.À.Q. entry (the French question, shortened) in its docstring.
"""

from __future__ import annotations

import typing

from domain.tapestry import capital as cap
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import (
    Choose,
    ChooseResource,
    ChooseTech,
    Decline,
    PayBonus,
    PlaceBuilding,
    TakeIncome,
    TapestryCommand,
)
from domain.tapestry.engine import frame
from domain.tapestry.gains import TRACK_KEY
from domain.tapestry.rules import explore_targets, footprints
from domain.tapestry.state import TRACK_IDS as TRACKS
from domain.tapestry.state import TechOwned
from domain.tapestry.tracks import FULL, NONE, advance_frame
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    benefit,
    options,
    play,
    run_frames,
    settle_turn,
)

EXPLORATION, SCIENCE, TECHNOLOGY, MILITARY = range(4)


def _achievement(key: str) -> int:
    return next(a.id for a in C.ACHIEVEMENTS.values() if a.key == key)


# -- Tours de revenus -----------------------------------------------------------------------
def test_faq_income_only_at_income_turns() -> None:
    """F.À.Q. "Quand est-ce que je gagne le revenu indiqué sous chaque bâtiment ?": taking a
    building gives nothing at once; the uncovered space pays at your next income turns."""
    state = table(2)
    benefit(state, 0, "gain_market")
    answer(state, options(state)[0])
    assert state.seats[0].resources == [0, 0, 0, 0]
    run_frames(state, frame("income", 0, ints=(4, 2)))
    assert state.seats[0].resources[0] == 2  # the first space and the uncovered one


# -- Pistes -------------------------------------------------------------------------------
def test_faq_landmark_first_then_benefits_then_bonus() -> None:
    """F.À.Q. "Dans quel ordre dois-je gagner les monuments, bénéfices et bonus ?": place the
    landmark (and take a completed district's resource), then the benefit, then the optional
    bonus (Space Shuttle: Launch Pad, 1 VP per technology space, bonus for 3 tiles)."""
    state = table(2)
    seat = state.seats[0]
    seat.tracks = [[9], [0], [4], [0]]
    seat.territory = [5, 6, 7]
    shapes = footprints("landmark", 11)
    spot, district = _completing_spot(seat.grid_blocked, shapes)
    cells = set(cap.footprint_at(shapes, spot))
    seat.grid_filled = [
        "".join(
            "M"
            if cap.district_of((r, c)) == district
            and (r, c) not in cells
            and seat.grid_blocked[r][c] == "0"
            else "."
            for c in range(9)
        )
        for r in range(9)
    ]
    run_frames(state, advance_frame(0, EXPLORATION, FULL))
    assert decision(state) == "place_building" and seat.vp == 0
    answer(state, PlaceBuilding(row=spot[0], col=spot[1], orientation=spot[2]))
    assert decision(state) == "resource"  # the completed district, before the benefit
    answer(state, ChooseResource(resource="coin"))
    assert decision(state) == "bonus" and seat.vp == 4  # the benefit came before the bonus
    answer(state, PayBonus(discard=(5, 6, 7)))
    assert seat.vp == 14 and seat.resources == [1, 0, 0, 0] and seat.territory == []


def _completing_spot(
    blocked: list[str], shapes: cap.Orientations
) -> tuple[tuple[int, int, int], int]:
    grid = cap.CapitalGrid(blocked=tuple(blocked))
    for spot in cap.distinct_placements(grid, shapes):
        cells = cap.footprint_at(shapes, spot)
        districts = {cap.district_of(c) for c in cells if cap.on_grid(c)}
        if all(cap.on_grid(c) for c in cells) and len(districts) == 1:
            return spot, districts.pop()
    raise AssertionError("no placement inside one district")


def test_faq_landmark_and_achievement_during_an_opponents_turn() -> None:
    """F.À.Q. "Si j'atteins un nouveau niveau en premier pendant le tour d'un adversaire, ou
    que je complète une piste ...": the landmark and the achievement are gained at once."""
    state = table(2)
    state.seats[1].tracks = [[3], [0], [0], [11]]
    play(state, 0, "oil_magnate")
    answer(state, Choose(index=EXPLORATION))
    answer(state, Choose(index=1))  # seat 0 stays
    answer(state, Choose(index=0))  # seat 1 advances on exploration: the Lighthouse
    assert decision(state) == "place_building" and GAME.pending(state).seats == (1,)
    assert state.seats[1].landmarks == [9]
    settle_turn(state)
    run_frames(state, advance_frame(1, MILITARY, NONE))
    assert _achievement(TRACK_KEY) in state.seats[1].achievements


def test_faq_an_achievement_only_once() -> None:
    """F.À.Q. "Si je complète une seconde piste, puis-je valider l'objectif deux fois ?": no."""
    state = table(2)
    state.seats[0].tracks = [[11], [11], [0], [0]]
    events = run_frames(state, advance_frame(0, EXPLORATION, NONE), advance_frame(0, SCIENCE, NONE))
    settle_turn(state)
    assert len(of(events, ev.AchievementEarned)) == 1 and state.seats[0].vp == 10


def test_faq_benefits_are_mandatory_bonuses_optional() -> None:
    """F.À.Q. "Puis-je décider de ne pas utiliser le bénéfice de la case d'une piste ?": no;
    only bonuses may be declined ("Gains optionnels/obligatoires")."""
    state = table(2)
    state.seats[0].tracks[EXPLORATION] = [2]
    run_frames(state, advance_frame(0, EXPLORATION, FULL))  # Wagons: explore or a farm
    assert decision(state) == "choose" and Decline() not in options(state)
    state = table(2)
    state.seats[0].tracks[TECHNOLOGY] = [1]
    state.seats[0].resources = [1, 0, 0, 0]
    run_frames(state, advance_frame(0, TECHNOLOGY, FULL))  # Carpentry: a card; bonus: market
    assert len(state.seats[0].hand) == 1 and decision(state) == "bonus"
    assert Decline() in options(state)


# -- Bâtiments et monuments -----------------------------------------------------------------
def test_faq_no_room_left_build_beside_the_capital() -> None:
    """F.À.Q. "S'il n'y a plus de place sur mon plateau Capitale ...": the building is still
    gained and goes beside the capital."""
    state = table(2)
    seat = state.seats[0]
    seat.grid_filled = [
        "".join("M" if ch == "0" else "." for ch in row) for row in seat.grid_blocked
    ]
    events = benefit(state, 0, "gain_house")  # the only place: beside the capital, at once
    assert seat.taken[1] == 1 and seat.buildings[-1].row == -99
    assert of(events, ev.BuildingPlaced)[0].cells == ()


def test_faq_a_building_that_fits_must_be_placed() -> None:
    """F.À.Q. "... puis-je ... le garder de côté plutôt que de le placer ?": no."""
    state = table(2)
    benefit(state, 0, "gain_house")
    assert PlaceBuilding(row=-99, col=-99) not in options(state) and options(state)


def test_faq_a_taken_landmark_is_not_replaced() -> None:
    """F.À.Q. "Si je gagne un monument et que celui-ci est déjà pris ...": no other one."""
    state = table(2)
    state.landmark_owner = {"10": 1}
    state.seats[0].tracks[TECHNOLOGY] = [3]
    run_frames(state, advance_frame(0, TECHNOLOGY, NONE))
    assert state.seats[0].landmarks == [] and decision(state) == "turn"


def test_faq_no_other_income_building_type_when_out() -> None:
    """F.À.Q. "Si je gagne un bâtiment de revenus d'un certain type et que j'ai déjà placé tous
    mes bâtiments de ce type ...": no building of another type."""
    state = table(2)
    state.seats[0].taken = [0, 0, 5, 0]
    benefit(state, 0, "gain_farm")
    assert state.seats[0].taken == [0, 0, 5, 0] and decision(state) == "turn"


# -- Plateaux civilisation particuliers ---------------------------------------------------
def test_faq_rebalancing_loss_at_the_end_of_the_first_income_turn() -> None:
    """F.À.Q. "Certaines règles de rééquilibrage des civilisations indiquent de perdre une
    ressource": at the end of the first income turn (Futurists: a culture and one more)."""
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 0
    seat.civs = [civ_id("futurists")]
    act(state, 0, TakeIncome())
    assert decision(state) == "resource" and seat.resources == [1, 1, 1, 0]
    answer(state, ChooseResource(resource="food"))
    assert seat.resources == [1, 1, 0, 0]


# -- Autres questions générales --------------------------------------------------------------
def test_faq_no_trading_of_game_elements() -> None:
    """F.À.Q. "Les alliances et les échanges sont-ils autorisés ?": agreements are table talk;
    no command lets a player hand resources or cards to another."""
    names = {cls.__name__ for cls in typing.get_args(TapestryCommand)}
    assert not any(word in name.lower() for name in names for word in ("trade", "give"))


# -- Guide des pistes: exploration ----------------------------------------------------------
def test_faq_exploring_scores_0_to_6() -> None:
    """Guide "Combien de points puis-je gagner en explorant ?": 0 to 6, one per side aligned."""
    from domain.tapestry.rules import exploration_vp

    state = table(2)
    scores = {
        exploration_vp(state, index, tile, rotation)
        for index in range(len(state.hexes))
        if not state.hexes[index].explored
        for tile in (1, 8, 18)
        for rotation in range(6)
    }
    assert min(scores) >= 0 and max(scores) <= 6


def test_faq_nowhere_to_explore_means_nothing() -> None:
    """Guide "Où puis-je explorer s'il n'y a plus de case libre adjacente ?": no tile is placed
    and no benefit is gained."""
    state = table(2)
    state.seats[0].territory = [1]
    for index in range(len(state.hexes)):
        state.hexes[index].printed = True
    assert explore_targets(state, 0, False) == []
    benefit(state, 0, "explore")
    assert state.seats[0].territory == [1] and state.seats[0].vp == 0
    assert decision(state) == "turn"


def test_faq_discarded_tiles_never_come_back() -> None:
    """Guide "Que se passe-t-il s'il n'y a plus de tuiles ?": discarded tiles stay out; an
    empty stack gives nothing more."""
    state = table(2)
    tiles = sorted(C.TERRITORY_TILES)
    state.territory_out = tiles[:10]
    state.seats[1].territory = tiles[10:]
    events = benefit(state, 0, "gain_territory_tile", 2)
    assert state.seats[0].territory == [] and not of(events, ev.TerritoryTilesDrawn)


# -- Guide des pistes: technology ------------------------------------------------------------
def test_faq_ai_singularity_token_counts_as_space_12() -> None:
    """Guide "Après avoir utilisé Singularité d'IA ... combien de points génère-t-il ?": as a
    token on space 12 of technology: 12 points."""
    state = table(2)
    state.seats[0].tracks[TECHNOLOGY] = [11]
    state.seats[0].resources = [0, 0, 0, 0]
    run_frames(state, advance_frame(0, TECHNOLOGY, FULL))
    answer(state, Choose(index=SCIENCE))  # the token restarts on science
    settle_turn(state)
    assert state.seats[0].tracks[TECHNOLOGY] == [] and state.seats[0].completed[TECHNOLOGY]
    before = state.seats[0].vp
    benefit(state, 0, "vp_per_technology_space")
    assert state.seats[0].vp - before == 12


def test_faq_electronics_double_activation() -> None:
    """Guide "La case Électronique peut-elle me permettre d'améliorer une carte ... puis
    d'utiliser le bénéfice du cercle de la même carte ?": yes."""
    state = table(2)
    state.seats[0].tracks[TECHNOLOGY] = [8]
    state.seats[0].tech = [TechOwned(card=8, row=0), TechOwned(card=9, row=1)]
    run_frames(state, advance_frame(0, TECHNOLOGY, FULL))
    assert decision(state) == "order"
    answer(state, Choose(index=0))  # upgrade first: Calendar, circle 1 culture
    assert state.seats[0].tech[0].row == 1 and state.seats[0].resources[3] == 1
    assert options(state) == [ChooseTech(card=8), ChooseTech(card=9)]  # the same card too
    answer(state, ChooseTech(card=8))
    assert state.seats[0].resources[3] == 2


def test_faq_ai_singularity_cannot_be_repeated() -> None:
    """Guide "Puis-je utiliser [répéter] pour répéter Singularité d'IA ?": no, no token is on
    that space any more."""
    from domain.tapestry.scoring import repeatable

    state = table(2)
    state.seats[0].tracks = [[0], [2], [], [3]]
    state.seats[0].completed[TECHNOLOGY] = True
    assert repeatable(state, 0) == [SCIENCE, MILITARY]
    state.agenda.append(frame("track", 0, token="repeat"))
    assert options(state) == [Choose(index=SCIENCE), Choose(index=MILITARY)]


# -- Guide des pistes: science ------------------------------------------------------------
def test_faq_a_landmark_reached_by_research() -> None:
    """Guide "Est-ce que je gagne un monument si j'atteins un nouveau niveau grâce à
    [recherche] ?": yes, if first into the tier."""
    state = table(2)
    state.seats[0].tracks = [[3], [3], [3], [3]]
    run_frames(state, frame("research", 0, ints=(1, SCIENCE)))
    answer(state, Choose(index=0))
    assert state.seats[0].tracks[SCIENCE] == [4] and state.seats[0].landmarks == [2]


def test_faq_academic_research_and_lithium_ion_same_turn() -> None:
    """Guide "Si j'utilise ... Recherches universitaires, est-ce que je peux aussi utiliser ...
    Batterie Lithium-Ion lors du même tour ?": yes, each icon once, each space once a turn."""
    state = table(2)
    seat = state.seats[0]
    seat.tracks = [[1], [6], [1], [4]]
    seat.tech = [TechOwned(card=7, row=1)]
    state.seats[1].tracks = [[10], [10], [10], [10]]
    run_frames(state, advance_frame(0, SCIENCE, FULL))  # Academic Research: repeat
    settle_turn(state)  # place the Academy, repeat exploration 1 (2 tiles)
    assert seat.activated == ["science:7", "exploration:1"] and len(seat.territory) == 2
    run_frames(state, frame("upgrade_card", 0, ints=(7,)))  # Lithium-Ion: repeat again
    assert decision(state) == "track"
    offered = {o.index for o in options(state) if isinstance(o, Choose)}
    spent = {TRACKS.index(k.split(":")[0]) for k in seat.activated if not k.startswith("icon:")}
    assert offered and not offered & spent


def test_top_row_cards_cannot_be_upgraded() -> None:
    """ "Amélioration": cards in the top row cannot be upgraded any more."""
    state = table(2)
    state.seats[0].tech = [TechOwned(card=8, row=2)]
    state.agenda.append(frame("upgrade", 0, optional=True))
    assert options(state) == [Decline()]

"""THIS ERA tapestry cards, one test (or more) per card, exact effects in a built position.

Sources: rulebook "Capacités des cartes Fresque" (a THIS ERA ability applies from the moment the
card is played until the start of your next income turn, only while visible) and each card's
text as summarised in ``content/tapestry_cards.json`` (reference ``tapestry_cards.json#id``);
the player aid's income-turn step 2 ("Fresque (2-3-4)").
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import (
    Advance,
    Choose,
    ChooseResource,
    Conquer,
    Decline,
    Explore,
    Invent,
    PayBonus,
    PlaceBuilding,
    PlayTapestry,
    PlayTrap,
    TakeIncome,
    Upgrade,
)
from domain.tapestry.engine import frame
from domain.tapestry.rules import exploration_vp, has_active, rules_neighbours
from domain.tapestry.state import TapestryState, TechOwned
from domain.tapestry.tracks import NONE, advance_frame
from domain.tapestry.turns import advance_commands
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    benefit,
    card,
    give_hex,
    in_force,
    neighbour_territory,
    options,
    play,
    run_frames,
    settle_turn,
    vp_of,
)

EXPLORATION, SCIENCE, TECHNOLOGY, MILITARY = range(4)


def _only_in_deck(state: TapestryState, *keys: str) -> None:
    """Leave only the named cards in the tapestry deck (the others go to the discard)."""
    kept = {card(k) for k in keys}
    state.tapestry_discard = [
        c.id for c in C.TAPESTRY_CARDS.values() if c.id not in kept for _ in range(c.copies)
    ]


def _first_explore(state: TapestryState) -> Explore:
    found = [o for o in options(state) if isinstance(o, Explore)]
    return found[0]


# -- the eight cards added last -------------------------------------------------------------
def test_age_of_sail_draws_three_tiles_and_gives_one_for_3_vp() -> None:
    """Age of Sail (Âge de la Navigation, tapestry_cards.json#3): whenever you explore, first
    draw 3 territory tiles; before placing, you may give 1 tile to an opponent for 3 VP."""
    state = table(3)
    in_force(state, 0, "age_of_sail")
    events = benefit(state, 0, "explore")
    drawn = [t for e in of(events, ev.TerritoryTilesDrawn) if e.seat == 0 for t in e.tiles]
    assert len(drawn) == 3 and sorted(state.seats[0].territory) == sorted(drawn)
    assert decision(state) == "age_of_sail"
    tile = min(drawn)
    assert Choose(index=100 + tile) in options(state) and Choose(index=200 + tile) in options(state)
    events = answer(state, Choose(index=200 + tile))
    assert of(events, ev.TerritoryTileGiven) == [ev.TerritoryTileGiven(seat=0, to=2, tile=tile)]
    assert state.seats[2].territory == [tile] and tile not in state.seats[0].territory
    assert state.seats[0].vp == 3
    assert decision(state) == "explore"
    assert {o.tile for o in options(state) if isinstance(o, Explore)} == set(drawn) - {tile}


def test_age_of_sail_give_is_optional_and_the_card_must_be_in_force() -> None:
    """Age of Sail: declining keeps the 3 tiles; without the card an exploration draws none."""
    state = table(3)
    in_force(state, 0, "age_of_sail")
    benefit(state, 0, "explore")
    answer(state, Decline())
    assert len(state.seats[0].territory) == 3 and state.seats[0].vp == 0
    assert decision(state) == "explore"
    plain = table(3)
    benefit(plain, 0, "explore")
    assert plain.seats[0].territory == [] and decision(plain) == "turn"


def test_alliance_names_an_opponent_and_forbids_conquests_both_ways() -> None:
    """Alliance (tapestry_cards.json#5): choose an opponent; this era you cannot conquer each
    other's territories."""
    state = table(3)
    play(state, 0, "alliance")
    assert decision(state) == "alliance" and options(state) == [Choose(index=1), Choose(index=2)]
    answer(state, Choose(index=1))
    assert state.seats[0].civ_tokens["_alliance"] == [1]
    mine = neighbour_territory(state, 0)
    give_hex(state, mine, 1)
    state.agenda.append(frame("conquer", 0, ints=(0,)))
    cell = state.hexes[mine]
    assert Conquer(q=cell.q, r=cell.r) not in options(state)
    state.agenda.pop()
    theirs = neighbour_territory(state, 1)
    give_hex(state, theirs, 0)
    state.agenda.append(frame("conquer", 1, ints=(0,)))
    cell = state.hexes[theirs]
    assert Conquer(q=cell.q, r=cell.r) not in GAME.legal_actions(state, 1)
    state.agenda.pop()
    other = neighbour_territory(state, 2)
    give_hex(state, other, 0)
    state.agenda.append(frame("conquer", 2, ints=(0,)))
    cell = state.hexes[other]
    assert Conquer(q=cell.q, r=cell.r) in GAME.legal_actions(state, 2)


def test_alliance_gives_the_benefit_of_each_upgrade_of_the_ally() -> None:
    """Alliance: whenever the ally upgrades a tech card, you gain the same benefit after it."""
    state = table(3)
    in_force(state, 0, "alliance")
    state.seats[0].civ_tokens["_alliance"] = [1]
    state.seats[1].tech = [TechOwned(card=8, row=0)]  # Calendar: circle 1 culture
    state.seats[2].tech = [TechOwned(card=9, row=0)]  # Canned Food: circle 1 food
    run_frames(state, frame("upgrade_card", 1, ints=(8,)), frame("upgrade_card", 2, ints=(9,)))
    assert state.seats[1].resources == [0, 0, 0, 1]
    assert state.seats[0].resources == [0, 0, 0, 1]  # nothing for seat 2's upgrade
    assert state.seats[2].resources == [0, 0, 1, 0]


def test_exploitation_doubles_the_tile_benefit_instead_of_the_vp() -> None:
    """Exploitation (tapestry_cards.json#18): a tile you place may give its benefit twice but
    no VP for matching sides."""
    for double in (True, False):
        state = table(2)
        in_force(state, 0, "exploitation")
        state.seats[0].territory = [1]  # tile 1: 1 coin
        benefit(state, 0, "explore")
        best = max(
            (o for o in options(state) if isinstance(o, Explore)),
            key=lambda o: exploration_vp(state, state.hex_index(o.q, o.r), 1, o.rotation),
        )
        vp = exploration_vp(state, state.hex_index(best.q, best.r), 1, best.rotation)
        assert vp > 0
        answer(state, best)
        assert decision(state) == "exploitation"
        assert state.seats[0].resources[0] == 1 and state.seats[0].vp == vp
        answer(state, Choose(index=int(double)))
        assert state.seats[0].resources[0] == (2 if double else 1)
        assert state.seats[0].vp == (0 if double else vp)


def test_marriage_of_state_shares_the_partners_benefits_on_one_track() -> None:
    """Marriage of State (Mariage Arrangé, tapestry_cards.json#23): choose a track and an
    opponent; after they gain a benefit on that track, you gain it too (not the bonus)."""
    state = table(3)
    play(state, 0, "marriage_of_state")
    assert decision(state) == "marriage" and len(options(state)) == 8
    answer(state, Choose(index=1 * 10 + EXPLORATION))
    assert state.seats[0].civ_tokens["_marriage"] == [1, EXPLORATION]
    run_frames(state, advance_frame(1, EXPLORATION, 0))  # Scouting: 2 territory tiles
    assert len(state.seats[1].territory) == 2 and len(state.seats[0].territory) == 2
    run_frames(state, advance_frame(2, EXPLORATION, 0), advance_frame(1, TECHNOLOGY, NONE))
    assert len(state.seats[0].territory) == 2


def test_marriage_of_state_never_shares_a_bonus_nor_a_renaissance_move() -> None:
    """Marriage of State: a bonus is not shared; Renaissance gives no benefit, so nothing."""
    state = table(2)
    in_force(state, 0, "marriage_of_state")
    state.seats[0].civ_tokens["_marriage"] = [1, SCIENCE]
    state.seats[1].tracks[SCIENCE] = [1]
    state.seats[1].resources = [1, 0, 0, 0]
    run_frames(state, advance_frame(1, SCIENCE, 0))  # Mathematics: 1 card; bonus: house
    assert decision(state) == "bonus" and GAME.pending(state).seats == (1,)
    answer(state, PayBonus(payment=("coin",)))
    settle_turn(state)
    assert len(state.seats[1].hand) == 1 and state.seats[1].taken[1] == 1
    assert len(state.seats[0].hand) == 1 and state.seats[0].taken == [0, 0, 0, 0]
    state.seats[0].civ_tokens["_marriage"] = [1, EXPLORATION]
    play(state, 1, "renaissance")
    settle_turn(state)
    assert state.seats[1].tracks[EXPLORATION] == [1] and state.seats[0].territory == []


def test_mercantilism_converts_food_after_income_for_2_vp_each() -> None:
    """Mercantilism (tapestry_cards.json#24): when you gain income this era you may convert
    food into other resources, 2 VP per food converted."""
    state = table(2)
    state.seats[0].hand = [card("mercantilism")]
    state.seats[0].resources = [0, 0, 2, 0]
    act(state, 0, TakeIncome())
    while decision(state) != "mercantilism":
        answer(state, options(state)[0])
    before = list(state.seats[0].resources)
    vp = state.seats[0].vp
    assert before[2] == 3  # 2 + the food income
    answer(state, ChooseResource(resource="coin"))
    answer(state, ChooseResource(resource="culture"))
    answer(state, Decline())
    assert state.seats[0].resources == [before[0] + 1, before[1], 1, before[3] + 1]
    assert state.seats[0].vp == vp + 4


def test_revisionism_resource_with_a_landmark_armory_without() -> None:
    """Revisionism (tapestry_cards.json#34): a track landmark you claim comes with 1 resource
    of your choice; reaching a tier whose landmark is taken gives an armory."""
    state = table(2)
    in_force(state, 0, "revisionism")
    state.seats[0].tracks[TECHNOLOGY] = [3]
    run_frames(state, advance_frame(0, TECHNOLOGY, NONE))
    settle_turn(state)  # place the Forge, take a coin
    assert state.seats[0].landmarks == [10] and state.seats[0].resources == [1, 0, 0, 0]
    state.seats[0].tracks[EXPLORATION] = [3]
    state.landmark_owner["9"] = 1
    run_frames(state, advance_frame(0, EXPLORATION, NONE))
    settle_turn(state)
    assert state.seats[0].taken == [0, 0, 0, 1] and state.seats[0].resources == [1, 0, 0, 0]


def test_terraforming_builds_on_impassable_plots_for_5_vp() -> None:
    """Terraforming (tapestry_cards.json#39): buildings may go on impassable plots this era,
    5 VP each time."""
    state = table(2)
    seat = state.seats[0]
    rocky = PlaceBuilding(row=0, col=8, orientation=0)  # capital 2: (0, 8) is impassable
    assert seat.grid_blocked[0][8] == "1"
    benefit(state, 0, "gain_house")
    assert rocky not in options(state)
    answer(state, options(state)[0])
    in_force(state, 0, "terraforming")
    benefit(state, 0, "gain_house")
    assert rocky in options(state)
    events = answer(state, rocky)
    assert vp_of(events, 0, "terraforming") == 5
    assert seat.grid_blocked[0][8] == "0" and seat.grid_filled[0][8] == "H"
    assert of(events, ev.PlotsCleared) == [ev.PlotsCleared(seat=0, cells=((0, 8),))]


def test_tyranny_plays_a_drawn_card_over_it_once_for_5_vp() -> None:
    """Tyranny (tapestry_cards.json#43): a tapestry card you gain this era may be played at
    once over this card; the first (and only) time, 5 VP."""
    state = table(2)
    in_force(state, 0, "tyranny")
    _only_in_deck(state, "capitalism")
    benefit(state, 0, "gain_tapestry_card")
    assert state.seats[0].hand == [card("capitalism")] and decision(state) == "tyranny"
    assert options(state) == [PlayTapestry(card=card("capitalism")), Decline()]
    answer(state, PlayTapestry(card=card("capitalism")))
    assert state.seats[0].vp == 5
    assert [(p.card, p.era) for p in state.seats[0].mat] == [(43, 1), (card("capitalism"), 1)]
    assert has_active(state.seats[0], "capitalism") and not has_active(state.seats[0], "tyranny")
    state.tapestry_discard = []
    benefit(state, 0, "gain_tapestry_card")
    assert decision(state) == "turn" and state.seats[0].vp == 5


# -- THIS ERA cards handled by the track, tech, map and income modules ----------------------
def test_academia_3_vp_per_invention_and_per_card_drawn() -> None:
    """Academia (tapestry_cards.json#1): each tech card invented and each tapestry card drawn
    this era is worth 3 VP."""
    state = table(2)
    in_force(state, 0, "academia")
    benefit(state, 0, "gain_tapestry_card", 2)
    assert state.seats[0].vp == 6
    benefit(state, 0, "invent")
    answer(state, Invent(card=state.tech_display[0]))
    assert state.seats[0].vp == 9


def test_broker_of_peace_no_military_and_3_vp_per_opponent_advance() -> None:
    """Broker of Peace (Traité de Paix, tapestry_cards.json#7): you cannot advance on the
    military track; each opponent's military advance gives you 3 VP."""
    state = table(2)
    in_force(state, 0, "broker_of_peace")
    state.seats[0].resources = [1, 1, 1, 1]
    assert all(a.track != "military" for a in advance_commands(state, 0) if isinstance(a, Advance))
    run_frames(state, advance_frame(0, MILITARY, NONE), advance_frame(1, MILITARY, NONE))
    assert state.seats[0].tracks[MILITARY] == [0] and state.seats[1].tracks[MILITARY] == [1]
    assert state.seats[0].vp == 3


def test_capitalism_2_vp_per_coin_of_income_and_a_coin_per_market() -> None:
    """Capitalism (tapestry_cards.json#8): your income pays 2 VP per coin earned; each market
    gained brings a coin."""
    state = table(2)
    in_force(state, 0, "capitalism")
    benefit(state, 0, "gain_market")
    assert state.seats[0].resources[0] == 1
    answer(state, options(state)[0])
    run_frames(state, frame("income", 0, ints=(4, 1)))
    assert state.seats[0].resources[0] == 3  # the market's coin + 2 coins of income
    assert state.seats[0].vp == 4


def test_empiricism_2_vp_per_science_advance_and_two_science_rolls() -> None:
    """Empiricism (tapestry_cards.json#16): 2 VP per science advance; the science die is rolled
    twice and you keep one result."""
    state = table(2)
    in_force(state, 0, "empiricism")
    run_frames(state, advance_frame(0, SCIENCE, NONE))
    assert state.seats[0].vp == 2
    events = benefit(state, 0, "research_no_benefit")
    assert len(of(events, ev.ScienceDieRolled)) == 2


def test_golden_age_ignores_requirements_and_scores_3_per_upgrade() -> None:
    """Golden Age (tapestry_cards.json#20): upgrades ignore the top-row requirement and each
    upgrade scores 3 VP."""
    state = table(2)
    state.seats[0].tech = [TechOwned(card=8, row=1)]  # Calendar: exploration II needed
    state.agenda.append(frame("upgrade", 0, optional=True))
    assert options(state) == [Decline()]
    in_force(state, 0, "golden_age")
    assert options(state) == [Upgrade(card=8), Decline()]
    answer(state, Upgrade(card=8))
    assert state.seats[0].vp == 3 + 7


def test_industrialism_circle_benefit_on_invention() -> None:
    """Industrialism (tapestry_cards.json#22): each invented card gives its circle benefit at
    once and stays in the bottom row."""
    state = table(2)
    in_force(state, 0, "industrialism")
    state.tech_display = [8, 9, 13]
    benefit(state, 0, "invent")
    answer(state, Invent(card=8))  # Calendar: circle 1 culture
    assert state.seats[0].resources == [0, 0, 0, 1]
    assert state.seats[0].tech[0].card == 8 and state.seats[0].tech[0].row == 0


def test_militarism_adds_an_outpost_to_an_explored_tile() -> None:
    """Militarism (tapestry_cards.json#26): an outpost may go on each territory you explore."""
    state = table(2)
    in_force(state, 0, "militarism")
    state.seats[0].territory = [1]
    benefit(state, 0, "explore")
    choice = _first_explore(state)
    answer(state, choice)
    cell = state.hexes[state.hex_index(choice.q, choice.r)]
    assert [o.seat for o in cell.outposts] == [0] and cell.controller() == 0


def test_monarchy_3_vp_per_income_building() -> None:
    """Monarchy (tapestry_cards.json#27): each income building placed in your capital this era
    scores 3 VP."""
    state = table(2)
    in_force(state, 0, "monarchy")
    benefit(state, 0, "gain_farm")
    answer(state, options(state)[0])
    assert state.seats[0].vp == 3 and state.seats[0].taken[2] == 1


def test_pillage_and_plunder_both_dice_and_no_trap() -> None:
    """Pillage and Plunder (tapestry_cards.json#30): toppling an opponent's outpost gives both
    conquer dice, and no Trap can be played against you."""
    state = table(2)
    in_force(state, 0, "pillage_and_plunder")
    target = neighbour_territory(state, 0)
    give_hex(state, target, 1)
    state.seats[1].hand = [card("trap")]
    benefit(state, 0, "conquer")
    cell = state.hexes[target]
    events = answer(state, Conquer(q=cell.q, r=cell.r))
    assert decision(state) != "trap" and not of(events, ev.TrapPlayed)
    assert cell.controller() == 0 and state.seats[1].hand == [card("trap")]
    assert decision(state) != "choose_die"  # both dice, no choice


def test_pirate_rule_conquered_tile_pays_its_benefit() -> None:
    """Pirate Rule (tapestry_cards.json#31): a territory tile you conquer also gives its
    printed benefit (besides the conquer die)."""
    state = table(2)
    in_force(state, 0, "pirate_rule")
    target = next(i for i in rules_neighbours(state, state.seats[0].home) if i >= 0)
    state.hexes[target].printed = False
    state.hexes[target].tile = 4  # 1 culture
    state.hexes[target].outposts = []
    benefit(state, 0, "conquer")
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    assert state.seats[0].resources[3] == 1


def test_theocracy_no_science_and_4_vp_per_new_tier() -> None:
    """Theocracy (Théocratie, tapestry_cards.json#40): no science advance this era; 4 VP each
    time you enter a new tier."""
    state = table(2)
    in_force(state, 0, "theocracy")
    state.seats[0].tracks[TECHNOLOGY] = [3]
    run_frames(state, advance_frame(0, SCIENCE, NONE), advance_frame(0, TECHNOLOGY, NONE))
    settle_turn(state)
    assert state.seats[0].tracks[SCIENCE] == [0] and state.seats[0].tracks[TECHNOLOGY] == [4]
    assert state.seats[0].vp == 4


def test_wartime_economy_free_any_resource_bonuses() -> None:
    """Wartime Economy (tapestry_cards.json#44): every bonus costing 1 resource of your choice
    is free this era (Rafts: a tapestry card)."""
    state = table(2)
    in_force(state, 0, "wartime_economy")
    state.seats[0].tracks[EXPLORATION] = [1]
    run_frames(state, advance_frame(0, EXPLORATION, 0))
    while decision(state) != "bonus":
        answer(state, options(state)[0])
    assert options(state) == [PayBonus(), Decline()]
    answer(state, PayBonus())
    assert len(state.seats[0].hand) == 1 and state.seats[0].resources == [0, 0, 0, 0]


def test_a_trap_in_response_topples_the_attacker_and_pays_a_resource() -> None:
    """Trap (Embuscade, "Cartes riposte", tapestry_cards.json#42): discarded when an opponent
    conquers your territory, their outpost is toppled, you keep control and gain 1 resource of
    your choice; the attacker still takes a conquer die."""
    state = table(2)
    target = neighbour_territory(state, 0)
    give_hex(state, target, 1)
    state.seats[1].hand = [card("trap")]
    benefit(state, 0, "conquer")
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    answer(state, PlayTrap())
    assert decision(state) == "resource" and GAME.pending(state).seats == (1,)
    answer(state, ChooseResource(resource="worker"))
    assert state.seats[1].resources == [0, 1, 0, 0] and cell.controller() == 1
    assert state.tapestry_discard == [card("trap")] and decision(state) == "choose_die"

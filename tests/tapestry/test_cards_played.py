"""WHEN PLAYED tapestry cards (and the Trap played as a tapestry), exact effects per card.

Sources: rulebook "Capacités des cartes Fresque" (a WHEN PLAYED ability resolves once when the
card is played), "Cartes riposte" (a Trap may be played as a normal tapestry card), and each
card's text as summarised in ``content/tapestry_cards.json`` (reference
``tapestry_cards.json#id``).
"""

from __future__ import annotations

from domain.tapestry import events as ev
from domain.tapestry.cards_played import colonies
from domain.tapestry.commands import Choose, ChooseResource, Decline, Invent, PayBonus
from domain.tapestry.rules import has_active
from domain.tapestry.state import TRACK_IDS, Played, TechOwned
from domain.tapestry.turns import advance_commands
from tests.tapestry.helpers import GAME, decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    benefit,
    card,
    give_hex,
    in_force,
    neighbour_territory,
    options,
    play,
    settle_turn,
)

EXPLORATION, SCIENCE, TECHNOLOGY, MILITARY = range(4)


def test_age_of_discovery_everyone_advances_only_you_gain() -> None:
    """Age of Discovery (tapestry_cards.json#2): roll the science die; every player advances
    on that track, only you gain the benefit (and may pay the bonus)."""
    state = table(3)
    events = play(state, 0, "age_of_discovery")
    track = TRACK_IDS.index(of(events, ev.ScienceDieRolled)[0].track)
    settle_turn(state)
    assert [s.tracks[track][0] >= 1 for s in state.seats] == [True, True, True]
    assert [s.tracks[track] for s in state.seats[1:]] == [[1], [1]]
    assert f"{TRACK_IDS[track]}:1" in state.seats[0].activated
    for other in state.seats[1:]:
        assert other.activated == [] and other.hand == [] and other.territory == []


def test_age_of_wonders_fewest_most_or_between() -> None:
    """Age of Wonders (tapestry_cards.json#4): fewest landmarks 2 resources, most 12 VP,
    otherwise (ties too) 1 resource and 6 VP."""
    for mine, expected_vp, resources in ((0, 0, 2), (2, 12, 0), (1, 6, 1)):
        state = table(3)
        state.seats[0].landmarks = list(range(1, mine + 1))
        state.seats[1].landmarks = [10]
        state.seats[2].landmarks = [11]
        play(state, 0, "age_of_wonders")
        for _ in range(resources):
            assert decision(state) == "resource"
            answer(state, ChooseResource(resource="coin"))
        assert state.seats[0].vp == expected_vp and state.seats[0].resources[0] == resources
        assert decision(state) == "turn"


def test_boast_of_superiority_4_vp_per_track_led() -> None:
    """Boast of Superiority (tapestry_cards.json#6): 4 VP per track where no token is further
    than yours (ties count)."""
    state = table(3)
    state.seats[0].tracks = [[3], [2], [0], [5]]
    state.seats[1].tracks = [[2], [2], [0], [1]]
    state.seats[2].tracks = [[1], [0], [1], [1]]
    play(state, 0, "boast_of_superiority")
    assert state.seats[0].vp == 12


def test_coal_baron_explores_with_a_new_tile_then_neighbours_take_one() -> None:
    """Coal Baron (Magnat du Charbon, tapestry_cards.json#9): take a territory tile and explore
    with it; then each neighbour takes a tile."""
    state = table(3)
    events = play(state, 0, "coal_baron")
    tile = of(events, ev.TerritoryTilesDrawn)[0].tiles[0]
    assert decision(state) == "explore"
    assert {o.tile for o in options(state)} == {tile}  # type: ignore[attr-defined]
    assert state.seats[1].territory == [] and state.seats[2].territory == []
    answer(state, options(state)[0])
    settle_turn(state)
    assert any(h.tile == tile for h in state.hexes) and state.seats[0].territory == []
    assert len(state.seats[1].territory) == 1 and len(state.seats[2].territory) == 1


def test_colonialism_one_resource_per_land_type_of_a_tile() -> None:
    """Colonialism (Colonialisme, tapestry_cards.json#10): a territory tile you control gives 1
    resource per land type (mountain worker, grassland culture, forest food, desert coin)."""
    state = table(2)
    target = neighbour_territory(state, 0)
    state.hexes[target].printed = False
    state.hexes[target].tile = 14  # grassland and forest
    give_hex(state, target, 0)
    assert colonies(state, 0) == [target]  # not the printed start territory
    play(state, 0, "colonialism")  # a single tile: chosen at once
    assert state.seats[0].resources == [0, 0, 1, 1]


def test_dark_ages_back_on_three_tracks_three_forward_on_one() -> None:
    """Dark Ages (Âge Sombre, tapestry_cards.json#11): back one space on the three other tracks
    (a token at the start counts as moved), then three spaces forward on the chosen one; no
    benefit or bonus (the landmark of a new tier is still claimed)."""
    state = table(2)
    state.seats[0].tracks = [[2], [2], [0], [2]]
    play(state, 0, "dark_ages")
    assert decision(state) == "card_track"
    answer(state, Choose(index=SCIENCE))
    settle_turn(state)
    assert state.seats[0].tracks == [[1], [5], [0], [1]]
    assert state.seats[0].landmarks == [2]  # Apothecary, science tier II
    assert state.seats[0].activated == [] and state.seats[0].resources == [0, 0, 0, 0]


def test_democracy_draw_three_then_discard_for_2_vp_each() -> None:
    """Democracy (tapestry_cards.json#12): draw 3 tapestry cards, then discard any number from
    your hand for 2 VP each."""
    state = table(2)
    play(state, 0, "democracy")
    hand = list(state.seats[0].hand)
    assert len(hand) == 3 and decision(state) == "democracy"
    answer(state, Choose(index=hand[0]))
    answer(state, Choose(index=state.seats[0].hand[0]))
    answer(state, Decline())
    assert len(state.seats[0].hand) == 1 and state.seats[0].vp == 4
    assert len(state.tapestry_discard) == 2


def test_dictatorship_advances_and_closes_the_track_to_opponents() -> None:
    """Dictatorship (Dictature, tapestry_cards.json#13): advance on a track with its benefit;
    opponents may not advance there until after your next turn."""
    state = table(2)
    state.seats[1].resources = [1, 1, 1, 1]
    play(state, 0, "dictatorship")
    answer(state, Choose(index=EXPLORATION))
    assert state.seats[0].tracks[EXPLORATION] == [1] and len(state.seats[0].territory) == 2
    assert state.seats[0].civ_tokens["_dictatorship"] == [EXPLORATION, 0]
    tracks = {a.track for a in advance_commands(state, 1)}  # type: ignore[attr-defined]
    assert "exploration" not in tracks and "science" in tracks


def test_diplomacy_everyone_a_resource_you_an_income_building() -> None:
    """Diplomacy (Diplomatie, tapestry_cards.json#14): each player gains 1 resource of its
    choice; you also gain an income building of your choice."""
    state = table(3)
    play(state, 0, "diplomacy")
    for seat, resource in ((0, "coin"), (1, "food"), (2, "culture")):
        assert GAME.pending(state).seats == (seat,) and decision(state) == "resource"
        answer(state, ChooseResource(resource=resource))
    assert decision(state) == "choose" and len(options(state)) == 4
    answer(state, Choose(index=1))  # a house
    settle_turn(state)
    assert [s.resources for s in state.seats] == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert state.seats[0].taken == [0, 1, 0, 0]


def test_dystopia_takes_any_free_landmark() -> None:
    """Dystopia (tapestry_cards.json#15): gain any landmark still on the landmark board."""
    state = table(2)
    state.landmark_owner = {str(lm): 1 for lm in range(1, 18)}
    play(state, 0, "dystopia")
    settle_turn(state)
    assert state.seats[0].landmarks == [18]


def test_espionage_copies_a_visible_card_of_any_mat() -> None:
    """Espionage (Espionnage, tapestry_cards.json#17): copy the ability of a tapestry card
    visible on an income mat (a WHEN PLAYED resolves, a THIS ERA is in force for you)."""
    state = table(2)
    state.seats[1].mat = [Played(card=card("boast_of_superiority"), era=1)]
    state.seats[0].tracks = [[1], [1], [1], [1]]
    play(state, 0, "espionage")  # the only visible card: copied at once
    assert state.seats[0].vp == 16
    state = table(2)
    state.seats[1].mat = [Played(card=card("academia"), era=1)]
    play(state, 0, "espionage")
    assert has_active(state.seats[0], "academia")
    benefit(state, 0, "gain_tapestry_card")
    assert state.seats[0].vp == 3


def test_feudalism_a_resource_or_3_vp_per_landmark() -> None:
    """Feudalism (tapestry_cards.json#19): either 1 resource, or 3 VP per landmark you own."""
    state = table(2)
    state.seats[0].landmarks = [1, 2]
    play(state, 0, "feudalism")
    assert options(state) == [Choose(index=0), Choose(index=1)]
    answer(state, Choose(index=1))
    assert state.seats[0].vp == 6 and state.seats[0].resources == [0, 0, 0, 0]


def test_guilds_resources_for_vp_or_vp_for_resources() -> None:
    """Guilds (tapestry_cards.json#21): pay 1/2/3 resources for 5/10/15 VP, or 5/10/15 VP (that
    you have) for 1/2/3 resources."""
    state = table(2)
    state.seats[0].resources = [2, 0, 0, 0]
    play(state, 0, "guilds")
    assert options(state) == [Choose(index=1), Choose(index=2)]
    answer(state, Choose(index=2))
    settle_turn(state)
    assert state.seats[0].vp == 10 and state.seats[0].resources == [0, 0, 0, 0]
    play(state, 0, "guilds")
    assert options(state) == [Choose(index=-1), Choose(index=-2)]
    answer(state, Choose(index=-1))
    answer(state, ChooseResource(resource="food"))
    assert state.seats[0].vp == 5 and state.seats[0].resources == [0, 0, 1, 0]


def test_meritocracy_invent_then_2_vp_per_tech_card() -> None:
    """Meritocracy (tapestry_cards.json#25): invent, then 2 VP per tech card you have."""
    state = table(2)
    state.seats[0].tech = [TechOwned(card=1)]
    state.tech_display = [8, 9, 13]
    play(state, 0, "meritocracy")
    answer(state, Invent(card=9))
    assert [t.card for t in state.seats[0].tech] == [1, 9] and state.seats[0].vp == 4


def test_oil_magnate_you_and_neighbours_may_advance_only_you_gain() -> None:
    """Oil Magnate (Magnat du Pétrole, tapestry_cards.json#28): choose a track; you and each
    neighbour may advance once there; only you gain the benefit."""
    state = table(3)
    play(state, 0, "oil_magnate")
    answer(state, Choose(index=EXPLORATION))
    assert decision(state) == "research" and GAME.pending(state).seats == (0,)
    answer(state, Choose(index=0))
    assert GAME.pending(state).seats == (1,)
    answer(state, Choose(index=0))
    assert GAME.pending(state).seats == (2,)
    answer(state, Choose(index=1))  # may decline
    settle_turn(state)
    assert [s.tracks[EXPLORATION] for s in state.seats] == [[1], [1], [0]]
    assert [len(s.territory) for s in state.seats] == [2, 0, 0]


def test_olympic_host_workers_for_10_vp_and_the_hosts_reward() -> None:
    """Olympic Host (Jeux Olympiques, tapestry_cards.json#29): from you round the table each
    may pay a worker for 10 VP; you then gain an income building if an opponent paid, else a
    coin."""
    for opponent_pays in (True, False):
        state = table(3)
        for seat in state.seats:
            seat.resources = [0, 1, 0, 0]
        play(state, 0, "olympic_host")
        answer(state, Choose(index=0))
        answer(state, Choose(index=0) if opponent_pays else Decline())
        answer(state, Decline())
        if opponent_pays:
            assert decision(state) == "choose"
            answer(state, Choose(index=0))  # a market
        settle_turn(state)
        assert [s.vp for s in state.seats] == [10, 10 if opponent_pays else 0, 0]
        assert state.seats[0].taken[0] == int(opponent_pays)
        assert state.seats[0].resources[0] == (0 if opponent_pays else 1)


def test_plea_for_aid_2_vp_and_a_resource_per_track_where_all_lead() -> None:
    """Plea for Aid (tapestry_cards.json#32): for each track where every other token is
    further than yours, 2 VP and 1 resource."""
    state = table(3)
    state.seats[0].tracks = [[0], [1], [2], [3]]
    state.seats[1].tracks = [[1], [2], [2], [0]]
    state.seats[2].tracks = [[2], [2], [3], [0]]
    play(state, 0, "plea_for_aid")
    answer(state, ChooseResource(resource="coin"))
    answer(state, ChooseResource(resource="worker"))
    assert state.seats[0].vp == 4 and state.seats[0].resources == [1, 1, 0, 0]


def test_renaissance_each_track_once_bonuses_free_no_benefit() -> None:
    """Renaissance (tapestry_cards.json#33): advance once on every track without benefits; any
    bonus reached is free."""
    state = table(2)
    state.seats[0].tracks = [[1], [1], [1], [1]]
    play(state, 0, "renaissance")
    while decision(state) != "turn":
        found = options(state)
        answer(state, PayBonus() if PayBonus() in found else found[0])
    seat = state.seats[0]
    assert seat.tracks == [[2], [2], [2], [2]]
    assert len(seat.hand) == 1  # Rafts' bonus (Mathematics' benefit card is not gained)
    assert seat.taken == [1, 1, 0, 1] and seat.territory == []


def test_revolution_a_resource_or_up_to_three_outposts_stand_up() -> None:
    """Revolution (Révolution, tapestry_cards.json#35): a resource, or up to 3 territories where
    your toppled outpost stands up and the opposing outpost falls."""
    state = table(2)
    target = neighbour_territory(state, 0)
    give_hex(state, target, 0, toppled=True)
    give_hex(state, target, 1)
    play(state, 0, "revolution")
    answer(state, Choose(index=1))
    standing = [(o.seat, o.toppled) for o in state.hexes[target].outposts]
    assert standing == [(0, False), (1, True)] and state.hexes[target].controller() == 0


def test_socialism_moves_to_the_nearest_opponent_without_benefit() -> None:
    """Socialism (Socialisme, tapestry_cards.json#36): on a track, move forward or back to the
    nearest opponent's space; no benefit or bonus."""
    state = table(3)
    state.seats[0].tracks[MILITARY] = [2]
    state.seats[1].tracks[MILITARY] = [5]
    state.seats[2].tracks[MILITARY] = [0]
    state.seats[1].tracks[EXPLORATION] = [1]
    play(state, 0, "socialism")
    assert Choose(index=MILITARY * 100 + 0) in options(state)
    assert Choose(index=MILITARY * 100 + 5) not in options(state)
    assert Choose(index=EXPLORATION * 100 + 1) in options(state)
    answer(state, Choose(index=EXPLORATION * 100 + 1))
    assert state.seats[0].tracks[EXPLORATION] == [1] and state.seats[0].territory == []


def test_steam_tycoon_face_up_invent_and_upgrade_then_neighbours_draw() -> None:
    """Steam Tycoon (Magnat du Rail, tapestry_cards.json#37): invent a face-up tech card and
    upgrade it; then the right and the left neighbours invent the deck's top card."""
    state = table(3)
    state.tech_display = [8, 9, 13]
    play(state, 0, "steam_tycoon")
    assert options(state) == [Invent(card=8), Invent(card=9), Invent(card=13)]
    answer(state, Invent(card=8))
    settle_turn(state)
    assert [(t.card, t.row) for t in state.seats[0].tech] == [(8, 1)]
    assert state.seats[0].resources == [0, 0, 0, 1]  # Calendar's circle
    assert len(state.seats[1].tech) == 1 and len(state.seats[2].tech) == 1


def test_technocracy_first_into_the_era_or_3_vp_per_opponent() -> None:
    """Technocracy (Technocratie, tapestry_cards.json#38): the first to enter this era invents
    and upgrades that card; otherwise 3 VP per opponent."""
    state = table(3)
    state.seats[0].income_turns = 2
    state.tech_display = [8, 9, 13]
    play(state, 0, "technocracy")
    answer(state, Invent(card=9))
    assert [(t.card, t.row) for t in state.seats[0].tech] == [(9, 1)]
    assert state.seats[0].resources == [0, 0, 1, 0] and state.seats[0].vp == 0
    state = table(3)
    play(state, 0, "technocracy")
    assert state.seats[0].vp == 6 and state.seats[0].tech == []


def test_trade_economy_an_opponents_space_benefit_their_bonus_free() -> None:
    """Trade Economy (Économie du Commerce, tapestry_cards.json#41): gain the benefit of an
    opponent's current space; if it has a bonus, that opponent gains it for free."""
    state = table(2)
    state.seats[1].tracks[TECHNOLOGY] = [2]  # Carpentry: 1 card; bonus: a market
    play(state, 0, "trade_economy")  # the only opponent space: chosen at once
    assert decision(state) == "place_building" and GAME.pending(state).seats == (1,)
    settle_turn(state)
    assert len(state.seats[0].hand) == 1 and state.seats[0].taken == [0, 0, 0, 0]
    assert state.seats[1].taken == [1, 0, 0, 0] and state.seats[1].hand == []


def test_trap_played_as_a_tapestry_scores_10_vp() -> None:
    """Trap (Embuscade, "Cartes riposte": any response card may be played as a tapestry;
    tapestry_cards.json#42): played so, 10 VP."""
    state = table(2)
    play(state, 0, "trap")
    assert state.seats[0].vp == 10 and state.seats[0].mat[-1].card == card("trap")


def test_espionage_copy_of_a_this_era_card_ends_with_the_era() -> None:
    """Espionage: a copied THIS ERA ability lasts until the spy's next income turn only."""
    state = table(2)
    state.seats[1].mat = [Played(card=card("monarchy"), era=1)]
    play(state, 0, "espionage")
    assert has_active(state.seats[0], "monarchy")
    state.seats[0].income_turns = 2
    assert not has_active(state.seats[0], "monarchy")
    in_force(state, 0, "theocracy")
    assert has_active(state.seats[0], "theocracy")


def test_espionage_sees_only_uncovered_cards_of_every_era() -> None:
    """Espionage: only visible cards may be copied -- the top card of each era space of every
    mat, face up ("Capacités des cartes Fresque": a covered card is inactive; F.À.Q. on the
    Heralds: only visible cards are copied)."""
    state = table(2)
    state.seats[1].mat = [
        Played(card=card("boast_of_superiority"), era=1),
        Played(card=card("monarchy"), era=1),  # played over Boast (Printing Press)
        Played(card=card("feudalism"), era=2),
        Played(card=card("guilds"), era=3, face_up=False),
    ]
    state.seats[0].mat = [Played(card=card("academia"), era=1)]
    state.seats[0].income_turns = 2
    play(state, 0, "espionage")
    expected = sorted(card(k) for k in ("monarchy", "feudalism", "academia"))
    assert options(state) == [Choose(index=c) for c in expected]

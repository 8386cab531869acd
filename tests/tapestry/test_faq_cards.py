"""F.À.Q. of the rulebook about tapestry cards: "Cartes Fresque particulières", the tapestry
questions of "Tours de revenus", the military guide's Trap and Nuclear Bomb questions, and
"Autres questions générales" (running out of cards).

Each test names its F.À.Q. entry (the French question, shortened) in its docstring.
"""

from __future__ import annotations

from domain.core import Event
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, Conquer, Decline, Invent, PlayTapestry, TakeIncome
from domain.tapestry.engine import frame
from domain.tapestry.gains import TOPPLE_KEY
from domain.tapestry.rules import has_active, rules_neighbours
from domain.tapestry.state import Played, TechOwned
from domain.tapestry.tracks import advance_frame
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    benefit,
    card,
    forced,
    give_hex,
    in_force,
    neighbour_territory,
    options,
    play,
    run_frames,
    settle_turn,
)

EXPLORATION, SCIENCE, TECHNOLOGY, MILITARY = range(4)


def _achievement(key: str) -> int:
    from domain.tapestry import content as C

    return next(a.id for a in C.ACHIEVEMENTS.values() if a.key == key)


# -- Cartes Fresque particulières -----------------------------------------------------------
def test_faq_marriage_of_state_and_espionage_cannot_loop() -> None:
    """F.À.Q. "Les cartes Fresque Mariage Arrangé et Espionnage peuvent-elles créer une boucle
    infinie ?": a copy of Marriage of State made while one is in force must choose another
    track, so the two marriages never feed each other."""
    state = table(2)
    in_force(state, 0, "marriage_of_state")
    state.seats[0].civ_tokens["_marriage"] = [1, EXPLORATION]
    play(state, 1, "espionage")  # the only visible card is seat 0's Marriage: copied at once
    assert has_active(state.seats[1], "marriage_of_state")
    assert decision(state) == "marriage" and GAME.pending(state).seats == (1,)
    assert {o.index % 10 for o in options(state)} == {SCIENCE, TECHNOLOGY, MILITARY}  # type: ignore[attr-defined]
    answer(state, Choose(index=0 * 10 + SCIENCE))
    run_frames(state, advance_frame(1, EXPLORATION, 0))  # Scouting: 2 tiles, shared once
    assert len(state.seats[1].territory) == 2 and len(state.seats[0].territory) == 2
    state.seats[0].tracks[SCIENCE] = [1]
    run_frames(state, advance_frame(0, SCIENCE, 0))  # Mathematics: 1 card, shared once
    settle_turn(state)
    assert len(state.seats[0].hand) == 1 and len(state.seats[1].hand) == 1


def test_faq_technocracy_played_over_a_this_era_card() -> None:
    """F.À.Q. "Technocratie par-dessus une carte CETTE ÈRE": when it is played, the big benefit
    if nobody else is in this era yet, otherwise the small one; the covered card stops."""
    for alone in (True, False):
        state = table(3)
        state.seats[0].income_turns = 2
        state.seats[1].income_turns = 1 if alone else 2
        in_force(state, 0, "academia")
        state.seats[0].hand = [card("technocracy")]
        state.tech_display = [8, 9, 13]
        benefit(state, 0, "play_tapestry_over_current")  # e.g. Printing Press
        assert [p.card for p in state.seats[0].mat] == [card("academia"), card("technocracy")]
        assert not has_active(state.seats[0], "academia")
        if alone:
            answer(state, Invent(card=8))
            assert [(t.card, t.row) for t in state.seats[0].tech] == [(8, 1)]
            assert state.seats[0].vp == 0  # Academia is covered: no 3 VP for the invention
        else:
            assert state.seats[0].vp == 6 and state.seats[0].tech == []


def test_faq_dictatorship_stops_socialism_on_its_track() -> None:
    """F.À.Q. "Si mon adversaire joue Dictature ... puis-je utiliser Socialisme pour avancer
    sur cette piste ?": Socialism may be played but moves nothing on the closed track."""
    state = table(2)
    state.seats[1].civ_tokens["_dictatorship"] = [MILITARY, 0]
    state.seats[1].tracks[MILITARY] = [4]
    state.seats[1].tracks[SCIENCE] = [2]
    play(state, 0, "socialism")  # science is the only open track with a target: at once
    assert state.seats[0].tracks[MILITARY] == [0] and state.seats[0].tracks[SCIENCE] == [2]
    state = table(2)
    state.seats[1].civ_tokens["_dictatorship"] = [MILITARY, 0]
    state.seats[1].tracks[MILITARY] = [4]
    play(state, 0, "socialism")  # nothing else to match: the card does nothing
    assert state.seats[0].tracks == [[0], [0], [0], [0]] and decision(state) == "turn"


def test_faq_colonialism_ignores_the_central_island() -> None:
    """F.À.Q. "La carte Colonialisme permet-elle de gagner des ressources de l'île centrale ?":
    no, only territory tiles count; printed territories are not tiles."""
    from domain.tapestry.rules import is_central_island

    state = table(2)
    island = next(i for i in range(len(state.hexes)) if is_central_island(state, i))
    state.hexes[island].outposts = []
    give_hex(state, island, 0)
    play(state, 0, "colonialism")
    assert state.seats[0].resources == [0, 0, 0, 0] and decision(state) == "turn"


def test_faq_revolution_cannot_take_back_an_achievement() -> None:
    """F.À.Q. "Si j'utilise Révolution ... puis-je retirer l'objectif 2 Avant-postes renversés
    d'un adversaire ?": no; but before it is earned, a raised outpost no longer counts."""
    state = table(2)
    near = rules_neighbours(state, state.seats[0].home)
    first, second = [i for i in near if i >= 0 and state.hexes[i].explored][:2]
    for index in (first, second):
        state.hexes[index].outposts = []
        give_hex(state, index, 0, toppled=True)
        give_hex(state, index, 1)
    topple = _achievement(TOPPLE_KEY)
    state.seats[1].achievements = [topple]
    state.seats[1].vp = 10
    play(state, 0, "revolution")
    answer(state, Choose(index=1))
    assert state.seats[1].achievements == [topple] and state.seats[1].vp == 10
    assert state.hexes[first].controller() == 0 and state.hexes[second].controller() == 0
    # before the achievement: one of seat 0's outposts stands up again, so seat 1's second
    # toppling leaves it with a single toppled outpost -- no achievement.
    state = table(2)
    state.hexes[first].outposts = []
    give_hex(state, first, 0, toppled=True)
    give_hex(state, first, 1)
    play(state, 0, "revolution")
    answer(state, Choose(index=1))
    other = neighbour_territory(state, 1)
    give_hex(state, other, 0)
    state.agenda.append(frame("conquer", 1, ints=(0,)))
    cell = state.hexes[other]
    act(state, 1, Conquer(q=cell.q, r=cell.r))
    settle_turn(state)
    assert topple not in state.seats[1].achievements


def test_faq_dark_ages_text() -> None:
    """F.À.Q. "Comment la carte Âge Sombre se combine-t-elle avec la piste Arts ?" (base text):
    back one space on 3 tracks if possible, then forward 3 times on the remaining one, no
    benefit nor bonus."""
    state = table(2)
    state.seats[0].tracks = [[5], [0], [1], [9]]
    play(state, 0, "dark_ages")
    answer(state, Choose(index=TECHNOLOGY))
    settle_turn(state)
    assert state.seats[0].tracks == [[4], [0], [4], [8]]
    assert state.seats[0].activated == [] and state.seats[0].hand == []
    assert state.seats[0].landmarks == [10]  # Forge: the first into technology tier II


# -- Tours de revenus ---------------------------------------------------------------------
def test_faq_no_tapestry_card_on_the_first_income_turn() -> None:
    """F.À.Q. "Dois-je jouer une carte Fresque sur Maîtrise du Feu lors du premier tour de
    revenus ?": no."""
    state = table(2)
    state.seats[0].income_turns = 0
    state.seats[0].hand = [card("trap")]
    act(state, 0, TakeIncome())
    settle_turn(state)
    assert state.seats[0].mat == [] and card("trap") in state.seats[0].hand


def test_faq_no_card_at_income_turn_five_and_later_plays_go_over_era_four() -> None:
    """F.À.Q. "D'anciennes versions ... ère 5": income turn 5 plays no card; a card played
    during or after it goes over the era 4 card ("Jouer des cartes Fresque après l'ère 4")."""
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 4
    seat.mat = [Played(card=card("monarchy"), era=4)]
    seat.hand = [card("trap")]
    act(state, 0, TakeIncome())
    settle_turn(state)
    assert [p.card for p in seat.mat] == [card("monarchy")] and seat.finished
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 5
    seat.mat = [Played(card=card("monarchy"), era=4)]
    seat.hand = [card("trap")]
    benefit(state, 0, "play_tapestry_over_current")  # e.g. Printing Press in income turn 5
    assert [(p.card, p.era) for p in seat.mat] == [(card("monarchy"), 4), (card("trap"), 4)]
    assert seat.vp == 10


def test_faq_a_card_played_in_income_step_one_goes_on_the_new_era() -> None:
    """F.À.Q. "Quand dois-je jouer une carte Fresque en réponse à une capacité ... lors de la
    première étape du tour de revenus ?": on the new era's space (era 4's in turn 5)."""
    state = table(2)
    seat = state.seats[0]
    seat.income_turns = 3  # income turn 3 has begun
    seat.mat = [Played(card=card("monarchy"), era=2)]
    seat.hand = [card("trap")]
    benefit(state, 0, "play_tapestry_over_current")
    assert seat.mat[-1] == Played(card=card("trap"), era=3)


def test_faq_an_empty_hand_plays_the_top_of_the_deck_face_down() -> None:
    """ "Jouer 1 carte Fresque": you must play a card from your hand when you have one; only
    with no card in hand is the deck's top card put on the mat, face down, without ability."""
    state = table(2)
    state.seats[0].hand = []
    act(state, 0, TakeIncome())
    settle_turn(state)
    played = state.seats[0].mat
    assert len(played) == 1 and not played[0].face_up and played[0].era == 2
    state = table(2)
    state.seats[0].hand = [card("trap")]
    act(state, 0, TakeIncome())
    settle_turn(state)
    assert state.seats[0].mat == [Played(card=card("trap"), era=2)]
    assert state.seats[0].vp >= 10


def test_faq_nuclear_bomb_without_a_card_plays_nothing() -> None:
    """Military guide "Que se passe-t-il sur la case Arme nucléaire si je n'ai pas de carte
    Fresque en main ?": the VP only, no card from the deck."""
    state = table(2)
    state.seats[0].tracks = [[6], [0], [0], [9]]
    run_frames(state, advance_frame(0, MILITARY, 0))
    settle_turn(state)
    assert state.seats[0].mat == [] and state.seats[0].vp == 6
    state = table(2)
    state.seats[0].tracks = [[6], [0], [0], [9]]
    state.seats[0].mat = [Played(card=card("monarchy"), era=1)]
    state.seats[0].hand = [card("trap")]
    run_frames(state, advance_frame(0, MILITARY, 0))
    settle_turn(state)
    assert [p.card for p in state.seats[0].mat] == [card("monarchy"), card("trap")]
    assert state.seats[0].vp == 16 and not has_active(state.seats[0], "monarchy")


def test_faq_no_trap_after_your_last_income_turn() -> None:
    """Military guide "Puis-je jouer une carte Embuscade après mon dernier tour de revenus ?":
    no."""
    state = table(2)
    target = neighbour_territory(state, 0)
    give_hex(state, target, 1)
    state.seats[1].hand = [card("trap")]
    state.seats[1].finished = True
    benefit(state, 0, "conquer")
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    assert decision(state) != "trap" and state.hexes[target].controller() == 0


def test_faq_conquer_dice_are_rolled_even_against_a_trap() -> None:
    """Military guide "Quand dois-je lancer les dés de conquête ?": when you conquer, even if
    the opponent answers with a Trap; you still gain one die."""
    state = table(2)
    target = neighbour_territory(state, 0)
    give_hex(state, target, 1)
    state.seats[1].hand = [card("trap")]
    benefit(state, 0, "conquer")
    cell = state.hexes[target]
    answer(state, Conquer(q=cell.q, r=cell.r))
    from domain.tapestry.commands import ChooseResource, PlayTrap

    answer(state, PlayTrap())
    events = answer(state, ChooseResource(resource="coin"))
    assert of(events, ev.ConquerDiceRolled) and decision(state) == "choose_die"
    assert GAME.pending(state).seats == (0,)


def test_faq_conquered_tile_benefit_only_from_the_black_die() -> None:
    """Military guide "Lorsque je conquiers une tuile Territoire, quand est-ce que je gagne le
    bénéfice de la tuile ?": only with the black die's tile face."""
    for die in (0, 1):
        state = table(2)
        target = neighbour_territory(state, 0)
        state.hexes[target].printed = False
        state.hexes[target].tile = 4  # 1 culture
        benefit(state, 0, "conquer")
        cell = state.hexes[target]
        forced(state, Conquer(q=cell.q, r=cell.r), lambda es: _black_is_tile(es))
        answer(state, Choose(index=die))
        settle_turn(state)
        assert state.seats[0].resources[3] == die  # the tile's culture with the black die


def _black_is_tile(events: list[Event]) -> bool:
    rolled = [e for e in events if isinstance(e, ev.ConquerDiceRolled)]
    return bool(rolled) and rolled[0].black in (1, 5)


# -- Autres questions générales -------------------------------------------------------------
def test_faq_out_of_tapestry_cards_reshuffle_the_discards() -> None:
    """F.À.Q. "Que se passe-t-il si nous n'avons plus de cartes Fresque ou Technologie ?":
    shuffle the discards into a new deck; with no card anywhere, nothing is drawn."""
    from domain.tapestry import content as C

    state = table(2)
    everything = [c.id for c in C.TAPESTRY_CARDS.values() for _ in range(c.copies)]
    state.seats[1].hand = everything[2:]
    state.tapestry_discard = everything[:2]
    events = benefit(state, 0, "gain_tapestry_card")
    assert of(events, ev.TapestryReshuffled) and len(state.seats[0].hand) == 1
    assert state.tapestry_discard == []
    state.seats[1].hand = everything[1:]
    state.seats[0].hand = []
    state.tapestry_discard = []
    state.seats[0].hand = [everything[0]]
    events = benefit(state, 0, "gain_tapestry_card")
    assert state.seats[0].hand == [everything[0]] and not of(events, ev.TapestryDrawn)


def test_faq_out_of_tech_cards_reshuffle_the_discards() -> None:
    """Same F.À.Q. entry for tech cards: inventing from an empty deck takes from the discard."""
    from domain.tapestry import content as C

    state = table(2)
    state.tech_display = []
    state.tech_discard = [8]
    state.seats[1].tech = [TechOwned(card=c) for c in C.TECH_CARDS if c != 8]
    benefit(state, 0, "invent")  # only the deck's top card can be taken: at once
    assert [t.card for t in state.seats[0].tech] == [8] and state.tech_discard == []


def test_faq_tyranny_and_play_tapestry_decline() -> None:
    """Tyranny is optional ("vous pouvez"): declining keeps the drawn card in hand."""
    state = table(2)
    in_force(state, 0, "tyranny")
    benefit(state, 0, "gain_tapestry_card")
    drawn = state.seats[0].hand[0]
    assert PlayTapestry(card=drawn) in options(state)
    answer(state, Decline())
    assert state.seats[0].hand == [drawn] and has_active(state.seats[0], "tyranny")

"""The solo setup and the bots' turn, one named test per rule of the player aid
("MISE EN PLACE POUR LE BOT AUTOMA", "MISE EN PLACE POUR LE BOT EMPIRE DE L'OMBRE",
"TOUR AUTOMA/EMPIRE DE L'OMBRE": the decision pair, the track rules, income turns drawn from
the deck), and the bots counting as the human's neighbours.

Situations are built on a real solo game (setup events folded) and the bots' steps run through
the engine's own agenda (:class:`~domain.tapestry.engine.Ctx`), with recorded chance
(:mod:`tests.tapestry.solo_helpers`). The other solo rules: ``test_solo_benefits.py``,
``test_solo_conquest.py``, ``test_solo_income_turns.py``, ``test_solo_options.py``.
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry.rules import hex_at, tapestry_deck
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.bots import AUTOMA_BOT, SHADOW_BOT, choose_track
from domain.tapestry.state import TRACK_IDS, Frame
from tests.tapestry.solo_helpers import GAME, bots_run, new_solo, of, started, with_positions


# -- setup ---------------------------------------------------------------------------------
def test_setup_automa_and_shadow_empire() -> None:
    """MISE EN PLACE POUR LE BOT AUTOMA / EMPIRE DE L'OMBRE: 2 Automa outposts on the 3/5
    territory, the human on 2/4 whatever its capital, a random Automa civilization card and its
    favourite track, the Shadow Empire's favourite by the science die (a different track), the
    decision deck of cards 1-7 plus one face-down progress card, the progress deck 8-22."""
    for seed in (b"a", b"b", b"c", b"d"):
        state = started(seed)
        solo = state.solo
        assert solo is not None and solo.automa
        automa_home = hex_at(state, *S.SETUP.automa_home)
        assert [o.seat for o in state.hexes[automa_home].outposts] == [AUTOMA, AUTOMA]
        assert state.seats[0].home == hex_at(state, *S.SETUP.human_home)
        civ = S.CIVILIZATIONS[solo.civilization]
        assert TRACK_IDS[solo.bots[AUTOMA_BOT].favorite] == civ.favorite
        assert solo.bots[SHADOW_BOT].favorite != solo.bots[AUTOMA_BOT].favorite
        assert solo.deck == [1, 2, 3, 4, 5, 6, 7] and solo.hidden == 1
        assert solo.progress == list(range(8, 23))
        assert all(t == [0, 0, 0, 0] for t in (b.tracks for b in solo.bots))
        assert state.board == "small"


def test_setup_removes_solo_cards_and_civilizations() -> None:
    """MISE EN PLACE GENERALE (SOLO): 13 tapestry cards out (37 left, 5 Traps); the
    Futurists, Heralds, Inventors and Traders are never dealt."""
    state = started()
    deck = tapestry_deck(state)
    assert len(deck) + len(state.seats[0].hand) + len(state.solo.cards_out()) == 37  # type: ignore[union-attr]
    keys = {C.TAPESTRY_CARDS[c].key for c in deck}
    assert not keys & {"alliance", "espionage", "dictatorship", "olympic_host"}
    for seed in range(12):
        fresh, _ = new_solo(f"civ-{seed}".encode())
        offer = {C.CIVILIZATIONS[c].key for c in fresh.seats[0].civ_offer}
        assert not offer & set(S.REMOVED_CIVILIZATIONS)


# -- the bots' turn --------------------------------------------------------------------------
def test_decision_pair_resolved() -> None:
    """TOUR AUTOMA/EMPIRE DE L'OMBRE, 2-3: a pair is drawn (left track card, right priority
    card); the Automa then the Shadow Empire advance one space on the track their rules
    choose."""
    state = started()
    state.solo.income_turns = 1  # type: ignore[union-attr]
    events = bots_run(state, Frame(kind="solo_turn", seat=0))
    drawn = of(events, sev.AutomaDecisionDrawn)
    assert len(drawn) == 1
    left, right = drawn[0].left, drawn[0].right
    assert state.solo is not None and state.solo.pair == [left, right]
    assert state.solo.deck_size() == 6
    automa = of(events, sev.AutomaAdvanced)
    shadow = of(events, sev.ShadowEmpireAdvanced)
    assert automa and shadow
    assert automa[0].to == 1 and shadow[0].to == 1
    assert events.index(automa[0]) < events.index(shadow[0])


def test_track_rule_all_unfinished_with_favorite_heart() -> None:
    """Track rule "all unfinished": every track not finished is valid; the priority card's
    heart picks the bot's favourite (card 1's order starts with the heart)."""
    state = with_positions([0, 0, 0, 0], [0, 0, 0, 0], (2, 3))
    # card 7 (left): Automa all_unfinished; card 1 (right): favorite first for the Automa
    assert choose_track(state, AUTOMA_BOT, 7, 1) == 2


def test_track_rule_shadow_reads_priority_bottom_to_top() -> None:
    """The Shadow Empire reads the priority arrow bottom to top: card 1's last entry
    (science) comes first."""
    state = with_positions([0, 0, 0, 0], [0, 0, 0, 0], (2, 3))
    assert choose_track(state, SHADOW_BOT, 1, 1) == TRACK_IDS.index("science")


def test_track_rule_closest_to_finish() -> None:
    """Track rule "closest to the end": only the tracks with the fewest spaces left (card 1's
    Automa rule); finished tracks are ignored."""
    state = with_positions([12, 9, 3, 9], [0, 0, 0, 0], (0, 1))
    # exploration finished; science and military 3 from the end; card 3's order: science first
    assert choose_track(state, AUTOMA_BOT, 1, 3) == TRACK_IDS.index("science")
    assert choose_track(state, AUTOMA_BOT, 1, 4) in (1, 3)


def test_track_rule_closest_to_landmark_or_finish() -> None:
    """Track rule "closest to a landmark or the end": the distance to the next unclaimed
    landmark (spaces 4, 7, 10) ahead; a claimed landmark no longer counts."""
    state = with_positions([3, 0, 0, 5], [0, 0, 0, 0], (0, 1))
    assert choose_track(state, AUTOMA_BOT, 3, 5) == TRACK_IDS.index("exploration")  # 1 away
    landmark = C.space("exploration", 4).landmark
    state.landmark_owner[str(landmark)] = 0
    # exploration now 4 from its next landmark (7); military 2 from 7
    assert choose_track(state, AUTOMA_BOT, 3, 5) == TRACK_IDS.index("military")


def test_income_icon_triggers_income_turn() -> None:
    """TOUR AUTOMA, 2: when the pair empties the deck and the track card shows the income
    icon, the bots take an income turn instead of advancing."""
    state = started()
    solo = state.solo
    assert solo is not None
    solo.income_turns = 1
    solo.deck, solo.hidden = [1, 5], 0  # card 1 has the icon, card 5 not
    for seed in range(10):
        trial = GAME.copy_state(state)
        events = bots_run(trial, Frame(kind="solo_turn", seat=0), seed=f"icon-{seed}".encode())
        drawn = of(events, sev.AutomaDecisionDrawn)[0]
        incomes = of(events, sev.AutomaIncomeTurnStarted)
        if drawn.left == 1:
            assert incomes and incomes[0].era == 2 and not of(events, sev.AutomaAdvanced)
        else:
            assert not incomes and of(events, sev.AutomaAdvanced)


def test_empty_deck_income_turn() -> None:
    """TOUR AUTOMA, 1: with an empty decision deck the bots take an income turn."""
    state = started()
    solo = state.solo
    assert solo is not None
    solo.income_turns, solo.deck, solo.hidden = 1, [], 0
    events = bots_run(state, Frame(kind="solo_turn", seat=0))
    assert [e.era for e in of(events, sev.AutomaIncomeTurnStarted)] == [2]
    assert of(events, sev.AutomaDecisionShuffled)
    assert solo is state.solo and state.solo.deck_size() >= 2


# -- the bots as the human's neighbours -----------------------------------------------------
def test_bots_count_as_neighbours_for_tech_prerequisites() -> None:
    """ "Fonctionne comme un voisin": a bot's token meets a tech card's track prerequisite for
    the human (you or a neighbour)."""
    from domain.tapestry.rules import requirement_met

    card = next(
        c.id
        for c in C.TECH_CARDS.values()
        if c.requirement is not None and c.requirement.type == "advancement_track"
    )
    requirement = C.TECH_CARDS[card].requirement
    assert requirement is not None
    state = started()
    assert not requirement_met(state, 0, card)
    assert state.solo is not None
    state.solo.bots[SHADOW_BOT].tracks[TRACK_IDS.index(requirement.track)] = requirement.min_space
    assert requirement_met(state, 0, card)


def test_bots_count_as_neighbours_for_first_into_an_era() -> None:
    """Income turn step 2: the human is first into an era only if the bots are not there."""
    from domain.tapestry.turns import _first_into_era

    state = started()
    assert state.solo is not None
    assert _first_into_era(state, 0, 2)
    state.solo.income_turns = 2
    assert not _first_into_era(state, 0, 2)

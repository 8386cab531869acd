"""Heralds (Hérauts): a token on a visible WHEN PLAYED tapestry card borrows its ability.

Sources: player aid "CIVILISATIONS / Hérauts" (four tokens; income turns 2-5, optionally, a
token on any WHEN PLAYED tapestry card in play, one token per card; at setup only, a card over
Maker of Fire), F.À.Q. "Plateaux civilisation particuliers" (« Les Hérauts peuvent-ils copier
des cartes recouvertes ? » — no), "RÉÉQUILIBRAGE DES CIVILISATIONS" (the entry printed under
HISTORIENS that names the Heralds: draw until a WHEN PLAYED card, discard the rest, may play
one over Maker of Fire, never Renaissance; content/civilizations.json#6), "Règles générales"
(a civilization gained during the game), "Fin de la partie" (seeded games finish).
"""

from __future__ import annotations

import msgspec

from domain.core import Chance, Event
from domain.tapestry import civ_heralds as heralds
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline, PlayTapestry, TakeIncome
from domain.tapestry.state import Frame, Played, TapestryOptions, TapestryState
from tests.tapestry.helpers import GAME, act, decision, of, table
from tests.tapestry.test_cards_support import answer, card, options, run_frames, vp_of

KEY = "heralds"


def herald(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Heralds (an era-1 table: every seat at zero)."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def lay(state: TapestryState, seat: int, key: str, era: int = 1) -> int:
    """Put tapestry card ``key`` face up on ``seat``'s mat in era slot ``era``; its place."""
    state.seats[seat].mat.append(Played(card=card(key), era=era))
    return seat * heralds.PLACE + len(state.seats[seat].mat) - 1


def income_ability(state: TapestryState, seat: int = 0, era: int = 2) -> list[Event]:
    """Step 1 of income turn ``era`` for ``seat``: its civilization abilities."""
    return run_frames(state, Frame(kind="civ_income", seat=seat, token=KEY, ints=(era,)))


# -- income turns 2-5 ----------------------------------------------------------------------
def test_token_on_an_opponents_when_played_card_uses_its_ability() -> None:
    """Aid "Hérauts": on an income turn a token goes on a WHEN PLAYED card in play and the
    Herald gains its ability (Boast of Superiority: 4 VP per track where nobody leads)."""
    state = herald(2)
    place = lay(state, 1, "boast_of_superiority")
    income_ability(state)
    assert decision(state) == "heralds"
    assert options(state) == [Choose(index=place), Decline()]
    events = answer(state, Choose(index=place))
    assert vp_of(events, 0, "boast_of_superiority") == 16
    assert state.seats[0].civ_tokens[KEY] == [place]
    assert state.seats[1].vp == 0


def test_this_era_cards_are_not_offered() -> None:
    """Aid "Hérauts": only cards with a WHEN PLAYED ability (« avec Pose ») take a token."""
    state = herald(2)
    lay(state, 1, "academia")
    income_ability(state)
    assert decision(state) == "turn"  # nothing to copy: no decision at all


def test_faq_covered_cards_cannot_be_copied() -> None:
    """F.À.Q. « Les Hérauts peuvent-ils copier des cartes recouvertes ? » Non: only the top
    card of each era slot is visible."""
    state = herald(2)
    covered = lay(state, 1, "boast_of_superiority", era=1)
    top = lay(state, 1, "plea_for_aid", era=1)
    income_ability(state)
    assert Choose(index=covered) not in options(state)
    assert Choose(index=top) in options(state)


def test_one_token_per_card_and_the_tokens_run_out() -> None:
    """Aid "Hérauts": « maximum 1 pion par Fresque »; the mat holds four tokens."""
    state = herald(2)
    first = lay(state, 1, "boast_of_superiority", era=1)
    second = lay(state, 1, "plea_for_aid", era=2)
    state.seats[0].civ_tokens[KEY] = [first]
    income_ability(state, era=3)
    assert options(state) == [Choose(index=second), Decline()]
    answer(state, Decline())
    state.seats[0].civ_tokens[KEY] = [10, 11, 12, 13]
    income_ability(state, era=4)
    assert decision(state) == "turn"


def test_the_token_is_optional() -> None:
    """Aid "Hérauts": « vous pouvez déplacer un pion »: declining keeps the token."""
    state = herald(2)
    lay(state, 1, "boast_of_superiority")
    income_ability(state)
    events = answer(state, Decline())
    assert not of(events, ev.VPScored) and KEY not in state.seats[0].civ_tokens


def test_own_visible_card_may_be_copied() -> None:
    """Aid "Hérauts": « n'importe quelle Fresque en jeu » — the Herald's own mat too."""
    state = herald(2)
    place = lay(state, 0, "boast_of_superiority")
    income_ability(state)
    assert Choose(index=place) in options(state)


def test_a_copied_espionage_copies_a_when_played_card() -> None:
    """Aid "Hérauts" with Espionage (a WHEN PLAYED card): the borrowed Espionage copies a
    visible WHEN PLAYED card; THIS ERA cards are not offered through it (engine limit, see
    civ_heralds._spy_answer)."""
    state = herald(3)
    spy = lay(state, 1, "espionage")
    lay(state, 2, "boast_of_superiority")
    lay(state, 2, "academia", era=2)
    lay(state, 2, "plea_for_aid", era=3)
    income_ability(state)
    answer(state, Choose(index=spy))
    assert decision(state) == "espionage"
    assert options(state) == [
        Choose(index=card("boast_of_superiority")),
        Choose(index=card("plea_for_aid")),
    ]
    events = answer(state, Choose(index=card("boast_of_superiority")))
    assert vp_of(events, 0, "boast_of_superiority") == 16


def test_the_ability_comes_with_the_income_turn() -> None:
    """Aid "Hérauts": « Tours de Revenus (2-5) » — the decision opens the income turn."""
    state = herald(2)
    lay(state, 1, "boast_of_superiority")
    state.seats[0].hand = [card("plea_for_aid")]
    act(state, 0, TakeIncome())
    assert decision(state) == "heralds"


# -- rebalancing: a card over Maker of Fire ------------------------------------------------
def first_income(seed: bytes = b"heralds", hand: tuple[str, ...] = ()) -> TapestryState:
    """A starting Herald (seat 0) just before its first income turn."""
    state = herald(2)
    state.seats[0].income_turns = 0
    state.seats[0].hand = [card(k) for k in hand]
    act(state, 0, TakeIncome(), seed)
    return state


def end_of_income(state: TapestryState, era: int = 1, seed: bytes = b"end") -> list[Event]:
    """The end (step 5) of income turn ``era`` for seat 0."""
    state.seats[0].income_turns = era
    return run_frames(state, Frame(kind="income", seat=0, ints=(5, era)), seed=seed)


def test_rebalancing_draws_until_a_when_played_card() -> None:
    """RÉÉQUILIBRAGE (HISTORIENS entry naming the Heralds): at the end of the first income
    turn, draw until a WHEN PLAYED card; the other cards drawn are discarded."""
    longest = 0
    for seed in (b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h"):
        state = herald(2)
        events = end_of_income(state, seed=seed)
        drawn = [c for e in of(events, ev.TapestryDrawn) if e.seat == 0 for c in e.cards]
        discarded = [c for e in of(events, ev.TapestryDiscarded) for c in e.cards]
        assert drawn and heralds.when_played(drawn[-1])
        assert not any(heralds.when_played(c) for c in drawn[:-1])
        assert discarded == drawn[:-1]
        assert decision(state) == "maker_of_fire"
        longest = max(longest, len(discarded))
    assert longest > 0  # the seeds include THIS ERA cards drawn and discarded


def test_rebalancing_plays_a_card_over_maker_of_fire_and_resolves_it() -> None:
    """RÉÉQUILIBRAGE: the WHEN PLAYED card is played over Maker of Fire (era 1 slot) and its
    ability resolves; Renaissance may not go there."""
    state = first_income(hand=("renaissance", "boast_of_superiority"))
    assert decision(state) == "maker_of_fire"
    offered = options(state)
    assert PlayTapestry(card=card("renaissance")) not in offered
    assert PlayTapestry(card=card("boast_of_superiority")) in offered and Decline() in offered
    events = answer(state, PlayTapestry(card=card("boast_of_superiority")))
    assert state.seats[0].mat[-1] == Played(card=card("boast_of_superiority"), era=1)
    assert vp_of(events, 0, "boast_of_superiority") == 16


def test_rebalancing_card_may_be_kept() -> None:
    """RÉÉQUILIBRAGE: « Vous pouvez alors jouer » — declining keeps the card in hand."""
    state = first_income()
    hand = list(state.seats[0].hand)
    answer(state, Decline())
    assert state.seats[0].hand == hand and not state.seats[0].mat


def test_rebalancing_draws_are_hidden_from_other_seats() -> None:
    """Hidden information: the cards a Herald draws are hidden from the other seats (the
    discards are public, as on the table)."""
    state = herald(2)
    events = end_of_income(state, seed=b"hidden")
    for drawn in of(events, ev.TapestryDrawn):
        shown = GAME.redact_event(state, drawn, 1)
        assert isinstance(shown, ev.TapestryDrawn) and shown.cards == ()


def test_rebalancing_only_for_a_starting_herald() -> None:
    """RÉÉQUILIBRAGE: « N'appliquez pas ces règles pour les civilisations obtenues pendant la
    partie »; nor after a later income turn."""
    state = herald(2)
    state.seats[0].civs = [civ_id("leaders"), civ_id(KEY)]
    events = end_of_income(state)
    assert not of(events, ev.TapestryDrawn) and decision(state) == "turn"
    state = herald(2)
    events = end_of_income(state, era=2)
    assert not of(events, ev.TapestryDrawn) and decision(state) == "turn"


def test_rebalancing_comes_at_the_end_of_the_first_income_turn() -> None:
    """RÉÉQUILIBRAGE: « à la fin de votre premier tour de revenus », after its income."""
    state = first_income()
    assert decision(state) == "maker_of_fire"
    assert state.seats[0].income_turns == 1 and sum(state.seats[0].resources) > 0


def test_heralds_may_be_gained_mid_game() -> None:
    """ "Règles générales": the Heralds have no rule against a mid-game gain."""
    assert KEY in civs.GAINABLE and KEY in civs.IMPLEMENTED_CIVILIZATIONS
    assert C.CIVILIZATIONS[civ_id(KEY)].gainable_mid_game


# -- seeded games --------------------------------------------------------------------------
def play_with(
    key: str, seats: int, seed: int, mine: tuple[str, ...]
) -> tuple[TapestryState, set[str]]:
    """A seeded random game where seat 0 starts with ``key`` (the ``starting_civilizations``
    option): every option offered at one of the ``mine`` decisions is accepted (soundness),
    and a fresh fold of the events gives the final state. Returns it and the decisions met."""
    options = TapestryOptions(starting_civilizations=(key,))
    game_seed = f"civ-{key}-{seed}".encode()
    state = GAME.initial(options, seats)
    log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
    for event in log:
        GAME.evolve(state, event)
    bot = Chance(f"bot-{key}-{seed}".encode(), 0)
    met: set[str] = set()
    for _ in range(6000):
        if GAME.is_over(state):
            fresh = GAME.initial(options, seats)
            for event in log:
                GAME.evolve(fresh, event)
            assert msgspec.to_builtins(fresh) == msgspec.to_builtins(state)
            return state, met
        pending = GAME.pending(state)
        seat = pending.seats[0]
        actions = GAME.legal_actions(state, seat)
        assert actions, pending
        met.add(pending.decision)
        if pending.decision in mine:
            for action in actions:
                GAME.decide(state, seat, action, Chance(game_seed, len(log)))
        events = GAME.decide(state, seat, bot.choice(actions), Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
    raise AssertionError("the game does not end")


def test_seeded_games_with_starting_heralds_finish() -> None:
    """ "Fin de la partie": games with a starting Herald end, every seat finished."""
    for seats, seed in ((2, 1), (4, 2), (5, 3)):
        state, met = play_with(KEY, seats, seed, ("heralds", "espionage", "maker_of_fire"))
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert "maker_of_fire" in met
        assert len(state.seats[0].civ_tokens.get(KEY, [])) <= heralds.MAT_TOKENS

"""Ruleset ``tapestry/4``: the rules of ``tapestry/3`` corrected after the audits of the base
game and of the solo mode; each change is checked under ``tapestry/4`` and, with the same seed
and commands, the old behaviour under ``tapestry/3``.

Sources: rulebook (``rules/tapestry-rulebook-fr.txt``) l.191 « CETTE ÈRE … s'applique
maintenant et jusqu'au début de votre prochain tour de revenus », l.526 (a card played during
income turn 5 goes over the era-4 card), l.546 (the seat's game ends at the *end* of its fifth
income turn); player aid (``rules/tapestry-player-aid-fr.txt``) l.214 and l.515-533 (Futurists,
Heralds, Inventors, Traders « interdit en solo »), l.278 (the bots' first turn is an income
turn), l.350-360 (the Automa aims at the middle island while « Conquérir l'île centrale » is
possible). ``tapestry/3`` records re-execute: ``test_ruleset_fixtures.py``.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.bots import RandomBot
from domain.core import Chance, Command, Event
from domain.registry import GAMES, get_ruleset
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, TakeIncome, Upgrade
from domain.tapestry.engine import frame
from domain.tapestry.game import TapestryGame3, TapestryGame4
from domain.tapestry.rules import active_card, gain, has_active, hex_at
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.conquest import conquer, island_open
from domain.tapestry.state import PLAY, TRACK_IDS, Frame, Outpost, Played, TapestryState, TechOwned
from tests.tapestry.solo_helpers import call

GAME3, GAME4 = TapestryGame3(), TapestryGame4()
BOTH = pytest.mark.parametrize("game", [GAME3, GAME4], ids=["tapestry/3", "tapestry/4"])
#: the mats the player aid removes from solo games (l.214, l.515-533).
OUT_OF_SOLO = ("futurists", "heralds", "inventors", "traders")


def new_game(game: TapestryGame3, seats: int, seed: bytes, **options: Any) -> TapestryState:
    """A game of ``game``'s ruleset after its setup events."""
    state = game.initial(game.decode_options(options), seats)
    for event in game.setup(state, Chance(seed, 0)):
        game.evolve(state, event)
    return state


def act(game: TapestryGame3, state: TapestryState, seat: int, command: Command) -> list[Event]:
    """Decide ``command`` for ``seat`` and fold its events; the events."""
    chance = Chance(b"ruleset4", state.turn * 1000 + len(state.agenda))
    events = game.decide(state, seat, command, chance)
    for event in events:
        game.evolve(state, event)
    return events


def started(game: TapestryGame3, seats: int, seed: bytes, **options: Any) -> TapestryState:
    """A game past setup, every seat keeping the first capital and civilization offered."""
    state = new_game(game, seats, seed, **options)
    while game.is_setup(state):
        seat = game.pending(state).seats[0]
        act(game, state, seat, game.legal_actions(state, seat)[0])
    return state


def table(game: TapestryGame3) -> TapestryState:
    """2 seats, seat 0 about to take a turn, setup gains cleared (as ``helpers.table``)."""
    state = started(game, 2, b"tests")
    for seat in state.seats:
        seat.income_turns, seat.resources, seat.vp = 1, [0, 0, 0, 0], 0
        seat.tracks, seat.completed = [[0], [0], [0], [0]], [False] * 4
        seat.hand, seat.territory, seat.civ_tokens, seat.civs = [], [], {}, []
    state.phase, state.current, state.turn = PLAY, 0, 1
    state.agenda = [frame("turn", 0)]
    return state


def card(key: str) -> int:
    """A tapestry card's id."""
    return next(c.id for c in C.TAPESTRY_CARDS.values() if c.key == key)


def tech(name: str) -> int:
    """A tech card's id."""
    return next(c.id for c in C.TECH_CARDS.values() if c.name == name)


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, kind)]


# -- the ruleset -------------------------------------------------------------------------------
def test_tapestry_4_is_the_default_and_the_older_rulesets_stay() -> None:
    """New games get ``tapestry/4`` (revision 4) with the options of ``tapestry/3``; the older
    rulesets stay registered."""
    assert GAMES["tapestry"].ruleset_version == "tapestry/4"
    assert GAMES["tapestry"].initial(GAME4.decode_options({}), 2).rules.revision == 4
    assert GAME4.options_type is GAME3.options_type
    assert GAME4.late_options == GAME3.late_options
    for revision in (1, 2, 3):
        assert get_ruleset(f"tapestry/{revision}").revision == revision


# -- 1. a THIS ERA card played during income turn 5 -------------------------------------------
def _income_five(
    game: TapestryGame3, golden_age_era: int
) -> tuple[TapestryState, list[Event], bool]:
    """The audit's case: the Inventors take income turn 5 with their Printing Press in the
    middle row and Radio (prerequisite unmet) beside it. With ``golden_age_era`` 5, Golden Age
    is in hand and the Printing Press lifted at step 1 plays it over the era-4 card (rulebook
    l.526); with 4, Golden Age was played at income turn 4 and is on top. Step 3 upgrades Radio
    when offered, else the first option; the state, the events, and whether Radio was offered."""
    state = table(game)
    seat = state.seats[0]
    seat.civs = [civ_id("inventors")]
    seat.income_turns = 4
    seat.mat = [Played(card=card("academia"), era=2), Played(card=card("feudalism"), era=3)]
    if golden_age_era == 5:
        seat.mat.append(Played(card=card("boast_of_superiority"), era=4))
        seat.hand = [card("golden_age")]
    else:
        seat.mat.append(Played(card=card("golden_age"), era=4))
    seat.tech = [
        TechOwned(card=tech("Printing Press"), row=1),
        TechOwned(card=tech("Radio"), row=1),
    ]
    state.seats[1].income_turns = 5  # not first into the era
    events = act(game, state, 0, TakeIncome())
    offered = False
    for _ in range(20):
        pending = game.pending(state)
        if pending.decision == "turn" or not pending.seats:
            break
        options = game.legal_actions(state, pending.seats[0])
        command = options[0]
        if pending.decision == "upgrade" and Upgrade(card=tech("Radio")) in options:
            offered, command = True, Upgrade(card=tech("Radio"))
        events += act(game, state, pending.seats[0], command)
    assert state.seats[0].finished
    return state, events, offered


def test_a_this_era_card_played_at_income_turn_5_is_in_force_for_the_rest_of_it() -> None:
    """Rulebook l.191, l.526, l.546: Golden Age, played at step 1 of income turn 5 over the
    era-4 card, lets step 3 upgrade Radio without its prerequisite and scores its 3 VP
    (``tapestry/4``); it stops when the seat's game ends."""
    state, events, offered = _income_five(GAME4, 5)
    assert offered
    assert of(events, ev.TapestryPlayed)[0].era == 4
    assert tech("Radio") in [e.card for e in of(events, ev.TechUpgraded)]
    assert [e.vp for e in of(events, ev.VPScored) if e.reason == "golden_age"] == [3]
    assert active_card(state.seats[0]) == -1  # the seat's game is over


def test_under_tapestry_3_a_this_era_card_at_income_turn_5_has_no_effect() -> None:
    """``tapestry/3`` (decision this_era_after_era_4, first half): same seed and commands,
    Golden Age is played over the era-4 card but Radio is not offered at step 3 and Golden Age
    scores nothing."""
    _, events, offered = _income_five(GAME3, 5)
    assert not offered
    assert of(events, ev.TapestryPlayed)[0].card == card("golden_age")
    assert tech("Radio") not in [e.card for e in of(events, ev.TechUpgraded)]
    assert not [e for e in of(events, ev.VPScored) if e.reason == "golden_age"]


@BOTH
def test_a_card_played_at_income_turn_4_stops_when_income_turn_5_starts(
    game: TapestryGame3,
) -> None:
    """Rulebook l.191 « jusqu'au début de votre prochain tour de revenus »: Golden Age played at
    income turn 4 is no longer in force at income turn 5, under both rulesets."""
    _, events, offered = _income_five(game, 4)
    assert not offered
    assert not [e for e in of(events, ev.VPScored) if e.reason == "golden_age"]


@BOTH
def test_the_card_played_at_income_turn_5_is_in_force_only_during_that_turn(
    game: TapestryGame3,
) -> None:
    """Folding the same events: the card played during income turn 5 is in force from its
    play until the seat finishes under ``tapestry/4``, never under ``tapestry/3``."""
    state = table(game)
    seat = state.seats[0]
    seat.income_turns = 4
    seat.mat = [Played(card=card("golden_age"), era=4)]  # played at income turn 4
    game.evolve(state, ev.IncomeTurnStarted(seat=0, era=5))
    assert not has_active(seat, "golden_age")
    game.evolve(state, ev.TapestryPlayed(seat=0, card=card("golden_age"), era=4, from_hand=False))
    assert has_active(seat, "golden_age") == (game.revision >= 4)
    game.evolve(state, ev.SeatFinished(seat=0))
    assert not has_active(seat, "golden_age")


# -- 2. solo: civilizations gained during the game ---------------------------------------------
def _gain(game: TapestryGame3, left: tuple[str, ...], seed: bytes) -> list[Event]:
    """In a base solo game (no box), seat 0 gains a random civilization while only the mats
    ``left`` are not out of the game; the events."""
    state = started(game, 1, b"solo-civ", automa_level=2)
    assert not state.rules.expansions
    state.civs_out = [c for c in C.CIVILIZATIONS if C.CIVILIZATIONS[c].key not in left]
    options = (gain("gain_random_civilization"), gain("_nothing"))
    state.agenda.append(Frame(kind="choose", seat=0, options=options))
    events = game.decide(state, 0, Choose(index=0), Chance(seed, 1))
    for event in events:
        game.evolve(state, event)
    return events


def test_solo_never_gains_a_civilization_removed_from_solo() -> None:
    """Player aid l.214 « Retirez les 4 fiches Futuristes, Héraults, Inventeurs et
    Négociants », l.515-533 « interdit en solo »: a base solo game never gains one mid-game
    (``tapestry/4``); ``tapestry/3`` did, with the same seeds."""
    left = ("heralds", "inventors", "traders", "alchemists")
    new4: set[str] = set()
    old3: set[str] = set()
    for n in range(12):
        seed = f"gain-{n}".encode()
        for game, seen in ((GAME4, new4), (GAME3, old3)):
            gained = of(_gain(game, left, seed), ev.CivilizationGained)
            seen.update(C.CIVILIZATIONS[e.civilization].key for e in gained)
    assert new4 == {"alchemists"}
    assert old3 & set(OUT_OF_SOLO)
    # only removed mats left: tapestry/4 gains nothing, tapestry/3 the Heralds
    assert not of(_gain(GAME4, ("heralds",), b"gain"), ev.CivilizationGained)
    gained = of(_gain(GAME3, ("heralds",), b"gain"), ev.CivilizationGained)
    assert [C.CIVILIZATIONS[e.civilization].key for e in gained] == ["heralds"]


# -- 3. solo levels 5-6: the bots' first income turn when they play first ----------------------
def _bots_first(level: int, first: bool) -> bytes:
    """A seed whose solo game at ``level`` has the bots playing first (``first``) or not."""
    for n in range(50):
        seed = f"first-{n}".encode()
        state = new_game(GAME4, 1, seed, automa_level=level)
        assert state.solo is not None
        if state.solo.first == first:
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("level", [5, 6])
def test_bots_first_at_levels_5_and_6_advance_at_their_first_income_turn(level: int) -> None:
    """« au 1er tour, aller directement au tour Revenus » (aid l.278) with the level's first
    income turn (``automa.json#levels`` 5: once on the favourite track, 6: once on every
    track). ``tapestry/3`` played that income turn at setup and lost its advances;
    ``tapestry/4`` plays it when play begins, after the human's setup (its outposts are on the
    board) and before the human's first turn, advances included."""
    seed = _bots_first(level, True)
    old = GAME3.setup(GAME3.initial(GAME3.decode_options({"automa_level": level}), 1),
                      Chance(seed, 0))  # fmt: skip
    assert of(old, sev.AutomaPriorityDrawn)
    assert not of(old, sev.AutomaAdvanced) and not of(old, sev.ShadowEmpireAdvanced)
    state = new_game(GAME4, 1, seed, automa_level=level)
    log = GAME4.setup(GAME4.initial(GAME4.decode_options({"automa_level": level}), 1),
                      Chance(seed, 0))  # fmt: skip
    assert not of(log, sev.AutomaIncomeTurnStarted)  # nothing of the bots' turn at setup
    bot = RandomBot(seed)
    while not of(log, ev.TurnStarted):  # the human's setup choices, then play begins
        log += act(GAME4, state, 0, bot.choose(GAME4, state, 0))
    kinds = [type(e) for e in log]
    opened = kinds.index(sev.AutomaIncomeTurnStarted)
    assert kinds.index(ev.OutpostsStarted) < opened < kinds.index(ev.TurnStarted)
    assert [e.era for e in of(log, sev.AutomaIncomeTurnStarted)] == [1]
    automa = [e.track for e in of(log, sev.AutomaAdvanced)]
    shadow = [e.track for e in of(log, sev.ShadowEmpireAdvanced)]
    assert state.solo is not None
    favorites = [TRACK_IDS[bot_.favorite] for bot_ in state.solo.bots]
    if level == 5:
        assert automa[0] == favorites[0] and shadow == [favorites[1]]
    else:
        assert set(automa) >= set(TRACK_IDS) and sorted(shadow) == sorted(TRACK_IDS)
    assert [b.tracks for b in state.solo.bots] != [[0] * 4, [0] * 4]
    # the game then plays on to its end (a random human)
    for _ in range(3000):
        if GAME4.is_over(state):
            break
        act(GAME4, state, 0, bot.choose(GAME4, state, 0))
    assert GAME4.is_over(state)


@pytest.mark.parametrize("level", [5, 6])
def test_human_first_at_levels_5_and_6_is_unchanged(level: int) -> None:
    """When the human plays first, the bots' first income turn (after the human's turn) gives
    the same events under both rulesets, same seed and commands."""
    seed = _bots_first(level, False)
    logs = []
    for game in (GAME3, GAME4):
        state = new_game(game, 1, seed, automa_level=level)
        bot = RandomBot(b"human")
        log: list[Event] = []
        while not of(log, sev.AutomaDecisionDrawn):
            seat = game.pending(state).seats[0]
            log += act(game, state, seat, bot.choose(game, state, seat))
        logs.append(log)
    assert of(logs[1], sev.AutomaAdvanced)
    assert logs[0] == logs[1]


# -- 4. solo: the Automa's aim at the middle island --------------------------------------------
def _island_locked(game: TapestryGame3) -> TapestryState:
    """The audit's case: the middle island holds the human's outpost and the Automa's toppled
    one (a Trap foiled the Automa), so nobody can conquer it; the Automa holds its home and
    (-3, -3); the human a lone outpost on (-2, -1); no human territory may be conquered."""
    state = started(game, 1, b"island", automa_level=2)
    assert state.solo is not None
    island = hex_at(state, 0, 0)
    state.hexes[island].outposts = [Outpost(seat=0), Outpost(seat=AUTOMA, toppled=True)]
    for (q, r), seat in (((-3, -3), AUTOMA), ((-2, -1), 0)):
        cell = state.hexes[hex_at(state, q, r)]
        if cell.tile < 0 and not cell.explored:
            cell.tile = sorted(C.TERRITORY_TILES)[-1 - hex_at(state, q, r)]
        cell.outposts = [Outpost(seat=seat)]
    state.solo.pair = [1, 2]
    state.solo.last_pair = [1, 2]
    return state


def _placed(game: TapestryGame3) -> tuple[int, int]:
    state = _island_locked(game)
    placed = of(call(state, conquer, False), sev.AutomaOutpostPlaced)
    assert len(placed) == 1
    return state.hexes[placed[0].hex].q, state.hexes[placed[0].hex].r


def test_the_automa_stops_aiming_at_an_island_nobody_can_conquer() -> None:
    """Aid l.350-351 « Territoire ciblé si "Conquérir l'île centrale" est possible : le plus
    proche de l'île », l.358-360 « Autre territoire ciblé : … au plus proche valide contrôlé par
    1 seul Avant-poste joueur »: with 2 tokens on the island (``rules.conquer_targets`` needs
    at most one) the Automa aims near the lone human outpost under ``tapestry/4``; under
    ``tapestry/3`` it kept aiming at the island."""
    assert not island_open(_island_locked(GAME4))
    assert island_open(_island_locked(GAME3))
    assert _placed(GAME4) == (-2, -3)
    assert _placed(GAME3) == (1, -1)


@BOTH
def test_the_automa_aims_at_the_island_while_it_can_be_conquered(game: TapestryGame3) -> None:
    """With one token on the island, or none, the Automa still aims at it (both rulesets)."""
    state = _island_locked(game)
    island = state.hexes[hex_at(state, 0, 0)]
    island.outposts = [Outpost(seat=0)]
    assert island_open(state)
    island.outposts = []
    assert island_open(state)


# -- a base game without boxes: nothing changes ------------------------------------------------
def _events(game: TapestryGame3, seats: int, seed: bytes) -> list[Event]:
    state = game.initial(game.decode_options({}), seats)
    log = list(game.setup(state, Chance(seed, 0)))
    for event in log:
        game.evolve(state, event)
    bots = [RandomBot(seed + bytes([i])) for i in range(seats)]
    steps = 0
    while not game.is_over(state):
        seat = game.pending(state).seats[0]
        events = game.decide(state, seat, bots[seat].choose(game, state, seat), Chance(seed, steps))
        for event in events:
            game.evolve(state, event)
        log += events
        steps += 1
    return log


@pytest.mark.parametrize("seats", [2, 4])
def test_a_base_game_gives_the_same_events_under_tapestry_3_and_4(seats: int) -> None:
    """A whole seeded base game (no box, no THIS ERA card played during an income turn 5)
    gives the same events under both rulesets."""
    seed = f"same-{seats}".encode()
    old, new = _events(GAME3, seats, seed), _events(GAME4, seats, seed)
    assert [msgspec.to_builtins(e) for e in old] == [msgspec.to_builtins(e) for e in new]
    assert isinstance(old[-1], Event)

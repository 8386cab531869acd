"""The Tapestry bot (:mod:`domain.tapestry.bot`): strength, determinism, speed, integration.

* it beats the random bot in at least 95% of 2-player games (20 fixed seeds in the normal run,
  200 with ``-m long``), seats alternating;
* the same seed gives the same moves; it never changes the state it is shown;
* four bots finish a game in seconds;
* ``make_bot("tapestry")`` builds it, ``greedy`` hands Tapestry decisions to it (Rise & Fall's
  bots are unchanged), and it plays through the kernel like any bot;
* its evaluation follows the rules it relies on: income buildings pay at every remaining income
  turn ("Tours de revenus" 3-4), resources are worthless after the fifth income turn ("Fin de
  la partie"), and it spends them before it.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import BOTS, GreedyBot, RandomBot, game_bot, make_bot
from domain.core import Chance, Event
from domain.tapestry.bot import RESOURCE_VALUE, TapestryBot, evaluate, seat_value
from domain.tapestry.commands import Advance, TakeIncome
from domain.tapestry.state import TapestryState
from tests.harness import Table, play
from tests.tapestry.helpers import GAME, table

#: 2-player games against the random bot in the normal run, and wins required (95%).
QUICK_GAMES, QUICK_WINS = 20, 19
#: the long run: 200 seeds, 95% of wins.
LONG_GAMES, LONG_WINS = 200, 190


def duel(seed: int, bot_seat: int) -> tuple[TapestryState, list[Event]]:
    """A 2-player game: the Tapestry bot at ``bot_seat``, the random bot at the other seat."""
    game_seed = f"duel-{seed}".encode()
    state = GAME.initial(GAME.decode_options({}), 2)
    log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
    for event in log:
        GAME.evolve(state, event)
    bots = {
        bot_seat: TapestryBot(f"smart-{seed}".encode()),
        1 - bot_seat: RandomBot(f"random-{seed}".encode()),
    }
    while not GAME.is_over(state):
        seat = GAME.pending(state).seats[0]
        command = bots[seat].choose(GAME, state, seat)
        events = GAME.decide(state, seat, command, Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
        assert len(log) < 100_000
    return state, log


def wins(seeds: range) -> int:
    """Games of ``seeds`` the bot wins outright (a tie is not a win), seats alternating."""
    won = 0
    for seed in seeds:
        bot_seat = seed % 2
        state, _ = duel(seed, bot_seat)
        assert state.final_scores is not None
        won += state.final_scores[bot_seat] > state.final_scores[1 - bot_seat]
    return won


def test_bot_beats_random_in_two_player_games() -> None:
    """At least 95% of 20 fixed 2-player games against the random bot are won."""
    assert wins(range(QUICK_GAMES)) >= QUICK_WINS


@pytest.mark.long
@pytest.mark.parametrize("half", [0, 1])
def test_bot_beats_random_in_200_two_player_games(half: int) -> None:
    """The long run: 200 seeds (two halves for ``-n 2``), at least 95% won in all."""
    seeds = range(half * LONG_GAMES // 2, (half + 1) * LONG_GAMES // 2)
    assert wins(seeds) >= LONG_WINS // 2


def test_same_seed_same_moves() -> None:
    """Determinism: the same game seed and bot seeds give the same events."""
    _, first = duel(7, 0)
    _, second = duel(7, 0)
    encode = msgspec.msgpack.encode
    assert [encode(e) for e in first] == [encode(e) for e in second]


def test_choose_leaves_the_state_alone() -> None:
    """The bot decides on private copies: the state it is shown never changes."""
    state = GAME.initial(GAME.decode_options({}), 3)
    for event in GAME.setup(state, Chance(b"untouched", 0)):
        GAME.evolve(state, event)
    bot = TapestryBot(b"look")
    for step in range(60):
        seat = GAME.pending(state).seats[0]
        before = msgspec.msgpack.encode(state)
        command = bot.choose(GAME, state, seat)
        assert msgspec.msgpack.encode(state) == before
        assert command in GAME.legal_actions(state, seat)
        for event in GAME.decide(state, seat, command, Chance(b"untouched", step + 1)):
            GAME.evolve(state, event)


def test_four_bots_finish_a_game_in_seconds() -> None:
    """A 4-player game between four bots ends ("Fin de la partie") with every seat finished,
    in a bounded number of decisions (its time — about 0.7 s — is measured by ``make bench``,
    never asserted here)."""
    state = GAME.initial(GAME.decode_options({}), 4)
    for event in GAME.setup(state, Chance(b"four", 0)):
        GAME.evolve(state, event)
    bots = [TapestryBot(f"four-{s}".encode()) for s in range(4)]
    step = 0
    while not GAME.is_over(state) and step < 5000:
        seat = GAME.pending(state).seats[0]
        command = bots[seat].choose(GAME, state, seat)
        step += 1
        for event in GAME.decide(state, seat, command, Chance(b"four", step)):
            GAME.evolve(state, event)
    assert GAME.is_over(state) and all(s.finished for s in state.seats)


def test_make_bot_and_greedy_hand_tapestry_to_its_bot() -> None:
    """``make_bot("tapestry")`` builds the Tapestry bot; ``greedy`` delegates Tapestry
    decisions to it (same seed, same choice) but keeps its own play for Rise & Fall."""
    assert make_bot("tapestry", b"s").name == "tapestry"
    assert isinstance(game_bot("tapestry", b"s"), TapestryBot)
    assert game_bot("riseandfall", b"s") is None
    assert {"random": RandomBot, "greedy": GreedyBot} == BOTS
    with pytest.raises(ValueError, match="tapestry"):
        make_bot("nobody", b"s")
    state = GAME.initial(GAME.decode_options({}), 2)
    for event in GAME.setup(state, Chance(b"delegate", 0)):
        GAME.evolve(state, event)
    greedy, own = GreedyBot(b"same"), TapestryBot(b"same")
    for step in range(40):
        seat = GAME.pending(state).seats[0]
        command = greedy.choose(GAME, state, seat)
        assert command == own.choose(GAME, state, seat)
        for event in GAME.decide(state, seat, command, Chance(b"delegate", step + 1)):
            GAME.evolve(state, event)


def test_bot_plays_through_the_kernel_with_a_fixed_civilization() -> None:
    """Through the ledger (as the service runs bots), with ``starting_civilizations``: the game
    finishes and the bot's seat started with the civilization asked for."""
    game = Table("tapestry", 2, b"kernel-bot", {"starting_civilizations": ["leaders"]})
    play(game, {0: make_bot("tapestry", b"k0"), 1: make_bot("random", b"k1")})
    state = game.match.state
    assert game.is_over() and state.final_scores is not None
    assert state.seats[0].civs[0] == 10  # Leaders (civilizations.json id 10)


# -- the evaluation --------------------------------------------------------------------------
def test_an_income_building_is_worth_more_early() -> None:
    """ "Tours de revenus": a building taken off the income mat uncovers what the income mat
    pays at every remaining income turn (resources in eras 1-4, VP in eras 2-5). The second
    farm uncovers 4 VP: 4 times from era 1, once from era 4; the first market uncovers a coin,
    never paid again after the fourth income turn."""
    state = table(2)
    worth = {}
    for era in (1, 4):
        state.seats[0].income_turns = era
        for building, counts in (("farm", ([0, 0, 1, 0], [0, 0, 2, 0])),
                                 ("market", ([0, 0, 0, 0], [1, 0, 0, 0]))):  # fmt: skip
            state.seats[0].taken = counts[0]
            before = seat_value(state, 0)
            state.seats[0].taken = counts[1]
            worth[building, era] = seat_value(state, 0) - before
    assert worth["farm", 1] == pytest.approx(4 * 4) and worth["farm", 4] == pytest.approx(4)
    assert worth["market", 1] > 0 and worth["market", 4] == pytest.approx(0)


def test_resources_are_worthless_after_the_fifth_income_turn() -> None:
    """ "Fin de la partie": nothing is bought after the fifth income turn, so resources lose
    their value as the game ends; VP always count."""
    assert list(RESOURCE_VALUE) == sorted(RESOURCE_VALUE, reverse=True)
    assert RESOURCE_VALUE[5] == 0
    state = table(2)
    state.seats[0].finished = True
    state.seats[0].vp = 30
    state.seats[0].resources = [8, 8, 8, 8]
    assert evaluate(state, 0) == 30 - 0.25 * state.seats[1].vp


@pytest.mark.parametrize("era", [1, 4])
def test_bot_advances_while_it_can_pay(era: int) -> None:
    """ "Déroulement du jeu": with resources to spend the bot advances rather than start a new
    era (and in era 4 it spends them before the fifth, last income turn)."""
    state = table(2)
    state.seats[0].income_turns = era
    state.seats[0].resources = [3, 3, 3, 3]
    command = TapestryBot(b"spend").choose(GAME, state, 0)
    assert isinstance(command, Advance)


def test_bot_takes_income_when_it_cannot_pay() -> None:
    """With no resource, the only turn left is an income turn ("Tours de revenus")."""
    state = table(2)
    state.seats[0].resources = [0, 0, 0, 0]
    assert TapestryBot(b"broke").choose(GAME, state, 0) == TakeIncome()

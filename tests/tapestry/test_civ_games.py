"""Seeded whole games for every implemented civilization as a starting civilization.

For each key of :data:`~domain.tapestry.civs.IMPLEMENTED_CIVILIZATIONS` (read when the tests
are collected, so the list grows as civilizations are registered), games of 2 to 5 players
where one seat starts with that civilization (the ``starting_civilizations`` option; the other
seats are dealt theirs at random, "Mise en place des joueurs" A) must:

* finish ("Fin de la partie": every seat past its fifth income turn) with no exception;
* give that seat that civilization first (its rebalancing applies, "Mise en place des
  joueurs" G);
* refold exactly: a fresh fold of the events equals the state held during play.

The option itself (``TapestryOptions.starting_civilizations``) is tested at the end: key or id,
validation (only implemented civilizations, no duplicates, one entry per seat at most), the
other seats dealt as usual, the rebalancing of a fixed starting civilization.

The normal run plays a small sample (one game per civilization and player count, the seat and
the players varying with the seed; a few decisions checked for soundness as in
``test_play``); ``-m long`` plays 200 games per civilization.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import Bot, RandomBot
from domain.core import Chance, Event
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import IMPLEMENTED_CIVILIZATIONS, civ_id, implemented_ids
from domain.tapestry.commands import Choose, TakeIncome
from domain.tapestry.content import CIVILIZATIONS
from domain.tapestry.state import TapestryOptions, TapestryState
from tests.tapestry.helpers import GAME, act, table
from tests.tapestry.test_play import check_sound

#: player counts (2-5) and the games of the long run per civilization (spread over them).
SEATS = (2, 3, 4, 5)
LONG_GAMES = 200
#: games of the long run per test (the 200 per civilization are split for ``-n``).
LONG_CHUNK = 25


def _bytes(state: TapestryState) -> bytes:
    return msgspec.json.encode(msgspec.to_builtins(state), order="sorted")


def civ_game(
    key: str, seats: int, seed: int, smart: bool = False, sample_every: int = 0
) -> tuple[TapestryState, list[Event], TapestryOptions, int]:
    """A whole seeded game where seat ``seed % seats`` starts with civilization ``key``.

    Every seat is a random bot, except the civilization's seat when ``smart`` (the Tapestry
    bot, to reach the states a sensible player reaches). Returns the final state, the events,
    the options and the seat holding ``key``.
    """
    seat_of_civ = seed % seats
    wanted = [""] * seats
    wanted[seat_of_civ] = key
    options = TapestryOptions(starting_civilizations=tuple(wanted))
    game_seed = f"civ-{key}-{seats}-{seed}".encode()
    state = GAME.initial(options, seats)
    log: list[Event] = list(GAME.setup(state, Chance(game_seed, 0)))
    for event in log:
        GAME.evolve(state, event)
    bots: list[Bot] = [RandomBot(f"civ-bot-{seed}-{s}".encode()) for s in range(seats)]
    if smart:
        bots[seat_of_civ] = TapestryBot(f"civ-smart-{seed}".encode())
    commands = 0
    while not GAME.is_over(state):
        pending = GAME.pending(state)
        assert pending.seats, (key, pending, state.agenda[-1:])
        seat = pending.seats[0]
        if sample_every and commands % sample_every == 0:
            actions = GAME.legal_actions(state, seat)
            assert actions, (key, pending)
            check_sound(state, seat, actions, game_seed, len(log))
        command = bots[seat].choose(GAME, state, seat)
        events = GAME.decide(state, seat, command, Chance(game_seed, len(log)))
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
        commands += 1
        assert commands < 8000, (key, seats, seed, "the game does not end")
    return state, log, options, seat_of_civ


def refold(log: list[Event], options: TapestryOptions, seats: int) -> TapestryState:
    """A fresh fold of the events."""
    state = GAME.initial(options, seats)
    for event in log:
        GAME.evolve(state, event)
    return state


def check_game(key: str, seats: int, seed: int, smart: bool, sample_every: int = 0) -> None:
    """One game: it finishes, ``key`` started at its seat, and the fold is exact."""
    state, log, options, seat = civ_game(key, seats, seed, smart, sample_every)
    assert state.seats[seat].civs[0] == civ_id(key)
    assert all(s.finished and s.income_turns == 5 for s in state.seats)
    assert GAME.outcome(state) is not None
    assert _bytes(refold(log, options, seats)) == _bytes(state)


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("key", IMPLEMENTED_CIVILIZATIONS)
def test_a_game_with_each_starting_civilization_finishes_and_refolds(key: str, seats: int) -> None:
    """ "Fin de la partie" with ``key`` as a starting civilization: one game per player count
    (the Tapestry bot holds the civilization in 3- and 5-player games)."""
    check_game(key, seats, seed=seats, smart=seats % 2 == 1, sample_every=47)


@pytest.mark.long
@pytest.mark.parametrize("chunk", range(LONG_GAMES // LONG_CHUNK))
@pytest.mark.parametrize("key", IMPLEMENTED_CIVILIZATIONS)
def test_many_games_with_each_starting_civilization(key: str, chunk: int) -> None:
    """The long run: 200 games per civilization (2-5 players in turn, the civilization's seat
    varying, one game in four with the Tapestry bot holding it) finish and refold exactly."""
    for index in range(chunk * LONG_CHUNK, (chunk + 1) * LONG_CHUNK):
        seed = 1000 + index
        check_game(key, SEATS[index % len(SEATS)], seed, smart=index % 4 == 3)


# -- the option that fixes a starting civilization --------------------------------------------
def _setup(options: TapestryOptions, seats: int, seed: bytes) -> tuple[TapestryState, list[Event]]:
    state = GAME.initial(options, seats)
    events = GAME.setup(state, Chance(seed, 0))
    for event in events:
        GAME.evolve(state, event)
    return state, events


@pytest.mark.parametrize("key", IMPLEMENTED_CIVILIZATIONS)
def test_option_gives_a_seat_its_starting_civilization(key: str) -> None:
    """``starting_civilizations``: the seat starts with that civilization, with no choice; the
    other seats are dealt 2 at random among the rest and keep 1 ("Mise en place des joueurs"
    A), never the fixed one."""
    options = TapestryOptions(starting_civilizations=("", key))
    for seed in (b"fix-a", b"fix-b", b"fix-c"):
        state, events = _setup(options, 3, seed)
        dealt = {e.seat: e.civilizations for e in events if isinstance(e, ev.CivilizationsDealt)}
        assert dealt[1] == (civ_id(key),) and state.seats[1].civs == [civ_id(key)]
        for seat in (0, 2):
            assert len(dealt[seat]) == 2 and civ_id(key) not in dealt[seat]
            assert set(dealt[seat]) <= set(implemented_ids()) and not state.seats[seat].civs
        assert not set(dealt[0]) & set(dealt[2])


def test_option_accepts_a_key_or_an_id_and_every_seat_may_be_fixed() -> None:
    """A civilization is named by its key or its id as text; all seats may be fixed (then
    nobody chooses a civilization), and empty entries deal as usual."""
    keys = IMPLEMENTED_CIVILIZATIONS[:4]
    named = (keys[0], str(civ_id(keys[1])), keys[2], str(civ_id(keys[3])))
    state, _ = _setup(TapestryOptions(starting_civilizations=named), 4, b"all-fixed")
    assert [s.civs for s in state.seats] == [[civ_id(k)] for k in keys]


def test_empty_entries_deal_exactly_as_without_the_option() -> None:
    """An empty entry (or no entry) is "deal at random": the same seed gives the same setup
    as a game without the option (the draw does not change)."""
    _, plain = _setup(TapestryOptions(), 3, b"same-deal")
    _, blank = _setup(TapestryOptions(starting_civilizations=("", "", "")), 3, b"same-deal")
    assert plain == blank


def test_option_rebalancing_applies_to_the_fixed_civilization() -> None:
    """ "Mise en place des joueurs" G: a civilization fixed by the option is a starting
    civilization, so its rebalancing applies (The Chosen: 15 VP per opponent)."""
    if "the_chosen" not in IMPLEMENTED_CIVILIZATIONS:
        pytest.fail("The Chosen is not implemented")
    options = TapestryOptions(starting_civilizations=("the_chosen",))
    state, _ = _setup(options, 3, b"chosen")
    while GAME.is_setup(state):
        seat = GAME.pending(state).seats[0]
        for event in GAME.decide(state, seat, GAME.legal_actions(state, seat)[0], Chance(b"c", 1)):
            GAME.evolve(state, event)
    assert state.seats[0].vp == 15 * 2


@pytest.mark.parametrize(
    "wanted",
    [
        ("atlanteans",),  # no such civilization
        ("militants", "militants"),  # twice
        ("12", "militants"),  # twice, by id and by key
        ("0",),
    ],
)
def test_option_refuses_unknown_or_repeated_civilizations(wanted: tuple[str, ...]) -> None:
    """Only implemented civilizations, each at most once (options are validated when decoded,
    as the service does: ``msgspec.ValidationError``)."""
    with pytest.raises(msgspec.ValidationError):
        GAME.decode_options({"starting_civilizations": list(wanted)})


def test_option_refuses_a_name_that_is_no_civilization() -> None:
    """A name that is no base civilization (every one of the 16 is implemented) is refused."""
    base = [c for c in CIVILIZATIONS.values() if not c.box]
    assert len(base) == 16 and all(c.key in IMPLEMENTED_CIVILIZATIONS for c in base)
    with pytest.raises(msgspec.ValidationError):
        GAME.decode_options({"starting_civilizations": ["atlanteans"]})


def test_option_refuses_more_entries_than_seats() -> None:
    """One entry per seat at most (the service turns this ``ValueError`` into an invalid
    argument)."""
    options = GAME.decode_options({"starting_civilizations": ["", "", ""]})
    with pytest.raises(ValueError, match="seats"):
        GAME.initial(options, 2)


# -- found by the mass games -------------------------------------------------------------------
def test_alchemists_roll_again_keeps_the_marks_and_a_repeat_fails() -> None:
    """Player aid, Alchimistes: each roll marks its track; rolling again keeps the marks, and a
    track already marked fails (one resource of choice instead). So a seat that always rolls
    again fails by its fifth roll (four tracks); the marks used to be wiped at each roll, which
    let a bot that always rolls again loop for ever."""
    if "alchemists" not in IMPLEMENTED_CIVILIZATIONS:
        pytest.fail("the Alchemists are not implemented")
    for attempt in range(6):
        state = table(2, f"alchemy-{attempt}".encode())
        state.seats[0].civs = [civ_id("alchemists")]
        act(state, 0, TakeIncome(), f"alchemy-{attempt}".encode())
        marks: list[int] = []
        rolls = 0
        while GAME.pending(state).decision == "civilization" and state.agenda[-1].token == (
            "alchemists"
        ):
            now = state.seats[0].civ_tokens["alchemists"]
            assert now[: len(marks)] == marks and len(now) == len(marks) + 1
            marks = list(now)
            rolls += 1
            assert rolls <= 4
            act(state, 0, Choose(index=0), f"alchemy-{attempt}-{rolls}".encode())
        assert state.seats[0].civ_tokens["alchemists"] == []
        assert GAME.pending(state).decision == "resource"

"""Helpers for the tests of the Plans & Ploys civilizations: a small table with the box in
play, a mat's income ability, a civilization gained mid-game, and seeded whole games."""

from __future__ import annotations

import msgspec

from domain.bots import make_bot
from domain.core import Event
from domain.tapestry.civs import civ_id
from domain.tapestry.state import Frame, TapestryState
from tests.tapestry.box_civ_helpers import play_bots, play_boxed, refold, state_bytes
from tests.tapestry.helpers import table
from tests.tapestry.test_cards_support import run_frames

BOX = "plans_and_ploys"


def seated(key: str, seats: int = 2) -> TapestryState:
    """Seat 0 holds civilization ``key`` in a ``seats``-seat game with Plans & Ploys."""
    state = table(seats)
    state.rules = msgspec.structs.replace(state.rules, expansions=(BOX,))
    state.seats[0].civs = [civ_id(key)]
    return state


def income(state: TapestryState, key: str, era: int = 2, seat: int = 0) -> list[Event]:
    """Step 1 of income turn ``era`` for ``seat``: the ability of civilization ``key``."""
    return run_frames(state, Frame(kind="civ_income", seat=seat, token=key, ints=(era,)))


def gain_mid_game(state: TapestryState, key: str, seat: int = 0) -> list[Event]:
    """``seat`` gains civilization ``key`` during the game (as a kept draw)."""
    state.seats[seat].civ_offer = [civ_id(key)]
    return run_frames(state, Frame(kind="keep_civilization", seat=seat))  # its only option


def seeded_games_refold(key: str, count: int = 1) -> list[TapestryState]:
    """Whole seeded games at 2-5 seats with seat 0 starting with ``key`` (random legal
    choices); each log folds to the held state; the final states."""
    finals = []
    for seats in (2, 3, 4, 5):
        for seed in range(count):
            state, log = play_boxed(key, seats, seed)
            assert refold(key, log, seats) == state_bytes(state)
            assert state.seats[0].civs[0] == civ_id(key)
            assert all(s.finished for s in state.seats)
            finals.append(state)
    return finals


def bot_game(key: str, bot: str, seats: int = 3) -> tuple[TapestryState, list[Event]]:
    """A whole game where seat 0 starts with ``key`` and every seat is played by ``bot``."""
    bots = [make_bot(bot, f"pp-{key}-{bot}-{i}".encode()) for i in range(seats)]
    state, log = play_bots(key, bots, f"pp-{key}-{bot}".encode())
    assert refold(key, log, seats) == state_bytes(state)
    return state, log


def events_of(log: list[Event], cls: type[Event], seat: int = 0) -> list[Event]:
    """Events of class ``cls`` for ``seat`` (by their ``seat`` field)."""
    return [e for e in log if isinstance(e, cls) and getattr(e, "seat", -1) == seat]

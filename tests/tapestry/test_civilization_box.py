"""The expansion variant "MM AA FF Vous pouvez contraindre les joueurs à piocher les
civilisations dans la même extension" (rulebook, VARIANTES): option ``civilization_box`` of
``tapestry/2``."""

from __future__ import annotations

import pytest

from domain.core import Chance, MalformedCommand
from domain.tapestry import content as C
from domain.tapestry.civs import BOX_CIVILIZATIONS, BOX_GAINABLE, _random_civ, civ_id
from domain.tapestry.engine import Ctx
from domain.tapestry.events import CivilizationGained, CivilizationsDealt, CivilizationsOffered
from domain.tapestry.game import TapestryGame, TapestryGame2
from domain.tapestry.state import EXPANSIONS, Frame, TapestryState
from domain.tapestry.view import variants_of
from tests.harness import state_bytes

GAME2 = TapestryGame2()


def _setup(options: dict[str, object], seats: int, seed: bytes) -> TapestryState:
    state = GAME2.initial(GAME2.decode_options(options), seats)
    for event in GAME2.setup(state, Chance(seed, 0)):
        GAME2.evolve(state, event)
    return state


def _dealt(options: dict[str, object], seats: int, seed: bytes) -> set[int]:
    state = GAME2.initial(GAME2.decode_options(options), seats)
    return {
        civ
        for e in GAME2.setup(state, Chance(seed, 0))
        if isinstance(e, CivilizationsDealt)
        for civ in e.civilizations
    }


@pytest.mark.parametrize("box", EXPANSIONS)
def test_every_civilization_dealt_comes_from_the_chosen_box(box: str) -> None:
    """VARIANTES « piocher les civilisations dans la même extension »: with the three boxes in
    play and the variant on, every civilization dealt at setup is one of that box's mats; with
    it off, the deal draws from the base game and every box."""
    boxes = list(EXPANSIONS)
    ids = {civ_id(k) for k in BOX_CIVILIZATIONS[box]}
    dealt: set[int] = set()
    for seats in (2, 3, 4, 5):
        for seed in range(6):
            dealt |= _dealt(
                {"expansions": boxes, "civilization_box": box}, seats, f"cb{seed}".encode()
            )
    assert dealt and dealt <= ids
    mixed: set[int] = set()
    for seed in range(6):
        mixed |= _dealt({"expansions": boxes}, 4, f"cb{seed}".encode())
    assert mixed - ids, "without the variant other mats are dealt too"


def test_five_seats_with_a_box_of_five_mats_get_one_each() -> None:
    """Arts & Architecture has 5 mats: at 5 seats each seat is dealt one (the deal shrinks
    rather than running out), all different."""
    options = {"expansions": ["arts_and_architecture"], "civilization_box": "arts_and_architecture"}
    state = GAME2.initial(GAME2.decode_options(options), 5)
    deals = [e for e in GAME2.setup(state, Chance(b"five", 0)) if isinstance(e, CivilizationsDealt)]
    hands = [c for e in deals for c in e.civilizations]
    assert len(deals) == 5 and all(len(e.civilizations) == 1 for e in deals)
    assert sorted(hands) == sorted(civ_id(k) for k in BOX_CIVILIZATIONS["arts_and_architecture"])


def test_a_civilization_gained_during_the_game_comes_from_the_box() -> None:
    """The variant covers every draw (« piocher les civilisations »): a civilization gained
    during the game is one of the box's gainable mats; a box with none gives nothing."""
    gained: set[int] = set()
    for seed in range(30):
        state = _setup(
            {"expansions": list(EXPANSIONS), "civilization_box": "plans_and_ploys"}, 3, b"gain"
        )
        ctx = Ctx(state, Chance(f"g{seed}".encode(), 7))
        _random_civ(ctx, 0, 1, Frame(kind="expr", seat=0))
        for e in ctx.events:
            if isinstance(e, CivilizationGained):
                gained.add(e.civilization)
            elif isinstance(e, CivilizationsOffered):
                gained.update(e.civilizations)
    assert gained and gained <= {civ_id(k) for k in BOX_GAINABLE["plans_and_ploys"]}
    for box in EXPANSIONS:
        if not BOX_GAINABLE.get(box):
            state = _setup({"expansions": [box], "civilization_box": box}, 3, b"none")
            ctx = Ctx(state, Chance(b"none", 7))
            _random_civ(ctx, 0, 1, Frame(kind="expr", seat=0))
            assert not [e for e in ctx.events if isinstance(e, CivilizationGained)]


def test_the_box_must_be_in_play_and_tapestry_1_has_no_such_option() -> None:
    """A box that is not in ``expansions`` is refused naming the option; ``tapestry/1`` refuses
    the option; a starting civilization from another box in play is allowed."""
    with pytest.raises((ValueError, MalformedCommand), match="civilization_box"):
        GAME2.decode_options({"expansions": ["plans_and_ploys"], "civilization_box": "x"})
    with pytest.raises((ValueError, MalformedCommand), match="civilization_box"):
        GAME2.decode_options({"civilization_box": "plans_and_ploys"})
    with pytest.raises((ValueError, MalformedCommand)):
        TapestryGame().decode_options({"civilization_box": "plans_and_ploys"})
    options = {
        "expansions": ["plans_and_ploys", "fantasies_and_futures"],
        "civilization_box": "plans_and_ploys",
        "starting_civilizations": ["faefolk"],
    }
    state = _setup(options, 2, b"fixed")
    held = [*state.seats[0].civs, *state.seats[0].civ_offer]
    assert [C.CIVILIZATIONS[c].key for c in held] == ["faefolk"]
    assert variants_of(state) == ("civilization_box",)


def test_a_whole_game_with_the_variant_refolds() -> None:
    """A seeded 4-seat game with the three boxes and the variant on Fantasies & Futures plays
    to its end with random legal choices; the events refold to the state held."""
    options = {"expansions": list(EXPANSIONS), "civilization_box": "fantasies_and_futures"}
    seed = b"box-game"
    state = GAME2.initial(GAME2.decode_options(options), 4)
    log = list(GAME2.setup(state, Chance(seed, 0)))
    for event in log:
        GAME2.evolve(state, event)
    bot = Chance(b"box-bot", 0)
    for _ in range(8000):
        if GAME2.is_over(state):
            break
        seat = GAME2.pending(state).seats[0]
        events = GAME2.decide(
            state, seat, bot.choice(GAME2.legal_actions(state, seat)), Chance(seed, len(log))
        )
        for event in events:
            GAME2.evolve(state, event)
        log.extend(events)
    assert GAME2.is_over(state)
    ff = {civ_id(k) for k in BOX_CIVILIZATIONS["fantasies_and_futures"]}
    assert all(set(s.civs) <= ff for s in state.seats)
    fresh = GAME2.initial(GAME2.decode_options(options), 4)
    for event in log:
        fresh = GAME2.evolve(fresh, event)
    assert state_bytes(GAME2, fresh) == state_bytes(GAME2, state)

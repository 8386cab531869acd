"""Civilizations gained during the game ("gain_random_civilization": Military space 12, a tech
card's square benefit) checked against the rules.

* "Règles générales", CIVILISATIONS: extra civilizations may be gained (end of the Military
  track, tech cards...) and are put beside the first one (the player aid: "Ajoutez-les à
  gauche de votre fiche");
* "Mise en place des joueurs" A: the unused mats, the discarded ones included, are shuffled
  together: a gain is a random draw among the civilizations nobody holds;
* player aid, CIVILISATIONS: The Chosen and the Mystics "cannot be gained during the game";
  the Futurists are replaced by another draw (the reference's ``gained_mid_game`` rule: their
  only effect is a setup), so they are never gained either;
* "Rééquilibrage des civilisations": "N'appliquez pas ces règles pour les civilisations
  obtenues pendant la partie" — no rebalancing for a gained civilization;
* player aid, CIVILISATIONS "(interdit en solo)": the solo restrictions are recorded as data
  for the later solo mode;
* "Tours de revenus" 1: a gained civilization's income ability works from the next income
  turn on, after the starting one (the engine's order; see the module ``civs``);
* Militants gained (player aid, "Gain en cours de jeu"): the outposts left go on the mat from
  right to left, row by row as chosen (:mod:`domain.tapestry.civ_militants`).

The pool only holds civilizations whose mid-game rule the engine implements
(:data:`~domain.tapestry.civs.GAINABLE`); the tests read it, so they follow its growth.
"""

from __future__ import annotations

import pytest

from domain.core import Chance, Event
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import GAINABLE, IMPLEMENTED_CIVILIZATIONS, civ_id, implemented_ids
from domain.tapestry.commands import Choose, ChooseCivilization, TakeIncome
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState
from tests.tapestry.helpers import GAME, act, of, table

RANDOM_CIV = gain("gain_random_civilization")
#: civilizations the rules forbid to gain mid-game (player aid), and those drawn again.
NEVER_GAINED = {"the_chosen", "mystics"}
REDRAWN = {"futurists"}


def gain_civ(state: TapestryState, seat: int, seed: bytes = b"gain") -> list[Event]:
    """``seat`` gains a random civilization (decided with ``seed``); the events."""
    state.agenda = [Frame(kind="choose", seat=seat, options=(RANDOM_CIV, gain("_nothing")))]
    events = GAME.decide(state, seat, Choose(index=0), Chance(seed, 0))
    for event in events:
        GAME.evolve(state, event)
    return events


def started(key: str) -> TapestryState:
    """A 2-player table where seat 0 holds ``key`` as its starting civilization."""
    state = table(2)
    state.seats[0].civs = [civ_id(key)]
    state.civs_out = [civ_id(key)]
    return state


def first_other(*keys: str) -> str:
    """An implemented civilization other than ``keys`` (to start with)."""
    return next(k for k in IMPLEMENTED_CIVILIZATIONS if k not in keys)


def settle_all(state: TapestryState, limit: int = 300) -> list[Event]:
    """Answer every pending decision with its first option until the next turn; the events."""
    events: list[Event] = []
    for _ in range(limit):
        pending = GAME.pending(state)
        if not pending.seats or pending.decision == "turn":
            return events
        seat = pending.seats[0]
        events += act(state, seat, GAME.legal_actions(state, seat)[0])
    raise AssertionError("the decisions do not end")


def test_the_gainable_pool_follows_the_rules() -> None:
    """Player aid: The Chosen and the Mystics cannot be gained; the content says so, and the
    engine's pool of gainable civilizations holds neither (nor the Futurists)."""
    flags = {c.key: c.gainable_mid_game for c in C.CIVILIZATIONS.values()}
    assert {k for k, ok in flags.items() if not ok} == NEVER_GAINED | REDRAWN
    assert not set(GAINABLE) & (NEVER_GAINED | REDRAWN)
    assert set(GAINABLE) <= set(IMPLEMENTED_CIVILIZATIONS)


def test_every_implemented_civilization_that_may_be_gained_is_in_the_pool() -> None:
    """ "Règles générales", CIVILISATIONS: any civilization nobody holds may be gained (but the
    three above); every implemented one is in the engine's pool, so the draw is not skewed by
    a missing mid-game rule."""
    flags = {c.key: c.gainable_mid_game for c in C.CIVILIZATIONS.values()}
    assert set(GAINABLE) == {k for k in IMPLEMENTED_CIVILIZATIONS if flags[k]}


def test_solo_restrictions_are_recorded_as_data() -> None:
    """Player aid, CIVILISATIONS: Futurists, Heralds, Inventors and Traders are "interdit en
    solo"; the content records it (``solo``) for the later solo mode. Plans & Ploys: « retirer
    aussi les fiches Conseillers et Espions »; the facts folder adds the Genies, Illuminati and
    Weefolk of Fantasies & Futures (``solo_allowed`` false)."""
    banned = {c.key for c in C.CIVILIZATIONS.values() if not c.solo}
    assert banned == {
        "futurists",
        "heralds",
        "inventors",
        "traders",
        "advisors",
        "spies",
        "genies",
        "illuminati",
        "weefolk",
    }


def test_a_random_draw_among_the_civilizations_nobody_holds() -> None:
    """ "Mise en place des joueurs" A: the unused mats (discarded ones included) form the pool;
    a gain draws at random from it: over many draws each civilization of the pool comes up,
    and none held by a seat ever does."""
    state = started(GAINABLE[0])
    held = {civ_id(GAINABLE[0])}
    if len(GAINABLE) > 2:
        state.seats[1].civs = [civ_id(GAINABLE[1])]
        state.civs_out.append(civ_id(GAINABLE[1]))
        held.add(civ_id(GAINABLE[1]))
    pool = {civ_id(k) for k in GAINABLE} - held
    seen: set[int] = set()
    for n in range(120):
        trial = GAME.copy_state(state)
        gained = of(gain_civ(trial, 0, f"draw-{n}".encode()), ev.CivilizationGained)
        assert len(gained) == 1 and gained[0].civilization in pool
        seen.add(gained[0].civilization)
    assert seen == pool


def test_a_civilization_discarded_at_setup_goes_back_in_the_pool() -> None:
    """ "Mise en place des joueurs" A: the civilization not kept is shuffled back with the
    unused ones, so it may be gained later (here it is the only one left to gain)."""
    state = GAME.initial(GAME.decode_options({}), 2)
    for event in GAME.setup(state, Chance(b"discard", 0)):
        GAME.evolve(state, event)
    offer = [c for c in state.seats[0].civ_offer if C.CIVILIZATIONS[c].key in GAINABLE]
    if len(state.seats[0].civ_offer) < 2 or not offer:
        pytest.fail("no gainable civilization dropped at this setup")
    dropped = offer[0]
    kept = next(c for c in state.seats[0].civ_offer if c != dropped)
    act(state, 0, ChooseCivilization(civilization=kept))
    assert dropped not in state.civs_out and kept in state.civs_out
    later = started(C.CIVILIZATIONS[kept].key)
    later.civs_out = [c for c in range(1, 17) if c != dropped]
    gained = of(gain_civ(later, 0), ev.CivilizationGained)
    assert [e.civilization for e in gained] == [dropped]


def test_the_gained_civilization_goes_beside_the_first() -> None:
    """ "Règles générales", CIVILISATIONS: the new mat is added beside the first one; the
    starting civilization stays first, and the gained one is out of the pool."""
    start = first_other(GAINABLE[0])
    state = started(start)
    state.civs_out += [civ_id(k) for k in GAINABLE[1:] if k != start]
    events = gain_civ(state, 0)
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [civ_id(GAINABLE[0])]
    assert state.seats[0].civs == [civ_id(start), civ_id(GAINABLE[0])]
    assert civ_id(GAINABLE[0]) in state.civs_out


def test_two_gains_give_two_different_civilizations() -> None:
    """A civilization gained is no longer in the pool: a second gain draws another one."""
    if len(GAINABLE) < 2:
        pytest.fail("fewer than two gainable civilizations")
    state = started(first_other(*GAINABLE[:2]))
    state.civs_out += [civ_id(k) for k in GAINABLE[2:]]
    gain_civ(state, 0, b"one")
    settle_all(state)
    gain_civ(state, 0, b"two")
    assert sorted(state.seats[0].civs[1:]) == sorted(civ_id(k) for k in GAINABLE[:2])


@pytest.mark.parametrize("key", sorted(NEVER_GAINED | REDRAWN))
def test_the_chosen_mystics_and_futurists_are_never_gained(key: str) -> None:
    """Player aid: The Chosen and the Mystics cannot be gained during the game (the Futurists
    are drawn again): with only those left, a gain brings nothing."""
    state = started(first_other(key))
    state.civs_out = [c for c in range(1, 17) if C.CIVILIZATIONS[c].key != key]
    for n in range(10):
        trial = GAME.copy_state(state)
        assert of(gain_civ(trial, 0, f"never-{n}".encode()), ev.CivilizationGained) == []
        assert civ_id(key) not in trial.seats[0].civs


def _adjusted(events: list[Event]) -> list[Event]:
    """Events or agenda frames that come from a rebalancing adjustment."""
    found: list[Event] = []
    for event in events:
        if isinstance(event, ev.VPScored | ev.ResourcesChanged) and "adjustment" in event.reason:
            found.append(event)
        if isinstance(event, ev.AgendaSet) and any("adjustment" in f.source for f in event.frames):
            found.append(event)
    return found


@pytest.mark.parametrize("key", GAINABLE)
def test_no_rebalancing_for_a_gained_civilization(key: str) -> None:
    """ "Rééquilibrage des civilisations": not applied to a civilization gained during the
    game — whatever its own rule for being gained does, no adjustment is given or taken."""
    state = started(first_other(key))
    state.civs_out = [c for c in implemented_ids() if c != civ_id(key)]
    vp_before = state.seats[0].vp
    events = gain_civ(state, 0)
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [civ_id(key)]
    events += settle_all(state)
    assert _adjusted(events) == []
    record = C.CIVILIZATIONS[civ_id(key)]
    if record.adjustment_vp_per_opponent or record.adjustment_gain is not None:
        gained_vp = sum(e.vp for e in of(events, ev.VPScored) if e.seat == 0)
        assert state.seats[0].vp == vp_before + gained_vp


@pytest.mark.parametrize(
    "key", [k for k in IMPLEMENTED_CIVILIZATIONS if C.CIVILIZATIONS[civ_id(k)].adjustment]
)
def test_the_same_civilization_at_the_start_is_rebalanced(key: str) -> None:
    """The contrast ("Mise en place des joueurs" G): held from the start (the
    ``starting_civilizations`` option), a civilization with a rebalancing gets it (by the end
    of the first income turn, where the F.À.Q. puts the losses)."""
    options = GAME.decode_options({"starting_civilizations": [key]})
    state = GAME.initial(options, 3)
    log = list(GAME.setup(state, Chance(b"rebalanced", 0)))
    for event in log:
        GAME.evolve(state, event)
    step = 0
    while not all(s.income_turns for s in state.seats) or GAME.pending(state).decision != "turn":
        seat = GAME.pending(state).seats[0]
        step += 1
        events = GAME.decide(state, seat, GAME.legal_actions(state, seat)[0], Chance(b"r", step))
        for event in events:
            GAME.evolve(state, event)
        log += events
        assert step < 300
    sources = {f.source for e in of(log, ev.AgendaSet) for f in e.frames}
    reasons = {e.reason for e in log if isinstance(e, ev.VPScored | ev.ResourcesChanged)}
    assert f"adjustment:{key}" in sources | reasons


def test_a_gained_civilization_works_from_the_next_income_turn() -> None:
    """ "Tours de revenus" 1 (income turns 2-5): the gained civilization's ability works at the
    next income turn, after the starting civilization's."""
    candidates = [k for k in GAINABLE if k in ("leaders", "merrymakers", "entertainers")]
    if not candidates:
        pytest.fail("no gainable civilization with a simple income ability")
    key = candidates[0]
    state = started(first_other(key))
    state.seats[0].civs = []
    state.civs_out = [c for c in implemented_ids() if c != civ_id(key)]
    gain_civ(state, 0)
    settle_all(state)
    assert state.seats[0].civs == [civ_id(key)]
    state.agenda = [Frame(kind="turn", seat=0)]
    act(state, 0, TakeIncome())
    assert GAME.pending(state).decision == "civilization"
    assert state.agenda[-1].token == key


@pytest.mark.parametrize(("left", "rows"), [(8, [0, 0]), (0, [4, 4]), (3, None), (6, None)])
def test_militants_gained_put_the_outposts_left_on_their_mat(
    left: int, rows: list[int] | None
) -> None:
    """Player aid, Militants, "Gain en cours de jeu": the outposts left go on the mat from
    right to left, the row of each chosen; the spaces left bare (counted from the left) are
    uncovered. 8 left cover the mat as at the start, none leave it bare."""
    state = started(first_other("militants"))
    state.civs_out = [c for c in implemented_ids() if c != civ_id("militants")]
    state.seats[0].outposts = left
    gain_civ(state, 0)
    assert state.seats[0].civs[-1] == civ_id("militants")
    asked = 0
    while GAME.pending(state).decision == "militants_place":
        options = GAME.legal_actions(state, 0)
        assert options == [Choose(index=0), Choose(index=1)]
        act(state, 0, options[asked % 2])
        asked += 1
    bare = state.seats[0].civ_tokens["militants"]
    assert sum(bare) == 8 - left and all(0 <= b <= 4 for b in bare)
    if rows is not None:
        assert bare == rows
    else:
        assert asked >= 1 and state.seats[0].outposts == left


def test_gained_militants_pay_their_bare_spaces_at_the_next_income_turn() -> None:
    """Player aid, Militants: "Lors d'un tour de Revenus, gagnez tous les bénéfices dévoilés" —
    a gained mat with one bare space per row (6 outposts left) pays its two leftmost spaces
    (a coin, 1 VP) at the next income turn."""
    state = started(first_other("militants"))
    state.seats[0].civs = []
    state.civs_out = [c for c in implemented_ids() if c != civ_id("militants")]
    state.seats[0].outposts = 6
    gain_civ(state, 0)
    while GAME.pending(state).decision == "militants_place":
        bare = state.seats[0].civ_tokens["militants"]
        act(state, 0, Choose(index=0 if bare[0] > 1 else 1))
    assert state.seats[0].civ_tokens["militants"] == [1, 1]
    state.agenda = [Frame(kind="turn", seat=0)]
    events = act(state, 0, TakeIncome())
    paid = [
        e
        for e in events
        if isinstance(e, ev.VPScored | ev.ResourcesChanged) and e.reason == "civ:militants"
    ]
    assert paid == [
        ev.ResourcesChanged(seat=0, delta=(1, 0, 0, 0), reason="civ:militants"),
        ev.VPScored(seat=0, vp=1, reason="civ:militants"),
    ]

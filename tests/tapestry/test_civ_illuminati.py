"""Illuminati (Fantasies & Futures): the three dice live on their mat.

Sources: facts folder ``civilizations.json#45`` (setup: draw 3 tapestry cards, keep 1, the
three dice on the mat; an opponent taking the conquest dice gives both results; the science
die an advance without benefit or bonus; own rolls return the die, an opponent's leave it off
until the next income turn, a reroll gives only the first result; income turns 2-5: 6 VP per
die still on the mat, then all return), rulebook "FIN DE PARTIE" (a finished player gains
nothing more), "RÉÉQUILIBRAGE DES CIVILISATIONS" (no Illuminati entry).
"""

from __future__ import annotations

import msgspec

from domain.bots import RandomBot
from domain.tapestry import civ_illuminati as ill
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import expr_frame, frame
from domain.tapestry.rules import dump, gain
from domain.tapestry.state import TapestryOptions, TapestryState
from tests.tapestry.box_civ_helpers import (
    GAME2,
    box_of,
    play_bots,
    play_boxed,
    refold,
    state_bytes,
)
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    options,
    pending_seat,
    run_frames,
    settle_turn,
    vp_of,
)

KEY = "illuminati"


def illuminati(seats: int = 3) -> TapestryState:
    """Seat 0 holds the Illuminati, all three dice on its mat."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def test_setup_draws_three_keeps_one() -> None:
    """Setup: draw 3 tapestry cards, keep 1 (its id), discard the other 2."""
    state = illuminati(2)
    events = run_frames(state, *civs.setup_frames(state, 0))
    drawn = of(events, ev.TapestryDrawn)[0].cards
    assert len(drawn) == 3 and decision(state) == ill.KEEP
    assert state.agenda[-1].ints == (3,)  # the public frame (AgendaSet) names no card
    assert options(state) == [Choose(index=c) for c in sorted(set(drawn))]
    kept = drawn[1]
    events = answer(state, Choose(index=kept))
    assert state.seats[0].hand == [kept]
    assert sorted(of(events, ev.TapestryDiscarded)[0].cards) == sorted(
        c for i, c in enumerate(drawn) if i != 1
    )


def test_dice_start_on_the_mat() -> None:
    """Setup: all three dice (science, red, black) on the mat."""
    assert ill.dice_on_mat(illuminati(), 0) == [1, 1, 1]


def test_opponent_conquest_roll_gives_both_faces() -> None:
    """An opponent rolling the conquer dice from the mat: the Illuminati gain both faces
    (after the conqueror's own), and the dice stay off the mat."""
    state = illuminati(2)
    home = state.seats[1].home
    events = run_frames(state, frame("dice", 1, ints=(home, 0, -1)))
    rolled = of(events, ev.ConquerDiceRolled)[0]
    assert ill.dice_on_mat(state, 0) == [1, 0, 0]
    assert decision(state) == "choose_die" and pending_seat(state) == 1
    faces = [expr_frame(0, C.RED_DIE[rolled.red]), expr_frame(0, C.BLACK_DIE[rolled.black])]
    wanted = ["tile" if "gain_conquered_tile_benefit" in f.expr else f.expr for f in faces]
    mine = [f for f in state.agenda if f.source == f"civ:{KEY}"]
    got = ["tile" if f.kind == "tile_benefit" else f.expr for f in mine]
    assert sorted(got) == sorted(wanted)


def test_an_opponent_reroll_gives_nothing_more() -> None:
    """A die already taken by an opponent gives only its first roll: the second conquest
    roll finds the dice off the mat."""
    state = illuminati(2)
    home = state.seats[1].home
    state.seats[0].civ_tokens[KEY] = [1, 0, 0]
    events = run_frames(state, frame("dice", 1, ints=(home, 0, -1)))
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == KEY]
    assert not [f for f in state.agenda if f.source == f"civ:{KEY}"]


def test_opponent_single_die_throw_gives_its_face() -> None:
    """A conquer die thrown alone by an opponent (a Treasure Hunters treasure: the red die
    twice, ``DieRolled``) is taken from the mat: the Illuminati gain the face of the first
    throw only, that die stays off the mat and the black die stays on it."""
    state = illuminati(2)
    home = state.seats[1].home
    top = expr_frame(1, gain("roll_red_die_twice_gain_both"), f"civ:treasure_hunters:{home}")
    events = run_frames(state, top)
    throws = of(events, ev.DieRolled)
    assert [t.die for t in throws] == ["red", "red"]
    assert ill.dice_on_mat(state, 0) == [1, 0, 1]
    taken = next(i for i, e in enumerate(events) if isinstance(e, ev.CivTokensSet))
    after = [e for e in events[taken + 1 :] if getattr(e, "seat", None) == 0]
    assert after or pending_seat(state) == 0
    assert dump(C.RED_DIE[throws[0].face]) == '{"kind":"gain","token":"vp","count":5}'
    assert vp_of(events, 0, f"civ:{KEY}") == 5


def test_own_single_die_throw_leaves_the_mat_alone() -> None:
    """The Illuminati's own single-die throw returns the die: the mat does not change."""
    state = illuminati(2)
    home = state.seats[0].home
    top = expr_frame(0, gain("roll_red_die_twice_gain_both"), f"civ:treasure_hunters:{home}")
    events = run_frames(state, top)
    assert of(events, ev.DieRolled)
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == KEY]
    assert ill.dice_on_mat(state, 0) == [1, 1, 1]


def test_opponent_science_roll_offers_a_bare_advance() -> None:
    """An opponent rolling the science die from the mat: the Illuminati may advance on that
    track, no benefit and no bonus; the die stays off the mat."""
    state = illuminati(2)
    events = run_frames(state, frame("roll", 1, ints=(1,)))
    track = next(e for e in of(events, ev.ScienceDieRolled)).track
    while decision(state) != ill.ADVANCE:
        answer(state, options(state)[0])
    assert pending_seat(state) == 0 and ill.dice_on_mat(state, 0) == [0, 1, 1]
    assert options(state) == [Choose(index=0), Decline()]
    from domain.tapestry.state import TRACK_IDS

    index = TRACK_IDS.index(track)
    before = list(state.seats[0].resources)
    answer(state, Choose(index=0))
    assert state.seats[0].tracks[index] == [1]
    assert state.seats[0].resources == before


def test_own_roll_keeps_the_die_on_the_mat() -> None:
    """The Illuminati's own roll puts the die back: nothing changes on the mat."""
    state = illuminati(2)
    events = run_frames(state, frame("roll", 0, ints=(1,)))
    assert of(events, ev.ScienceDieRolled)
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == KEY]
    assert ill.dice_on_mat(state, 0) == [1, 1, 1]


def test_income_scores_six_per_die_then_all_return() -> None:
    """Income turns 2-5: 6 VP per die still on the mat, then all three return."""
    state = illuminati(2)
    state.seats[0].civ_tokens[KEY] = [1, 0, 0]
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert sum(e.vp for e in of(events, ev.VPScored) if e.seat == 0) == 6
    assert ill.dice_on_mat(state, 0) == [1, 1, 1]
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    assert sum(e.vp for e in of(events, ev.VPScored) if e.seat == 0) == 18


def test_a_finished_illuminati_gains_nothing() -> None:
    """ "FIN DE PARTIE": after income turn 5 a die rolled by an opponent gives nothing."""
    state = illuminati(2)
    state.seats[0].finished = True
    events = run_frames(state, frame("roll", 1, ints=(1,)))
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == KEY]
    assert vp_of(events, 0, "illuminati") == 0


def _finished_under(revision: int) -> TapestryState:
    """Seat 0 holds the Illuminati and has finished (income turn 5 behind it), rules
    revision ``revision``."""
    state = illuminati(2)
    state.rules = msgspec.structs.replace(state.rules, revision=revision)
    state.seats[0].finished = True
    state.seats[0].income_turns = 5
    return state


def test_a_finished_illuminati_scores_the_points_of_conquer_dice_from_tapestry_4() -> None:
    """ "FIN DE PARTIE" (rulebook l.546: « vous pouvez toujours gagner des points grâce à des
    capacités passives de civilisation, mais vous ne pouvez plus rien gagner d'autre »): from
    ``tapestry/4`` an opponent's conquest roll still gives a finished Illuminati the red die's
    face (points on every face) and not the black die's (resources, a territory's benefit);
    the dice leave the mat. ``tapestry/3`` gave nothing and left the dice on the mat."""
    state = _finished_under(4)
    before = state.seats[0].vp
    events = run_frames(state, frame("dice", 1, ints=(state.seats[1].home, 0, -1)))
    rolled = of(events, ev.ConquerDiceRolled)[0]
    assert ill.dice_on_mat(state, 0) == [1, 0, 0]
    mine = [f for f in state.agenda if f.source == f"civ:{KEY}"]
    assert [f.expr for f in mine] == [expr_frame(0, C.RED_DIE[rolled.red]).expr]
    face = C.RED_DIE[rolled.red]
    settle_turn(state)  # the conqueror's choice of die, then the Illuminati's face
    assert isinstance(face, C.Gain) and face.token == "vp"  # this seed's face: plain VP
    assert state.seats[0].vp - before == face.count
    old = _finished_under(3)
    run_frames(old, frame("dice", 1, ints=(old.seats[1].home, 0, -1)))
    assert ill.dice_on_mat(old, 0) == [1, 1, 1]
    assert not [f for f in old.agenda if f.source == f"civ:{KEY}"]


def test_a_finished_illuminati_takes_no_science_die_from_tapestry_4() -> None:
    """The science die gives an advance, not points: a finished Illuminati leaves it on the
    mat under ``tapestry/4`` too."""
    state = _finished_under(4)
    events = run_frames(state, frame("roll", 1, ints=(1,)))
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == KEY]
    assert ill.dice_on_mat(state, 0) == [1, 1, 1]


def test_no_rebalancing_and_no_solo() -> None:
    """No Illuminati entry on the rebalancing page (setup frames: the draw only); the mat
    needs opponents (not solo)."""
    state = illuminati(2)
    assert [f.kind for f in civs.setup_frames(state, 0)] == [ill.DRAW]
    assert C.CIVILIZATIONS[civ_id(KEY)].solo is False
    assert box_of(KEY) == "fantasies_and_futures"


def test_seeded_games_with_starting_illuminati_finish() -> None:
    """ "Fin de la partie": whole random games with starting Illuminati end at 2-5 seats;
    folding the events again gives the state held."""
    taken = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert refold(KEY, log, seats) == state_bytes(state)
        taken += len([e for e in of(log, ev.CivTokensSet) if e.key == KEY and 0 in e.values])
    assert taken > 0


def _options() -> TapestryOptions:
    return GAME2.decode_options({"expansions": [box_of(KEY)], "starting_civilizations": [KEY]})


def test_the_tapestry_bot_plays_the_illuminati() -> None:
    """The Tapestry bot answers the Illuminati's decisions (the setup keep, the science
    advance) in a whole 3-seat game that finishes and refolds exactly."""
    seats, seed = 3, b"illuminati-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"ill-smart"), RandomBot(b"ill-1"), RandomBot(b"ill-2")], seed
    )
    assert refold(KEY, log, seats) == state_bytes(state)

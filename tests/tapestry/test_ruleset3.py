"""Ruleset ``tapestry/3``: the mats of Arts & Architecture and Fantasies & Futures, and the
Riverfolk, may be gained during the game, each with its mat's mid-game rule.

Sources: the rulebook's « Gagnez une nouvelle civilisation au hasard » (Radio, the track
space), the facts folder (``civilizations.json#35``, ``#41``: ``gained_mid_game``), the
Fantasies & Futures mats' text (``decisions.json#mid_game_gain_boxes``), the rulebook's
MATÉRIEL (« 10 par couleur »: ``decisions.json#celestials_outpost_supply``). ``tapestry/2``
keeps its pool: its records with both boxes still re-execute
(``test_ruleset_fixtures.py``).
"""

from __future__ import annotations

import pytest

from domain.core import Chance, Event
from domain.registry import GAMES, get_ruleset
from domain.tapestry import civ_celestials, civ_illuminati, civ_weefolk, civ_werefolk, civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose
from domain.tapestry.engine import Ctx, frame
from domain.tapestry.game import TapestryGame2, TapestryGame3
from domain.tapestry.offers import KEEP as OPTIONS_KEEP
from domain.tapestry.rules import ADVANCE_TURNS, CARD_TURNS, gain, play_on_mode
from domain.tapestry.state import Frame, TapestryState
from tests.tapestry.helpers import act, decision, table
from tests.tapestry.test_cards_support import answer, options, run_frames

GAME2, GAME3 = TapestryGame2(), TapestryGame3()
BOXES = ("plans_and_ploys", "arts_and_architecture", "fantasies_and_futures")
#: the mats ``tapestry/3`` adds to the civilizations gained during the game.
ADDED = (
    *civs.BOX_CIVILIZATIONS["arts_and_architecture"],
    *civs.BOX_CIVILIZATIONS["fantasies_and_futures"],
    "riverfolk",
)
RANDOM_CIV = gain("gain_random_civilization")


def boxed(game: TapestryGame2, seats: int, seed: bytes, start: str = "") -> TapestryState:
    """A game of ``game``'s ruleset with every box in play, set up with the first legal
    choices (seat 0 starting with ``start`` when given); the first turn pending."""
    settings: dict[str, object] = {"expansions": list(BOXES)}
    if start:
        settings["starting_civilizations"] = [start]
    state = game.initial(game.decode_options(settings), seats)
    for event in game.setup(state, Chance(seed, 0)):
        game.evolve(state, event)
    step = 0
    while game.is_setup(state):
        seat = game.pending(state).seats[0]
        step += 1
        apply(game, state, seat, game.legal_actions(state, seat)[0], seed + bytes([step]))
    return state


def apply(game: TapestryGame2, state: TapestryState, seat: int, command: object, seed: bytes
          ) -> list[Event]:  # fmt: skip
    """Decide ``command`` for ``seat`` and fold its events; the events."""
    events = game.decide(state, seat, command, Chance(seed, state.turn))  # type: ignore[arg-type]
    for event in events:
        game.evolve(state, event)
    return events


def gain_only(
    game: TapestryGame2,
    state: TapestryState,
    key: str,
    seed: bytes = b"gain",
    seat: int | None = None,
) -> tuple[int, list[Event]]:
    """``seat`` (by default the seat whose turn it is) gains a random civilization while
    ``key`` is the only one nobody holds; that seat and the events."""
    seat = game.pending(state).seats[0] if seat is None else seat
    state.civs_out = [c for c in C.CIVILIZATIONS if c != civ_id(key)]
    state.agenda.append(Frame(kind="choose", seat=seat, options=(RANDOM_CIV, gain("_nothing"))))
    return seat, apply(game, state, seat, Choose(index=0), seed)


def of(events: list[Event], kind: type[Event]) -> list[Event]:
    """The events of ``kind``."""
    return [e for e in events if isinstance(e, kind)]


# -- the ruleset -------------------------------------------------------------------------------
def test_tapestry_3_and_the_older_rulesets_stay() -> None:
    """A rules change is a new ruleset: ``tapestry/3`` games get revision 3, with the options of
    ``tapestry/2``; ``tapestry/1`` and ``tapestry/2`` stay registered (``tapestry/4``, the
    default since: ``tests/tapestry/test_ruleset4.py``)."""
    assert get_ruleset("tapestry/3").ruleset_version == "tapestry/3"
    assert GAMES["tapestry"].revision > 3
    assert GAME3.initial(GAME3.decode_options({}), 2).rules.revision == 3
    assert GAME3.options_type is GAME2.options_type
    assert get_ruleset("tapestry/2").initial(GAME2.decode_options({}), 2).rules.revision == 2
    assert get_ruleset("tapestry/1").ruleset_version == "tapestry/1"


def test_the_pool_of_tapestry_2_is_what_it_was() -> None:
    """``tapestry/2``'s civilizations gained during the game with every box in play: the base
    game's thirteen, then the nine of Plans & Ploys it implemented (not the Riverfolk), none of
    the other two boxes (the pool's order is the draw's: pinned)."""
    assert civs.gainable(BOXES, revision=2) == [
        "heralds", "inventors", "traders", "isolationists", "nomads", "architects", "craftsmen",
        "historians", "alchemists", "entertainers", "leaders", "merrymakers", "militants",
        "advisors", "aliens", "infiltrators", "islanders", "recyclers", "spies", "tinkerers",
        "treasure_hunters", "utilitarians",
    ]  # fmt: skip


def test_tapestry_3_adds_every_mat_of_the_two_boxes_and_the_riverfolk() -> None:
    """``tapestry/3``: the same pool, with the fifteen mats of Arts & Architecture and
    Fantasies & Futures and the Riverfolk, each with its box only."""
    pool = civs.gainable(BOXES, revision=3)
    assert [k for k in pool if k not in ADDED] == civs.gainable(BOXES, revision=2)
    assert sorted(k for k in pool if k in ADDED) == sorted(ADDED)
    assert "faefolk" not in civs.gainable(("plans_and_ploys",), revision=3)
    assert "riverfolk" not in civs.gainable(("fantasies_and_futures",), revision=3)


@pytest.mark.parametrize("key", ADDED)
def test_tapestry_2_never_draws_them(key: str) -> None:
    """Under ``tapestry/2`` a gain finds none of them: with only ``key`` left, nothing is
    gained."""
    state = boxed(GAME2, 3, b"t2-pool")
    _, events = gain_only(GAME2, state, key)
    assert not of(events, ev.CivilizationGained)


@pytest.mark.parametrize("seats", [2, 4])
def test_a_game_without_boxes_plays_as_under_tapestry_2(seats: int) -> None:
    """Without expansion boxes nothing changed: the same seed and the same random choices give
    the same events under both rulesets, from setup to the end."""
    logs = []
    for game in (GAME2, GAME3):
        state = game.initial(game.decode_options({}), seats)
        log = list(game.setup(state, Chance(b"no-boxes", 0)))
        for event in log:
            game.evolve(state, event)
        bot = Chance(b"no-boxes-bot", 0)
        while not game.is_over(state):
            seat = game.pending(state).seats[0]
            log += apply(game, state, seat, bot.choice(game.legal_actions(state, seat)),
                         len(log).to_bytes(4, "big"))  # fmt: skip
        logs.append(log)
    assert logs[0] == logs[1] and len(logs[0]) > 300


# -- each mat gained during the game -----------------------------------------------------------
@pytest.mark.parametrize("key", ADDED)
def test_each_mat_is_gained_with_its_mid_game_rule(key: str) -> None:
    """« Gagnez une nouvelle civilisation au hasard »: with only ``key`` left it is the one
    gained, beside the seat's first civilization, and what its mat says of a mid-game gain is
    pending (``decisions.json#mid_game_gain_boxes``): a choice to keep it for the Celestials
    and the Riverfolk, the Weefolk's token for an opponent, the Illuminati's draw of three
    tapestry cards; nothing for the mats that print no mid-game rule."""
    state = boxed(GAME3, 3, f"t3-{key}".encode())
    before = list(state.agenda)
    seat, events = gain_only(GAME3, state, key)
    gained = of(events, ev.CivilizationGained)
    assert [e.civilization for e in gained] == [civ_id(key)]  # type: ignore[attr-defined]
    assert state.seats[seat].civs[-1] == civ_id(key) and len(state.seats[seat].civs) == 2
    pending = GAME3.pending(state)
    if key in ("celestials", "riverfolk"):
        assert pending.decision == civs.KEEP_GAINED and pending.seats == (seat,)
        assert GAME3.legal_actions(state, seat) == [Choose(index=0), Choose(index=1)]
    elif key == "weefolk":
        assert pending.decision == civ_weefolk.GIVE and pending.seats == (seat,)
    elif key == "illuminati":
        assert state.agenda[-1].kind == civ_illuminati.KEEP
        assert len(GAME3.legal_actions(state, seat)) >= 2  # the cards drawn, one to keep
        assert civ_illuminati.dice_on_mat(state, seat) == [1, 1, 1]
    else:
        assert state.agenda == before


def test_the_celestials_kept_replace_an_outpost_of_the_starting_territory() -> None:
    """Celestials (``civilizations.json#41``): « If you gain this civilization mid-game,
    replace one outpost of your starting territory with a player token »; the outpost goes back
    to the supply (``decisions.json#celestials_outpost_supply``)."""
    state = boxed(GAME3, 2, b"t3-celestials-kept")
    seat = GAME3.pending(state).seats[0]
    home = state.seats[seat].home
    supply = state.seats[seat].outposts
    plain = [o for o in state.hexes[home].outposts if o.seat == seat and not o.piece]
    assert len(plain) == 2 and civ_celestials.token_hex(state, seat) == -1
    gain_only(GAME3, state, "celestials")
    events = apply(GAME3, state, seat, Choose(index=0), b"keep")
    assert of(events, ev.SkyCapitalMoved) == [ev.SkyCapitalMoved(seat=seat, hex=home, start=True)]
    assert civ_celestials.token_hex(state, seat) == home
    assert len([o for o in state.hexes[home].outposts if o.seat == seat and not o.piece]) == 1
    assert state.seats[seat].outposts == supply + 1
    assert civs.has_civ(state, seat, "celestials")


def test_the_celestials_given_back_draw_another() -> None:
    """Celestials: « If you gain this civilization mid-game, you may discard it to draw
    another »: given back (``CivilizationReturned``), out of the game, and another mat is
    drawn; the starting territory keeps its two outposts."""
    state = boxed(GAME3, 2, b"t3-celestials-back")
    seat, _ = gain_only(GAME3, state, "celestials")
    state.civs_out = [c for c in state.civs_out if c != civ_id("faefolk")]
    home = state.seats[seat].home
    events = apply(GAME3, state, seat, Choose(index=1), b"back")
    assert of(events, ev.CivilizationReturned) == [
        ev.CivilizationReturned(seat=seat, civilization=civ_id("celestials"))
    ]
    assert [e.civilization for e in of(events, ev.CivilizationGained)] == [  # type: ignore[attr-defined]
        civ_id("faefolk")
    ]
    assert not civs.has_civ(state, seat, "celestials") and civs.has_civ(state, seat, "faefolk")
    assert civ_id("celestials") in state.civs_out
    assert len([o for o in state.hexes[home].outposts if o.seat == seat]) == 2


def test_the_riverfolk_kept_change_nothing_else() -> None:
    """Riverfolk (``civilizations.json#35``: « May discard it and draw another »): kept, no
    VP of its setup (``decisions.json#riverfolk_not_gained``) and the turn goes on."""
    state = boxed(GAME3, 2, b"t3-riverfolk")
    before = list(state.agenda)
    seat, _ = gain_only(GAME3, state, "riverfolk")
    vp = state.seats[seat].vp
    events = apply(GAME3, state, seat, Choose(index=0), b"keep")
    assert civs.has_civ(state, seat, "riverfolk") and state.seats[seat].vp == vp
    assert not of(events, ev.CivilizationReturned)
    assert state.agenda == before


@pytest.mark.parametrize(("game", "supply"), [(GAME2, 8), (GAME3, 9)])
def test_the_starting_celestials_keep_the_outpost_not_placed(
    game: TapestryGame2, supply: int
) -> None:
    """The Celestials' setup: « instead of placing 2 outposts on your starting territory, place
    1 upright outpost and a player token »; ``tapestry/3`` keeps the outpost not placed in the
    supply (10 per colour), ``tapestry/2`` removed it from the game."""
    state = boxed(game, 2, b"celestials-start", start="celestials")
    assert state.seats[0].outposts == supply
    home = state.seats[0].home
    assert [o.piece for o in state.hexes[home].outposts if o.seat == 0] == ["", "celestials"]


# -- whole games -------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ADDED)
def test_a_game_with_the_mat_gained_mid_game_finishes(key: str) -> None:
    """The mat gained on the first turn, then random legal choices for every seat (2 or 3
    seats): the game ends ("Fin de la partie") with the mat held or given back."""
    seats = 2 + len(key) % 2
    seed = f"t3-game-{key}".encode()
    state = boxed(GAME3, seats, seed)
    gain_only(GAME3, state, key)
    play_out(GAME3, state, seed)
    holders = [s for s in range(seats) if civs.has_civ(state, s, key)]
    returned = key in civs.RETURNABLE and civ_id(key) in state.civs_out
    assert len(holders) == 1 or returned


# -- two mats of the boxes in one seat (possible from tapestry/3) ------------------------------
def holding(*keys: str) -> TapestryState:
    """A 2-seat table where seat 0 holds the mats ``keys``, in that order."""
    state = table(2)
    state.seats[0].civs = [civ_id(k) for k in keys]
    return state


def test_the_werefolk_with_the_psionics_flip_the_tile_they_keep() -> None:
    """Werefolk + Psionics: « gain a random space tile, and flip it » with the Psionics' extra
    option (« draw two and keep one »): the seat chooses the tile first, then that tile is
    flipped (``decisions.json#psionics_random_gains``)."""
    state = holding("werefolk", "psionics")
    events = run_frames(state, frame("civ_income", 0, token="werefolk", ints=(3,)))
    assert not [e for e in of(events, ev.CivTokensSet) if e.key == "werefolk"]  # type: ignore[attr-defined]
    assert decision(state) == OPTIONS_KEEP and state.agenda[-2].kind == civ_werefolk.FLIP
    offered = options(state)
    assert len(offered) == 2
    kept = offered[1]
    events = answer(state, kept)
    tile = state.seats[0].space[-1]
    flips = [e for e in of(events, ev.CivTokensSet) if e.key == "werefolk"]  # type: ignore[attr-defined]
    assert len(flips) == 1 and flips[0].values[1] == tile  # type: ignore[attr-defined]
    assert decision(state) in (civ_werefolk.REGRESS, civ_werefolk.ADVANCE)


def test_the_celestials_with_the_psionics_throw_each_die_twice() -> None:
    """Celestials + Psionics: « Whenever you roll a die, roll it twice and choose 1 of the 2
    values »: the move's red and black dice are thrown twice each and one red and one black
    face kept (decision ``celestials_dice_pick``), then both faces are gained."""
    for attempt in range(50):
        state = holding("celestials", "psionics")
        run_frames(state, frame(civ_celestials.START, 0))
        run_frames(state, frame("civ_income", 0, token="celestials", ints=(2,)))
        target = next(c for c in options(state) if isinstance(c, Choose))
        events = act(state, 0, target, f"psi-cel-{attempt}".encode())
        rolls = of(events, ev.ConquerDiceRolled)
        assert len(rolls) == 2
        if decision(state) == civ_celestials.PICK:
            break
    else:
        raise AssertionError("no seed throws two different pairs")
    picks = options(state)
    reds = {e.red for e in rolls}  # type: ignore[attr-defined]
    blacks = {e.black for e in rolls}  # type: ignore[attr-defined]
    assert {(c.index // 10, c.index % 10) for c in picks} == {  # type: ignore[attr-defined]
        (r, b) for r in reds for b in blacks
    }
    events = answer(state, picks[-1])
    assert not of(events, ev.ConquerDiceRolled) and decision(state) != civ_celestials.PICK


def test_the_illuminati_with_the_psionics_draw_one_more_card() -> None:
    """Illuminati + Psionics: « draw 3 [TAPESTRY], keep 1 » and the Psionics' extra option
    « adds (not multiplies) »: four cards drawn, one kept."""
    state = holding("psionics", "illuminati")
    run_frames(state, frame(civ_illuminati.DRAW, 0))
    assert state.agenda[-1].kind == civ_illuminati.KEEP and state.agenda[-1].ints == (4,)
    assert len(options(state)) == len(set(state.seats[0].hand[-4:]))


@pytest.mark.parametrize(
    ("first", "mode"), [("elder_ones", ADVANCE_TURNS), ("merfolk", CARD_TURNS)]
)
def test_elder_ones_and_merfolk_the_first_mat_decides_how_the_seat_plays_on(
    first: str, mode: int
) -> None:
    """Elder Ones + Merfolk: « you may subsequently take advance turns » and « you will only use
    [TAPESTRY] (not take income or advance turns) » cannot both hold; the mat held first says
    how the seat plays on after income turn 5 (``decisions.json#play_on_both_mats``)."""
    other = "merfolk" if first == "elder_ones" else "elder_ones"
    state = holding(first, other)
    state.seats[0].hand = [1, 2]
    assert civs.play_on_mat(state, 0) == first
    ctx = Ctx(state, Chance(b"play-on", 0))
    for hook in civs.AFTER_INCOME:
        hook(ctx, 0, 5)
    assert play_on_mode(ctx.state.seats[0]) == mode
    assert civs.play_on_mat(holding("werefolk"), 0) == ""


# -- whole games with two mats of the boxes in one seat ----------------------------------------
def play_out(game: TapestryGame2, state: TapestryState, seed: bytes) -> None:
    """Random legal choices for every seat until the game is over."""
    bot = Chance(seed + b"-bot", 0)
    for step in range(8000):
        if game.is_over(state):
            return
        seat = game.pending(state).seats[0]
        actions = game.legal_actions(state, seat)
        assert actions, game.pending(state)
        apply(game, state, seat, bot.choice(actions), seed + step.to_bytes(4, "big"))
    raise AssertionError("the game does not end")


#: every starting mat of the two boxes (2-3 seats: no solo restriction applies).
STARTS = (
    *civs.BOX_CIVILIZATIONS["arts_and_architecture"],
    *civs.BOX_CIVILIZATIONS["fantasies_and_futures"],
)
PAIRS = [(a, b) for a in STARTS for b in ADDED if a != b]


def _pair_game(start: str, gained: str) -> None:
    seed = f"pair-{start}-{gained}".encode()
    state = boxed(GAME3, 2 + len(start + gained) % 2, seed, start=start)
    gain_only(GAME3, state, gained, seat=0)
    assert civs.has_civ(state, 0, start) and civs.has_civ(state, 0, gained)
    play_out(GAME3, state, seed)
    assert civs.has_civ(state, 0, start)


@pytest.mark.parametrize(("start", "gained"), PAIRS[::37])
def test_a_seat_with_two_mats_of_the_boxes_finishes_its_game(start: str, gained: str) -> None:
    """A sample of the pairs of the ``long`` test below (every 37th)."""
    _pair_game(start, gained)


@pytest.mark.long
@pytest.mark.parametrize(("start", "gained"), PAIRS)
def test_every_pair_of_mats_of_the_boxes_in_one_seat_finishes(start: str, gained: str) -> None:
    """Every starting mat of Arts & Architecture and Fantasies & Futures with every mat
    ``tapestry/3`` may add during the game, in one seat (gained on the first turn), then random
    legal choices to the end: the game ends ("Fin de la partie")."""
    _pair_game(start, gained)

"""Psionics (Psioniques, Fantasies & Futures): one more option on every random gain.

Sources: facts folder ``civilizations.json#47`` (every die rolled twice, one value kept; a
random tech card, tapestry card, territory tile, space tile or civilization drawn two, one
kept, the other shuffled back; extra options add up, Empiricism three rolls; income turns
2/3/4/5: territory tile, tapestry card, invention, research), rulebook "VARIANTES" (the
Psionics draw 3 and keep 1 with the draw-two variants), F.À.Q. "Reconnaissance" (two tiles:
two pairs, one kept of each), "RÉÉQUILIBRAGE DES CIVILISATIONS" (no Psioniques entry).
"""

from __future__ import annotations

import msgspec

from domain.bots import RandomBot
from domain.core import Chance
from domain.tapestry import civ_psionics as psi
from domain.tapestry import civs, offers
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id
from domain.tapestry.commands import Choose, Invent
from domain.tapestry.engine import Ctx, expr_frame, frame, run
from domain.tapestry.evolve import OFFER
from domain.tapestry.rules import gain, tapestry_deck, territory_deck
from domain.tapestry.state import TRACK_IDS, TapestryState
from domain.tapestry.tech import FROM_DECK
from domain.tapestry.view import make_view, redact
from tests.tapestry.box_civ_helpers import GAME2, box_of, play_bots, play_boxed, refold, state_bytes
from tests.tapestry.helpers import decision, of, table
from tests.tapestry.test_cards_support import (
    answer,
    in_force,
    options,
    pending_seat,
    play,
    run_frames,
)

KEY = "psionics"


def psionics(seats: int = 2) -> TapestryState:
    """Seat 0 holds the Psionics."""
    state = table(seats)
    state.seats[0].civs = [civ_id(KEY)]
    return state


def test_tapestry_card_drawn_two_keep_one_the_other_back_unseen() -> None:
    """A random tapestry card: two drawn, one kept; the other goes back into the deck, and
    neither the draw nor the keep shows the cards to another seat."""
    state = psionics()
    events = run_frames(state, expr_frame(0, gain("gain_tapestry_card"), "test"))
    drawn = of(events, ev.OptionsDrawn)[0]
    assert drawn.kind == "tapestry" and len(drawn.items) == 2 and drawn.group == 2
    assert decision(state) == offers.KEEP and pending_seat(state) == 0
    assert options(state) == [Choose(index=c) for c in sorted(set(drawn.items))]
    other_view = make_view(state, 1, ((0,), offers.KEEP, ""))
    assert OFFER not in other_view.seats[0].civ_tokens
    assert OFFER in make_view(state, 0, ((0,), offers.KEEP, "")).seats[0].civ_tokens
    assert redact(state, drawn, 1) == ev.OptionsDrawn(seat=0, kind="tapestry", group=2)
    assert state.agenda[-1].ints == (0,)  # the public frame names no card
    kept, back = drawn.items
    deck_before = tapestry_deck(state).count(back)
    events = answer(state, Choose(index=kept))
    assert state.seats[0].hand == [kept]
    assert of(events, ev.TapestryDrawn)[0].cards == (kept,)
    assert redact(state, of(events, ev.OptionKept)[0], 1) == ev.OptionKept(seat=0, kind="tapestry")
    assert tapestry_deck(state).count(back) == deck_before
    assert OFFER not in state.seats[0].civ_tokens


def test_two_territory_tiles_are_two_pairs_faq_reconnaissance() -> None:
    """F.À.Q. "Reconnaissance": two tiles gained are two pairs, one tile kept of each; the
    tiles not kept go back into the supply."""
    state = psionics()
    events = run_frames(state, expr_frame(0, gain("gain_territory_tile", 2), "test"))
    drawn = of(events, ev.OptionsDrawn)[0]
    assert drawn.kind == "territory" and len(drawn.items) == 4
    first, second = drawn.items[:2], drawn.items[2:]
    assert options(state) == [Choose(index=t) for t in sorted(first)]
    answer(state, Choose(index=first[1]))
    assert options(state) == [Choose(index=t) for t in sorted(second)]
    answer(state, Choose(index=second[0]))
    assert state.seats[0].territory == [first[1], second[0]]
    assert first[0] in territory_deck(state) and second[1] in territory_deck(state)


def test_age_of_sail_three_pairs_faq() -> None:
    """F.À.Q. "Âge de la Navigation" with the Psionics: instead of 3 tiles, 2 drawn and 1
    kept, three times (6 drawn, 3 kept); then the give for 3 VP as usual."""
    state = psionics(3)
    in_force(state, 0, "age_of_sail")
    events = run_frames(state, expr_frame(0, gain("explore"), "test"))
    drawn = of(events, ev.OptionsDrawn)[0]
    assert drawn.kind == "territory" and len(drawn.items) == 6 and drawn.group == 2
    for pair in range(3):
        assert decision(state) == offers.KEEP
        answer(state, Choose(index=drawn.items[2 * pair]))
    assert sorted(state.seats[0].territory) == sorted(drawn.items[::2])
    assert decision(state) == "age_of_sail"


def test_coal_baron_psionics_neighbour_draws_two_keeps_one() -> None:
    """Coal Baron's neighbours take a territory tile: a Psionics neighbour draws two and keeps
    one."""
    state = table(3)
    state.seats[1].civs = [civ_id(KEY)]
    events = play(state, 0, "coal_baron")
    answer(state, options(state)[0])  # the Coal Baron's exploration
    while decision(state) != offers.KEEP:
        answer(state, options(state)[-1])
    assert pending_seat(state) == 1
    pair = state.seats[1].civ_tokens[OFFER][3:]
    answer(state, Choose(index=pair[0]))
    assert state.seats[1].territory == [pair[0]] and len(pair) == 2
    assert not of(events, ev.OptionsDrawn) or of(events, ev.OptionsDrawn)[0].seat == 1


def test_space_tile_drawn_two_keep_one() -> None:
    """A random space tile: two drawn, one kept."""
    state = psionics()
    events = run_frames(state, expr_frame(0, gain("gain_space_tile"), "test"))
    drawn = of(events, ev.OptionsDrawn)[0]
    assert drawn.kind == "space" and len(drawn.items) == 2
    answer(state, Choose(index=drawn.items[0]))
    assert state.seats[0].space == [drawn.items[0]]


def test_tech_from_the_deck_drawn_two_keep_one() -> None:
    """Inventing the deck's top card: two drawn, one kept (a face-up card is no random
    gain: it is taken as usual)."""
    state = psionics()
    run_frames(state, frame("invent", 0))
    answer(state, Invent(card=FROM_DECK))
    assert decision(state) == offers.KEEP
    drawn = state.seats[0].civ_tokens[OFFER][3:]
    events = answer(state, Choose(index=drawn[1]))
    invented = of(events, ev.TechInvented)[0]
    assert invented.card == drawn[1] and invented.from_deck
    face_up = psionics()
    run_frames(face_up, frame("invent", 0))
    card = face_up.tech_display[0]
    events = answer(face_up, Invent(card=card))
    assert not of(events, ev.OptionsDrawn) and of(events, ev.TechInvented)[0].card == card


def test_science_die_rolled_twice_one_kept() -> None:
    """ "Whenever you roll a die, roll it twice and choose 1": a research rolls the science die
    twice; two different tracks offer a choice of the two."""
    state = psionics()
    for seed in range(40):
        trial = psionics()
        events = run_frames(trial, frame("roll", 0, ints=(1,)), seed=f"ps-{seed}".encode())
        rolls = of(events, ev.ScienceDieRolled)
        assert len(rolls) == 2
        if rolls[0].track != rolls[1].track:
            state = trial
            break
    assert decision(state) == "research_pick"
    assert options(state) == [Choose(index=0), Choose(index=1)]


def test_alchemists_gained_roll_twice_and_choose() -> None:
    """Psionics holding the Alchemists (gained mid-game): each alchemy roll is rolled twice
    and one value kept (``alchemy_pick``)."""
    for seed in range(40):
        state = psionics()
        state.seats[0].civs.append(civ_id("alchemists"))
        events = run_frames(state, frame("alchemy_roll", 0), seed=f"al-{seed}".encode())
        rolls = of(events, ev.ScienceDieRolled)
        assert len(rolls) == 2
        if rolls[0].track != rolls[1].track:
            break
    assert decision(state) == "alchemy_pick"
    answer(state, Choose(index=1))
    assert state.seats[0].civ_tokens["alchemists"] == [TRACK_IDS.index(rolls[1].track)]


def test_treasure_throws_gain_one_more_throw() -> None:
    """Psionics holding the Treasure Hunters (Plans & Ploys, gained mid-game): "roll it twice
    and choose" adds up with the treasure's own throws — the black die three times, one kept;
    each red throw of the forest treasure doubled, one value kept of each."""
    state = psionics()
    home = state.seats[0].home
    source = f"civ:treasure_hunters:{home}"
    events = run_frames(state, expr_frame(0, gain("roll_black_die_twice_choose_one"), source))
    assert len(of(events, ev.DieRolled)) == 3
    state = psionics()
    events = run_frames(state, expr_frame(0, gain("roll_red_die_twice_gain_both"), source))
    assert len(of(events, ev.DieRolled)) == 4
    state = psionics()
    events = run_frames(state, expr_frame(0, gain("roll_science_die_twice_choose_one"), source))
    assert len(of(events, ev.ScienceDieRolled)) == 3


def test_empiricism_adds_one_roll_not_two() -> None:
    """The mat's note: extra options add up — with Empiricism, three rolls (not four)."""
    state = psionics()
    in_force(state, 0, "empiricism")
    events = run_frames(state, frame("roll", 0, ints=(1,)))
    assert len(of(events, ev.ScienceDieRolled)) == 3


def test_conquer_dice_thrown_twice_one_value_of_each_kept() -> None:
    """Conquering: both dice thrown twice; the Psionics keep one red and one black value."""
    for seed in range(40):
        state = psionics()
        home = state.seats[1].home
        events = run_frames(state, frame("dice", 0, ints=(home, 0, -1)), seed=f"d-{seed}".encode())
        throws = of(events, ev.ConquerDiceRolled)
        assert len(throws) == 2
        pairs = sorted({(r.red, b.black) for r in throws for b in throws})
        if len(pairs) > 1:
            break
    assert decision(state) == "dice_pick"
    assert options(state) == [Choose(index=r * 10 + b) for r, b in pairs]
    red, black = pairs[-1]
    answer(state, Choose(index=red * 10 + black))
    assert decision(state) == "choose_die" and state.agenda[-1].ints[1:] == (red, black)


def test_random_civilization_drawn_two_or_three_with_the_variant() -> None:
    """A random civilization: two drawn, one kept; with the "VARIANTES" draw-two option, the
    Psionics draw three ("en piochent 3")."""
    state = psionics(3)
    events = run_frames(state, expr_frame(0, gain("gain_random_civilization"), "test"))
    assert len(of(events, ev.CivilizationsOffered)[0].civilizations) == 2
    assert decision(state) == "keep_civilization"
    options2 = GAME2.decode_options({"draw_two_civilizations": True})
    variant = GAME2.initial(options2, 3)
    for event in GAME2.setup(variant, Chance(b"v", 0)):
        GAME2.evolve(variant, event)
    variant.seats[0].civs = [civ_id(KEY)]
    variant.phase = state.phase
    events = run_frames(variant, expr_frame(0, gain("gain_random_civilization"), "test"))
    assert len(of(events, ev.CivilizationsOffered)[0].civilizations) == 3


def test_income_turn_one_variant_draws_three_keeps_one() -> None:
    """ "VARIANTES": at income turn 1 the Psionics draw 3 tapestry cards, keep 1 and discard
    the 2 others."""
    state = psionics()
    state.rules = msgspec.structs.replace(state.rules, draw_two_tapestry=True)
    state.seats[0].income_turns = 1
    ctx = Ctx(state, Chance(b"v1", 9))
    assert psi.INCOME_DRAWS_HOOK(ctx, 0, 0, 1)  # step 4 of income turn 1: one card
    run(ctx)
    ctx.emit(ev.AgendaSet(frames=tuple(ctx.state.agenda)))
    for event in ctx.events:
        GAME2.evolve(state, event)
    cards = of(ctx.events, ev.OptionsDrawn)[0]
    assert cards.kind == "tapestry" and len(cards.items) == 3 and cards.discard
    keep = cards.items[0]
    events = answer(state, Choose(index=keep))
    assert sorted(of(events, ev.TapestryDiscarded)[0].cards) == sorted(cards.items[1:])
    assert keep in state.seats[0].hand


def test_income_table_turns_two_to_five() -> None:
    """Income turns 2, 3, 4, 5: a territory tile, a tapestry card, an invention, a research
    (themselves random gains with the extra option)."""
    slots = C.CIVILIZATIONS[civ_id(KEY)].slots
    assert [s.token for s in slots] == [  # type: ignore[union-attr]
        "gain_territory_tile",
        "gain_tapestry_card",
        "invent",
        "research",
    ]
    state = psionics()
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(2,)))
    assert of(events, ev.OptionsDrawn)[0].kind == "territory"
    state = psionics()
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(3,)))
    assert of(events, ev.OptionsDrawn)[0].kind == "tapestry"
    state = psionics()
    run_frames(state, frame("civ_income", 0, token=KEY, ints=(4,)))
    assert decision(state) == "invent"
    state = psionics()
    events = run_frames(state, frame("civ_income", 0, token=KEY, ints=(5,)))
    assert len(of(events, ev.ScienceDieRolled)) == 2


def test_opponents_draw_as_usual_and_no_rebalancing() -> None:
    """Only the Psionics draw more: an opponent's tapestry card is one card; no rebalancing
    entry (setup frames: none)."""
    state = psionics()
    events = run_frames(state, expr_frame(1, gain("gain_tapestry_card"), "test"))
    assert not of(events, ev.OptionsDrawn) and len(of(events, ev.TapestryDrawn)[0].cards) == 1
    assert civs.setup_frames(state, 0) == []
    assert box_of(KEY) == "fantasies_and_futures"


def test_seeded_games_with_starting_psionics_finish() -> None:
    """ "Fin de la partie": whole random games with starting Psionics end at 2-5 seats;
    folding the events again gives the state held."""
    kept = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, log = play_boxed(KEY, seats, seed)
        assert state.seats[0].civs[0] == civ_id(KEY)
        assert all(s.finished for s in state.seats)
        assert refold(KEY, log, seats) == state_bytes(state)
        kept += len(of(log, ev.OptionKept))
    assert kept > 0


def test_the_tapestry_bot_plays_the_psionics() -> None:
    """The Tapestry bot answers the Psionics' keeps and picks in a whole 3-seat game that
    finishes and refolds exactly."""
    seats, seed = 3, b"psionics-bot"
    state, log = play_bots(
        KEY, [TapestryBot(b"ps-smart"), RandomBot(b"ps-1"), RandomBot(b"ps-2")], seed
    )
    assert of(log, ev.OptionKept)
    assert refold(KEY, log, seats) == state_bytes(state)

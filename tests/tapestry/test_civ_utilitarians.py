"""Utilitarians (Utilitaristes, Plans & Ploys).

Sources: the facts folder's record (``civilizations.json#39``: « If starting civ, take a tier II
landmark of your choice. Two tokens switch on abilities of landmarks you own (one starts on that
landmark); after gaining a listed landmark you may place or move a token onto it. », its eight
``mat_slots`` (base landmarks of ``content/landmarks.json``) and ``gained_mid_game``);
"RÉÉQUILIBRAGE DES CIVILISATIONS" (« UTILITARISTES Perdez [icône] ») and F.À.Q. "PLATEAUX
CIVILISATION PARTICULIERS"; ``decisions.json#utilitarians_tokens``, ``#lost_icon_resource``.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.bots import make_bot
from domain.core import Chance
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.bot import TapestryBot
from domain.tapestry.civs import civ_id, setup_frames
from domain.tapestry.commands import Advance, Choose, Decline, PayBonus
from domain.tapestry.engine import Ctx, expr_frame
from domain.tapestry.expansions import civ_utilitarians as ut
from domain.tapestry.mapping import DICE_ROLLED
from domain.tapestry.rules import gain
from domain.tapestry.state import Frame, TapestryState, TechOwned
from tests.tapestry.box_civ_helpers import play_bots, play_boxed, refold, state_bytes
from tests.tapestry.helpers import act, of, table
from tests.tapestry.test_cards_support import GAME, answer, options, run_frames

KEY = "utilitarians"
BOX = "plans_and_ploys"


def utilitarian(seats: int = 2, tokens: tuple[int, ...] = ()) -> TapestryState:
    """Seat 0 holds the Utilitarians (tokens on ``tokens``) in a game with Plans & Ploys."""
    state = table(seats)
    state.rules = msgspec.structs.replace(state.rules, expansions=(BOX,))
    state.seats[0].civs = [civ_id(KEY)]
    if tokens:
        state.seats[0].civ_tokens[KEY] = list(tokens)
        state.seats[0].landmarks = list(tokens)
    return state


def claim(state: TapestryState, landmark: int) -> list[ev.Event]:
    """Seat 0 gains ``landmark`` (as a track or a card would give it)."""
    token = C.LANDMARKS[landmark].name.lower().replace(" ", "_")
    return run_frames(state, expr_frame(0, gain(f"gain_landmark_{token}")))


def test_mat_lists_eight_base_landmarks() -> None:
    """Facts folder ``mat_slots``: Forge, Rubber Works, Barracks, Tank Factory, Lighthouse,
    Train Station, Apothecary, Academy, all base landmarks; dealt and gained with its box."""
    names = [C.LANDMARKS[lm].name for lm in ut.MAT]
    assert names == [
        "Forge",
        "Rubber Works",
        "Barracks",
        "Tank Factory",
        "Lighthouse",
        "Train Station",
        "Apothecary",
        "Academy",
    ]
    assert ut.tier_two() == [ut.APOTHECARY, ut.BARRACKS, ut.LIGHTHOUSE, ut.FORGE]
    record = C.CIVILIZATIONS[civ_id(KEY)]
    assert record.implemented and record.setup == C.Gain(token="utilitarians_tier_two_landmark")
    assert civ_id(KEY) in civs.implemented_ids((BOX,)) and KEY in civs.gainable((BOX,))


def test_setup_takes_a_tier_two_landmark_with_a_token() -> None:
    """« If starting civ, take a tier II landmark of your choice » (one token starts on it):
    the four tier II landmarks are offered; the one chosen is claimed (off its track)."""
    state = utilitarian()
    frames = setup_frames(state, 0)
    assert [f.source for f in frames] == [f"civ:{KEY}"]
    run_frames(state, *frames)
    assert state.agenda[-1].kind == "choose" and len(options(state)) == 4
    events = answer(state, Choose(index=3))  # the fourth, by id: the Forge
    assert ev.LandmarkClaimed(seat=0, landmark=ut.FORGE) in events
    assert state.seats[0].civ_tokens[KEY] == [ut.FORGE]
    assert state.landmark_owner[str(ut.FORGE)] == 0


def test_a_listed_landmark_gets_the_free_token_then_one_may_move() -> None:
    """« after gaining a listed landmark you may place or move a token onto it »: the second
    token goes on; with both placed, one may move (or stay); an unlisted landmark takes none."""
    state = utilitarian(tokens=(ut.FORGE,))
    claim(state, ut.ACADEMY)
    assert state.seats[0].civ_tokens[KEY] == [ut.FORGE, ut.ACADEMY]
    while state.agenda[-1].kind == "build":
        answer(state, options(state)[0])
    claim(state, ut.BARRACKS)
    while state.agenda[-1].kind == "build":
        answer(state, options(state)[0])
    assert state.agenda[-1].kind == ut.MOVE
    assert options(state) == [Choose(index=ut.FORGE), Choose(index=ut.ACADEMY), Decline()]
    answer(state, Choose(index=ut.FORGE))
    assert state.seats[0].civ_tokens[KEY] == [ut.BARRACKS, ut.ACADEMY]


def test_forge_gives_a_resource_for_a_top_row_upgrade() -> None:
    """Forge: « upgrading a tech card to the top row also gives 1 any resource »."""
    state = utilitarian(tokens=(ut.FORGE,))
    card = min(C.TECH_CARDS)
    state.seats[0].tech = [TechOwned(card=card, row=1)]
    run_frames(state, Frame(kind="upgrade_card", seat=0, ints=(card,)))
    kinds = [f.kind for f in state.agenda]
    assert "resource" in kinds and any(f.source == f"civ:{KEY}:forge" for f in state.agenda)


def test_academy_scores_four_per_advance_in_tiers_three_and_four() -> None:
    """Academy: « 4 VP per advance into/within tiers III-IV of the science track »; none in
    tier II, none without the token."""
    state = utilitarian(tokens=(ut.ACADEMY,))
    state.seats[0].tracks[1] = [5]
    events = run_frames(state, Frame(kind="advance", seat=0, ints=(1, 2)))  # 5 -> 6, no benefit
    assert not [e for e in of(events, ev.VPScored) if e.reason.startswith(f"civ:{KEY}")]
    events = run_frames(state, Frame(kind="advance", seat=0, ints=(1, 2)))  # 6 -> 7
    assert [e.vp for e in of(events, ev.VPScored) if e.reason.startswith(f"civ:{KEY}")] == [4]
    bare = utilitarian(tokens=(ut.FORGE,))
    bare.seats[0].tracks[1] = [7]
    events = run_frames(bare, Frame(kind="advance", seat=0, ints=(1, 2)))
    assert not [e for e in of(events, ev.VPScored) if e.reason.startswith(f"civ:{KEY}")]


def test_barracks_adds_the_red_die_to_every_conquest_roll() -> None:
    """Barracks: « every conquest also grants the red die result (even if that die was already
    chosen) »: the dice hook queues the red face for the Utilitarian."""
    state = utilitarian(tokens=(ut.BARRACKS,))
    ctx = Ctx(state, Chance(b"x", 0))
    for hook in DICE_ROLLED:
        hook(ctx, 0, 0, 0, 0)
    assert len(ctx.state.agenda) > len(state.agenda)
    other = Ctx(state, Chance(b"x", 0))
    for hook in DICE_ROLLED:
        hook(other, 1, 0, 0, 0)
    assert len(other.state.agenda) == len(state.agenda)


def test_lighthouse_trades_two_territory_tiles_for_a_resource_after_an_advance() -> None:
    """Lighthouse: « once per advance turn, discard 2 territory tiles for 1 any resource »."""
    state = utilitarian(tokens=(ut.LIGHTHOUSE,))
    state.seats[0].territory = [1, 2]
    state.seats[0].resources = [1, 1, 1, 1]
    advance = next(c for c in options(state) if isinstance(c, Advance) and c.track == "science")
    act(state, 0, advance)
    while not (state.agenda[-1].kind == "bonus" and state.agenda[-1].source.endswith("lighthouse")):
        answer(state, options(state)[-1])
    events = answer(state, PayBonus(payment=(), discard=(1, 2)))
    assert ev.TilesDiscarded(seat=0, tiles=(1, 2)) in events
    assert state.agenda[-1].kind == "resource"


def test_apothecary_gives_a_resource_for_each_further_landmark() -> None:
    """Apothecary: « each further landmark you gain also gives 1 any resource »."""
    state = utilitarian(tokens=(ut.APOTHECARY,))
    claim(state, 13)  # the Bakery (a tech card's landmark, not on the mat)
    assert any(f.source == f"civ:{KEY}:apothecary" for f in state.agenda)


def test_gained_mid_game_places_up_to_two_tokens() -> None:
    """``gained_mid_game``: « Place up to 2 tokens on abilities of landmarks you already own »:
    with three listed landmarks owned, two are chosen."""
    state = utilitarian()
    state.seats[0].civs = [civ_id("heralds")]
    state.seats[0].landmarks = [ut.FORGE, ut.ACADEMY, ut.BARRACKS, 13]
    ctx = Ctx(state, Chance(b"g", 0))
    ctx.emit(ev.CivilizationGained(seat=0, civilization=civ_id(KEY)))
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = list(ctx.state.agenda)
    assert state.agenda[-1].kind == ut.PLACE
    answer(state, Choose(index=ut.ACADEMY))
    answer(state, Choose(index=ut.BARRACKS))
    assert state.seats[0].civ_tokens[KEY] == [ut.ACADEMY, ut.BARRACKS]


def test_rebalancing_loses_a_resource_after_the_first_income_turn() -> None:
    """ "RÉÉQUILIBRAGE" (UTILITARISTES: « Perdez [icône] »), F.À.Q.: at the end of income turn 1."""
    state = utilitarian()
    state.seats[0].resources = [0, 0, 2, 0]
    run_frames(state, Frame(kind="income", seat=0, ints=(5, 1)))
    assert state.seats[0].resources == [0, 0, 1, 0]  # food was the only choice
    run_frames(state, Frame(kind="income", seat=0, ints=(5, 2)))
    assert state.seats[0].resources == [0, 0, 1, 0]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_whole_seeded_games_fold_to_the_state(seats: int) -> None:
    """ "Fin de la partie": seeded random games, seat 0 starting with the Utilitarians, finish;
    a fresh fold of the log equals the state held; a tier II landmark was taken at the start."""
    state, log = play_boxed(KEY, seats, 5)
    assert all(s.finished for s in state.seats)
    assert state_bytes(state) == refold(KEY, log, seats)
    assert any(lm in state.seats[0].landmarks for lm in ut.tier_two())


def test_the_bots_play_the_utilitarians() -> None:
    """The ``tapestry`` bot (seat 0) and ``greedy`` bots play a whole game."""
    bots = [TapestryBot(b"ut-0"), make_bot("greedy", b"ut-1"), make_bot("greedy", b"ut-2")]
    state, log = play_bots(KEY, bots, b"utilitarians-bots")
    assert state.seats[0].civ_tokens.get(KEY)
    assert state_bytes(state) == refold(KEY, log, 3)


def test_the_bot_moves_a_token_off_a_spent_ability() -> None:
    """The ``tapestry`` bot values the abilities switched on (``abilities_value``): with the
    science track finished the Academy earns nothing more, so gaining the Barracks moves the
    Academy's token there."""
    state = utilitarian(tokens=(ut.FORGE, ut.ACADEMY))
    state.seats[0].tracks[1] = [12]
    state.seats[0].tech = [TechOwned(card=min(C.TECH_CARDS), row=1)]
    assert ut.abilities_value(state, 0) > 0 and ut.abilities_value(state, 1) == 0
    claim(state, ut.BARRACKS)
    while state.agenda[-1].kind == "build":
        answer(state, options(state)[0])
    assert state.agenda[-1].kind == ut.MOVE
    choice = TapestryBot(b"ut-move").choose(GAME, state, 0)
    assert choice == Choose(index=ut.ACADEMY)

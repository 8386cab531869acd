"""Solo Tapestry (the Automa and the Shadow Empire) with the expansion boxes (``tapestry/2``,
``expansions``): the player aid's "Extension" lines, one test each, and whole seeded games.

* Plans & Ploys' solo changes (``automa.json#expansions``): the Advisors and Spies removed
  (with every mat whose ``solo`` flag is false), the science-die favourite, two tokens on the
  favourite track, the ties of an income turn drawn from the progress deck, the landmark cards
  played as a component absent (named in the game's notes);
* Arts & Architecture and Fantasies & Futures: the base solo rules, their civilizations dealt
  where the facts folder allows them solo; every civilization of a box dealt solo plays a whole
  game against the bots;
* games with each box alone and the three together at several Automa levels finish, a fresh
  fold equals the state held, legal actions are sound on sampled states.

``make long`` plays ``ANNALES_SOLO_BOX_GAMES`` games (default 50) per box set and level 1-6.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec
import pytest

from domain.bots import RandomBot
from domain.core import Chance, Event
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry.game import TapestryGame2
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.bots import AUTOMA_BOT, SHADOW_BOT, pick, valid_tracks
from domain.tapestry.solo.conquest import opponent_targets
from domain.tapestry.state import EXPANSIONS, TRACK_IDS, Frame, Outpost, TapestryState
from tests.tapestry.solo_helpers import bots_run, of, state_bytes
from tests.tapestry.test_play import check_sound

GAME = TapestryGame2()
PP = "plans_and_ploys"
#: the box sets played: each box alone and the three together.
BOX_SETS: dict[str, tuple[str, ...]] = {
    "pp": (PP,),
    "aa": ("arts_and_architecture",),
    "ff": ("fantasies_and_futures",),
    "all": tuple(EXPANSIONS),
}
LONG_GAMES = int(os.environ.get("ANNALES_SOLO_BOX_GAMES", "50"))


def options(boxes: tuple[str, ...], level: int = 2, starting: str = "") -> dict[str, Any]:
    """The options of a solo game with ``boxes`` at Automa ``level``."""
    chosen: dict[str, Any] = {"automa_level": level, "expansions": list(boxes)}
    if starting:
        chosen["starting_civilizations"] = [starting]
    return chosen


def new_game(seed: bytes, opts: dict[str, Any]) -> tuple[TapestryState, list[Event]]:
    """A fresh 1-seat ``tapestry/2`` game, its setup events folded."""
    state = GAME.initial(GAME.decode_options(opts), 1)
    events = list(GAME.setup(state, Chance(seed, 0)))
    for event in events:
        GAME.evolve(state, event)
    return state, events


def started(boxes: tuple[str, ...], seed: bytes = b"box-solo", level: int = 2) -> TapestryState:
    """A solo game with ``boxes`` past setup (the first capital and civilization kept)."""
    state, _ = new_game(seed, options(boxes, level))
    while GAME.is_setup(state):
        command = GAME.legal_actions(state, 0)[0]
        for event in GAME.decide(state, 0, command, Chance(seed, 1)):
            GAME.evolve(state, event)
    return state


def refold(log: list[Event], opts: dict[str, Any]) -> TapestryState:
    """A fresh fold of ``log``."""
    state = GAME.initial(GAME.decode_options(opts), 1)
    for event in log:
        GAME.evolve(state, event)
    return state


def play(seed: str, opts: dict[str, Any], every: int = 23) -> tuple[TapestryState, list[Event]]:
    """A whole seeded solo game by the random bot: it finishes, the fold is exact, the legal
    actions are sound on every ``every``-th state."""
    game_seed = seed.encode()
    state, log = new_game(game_seed, opts)
    bot = RandomBot(game_seed)
    commands = 0
    while not GAME.is_over(state):
        seat = GAME.pending(state).seats[0]
        actions = GAME.legal_actions(state, seat)
        commands += 1
        if commands % every == 0:
            check_sound(state, seat, actions, game_seed, len(log))
        events = GAME.decide(
            state, seat, bot.choose(GAME, state, seat), Chance(game_seed, len(log))
        )
        for event in events:
            GAME.evolve(state, event)
        log.extend(events)
        assert commands < 6000, "game does not end"
    assert state.solo is not None and state.solo.finished and state.solo.income_turns == 5
    assert state.seats[0].finished and GAME.outcome(state) is not None
    assert state_bytes(refold(log, opts)) == state_bytes(state)
    return state, log


# -- Plans & Ploys' solo changes -------------------------------------------------------------
def test_pp_removes_advisors_and_spies_and_every_mat_not_allowed_solo() -> None:
    """Aid, MISE EN PLACE POUR LE JOUEUR (SOLO) 3: "Extension « Manœuvres & Manigances »
    (10-2=8) : retirer aussi les fiches Conseillers et Espions". A solo game deals only mats
    whose ``solo`` flag (the facts folder's ``solo_allowed``) is set: the Advisors and Spies,
    and Fantasies & Futures' Genies, Illuminati and Weefolk, are never dealt nor fixed."""
    for key in ("advisors", "spies", "genies", "illuminati", "weefolk", "heralds"):
        assert not S.dealt_solo(civs.civ_id(key))
    offered: set[str] = set()
    for seed in range(30):
        state, _ = new_game(f"deal-{seed}".encode(), options(tuple(EXPANSIONS)))
        offered |= {C.CIVILIZATIONS[c].key for c in state.seats[0].civ_offer}
    assert not offered & {"genies", "illuminati", "weefolk", *S.REMOVED_CIVILIZATIONS}
    assert offered & {"celestials", "werefolk", "gamblers", "treasure_hunters"}
    with pytest.raises(ValueError, match="not played solo"):
        GAME.initial(GAME.decode_options(options(("fantasies_and_futures",), 2, "genies")), 1)


def test_mats_out_of_solo_games_are_never_gained_with_a_box() -> None:
    """The aid removes the mats from a solo game (II.3 « Retirez les 4 fiches … », « retirer
    aussi les fiches Conseillers et Espions »): with a box in play, a civilization gained
    mid-game is never one of them (Heralds, Inventors and Traders are gainable otherwise)."""
    from domain.tapestry.civs import _random_civ
    from domain.tapestry.engine import Ctx
    from domain.tapestry.events import CivilizationGained, CivilizationsOffered

    gained: set[int] = set()
    for seed in range(40):
        state = started((PP,), b"gain")
        ctx = Ctx(state, Chance(f"gain-{seed}".encode(), 5))
        _random_civ(ctx, 0, 1, Frame(kind="expr", seat=0))
        for e in ctx.events:  # gained, or offered to keep one (the Infiltrators draw 3)
            if isinstance(e, CivilizationGained):
                gained.add(e.civilization)
            elif isinstance(e, CivilizationsOffered):
                gained.update(e.civilizations)
    assert gained and all(S.dealt_solo(c) for c in gained)


def test_pp_science_die_favourite(monkeypatch: pytest.MonkeyPatch) -> None:
    """Aid, MISE EN PLACE POUR LE BOT AUTOMA 5: "Extension : Si la piste favorite de la
    Civilisation Automa est le Dé Science, lancer le Dé pour déterminer la piste favorite à la
    mise en place." No Automa civilization card of our sources shows the die: the test injects
    one (id 9, a Plans & Ploys card, favourite ``science_die``) into the loaded content. Dealt
    with the box only; the die roll is recorded (``AutomaDieRolled``) before ``AutomaPrepared``,
    which keeps the rolled track; the Shadow Empire's roll differs from it."""
    card = S.AutomaCivilization(
        id=9,
        name="Test card (injected)",
        favorite=S.SCIENCE_DIE_FAVORITE,
        abilities=(),
        box=PP,
        source="assumed",
        note="a test record: no such card in our sources",
    )
    S.check_card(card)  # a science-die card of a box whose solo changes roll the die
    for box in ("", "arts_and_architecture"):
        with pytest.raises(S.SoloContentError, match="science-die"):
            S.check_card(msgspec.structs.replace(card, box=box))
    monkeypatch.setitem(S.CIVILIZATIONS, 9, card)
    rolled = 0
    for seed in range(40):
        state, events = new_game(f"die-{seed}".encode(), options((PP,)))
        prepared = next(i for i, e in enumerate(events) if isinstance(e, sev.AutomaPrepared))
        assert state.solo is not None
        if state.solo.civilization != 9:
            assert not of(events[:prepared], sev.AutomaDieRolled)
            continue
        rolled += 1
        (roll,) = of(events[:prepared], sev.AutomaDieRolled)
        assert events[prepared].favorite == roll.track in TRACK_IDS
        assert TRACK_IDS[state.solo.bots[AUTOMA_BOT].favorite] == roll.track
        assert state.solo.bots[SHADOW_BOT].favorite != state.solo.bots[AUTOMA_BOT].favorite
    assert rolled
    for seed in range(20):  # without the box the card is never dealt
        state, _ = new_game(f"die-{seed}".encode(), options(()))
        assert state.solo is not None and state.solo.civilization != 9


def test_pp_two_tokens_on_the_favourite_track() -> None:
    """Aid, MISE EN PLACE POUR LE BOT AUTOMA 5 ("Placer (et déplacer) 2 pions Automa au lieu
    d'1 Avant-poste sur la piste favorite") and EMPIRE DE L'OMBRE 2 ("placer (et déplacer) 2
    pions Empire au lieu d'1 Avant-poste"): the bots' view names the marker; no outpost was
    ever taken for it (the bots' outposts are unlimited), so the Automa's start is unchanged."""
    others = tuple(box for box in EXPANSIONS if box != PP)
    for boxes, marker in (((PP,), "two_tokens"), ((), "outpost"), (others, "outpost")):
        state = started(boxes)
        view = GAME.view(state, 0)
        assert view.solo is not None
        assert [b.favorite_marker for b in view.solo.bots] == [marker, marker]
        home = [i for i, h in enumerate(state.hexes) if any(o.seat == AUTOMA for o in h.outposts)]
        assert len(home) == 1 and len(state.hexes[home[0]].outposts) == S.SETUP.automa_outposts


def _overtaken_favourite(boxes: tuple[str, ...]) -> TapestryState:
    """A solo game whose Automa favourite (technology) the human has overtaken, every other
    track at the start: three tracks tie for the new favourite."""
    state = started(boxes, b"tie")
    solo = state.solo
    assert solo is not None
    tech = TRACK_IDS.index("technology")
    solo.bots[AUTOMA_BOT].favorite = tech
    solo.bots[AUTOMA_BOT].tracks = [0, 0, 5, 0]
    solo.bots[SHADOW_BOT].favorite = TRACK_IDS.index("military")
    state.seats[0].tracks[tech] = [6]
    solo.last_pair = [7, 1]
    return state


def test_pp_income_tie_draws_from_the_progress_deck() -> None:
    """Aid, TOUR AUTOMA 3: "Extension : En cas d'égalité à résoudre sans carte Décision,
    piocher depuis la pile Progrès" (where the base rules, TOUR REVENUS AUTOMA, "Aux tours
    suivants utiliser la dernière carte priorité jouée"). The new favourite at income turn 2
    ties three tracks: with Plans & Ploys a progress card is drawn (``AutomaTiebreakDrawn``),
    picks the track, and goes back into the progress pile; without the box the last priority
    card played picks it and nothing is drawn."""
    base = _overtaken_favourite(())
    events = bots_run(base, Frame(kind="solo_income", seat=0, ints=(1, 2)))
    assert not of(events, sev.AutomaTiebreakDrawn)
    (changed,) = of(events, sev.AutomaFavoriteChanged)
    valid = [t for t in range(4) if t != TRACK_IDS.index("technology")]
    assert changed.track == TRACK_IDS[pick(base.solo, AUTOMA_BOT, valid, 1, favorite=False)]  # type: ignore[arg-type]

    state = _overtaken_favourite((PP,))
    solo = state.solo
    assert solo is not None
    assert valid_tracks(state, AUTOMA_BOT, "closest_to_landmark_or_finish", exclude=2) == valid
    progress = list(solo.progress)
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(1, 2)))
    (drawn,) = of(events, sev.AutomaTiebreakDrawn)
    (changed,) = of(events, sev.AutomaFavoriteChanged)
    assert drawn.card in progress and events.index(drawn) < events.index(changed)
    assert changed.track == TRACK_IDS[pick(solo, AUTOMA_BOT, valid, drawn.card, favorite=False)]
    assert solo.progress == progress and drawn.card in solo.not_hidden  # shuffled back
    assert solo.last_pair == [7, 1]  # the latest pair stays the one the level card reuses


def test_pp_no_draw_without_a_tie_nor_at_a_bots_turn() -> None:
    """The progress card is drawn for a tie only: a single candidate track draws nothing, and
    the bots' own turn resolves its ties with the decision pair in play."""
    state = _overtaken_favourite((PP,))
    assert state.solo is not None
    state.solo.bots[AUTOMA_BOT].tracks = [3, 0, 5, 0]  # exploration: 1 space from a landmark
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(1, 2)))
    assert not of(events, sev.AutomaTiebreakDrawn) and of(events, sev.AutomaFavoriteChanged)
    events = bots_run(state, Frame(kind="solo_advance", seat=0, ints=(AUTOMA_BOT, 7, 1)))
    assert not of(events, sev.AutomaTiebreakDrawn)


def test_pp_landmark_cards_absent_named_in_the_notes() -> None:
    """Aid, MISE EN PLACE POUR LE JOUEUR (SOLO) 4: "Extension : Piochez 2 cartes Monuments et
    choisissez-en 1 (l'autre Monument va à l'Automa)". The landmark cards are in none of our
    sources: the solo game plays without them and its notes say so (beside the box's line of
    the multi-seat game); a 2-seat game's notes have no solo line."""
    state = started((PP,))
    notes = GAME.notes(state)
    assert any(n.startswith("plans_and_ploys: not in our sources") for n in notes)
    assert any(n.startswith("plans_and_ploys (solo):") and "Monuments" in n for n in notes)
    duo = GAME.initial(GAME.decode_options({"expansions": [PP]}), 2)
    assert not any("(solo)" in n for n in GAME.notes(duo))
    assert not any("(solo)" in n for n in GAME.notes(started(("arts_and_architecture",))))


def test_automa_never_conquers_a_treasure_hunters_territory() -> None:
    """Plans & Ploys' Treasure Hunters token holds a territory no conquest may target: the
    Automa's conquest of a human territory (CONQUÊTE I) skips it like a seat's does."""
    state = started((PP,))
    home = next(i for i, h in enumerate(state.hexes) if any(o.seat == AUTOMA for o in h.outposts))
    from domain.tapestry.rules import board_neighbours

    near = next(n for n in board_neighbours(state.board)[home] if n >= 0)
    state.hexes[near].tile = 1
    state.hexes[near].outposts = [Outpost(seat=0)]
    assert near in opponent_targets(state, False)
    state.hexes[near].outposts = [Outpost(seat=0, piece="treasure_hunters")]
    assert near not in opponent_targets(state, False)


# -- whole games -----------------------------------------------------------------------------
@pytest.mark.parametrize("level", [1, 3, 5, 6])
@pytest.mark.parametrize("box_set", sorted(BOX_SETS))
def test_solo_games_with_the_boxes_finish_refold_and_stay_sound(box_set: str, level: int) -> None:
    """Solo games with each box alone and the three together at several Automa levels."""
    play(f"box-solo-{box_set}-{level}", options(BOX_SETS[box_set], level))


def test_pp_solo_games_draw_progress_cards_for_ties() -> None:
    """Seeded Plans & Ploys solo games meet income-turn ties (the rule is exercised)."""
    drawn = 0
    for seed in range(12):
        _, log = play(f"pp-ties-{seed}", options((PP,), 2 + seed % 5), every=10_000)
        drawn += len(of(log, sev.AutomaTiebreakDrawn))
    assert drawn


#: every civilization of a box dealt in solo games.
BOX_SOLO_CIVS = sorted(
    C.CIVILIZATIONS[c].key
    for c in civs.implemented_ids(EXPANSIONS)
    if C.CIVILIZATIONS[c].box and S.dealt_solo(c)
)


@pytest.mark.parametrize("key", BOX_SOLO_CIVS)
def test_every_box_civilization_plays_against_the_bots(key: str) -> None:
    """Aid, EMPIRE DE L'OMBRE: "pour les effets, fonctionne comme un voisin". Each civilization
    of a box dealt solo plays a whole game against the Automa and the Shadow Empire (bots hold
    no seat: none of these mats acts on neighbours or opponents)."""
    box = C.CIVILIZATIONS[civs.civ_id(key)].box
    state, _ = play(f"civ-solo-{key}", options((box,), 3, key))
    assert civs.civ_id(key) in state.seats[0].civs


@pytest.mark.long
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("box_set", sorted(BOX_SETS))
def test_many_solo_games_with_the_boxes(box_set: str, level: int) -> None:
    """The long run: ``LONG_GAMES`` seeded solo games per box set and level."""
    for seed in range(LONG_GAMES):
        play(f"box-solo-long-{box_set}-{level}-{seed}", options(BOX_SETS[box_set], level), 97)

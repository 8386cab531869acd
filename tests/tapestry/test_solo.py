"""The solo rules of the player aid, one named test each ("MISE EN PLACE POUR LE BOT
AUTOMA", "MISE EN PLACE POUR LE BOT EMPIRE DE L'OMBRE", "TOUR AUTOMA/EMPIRE DE L'OMBRE",
"RÈGLES SPÉCIFIQUES POUR L'AUTOMA ET L'EMPIRE": benefits, landmarks, hex priority, conquest,
exploration, trap, achievements, "TOUR REVENUS AUTOMA", levels).

Situations are built on a real solo game (setup events folded) and the bots' steps run through
the engine's own agenda (:class:`~domain.tapestry.engine.Ctx`), with recorded chance.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core import Chance, Event
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Decline, PlayTrap
from domain.tapestry.engine import Ctx, run
from domain.tapestry.game import TapestryGame2
from domain.tapestry.rules import hex_at, tapestry_deck
from domain.tapestry.solo import AUTOMA, SHADOW
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.bots import AUTOMA_BOT, SHADOW_BOT, automa_actions, choose_track
from domain.tapestry.solo.conquest import conquer, defend, explore
from domain.tapestry.solo.income import income_frames, income_vp
from domain.tapestry.state import PLAY, TRACK_IDS, Frame, Outpost, TapestryState
from tests.tapestry.solo_helpers import GAME, new_solo

GAME2 = TapestryGame2()

TRAP = next(c.id for c in C.TAPESTRY_CARDS.values() if c.key == "trap")


def of(events: list[Event], cls: type[Any]) -> list[Any]:
    """The events of one class."""
    return [e for e in events if isinstance(e, cls)]


def started(seed: bytes = b"solo-rules", level: int = 2) -> TapestryState:
    """A solo game past setup: the human kept the first capital and civilization."""
    state, _ = new_solo(seed, level)
    while GAME.is_setup(state):
        command = GAME.legal_actions(state, 0)[0]
        for event in GAME.decide(state, 0, command, Chance(seed, 1)):
            GAME.evolve(state, event)
    return state


def bots_run(state: TapestryState, *frames: Frame, seed: bytes = b"bots") -> list[Event]:
    """Run the bots' frames through the engine and fold the events into ``state``."""
    ctx = Ctx(state, Chance(seed, 7))
    saved = list(ctx.state.agenda)
    ctx.state.agenda = []
    ctx.push(*frames)
    ctx.state.phase = "bots"  # run only the pushed frames (no human turn follows)
    while ctx.state.agenda:
        ctx.state.phase = PLAY
        top = ctx.state.agenda[-1]
        if top.kind in ("trap",):
            break
        ctx.state.agenda.pop()
        from domain.tapestry.engine import AUTO

        ctx.current = top
        AUTO[top.kind](ctx, top)
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = ctx.state.agenda or saved
    return ctx.events


def call(state: TapestryState, fn: Any, *args: Any, seed: bytes = b"bots") -> list[Event]:
    """Call one bot step with a recorded chance and fold its events."""
    ctx = Ctx(state, Chance(seed, 3))
    fn(ctx, *args)
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = ctx.state.agenda
    return ctx.events


# -- setup ---------------------------------------------------------------------------------
def test_setup_automa_and_shadow_empire() -> None:
    """MISE EN PLACE POUR LE BOT AUTOMA / EMPIRE DE L'OMBRE: 2 Automa outposts on the 3/5
    territory, the human on 2/4 whatever its capital, a random Automa civilization card and its
    favourite track, the Shadow Empire's favourite by the science die (a different track), the
    decision deck of cards 1-7 plus one face-down progress card, the progress deck 8-22."""
    for seed in (b"a", b"b", b"c", b"d"):
        state = started(seed)
        solo = state.solo
        assert solo is not None and solo.automa
        automa_home = hex_at(state, *S.SETUP.automa_home)
        assert [o.seat for o in state.hexes[automa_home].outposts] == [AUTOMA, AUTOMA]
        assert state.seats[0].home == hex_at(state, *S.SETUP.human_home)
        civ = S.CIVILIZATIONS[solo.civilization]
        assert TRACK_IDS[solo.bots[AUTOMA_BOT].favorite] == civ.favorite
        assert solo.bots[SHADOW_BOT].favorite != solo.bots[AUTOMA_BOT].favorite
        assert solo.deck == [1, 2, 3, 4, 5, 6, 7] and solo.hidden == 1
        assert solo.progress == list(range(8, 23))
        assert all(t == [0, 0, 0, 0] for t in (b.tracks for b in solo.bots))
        assert state.board == "small"


def test_setup_removes_solo_cards_and_civilizations() -> None:
    """MISE EN PLACE GENERALE (SOLO): 13 tapestry cards out (37 left, 5 Traps); the
    Futurists, Heralds, Inventors and Traders are never dealt."""
    state = started()
    deck = tapestry_deck(state)
    assert len(deck) + len(state.seats[0].hand) + len(state.solo.cards_out()) == 37  # type: ignore[union-attr]
    keys = {C.TAPESTRY_CARDS[c].key for c in deck}
    assert not keys & {"alliance", "espionage", "dictatorship", "olympic_host"}
    for seed in range(12):
        fresh, _ = new_solo(f"civ-{seed}".encode())
        offer = {C.CIVILIZATIONS[c].key for c in fresh.seats[0].civ_offer}
        assert not offer & set(S.REMOVED_CIVILIZATIONS)


def test_options_level_and_shadow_empire_seat_count() -> None:
    """Difficulté: levels 1-6 only (5-6 the hard side); the Shadow Empire option needs 2 seats."""
    with pytest.raises(Exception, match="automa_level"):
        GAME.decode_options({"automa_level": 7})
    with pytest.raises(ValueError, match="shadow_empire"):
        GAME.initial(GAME.decode_options({"shadow_empire": True}), 3)
    with pytest.raises(ValueError, match="shadow_empire"):
        GAME.initial(GAME.decode_options({"shadow_empire": True}), 1)
    with pytest.raises(ValueError, match="starting_civilizations"):
        GAME.initial(GAME.decode_options({"starting_civilizations": ["heralds"]}), 1)
    state, _ = new_solo(b"lvl", level=4)
    assert state.solo is not None and state.solo.level == 4


# -- the bots' turn --------------------------------------------------------------------------
def test_decision_pair_resolved() -> None:
    """TOUR AUTOMA/EMPIRE DE L'OMBRE, 2-3: a pair is drawn (left track card, right priority
    card); the Automa then the Shadow Empire advance one space on the track their rules
    choose."""
    state = started()
    state.solo.income_turns = 1  # type: ignore[union-attr]
    events = bots_run(state, Frame(kind="solo_turn", seat=0))
    drawn = of(events, sev.AutomaDecisionDrawn)
    assert len(drawn) == 1
    left, right = drawn[0].left, drawn[0].right
    assert state.solo is not None and state.solo.pair == [left, right]
    assert state.solo.deck_size() == 6
    automa = of(events, sev.AutomaAdvanced)
    shadow = of(events, sev.ShadowEmpireAdvanced)
    assert automa and shadow
    assert automa[0].to == 1 and shadow[0].to == 1
    assert events.index(automa[0]) < events.index(shadow[0])


def _with_positions(
    automa: list[int], shadow: list[int], favorites: tuple[int, int]
) -> TapestryState:
    state = started()
    assert state.solo is not None
    state.solo.bots[0].tracks = list(automa)
    state.solo.bots[1].tracks = list(shadow)
    state.solo.bots[0].favorite, state.solo.bots[1].favorite = favorites
    return state


def test_track_rule_all_unfinished_with_favorite_heart() -> None:
    """Track rule "all unfinished": every track not finished is valid; the priority card's
    heart picks the bot's favourite (card 1's order starts with the heart)."""
    state = _with_positions([0, 0, 0, 0], [0, 0, 0, 0], (2, 3))
    # card 7 (left): Automa all_unfinished; card 1 (right): favorite first for the Automa
    assert choose_track(state, AUTOMA_BOT, 7, 1) == 2


def test_track_rule_shadow_reads_priority_bottom_to_top() -> None:
    """The Shadow Empire reads the priority arrow bottom to top: card 1's last entry
    (science) comes first."""
    state = _with_positions([0, 0, 0, 0], [0, 0, 0, 0], (2, 3))
    assert choose_track(state, SHADOW_BOT, 1, 1) == TRACK_IDS.index("science")


def test_track_rule_closest_to_finish() -> None:
    """Track rule "closest to the end": only the tracks with the fewest spaces left (card 1's
    Automa rule); finished tracks are ignored."""
    state = _with_positions([12, 9, 3, 9], [0, 0, 0, 0], (0, 1))
    # exploration finished; science and military 3 from the end; card 3's order: science first
    assert choose_track(state, AUTOMA_BOT, 1, 3) == TRACK_IDS.index("science")
    assert choose_track(state, AUTOMA_BOT, 1, 4) in (1, 3)


def test_track_rule_closest_to_landmark_or_finish() -> None:
    """Track rule "closest to a landmark or the end": the distance to the next unclaimed
    landmark (spaces 4, 7, 10) ahead; a claimed landmark no longer counts."""
    state = _with_positions([3, 0, 0, 5], [0, 0, 0, 0], (0, 1))
    assert choose_track(state, AUTOMA_BOT, 3, 5) == TRACK_IDS.index("exploration")  # 1 away
    landmark = C.space("exploration", 4).landmark
    state.landmark_owner[str(landmark)] = 0
    # exploration now 4 from its next landmark (7); military 2 from 7
    assert choose_track(state, AUTOMA_BOT, 3, 5) == TRACK_IDS.index("military")


def test_income_icon_triggers_income_turn() -> None:
    """TOUR AUTOMA, 2: when the pair empties the deck and the track card shows the income
    icon, the bots take an income turn instead of advancing."""
    state = started()
    solo = state.solo
    assert solo is not None
    solo.income_turns = 1
    solo.deck, solo.hidden = [1, 5], 0  # card 1 has the icon, card 5 not
    for seed in range(10):
        trial = GAME.copy_state(state)
        events = bots_run(trial, Frame(kind="solo_turn", seat=0), seed=f"icon-{seed}".encode())
        drawn = of(events, sev.AutomaDecisionDrawn)[0]
        incomes = of(events, sev.AutomaIncomeTurnStarted)
        if drawn.left == 1:
            assert incomes and incomes[0].era == 2 and not of(events, sev.AutomaAdvanced)
        else:
            assert not incomes and of(events, sev.AutomaAdvanced)


def test_empty_deck_income_turn() -> None:
    """TOUR AUTOMA, 1: with an empty decision deck the bots take an income turn."""
    state = started()
    solo = state.solo
    assert solo is not None
    solo.income_turns, solo.deck, solo.hidden = 1, [], 0
    events = bots_run(state, Frame(kind="solo_turn", seat=0))
    assert [e.era for e in of(events, sev.AutomaIncomeTurnStarted)] == [2]
    assert of(events, sev.AutomaDecisionShuffled)
    assert solo is state.solo and state.solo.deck_size() >= 2


# -- benefits, landmarks, achievements ------------------------------------------------------
def test_automa_benefits_are_only_the_listed_ones() -> None:
    """RÈGLES SPÉCIFIQUES, A: the Automa takes research, advances, tech refresh, a tapestry
    card, conquest and exploration, each once per space; never resources, buildings, VP or
    bonuses."""
    assert automa_actions("military", 1) == [("conquer", ())]
    assert automa_actions("military", 4) == []  # worker + VP: nothing
    assert [a for a, _ in automa_actions("exploration", 7)] == ["explore"]  # tiles: nothing
    assert [a for a, _ in automa_actions("technology", 7)] == ["refresh"]  # invent: nothing
    assert [a for a, _ in automa_actions("science", 2)] == ["tapestry"]
    assert automa_actions("science", 11) == [
        ("advance", ("advance_exploration", "advance_military", "advance_technology"))
    ]  # two choices printed: once
    assert [a for a, _ in automa_actions("science", 10)] == ["regress"]
    assert [a for a, _ in automa_actions("science", 1)] == ["research_no_benefit"]


def test_shadow_empire_gains_no_benefit() -> None:
    """RÈGLES SPÉCIFIQUES, A: the Shadow Empire never gains benefits (only landmarks)."""
    state = _with_positions([0, 0, 0, 0], [0, 0, 0, 0], (0, 3))
    events = bots_run(state, Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, 7, 10)))
    assert [type(e).__name__ for e in events] == ["ShadowEmpireAdvanced"]


def test_research_rolls_the_science_die() -> None:
    """RÈGLES SPÉCIFIQUES, A: research: roll the science die and advance there (no benefit
    with the X icon); a choice of tracks: roll until one of them shows."""
    state = _with_positions([0, 4, 0, 0], [0, 0, 0, 0], (0, 3))
    events = bots_run(state, Frame(kind="solo_action", seat=0, token="research_no_benefit"))
    rolled = of(events, sev.AutomaDieRolled)[0]
    moved = of(events, sev.AutomaAdvanced)[0]
    assert moved.track == rolled.track and len(rolled.faces) == 1
    options = ("advance_exploration", "advance_military")
    events = bots_run(state, Frame(kind="solo_action", seat=0, token="advance", options=options))
    rolled = of(events, sev.AutomaDieRolled)[0]
    assert rolled.track in ("exploration", "military")
    assert all(C.SCIENCE_DIE[f] not in ("exploration", "military") for f in rolled.faces[:-1])


def test_landmark_taken_by_a_bot_goes_to_the_automa() -> None:
    """MONUMENTS: a landmark reached first by either bot goes to the Automa's income board;
    the human can no longer claim it."""
    state = _with_positions([0, 0, 0, 3], [3, 0, 0, 0], (3, 0))
    events = bots_run(state, Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, 7, 5)))
    claimed = of(events, sev.AutomaLandmarkClaimed)
    exploration_landmark = C.space("exploration", 4).landmark
    assert claimed and claimed[0].landmark == exploration_landmark
    assert claimed[0].by == "shadow_empire"
    assert state.solo is not None and exploration_landmark in state.solo.landmarks
    assert state.landmark_owner[str(exploration_landmark)] == AUTOMA


def test_track_completed_achievement_automa_scores_shadow_not() -> None:
    """OBJECTIFS: completing a track gives the Automa the achievement's VP; the Shadow Empire
    takes its place without VP."""
    state = _with_positions([11, 0, 0, 0], [0, 0, 0, 11], (0, 3))
    events = bots_run(
        state,
        Frame(kind="solo_advance", seat=0, ints=(SHADOW_BOT, 3, 1)),  # closest to the end
        Frame(kind="solo_advance", seat=0, ints=(AUTOMA_BOT, 1, 1)),
    )
    shadow = of(events, sev.ShadowEmpireAchievementEarned)
    automa = of(events, sev.AutomaAchievementEarned)
    assert shadow and automa and automa[0].vp == 5  # second place: 10/5
    assert state.achievement_claims[str(automa[0].achievement)] == [SHADOW, AUTOMA]


# -- conquest and exploration ---------------------------------------------------------------
def _lone_human_next_to_automa(state: TapestryState) -> int:
    """Put a lone human outpost next to the Automa's start territory; returns its hex."""
    from domain.tapestry.rules import board_neighbours

    home = hex_at(state, *S.SETUP.automa_home)
    target = next(
        n for n in board_neighbours(state.board)[home] if n >= 0 and not state.hexes[n].outposts
    )
    state.hexes[target].tile = next(iter(C.TERRITORY_TILES))
    state.hexes[target].outposts.append(Outpost(seat=0))
    return target


def test_opponent_conquest_without_trap() -> None:
    """CONQUÊTE I: the Automa conquers a territory the human holds with one outpost: its
    outpost goes there and the human's is toppled."""
    state = started()
    target = _lone_human_next_to_automa(state)
    state.seats[0].hand = []
    events = call(state, conquer, False)
    assert of(events, sev.AutomaOutpostPlaced)[0].hex == target
    assert of(events, ev.OutpostToppled)[0].owner == 0
    assert state.hexes[target].controller() == AUTOMA


def test_opponent_conquest_with_trap() -> None:
    """CONQUÊTE I / EMBUSCADE: the human may play a Trap: the Automa's outpost is toppled."""
    state = started()
    target = _lone_human_next_to_automa(state)
    state.seats[0].hand = [TRAP]
    state.agenda = [Frame(kind="solo_action", seat=0, token="conquer")]
    ctx = Ctx(state, Chance(b"trap", 5))
    run(ctx)
    for event in ctx.events:
        GAME.evolve(state, event)
    state.agenda = ctx.state.agenda
    assert GAME.pending(state).decision == "trap"
    assert PlayTrap() in GAME.legal_actions(state, 0) and Decline() in GAME.legal_actions(state, 0)
    answer = GAME.decide(state, 0, PlayTrap(), Chance(b"trap", 6))
    toppled = of(answer, ev.OutpostToppled)
    assert toppled and toppled[0].owner == AUTOMA
    for event in answer:
        GAME.evolve(state, event)
    assert state.hexes[target].controller() == 0


def test_neutral_conquest_and_topple_icon() -> None:
    """CONQUÊTE II: no human territory to take: the Automa conquers a valid hex away from the
    human (an empty hex gets a tile at random rotation); with the topple icon on the priority
    card a toppled Shadow Empire outpost joins it."""
    state = started()
    solo = state.solo
    assert solo is not None
    solo.pair = [7, 1]  # card 1: topple icon
    events = call(state, conquer, False)
    placed = of(events, sev.AutomaOutpostPlaced)
    assert placed
    target = placed[0].hex
    assert of(events, sev.ShadowEmpireOutpostPlaced)[0].hex == target
    seats = [(o.seat, o.toppled) for o in state.hexes[target].outposts]
    assert seats == [(AUTOMA, False), (SHADOW, True)]
    solo.pair = [7, 2]  # card 2: no topple icon
    events = call(state, conquer, False, seed=b"again")
    assert of(events, sev.AutomaOutpostPlaced) and not of(events, sev.ShadowEmpireOutpostPlaced)


def test_neutral_conquest_aims_at_the_middle_island() -> None:
    """CONQUÊTE II, 2: while the middle island is still to conquer, the target is the valid
    hex nearest to it."""
    from domain.tapestry.solo.board import distances

    state = started()
    assert state.solo is not None
    state.solo.pair = [7, 2]
    island = next(i for i, h in enumerate(C.BOARDS[state.board].hexes) if h.central_island)
    from domain.tapestry.solo.conquest import neutral_targets

    before = distances(state, {island})
    valid = neutral_targets(state, False, False)
    events = call(state, conquer, False)
    target = of(events, sev.AutomaOutpostPlaced)[0].hex
    assert target in valid and before[target] == min(before[i] for i in valid)


def test_exploration_by_the_automa() -> None:
    """EXPLORATION: a tile drawn at random rotation on an empty hex next to the Automa; no
    outpost; skipped when no hex is valid."""
    state = started()
    events = call(state, explore, False)
    laid = of(events, sev.AutomaTileExplored)
    assert len(laid) == 1 and not of(events, sev.AutomaOutpostPlaced)
    assert state.hexes[laid[0].hex].tile == laid[0].tile
    for cell in state.hexes:  # nothing left to explore
        if not cell.explored:
            cell.tile = 0
    assert call(state, explore, False) == []


def test_human_conquers_automa_trap_check() -> None:
    """EMBUSCADE: when the human conquers an Automa territory, the Automa's face-down
    tapestry cards are revealed until a Trap: with one, the human's outpost is toppled."""
    state = started()
    home = hex_at(state, *S.SETUP.automa_home)
    state.hexes[home].outposts = [Outpost(seat=AUTOMA)]
    state.hexes[home].outposts.append(Outpost(seat=0))
    assert state.solo is not None
    state.solo.tapestry = [TRAP]
    events = call(state, defend, home, 0)
    check = of(events, sev.AutomaTrapChecked)[0]
    assert check.trap and check.revealed == (TRAP,)
    assert of(events, ev.OutpostToppled)[0].owner == 0
    state.solo.tapestry = []
    state.hexes[home].outposts = [Outpost(seat=AUTOMA), Outpost(seat=0)]
    events = call(state, defend, home, 0)
    assert not of(events, sev.AutomaTrapChecked)
    assert of(events, ev.OutpostToppled)[0].owner == AUTOMA


def test_automa_topple_achievement_counts_human_outposts_only() -> None:
    """OBJECTIFS: the Automa earns "topple 2 outposts" with 2 toppled human outposts on its
    territories (Shadow Empire outposts do not count)."""
    from domain.tapestry.solo.bots import check_automa_achievements

    state = started()
    home = hex_at(state, *S.SETUP.automa_home)
    state.hexes[home].outposts.append(Outpost(seat=SHADOW, toppled=True))
    state.hexes[home].outposts.append(Outpost(seat=SHADOW, toppled=True))
    assert not of(call(state, check_automa_achievements), sev.AutomaAchievementEarned)
    state.hexes[home].outposts.append(Outpost(seat=0, toppled=True))
    state.hexes[home].outposts.append(Outpost(seat=0, toppled=True))
    earned = of(call(state, check_automa_achievements), sev.AutomaAchievementEarned)
    assert earned and C.ACHIEVEMENTS[earned[0].achievement].key == "topple_two_outposts"


# -- income turns and levels ----------------------------------------------------------------
def test_income_vp_multipliers() -> None:
    """TOUR REVENUS AUTOMA: VP per landmark and territory, per space on military and science,
    per space on technology and exploration, with the multipliers of the income turn."""
    state = _with_positions([2, 3, 4, 5], [0, 0, 0, 0], (0, 1))
    assert state.solo is not None
    state.solo.landmarks = [1, 2]
    territories = 1  # the start territory
    for era in (2, 3, 4, 5):
        m = S.MULTIPLIERS["normal", era]
        expected = (
            m.landmark_territory * (2 + territories)
            + m.military_science * (5 + 3)
            + m.technology_exploration * (4 + 2)
        )
        assert income_vp(state, era) == expected
    assert income_vp(state, 2) == 3 + 0 + 6


def _income_events(level: int, era: int, seed: bytes = b"inc") -> list[Event]:
    state = started(b"levels", level)
    assert state.solo is not None
    state.solo.income_turns = era - 1
    state.solo.last_pair = [7, 1]
    return bots_run(state, *income_frames(era, level), seed=seed)


def test_level_differences() -> None:
    """Difficulté: level 1 draws no tapestry card and uses no civilization ability; level 2
    does; levels 3-4 also advance both bots again and add 2 more progress cards."""
    one, two, three = (_income_events(level, 3) for level in (1, 2, 3))
    assert not of(one, sev.AutomaTapestryDrawn) and of(two, sev.AutomaTapestryDrawn)
    assert not of(two, sev.AutomaAdvanced) and of(three, sev.AutomaAdvanced)
    added = [sum(e.count for e in of(x, sev.AutomaProgressAdded)) for x in (one, two, three)]
    assert added == [2, 2, 4]
    assert of(_income_events(4, 3), sev.AutomaAdvanced)


def test_income_turn_five_ends_the_bots_game() -> None:
    """After their fifth income turn the bots' game is over (no card to the income board,
    no progress cards, no shuffle)."""
    events = _income_events(2, 5)
    assert of(events, sev.AutomaFinished)
    assert not of(events, sev.AutomaTapestryPlaced) and not of(events, sev.AutomaDecisionShuffled)


def test_favorite_changes_when_overtaken() -> None:
    """TOUR REVENUS, step 1: a bot whose favourite track is finished or overtaken by another
    token changes favourite."""
    state = _with_positions([0, 0, 5, 0], [0, 0, 0, 0], (2, 3))
    state.seats[0].tracks[2] = [6]
    assert state.solo is not None
    state.solo.last_pair = [7, 1]
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(1, 2)))
    changed = of(events, sev.AutomaFavoriteChanged)
    assert changed and changed[0].track != "technology"
    assert not of(events, sev.ShadowEmpireFavoriteChanged)  # military: nobody ahead


def test_automa_civilization_abilities() -> None:
    """Automa civilization cards: Engineers score 1 VP per landmark at income turns 2-5."""
    state = started(b"civ")
    assert state.solo is not None
    state.solo.civilization = 4
    state.solo.landmarks = [1, 2, 3]
    events = bots_run(state, Frame(kind="solo_income", seat=0, ints=(7, 2)))
    assert [e.vp for e in of(events, sev.AutomaScored)] == [3]


# -- expansions ---------------------------------------------------------------------------
def test_no_expansion_box_is_played_solo_without_all_its_solo_rules() -> None:
    """Player aid "Extension" lines: a box is played solo only when every solo change its
    record lists (``automa.json#expansions``) is applied by the engine; a 1-seat game with any
    other box is refused loudly, naming the box (and the changes still missing)."""
    from domain.tapestry.solo.hooks import (
        IMPLEMENTED_SOLO_CHANGES,
        SoloRulesMissing,
        check_expansions,
    )
    from domain.tapestry.state import EXPANSIONS

    for box in EXPANSIONS:
        record = S.EXPANSIONS.get(box)
        if (
            record is not None
            and record.changes is not None
            and set(record.changes) <= (IMPLEMENTED_SOLO_CHANGES)
        ):
            check_expansions((box,))
            continue
        with pytest.raises(SoloRulesMissing, match=box):
            check_expansions((box,))
    for box in EXPANSIONS:  # today every box is played solo
        check_expansions((box,))


def test_a_box_with_a_solo_change_not_applied_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A box record (``automa.json#expansions``) listing a change the engine does not apply,
    or no known solo rules at all, is refused solo, loudly, naming the box and the change."""
    from domain.tapestry.solo.hooks import SoloRulesMissing, check_expansions

    box = "arts_and_architecture"
    record = S.EXPANSIONS[box]
    changed = S.Expansion(box=box, changes=("a_change_nobody_wrote",), source="assumed", note="x")
    monkeypatch.setitem(S.EXPANSIONS, box, changed)
    with pytest.raises(SoloRulesMissing, match="a_change_nobody_wrote"):
        check_expansions((box,))
    unknown = S.Expansion(box=box, changes=None, source="assumed", note="x")
    monkeypatch.setitem(S.EXPANSIONS, box, unknown)
    with pytest.raises(SoloRulesMissing, match="not in our sources"):
        check_expansions((box,))
    with pytest.raises(ValueError, match=box):
        GAME2.initial(GAME2.decode_options({"expansions": [box]}), 1)
    monkeypatch.setitem(S.EXPANSIONS, box, record)
    GAME2.initial(GAME2.decode_options({"expansions": [box]}), 1)


def test_landmark_cards_change_counts_only_while_the_cards_are_absent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Player aid II.4, "Extension : Piochez 2 cartes Monuments et choisissez-en 1 (l'autre
    Monument va à l'Automa)": applied as a component absent while the landmark cards are in
    none of our sources; a source for them makes the change unapplied (the box refused solo)."""
    from domain.tapestry.expansions import inventory
    from domain.tapestry.solo.hooks import IMPLEMENTED_SOLO_CHANGES, applied

    change = "landmark_cards:draw_2_keep_1_other_to_automa"
    assert change in IMPLEMENTED_SOLO_CHANGES and applied(change)
    (cards,) = [c for c in inventory.COMPONENTS if c.label == "plans_and_ploys/landmark_cards"]
    assert cards.source == "none"
    sourced = tuple(
        msgspec.structs.replace(c, source="rulebook", section="MATÉRIEL")
        if c.label == "plans_and_ploys/landmark_cards"
        else c
        for c in inventory.COMPONENTS
    )
    monkeypatch.setattr(inventory, "COMPONENTS", sourced)
    assert not applied(change)


# -- the bots as the human's neighbours -----------------------------------------------------
def test_bots_count_as_neighbours_for_tech_prerequisites() -> None:
    """ "Fonctionne comme un voisin": a bot's token meets a tech card's track prerequisite for
    the human (you or a neighbour)."""
    from domain.tapestry.rules import requirement_met

    card = next(
        c.id
        for c in C.TECH_CARDS.values()
        if c.requirement is not None and c.requirement.type == "advancement_track"
    )
    requirement = C.TECH_CARDS[card].requirement
    assert requirement is not None
    state = started()
    assert not requirement_met(state, 0, card)
    assert state.solo is not None
    state.solo.bots[SHADOW_BOT].tracks[TRACK_IDS.index(requirement.track)] = requirement.min_space
    assert requirement_met(state, 0, card)


def test_bots_count_as_neighbours_for_first_into_an_era() -> None:
    """Income turn step 2: the human is first into an era only if the bots are not there."""
    from domain.tapestry.turns import _first_into_era

    state = started()
    assert state.solo is not None
    assert _first_into_era(state, 0, 2)
    state.solo.income_turns = 2
    assert not _first_into_era(state, 0, 2)


def test_solo_options_kept_under_every_tapestry_ruleset() -> None:
    """Difficulté and the Shadow Empire option reach the state under every Tapestry ruleset
    (``tapestry/2`` once rebuilt its ``tapestry/1`` options from two fields only)."""
    from domain.registry import get_ruleset, rulesets_of

    for name in rulesets_of("tapestry"):
        game = get_ruleset(name)
        solo_state = game.initial(game.decode_options({"automa_level": 3}), 1)
        assert solo_state.options.automa_level == 3, name
        duo = game.initial(game.decode_options({"shadow_empire": True}), 2)
        assert duo.options.shadow_empire, name

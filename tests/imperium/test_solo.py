"""Imperium solo against the C.I.V. (booklet "SOLO"): setup per level, the C.I.V.'s turn,
its decision tables, its end trigger, King of Kings, scoring (a tie goes to the C.I.V.),
collapse, options, and seeded games of every nation as the human and as the C.I.V."""

from __future__ import annotations

import os

import msgspec
import pytest

from domain.bots import GreedyBot, RandomBot
from domain.core import Chance, MalformedCommand
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ import ops as O
from domain.imperium.civ.events import CivCardResolved, CivDieRolled
from domain.imperium.civ.scoring import civ_finish, civ_sheet
from domain.imperium.civ.turn import _resolve_slot, matches, resolvable
from domain.imperium.engine import Ctx
from domain.imperium.game import ImperiumGame
from domain.imperium.scoring import score
from domain.imperium.state import Frame, ImperiumState
from domain.registry import codec_for, get_ruleset

GAME = ImperiumGame()
LEVELS = S.LEVELS


def solo(human: str = "romans", civ: str = "carthaginians", level: str = "imperator",
         seed: int = 1, game: ImperiumGame = GAME, **extra: object) -> ImperiumState:  # fmt: skip
    """A set-up solo game (under ``game``'s rules: the first ruleset unless told)."""
    options = {"nations": [human], "civ_nation": civ, "difficulty": level, **extra}
    state = game.initial(options, 1)
    for event in game.setup(state, Chance(seed.to_bytes(4, "big"), 0)):
        state = game.evolve(state, event)
    return state


def play(state: ImperiumState, bot: object, seed: int, limit: int = 4000,
         game: ImperiumGame = GAME) -> tuple[list[object], ImperiumState]:  # fmt: skip
    """Let ``bot`` play the human to the end; every event after setup, and the state held."""
    events: list[object] = []
    count = 0
    while not game.is_over(state) and count < limit:
        assert game.pending(state).seats == (0,)
        command = bot.choose(game, state, 0)  # type: ignore[attr-defined]
        for event in game.decide(state, 0, command, Chance(seed.to_bytes(4, "big"), count + 1)):
            state = game.evolve(state, event)
            events.append(event)
        count += 1
    assert game.is_over(state)
    return events, state


def test_one_seat_game_has_one_seat_and_the_civ_as_a_party() -> None:
    """A 1-seat game is the human against the C.I.V.: one seat, the C.I.V. a party."""
    state = solo()
    assert GAME.seat_count(state) == 1 and GAME.min_seats == 1
    assert [p.name for p in GAME.parties(state)] == ["C.I.V."]
    assert len(GAME.scores(state)) == 1 and len(GAME.balance_keys(state)) == 1
    assert state.first == 0 and GAME.pending(state).seats == (0,)


@pytest.mark.parametrize("level", LEVELS)
def test_setup_per_level(level: str) -> None:
    """NIVEAUX DE DIFFICULTÉ: Chef de clan and Seigneur de guerre keep slot 5 for a token,
    Souverain and Suzerain give the C.I.V. 3 materials, 2 population, 1 progress, Suzerain
    adds slot 6."""
    state = solo(level=level)
    civ = state.civ
    assert civ is not None
    filled = [bool(cards) for cards in civ.slots]
    if level in ("chieftain", "warlord"):
        assert civ.token_slot == 5 and filled == [True] * 4 + [False]
    else:
        assert civ.token_slot == 0 and all(filled)
    assert len(civ.slots) == (6 if level == "overlord" else 5)
    seat = state.seats[CIV]
    expected = (3, 2, 1) if level in ("sovereign", "overlord") else (0, 0, 0)
    assert (seat.materials, seat.population, seat.progress) == expected


def test_dynasty_deck_order() -> None:
    """MISE EN PLACE DE LA C.I.V., 2: developments sorted by VP (most on top), accession card
    face up on them, nation cards shuffled on top."""
    state = solo(civ="carthaginians")
    seat = state.seats[CIV]
    nation = C.NATIONS["carthaginians"]
    assert sorted(seat.nation_deck) == sorted(nation.nation_deck)
    assert seat.accession == list(nation.accession)
    values = [O.estimated_vp(state, c) for c in seat.nation_bottom]
    assert values == sorted(values, reverse=True) and len(values) == len(nation.development)


def test_atlanteans_civ_starts_as_an_empire() -> None:
    """Si vous jouez contre les Atlantes, la carte Statut de la C.I.V. est sur sa face Empire."""
    assert solo(civ="atlanteans").seats[CIV].empire


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"difficulty": "legendary"}, "difficulty"),
        ({"civ_nation": "martians"}, "civ_nation"),
        ({"civ_side": "C"}, "civ_side"),
        ({"supreme_master": True, "difficulty": "chieftain"}, "supreme_master"),
        ({"nations": ["romans"], "civ_nation": "romans"}, "civ_nation"),
    ],
)
def test_bad_solo_options_name_the_field(options: dict[str, object], field: str) -> None:
    """Unknown values are refused (INVALID_ARGUMENT at the API) naming the field."""
    with pytest.raises(MalformedCommand) as caught:
        GAME.initial(options, 1)
    assert field in str(caught.value)


def test_solo_options_refused_with_several_seats() -> None:
    """difficulty on a 2-seat game is not silently ignored."""
    with pytest.raises(MalformedCommand, match="difficulty"):
        GAME.initial({"difficulty": "warlord"}, 2)


def _first_civ_turn(state: ImperiumState) -> list[object]:
    events: list[object] = []
    bot = RandomBot(b"turn")
    count = 0
    while not any(isinstance(e, ev.RoundEnded) for e in events):
        command = bot.choose(GAME, state, 0)
        for event in GAME.decide(state, 0, command, Chance(b"turn", count)):
            state = GAME.evolve(state, event)
            events.append(event)
        count += 1
    return events


def test_civ_turn_die_sets_aside_then_resolves_slots_in_order() -> None:
    """LE TOUR DE LA C.I.V.: the die's slot is set aside, the others resolve ascending."""
    events = _first_civ_turn(solo(level="imperator", seed=7))
    start = next(i for i, e in enumerate(events) if isinstance(e, CivDieRolled))
    face = events[start].face  # type: ignore[attr-defined]
    slots = [e.slot for e in events[start:] if isinstance(e, CivCardResolved)]
    assert slots == sorted(slots) and face not in slots
    assert set(slots) == {1, 2, 3, 4, 5} - {face}


def _ctx_with_card(card: str, civ: str = "carthaginians", empire: bool = False,
                   game: ImperiumGame = GAME) -> Ctx:  # fmt: skip
    state = solo(human="greeks" if civ != "greeks" else "romans", civ=civ, game=game)
    ctx = Ctx(state, Chance(b"table", 0))
    ctx.emit(ev.StateFlipped(seat=CIV, empire=empire))
    old = ctx.state.civ.slots[0][0]  # type: ignore[union-attr]
    ctx.emit(ev.CardMoved(seat=CIV, card=old, src="civ/slot/1", dst="removed"))
    ctx.emit(ev.CardMoved(seat=CIV, card=card, src="removed", dst="civ/slot/1"))
    return ctx


def _resolve(ctx: Ctx) -> CivCardResolved:
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    return next(e for e in ctx.events if isinstance(e, CivCardResolved))


def _nation_card(nation: str, name: str) -> str:
    return next(c for c in C.CARDS if C.CARDS[c].nation == nation and C.CARDS[c].name == name)


def test_carthaginian_barbarian_table_region_row() -> None:
    """Carthaginois (barbare): a region: top deck card to the discard, play it, exile the
    market card at the lowest slot without tokens."""
    region = next(c for c in C.CARDS if C.CARDS[c].suits == ("region",))
    ctx = _ctx_with_card(region)
    exiled_before = len(ctx.state.exile)
    result = _resolve(ctx)
    assert result.side == "barbarian" and "Jouez cette" in result.text
    assert region in ctx.state.seats[CIV].play and len(ctx.state.exile) == exiled_before + 1


def test_carthaginian_glory_falls_back_without_regions() -> None:
    """Gloire: "abandonnez 3 régions pour piocher une renommée; sinon, innovez" — with no
    region in play the second alternative is resolved."""
    glory = _nation_card("carthaginians", "Glory")
    ctx = _ctx_with_card(glory)
    row = next(r for r in S.table_for("carthaginians", "barbarian").rows
               if matches(ctx.state, glory, r.match))  # fmt: skip
    assert row.match == "name:Glory" and resolvable(ctx.state, row) == 1
    _resolve(ctx)
    moves = (ev.CardDrawn, ev.CardMoved)
    assert any(isinstance(e, moves) and e.dst == "1:deck_top" for e in ctx.events)


@pytest.mark.parametrize("nation", C.ALL_NATIONS)
@pytest.mark.parametrize("side", ["barbarian", "empire"])
def test_decision_table_resolves_every_card_of_the_nation(nation: str, side: str) -> None:
    """Each nation's own table resolves every card of its C.I.V. deck: one row, and the card
    leaves its slot (a nation with one printed table uses it on either side)."""
    table = S.table_for(nation, side)
    assert table.rows[-1].match == "other"
    assert table.nation == nation
    assert table.side == (side if side in S.sides(nation) else S.sides(nation)[0])
    for card in sorted(set(C.NATIONS[nation].starting_deck))[:4]:
        if "unrest" in C.CARDS[card].suits:
            continue
        ctx = _ctx_with_card(card, civ=nation, empire=side == "empire")
        result = _resolve(ctx)
        assert result.side == side and result.card == card
        assert not ctx.state.civ.slots[0]  # type: ignore[union-attr]


def test_unrest_card_goes_back_to_the_pile() -> None:
    """Si vous révélez une carte Instabilité, renvoyez-la dans la pioche des instabilités."""
    unrest = C.COMMON_UNREST[0]
    ctx = _ctx_with_card(unrest)
    result = _resolve(ctx)
    assert result.row == -1 and ctx.state.unrest[-1] == unrest


def test_empty_dynasty_deck_triggers_the_end() -> None:
    """FIN DE PARTIE, 1: "La pioche Dynastie de la C.I.V. est épuisée"; the accession card
    reaching its discard turns its state card to empire."""
    ctx = Ctx(solo(civ="carthaginians"), Chance(b"dyn", 0))
    while O.dynasty_size(ctx.state):
        O.take_dynasty(ctx, "1:discard")
    assert ctx.state.end_trigger == "dynasty_empty" and ctx.state.seats[CIV].empire


@pytest.mark.parametrize("nation", ["vikings", "arthurians"])
def test_vikings_and_arthurians_never_establish_an_empire(nation: str) -> None:
    """ "Les Vikings ne peuvent pas établir d'empire", "Les Arthuriens ne peuvent pas établir
    d'empire": their accession card (Harald Hardrada, Gwaith Camlan) reaching the C.I.V.'s
    discard leaves its state card barbarian, and their one table is the barbarian one."""
    ctx = Ctx(solo(civ=nation), Chance(b"dyn", 0))
    taken = []
    while O.dynasty_size(ctx.state):
        taken.append(O.take_dynasty(ctx, "1:discard"))
    assert C.NATIONS[nation].accession[0] in taken and not ctx.state.seats[CIV].empire
    assert S.sides(nation) == ("barbarian",)


@pytest.mark.parametrize(("empire", "gained"), [(False, 6), (True, 3)])
def test_king_of_kings_for_the_civ(empire: bool, gained: int) -> None:
    """ROI DES ROIS: instead of King of Kings, 6 progress as a barbarian, 3 (and the top
    dynasty card onto its deck) as an empire; King of Kings turns to face B."""
    ctx = Ctx(solo(), Chance(b"kok", 0))
    ctx.state.piles["fame"] = []
    ctx.state.fame_top = []
    if empire:
        ctx.emit(ev.StateFlipped(seat=CIV, empire=True))
    before = ctx.state.seats[CIV].progress
    O.draw_fame(ctx)
    assert ctx.state.seats[CIV].progress == before + gained
    assert ctx.state.kok_face == "B" and ctx.state.end_trigger == "king_of_kings"
    assert bool(ctx.state.seats[CIV].deck_top) == empire


def test_a_tie_goes_to_the_civ() -> None:
    """DÉCOMPTE: "Si vous marquez autant ou moins de points que la C.I.V., elle l'emporte"."""
    ctx = Ctx(solo(), Chance(b"tie", 0))
    gap = score(ctx.state, 0)["total"] - civ_sheet(ctx.state)["total"]
    ctx.emit(ev.TokensChanged(seat=CIV if gap > 0 else 0, progress=abs(gap)))
    civ_finish(ctx, collapse=False)
    assert ctx.state.winners == [] and GAME.parties(ctx.state)[0].winner
    ctx2 = Ctx(solo(), Chance(b"tie", 0))
    gap = score(ctx2.state, 0)["total"] - civ_sheet(ctx2.state)["total"]
    ctx2.emit(ev.TokensChanged(seat=0, progress=max(0, 1 - gap)))
    civ_finish(ctx2, collapse=False)
    assert ctx2.state.winners == [0] and not GAME.parties(ctx2.state)[0].winner


def test_collapse_is_a_loss() -> None:
    """EFFONDREMENT: the human loses, whatever the scores."""
    ctx = Ctx(solo(), Chance(b"col", 0))
    ctx.emit(ev.TokensChanged(seat=0, progress=500))
    civ_finish(ctx, collapse=True)
    assert ctx.state.winners == [] and ctx.state.collapse


def test_view_hides_civ_slots_and_deck_shows_its_board() -> None:
    """The C.I.V.'s slot cards and deck are hidden like an opponent's hand; its board public."""
    state = solo()
    view = GAME.view(state, 0)
    assert view.civ is not None and view.civ.slots == (1, 1, 1, 1, 1)
    encoded = msgspec.json.encode(view).decode()
    for cards in state.civ.slots:  # type: ignore[union-attr]
        for card in cards:
            assert f'"{card}"' not in encoded or card in state.seats[0].hand
    assert view.seats[CIV].hand is None


def _check_game(human: str, civ: str, level: str, seed: int, greedy: bool,
                game: ImperiumGame = GAME) -> ImperiumState:  # fmt: skip
    """A whole solo game; the fold of its events (decoded from their bytes) from the set-up
    state equals the state held while playing, and the game has an outcome."""
    state = solo(human=human, civ=civ, level=level, seed=seed, game=game)
    start = game.copy_state(state)
    bot = GreedyBot(b"g%d" % seed) if greedy else RandomBot(b"r%d" % seed)
    events, held = play(state, bot, seed, game=game)
    codec = codec_for(game)
    refold = start
    for event in events:
        refold = game.evolve(refold, codec.decode_event(*codec.encode_event(event)))  # type: ignore[arg-type]
    assert game.encode_state(refold) == game.encode_state(held)
    assert game.outcome(held) is not None
    return held


PAIRS = [(C.ALL_NATIONS[i], C.ALL_NATIONS[(i + 5) % 16]) for i in range(16)]


@pytest.mark.parametrize(("index", "pair"), list(enumerate(PAIRS)))
def test_seeded_solo_games_every_nation(index: int, pair: tuple[str, str]) -> None:
    """Every nation as the human and as the C.I.V., every level: no exception, refold
    identical, an outcome with one score and the C.I.V.'s final score."""
    final = _check_game(pair[0], pair[1], LEVELS[index % 5], index, greedy=index % 2 == 1)
    outcome = GAME.outcome(final)
    assert outcome is not None and len(outcome.scores) == 1
    assert final.civ is not None and final.civ.score is not None


#: solo games per level and ruleset of the long run (``ANNALES_IMPERIUM_SOLO_GAMES``).
LONG_GAMES = int(os.environ.get("ANNALES_IMPERIUM_SOLO_GAMES", "100"))


@pytest.mark.long
@pytest.mark.parametrize(
    "ruleset", ["imperium-classics/1", "imperium/3", "imperium/4", "imperium/5"]
)
@pytest.mark.parametrize("level", LEVELS)
def test_long_solo_games(level: str, ruleset: str) -> None:
    """100 seeded solo games (``ANNALES_IMPERIUM_SOLO_GAMES``) per level and ruleset over the
    16 pairings, random and greedy humans."""
    game = get_ruleset(ruleset)
    assert isinstance(game, ImperiumGame)
    for seed in range(LONG_GAMES):
        human, civ = PAIRS[seed % 16]
        _check_game(human, civ, level, seed, greedy=seed % 2 == 1, game=game)


def test_solo_content_is_validated_and_its_assumptions_listed() -> None:
    """Every table row parses (bad steps are refused at load) and the content report lists
    the solo assumptions: the table readings, the token glyphs, the decisions."""
    with pytest.raises(S.SoloError):
        S.parse_alternatives("gain:gold:1")
    with pytest.raises(S.SoloError):
        S.parse_alternatives("teleport:1")
    lines = GAME.assumptions()
    assert any("token_glyphs" in line for line in lines)
    assert any("civ_auto_answer" in line for line in lines)
    assert S.transcribed() == sorted(C.ALL_NATIONS)
    assert all(S.level(key).key == key for key in LEVELS)

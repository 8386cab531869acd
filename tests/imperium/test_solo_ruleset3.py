"""``imperium/3``: the Utopian C.I.V.'s voyage card on its reshuffles and the Arthurian
C.I.V.'s pending quests (booklet "MISE EN PLACE DE LA C.I.V.", "PHASE DE NETTOYAGE DE LA
C.I.V.", "TABLEAUX DE RÉFÉRENCE DES NATIONS: Utopiens, Arthuriens"); the earlier rulesets keep
their solo games unchanged."""

from __future__ import annotations

import pytest

from domain.bots import GreedyBot, RandomBot
from domain.core import Chance
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ import voyage as V
from domain.imperium.civ.events import CivCardResolved
from domain.imperium.civ.turn import _resolve_slot, refill
from domain.imperium.engine import Ctx
from domain.imperium.game import ImperiumGame2, ImperiumGame3
from domain.imperium.state import Frame, ImperiumState
from domain.registry import GAMES, rulesets_of

GAME = ImperiumGame3()


def solo(civ: str, human: str = "romans", seed: int = 3, game: object = GAME) -> ImperiumState:
    """A set-up solo game at Imperator under ``game``'s ruleset."""
    rules = game  # an ImperiumGame
    state = rules.initial({"nations": [human], "civ_nation": civ, "difficulty": "imperator"}, 1)  # type: ignore[attr-defined]
    for event in rules.setup(state, Chance(seed.to_bytes(4, "big"), 0)):  # type: ignore[attr-defined]
        state = rules.evolve(state, event)  # type: ignore[attr-defined]
    return state


def _empty_deck(ctx: Ctx, progress: int = 0, population: int = 0) -> None:
    """The C.I.V.'s deck into its discard, slot 1 emptied, its tokens set."""
    seat = ctx.state.seats[CIV]
    for card in [*seat.deck, *seat.deck_top]:
        src = "1:deck" if card in seat.deck else "1:deck_top"
        ctx.emit(ev.CardMoved(seat=CIV, card=card, src=src, dst="1:discard"))
    civ = ctx.state.civ
    assert civ is not None
    ctx.emit(ev.CardMoved(seat=CIV, card=civ.slots[0][0], src="civ/slot/1", dst="1:discard"))
    ctx.emit(ev.TokensChanged(seat=CIV, progress=progress - seat.progress,
                              population=population - seat.population))  # fmt: skip


def _voyage_results(ctx: Ctx) -> list[CivCardResolved]:
    return [e for e in ctx.events if isinstance(e, CivCardResolved) and e.side == "voyage"]


def test_imperium_3_and_the_earlier_rulesets_stay() -> None:
    """A rules change is a new ruleset: ``imperium/3`` (the default before ``imperium/4``,
    ``tests/imperium/test_solo_ruleset4.py``), ``imperium/2`` and ``imperium-classics/1`` stay
    registered, and the solo games of the two oldest keep revision 1."""
    assert GAMES["imperium"].ruleset_version != "imperium/3"
    assert rulesets_of("imperium")[:3] == ["imperium-classics/1", "imperium/2", "imperium/3"]
    assert solo("utopians", game=ImperiumGame2()).revision == 1
    assert solo("utopians").revision == 3


def test_utopian_civ_voyage_stack_at_setup() -> None:
    """MISE EN PLACE DE LA C.I.V. (Utopiens): « placez Visions de Shangri-La sur Portes de
    Shangri-La, face visible toutes les deux. La carte au sommet de cette pile est la carte
    Voyage de la C.I.V. »; no dynasty deck. ``imperium/2`` laid no voyage stack."""
    state = solo("utopians")
    assert state.seats[CIV].journey == ["UTO3A", "UTO2A"]
    assert not state.seats[CIV].nation_deck and not state.seats[CIV].accession
    assert solo("utopians", game=ImperiumGame2()).seats[CIV].journey == []


def test_voyage_resolved_before_reshuffle_visions_advances() -> None:
    """PHASE DE NETTOYAGE DE LA C.I.V.: « à chaque fois que le deck C.I.V. est épuisé et que
    vous devriez normalement ajouter une carte de ce deck à un emplacement, résolvez d'abord
    l'effet de sa carte Voyage [...] Puis mélangez la défausse »: Visions de Shangri-La with
    5 progress spends them all, turns over (Passage vers Shangri-La) and acquires a region."""
    ctx = Ctx(solo("utopians"), Chance(b"voyage", 0))
    _empty_deck(ctx, progress=6)
    refill(ctx)
    results = _voyage_results(ctx)
    assert [(r.slot, r.card, r.row) for r in results] == [(0, "UTO2A", 0)]
    kinds = [type(e) for e in ctx.events]
    assert kinds.index(CivCardResolved) < kinds.index(ev.DeckShuffled)
    seat = ctx.state.seats[CIV]
    assert seat.progress == 0 and seat.journey == ["UTO3A", "UTO2B"]
    acquired = [e for e in ctx.events if isinstance(e, ev.CardMoved) and e.dst == "1:deck_top"]
    assert acquired and "region" in C.CARDS[acquired[0].card].suits
    assert ctx.state.civ is not None and ctx.state.civ.slots[0]


def test_voyage_without_progress_takes_unrest_after_the_shuffle() -> None:
    """Visions de Shangri-La with under 5 progress: « récupérez une [instabilité] et placez-la
    dans la défausse après avoir mélangé le deck C.I.V. »: the unrest card lands in its
    discard after the reshuffle, so it is not in the new deck."""
    ctx = Ctx(solo("utopians"), Chance(b"voyage", 1))
    _empty_deck(ctx, progress=4)
    top_unrest = ctx.state.unrest[-1]
    refill(ctx)
    assert [(r.card, r.row) for r in _voyage_results(ctx)] == [("UTO2A", 1)]
    shuffled = next(i for i, e in enumerate(ctx.events) if isinstance(e, ev.DeckShuffled))
    taken = next(i for i, e in enumerate(ctx.events)
                 if isinstance(e, ev.CardMoved) and e.src == "unrest")  # fmt: skip
    assert taken > shuffled
    seat = ctx.state.seats[CIV]
    assert seat.discard == [top_unrest] and top_unrest not in seat.deck
    assert seat.progress == 4 and seat.journey == ["UTO3A", "UTO2A"]


def test_passage_is_replaced_by_the_gates_and_draws_fame() -> None:
    """Passage vers Shangri-La with 5 progress: « remplacez cette carte par Portes de
    Shangri-La, et piochez une [renommée] » (the fame card onto its deck)."""
    ctx = Ctx(solo("utopians"), Chance(b"voyage", 2))
    ctx.emit(ev.CardTurnedOver(seat=CIV, zone="1:journey", card="UTO2A", face="UTO2B"))
    _empty_deck(ctx, progress=5)
    refill(ctx)
    assert [(r.card, r.row) for r in _voyage_results(ctx)] == [("UTO2B", 0)]
    assert ctx.state.seats[CIV].journey == ["UTO3A"] and "UTO2B" in ctx.state.removed
    drawn = [e for e in ctx.events if isinstance(e, ev.CardDrawn) and e.dst == "1:deck_top"]
    assert drawn and "fame" in C.CARDS[drawn[0].card].suits


@pytest.mark.parametrize(("population", "ends"), [(24, True), (23, False)])
def test_shangri_la_ends_the_game_at_24_population(population: int, ends: bool) -> None:
    """Shangri-La: « si [population] ≥ 24, piochez une [renommée] et DÉCLENCHEZ LA FIN DE
    PARTIE; sinon, gagnez 2 [population], récupérez une [instabilité] [...] et vous gagnez 1
    [progrès] »."""
    ctx = Ctx(solo("utopians"), Chance(b"voyage", 3))
    ctx.emit(ev.CardMoved(seat=CIV, card="UTO2A", src="1:journey", dst="removed"))
    ctx.emit(ev.CardTurnedOver(seat=CIV, zone="1:journey", card="UTO3A", face="UTO3B"))
    _empty_deck(ctx, population=population)
    human = ctx.state.seats[0].progress
    refill(ctx)
    assert [(r.card, r.row) for r in _voyage_results(ctx)] == [("UTO3B", 0 if ends else 1)]
    assert (ctx.state.end_trigger == "shangri_la") is ends
    if not ends:
        assert ctx.state.seats[CIV].population == population + 2
        assert ctx.state.seats[0].progress == human + 1


def test_voyage_rows_are_recorded_with_their_readings() -> None:
    """The four voyage rows are content records (``solo.json`` ``voyage``), each reading of a
    lost glyph listed by the content report."""
    assert sorted(S.VOYAGE) == ["UTO2A", "UTO2B", "UTO3A", "UTO3B"]
    lines = [line for line in S.assumptions() if line.startswith("solo.json: voyage ")]
    assert len(lines) == 4 and all("récupérez" in line for line in lines)


def test_arthurian_civ_pending_quests_at_setup() -> None:
    """MISE EN PLACE DE LA C.I.V. (Arthuriens): « A. Placez la carte Graal face visible. B.
    Mélangez les autres cartes [quête] et placez-les face cachée sur la carte Graal. Ce sont
    les quêtes en attente. »; their order is hidden from the human."""
    state = solo("arthurians")
    civ = state.civ
    assert civ is not None and civ.quests[0] == V.GRAAL
    assert sorted(civ.quests) == sorted(C.NATIONS["arthurians"].development)
    assert civ.quests[0] == "ART3" and C.CARDS["ART3"].name == "Graal"
    events = GAME.setup(GAME.initial({"nations": ["romans"], "civ_nation": "arthurians"}, 1),
                        Chance((3).to_bytes(4, "big"), 0))  # fmt: skip
    moves = [e for e in events if isinstance(e, ev.CardMoved) and e.dst == "civ/quests"]
    state = solo("arthurians")
    seen = [GAME.redact_event(state, e, 0) for e in moves]
    assert len(moves) == 5 and all(not e.card for e in seen)  # type: ignore[attr-defined]
    assert solo("arthurians", game=ImperiumGame2()).civ.quests == []  # type: ignore[union-attr]


def test_twrch_trwyth_exiles_the_next_pending_quest_but_not_the_graal() -> None:
    """Arthuriens, Twrch Trwyth: « Exilez la prochaine [quête] en attente à moins que ce ne
    soit le Graal »."""
    ctx = Ctx(solo("arthurians"), Chance(b"quest", 0))
    civ = ctx.state.civ
    assert civ is not None
    twrch = "ART5"
    if twrch in civ.quests:
        ctx.emit(ev.CardMoved(seat=CIV, card=twrch, src="civ/quests", dst="removed"))
    ctx.emit(ev.CardMoved(seat=CIV, card=civ.slots[0][0], src="civ/slot/1", dst="removed"))
    ctx.emit(ev.CardMoved(seat=CIV, card=twrch, src="removed", dst="civ/slot/1"))
    pending = list(civ.quests)
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    assert civ.quests == pending[:-1] and ctx.state.exile[-1] == pending[-1]
    while len(civ.quests) > 1:
        assert V.exile_quest(ctx)
    assert not V.exile_quest(ctx) and civ.quests == [V.GRAAL]


PAIRS = [(C.ALL_NATIONS[i], C.ALL_NATIONS[(i + 5) % 16]) for i in range(16)]
PAIRS += [("greeks", "utopians"), ("romans", "arthurians")]


@pytest.mark.parametrize(("index", "pair"), list(enumerate(PAIRS)))
def test_imperium_3_solo_games_play_to_the_end(index: int, pair: tuple[str, str]) -> None:
    """Seeded games under ``imperium/3``, every nation as the human and as the C.I.V. (a
    Utopian and an Arthurian C.I.V. twice), levels cycled, greedy and random humans: no
    exception, refold identical, an outcome and the C.I.V.'s score."""
    human, civ = pair
    level = S.LEVELS[index % 5]
    state = GAME.initial({"nations": [human], "civ_nation": civ, "difficulty": level}, 1)
    for event in GAME.setup(state, Chance(b"r3-%d" % index, 0)):
        state = GAME.evolve(state, event)
    start = GAME.copy_state(state)
    bot = GreedyBot(b"g%d" % index) if index % 2 else RandomBot(b"r%d" % index)
    events = []
    count = 0
    while not GAME.is_over(state) and count < 4000:
        command = bot.choose(GAME, state, 0)
        for event in GAME.decide(state, 0, command, Chance(b"r3-%d" % index, count + 1)):
            state = GAME.evolve(state, event)
            events.append(event)
        count += 1
    refold = start
    for event in events:
        refold = GAME.evolve(refold, event)
    assert GAME.encode_state(refold) == GAME.encode_state(state)
    assert GAME.outcome(state) is not None and state.civ is not None
    assert state.civ.score is not None and state.revision == 3


def _ctx_with_card(card: str, civ: str, game: object = GAME, empire: bool = False,
                   **extra: object) -> Ctx:  # fmt: skip
    """A solo game of ``game``'s ruleset with ``card`` in the C.I.V.'s slot 1."""
    rules = game
    options = {"nations": ["greeks"], "civ_nation": civ, "difficulty": "imperator", **extra}
    if extra.get("supreme_master"):
        options["difficulty"] = "overlord"
    state = rules.initial(options, 1)  # type: ignore[attr-defined]
    for event in rules.setup(state, Chance(b"r3", 0)):  # type: ignore[attr-defined]
        state = rules.evolve(state, event)  # type: ignore[attr-defined]
    ctx = Ctx(state, Chance(b"r3", 1))
    ctx.emit(ev.StateFlipped(seat=CIV, empire=empire))
    assert ctx.state.civ is not None
    ctx.emit(ev.CardMoved(seat=CIV, card=ctx.state.civ.slots[0][0], src="civ/slot/1",
                          dst="removed"))  # fmt: skip
    ctx.emit(ev.CardMoved(seat=CIV, card=card, src="removed", dst="civ/slot/1"))
    return ctx


def _of(nation: str, suit: str) -> str:
    return next(c for c in C.CARDS if C.CARDS[c].nation == nation and suit in C.CARDS[c].suits)


@pytest.mark.parametrize(("game", "recovered"), [(GAME, True), (ImperiumGame2(), False)])
def test_mauryan_civ_recovers_a_region_from_its_discard(game: object, recovered: bool) -> None:
    """Mauryens (empire), fame row: « Si possible, récupérez une [région] de la défausse et
    placez-la au-dessus du deck C.I.V.. Archivez cette carte dans l'Histoire. » (from
    ``imperium/3``; the earlier rulesets left the recovery out)."""
    fame = next(c for c in C.CARDS if "fame" in C.CARDS[c].suits)
    ctx = _ctx_with_card(fame, "mauryans", game=game, empire=True)
    region = _of("mauryans", "region")
    ctx.emit(ev.CardMoved(seat=CIV, card=region, src="removed", dst="1:discard"))
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    seat = ctx.state.seats[CIV]
    assert (seat.deck_top[-1:] == [region]) is recovered
    assert fame in seat.history


def test_qin_civ_adds_population_to_the_die_slot_card() -> None:
    """Qin (empire), region row: « Jouez cette [région]. Exilez 1 carte du Marché. Ajoutez 1
    [population] à la carte Marché dans l'emplacement correspondant au résultat du dé »."""
    region = _of("qin", "region")
    ctx = _ctx_with_card(region, "qin", empire=True)
    from domain.imperium.civ.events import CivDieRolled

    ctx.emit(CivDieRolled(face=2))
    before = ctx.state.market[1].population
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    assert ctx.state.market[1].card and ctx.state.market[1].population == before + 1


def test_olmec_cacao_lets_the_human_return_an_unrest_card() -> None:
    """Olmèques, Cacao: « Vous POUVEZ renvoyer une [instabilité] » — a human decision from
    ``imperium/3`` (« RENVOYER UNE [instabilité]: Choisissez une carte de votre main »)."""
    cacao = next(c for c in C.CARDS if C.CARDS[c].name == "Cacao")
    ctx = _ctx_with_card(cacao, "olmecs")
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    frames = [f for f in ctx.state.agenda if f.seat == 0 and "return_unrest" in f.steps]
    assert frames
    old = _ctx_with_card(cacao, "olmecs", game=ImperiumGame2())
    _resolve_slot(old, Frame(kind="civ_resolve", seat=CIV, data="1"))
    assert not [f for f in old.state.agenda if "return_unrest" in f.steps]


@pytest.mark.parametrize(("game", "bonus"), [(GAME, 1), (ImperiumGame2(), 0)])
def test_supreme_master_progress_for_a_revealed_unrest_card(game: object, bonus: int) -> None:
    """MODE MAÎTRE SUPRÊME: « à chaque fois que la C.I.V. renvoie une [instabilité], elle
    gagne aussi 1 [progrès] » — also for an unrest card revealed in a slot and sent back
    (« renvoyez la carte dans la pioche des instabilités »), from ``imperium/3``."""
    unrest = C.COMMON_UNREST[0]
    ctx = _ctx_with_card(unrest, "romans", game=game, supreme_master=True)
    before = ctx.state.seats[CIV].progress
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    assert ctx.state.unrest[-1] == unrest
    assert ctx.state.seats[CIV].progress == before + bonus


@pytest.mark.parametrize(("game", "acquired"), [(GAME, True), (ImperiumGame2(), False)])
def test_macedonian_glory_acquires_an_exiled_region(game: object, acquired: bool) -> None:
    """Macédoniens (empire), Gloire: « Si possible, abandonnez 3 [régions] pour piocher une
    [renommée]; sinon, si possible, acquérez une [région] exilée; sinon, gagnez 1 [progrès] »
    (the middle alternative from ``imperium/3``)."""
    glory = next(c for c in C.CARDS
                 if C.CARDS[c].nation == "macedonians" and C.CARDS[c].name == "Glory")  # fmt: skip
    ctx = _ctx_with_card(glory, "macedonians", game=game, empire=True)
    region = next(c for c in C.CARDS if C.CARDS[c].suits == ("region",) and not C.CARDS[c].nation)
    ctx.emit(ev.CardMoved(seat=0, card=region, src="removed", dst="exile"))
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    assert (region in ctx.state.seats[CIV].deck_top) is acquired
    assert (region in ctx.state.exile) is not acquired


def test_atlantean_myths_archive_the_region_and_attack_recalls_one() -> None:
    """Atlantes: « Si possible, archivez dans l'Histoire une [région] en jeu pour piocher une
    [renommée] » (Mythes et légendes); « Rappelez une [région] » (its attack row): the
    region it played last goes to its history, then onto its deck ("RAPPELER")."""
    myths = next(c for c in C.CARDS if C.CARDS[c].name == "Myths and Legends")
    ctx = _ctx_with_card(myths, "atlanteans", empire=True)
    regions = [c for c in C.CARDS if C.CARDS[c].suits == ("region",) and not C.CARDS[c].nation]
    for region in regions[:2]:
        ctx.emit(ev.CardMoved(seat=CIV, card=region, src="removed", dst="1:play"))
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    seat = ctx.state.seats[CIV]
    assert regions[1] in seat.history and regions[0] in seat.play
    drawn = [e for e in ctx.events if isinstance(e, ev.CardDrawn) and e.dst == "1:deck_top"]
    assert drawn and "fame" in C.CARDS[drawn[0].card].suits
    from domain.imperium.civ import ops as O

    assert O.last_region_to(ctx, "1:deck_top") and seat.deck_top[-1] == regions[0]

"""``imperium/4``: the decision-table rows the OCR left unreadable, read (``assumed``, with the
evidence in each row's ``match_assumed``/``do_assumed``) and resolved by the C.I.V. (booklet
"TABLEAUX DE RÉFÉRENCE DES NATIONS"); the Arthurian C.I.V.'s knight row brings its first
pending quest onto its deck; the C.I.V. view counts its pending quests. ``imperium/3`` resolves
the same cards through the rows it always used."""

from __future__ import annotations

import pytest

from domain.bots import GreedyBot
from domain.core import Chance
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ.events import CivCardResolved, CivDieRolled
from domain.imperium.civ.turn import _resolve_slot
from domain.imperium.civ.view import civ_view
from domain.imperium.engine import Ctx, run
from domain.imperium.game import ImperiumGame, ImperiumGame3, ImperiumGame4
from domain.imperium.state import Frame, ImperiumState
from domain.imperium.view import redact
from domain.registry import GAMES, rulesets_of

GAME = ImperiumGame4()
OLD = ImperiumGame3()


def _zone(state: ImperiumState, card: str) -> str:
    """Where ``card`` lies now (``removed`` when nowhere the C.I.V. holds it)."""
    seat, civ = state.seats[CIV], state.civ
    assert civ is not None
    for name in ("deck", "deck_top", "discard", "play", "history", "hand"):
        if card in getattr(seat, name):
            return f"{CIV}:{name}"
    for index, cards in enumerate(civ.slots):
        if card in cards:
            return f"civ/slot/{index + 1}"
    if card in civ.quests:
        return "civ/quests"
    return "removed"


def _place(ctx: Ctx, card: str, dst: str) -> None:
    """Move ``card`` from wherever it is to ``dst``."""
    ctx.emit(ev.CardMoved(seat=CIV, card=card, src=_zone(ctx.state, card), dst=dst))


def _ctx(card: str, civ: str, game: ImperiumGame = GAME, empire: bool = False,
         human: str = "greeks") -> Ctx:  # fmt: skip
    """A solo game of ``game``'s ruleset at Imperator with ``card`` alone in slot 1."""
    state = game.initial({"nations": [human], "civ_nation": civ, "difficulty": "imperator"}, 1)
    for event in game.setup(state, Chance(b"r4", 0)):
        state = game.evolve(state, event)
    ctx = Ctx(state, Chance(b"r4", 1))
    ctx.emit(ev.StateFlipped(seat=CIV, empire=empire))
    assert ctx.state.civ is not None
    ctx.emit(ev.CardMoved(seat=CIV, card=ctx.state.civ.slots[0][0], src="civ/slot/1",
                          dst="removed"))  # fmt: skip
    _place(ctx, card, "civ/slot/1")
    return ctx


def _resolve(ctx: Ctx) -> CivCardResolved:
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    return next(e for e in ctx.events if isinstance(e, CivCardResolved))


def _row(nation: str, side: str, result: CivCardResolved) -> S.Row:
    return S.table_for(nation, side).rows[result.row]


def _named(nation: str | None, name: str) -> str:
    return next(c for c in C.CARDS if C.CARDS[c].nation == nation and C.CARDS[c].name == name)


def _common(suit: str) -> str:
    return next(c for c in sorted(C.CARDS)
                if C.CARDS[c].suits == (suit,) and C.CARDS[c].nation is None
                and not C.CARDS[c].type_icons)  # fmt: skip


def test_imperium_4_and_the_earlier_rulesets_stay() -> None:
    """A rules change is a new ruleset: ``imperium/4`` and the three earlier rulesets stay
    registered after ``imperium/5`` (the default); its solo games carry revision 4."""
    assert GAMES["imperium"].ruleset_version == "imperium/5"
    assert rulesets_of("imperium") == ["imperium-classics/1", "imperium/2", "imperium/3",
                                       "imperium/4", "imperium/5"]  # fmt: skip
    assert _ctx("ART17", "arthurians").state.revision == 4


def test_every_read_row_is_new_in_imperium_4_and_listed_with_its_evidence() -> None:
    """The 38 rows the OCR left unreadable are rows of ``imperium/4`` only (``since`` 4): an
    earlier revision numbers and resolves its rows as before; each is listed by the content
    report with its reading."""
    lines = "\n".join(S.assumptions())
    read = [(t.nation, t.side, r) for t in S.TABLES.values() for r in t.rows if r.since == 4]
    assert len(read) == 38
    for nation, side, row in read:
        table = S.table_for(nation, side)
        assert row not in table.rows_for(3) and row.assumed
        assert f"table {nation}/{side} row {row.index} ({row.match}): Left out" in lines
    for table in S.TABLES.values():
        assert [r.index for r in table.rows_for(3)] == list(range(len(table.rows_for(3))))


def test_arthurian_knight_row_recovers_the_first_pending_quest() -> None:
    """Arthuriens: « Archivez si possible un [chevalier] de la défausse dans l'Histoire pour
    récupérer la première quête en attente; […] Récupérez une [instabilité]. » — a knight
    (Peredur) resolved with another knight (Cai) in its discard: Cai to its history, its top
    pending quest onto its deck, an unrest card into its discard. ``imperium/3`` resolves the
    knight through Autre and leaves the quests pending."""
    ctx = _ctx("ART17", "arthurians")
    _place(ctx, "ART18", f"{CIV}:discard")
    civ = ctx.state.civ
    assert civ is not None and len(civ.quests) == 5
    top = civ.quests[-1]
    result = _resolve(ctx)
    assert _row("arthurians", "barbarian", result).match == "type:knight"
    seat = ctx.state.seats[CIV]
    assert "ART18" in seat.history and seat.deck_top[-1:] == [top] and top not in civ.quests
    assert len(civ.quests) == 4 and "ART17" in seat.discard
    assert any("unrest" in C.CARDS[c].suits for c in seat.discard)
    old = _ctx("ART17", "arthurians", game=OLD)
    _place(old, "ART18", f"{CIV}:discard")
    assert S.table_for("arthurians", "barbarian").rows_for(3)[_resolve(old).row].match == "other"
    assert old.state.civ is not None and len(old.state.civ.quests) == 5


def test_arthurian_knight_row_without_a_knight_in_its_discard() -> None:
    """Arthuriens, the knight row's « sinon, archivez cette carte dans l'Histoire et placez la
    première carte de la pioche Dynastie dans la défausse »: no knight in its discard."""
    ctx = _ctx("ART17", "arthurians")
    dynasty = len(ctx.state.seats[CIV].nation_deck)
    _resolve(ctx)
    seat = ctx.state.seats[CIV]
    assert "ART17" in seat.history and len(seat.nation_deck) == dynasty - 1
    assert ctx.state.civ is not None and len(ctx.state.civ.quests) == 5


def test_arthurian_twrch_trwyth_exiles_itself_without_a_knight() -> None:
    """Arthuriens, Twrch Trwyth: « Archivez si possible un [chevalier] de la défausse dans
    l'Histoire; sinon, exilez cette carte. » (from ``imperium/4``; before, the card went to
    the discard)."""
    ctx = _ctx("ART5", "arthurians")
    _resolve(ctx)
    assert "ART5" in ctx.state.exile
    knight = _ctx("ART5", "arthurians")
    _place(knight, "ART19", f"{CIV}:discard")
    _resolve(knight)
    assert "ART19" in knight.state.seats[CIV].history
    assert "ART5" in knight.state.seats[CIV].discard


def test_arthurian_glory_row_draws_fame_for_a_knight() -> None:
    """Arthuriens, the Glory row (read): « Archivez si possible un [chevalier] de la défausse
    dans l'Histoire pour piocher une [renommée] »."""
    glory = _named("romans", "Glory")
    ctx = _ctx(glory, "arthurians")
    _place(ctx, "ART23", f"{CIV}:discard")
    result = _resolve(ctx)
    assert _row("arthurians", "barbarian", result).match == "name:Glory"
    seat = ctx.state.seats[CIV]
    assert "ART23" in seat.history
    assert any("fame" in C.CARDS[c].suits for c in seat.deck_top)


def _arthurian_game(game: ImperiumGame) -> tuple[ImperiumState, list[str], ImperiumState]:
    """Seed 3 at Imperator, greedy Roman human against the Arthurian C.I.V.: the state, the
    quests moved out of its pending pile, the refolded state."""
    options = {"nations": ["romans"], "civ_nation": "arthurians", "difficulty": "imperator"}
    state = game.initial(options, 1)
    for event in game.setup(state, Chance(b"q4-3", 0)):
        state = game.evolve(state, event)
    start = game.copy_state(state)
    bot = GreedyBot(b"q3")
    events, moved, count = [], [], 0
    while not game.is_over(state) and count < 4000:
        for event in game.decide(state, 0, bot.choose(game, state, 0),
                                 Chance(b"q4-3", count + 1)):  # fmt: skip
            state = game.evolve(state, event)
            events.append(event)
            if isinstance(event, ev.CardMoved) and event.src == "civ/quests":
                moved.append(event.card)
        count += 1
    for event in events:
        start = game.evolve(start, event)
    return state, moved, start


def test_arthurian_civ_game_brings_its_quests_onto_its_deck() -> None:
    """A seeded ``imperium/4`` game: the Arthurian C.I.V.'s knight rows bring every pending
    quest onto its deck, the Graal last (it is the bottom of the pile), and they count for its
    score; the same seed under ``imperium/3`` leaves all five pending."""
    state, moved, refold = _arthurian_game(GAME)
    assert GAME.encode_state(refold) == GAME.encode_state(state)
    assert moved == ["ART7", "ART6", "ART4", "ART5", "ART3"]
    assert state.civ is not None and not state.civ.quests and state.civ.score is not None
    seat = state.seats[CIV]
    held = [*seat.deck, *seat.deck_top, *seat.discard, *seat.play, *seat.history, *seat.hand]
    assert "ART3" in held
    old, old_moved, _ = _arthurian_game(OLD)
    assert old.civ is not None and len(old.civ.quests) == 5 and old_moved == []


def test_civ_view_counts_pending_quests_and_hides_them() -> None:
    """``ImperiumCivView.quests_pending``: the size of the Arthurian C.I.V.'s pending quests
    is public; the quests themselves lie face down: a quest brought onto its deck moves
    without its card for the human and for a spectator (its identity is seen once it is
    resolved from a slot); 0 for the other nations."""
    ctx = _ctx("ART17", "arthurians")
    _place(ctx, "ART18", f"{CIV}:discard")
    view = civ_view(ctx.state)
    assert view is not None and view.quests_pending == 5
    before = len(ctx.events)
    _resolve(ctx)
    view = civ_view(ctx.state)
    assert view is not None and view.quests_pending == 4
    moves = [e for e in ctx.events[before:]
             if isinstance(e, ev.CardMoved) and e.src == "civ/quests"]  # fmt: skip
    assert len(moves) == 1 and moves[0].card
    for viewer in (0, None):
        assert redact(ctx.state, moves[0], viewer).card == ""  # type: ignore[attr-defined]
    other = civ_view(_ctx(_common("region"), "romans").state)
    assert other is not None and other.quests_pending == 0


def test_utopian_scroll_row() -> None:
    """Utopiens, the scroll row (icon '&'): « S'il n'y a aucun [parchemin] dans la défausse,
    acquérez si possible [civilisé] ou [tradition] et archivez cette carte; sinon, récupérez
    un [parchemin] de la défausse […] pour gagner 1 [progrès] et 1 [population] »."""
    ctx = _ctx("UTO12", "utopians")
    _place(ctx, "UTO13", f"{CIV}:discard")
    seat = ctx.state.seats[CIV]
    progress, population = seat.progress, seat.population
    result = _resolve(ctx)
    assert _row("utopians", "barbarian", result).match == "type:scroll"
    assert seat.deck_top[-1:] == ["UTO13"]
    assert (seat.progress, seat.population) == (progress + 1, population + 1)
    none = _ctx("UTO12", "utopians")
    _resolve(none)
    assert "UTO12" in none.state.seats[CIV].history


def test_utopian_meditation_and_charity() -> None:
    """Utopiens, Méditation: « Si possible, récupérez un [parchemin] de la défausse et
    placez-le au-dessus du deck C.I.V. » (from ``imperium/4``); Charité: « Vous gagnez 2
    [matériaux] » (the human's own Charity gives every other player 2 materials)."""
    ctx = _ctx(_named("utopians", "Meditation"), "utopians")
    _place(ctx, "UTO14", f"{CIV}:discard")
    _resolve(ctx)
    assert "UTO14" in ctx.state.seats[CIV].deck_top
    charity = _ctx(_named("utopians", "Charity"), "utopians")
    _resolve(charity)
    frames = [f for f in charity.state.agenda if f.seat == 0 and "materials" in f.steps]
    assert len(frames) == 1 and "2" in frames[0].steps


def test_minoan_empire_civilised_row() -> None:
    """Minoens (empire): the row printed between Glory and region (read civilised): « Placez
    la première carte du deck C.I.V. dans la défausse. Archivez cette carte dans
    l'Histoire. »; ``imperium/3`` resolved it through Autre."""
    card = _common("civilised")
    ctx = _ctx(card, "minoans", empire=True)
    assert _row("minoans", "empire", _resolve(ctx)).match == "suit:civilised"
    assert card in ctx.state.seats[CIV].history


def test_celtic_barbarian_prosperity_row() -> None:
    """Celtes (barbare), icon cell 'o2ell o' (read Prosperity): « Placez les 4 premières cartes
    du deck C.I.V. dans la défausse. Archivez cette carte dans l'Histoire. »"""
    card = _named("romans", "Prosperity")
    ctx = _ctx(card, "celts")
    seat = ctx.state.seats[CIV]
    discard, deck = len(seat.discard), len(seat.deck) + len(seat.deck_top)
    assert _row("celts", "barbarian", _resolve(ctx)).match == "name:Prosperity"
    assert len(seat.discard) == discard + min(4, deck)
    assert card in ctx.state.seats[CIV].history


def test_egyptian_empire_first_row() -> None:
    """Égyptiens (empire), the first row (icon cell empty, read Prosperity): « Placez la
    première carte du deck C.I.V. dans la défausse. Si possible, renvoyez une
    [instabilité]… Archivez cette carte dans l'Histoire. »"""
    card = _named("romans", "Prosperity")
    ctx = _ctx(card, "egyptians", empire=True)
    result = _resolve(ctx)
    assert result.row == 0 and card in ctx.state.seats[CIV].history


def test_mauryan_barbarian_tributary_row() -> None:
    """Maurya (barbare), icon cell 'Mae e s' (read tributary): « Gagnez 1 [progrès]. »"""
    card = _common("tributary")
    ctx = _ctx(card, "mauryans")
    progress = ctx.state.seats[CIV].progress
    assert _row("mauryans", "barbarian", _resolve(ctx)).match == "suit:tributary"
    assert ctx.state.seats[CIV].progress == progress + 1


def test_olmec_mask_rows() -> None:
    """Olmèques (empire): the mask row (read) recovers a [masque] of the discard onto its
    deck; Sacrifice rituel « archivez un [masque] de la défausse dans l'Histoire pour piocher
    une [renommée] » (from ``imperium/4``)."""
    ctx = _ctx("OLM18", "olmecs", empire=True)
    _place(ctx, "OLM19", f"{CIV}:discard")
    assert _row("olmecs", "empire", _resolve(ctx)).match == "type:mask"
    seat = ctx.state.seats[CIV]
    assert "OLM19" in seat.deck_top and "OLM18" in seat.history
    ritual = _ctx("OLM4", "olmecs", empire=True)
    _place(ritual, "OLM20", f"{CIV}:discard")
    _resolve(ritual)
    seat = ritual.state.seats[CIV]
    assert "OLM20" in seat.history
    assert any("fame" in C.CARDS[c].suits for c in seat.deck_top)


def test_persian_empire_attack_row() -> None:
    """Perses (empire), icon cell 'emoN' (read attack): « Innovez en [vassal]. Vous gagnez 2
    [matériaux]. Vous récupérez une [instabilité]. » — for a card with the attack keyword and
    no category (Morigena); the human's part is theirs to resolve (taking an unrest card is
    not among the C.I.V.'s attacks of "MODIFICATIONS DES EFFETS DE CARTES")."""
    ctx = _ctx("ART16", "persians", empire=True)
    assert _row("persians", "empire", _resolve(ctx)).match == "icon:attack"
    frames = [f for f in ctx.state.agenda if f.seat == 0 and f.kind == "steps"]
    assert frames and '"pile":"unrest"' in frames[-1].steps and '"materials":2' in frames[-1].steps


def test_qin_barbarian_tradition_row_acquires_a_card_with_progress() -> None:
    """Qin (barbare), icon cell 'lE'?' (tradition): « Acquérez une carte avec au moins 1
    [progrès] dessus. Archivez cette carte dans l'Histoire. »: the market card carrying
    progress, not a better one without."""
    card = _common("uncivilised")
    ctx = _ctx(card, "qin")
    index = next(i for i, s in enumerate(ctx.state.market) if s.card and not s.progress)
    for i, slot in enumerate(ctx.state.market):
        if slot.progress:
            ctx.emit(ev.SlotTokensChanged(slot=i, progress=-slot.progress))
    ctx.emit(ev.SlotTokensChanged(slot=index, progress=1))
    target = ctx.state.market[index].card
    assert _row("qin", "barbarian", _resolve(ctx)).match == "suit:uncivilised"
    assert target in ctx.state.seats[CIV].deck_top and card in ctx.state.seats[CIV].history


def test_roman_barbarian_attack_and_advance_rows() -> None:
    """Romains (barbare): the first row (icon 'a', read attack) « Rappelez une [région].
    Récupérez une [instabilité]. »; the 'B' row (read Advance, as the Scythian Progrès row)
    « Si possible, dépensez 5 [matériaux] pour innover en [civilisé] … »."""
    ctx = _ctx("ART16", "romans", human="greeks")
    region = _common("region")
    _place(ctx, region, f"{CIV}:play")
    assert _resolve(ctx).row == 0
    seat = ctx.state.seats[CIV]
    assert seat.deck_top[-1:] == [region]
    assert any("unrest" in C.CARDS[c].suits for c in seat.discard)
    advance = _ctx(_named("greeks", "Advance"), "romans")
    assert _row("romans", "barbarian", _resolve(advance)).match == "name:Advance"


def test_atlantean_civilised_row() -> None:
    """Atlantes, icon '&' (read civilised, as in the Olmec table): « Gagnez 1 [progrès].
    Archivez cette carte dans l'Histoire. »"""
    card = _common("civilised")
    ctx = _ctx(card, "atlanteans", empire=True)
    progress = ctx.state.seats[CIV].progress
    assert _row("atlanteans", "empire", _resolve(ctx)).match == "suit:civilised"
    assert ctx.state.seats[CIV].progress == progress + 1


def test_viking_tradition_row_puts_a_region_of_its_discard_in_play() -> None:
    """Vikings, tradition row: « Si possible, mettez en jeu une [région] de la défausse » (from
    ``imperium/4``; the region discarded last)."""
    ctx = _ctx(_common("uncivilised"), "vikings")
    region = _common("region")
    _place(ctx, region, f"{CIV}:discard")
    _resolve(ctx)
    played = [c for c in ctx.state.seats[CIV].play if "region" in C.CARDS[c].suits]
    assert len(played) == 1 and region in (*played, *ctx.state.seats[CIV].discard)


def test_scythian_barbarian_prosperity_row() -> None:
    """Scythes (barbare), the row between tradition and tributary (read Prosperity): « Si
    possible, renvoyez une [instabilité] de la défausse; sinon, innovez en [région] et
    archivez cette carte dans l'Histoire. »"""
    card = _named("romans", "Prosperity")
    ctx = _ctx(card, "scythians")
    assert _row("scythians", "barbarian", _resolve(ctx)).match == "name:Prosperity"
    assert card in ctx.state.seats[CIV].history


def test_greek_autre_middle_alternative() -> None:
    """Grecs (barbare), Autre: « sinon, si possible, dépensez 2 [matériaux] pour innover en
    [civilisé] » (the middle alternative, from ``imperium/4``)."""
    card = _common("tributary")
    ctx = _ctx(card, "greeks", human="romans")
    ctx.emit(ev.TokensChanged(seat=CIV, materials=2))
    assert _row("greeks", "barbarian", _resolve(ctx)).match == "other"
    seat = ctx.state.seats[CIV]
    assert seat.materials == 0 and any("civilised" in C.CARDS[c].suits for c in seat.deck_top)
    old = _ctx(card, "greeks", game=OLD, human="romans")
    old.emit(ev.TokensChanged(seat=CIV, materials=2))
    _resolve(old)
    assert old.state.seats[CIV].materials == 2


@pytest.mark.parametrize("nation", ["arthurians", "utopians"])
def test_imperium_4_solo_games_against_the_legends_civs(nation: str) -> None:
    """Two seeded ``imperium/4`` games against each C.I.V. with the most rows read (a die is
    rolled, the game ends, refold identical)."""
    for seed in range(2):
        options = {"nations": ["greeks"], "civ_nation": nation, "difficulty": "chieftain"}
        state = GAME.initial(options, 1)
        for event in GAME.setup(state, Chance(b"l4-%d" % seed, 0)):
            state = GAME.evolve(state, event)
        bot, count, dice = GreedyBot(b"l%d" % seed), 0, 0
        while not GAME.is_over(state) and count < 4000:
            for event in GAME.decide(state, 0, bot.choose(GAME, state, 0),
                                     Chance(b"l4-%d" % seed, count + 1)):  # fmt: skip
                state = GAME.evolve(state, event)
                dice += isinstance(event, CivDieRolled)
            count += 1
        assert GAME.is_over(state) and dice > 0


def test_roman_glory_and_greek_attack_make_you_recall_a_region() -> None:
    """Romains (barbare), Gloire: « sinon, gagnez 1 [progrès], et vous rappelez une [région] »;
    Grecs (empire), attack row: « Vous rappelez une carte [région] » (from ``imperium/4``: the
    C.I.V. only ever makes you recall regions, "MODIFICATIONS DES EFFETS DE CARTES"): an
    attack frame for the human, who may defend; none under ``imperium/3``."""
    for game, expected in ((GAME, True), (OLD, False)):
        roman = _ctx(_named("greeks", "Glory"), "romans", game=game)
        _resolve(roman)
        greek = _ctx("ART16", "greeks", game=game, empire=True, human="romans")
        _resolve(greek)
        for ctx in (roman, greek):
            frames = [f for f in ctx.state.agenda if f.kind == "civ_attack" and "recall" in f.steps]
            assert bool(frames) is expected


def test_scythian_rows_gain_their_last_alternative_token() -> None:
    """Scythes (barbare), Conquête and Progrès: « sinon, gagnez 1 [progrès] » (the 'X' read as
    the Roman rows' 'gagnez 1 A'); Scythes (empire), Autre: « sinon, gagnez 1 [population], et,
    si possible, acquérez [civilisé] » (from ``imperium/4``; nothing before)."""
    for game, gained in ((GAME, 1), (OLD, 0)):
        ctx = _ctx(_named("romans", "Advance"), "scythians", game=game)
        for index, slot in enumerate(ctx.state.market):
            if slot.card and "uncivilised" in C.CARDS[slot.card].suits:
                ctx.emit(ev.CardMoved(seat=0, card=slot.card, src=f"market/{index}",
                                      dst="removed"))  # fmt: skip
        progress = ctx.state.seats[CIV].progress
        assert _row("scythians", "barbarian", _resolve(ctx)).match == "name:Advance"
        assert ctx.state.seats[CIV].progress == progress + gained


def _attack_frames(ctx: Ctx) -> list[Frame]:
    """The C.I.V.'s attack frames waiting for the human."""
    return [f for f in ctx.state.agenda if f.kind == "civ_attack"]


def _to_human_play(ctx: Ctx, card: str) -> None:
    """Put ``card`` into the human's play area."""
    ctx.emit(ev.CardMoved(seat=0, card=card, src="removed", dst="0:play"))


def test_greek_attack_row_gives_you_a_population() -> None:
    """Grecs (barbare), attack row: « Volez 2 [matériaux]. Vous gagnez 1 [population]. » (the
    '5' read population from ``imperium/4``, as the Greeks' Greek Mercenaries: steal 2
    materials, each other player gains 1 population): one attack frame, the theft and the
    human's gain together (a defence ignores both); ``imperium/3`` steals only."""
    for game, gains in ((GAME, True), (OLD, False)):
        ctx = _ctx("ART16", "greeks", game=game, human="romans")
        assert _row("greeks", "barbarian", _resolve(ctx)).match == "icon:attack"
        frames = _attack_frames(ctx)
        assert len(frames) == 1 and '"materials"' in frames[0].data
        assert ('"population":1' in frames[0].steps) is gains
        human = ctx.state.seats[0]
        before = (human.materials, human.population)
        run(ctx)  # no defence: the theft, then the gain
        human = ctx.state.seats[0]
        assert (human.materials, human.population) == (before[0] - 2, before[1] + gains)


def test_scythian_attack_row_takes_a_population_from_an_empire() -> None:
    """Scythes (barbare), attack row: « Vous rappelez une [civilisé]. Si vous êtes en [Empire],
    donnez 1 [population] à la C.I.V. » (read from ``imperium/4`` as the Scythians' Raiders:
    steal 1 population from the players whose state is empire): the human in empire gives 1
    population in the same attack as the recall; a barbarian human gives nothing; nothing
    under ``imperium/3``."""
    for game, empire, steals in ((GAME, True, True), (GAME, False, False), (OLD, True, False)):
        ctx = _ctx("ART16", "scythians", game=game, human="romans")
        ctx.emit(ev.StateFlipped(seat=0, empire=empire))
        assert _row("scythians", "barbarian", _resolve(ctx)).match == "icon:attack"
        frames = _attack_frames(ctx)
        assert len(frames) == 1 and "recall" in frames[0].steps
        assert (frames[0].data == '["population", "1"]') is steals
        population = ctx.state.seats[0].population
        run(ctx)
        assert ctx.state.seats[0].population == population - steals


@pytest.mark.parametrize(("side", "suit"), [("barbarian", "tributary"), ("empire", "region")])
def test_qin_attack_row_tests_your_play_area(side: str, suit: str) -> None:
    """Qin, attack rows: « Si vous avez au moins une [vassal] (barbare) / [région] (empire) en
    jeu, vous rappelez une [région] et si possible la C.I.V. abandonne une [région] » (from
    ``imperium/4``; the abandoned card read region, the only card the C.I.V. has in play): with
    such a card in the human's play area the C.I.V. abandons its region in play and the human's
    attack frame recalls under that condition; without, the region stays."""
    for has in (True, False):
        ctx = _ctx("ART16", "qin", empire=side == "empire", human="romans")
        region = _common("region")
        _place(ctx, region, f"{CIV}:play")
        if has:
            _to_human_play(ctx, _common(suit) if suit == "tributary" else "1REG2")
        assert _row("qin", side, _resolve(ctx)).match == "icon:attack"
        assert (region in ctx.state.seats[CIV].play) is not has
        frames = _attack_frames(ctx)
        assert len(frames) == 1 and '"op":"if"' in frames[0].steps and "recall" in frames[0].steps
        if suit == "region":  # the human's region in play is recalled only under the condition
            run(ctx)
            assert ("1REG2" in ctx.state.seats[0].hand) is has
    old = _ctx("ART16", "qin", game=OLD, empire=side == "empire", human="romans")
    _place(old, _common("region"), f"{CIV}:play")
    _to_human_play(old, _common(suit) if suit == "tributary" else "1REG2")
    _resolve(old)
    assert _common("region") in old.state.seats[CIV].play and not _attack_frames(old)


def test_macedonian_civilised_row_acquires_a_tradition() -> None:
    """Macédoniens (barbare), civilised row: « sinon, si possible, dépensez 3 [matériaux] pour
    acquérir [civilisé] ou [tradition] » (the second category read tradition from
    ``imperium/4``, as the Persian civilised row): no civilised card in the market, 3
    materials: a tradition card onto its deck; ``imperium/3`` innovates instead."""
    card = _common("civilised")
    for game, acquires in ((GAME, True), (OLD, False)):
        ctx = _ctx(card, "macedonians", game=game, human="romans")
        for index, slot in enumerate(ctx.state.market):
            if slot.card and "civilised" in C.CARDS[slot.card].suits:
                ctx.emit(ev.CardMoved(seat=0, card=slot.card, src=f"market/{index}",
                                      dst="removed"))  # fmt: skip
        seat = ctx.state.seats[CIV]
        ctx.emit(ev.TokensChanged(seat=CIV, materials=3 - seat.materials,
                                  population=-seat.population))  # fmt: skip
        assert _row("macedonians", "barbarian", _resolve(ctx)).match == "suit:civilised"
        seat = ctx.state.seats[CIV]
        assert (seat.materials == 0 and card in seat.history) is acquires
        assert any("uncivilised" in C.CARDS[c].suits for c in seat.deck_top) is acquires


def test_viking_autre_archives_the_top_card_of_its_deck() -> None:
    """Vikings, Autre: « sinon, archivez la première carte de la pioche dans l'Histoire » (« la
    pioche » read as the C.I.V. deck from ``imperium/4``): no unrest card in its discard, no
    exiled region, no region in play: its top card into its history; nothing under
    ``imperium/3``."""
    card = _named("romans", "Prosperity")
    for game, archives in ((GAME, True), (OLD, False)):
        ctx = _ctx(card, "vikings", game=game, human="romans")
        seat = ctx.state.seats[CIV]
        assert not seat.play and not ctx.state.exile
        history = list(seat.history)
        last = "sinon, archivez la première carte de la pioche dans l'Histoire."
        assert _resolve(ctx).text.endswith(last)
        added = [c for c in ctx.state.seats[CIV].history if c not in history]
        assert (len(added) == 1 and added[0] != card) is archives


def test_guards_on_the_human_are_checked_at_load() -> None:
    """The guards on the human (``you_have:SELECTOR:N``, ``you_state:SIDE``) and
    ``archive_top:N`` parse; a bad selector, count or side is refused."""
    assert S.parse_alternatives("you_have:tributary:1 + abandon:1 | archive_top:1")[0][0] == (
        S.CivStep(kind="you_have", args=("tributary", "1"))
    )
    assert S.parse_alternatives("you_state:empire + steal:population:1")[0][0].kind == "you_state"
    for bad in ("you_have:gold:1", "you_have:region:x", "you_state:kingdom", "archive_top:x"):
        with pytest.raises(S.SoloError):
            S.parse_alternatives(bad)

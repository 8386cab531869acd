"""``imperium/5``, solo games: the C.I.V. follows the keyword rules of the booklet where the
earlier rulesets did not ("MODIFICATIONS DES MOTS-CLEFS", "INNOVER EN", "ROI DES ROIS", the
Minoan empire table). Each change is checked under ``imperium/5`` and the old behaviour under
``imperium/4`` (whose records re-execute unchanged). Line numbers: the French rulebook
(``/work/shared/rules/imperium-rulebook-fr.txt``)."""

from __future__ import annotations

import pytest

from domain.core import Chance
from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import content_effects as E
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ import ops as O
from domain.imperium.civ import turn as T
from domain.imperium.civ.content import CivStep
from domain.imperium.civ.events import CivCardResolved
from domain.imperium.civ.turn import _resolve_slot
from domain.imperium.engine import Ctx, run, steps_frame
from domain.imperium.game import ImperiumGame, ImperiumGame4, ImperiumGame5
from domain.imperium.state import Frame, ImperiumState
from tests.imperium.test_solo import LEVELS, PAIRS, _check_game

NEW = ImperiumGame5()
OLD = ImperiumGame4()
_SEAT_ZONES = ("hand", "deck", "deck_top", "discard", "play", "history")


def _solo(game: ImperiumGame, civ: str = "greeks", human: str = "romans") -> Ctx:
    """A solo game of ``game``'s ruleset at Imperator, after its setup."""
    state = game.initial({"nations": [human], "civ_nation": civ, "difficulty": "imperator"}, 1)
    for event in game.setup(state, Chance(b"r5", 0)):
        state = game.evolve(state, event)
    assert state.revision == game.revision
    return Ctx(state, Chance(b"r5", 1))


def _where(state: ImperiumState, card: str) -> str:
    """The zone holding ``card`` ("" when none of those searched)."""
    for index, seat in enumerate(state.seats):
        for name in _SEAT_ZONES:
            if card in getattr(seat, name):
                return f"{index}:{name}"
    assert state.civ is not None
    for index, cards in enumerate(state.civ.slots):
        if card in cards:
            return f"civ/slot/{index + 1}"
    for index, slot in enumerate(state.market):
        if slot.card == card:
            return f"market/{index}"
        if card in slot.unrest:
            return f"market/{index}/unrest"
    for pile, cards in state.piles.items():
        if card in cards:
            return f"pile/{pile}"
    for name in ("unrest", "fame_top", "exile", "removed"):
        if card in getattr(state, name):
            return name
    return ""


def _move(ctx: Ctx, card: str, dst: str, seat: int = CIV) -> None:
    ctx.emit(ev.CardMoved(seat=seat, card=card, src=_where(ctx.state, card), dst=dst))


def _regions(state: ImperiumState, count: int) -> list[str]:
    """``count`` plain region cards of the main deck."""
    found = [c for c in state.piles["main"] if C.CARDS[c].suits == ("region",)]
    return found[:count]


def _clear_suit(ctx: Ctx, suit: str) -> None:
    """Take every ``suit`` card out of the market (the slots stay empty)."""
    for index, slot in enumerate(ctx.state.market):
        if slot.card and suit in K.suits(slot.card):
            ctx.emit(ev.CardMoved(seat=-1, card=slot.card, src=f"market/{index}", dst="removed"))


def _human_step(ctx: Ctx, card: str, kind: type) -> None:
    """Play the « each other player » step of the human's ``card`` holding a ``kind`` step,
    and run the engine until the human decides again."""
    step = next(s for b in K.card(card).effects for s in b.do
                if isinstance(s, E.Each) and isinstance(s.do[0], kind))  # fmt: skip
    ctx.push(steps_frame(0, card, (step,)))
    run(ctx)


# -- 1. innovation: unrest cards (Innover l.972-977, l.988-1008) --------------------------------
def _innovate_tucked(game: ImperiumGame) -> tuple[list[str], list[str]]:
    ctx = _solo(game)
    card = O.best_market_card(ctx.state, ("civilised",))
    index = next(i for i, s in enumerate(ctx.state.market) if s.card == card)
    if not ctx.state.market[index].unrest:
        _move(ctx, ctx.state.unrest[-1], f"market/{index}/unrest", seat=-1)
    tucked = ctx.state.market[index].unrest[0]
    assert O.civ_innovate(ctx, "civilised")
    back = [e.dst for e in ctx.events if isinstance(e, ev.CardMoved) and e.card == tucked]
    return ctx.state.seats[CIV].deck_top, [card, tucked, *back]


def test_innovating_a_market_card_sends_its_tucked_unrest_back_to_the_pile() -> None:
    """Innover, option 1 (l.972-977): « S'il y a une carte glissée dessous, remettez-la dans
    la pile Instabilités »; the C.I.V. puts the card on its deck (l.2094-2097). (The pile's
    top card is then tucked under the card refilling the slot.) ``imperium/4`` gave it the
    tucked card too."""
    top, (card, tucked, *moves) = _innovate_tucked(NEW)
    assert top == [card] and moves[0] == "unrest"
    top, (card, tucked, *moves) = _innovate_tucked(OLD)
    assert top == [card, tucked] and moves[0] == f"{CIV}:hand"


def _innovate_from_pile(game: ImperiumGame) -> tuple[str, int, list[str]]:
    ctx = _solo(game)
    _clear_suit(ctx, "uncivilised")
    unrest = len(ctx.state.unrest)
    assert O.civ_innovate(ctx, "uncivilised")
    drawn = [e for e in ctx.events if isinstance(e, ev.CardDrawn)]
    assert [e.src for e in drawn] == ["pile/uncivilised"]
    return drawn[0].dst, unrest - len(ctx.state.unrest), ctx.state.seats[CIV].deck_top


def test_a_card_drawn_by_innovating_comes_without_an_unrest_card() -> None:
    """Innover, options 2-5 (l.988-1008): a card drawn from its deck comes alone; solo
    l.2100-2101: « elle pioche la première carte du paquet approprié ». ``imperium/4`` took
    the top unrest card of the pile with it."""
    dst, taken, top = _innovate_from_pile(NEW)
    assert (dst, taken, len(top)) == (f"{CIV}:deck_top", 0, 1)
    dst, taken, top = _innovate_from_pile(OLD)
    assert (dst, taken, len(top)) == (f"{CIV}:deck_top", 1, 2)
    assert "unrest" in K.suits(top[-1])


# -- 2. innovation: nothing found, the main deck emptied (l.1000-1008, l.2102-2103, l.2144) --
def _innovate_none(game: ImperiumGame) -> tuple[bool, int]:
    ctx = _solo(game)
    _clear_suit(ctx, "tributary")
    for card in [c for c in ctx.state.piles["main"] if "tributary" in K.suits(c)]:
        _move(ctx, card, "removed", seat=-1)
    progress = ctx.state.seats[CIV].progress
    done = O.civ_innovate(ctx, "tributary")
    return done, ctx.state.seats[CIV].progress - progress


def test_innovating_with_no_card_of_the_category_left_gains_2_progress() -> None:
    """Innover, option 5 (l.1000-1008): « Si vous ne trouvez pas de carte de la catégorie
    recherchée, gagnez 2 [progrès] »; solo l.2102-2103: « révélez normalement des cartes de la
    pioche Principale ». ``imperium/4`` gained nothing."""
    assert _innovate_none(NEW) == (True, 2)
    assert _innovate_none(OLD) == (False, 0)


def _innovate_last_main(game: ImperiumGame) -> tuple[str, str]:
    ctx = _solo(game)
    _clear_suit(ctx, "tributary")
    main = ctx.state.piles["main"]
    last = next(c for c in main if "tributary" in K.suits(c))
    for card in [c for c in main if c != last]:
        _move(ctx, card, "removed", seat=-1)
    O.civ_innovate(ctx, "tributary")
    assert not ctx.state.piles["main"]
    return _where(ctx.state, last), ctx.state.end_trigger


def test_the_civ_emptying_the_main_deck_by_innovating_triggers_the_final_scoring() -> None:
    """FIN DE PARTIE (solo) 2, l.2144: « La pioche Principale est épuisée » triggers a
    Décompte, when the C.I.V. reveals its last card as when the human does."""
    assert _innovate_last_main(NEW) == (f"{CIV}:deck_top", "main_deck_empty")
    assert _innovate_last_main(OLD) == (f"{CIV}:deck_top", "")


# -- 3. the human's attacks: abandon / recall the last played (l.2089-2092, l.2113-2116) -----
def _attacked(game: ImperiumGame, card: str, kind: type) -> tuple[str, str]:
    ctx = _solo(game)
    first, last = _regions(ctx.state, 2)
    _move(ctx, first, f"{CIV}:play")
    _move(ctx, last, f"{CIV}:play")
    _human_step(ctx, card, kind)
    return _where(ctx.state, first), _where(ctx.state, last)


def test_the_civ_abandons_the_region_it_played_last() -> None:
    """ABANDONNER (l.2089-2092): « Si elle a plusieurs [régions] en jeu, elle abandonne la
    dernière qui a été jouée » — the human's Roman Invasion (ROM4, « chaque autre joueur
    abandonne une [région] »). ``imperium/4`` took the first option (the first played)."""
    assert _attacked(NEW, "ROM4", E.Abandon) == (f"{CIV}:play", f"{CIV}:discard")
    assert _attacked(OLD, "ROM4", E.Abandon) == (f"{CIV}:discard", f"{CIV}:play")


def test_the_civ_recalls_the_region_it_played_last_onto_its_deck() -> None:
    """RAPPELER (l.2113-2116): « placez une de ses cartes [région] en jeu au-dessus de son
    deck … elle rappelle la dernière qui a été jouée » — the human's Raiders (SCY13).
    ``imperium/4`` recalled the first played into its hand (then its discard at cleanup)."""
    assert _attacked(NEW, "SCY13", E.Recall) == (f"{CIV}:play", f"{CIV}:deck_top")
    assert _attacked(OLD, "SCY13", E.Recall) == (f"{CIV}:hand", f"{CIV}:play")


def test_the_civ_recalls_as_many_regions_as_asked_last_played_first() -> None:
    """Two recalls in a row: the last played goes on its deck first, then the one before it
    (which ends on top)."""
    ctx = _solo(NEW)
    first, middle, last = _regions(ctx.state, 3)
    for card in (first, middle, last):
        _move(ctx, card, f"{CIV}:play")
    recall = E.Recall(count=2, filter=E.Filter(suit="region"))
    ctx.push(steps_frame(0, "SCY13", (E.Each(each="other_player", do=(recall,)),)))
    run(ctx)
    seat = ctx.state.seats[CIV]
    assert seat.play == [first] and seat.deck_top[-2:] == [last, middle]


# -- 4. King of Kings once (l.1357, l.2129-2134) ----------------------------------------------
def _kok(game: ImperiumGame) -> tuple[int, int]:
    ctx = _solo(game)
    for card in [*ctx.state.fame_top, *ctx.state.piles.get("fame", [])]:
        _move(ctx, card, "removed", seat=-1)
    for _ in range(3):
        O.draw_fame(ctx)
    resolved = sum(isinstance(e, ev.KingOfKingsResolved) for e in ctx.events)
    assert ctx.state.kok_face == "B" and ctx.state.end_trigger == "king_of_kings"
    return ctx.state.seats[CIV].progress, resolved


def test_the_civ_resolves_king_of_kings_only_once() -> None:
    """Roi des rois (l.1357): « Chaque joueur ne peut résoudre qu'une fois Roi des rois »;
    solo (l.2129-2134): a barbarian C.I.V. gains 6 progress instead. Three fame draws with the
    fame deck empty: 6 progress under ``imperium/5``, 18 under ``imperium/4``."""
    assert _kok(NEW) == (6, 1)
    assert _kok(OLD) == (18, 0)


def test_glory_row_falls_to_its_sinon_once_king_of_kings_is_resolved() -> None:
    """« Si possible, abandonnez 3 [régions] pour piocher une [renommée]; sinon, innovez »: with
    no fame card left and King of Kings already resolved by the C.I.V. (``imperium/5``), the
    abandon would bring nothing, so the guard fails and the row's « sinon » is resolved;
    under ``imperium/4`` King of Kings resolves again and the guard holds."""
    for game, expected in ((NEW, False), (OLD, True)):
        ctx = _solo(game)
        for card in [*ctx.state.fame_top, *ctx.state.piles.get("fame", [])]:
            _move(ctx, card, "removed", seat=-1)
        for region in _regions(ctx.state, 3):
            _move(ctx, region, f"{CIV}:play")
        guard = CivStep("abandon_for_fame", ("3",))
        assert T.possible(ctx.state, guard)  # King of Kings not resolved yet: it holds
        O.draw_fame(ctx)
        assert T.possible(ctx.state, guard) is expected


# -- 5. « Récupérer »: onto its deck, in the order taken (l.2118-2122) -----------------------
def _roman_attack_row(game: ImperiumGame) -> tuple[list[str], str, str]:
    ctx = _solo(game, civ="romans", human="greeks")
    assert ctx.state.civ is not None
    _move(ctx, ctx.state.civ.slots[0][0], "removed")
    _move(ctx, "ART16", "civ/slot/1")
    region = _regions(ctx.state, 1)[0]
    _move(ctx, region, f"{CIV}:play")
    unrest = ctx.state.unrest[-1]
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    row = next(e for e in ctx.events if isinstance(e, CivCardResolved)).row
    assert S.table_for("romans", "barbarian").rows_for(game.revision)[row].match == "icon:attack"
    top = ctx.state.seats[CIV].deck_top
    assert top[0] == region
    return top, unrest, _where(ctx.state, unrest)


def test_the_civ_table_step_recuperez_une_instabilite_puts_it_on_its_deck() -> None:
    """Romains (barbare), attack row: « Rappelez une [région]. Récupérez une [instabilité]. »;
    RÉCUPÉRER (l.2118-2120): « ajoutez-les au-dessus de son deck C.I.V. dans l'ordre dans
    lequel elle les récupère »: the region, then the unrest card on top. ``imperium/4``: its
    discard."""
    top, unrest, where = _roman_attack_row(NEW)
    assert top[1:] == [unrest] and where == f"{CIV}:deck_top"
    top, unrest, where = _roman_attack_row(OLD)
    assert len(top) == 1 and where == f"{CIV}:discard"


def _corruption(game: ImperiumGame) -> tuple[str, int]:
    ctx = _solo(game)
    unrest = ctx.state.unrest[-1]
    _human_step(ctx, "1CIV4", E.Take)
    return _where(ctx.state, unrest), len(ctx.state.seats[CIV].deck_top)


def test_an_unrest_card_the_human_makes_the_civ_take_goes_on_its_deck() -> None:
    """The human's Corruption (1CIV4, « chaque autre joueur récupère une [instabilité] »),
    RÉCUPÉRER (l.2118-2120): on top of the C.I.V. deck. ``imperium/4``: its discard."""
    assert _corruption(NEW) == (f"{CIV}:deck_top", 1)
    assert _corruption(OLD) == (f"{CIV}:discard", 0)


def test_cards_the_civ_takes_go_on_its_deck_in_the_order_taken() -> None:
    """Two unrest cards taken: the first taken, then the second on top of it (l.2118-2120);
    a fame card taken or drawn from an empty fame deck is its King of Kings (6 progress,
    once)."""
    ctx = _solo(NEW)
    first, second = ctx.state.unrest[-1], ctx.state.unrest[-2]
    take = E.Take(pile="unrest", count=2)
    ctx.push(steps_frame(0, "1CIV4", (E.Each(each="other_player", do=(take,)),)))
    run(ctx)
    assert ctx.state.seats[CIV].deck_top == [first, second]
    for card in [*ctx.state.fame_top, *ctx.state.piles.get("fame", [])]:
        _move(ctx, card, "removed", seat=-1)
    fame = (E.Take(pile="fame", count=2), E.DrawFame())
    ctx.push(steps_frame(0, "1CIV4", (E.Each(each="other_player", do=fame),)))
    run(ctx)
    seat = ctx.state.seats[CIV]
    assert seat.progress == 6 and seat.kok_resolved and not seat.hand


# -- 6. Minoan empire table, first row (l.2764) -----------------------------------------------
def _minoan_conquer(game: ImperiumGame) -> str:
    ctx = _solo(game, civ="minoans", human="greeks")
    ctx.emit(ev.StateFlipped(seat=CIV, empire=True))
    assert ctx.state.civ is not None
    conquer = next(c for c in C.NATIONS["minoans"].starting_deck if K.name(c) == "Conquer")
    _move(ctx, ctx.state.civ.slots[0][0], "removed")
    if _where(ctx.state, conquer) != "civ/slot/1":
        _move(ctx, conquer, "civ/slot/1")
    region = _regions(ctx.state, 1)[0]
    _move(ctx, region, "0:play", seat=0)
    _resolve_slot(ctx, Frame(kind="civ_resolve", seat=CIV, data="1"))
    assert next(e for e in ctx.events if isinstance(e, CivCardResolved)).row == 0
    run(ctx)
    return _where(ctx.state, region)


def test_minoan_empire_first_row_makes_the_human_abandon_a_region() -> None:
    """Minoens (empire), first row (l.2764): « Acquérez [civilisé/tradition/région/vassal].
    Vous abandonnez une [région]. » — an attack (l.2082-2084): the human's only region goes to
    their discard under ``imperium/5``; ``imperium/4`` left the human's part out."""
    row = S.table_for("minoans", "empire").rows[0]
    assert row.you_for(4) == () and [type(s) for s in row.you_for(5)] == [E.Abandon]
    assert _minoan_conquer(NEW) == "0:discard"
    assert _minoan_conquer(OLD) == "0:play"


# -- whole games ------------------------------------------------------------------------------
@pytest.mark.parametrize(("index", "pair"), list(enumerate(PAIRS)))
def test_seeded_solo_games_under_imperium_5(index: int, pair: tuple[str, str]) -> None:
    """Every nation as the human and as the C.I.V. under ``imperium/5``, every level: no
    exception, the refold of the events equals the state held, an outcome and the C.I.V.'s
    score."""
    final = _check_game(pair[0], pair[1], LEVELS[index % 5], index, index % 2 == 1, game=NEW)
    assert final.revision == 5 and final.civ is not None and final.civ.score is not None

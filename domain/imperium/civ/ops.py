"""The C.I.V.'s elementary operations ("MODIFICATIONS DES MOTS-CLEFS", "ROI DES ROIS").

Each one emits ordinary events with seat :data:`~domain.imperium.civ.CIV`: its deck is
``seats[CIV].deck`` (unordered: a draw picks at random, recorded) under ``deck_top`` (cards put
on top, last = top); its dynasty deck is ``nation_deck`` (shuffled nation cards, drawn at
random), then ``accession``, then ``nation_bottom`` (developments, first = uppermost).
"""

from __future__ import annotations

from domain.imperium import cards as K
from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.engine import Ctx
from domain.imperium.market import (
    OWN_DECK,
    acquire,
    exile_market,
    fame_left,
    innovate,
    market_candidates,
    needs_unrest,
    take_unrest,
)
from domain.imperium.ops import gain, move, trigger_end, z
from domain.imperium.state import ImperiumState


def deck_size(state: ImperiumState) -> int:
    """Cards in the C.I.V. deck."""
    seat = state.seats[CIV]
    return len(seat.deck) + len(seat.deck_top)


def take_top(ctx: Ctx, dst: str) -> str:
    """Move the top card of the C.I.V. deck to ``dst`` ("" when the deck is empty)."""
    seat = ctx.state.seats[CIV]
    if seat.deck_top:
        card, src = seat.deck_top[-1], z(CIV, "deck_top")
    elif seat.deck:
        card, src = ctx.chance.choice(seat.deck), z(CIV, "deck")
    else:
        return ""
    ctx.emit(ev.CardDrawn(seat=CIV, card=card, src=src, dst=dst))
    return card


def discard_top(ctx: Ctx, count: int) -> int:
    """The top ``count`` cards of its deck into its discard (as many as there are)."""
    done = 0
    for _ in range(count):
        if not take_top(ctx, z(CIV, "discard")):
            break
        done += 1
    return done


def dynasty_size(state: ImperiumState) -> int:
    """Cards left in its dynasty deck."""
    seat = state.seats[CIV]
    return len(seat.nation_deck) + len(seat.accession) + len(seat.nation_bottom)


def take_dynasty(ctx: Ctx, dst: str) -> str:
    """Move the top dynasty card to ``dst``: the accession card reaching its discard turns its
    state card to empire; an emptied dynasty deck triggers the final scoring ("FIN DE PARTIE",
    1: "La pioche Dynastie de la C.I.V. est épuisée")."""
    seat = ctx.state.seats[CIV]
    if seat.nation_deck:
        card, src = ctx.chance.choice(seat.nation_deck), z(CIV, "nation_deck")
    elif seat.accession:
        card, src = seat.accession[0], z(CIV, "accession")
    elif seat.nation_bottom:
        card, src = seat.nation_bottom[0], z(CIV, "nation_bottom")
    else:
        return ""
    ctx.emit(ev.CardDrawn(seat=CIV, card=card, src=src, dst=dst))
    flips = C.NATIONS[seat.nation].accession_role == "accession"  # Vikings, Arthurians: never
    if src.endswith(":accession") and dst == z(CIV, "discard") and not seat.empire and flips:
        ctx.emit(ev.StateFlipped(seat=CIV, empire=True))
    if not dynasty_size(ctx.state):
        trigger_end(ctx, "dynasty_empty")
    return card


def estimated_vp(state: ImperiumState, card: str) -> int:
    """The VP the C.I.V. counts a market card at ("ACQUÉRIR ET INNOVER"): fixed value,
    variable cards 5, conditional cards their highest value, +1 per progress on it."""
    vp = K.vp_data(card)
    kind = vp.get("kind", "none")
    if kind in ("fixed", "negative"):
        value = int(vp.get("value", 0))
    elif kind == "variable":
        value = 5
    elif kind in ("conditional", "negative_conditional"):
        value = max([int(c["value"]) for c in vp.get("cases", [])] + [int(vp.get("otherwise", 0))])
    else:
        value = 0
    for slot in state.market:
        if slot.card == card:
            value += slot.progress
    return value


def best_market_card(state: ImperiumState, suits: tuple[str, ...], token: str = "") -> str:
    """The market card the C.I.V. takes among ``suits``: most VP, then most tokens on it, then
    the lowest slot ("" when none); with ``token``, only a card carrying at least one token of
    that resource (« Acquérez une carte avec au moins 1 [progrès] dessus », ``imperium/4``)."""
    found = market_candidates(state, suits)
    ranked = []
    for index, slot in enumerate(state.market):
        if token and not getattr(slot, token):
            continue
        if slot.card in found:
            tokens = slot.materials + slot.population + slot.progress
            ranked.append((-estimated_vp(state, slot.card), -tokens, index, slot.card))
    return min(ranked)[3] if ranked else ""


def put_on_deck(ctx: Ctx, card: str) -> None:
    """``card`` (in its hand after an acquisition) onto its deck, then any unrest it took."""
    seat = ctx.state.seats[CIV]
    if card in seat.hand:
        move(ctx, CIV, card, z(CIV, "hand"), z(CIV, "deck_top"))
    for other in list(seat.hand):
        if "unrest" in K.suits(other):
            move(ctx, CIV, other, z(CIV, "hand"), z(CIV, "deck_top"))


def civ_acquire(ctx: Ctx, suits: tuple[str, ...], token: str = "") -> bool:
    """Acquire the best market card of ``suits`` (carrying a ``token``, if given) onto its
    deck (``False``: none)."""
    card = best_market_card(ctx.state, suits, token)
    if not card:
        return False
    acquire(ctx, CIV, card)
    put_on_deck(ctx, card)
    return True


def civ_innovate(ctx: Ctx, suit: str) -> bool:
    """Innovate in ``suit``: the best market card, else the top card of that suit's deck, else
    a card of that suit from the main deck ("ACQUÉRIR ET INNOVER"). From ``imperium/5``, as
    the human innovates (:func:`innovate5`)."""
    if ctx.state.revision >= 5:
        innovate5(ctx, suit)
        return True
    if civ_acquire(ctx, (suit,)):
        return True
    state = ctx.state
    for pile in (suit, "main"):
        cards = [c for c in state.piles.get(pile, []) if suit in K.suits(c)]
        if cards:
            card = ctx.chance.choice(cards)
            ctx.emit(ev.CardDrawn(seat=CIV, card=card, src=f"pile/{pile}", dst=z(CIV, "deck_top")))
            if needs_unrest(card) and state.unrest:
                move(ctx, CIV, state.unrest[-1], "unrest", z(CIV, "deck_top"))
            return True
    return False


def innovate5(ctx: Ctx, suit: str) -> None:
    """``imperium/5``: the C.I.V. innovates through the human's code (:func:`.market.innovate`,
    "Innover") with its own choice of card, put on its deck: a market card's tucked unrest goes
    back to the pile (option 1, « remettez-la dans la pile Instabilités »); a card drawn from a
    pile comes alone (options 2-5); with no card of ``suit`` in the main deck it gains 2
    progress (option 5; solo: « révélez normalement des cartes de la pioche Principale »); the
    main deck emptied triggers the final scoring ("FIN DE PARTIE" 2)."""
    state = ctx.state
    choice = best_market_card(state, (suit,))
    if not choice:
        own = suit in OWN_DECK and bool(state.piles.get(suit))
        choice = f"deck:{suit}" if own else f"main:{suit}"
    innovate(ctx, CIV, choice, dst=z(CIV, "deck_top"))


def civ_exile(ctx: Ctx) -> bool:
    """Exile the market card without tokens at the lowest slot ("EXILER")."""
    for slot in ctx.state.market:
        if slot.card and not (slot.materials or slot.population or slot.progress):
            exile_market(ctx, CIV, slot.card)
            return True
    return False


def regions_in_play(state: ImperiumState) -> list[str]:
    """Its regions in play, in the order they were played."""
    return [c for c in state.seats[CIV].play if "region" in K.suits(c)]


def abandon_last(ctx: Ctx) -> bool:
    """Abandon the region it played last into its discard ("ABANDONNER")."""
    return last_region_to(ctx, z(CIV, "discard"))


def last_region_to(ctx: Ctx, dst: str) -> bool:
    """Move the region it played last to ``dst`` (its discard: "ABANDONNER"; its deck:
    "RAPPELER", « elle rappelle la dernière qui a été jouée »; its history: « archivez dans
    l'Histoire une [région] en jeu »)."""
    regions = regions_in_play(ctx.state)
    if not regions:
        return False
    move(ctx, CIV, regions[-1], z(CIV, "play"), dst)
    return True


def best_exiled(state: ImperiumState, suit: str) -> str:
    """The exiled card of ``suit`` it acquires: most VP (as "ACQUÉRIR ET INNOVER"), then the
    one exiled last ("" when none)."""
    ranked = [(-estimated_vp(state, card), -index, card)
              for index, card in enumerate(state.exile) if suit in K.suits(card)]  # fmt: skip
    return min(ranked)[2] if ranked else ""


def acquire_exiled(ctx: Ctx, suit: str) -> bool:
    """« acquérez une [région] exilée »: the best exiled card of ``suit`` onto its deck."""
    card = best_exiled(ctx.state, suit)
    if card:
        move(ctx, CIV, card, "exile", z(CIV, "deck_top"))
    return bool(card)


def fame_drawable(state: ImperiumState) -> bool:
    """``True`` when :func:`draw_fame` would bring it something: a fame card is left, or King
    of Kings is still to resolve (every ruleset before ``imperium/5``, where it resolves any
    number of times; from ``imperium/5`` while it has not resolved it)."""
    return bool(fame_left(state)) or state.revision < 5 or not state.seats[CIV].kok_resolved


def draw_fame(ctx: Ctx) -> None:
    """It draws a fame card onto its deck; with none left, King of Kings ("ROI DES ROIS"): 6
    progress as a barbarian, 3 and the top dynasty card onto its deck as an empire; King of
    Kings turns to face B, which triggers the final scoring. From ``imperium/5`` it resolves
    King of Kings only once, as every player (card note « Chaque joueur ne peut résoudre
    qu'une fois Roi des rois »: :func:`.market.king_of_kings`)."""
    state = ctx.state
    if state.fame_top:
        card, src = state.fame_top[-1], "fame_top"
    elif state.piles.get("fame"):
        card, src = ctx.chance.choice(state.piles["fame"]), "pile/fame"
    else:
        if state.revision >= 5:
            if state.seats[CIV].kok_resolved:
                return
            ctx.emit(ev.KingOfKingsResolved(seat=CIV))
        if state.seats[CIV].empire:
            gain(ctx, CIV, progress=3)
            take_dynasty(ctx, z(CIV, "deck_top"))
        else:
            gain(ctx, CIV, progress=6)
        if state.kok_face == "A":
            ctx.emit(ev.KingOfKingsFlipped(seat=CIV, face="B"))
        trigger_end(ctx, "king_of_kings")
        return
    ctx.emit(ev.CardDrawn(seat=CIV, card=card, src=src, dst=z(CIV, "deck_top")))


def civ_take_unrest(ctx: Ctx) -> None:
    """« Récupérez une [instabilité] »: the top unrest card into its discard; from
    ``imperium/5`` onto its deck ("RÉCUPÉRER/PIOCHER DES CARTES": « ajoutez-les au-dessus de
    son deck C.I.V. dans l'ordre dans lequel elle les récupère »)."""
    top = "deck_top" if ctx.state.revision >= 5 else "discard"
    take_unrest(ctx, CIV, z(CIV, top))


def return_unrest(ctx: Ctx) -> bool:
    """An unrest card of its discard back to the pile ("RENVOYER"; Maître suprême: +1
    progress)."""
    state = ctx.state
    for card in reversed(state.seats[CIV].discard):
        if "unrest" in K.suits(card):
            move(ctx, CIV, card, z(CIV, "discard"), "unrest")
            supreme_bonus(ctx)
            return True
    return False


def supreme_bonus(ctx: Ctx) -> None:
    """Maître suprême: « à chaque fois que la C.I.V. renvoie une [instabilité], elle gagne
    aussi 1 [progrès] »."""
    civ = ctx.state.civ
    if civ is not None and civ.supreme:
        gain(ctx, CIV, progress=S.SOLO.supreme_master.progress_per_unrest_returned)


def recover(ctx: Ctx, suit: str) -> bool:
    """« Récupérez une [suit] de la défausse et placez-la au-dessus du deck C.I.V. »: the
    last such card of its discard onto its deck ("RÉCUPÉRER/PIOCHER DES CARTES"; ``suit``:
    a category, or from ``imperium/4`` a type icon)."""
    return from_discard(ctx, suit, z(CIV, "deck_top"))


def shows(card: str, selector: str) -> bool:
    """Whether ``card`` shows ``selector``: a category (:data:`~.content.SUITS`) or a type
    icon (:data:`~.content.TYPES`: « un [chevalier] », « un [masque] », « un [parchemin] »)."""
    return selector in K.suits(card) or selector in C.CARDS[card].type_icons


def in_discard(state: ImperiumState, selector: str) -> list[str]:
    """The cards of its discard showing ``selector``, bottom first."""
    return [c for c in state.seats[CIV].discard if shows(c, selector)]


def from_discard(ctx: Ctx, selector: str, dst: str) -> bool:
    """The last card of its discard showing ``selector`` (the top of the pile: decision
    ``civ_recover_choice``) to ``dst``: its deck (« récupérez »), its history (« archivez un
    [chevalier] de la défausse dans l'Histoire ») or its play area (« mettez en jeu une
    [région] de la défausse »)."""
    found = in_discard(ctx.state, selector)
    if found:
        move(ctx, CIV, found[-1], z(CIV, "discard"), dst)
    return bool(found)


def die_slot_tokens(ctx: Ctx, resource: str, amount: int) -> None:
    """« Ajoutez 1 [population] à la carte Marché dans l'emplacement correspondant au
    résultat du dé » (none on a 6 or an empty slot, as its cleanup tokens)."""
    state = ctx.state
    die = state.civ.die if state.civ is not None else 0
    if 1 <= die <= min(5, len(state.market)) and state.market[die - 1].card:
        ctx.emit(ev.SlotTokensChanged(slot=die - 1, **{resource: amount}))


def steal(ctx: Ctx, resource: str, amount: int) -> None:
    """Take up to ``amount`` ``resource`` tokens from the human (an attack, "MODIFICATIONS DES
    EFFETS DE CARTES"; the caller checks the human's defences)."""
    taken = min(amount, ctx.state.seats[0].tokens(resource))
    if taken:
        ctx.emit(ev.TokensChanged(seat=0, **{resource: -taken}))
        ctx.emit(ev.TokensChanged(seat=CIV, **{resource: taken}))

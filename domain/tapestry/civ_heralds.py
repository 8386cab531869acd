"""Heralds (Hérauts): borrow the WHEN PLAYED ability of a tapestry card visible on any mat.

Rules: the player aid's summary "CIVILISATIONS / Hérauts" (four tokens on the mat; on income
turns 2-5 you may move one onto any tapestry card in play that has a WHEN PLAYED ability and
gain that ability, at most one token per card; at setup only, you may play a tapestry card
over Maker of Fire), F.À.Q. "Plateaux civilisation particuliers" (« Les Hérauts peuvent-ils
copier des cartes recouvertes ? » no: the token goes on the card, so only visible cards),
"Rééquilibrage des civilisations" (the rule printed under HISTORIENS, which names the
Heralds: a starting Herald draws tapestry cards at the end of its first income turn until one
is a WHEN PLAYED card, discards the others, and may then play a WHEN PLAYED card over Maker
of Fire, never Renaissance; ``content/civilizations.json#6`` records why we read it so).

The mat: ``civ_tokens["heralds"]`` lists the cards holding a Herald token, each as
``owner * 100 + place`` (``place``: the card's index in the owner's ``mat`` list, which only
grows); ``4 - len`` tokens are still on the mat. Decisions: ``heralds`` (income turns 2-5:
``Choose(index=owner * 100 + place)`` or ``Decline``), ``herald_spy`` (a copied Espionage:
``Choose(index=card)``) and ``herald_fire`` (the rebalancing: ``PlayTapestry`` or
``Decline``).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.cards import key_of, play, resolve, visible_cards
from domain.tapestry.commands import Choose, Decline, PlayTapestry
from domain.tapestry.engine import DECISIONS, Ctx
from domain.tapestry.gains import draw_tapestry
from domain.tapestry.state import Frame, TapestryState

KEY = "heralds"
#: player tokens on the Heralds' mat ("Posez 4 pions sur la fiche").
MAT_TOKENS = 4
#: the era slot of Maker of Fire on the income mat (the first one).
MAKER_OF_FIRE = 1
#: the card a Herald may not play over Maker of Fire (rebalancing).
FORBIDDEN_ON_FIRE = "renaissance"
#: the place of a card on the mats: ``owner * PLACE + index in the owner's mat``.
PLACE = 100


def when_played(card: int) -> bool:
    """``True`` for a card with a WHEN PLAYED ability: every base card but the THIS ERA ones
    (a Trap played as a tapestry card scores its 10 VP when played)."""
    return C.TAPESTRY_CARDS[card].kind != "this_era"


def placed(state: TapestryState, seat: int) -> list[int]:
    """The places (``owner * 100 + index``) of the cards holding ``seat``'s Herald tokens."""
    return list(state.seats[seat].civ_tokens.get(KEY, []))


def visible_places(state: TapestryState) -> list[int]:
    """Places of the visible face-up cards: the top card of each era slot of every mat."""
    found: list[int] = []
    for owner, player in enumerate(state.seats):
        tops: dict[int, int] = {}
        for index, card in enumerate(player.mat):
            tops[card.era] = index
        for era in sorted(tops):
            if player.mat[tops[era]].face_up:
                found.append(owner * PLACE + tops[era])
    return found


def targets(state: TapestryState, seat: int) -> list[int]:
    """Places a Herald token may go: visible WHEN PLAYED cards with no Herald token yet."""
    taken = set(placed(state, seat))
    return [
        place
        for place in visible_places(state)
        if place not in taken and when_played(card_at(state, place))
    ]


def card_at(state: TapestryState, place: int) -> int:
    """The tapestry card at ``place``."""
    owner, index = divmod(place, PLACE)
    return state.seats[owner].mat[index].card


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if len(placed(ctx.state, seat)) < MAT_TOKENS:
        ctx.push(Frame(kind="heralds", seat=seat, source="civ:heralds"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [Choose(index=p) for p in targets(state, top.seat)]
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """The token goes on the card, whose WHEN PLAYED ability resolves for the Herald."""
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    seat = top.seat
    ctx.emit(ev.CivTokensSet(seat=seat, key=KEY, values=(*placed(ctx.state, seat), command.index)))
    card = card_at(ctx.state, command.index)
    if key_of(card) == "espionage":
        ctx.push(Frame(kind="herald_spy", seat=seat, source="civ:heralds"))
    else:
        resolve(ctx, seat, card)


DECISIONS["heralds"] = (_options, _answer)


def _spy_options(state: TapestryState, top: Frame) -> list[Command]:
    """A copied Espionage copies in turn a visible WHEN PLAYED card (see :func:`_spy_answer`)."""
    return [
        Choose(index=c) for c in visible_cards(state) if key_of(c) != "espionage" and when_played(c)
    ]


def _spy_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """Espionage borrowed by a Herald: the chosen card's WHEN PLAYED ability resolves.

    The engine keeps a THIS ERA ability in force through the card on top of a seat's mat
    (``rules.active_card``); a Herald's borrowed Espionage is on another mat, so it offers only
    WHEN PLAYED cards rather than accept a THIS ERA card whose effect could not last.
    """
    assert isinstance(command, Choose)
    resolve(ctx, top.seat, command.index)


DECISIONS["herald_spy"] = (_spy_options, _spy_answer)


# -- the rebalancing: a card over Maker of Fire after income turn 1 -------------------------
def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    """A starting Herald, at the end of its first income turn, draws tapestry cards one by one
    until a WHEN PLAYED card comes, discards the other cards drawn, then may play a WHEN PLAYED
    card over Maker of Fire ("Rééquilibrage des civilisations")."""
    player = ctx.state.seats[seat]
    if era != 1 or not player.civs or player.civs[0] != civs.civ_id(KEY):
        return
    others: list[int] = []
    while True:
        before = len(ctx.state.seats[seat].hand)
        draw_tapestry(ctx, seat, 1)
        hand = ctx.state.seats[seat].hand
        if len(hand) == before:  # no card left anywhere
            break
        if when_played(hand[-1]):
            break
        others.append(hand[-1])
    if others:
        ctx.emit(ev.TapestryDiscarded(seat=seat, cards=tuple(others)))
    ctx.push(Frame(kind="herald_fire", seat=seat, source="adjustment:heralds"))


def _fire_options(state: TapestryState, top: Frame) -> list[Command]:
    hand = state.seats[top.seat].hand
    found: list[Command] = [
        PlayTapestry(card=c)
        for c in sorted(set(hand))
        if when_played(c) and key_of(c) != FORBIDDEN_ON_FIRE
    ]
    return [*found, Decline()]


def _fire_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """The card goes over Maker of Fire (the era 1 slot) and its ability resolves."""
    if isinstance(command, PlayTapestry):
        play(ctx, top.seat, command.card, MAKER_OF_FIRE)


DECISIONS["herald_fire"] = (_fire_options, _fire_answer)

civs.INCOME[KEY] = _income
civs.AFTER_INCOME.append(_after_income)

"""Card choices: the ``pick`` decision and what each kind of pick does with the card.

A ``pick`` frame lists candidate cards (``options``), an ``action`` and how many cards remain
to pick (``count``; ``-1`` = any number). ``Pick(card)`` applies the action; ``Pass`` ends an
optional pick. Mandatory picks continue while candidates remain ("autant que possible").
"""

from __future__ import annotations

import json
from collections.abc import Callable

import msgspec

from domain.core import Command
from domain.imperium import cards as K
from domain.imperium import events as ev
from domain.imperium import market as M
from domain.imperium.commands import Pass, Pick
from domain.imperium.content_effects import AcquireFromExileAllowed, Filter
from domain.imperium.engine import DECISIONS, Ctx
from domain.imperium.nation_rules import rules_for
from domain.imperium.ops import develop_frames, move, z
from domain.imperium.reactions import fire
from domain.imperium.state import Frame, ImperiumState

PickAction = Callable[[Ctx, Frame, str], None]
PICK_ACTIONS: dict[str, PickAction] = {}


def take_destination(state: ImperiumState, seat: int) -> str:
    """The zone a card ``seat`` takes (« Récupérez une [instabilité] / [renommée] », or one of
    the cards it just looked at) goes to: the taker's hand from ``imperium/5`` (MOTS-CLEFS,
    Récupérer: « Choisissez [une carte] dans la pile correspondante et ajoutez-la à votre main
    ou dans la zone de jeu indiquée »), its discard before (decision ``take_destination``).
    From ``imperium/5`` the C.I.V.'s hooks put what it takes from a pile on its deck before
    this step is reached (``domain.imperium.civ.hooks``).
    """
    return z(seat, "hand" if state.revision >= 5 else "discard")


_ZONES = {"hand": "hand", "discard": "discard", "history": "history", "play_area": "play",
          "deck": "deck", "development_area": "dev"}  # fmt: skip


def zone_cards(state: ImperiumState, seat: int, zones: object, card: str = "") -> list[str]:
    """The cards of one or several DSL zones of ``seat`` (``garrisoned_here``: under ``card``)."""
    names = zones if isinstance(zones, tuple) else (zones,)
    owner = state.seats[seat]
    found: list[str] = []
    for zone in names:
        if zone == "garrisoned_here":
            found += owner.garrison.get(card, [])
        elif zone == "garrisoned":  # every card garrisoned under a card of the play area
            found += [c for host in sorted(owner.garrison) for c in owner.garrison[host]]
        elif zone == "active_quest":
            found += K.active_quest(owner)
        elif zone == "deck":
            found += owner.deck + owner.deck_top
        elif zone in _ZONES:
            found += getattr(owner, _ZONES[str(zone)])
    return found


def where(state: ImperiumState, seat: int, card: str) -> str:
    """The zone of ``seat`` holding ``card`` ("" when it holds none)."""
    owner = state.seats[seat]
    for zone in ("hand", "play", "discard", "history", "submerged", "deck", "deck_top", "dev",
                 "looked", "nation_deck", "nation_top", "nation_bottom"):  # fmt: skip
        if card in getattr(owner, zone):
            return z(seat, zone)
    for host, cards in owner.garrison.items():
        if card in cards:
            return z(seat, f"garrison/{host}")
    return ""


def pick_frame(seat: int, card: str, action: str, options: list[str], count: int,
               optional: bool = False, data: str = "") -> Frame:  # fmt: skip
    """A decision picking ``count`` of ``options`` (``-1``: any number) for ``action``."""
    return Frame(kind="pick", seat=seat, card=card, action=action, options=tuple(options),
                 count=count, optional=optional, data=data)  # fmt: skip


def _pick_options(state: ImperiumState, top: Frame) -> list[Command]:
    seen: list[str] = []
    for card in top.options:
        if card not in seen:
            seen.append(card)
    found: list[Command] = [Pick(card=c) for c in seen]
    if top.optional:
        found.append(Pass())
    return found


def _pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if not isinstance(command, Pick):
        return
    rest = list(top.options)
    rest.remove(command.card)
    # a card counting as several of the cards asked for (Grand Trunk Road) uses them up
    count = max(0, top.count - K.pick_weight(command.card, top.options)) if top.count > 0 else -1
    if count and rest:
        ctx.push(pick_frame(top.seat, top.card, top.action, rest, count, top.optional, top.data))
    PICK_ACTIONS[top.action](ctx, top, command.card)


DECISIONS["pick"] = (_pick_options, _pick_answer)


def action(name: str) -> Callable[[PickAction], PickAction]:
    """Register a pick action."""

    def register(handler: PickAction) -> PickAction:
        PICK_ACTIONS[name] = handler
        return handler

    return register


def _to(ctx: Ctx, seat: int, card: str, dst: str) -> None:
    src = where(ctx.state, seat, card)
    if src and src != dst:
        move(ctx, seat, card, src, dst)


@action("discard")
def _discard(ctx: Ctx, top: Frame, card: str) -> None:
    ctx.state.memo.discarded += 1
    _to(ctx, top.seat, card, z(top.seat, "discard"))


@action("history")
def _history(ctx: Ctx, top: Frame, card: str) -> None:
    _to(ctx, top.seat, card, K.history_zone(ctx.state, top.seat))


@action("submerge")
def _submerge(ctx: Ctx, top: Frame, card: str) -> None:
    """ENGLOUTISSEZ: the card goes under the power card, into the submerged pile, for a nation
    that has one (the Atlanteans: then their ``submerge`` reactions fire); "si un autre joueur
    que les Atlantes déclenche ce mot-clef, les cartes ciblées sont à la place défaussées"."""
    if rules_for(ctx.state.seats[top.seat].nation).submerges:
        _to(ctx, top.seat, card, z(top.seat, "submerged"))
        fire(ctx, top.seat, "submerge", card)
    else:
        _to(ctx, top.seat, card, z(top.seat, "discard"))


def _used(ctx: Ctx, top: Frame, card: str) -> None:
    """Remember that the effect of ``top.card`` used ``card`` from the play area (Shaduf)."""
    if card in ctx.state.seats[top.seat].play:
        ctx.state.memo.used.append(f"{top.seat}:{top.card}:{card}")


@action("abandon")
def _abandon(ctx: Ctx, top: Frame, card: str) -> None:
    ctx.state.memo.abandoned += 1
    ctx.state.memo.last_abandoned = card
    _used(ctx, top, card)
    _to(ctx, top.seat, card, z(top.seat, "discard"))


@action("recall")
def _recall(ctx: Ctx, top: Frame, card: str) -> None:
    recall_to(ctx, top, card, "hand")


def recall_to(ctx: Ctx, top: Frame, card: str, zone: str) -> None:
    """RAPPELER: ``card`` of the pick ``top`` goes from its seat's play area to that seat's
    ``zone`` (the hand; the C.I.V.'s is the top of its deck), counted as used by the effect."""
    _used(ctx, top, card)
    _to(ctx, top.seat, card, z(top.seat, zone))


@action("recover")
def _recover(ctx: Ctx, top: Frame, card: str) -> None:
    dst = json.loads(top.data) if top.data else "hand"
    _to(ctx, top.seat, card, z(top.seat, "deck_top" if dst == "deck_top" else "hand"))


@action("return_unrest")
def _return_unrest(ctx: Ctx, top: Frame, card: str) -> None:
    _to(ctx, top.seat, card, "unrest")
    ctx.state.memo.returned += 1
    fire(ctx, top.seat, "return_unrest", card)


@action("garrison")
def _garrison(ctx: Ctx, top: Frame, card: str) -> None:
    if top.card in ctx.state.seats[top.seat].play:
        _to(ctx, top.seat, card, z(top.seat, f"garrison/{top.card}"))


@action("put_on_deck")
def _put_on_deck(ctx: Ctx, top: Frame, card: str) -> None:
    _to(ctx, top.seat, card, z(top.seat, "deck_top"))


@action("exile_own")
def _exile_own(ctx: Ctx, top: Frame, card: str) -> None:
    _to(ctx, top.seat, card, "exile")
    ctx.state.memo.exiled.append(card)


@action("exile_market")
def _exile_market(ctx: Ctx, top: Frame, card: str) -> None:
    M.exile_market(ctx, top.seat, card)


@action("acquire")
def _acquire(ctx: Ctx, top: Frame, card: str) -> None:
    bonus = (0, 0, 0)
    if card in ctx.state.exile:
        for _, step in K.passive_steps(ctx.state, top.seat):
            if isinstance(step, AcquireFromExileAllowed) and step.bonus is not None:
                bonus = (step.bonus.materials, step.bonus.population, step.bonus.progress)
    M.acquire(ctx, top.seat, card, bonus)


@action("innovate")
def _innovate(ctx: Ctx, top: Frame, card: str) -> None:
    flt = msgspec.json.decode(top.data, type=Filter) if top.data else None
    M.innovate(ctx, top.seat, card, flt)


@action("develop")
def _develop(ctx: Ctx, top: Frame, card: str) -> None:
    ctx.push(*develop_frames(ctx.state, top.seat, card, free=False, token=False))


@action("develop_free")
def _develop_free(ctx: Ctx, top: Frame, card: str) -> None:
    ctx.push(*develop_frames(ctx.state, top.seat, card, free=True, token=False))


@action("take_looked")
def _take_looked(ctx: Ctx, top: Frame, card: str) -> None:
    _to(ctx, top.seat, card, take_destination(ctx.state, top.seat))


@action("find")
def _find(ctx: Ctx, top: Frame, card: str) -> None:
    # the found card goes where the step says: hand, or discard (Chandragupta, Chanakya)
    if top.data == "history":  # Lancelot, Taliesin
        _to(ctx, top.seat, card, K.history_zone(ctx.state, top.seat))
    else:
        _to(ctx, top.seat, card, z(top.seat, "discard" if top.data == "discard" else "hand"))
    owner = ctx.state.seats[top.seat]
    for zone, dst in (("deck_top", "deck"), ("nation_top", "nation_deck"),
                      ("nation_bottom", "nation_deck")):  # fmt: skip
        for other in list(getattr(owner, zone)):
            move(ctx, top.seat, other, z(top.seat, zone), z(top.seat, dst))


def shuffle_searched(ctx: Ctx, seat: int, zones: str) -> None:
    """Forget the known order of the searched decks (``"deck,nation_deck"``): cards known on
    top of the deck go back into it, those known in the nation deck likewise (the accession
    card stays at the bottom, in its own zone)."""
    owner = ctx.state.seats[seat]
    moves = {
        "deck": (("deck_top", "deck"),),
        "nation_deck": (("nation_top", "nation_deck"), ("nation_bottom", "nation_deck")),
    }
    for zone in zones.split(","):
        for src, dst in moves.get(zone, ()):
            for other in list(getattr(owner, src)):
                move(ctx, seat, other, z(seat, src), z(seat, dst))


@action("find_revised")
def _find_revised(ctx: Ctx, top: Frame, card: str) -> None:
    """``imperium/2``: the found card goes where the step says; then only the decks searched
    are shuffled (``data``: ``"<to>|<searched decks>"``)."""
    to, _, shuffled = top.data.partition("|")
    if to == "history":
        _to(ctx, top.seat, card, K.history_zone(ctx.state, top.seat))
    else:
        _to(ctx, top.seat, card, z(top.seat, "discard" if to == "discard" else "hand"))
    shuffle_searched(ctx, top.seat, shuffled)


@action("place_tokens")
def _place_tokens(ctx: Ctx, top: Frame, card: str) -> None:
    amount = json.loads(top.data)
    index = M.slot_index(ctx.state, card)
    ctx.emit(ev.SlotTokensChanged(slot=index, materials=amount[0], population=amount[1],
                                  progress=amount[2]))  # fmt: skip

"""The Utopian C.I.V.'s voyage and the Arthurian C.I.V.'s pending quests (``imperium/3``).

Utopians ("MISE EN PLACE DE LA C.I.V.": « Si vous jouez contre les Utopiens, vous ne
constituez pas de pioche Dynastie. Au lieu de cela, placez Visions de Shangri-La sur Portes de
Shangri-La, face visible toutes les deux. La carte au sommet de cette pile est la carte Voyage
de la C.I.V. »): the stack lies in ``seats[CIV].journey`` (public; last = top). "PHASE DE
NETTOYAGE DE LA C.I.V.": « a chaque fois que le deck C.I.V. est épuisé et que vous devriez
normalement ajouter une carte de ce deck a un emplacement, résolvez d'abord l'effet de sa carte
Voyage, comme indiqué sous son tableau de référence. Puis mélangez la défausse de la C.I.V. pour
constituer un nouveau deck C.I.V. » — the voyage rows are ``solo.json``'s ``voyage`` records.
The row resolved is public: a ``CivCardResolved`` with slot 0, the voyage card, side
``voyage`` and row 0 (it advanced) or 1 (it did not).

Arthurians ("MISE EN PLACE DE LA C.I.V.", steps A-E): the Graal face up, the other quest cards
shuffled face down on it — its pending quests, in ``CivState.quests`` (zone ``civ/quests``,
hidden; last = top) — the accession card beside them, the nation cards shuffled on it.
"""

from __future__ import annotations

from domain.imperium import content as C
from domain.imperium import events as ev
from domain.imperium.civ import CIV
from domain.imperium.civ import content as S
from domain.imperium.civ import ops as O
from domain.imperium.civ.content import CivStep
from domain.imperium.civ.events import CivCardResolved
from domain.imperium.engine import Ctx
from domain.imperium.market import take_unrest
from domain.imperium.ops import gain, move, trigger_end, z

#: the Utopians' voyage stack at setup, bottom first (Visions de Shangri-La on Portes).
VOYAGE_STACK = ("UTO3A", "UTO2A")
#: the Arthurian quest that stays at the bottom of the pending quests, face up.
GRAAL = "ART3"
#: the rules revision from which these rules apply.
SINCE = 3


def applies(ctx: Ctx, nation: str) -> bool:
    """Whether the C.I.V. of ``nation`` follows this module's rules in this game."""
    civ = ctx.state.civ
    return ctx.state.revision >= SINCE and civ is not None and civ.nation == nation


def setup_voyage(ctx: Ctx) -> None:
    """Lay the Utopian C.I.V.'s voyage stack, face up (its top card is its voyage card)."""
    for card in VOYAGE_STACK:
        move(ctx, CIV, card, "civ/aside", z(CIV, "journey"))


def setup_quests(ctx: Ctx) -> None:
    """Lay the Arthurian C.I.V.'s pending quests: the Graal, the others shuffled on it."""
    others = [c for c in C.NATIONS["arthurians"].development if c != GRAAL]
    order = ctx.chance.permutation(len(others))
    for card in (GRAAL, *(others[i] for i in order)):
        move(ctx, CIV, card, "civ/aside", "civ/quests")


def voyage_card(ctx: Ctx) -> str:
    """The face of its voyage card ("" when the stack is gone)."""
    journey = ctx.state.seats[CIV].journey
    return journey[-1] if journey else ""


def resolve_voyage(ctx: Ctx) -> bool:
    """Resolve its voyage card's row before a reshuffle; returns whether it takes an unrest
    card into its discard once the new deck is shuffled."""
    face = voyage_card(ctx)
    row = S.VOYAGE.get(face)
    if row is None:
        return False
    seat = ctx.state.seats[CIV]
    resource, amount = row.need
    advanced = seat.tokens(resource) >= amount
    ctx.emit(CivCardResolved(slot=0, card=face, side="voyage", row=0 if advanced else 1,
                             text=row.text))  # fmt: skip
    if not advanced:
        _steps(ctx, row.failure)
        materials, population, progress = row.you_failure
        gain(ctx, 0, materials=materials, population=population, progress=progress)
        return row.failure_unrest
    if resource == "progress":
        ctx.emit(ev.TokensChanged(seat=CIV, progress=-seat.progress))
    if row.advance == "turn":
        other = next(f for f in C.CARDS[face].faces if f != face)
        ctx.emit(ev.CardTurnedOver(seat=CIV, zone=z(CIV, "journey"), card=face, face=other))
    elif row.advance == "replace":
        move(ctx, CIV, face, z(CIV, "journey"), "removed")
    _steps(ctx, row.success)
    return False


def after_shuffle(ctx: Ctx, unrest: bool) -> None:
    """What the voyage row leaves for after the reshuffle: an unrest card into its discard."""
    if unrest:
        take_unrest(ctx, CIV, z(CIV, "discard"))


def _steps(ctx: Ctx, steps: tuple[CivStep, ...]) -> None:
    for step in steps:
        if step.kind == "gain":
            gain(ctx, CIV, **{step.args[0]: int(step.args[1])})
        elif step.kind == "acquire":
            O.civ_acquire(ctx, tuple(step.args[0].split("/")))
        elif step.kind == "draw_fame":
            O.draw_fame(ctx)
        elif step.kind == "end_game":
            trigger_end(ctx, "shangri_la")


def recover_quest(ctx: Ctx) -> bool:
    """« récupérer la première quête en attente » (``imperium/4``): its next pending quest,
    turned face up, onto its deck ("RÉCUPÉRER/PIOCHER DES CARTES"); the Graal once it is the
    last one."""
    civ = ctx.state.civ
    if civ is None or not civ.quests:
        return False
    move(ctx, CIV, civ.quests[-1], "civ/quests", z(CIV, "deck_top"))
    return True


def exile_quest(ctx: Ctx) -> bool:
    """Exile its next pending quest unless it is the Graal (Twrch Trwyth: « Exilez la
    prochaine [quête] en attente à moins que ce ne soit le Graal »)."""
    civ = ctx.state.civ
    if civ is None or not civ.quests or civ.quests[-1] == GRAAL:
        return False
    move(ctx, CIV, civ.quests[-1], "civ/quests", "exile")
    return True

"""Tapestry cards: playing them and their abilities (one shared mechanism, one handler per key).

Rules: "Jouer 1 carte Fresque" (income turns 2-4: you must play a card from your hand when you
hold one; only with an empty hand does the deck's top card go on the mat, face down and with no
ability), "Capacités des cartes Fresque" (WHEN PLAYED resolves at once; THIS ERA applies until
your next income turn; a covering card alone is active), "Jouer des cartes Fresque après l'ère
4" (a card played during or after income turn 5 goes over the era 4 card), "Cartes riposte" (a
Trap played as a tapestry), F.À.Q. "Cartes Fresque particulières".

The mechanism: :func:`play` lays a card on the mat and :func:`resolve` runs its ability —

* a WHEN PLAYED card (or a Trap) resolves its structured ``benefit`` (when the content has
  one), then its handler in :data:`WHEN_PLAYED` (keyed by the card's ``key``);
* a THIS ERA card runs its set-up handler in :data:`ON_PLAY` if it has one (Alliance, Marriage
  of State, Mercantilism); its lasting effect is a hook tested with
  :func:`domain.tapestry.rules.has_active` where it applies (see :mod:`cards_era`).

Handlers live in :mod:`domain.tapestry.cards_played` (WHEN PLAYED) and
:mod:`domain.tapestry.cards_era` (THIS ERA), imported at the end of this module.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command, RuleViolation
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import Choose, PlayTapestry
from domain.tapestry.engine import DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.rules import ESPIONAGE_COPY, tapestry_deck, track_index
from domain.tapestry.state import Frame, SeatState, TapestryState

#: tapestry cards whose ability the engine does not apply yet (none: every base card is done).
NOT_IMPLEMENTED: frozenset[str] = frozenset()
Handler = Callable[[Ctx, int], None]
#: civ_tokens key of a Dictatorship in force: (track, 1 once the dictator's next turn began).
DICTATORSHIP = "_dictatorship"
#: WHEN PLAYED abilities by card key (after the card's structured benefit, if any).
WHEN_PLAYED: dict[str, Handler] = {}
#: THIS ERA cards that ask something when they come into force, by card key.
ON_PLAY: dict[str, Handler] = {}
#: the last era slot of the income mat ("Jouer des cartes Fresque après l'ère 4").
LAST_SLOT = 4


def key_of(card: int) -> str:
    """The stable key of a tapestry card."""
    return C.TAPESTRY_CARDS[card].key


def card_id(key: str) -> int:
    """The id of the tapestry card named ``key``."""
    return next(c.id for c in C.TAPESTRY_CARDS.values() if c.key == key)


def playable(card: int) -> bool:
    """``True`` when the engine implements the card's ability (every base card)."""
    return key_of(card) not in NOT_IMPLEMENTED


def check_playable(card: int) -> None:
    """Raise ``NOT_IMPLEMENTED`` for a card the engine cannot resolve (none any more)."""
    if not playable(card):
        raise RuleViolation(
            "NOT_IMPLEMENTED",
            f"The tapestry card {C.TAPESTRY_CARDS[card].name} is not implemented yet.",
            "Capacités des cartes Fresque",
        )


def others(state: TapestryState, seat: int) -> list[int]:
    """Every seat but ``seat``, in seat order."""
    return [s for s in range(state.n) if s != seat]


def slot_era(seat: SeatState) -> int:
    """The era slot a card played now goes to: the current era, the era 4 card after it."""
    return min(seat.income_turns, LAST_SLOT)


# -- playing -------------------------------------------------------------------------------
def income_play(ctx: Ctx, seat: int) -> None:
    """Income step 2: play a card from the hand; with an empty hand, the deck's top card.

    "Jouer 1 carte Fresque": you must play a card from your hand if possible; only when you hold
    none is the top card of the deck put on the mat, face down, without ability. An empty deck
    is rebuilt from the discards first (F.À.Q. "plus de cartes Fresque"); with no card at all,
    nothing is played.
    """
    player = ctx.state.seats[seat]
    if player.hand:
        ctx.push(Frame(kind="play_tapestry", seat=seat))
        return
    deck = tapestry_deck(ctx.state)
    if not deck and ctx.state.tapestry_discard:
        ctx.emit(ev.TapestryReshuffled())
        deck = tapestry_deck(ctx.state)
    if deck:
        card = ctx.chance.choice(deck)
        era = slot_era(player)
        ctx.emit(ev.TapestryPlayed(seat=seat, card=card, era=era, face_up=False, from_hand=False))


def _over_current(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """Play a card from the hand over the current one (Printing Press, Nuclear weapon); with an
    empty hand nothing happens (no blind card, "Arme nucléaire" question)."""
    ctx.push(Frame(kind="play_tapestry", seat=seat, ints=(1,), source=top.source))


TOKENS["play_tapestry_over_current"] = _over_current


def _play_options(state: TapestryState, top: Frame) -> list[Command]:
    hand = state.seats[top.seat].hand
    return [PlayTapestry(card=c) for c in sorted(set(hand)) if playable(c)]


def _play_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, PlayTapestry)
    play(ctx, top.seat, command.card)


DECISIONS["play_tapestry"] = (_play_options, _play_answer)


def play(ctx: Ctx, seat: int, card: int, era: int = 0) -> None:
    """Put ``card`` from hand face up on the mat (era slot ``era``, default the current one)
    and resolve its ability."""
    check_playable(card)
    slot = era or slot_era(ctx.state.seats[seat])
    ctx.emit(ev.TapestryPlayed(seat=seat, card=card, era=slot))
    resolve(ctx, seat, card)


def resolve(ctx: Ctx, seat: int, card: int) -> None:
    """Resolve the ability of ``card`` for ``seat``: a WHEN PLAYED card's one-off effect, or the
    set-up of a THIS ERA card (most THIS ERA cards need none)."""
    record = C.TAPESTRY_CARDS[card]
    if record.kind == "this_era":
        setup = ON_PLAY.get(record.key)
        if setup is not None:
            setup(ctx, seat)
        return
    frames: list[Frame] = []
    if record.benefit is not None:
        frames.append(expr_frame(seat, record.benefit, f"tapestry:{record.key}"))
    handler = WHEN_PLAYED.get(record.key)
    added: list[Frame] = []
    if handler is not None:
        # the handler's frames run after the structured benefit (e.g. Democracy's discard).
        before = len(ctx.state.agenda)
        handler(ctx, seat)
        added = ctx.state.agenda[before:]
        del ctx.state.agenda[before:]
    ctx.push(*frames, *reversed(added))


# -- Espionage: copy a visible card --------------------------------------------------------
def visible_cards(state: TapestryState) -> list[int]:
    """Face-up tapestry cards visible on the income mats: the top card of every era slot."""
    found: set[int] = set()
    for player in state.seats:
        tops: dict[int, int] = {}
        for played in player.mat:
            tops[played.era] = played.card if played.face_up else -1
        found.update(card for card in tops.values() if card >= 0)
    return sorted(found)


def _espionage(ctx: Ctx, seat: int) -> None:
    ctx.push(Frame(kind="espionage", seat=seat))


def _espionage_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=c) for c in visible_cards(state) if key_of(c) != "espionage"]


def _espionage_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    """Espionage copies the ability of the chosen card: a WHEN PLAYED ability resolves now; a
    THIS ERA ability is in force for the spy until its next income turn."""
    assert isinstance(command, Choose)
    seat, card = top.seat, command.index
    player = ctx.state.seats[seat]
    era = player.mat[-1].era if player.mat else slot_era(player)
    copied = (card, era) if C.TAPESTRY_CARDS[card].kind == "this_era" else ()
    ctx.emit(ev.CivTokensSet(seat=seat, key=ESPIONAGE_COPY, values=copied))
    resolve(ctx, seat, card)


DECISIONS["espionage"] = (_espionage_options, _espionage_answer)
WHEN_PLAYED["espionage"] = _espionage

__all__ = [
    "DICTATORSHIP",
    "NOT_IMPLEMENTED",
    "ON_PLAY",
    "WHEN_PLAYED",
    "income_play",
    "play",
    "resolve",
    "track_index",
]

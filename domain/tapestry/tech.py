"""Tech cards: inventing, upgrading, and re-using circle and square benefits.

Rules: "Technologie / Invention" (one of the 3 face-up cards, refilled at once, or the deck's
top card; the discards are reshuffled when the deck runs out), "Amélioration" (bottom -> middle:
circle; middle -> top: square, if you or a neighbour meets the requirement; top-row cards
cannot move), "Guide des pistes" (Metallurgy and Rubber refresh the display, Electronics and
Nanotechnology), F.À.Q. (Electronics may use the circle of the card it just upgraded).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.commands import ChooseTech, Decline, Invent, Upgrade
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import score
from domain.tapestry.rules import extra_options, gain, has_active, tech_deck, upgradable
from domain.tapestry.state import Frame, TapestryState

FROM_DECK = 0


def fill_display(ctx: Ctx) -> None:
    """Turn tech cards face up until 3 show (reshuffling the discards into an empty deck)."""
    missing = 3 - len(ctx.state.tech_display)
    cards: list[int] = []
    for _ in range(missing):
        deck = [c for c in tech_deck(ctx.state) if c not in cards]
        if not deck:
            deck = [c for c in ctx.state.tech_discard if c not in cards]
        if not deck:
            break
        cards.append(ctx.chance.choice(deck))
    if cards:
        ctx.emit(ev.TechDisplayFilled(cards=tuple(cards)))


def _invent_token(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(*(Frame(kind="invent", seat=seat, source=top.source) for _ in range(count)))


TOKENS["invent"] = _invent_token


def _invent_options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [Invent(card=c) for c in sorted(state.tech_display)]
    if tech_deck(state) or state.tech_discard:
        found.append(Invent(card=FROM_DECK))
    return found


#: the frame kind of a draw with extra options to keep one (:mod:`domain.tapestry.offers`).
OPTIONS_DRAW = "options_draw"


def _deck_offer(ctx: Ctx, seat: int, upgrade: bool) -> bool:
    """A seat with extra options (the Psionics) inventing from the deck draws more cards to
    keep one (:mod:`domain.tapestry.offers`): ``True`` when that draw is pushed."""
    extra = extra_options(ctx.state, seat)
    if not extra:
        return False
    ints = (1, extra, 0, int(upgrade))
    ctx.push(Frame(kind=OPTIONS_DRAW, seat=seat, token="tech", ints=ints))
    return True


def _invent_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Invent)
    if command.card == FROM_DECK and _deck_offer(ctx, top.seat, top.token == "upgrade"):
        return
    invent(ctx, top.seat, command.card)
    if top.token == "upgrade":
        ctx.push(
            Frame(
                kind="upgrade_card", seat=top.seat, ints=(ctx.state.seats[top.seat].tech[-1].card,)
            )
        )


def invent(ctx: Ctx, seat: int, card: int) -> None:
    """``seat`` takes ``card`` (0: the deck's top card) into its bottom row."""
    if card == FROM_DECK:
        if _deck_offer(ctx, seat, False):
            return
        card = ctx.chance.choice(deck_pool(ctx.state))
        invented(ctx, seat, card, True)
    else:
        invented(ctx, seat, card, False)


def deck_pool(state: TapestryState) -> list[int]:
    """The tech cards an invention from the deck draws among: the deck, else the discards."""
    return tech_deck(state) or list(state.tech_discard)


def invented(ctx: Ctx, seat: int, card: int, from_deck: bool) -> None:
    """``seat`` takes ``card``, drawn from the deck (``from_deck``) or face up (the display is
    refilled), into its bottom row, with what inventing triggers (Academia, Industrialism)."""
    if from_deck:
        ctx.emit(ev.TechInvented(seat=seat, card=card, from_deck=True))
    else:
        ctx.emit(ev.TechInvented(seat=seat, card=card))
        fill_display(ctx)
    player = ctx.state.seats[seat]
    if has_active(player, "academia"):
        score(ctx, seat, 3, "academia")
    if has_active(player, "industrialism"):
        ctx.push(expr_frame(seat, C.TECH_CARDS[card].circle, f"tech:{card}"))


DECISIONS["invent"] = (_invent_options, _invent_answer)


def _refresh(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    options = (gain("_refresh_tech"), gain("_nothing"))
    ctx.push(Frame(kind="choose", seat=seat, options=options, source=top.source))


def _do_refresh(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    if ctx.state.tech_display:
        ctx.emit(ev.TechDisplayCleared(cards=tuple(ctx.state.tech_display)))
    fill_display(ctx)


TOKENS["refresh_tech_display_optional"] = _refresh
TOKENS["_refresh_tech"] = _do_refresh


# -- upgrades ------------------------------------------------------------------------------
def _upgrade_token(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    ctx.push(*(Frame(kind="upgrade", seat=seat, source=top.source) for _ in range(count)))


TOKENS["upgrade_tech"] = _upgrade_token


def _ignores(state: TapestryState, seat: int) -> bool:
    return has_active(state.seats[seat], "golden_age")


def _upgrade_options(state: TapestryState, top: Frame) -> list[Command]:
    cards = upgradable(state, top.seat, _ignores(state, top.seat) or top.token == "ignore")
    found: list[Command] = [Upgrade(card=c) for c in cards]
    if top.optional:
        found.append(Decline())
    return found


def upgrade(ctx: Ctx, seat: int, card: int, source: str = "") -> None:
    """Move ``card`` up one row and gain its circle (to middle) or square (to top)."""
    owned = next(t for t in ctx.state.seats[seat].tech if t.card == card)
    row = owned.row + 1
    ctx.emit(ev.TechUpgraded(seat=seat, card=card, row=row))
    if has_active(ctx.state.seats[seat], "golden_age"):
        score(ctx, seat, 3, "golden_age")
    record = C.TECH_CARDS[card]
    benefit = record.circle if row == 1 else record.square
    # the benefit's source is the card itself (its icons are the card's: see scoring._repeat)
    ctx.push(expr_frame(seat, benefit, f"tech:{card}"))


def _upgrade_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Upgrade)
    upgrade(ctx, top.seat, command.card, top.source)


DECISIONS["upgrade"] = (_upgrade_options, _upgrade_answer)


def _upgrade_card(ctx: Ctx, top: Frame) -> None:
    """Upgrade one named card at once (Steam Tycoon, Technocracy)."""
    upgrade(ctx, top.seat, top.ints[0], top.source)


AUTO["upgrade_card"] = _upgrade_card


def _pick_token(row: int) -> None:
    def handler(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
        ctx.push(Frame(kind="tech_pick", seat=seat, ints=(row,), source=top.source))

    name = "gain_circle_benefit_middle_row" if row == 1 else "gain_square_benefit_top_row"
    TOKENS[name] = handler


_pick_token(1)
_pick_token(2)


def _pick_options(state: TapestryState, top: Frame) -> list[Command]:
    row = top.ints[0]
    return [ChooseTech(card=t.card) for t in state.seats[top.seat].tech if t.row == row]


def _pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, ChooseTech)
    record = C.TECH_CARDS[command.card]
    benefit = record.circle if top.ints[0] == 1 else record.square
    ctx.push(expr_frame(top.seat, benefit, f"tech:{command.card}"))


DECISIONS["tech_pick"] = (_pick_options, _pick_answer)

"""Tinkerers (Bricoleurs, Plans & Ploys): four once-only ways to move a track token.

Facts: the facts folder's record (``civilizations.json#37``: « If starting civ, each opponent
gets a deck tech card. Income turns 2-5, use an unused option: gain a token's space cost in
resources; match the nearest opponent ahead on a track; regress exactly 3; jump to the next
bonus. », each option used once, a token left on it; the option tokens as ``benefits.json``
defines them), the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« BRICOLEURS Chaque adversaire
gagne une carte Technologie et une carte Fresque de la pioche lorsque vous commencez la partie
avec les Bricoleurs. »; the Adjustment Pack's other version is not ours). Our content:
``content/civilizations_plans_and_ploys.json#37``; readings the sources leave open are records
of ``decisions.json`` (``tinkerers_*``).

* Setup (token ``tinkerers_opponents_tech``, starting only): every opponent, in seat order from
  the Tinkerer's left, invents the deck's top tech card (``TechInvented``, from the deck).
  Rebalancing (starting only): every opponent also draws a tapestry card (private draw).
* Income turns 2-5 (decision :data:`KEY`: ``Choose(index=option * 100 + track * 10 + token)``,
  or ``Decline``), one unused option of :data:`OPTIONS`; ``civ_tokens["tinkerers"]`` lists the
  options used:

  - ``refund``: the resources the token's current space costs to enter (an "any resource"
    unit is a resource of choice);
  - ``match``: the token moves up to the space of the nearest opponent ahead on that track,
    with that space's benefit, no bonus (landmarks of tiers entered are claimed, as every
    forward move);
  - ``regress``: the token moves back exactly 3 spaces, with the benefit and the optional bonus
    of the space reached;
  - ``jump``: the token moves up to the next space with a bonus and takes that bonus free; no
    benefit and no landmark on the way.
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import draw_tapestry, gain_resources
from domain.tapestry.rules import advance_cost, delta, gain, split_cost
from domain.tapestry.state import TRACK_IDS, Frame, TapestryState
from domain.tapestry.tech import FROM_DECK, invent
from domain.tapestry.tracks import BENEFIT, FREE_BONUS, FULL, SILENT, blocked, move, space_frames

KEY = "tinkerers"
BOX = "plans_and_ploys"
#: the mat's options, in slot order (facts folder ``mat_slots``).
OPTIONS: tuple[str, ...] = ("refund", "match", "regress", "jump")
REFUND, MATCH, REGRESS, JUMP = range(4)
#: spaces the ``regress`` option moves back.
REGRESS_BY = 3
#: a decision's ``Choose`` index: ``option * OPTION + track * TRACK + token``.
OPTION, TRACK = 100, 10
LAST = 12


def used(state: TapestryState, seat: int) -> list[int]:
    """The options ``seat`` has used (their indices in :data:`OPTIONS`), in order."""
    return civs.tokens_of(state, seat, KEY, ())


def _nearest_ahead(state: TapestryState, seat: int, track: int, at: int) -> int:
    """The space of the nearest opponent ahead of ``at`` on ``track`` (0: none)."""
    ahead = [
        state.seats[o].position(track)
        for o in range(state.n)
        if o != seat and state.seats[o].position(track) > at
    ]
    return min(ahead, default=0)


def _next_bonus(track: int, at: int) -> int:
    """The next space after ``at`` whose space has a bonus (0: none)."""
    name = TRACK_IDS[track]
    return next((s for s in range(at + 1, LAST + 1) if C.space(name, s).bonus is not None), 0)


def target(state: TapestryState, seat: int, option: int, track: int, token: int) -> int:
    """Where ``option`` takes token ``token`` of ``track`` (``-1``: not possible; for
    ``refund`` the space whose cost is refunded)."""
    at = state.seats[seat].tracks[track][token]
    if option == REFUND:
        return at if at > 0 else -1
    if option == REGRESS:
        return at - REGRESS_BY if at >= REGRESS_BY else -1
    if blocked(state, seat, track) or at >= LAST:
        return -1
    found = _nearest_ahead(state, seat, track, at) if option == MATCH else _next_bonus(track, at)
    return found if found > at else -1


def moves(state: TapestryState, seat: int) -> list[tuple[int, int, int]]:
    """``(option, track, token)`` for each unused option and each token it can move."""
    if state.seats[seat].finished:
        return []
    found: list[tuple[int, int, int]] = []
    done = used(state, seat)
    for option in range(len(OPTIONS)):
        if option in done:
            continue
        for track in range(len(TRACK_IDS)):
            tokens = state.seats[seat].tracks[track]
            seen: set[int] = set()
            for token, at in enumerate(tokens):
                if at in seen:
                    continue  # tokens on one space are interchangeable
                seen.add(at)
                if target(state, seat, option, track, token) >= 0:
                    found.append((option, track, token))
    return found


# -- setup and rebalancing -----------------------------------------------------------------
def _opponents(state: TapestryState, seat: int) -> list[int]:
    return [(seat + step) % state.n for step in range(1, state.n)]


def _gift_tech(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    for other in _opponents(ctx.state, seat):
        invent(ctx, other, FROM_DECK)


TOKENS["tinkerers_opponents_tech"] = _gift_tech


def _gift_tapestry(ctx: Ctx, top: Frame) -> None:
    for other in _opponents(ctx.state, top.seat):
        draw_tapestry(ctx, other, 1)


AUTO["tinkerers_gift_tapestry"] = _gift_tapestry


def _adjustment(state: TapestryState, seat: int) -> list[Frame]:
    """ "RÉÉQUILIBRAGE": each opponent also gains a tapestry card from the deck."""
    return [Frame(kind="tinkerers_gift_tapestry", seat=seat, source=f"adjustment:{KEY}")]


civs.ADJUSTMENTS[KEY] = _adjustment


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 5 and moves(ctx.state, seat):
        ctx.push(Frame(kind=KEY, seat=seat, source=f"civ:{KEY}"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [
        Choose(index=o * OPTION + t * TRACK + k) for o, t, k in moves(state, top.seat)
    ]
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    seat, source = top.seat, f"civ:{KEY}"
    option, rest = divmod(command.index, OPTION)
    track, token = divmod(rest, TRACK)
    to = target(ctx.state, seat, option, track, token)
    civs.set_tokens(ctx, seat, KEY, [*used(ctx.state, seat), option])
    if option == REFUND:
        fixed, any_units, _ = split_cost(advance_cost(TRACK_IDS[track], to))
        if fixed:
            gain_resources(ctx, seat, delta(fixed), source)
        if any_units:
            ctx.push(expr_frame(seat, gain("gain_any_resource", any_units), source))
    elif option == MATCH:
        move(ctx, seat, track, token, to, BENEFIT, source)
    elif option == REGRESS:
        move(ctx, seat, track, token, to, FULL, source)
    else:
        move(ctx, seat, track, token, to, SILENT, source)
        ctx.push(*space_frames(ctx, seat, track, to, FREE_BONUS, source))


DECISIONS[KEY] = (_options, _answer)

civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)

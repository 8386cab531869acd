"""Spies (Espions, Plans & Ploys): copy a neighbour's card, tile, track space or tech card.

Facts: the facts folder's record (``civilizations.json#36``: « Income turns 2-5: use an unused
option to copy from a neighbour: a WHEN PLAYED tapestry on their mat, a tile in their supply,
their current track-space benefit, or a tech card's current-row benefit; you may view their
hand. », each option used once, a token left on it; the option tokens as ``benefits.json``
defines them), the rulebook's "RÉÉQUILIBRAGE DES CIVILISATIONS" (« ESPIONS Perdez [icône] si
vous commencez la partie avec les Espions. ») and its F.À.Q. "PLATEAUX CIVILISATION
PARTICULIERS" (« Certaines règles de rééquilibrage des civilisations indiquent de perdre une
ressource [...] Vous perdez la ressource à la fin du premier tour de revenus. »), "Voisins"
(the seats left and right), the player aid (the Spies are not played solo). Our content:
``content/civilizations_plans_and_ploys.json#36``; readings the sources leave open are records
of ``decisions.json`` (``spies_*``).

* Rebalancing (starting only): at the end of the first income turn the seat loses one
  resource of its choice (the icon is lost in our text).
* Income turns 2-5 (decision :data:`KEY`: ``Choose(index=option * 10000 + neighbour * 1000 +
  item)`` or ``Decline``), one unused option of :data:`OPTIONS` on a neighbour;
  ``civ_tokens["spies"]`` lists the options used:

  - ``tapestry`` (item: the card's place in the neighbour's mat list): a visible WHEN PLAYED
    card on the neighbour's income mat resolves for the Spy (a copied Espionage copies in turn a
    visible WHEN PLAYED card, as a Herald's does);
  - ``tile`` (item: a territory tile id, or :data:`SPACE_ITEM` + a space tile id): the benefit
    of a tile in the neighbour's supply (the tile stays theirs);
  - ``track`` (item: the track index): the benefit (not the bonus) of the space the neighbour
    stands on;
  - ``tech`` (item: the card id): the benefit of the row a neighbour's tech card sits in (the
    circle in the middle row, the square in the top row; a bottom-row card shows none).

* The neighbours' hands: while the Spy's decision is pending, the Spy (and only the Spy) sees
  both neighbours' tapestry hands (:func:`peeks`, used by the views).
"""

from __future__ import annotations

from domain.core import Command
from domain.tapestry import civs
from domain.tapestry import content as C
from domain.tapestry.cards import resolve
from domain.tapestry.civ_heralds import PLACE, visible_places
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import DECISIONS, Ctx, expr_frame
from domain.tapestry.state import OVER, TRACK_IDS, Frame, TapestryState
from domain.tapestry.view import HAND_PEEKS

KEY = "spies"
BOX = "plans_and_ploys"
#: the mat's options, in slot order (facts folder ``mat_slots``).
OPTIONS: tuple[str, ...] = ("tapestry", "tile", "track", "tech")
TAPESTRY, TILE, TRACK, TECH = range(4)
#: a decision's ``Choose`` index: ``option * OPTION + neighbour * NEIGHBOUR + item``.
OPTION, NEIGHBOUR = 10_000, 1_000
#: a space tile's item is this plus its id (a territory tile's item is its id).
SPACE_ITEM = 500


def used(state: TapestryState, seat: int) -> list[int]:
    """The options ``seat`` has used (their indices in :data:`OPTIONS`), in order."""
    return civs.tokens_of(state, seat, KEY, ())


def _copyable(card: int) -> bool:
    """A WHEN PLAYED card (a Trap played on a mat scores when played too); never a THIS ERA
    card, whose ability lasts through the card on its owner's mat."""
    return C.TAPESTRY_CARDS[card].kind != "this_era"


def copies(state: TapestryState, seat: int) -> list[tuple[int, int, int, C.Benefit | None]]:
    """``(option, neighbour, item, benefit)`` for every copy ``seat`` may make now (benefit
    ``None`` for a tapestry card, which resolves through its own handler)."""
    if state.seats[seat].finished:
        return []
    done = used(state, seat)
    found: list[tuple[int, int, int, C.Benefit | None]] = []
    places = visible_places(state)
    for other in state.neighbours(seat):
        player = state.seats[other]
        if TAPESTRY not in done:
            for place in places:
                owner, index = divmod(place, PLACE)
                if owner == other and _copyable(player.mat[index].card):
                    found.append((TAPESTRY, other, index, None))
        if TILE not in done:
            for tile in sorted(set(player.territory)):
                benefit = C.TERRITORY_TILES[tile].benefit
                if benefit is not None:
                    found.append((TILE, other, tile, benefit))
            for tile in sorted(set(player.space)):
                found.append((TILE, other, SPACE_ITEM + tile, C.SPACE_TILES[tile].benefit))
        if TRACK not in done:
            for track, name in enumerate(TRACK_IDS):
                at = player.position(track)
                if 0 < at <= 12:
                    found.append((TRACK, other, track, C.space(name, at).benefit))
        if TECH not in done:
            for owned in sorted(player.tech, key=lambda t: t.card):
                if owned.row == 1:
                    found.append((TECH, other, owned.card, C.TECH_CARDS[owned.card].circle))
                elif owned.row == 2:
                    found.append((TECH, other, owned.card, C.TECH_CARDS[owned.card].square))
    return found


def peeks(state: TapestryState, viewer: int | None, seat: int) -> bool:
    """``True`` when ``viewer`` is a Spy deciding its copy now and ``seat`` is its neighbour:
    the Spy may view that neighbour's hand ("you may view their hand")."""
    if viewer is None or state.phase == OVER or not state.agenda:
        return False
    top = state.agenda[-1]
    return top.kind == KEY and top.seat == viewer and seat in state.neighbours(viewer)


# -- income turns 2-5 ----------------------------------------------------------------------
def _income(ctx: Ctx, seat: int, era: int) -> None:
    if 2 <= era <= 5 and copies(ctx.state, seat):
        ctx.push(Frame(kind=KEY, seat=seat, source=f"civ:{KEY}"))


def _options(state: TapestryState, top: Frame) -> list[Command]:
    found: list[Command] = [
        Choose(index=o * OPTION + n * NEIGHBOUR + i) for o, n, i, _ in copies(state, top.seat)
    ]
    return [*found, Decline()] if found else []


def _answer(ctx: Ctx, top: Frame, command: Command) -> None:
    if isinstance(command, Decline):
        return
    assert isinstance(command, Choose)
    seat, source = top.seat, f"civ:{KEY}"
    option, rest = divmod(command.index, OPTION)
    other, item = divmod(rest, NEIGHBOUR)
    benefit = next(
        b for o, n, i, b in copies(ctx.state, seat) if (o, n, i) == (option, other, item)
    )
    civs.set_tokens(ctx, seat, KEY, [*used(ctx.state, seat), option])
    if option == TAPESTRY:
        card = ctx.state.seats[other].mat[item].card
        if C.TAPESTRY_CARDS[card].key == "espionage":
            ctx.push(Frame(kind="herald_spy", seat=seat, source=source))
        else:
            resolve(ctx, seat, card)
        return
    assert benefit is not None
    ctx.push(expr_frame(seat, benefit, source))


DECISIONS[KEY] = (_options, _answer)


# -- rebalancing: a resource lost at the end of the first income turn ----------------------
def _after_income(ctx: Ctx, seat: int, era: int) -> None:
    player = ctx.state.seats[seat]
    if era == 1 and player.civs and player.civs[0] == civs.civ_id(KEY) and any(player.resources):
        ctx.push(Frame(kind="resource", seat=seat, ints=(-1,), source=f"adjustment:{KEY}"))


civs.AFTER_INCOME.append(_after_income)
HAND_PEEKS.append(peeks)
civs.INCOME[KEY] = _income
civs.BOX_CIVILIZATIONS.setdefault(BOX, []).append(KEY)
civs.BOX_GAINABLE.setdefault(BOX, []).append(KEY)

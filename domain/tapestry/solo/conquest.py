"""The Automa's conquests and explorations, its research and other track benefits, and the
human's conquest of an Automa territory ("CONQUÊTE", "EXPLORATION", "EMBUSCADE").

Conquest: if the Automa can conquer a territory the human controls with a single outpost
(next to an Automa territory), it does (I, opponent conquest): its outpost goes there and the
human's is toppled, unless the human plays a Trap (the Automa's outpost is toppled). Otherwise
(II, neutral conquest) the valid targets are the hexes it may legally explore or conquer that
are not next to a human territory (next to one as well when the priority card shows the
topple icon); an empty hex gets a territory tile at random rotation first, and with the topple
icon a toppled Shadow Empire outpost joins the Automa's (not on the middle island). Target:
while the middle island is still to conquer for the Automa, the valid hex nearest to it; else
(I) the first valid hex in the card's hex order, (II) the valid hex nearest to a human
territory held by one outpost (else by two). Ties: the hex order.

Exploration: any empty hex next to an Automa territory (anywhere for "explore anywhere"); when
military is not the Automa's favourite track, the hexes farthest from the human's territories
first; a tile from the stack at random rotation, no outpost.
"""

from __future__ import annotations

from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.engine import AUTO, Ctx
from domain.tapestry.gains import ISLAND_KEY, _achievement_id, check_toppled, pick_tapestry_cards
from domain.tapestry.mapping import TRAP_KEY
from domain.tapestry.rules import territory_deck
from domain.tapestry.solo import AUTOMA
from domain.tapestry.solo import content as S
from domain.tapestry.solo import events as sev
from domain.tapestry.solo.board import (
    FAR,
    adjacent_to,
    controlled_by,
    distances,
    first_by_priority,
    standing_human_outposts,
)
from domain.tapestry.solo.bots import (
    AUTOMA_BOT,
    advance,
    check_automa_achievements,
    refresh_display,
    roll_until,
)
from domain.tapestry.solo.boxes import tiebreak_card
from domain.tapestry.state import TRACK_IDS, UNCONQUERABLE_PIECES, Frame, TapestryState


def _priority_card(state: TapestryState) -> int:
    assert state.solo is not None
    pair = state.solo.pair or state.solo.last_pair
    return pair[1] if len(pair) > 1 else 1


def _island(state: TapestryState) -> int:
    return next(i for i, h in enumerate(C.BOARDS[state.board].hexes) if h.central_island)


def _human_territories(state: TapestryState) -> set[int]:
    return {i for i, cell in enumerate(state.hexes) if cell.controller() >= 0}


def _nearest(state: TapestryState, card: int, valid: list[int], sources: set[int]) -> int:
    dist = distances(state, sources)
    best = min(dist[i] for i in valid)
    return first_by_priority(state, S.DECISION_CARDS[card], [i for i in valid if dist[i] == best])


def island_open(state: TapestryState) -> bool:
    """``True`` while « Conquérir l'île centrale » is possible for the Automa, whose conquests
    then aim at the middle island (player aid l.350, l.358): it lacks the achievement and, from
    ``tapestry/4``, the island can still be conquered (at most one token on it, none that no
    conquest may target, as :func:`~domain.tapestry.rules.conquer_targets` requires;
    ``automa.json#solo_island_still_conquerable``)."""
    assert state.solo is not None
    if _achievement_id(ISLAND_KEY) in state.solo.achievements:
        return False
    if state.rules.revision < 4:  # tapestry/1-3: the achievement alone
        return True
    outposts = state.hexes[_island(state)].outposts
    return len(outposts) <= 1 and not any(o.piece in UNCONQUERABLE_PIECES for o in outposts)


def opponent_targets(state: TapestryState, anywhere: bool) -> list[int]:
    """Human territories with a single token the Automa may conquer (I); never one held by a
    piece no conquest may target (Plans & Ploys' Treasure Hunters token)."""
    mine = set(controlled_by(state, AUTOMA))
    return [
        i
        for i, cell in enumerate(state.hexes)
        if cell.controller() >= 0
        and len(cell.outposts) == 1
        and standing_human_outposts(state, i) == 1
        and cell.outposts[0].piece not in UNCONQUERABLE_PIECES
        and (anywhere or adjacent_to(state, i, mine))
    ]


def neutral_targets(state: TapestryState, anywhere: bool, topple_icon: bool) -> list[int]:
    """Hexes the Automa may explore or conquer with no human piece, away from the human's
    territories unless the topple icon shows (II)."""
    mine = set(controlled_by(state, AUTOMA))
    humans = _human_territories(state)
    found = []
    for i, cell in enumerate(state.hexes):
        if cell.outposts or i in mine:
            continue
        if not (anywhere or adjacent_to(state, i, mine)):
            continue
        if not topple_icon and adjacent_to(state, i, humans):
            continue
        found.append(i)
    return found


def conquer(ctx: Ctx, anywhere: bool, income: bool = False) -> None:
    """The Automa conquers (I or II); ``income``: an income step's own conquest, whose
    priority card may be drawn (:func:`.boxes.tiebreak_card`)."""
    state = ctx.state
    card = tiebreak_card(ctx, _priority_card(state)) if income else _priority_card(state)
    topple_icon = S.DECISION_CARDS[card].topple_icon
    island = _island(state)
    targets = opponent_targets(state, anywhere)
    if targets:
        if island_open(state):
            target = _nearest(state, card, targets, {island})
        else:
            target = first_by_priority(state, S.DECISION_CARDS[card], targets)
        defender = next(o.seat for o in state.hexes[target].outposts if o.seat >= 0)
        ctx.emit(sev.AutomaOutpostPlaced(hex=target))
        if (
            any(is_trap(c) for c in state.seats[defender].hand)
            and not state.seats[defender].finished
        ):
            ctx.push(
                Frame(kind="trap", seat=defender, ints=(target, AUTOMA)),
                Frame(kind="solo_after_conquest", seat=defender),
            )
        else:
            ctx.emit(ev.OutpostToppled(owner=defender, hex=target))
            check_toppled(ctx)
            check_automa_achievements(ctx)
        return
    targets = neutral_targets(state, anywhere, topple_icon)
    if not targets:
        return
    if island_open(state):
        target = _nearest(state, card, targets, {island})
    else:
        humans = [
            i for i in sorted(_human_territories(state)) if standing_human_outposts(state, i) == 1
        ]
        if not humans:
            humans = sorted(_human_territories(state))
        target = (
            _nearest(state, card, targets, set(humans))
            if humans
            else first_by_priority(state, S.DECISION_CARDS[card], targets)
        )
    if not state.hexes[target].explored and not _lay_tile(ctx, target):
        return
    ctx.emit(sev.AutomaOutpostPlaced(hex=target))
    if topple_icon and target != island and state.solo is not None:
        ctx.emit(sev.ShadowEmpireOutpostPlaced(hex=target))
    check_automa_achievements(ctx)


def is_trap(card: int) -> bool:
    """``True`` for a Trap card."""
    return C.TAPESTRY_CARDS[card].key == TRAP_KEY


def _lay_tile(ctx: Ctx, index: int) -> bool:
    deck = territory_deck(ctx.state)
    if not deck:
        return False
    tile = ctx.chance.choice(deck)
    rotation = ctx.chance.below(6)
    ctx.emit(sev.AutomaTileExplored(hex=index, tile=tile, rotation=rotation))
    return True


def explore(ctx: Ctx, anywhere: bool, income: bool = False) -> None:
    """The Automa explores one hex (skipped when none is valid); ``income``: an income step's
    own exploration, whose priority card may be drawn for a tie (:func:`.boxes.tiebreak_card`)."""
    state = ctx.state
    assert state.solo is not None
    mine = set(controlled_by(state, AUTOMA))
    valid = [
        i
        for i, cell in enumerate(state.hexes)
        if not cell.explored and not cell.outposts and (anywhere or adjacent_to(state, i, mine))
    ]
    if not valid:
        return
    if state.solo.bots[AUTOMA_BOT].favorite != TRACK_IDS.index("military"):
        humans = _human_territories(state)
        if humans:
            dist = distances(state, humans)
            far = max(min(dist[i], FAR - 1) for i in valid)
            valid = [i for i in valid if min(dist[i], FAR - 1) == far]
    latest = _priority_card(state)
    card = S.DECISION_CARDS[tiebreak_card(ctx, latest) if income and len(valid) > 1 else latest]
    _lay_tile(ctx, first_by_priority(state, card, valid))


def draw_tapestry(ctx: Ctx, count: int) -> None:
    """The Automa draws ``count`` tapestry cards face down."""
    cards = pick_tapestry_cards(ctx, count)
    if cards:
        ctx.emit(sev.AutomaTapestryDrawn(count=len(cards), cards=tuple(cards)))


def _action(ctx: Ctx, top: Frame) -> None:
    """One of the Automa's track benefits (``top.token``)."""
    action = top.token
    income = top.source == "civilization"  # the Automa civilization card's income ability
    if action in ("conquer", "conquer_anywhere"):
        conquer(ctx, action == "conquer_anywhere", income)
    elif action in ("explore", "explore_anywhere"):
        explore(ctx, action == "explore_anywhere", income)
    elif action in ("research", "research_no_benefit"):
        track = roll_until(ctx, tuple(TRACK_IDS))
        advance(ctx, AUTOMA_BOT, TRACK_IDS.index(track), benefit=action == "research")
    elif action in ("advance", "regress"):
        names = tuple(t.split("_", 1)[1] for t in top.options)
        track = roll_until(ctx, names)
        advance(ctx, AUTOMA_BOT, TRACK_IDS.index(track), step=1 if action == "advance" else -1)
    elif action == "refresh":
        refresh_display(ctx)
    elif action == "tapestry":
        draw_tapestry(ctx, 1)
    elif action == "vp_per_landmark":
        assert ctx.state.solo is not None
        count = len(ctx.state.solo.landmarks)
        if count:
            ctx.emit(sev.AutomaScored(vp=count, reason="engineers"))


AUTO["solo_action"] = _action


def _after_conquest(ctx: Ctx, top: Frame) -> None:
    check_automa_achievements(ctx)


AUTO["solo_after_conquest"] = _after_conquest


def defend(ctx: Ctx, index: int, attacker: int) -> None:
    """The human ``attacker`` conquers the Automa's territory on hex ``index``: the Automa's
    face-down tapestry cards are revealed in random order until a Trap ("EMBUSCADE")."""
    solo = ctx.state.solo
    assert solo is not None
    pile = [solo.tapestry[i] for i in ctx.chance.permutation(len(solo.tapestry))]
    revealed: list[int] = []
    trap = False
    for card in pile:
        revealed.append(card)
        if is_trap(card):
            trap = True
            break
    if revealed:
        ctx.emit(sev.AutomaTrapChecked(hex=index, revealed=tuple(revealed), trap=trap))
    if trap:
        ctx.emit(ev.OutpostToppled(owner=attacker, hex=index))
        check_automa_achievements(ctx)
    else:
        ctx.emit(ev.OutpostToppled(owner=AUTOMA, hex=index))
        check_toppled(ctx)


__all__ = ["conquer", "defend", "draw_tapestry", "explore", "is_trap", "island_open"]

"""Civilizations: the implemented mats, their setup, income abilities and mid-game gains.

Rules: "Mise en place des joueurs" (F: civilization setup, G: rebalancing for a starting
civilization only), "Tours de revenus" step 1 (income turns 2-5), "Règles générales" (extra
civilizations gained during the game), the player aid's civilization summaries.

Implemented (:data:`IMPLEMENTED_CIVILIZATIONS`): all 16 base civilizations. The seven first
ones live here — Alchemists (push-your-luck science die), Entertainers (a path of benefits),
Futurists (a head start on every track), Leaders (one free advance per track), Merrymakers
(three columns), Militants (outposts on the mat), The Chosen (track leadership and
achievements); the others have a module each (``civ_<key>.py``): Architects, Craftsmen,
Heralds, Historians, Inventors, Isolationists, Mystics, Nomads, Traders. :data:`GAINABLE` lists
those that may be gained during the game (not The Chosen, not the Mystics).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core import Command
from domain.tapestry import content as C
from domain.tapestry import events as ev
from domain.tapestry.civ_catalogue import BOX_CIVILIZATIONS as BOX_CIVILIZATIONS
from domain.tapestry.civ_catalogue import BOX_GAINABLE as BOX_GAINABLE
from domain.tapestry.civ_catalogue import GAINABLE as GAINABLE
from domain.tapestry.civ_catalogue import GAINABLE_FROM as GAINABLE_FROM
from domain.tapestry.civ_catalogue import IMPLEMENTED_CIVILIZATIONS as IMPLEMENTED_CIVILIZATIONS
from domain.tapestry.civ_catalogue import box_gainable as box_gainable
from domain.tapestry.civ_catalogue import civ_id as civ_id
from domain.tapestry.civ_catalogue import gainable as gainable
from domain.tapestry.civ_catalogue import implemented_ids as implemented_ids
from domain.tapestry.commands import Choose, Decline
from domain.tapestry.engine import AUTO, DECISIONS, TOKENS, Ctx, expr_frame
from domain.tapestry.gains import gain_resources, score
from domain.tapestry.rules import dump, extra_options, gain
from domain.tapestry.solo.content import dealt_solo
from domain.tapestry.state import TRACK_IDS, Frame, TapestryRules, TapestryState
from domain.tapestry.tracks import OVERFLOW, SILENT, advance_frame, move, roll_science

#: estimates ``(state, seat) -> VP-equivalents`` of what a civilization's mat holds for the
#: rest of the game, added by the Tapestry bot to its evaluation (0 for a seat without it).
BOT_VALUES: list[Callable[[TapestryState, int], float]] = []


def drawn_ids(rules: TapestryRules) -> list[int]:
    """Ids of the civilizations dealt at setup under ``rules``: those of the base game and of
    the boxes in play, or only the ``civilization_box``'s under that variant."""
    if rules.civilization_box:
        return sorted(civ_id(k) for k in BOX_CIVILIZATIONS.get(rules.civilization_box, ()))
    return implemented_ids(rules.expansions)


def gainable_keys(rules: TapestryRules) -> list[str]:
    """Keys of the civilizations that may be gained during a game under ``rules``
    (:func:`gainable`, or only the ``civilization_box``'s under that variant)."""
    if rules.civilization_box:
        return box_gainable(rules.civilization_box, rules.revision)
    return gainable(rules.expansions, rules.revision)


#: the mats that play on after the fifth income turn, each its own way (the Elder Ones with
#: advance turns, the Merfolk with tapestry cards).
PLAY_ON_MATS: tuple[str, ...] = ("elder_ones", "merfolk")


def play_on_mat(state: TapestryState, seat: int) -> str:
    """The mat of :data:`PLAY_ON_MATS` that says how ``seat`` plays on after its fifth income
    turn: the first of them it took ('' for none). A seat holding both (one gained during the
    game, from ``tapestry/3``) cannot take advance turns and only use tapestry cards at once:
    the mat it held first decides (``decisions.json#play_on_both_mats``)."""
    for civ in state.seats[seat].civs:
        key = C.CIVILIZATIONS[civ].key
        if key in PLAY_ON_MATS:
            return key
    return ""


def has_civ(state: TapestryState, seat: int, key: str) -> bool:
    """``True`` when ``seat`` holds the civilization ``key``."""
    return civ_id(key) in state.seats[seat].civs


def tokens_of(state: TapestryState, seat: int, key: str, default: tuple[int, ...]) -> list[int]:
    """The counters of a civilization mat (``default`` before the first change)."""
    return list(state.seats[seat].civ_tokens.get(key, list(default)))


def set_tokens(ctx: Ctx, seat: int, key: str, values: list[int]) -> None:
    """Change a civilization mat's counters (one event)."""
    ctx.emit(ev.CivTokensSet(seat=seat, key=key, values=tuple(values)))


# -- setup ---------------------------------------------------------------------------------
#: rebalancing adjustments coded by a civilization's module (key -> its frames for a seat),
#: added after the content's ``adjustment_gain`` / ``adjustment_vp_per_opponent``.
ADJUSTMENTS: dict[str, Callable[[TapestryState, int], list[Frame]]] = {}


def setup_frames(state: TapestryState, seat: int) -> list[Frame]:
    """What a starting civilization gives: its setup, then its rebalancing adjustment."""
    record = C.CIVILIZATIONS[state.seats[seat].civs[0]]
    frames: list[Frame] = []
    if record.setup is not None:
        frames.append(expr_frame(seat, record.setup, f"civ:{record.key}"))
    if record.adjustment_gain is not None:
        frames.append(expr_frame(seat, record.adjustment_gain, f"adjustment:{record.key}"))
    if record.adjustment_vp_per_opponent:
        vp = record.adjustment_vp_per_opponent * (state.n - 1)
        frames.append(expr_frame(seat, gain("vp", vp), f"adjustment:{record.key}"))
    if record.key in ADJUSTMENTS:
        frames.extend(ADJUSTMENTS[record.key](state, seat))
    return frames


def _jump_four(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    """Futurists: move up exactly 4 spaces on every track, no benefit, bonus or landmark."""
    for track in range(len(TRACK_IDS)):
        tokens = ctx.state.seats[seat].tracks[track]
        if tokens:
            index = tokens.index(max(tokens))
            move(ctx, seat, track, index, tokens[index] + 4, SILENT)


TOKENS["advance_each_track_4_no_benefit"] = _jump_four


#: hooks run at the end of every income turn ``(ctx, seat, era)``, after the losses below
#: (civilization modules register theirs, e.g. the Heralds' rebalancing after income turn 1).
AFTER_INCOME: list[Callable[[Ctx, int, int], None]] = []


def after_income(ctx: Ctx, seat: int, era: int) -> None:
    """End of an income turn: losses of the rebalancing at the end of the first one (F.À.Q.)."""
    player = ctx.state.seats[seat]
    if era == 1 and player.civs and player.civs[0] == civ_id("futurists"):
        gain_resources(ctx, seat, (0, 0, 0, -1), "adjustment:futurists")
        ctx.push(Frame(kind="resource", seat=seat, ints=(-1,), source="adjustment:futurists"))
    for hook in AFTER_INCOME:
        hook(ctx, seat, era)


# -- income abilities ----------------------------------------------------------------------
IncomeHandler = Callable[[Ctx, int, int], None]


def income_abilities(ctx: Ctx, seat: int, era: int) -> None:
    """Step 1 of an income turn: each civilization's ability. With several civilizations that
    have an income ability, the player chooses their order ("Tours de revenus", step 1), one
    ``civ_order`` decision at a time."""
    civs = [c for c in ctx.state.seats[seat].civs if C.CIVILIZATIONS[c].key in INCOME]
    if len(civs) > 1:
        ctx.push(Frame(kind="civ_order", seat=seat, ints=(era, *civs)))
    else:
        ctx.push(*(_income_frame(seat, era, civ) for civ in civs))


def _income_frame(seat: int, era: int, civ: int) -> Frame:
    return Frame(kind="civ_income", seat=seat, token=C.CIVILIZATIONS[civ].key, ints=(era,))


def _order_options(state: TapestryState, top: Frame) -> list[Command]:
    return [Choose(index=i) for i in range(len(top.ints) - 1)]


def _order_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    era, civs = top.ints[0], list(top.ints[1:])
    first = civs.pop(command.index)
    rest = (
        Frame(kind="civ_order", seat=top.seat, ints=(era, *civs))
        if len(civs) > 1
        else _income_frame(top.seat, era, civs[0])
    )
    ctx.push(_income_frame(top.seat, era, first), rest)


DECISIONS["civ_order"] = (_order_options, _order_answer)


def _civ_income(ctx: Ctx, top: Frame) -> None:
    handler = INCOME.get(top.token)
    if handler is not None:
        handler(ctx, top.seat, top.ints[0])


AUTO["civ_income"] = _civ_income


def _slots(key: str) -> tuple[C.Benefit, ...]:
    return C.CIVILIZATIONS[civ_id(key)].slots


def _leaders(ctx: Ctx, seat: int, era: int) -> None:
    ctx.push(Frame(kind="civ_choice", seat=seat, token="leaders"))


def _merrymakers(ctx: Ctx, seat: int, era: int) -> None:
    ctx.push(Frame(kind="civ_choice", seat=seat, token="merrymakers"))


def _entertainers(ctx: Ctx, seat: int, era: int) -> None:
    ctx.push(Frame(kind="civ_choice", seat=seat, token="entertainers"))


def _militants(ctx: Ctx, seat: int, era: int) -> None:
    taken = tokens_of(ctx.state, seat, "militants", (0, 0))
    slots = _slots("militants")
    frames = [
        expr_frame(seat, slots[row * 4 + i], "civ:militants")
        for row in (0, 1)
        for i in range(taken[row])
    ]
    ctx.push(*frames)


def _the_chosen(ctx: Ctx, seat: int, era: int) -> None:
    state = ctx.state
    others = [s for s in range(state.n) if s != seat]
    tracks = 0
    for track in range(len(TRACK_IDS)):
        mine = state.seats[seat].position(track)
        if state.seats[seat].completed[track] or all(
            state.seats[o].position(track) <= mine for o in others
        ):
            tracks += 1
    score(ctx, seat, tracks * len(others), "civ:the_chosen")
    held = len(state.seats[seat].achievements)
    if era >= 5:
        score(ctx, seat, 5 * held, "civ:the_chosen")
    elif held:
        ctx.push(expr_frame(seat, gain("gain_any_resource", held), "civ:the_chosen"))


def _alchemists(ctx: Ctx, seat: int, era: int) -> None:
    set_tokens(ctx, seat, "alchemists", [])
    ctx.push(Frame(kind="alchemy_roll", seat=seat))


def _alchemy_roll(ctx: Ctx, top: Frame) -> None:
    track = roll_science(ctx, top.seat)
    rolls = [track]
    for _ in range(extra_options(ctx.state, top.seat)):  # the Psionics: roll again, choose
        rolls.append(roll_science(ctx, top.seat))
    distinct = list(dict.fromkeys(rolls))
    if len(distinct) > 1:
        ctx.push(Frame(kind="alchemy_pick", seat=top.seat, ints=tuple(distinct)))
        return
    _alchemy_result(ctx, top.seat, track)


def _alchemy_result(ctx: Ctx, seat: int, track: int) -> None:
    marked = tokens_of(ctx.state, seat, "alchemists", ())
    if track in marked:
        set_tokens(ctx, seat, "alchemists", [])
        ctx.push(expr_frame(seat, gain("gain_any_resource"), "civ:alchemists"))
        return
    set_tokens(ctx, seat, "alchemists", [*marked, track])
    ctx.push(Frame(kind="civ_choice", seat=seat, token="alchemists"))


AUTO["alchemy_roll"] = _alchemy_roll


def _alchemy_pick_options(state: TapestryState, top: Frame) -> list[Command]:
    """Keep one of the science rolls (its place among them)."""
    return [Choose(index=i) for i in range(len(top.ints))]


def _alchemy_pick_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    _alchemy_result(ctx, top.seat, top.ints[command.index])


DECISIONS["alchemy_pick"] = (_alchemy_pick_options, _alchemy_pick_answer)

INCOME: dict[str, IncomeHandler] = {
    "alchemists": _alchemists,
    "entertainers": _entertainers,
    "leaders": _leaders,
    "merrymakers": _merrymakers,
    "militants": _militants,
    "the_chosen": _the_chosen,
}


# -- choices on civilization mats ----------------------------------------------------------
def _choice_options(state: TapestryState, top: Frame) -> list[Command]:
    seat, key = top.seat, top.token
    if key == "leaders":
        used = tokens_of(state, seat, key, ())
        return [Choose(index=i) for i in range(len(_slots(key))) if i not in used]
    if key == "merrymakers":
        paths = C.CIVILIZATIONS[civ_id(key)].slot_paths
        at = tokens_of(state, seat, key, (0, 4, 8))
        return [Choose(index=col) for col, slot in enumerate(at) if paths[slot]]
    if key == "entertainers":
        paths = C.CIVILIZATIONS[civ_id(key)].slot_paths
        where = tokens_of(state, seat, key, (0,))[0]
        if top.ints:  # gained mid-game: any space
            return [Choose(index=i) for i in range(1, len(paths))]
        return [Choose(index=i) for i in paths[where]]
    if key == "alchemists":
        return [Choose(index=0), Decline()]
    if key == "militants":
        taken = tokens_of(state, seat, key, (0, 0))
        return [Choose(index=row) for row in (0, 1) if taken[row] < 4]
    return []


def _choice_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    seat, key = top.seat, top.token
    slots = _slots(key)
    if key == "alchemists":
        marked = tokens_of(ctx.state, seat, key, ())
        if isinstance(command, Decline):
            set_tokens(ctx, seat, key, [])
            ctx.push(*(advance_frame(seat, t, OVERFLOW, "civ:alchemists") for t in marked))
        else:  # roll again: the marks stay, a repeated track fails (player aid, Alchimistes)
            ctx.push(Frame(kind="alchemy_roll", seat=seat))
        return
    assert isinstance(command, Choose)
    index = command.index
    if key == "leaders":
        set_tokens(ctx, seat, key, [*tokens_of(ctx.state, seat, key, ()), index])
        ctx.push(expr_frame(seat, slots[index], "civ:leaders"))
    elif key == "merrymakers":
        paths = C.CIVILIZATIONS[civ_id(key)].slot_paths
        at = tokens_of(ctx.state, seat, key, (0, 4, 8))
        at[index] = paths[at[index]][0]
        set_tokens(ctx, seat, key, at)
        ctx.push(expr_frame(seat, slots[at[index]], "civ:merrymakers"))
    elif key == "entertainers":
        set_tokens(ctx, seat, key, [index])
        ctx.push(expr_frame(seat, slots[index], "civ:entertainers"))
    elif key == "militants":
        taken = tokens_of(ctx.state, seat, key, (0, 0))
        taken[index] += 1
        set_tokens(ctx, seat, key, taken)


DECISIONS["civ_choice"] = (_choice_options, _choice_answer)


def after_conquer_outpost(ctx: Ctx, seat: int) -> None:
    """Militants: the outpost just placed comes off the mat, leftmost of a row of choice."""
    if has_civ(ctx.state, seat, "militants"):
        ctx.push(Frame(kind="civ_choice", seat=seat, token="militants"))


# -- civilizations gained during the game --------------------------------------------------
def solo_pool(state: TapestryState, pool: list[int]) -> list[int]:
    """The civilizations of ``pool`` a seat may gain mid-game: in a solo game, the mats out of
    solo games (player aid l.214, l.515-533) are out of the game
    (``automa.json#solo_civilizations_by_solo_flag``): with a box in play from ``tapestry/2``,
    in every solo game from ``tapestry/4``."""
    if state.n == 1 and (state.rules.expansions or state.rules.revision >= 4):
        return [c for c in pool if dealt_solo(c)]
    return pool


def _random_civ(ctx: Ctx, seat: int, count: int, top: Frame) -> None:
    pool = [
        civ_id(k)
        for k in gainable_keys(ctx.state.rules)
        if civ_id(k) not in ctx.state.civs_out and C.CIVILIZATIONS[civ_id(k)].gainable_mid_game
    ]
    pool = solo_pool(ctx.state, pool)
    if not pool:
        return
    drawn = 2 if ctx.state.rules.draw_two_civilizations else 1
    for hook in CIV_DRAWS:
        drawn = max(drawn, hook(ctx.state, seat))
    # "VARIANTES": "piochez-en 2, gardez-en 1 et défaussez l'autre" (the kept one is public
    # once gained; the others go back to the deck, unseen by the others); the Psionics draw
    # one more ("en piochent 3"), with or without the variant (extra_options)
    drawn += extra_options(ctx.state, seat)
    if drawn > 1 and len(pool) > 1:
        offered: list[int] = []
        for _ in range(min(drawn, len(pool))):
            offered.append(ctx.chance.choice([c for c in pool if c not in offered]))
        ctx.emit(ev.CivilizationsOffered(seat=seat, civilizations=tuple(offered)))
        ctx.push(Frame(kind="keep_civilization", seat=seat))
        return
    _gain_civ(ctx, seat, ctx.chance.choice(pool))


#: hooks ``(state, seat) -> count``: how many civilizations ``seat`` draws to keep one when it
#: gains a civilization (the largest answer wins; e.g. the Infiltrators draw 3).
CIV_DRAWS: list[Callable[[TapestryState, int], int]] = []
#: what gaining a civilization during the game adds, by key (``(ctx, seat)``), after
#: ``CivilizationGained`` (e.g. the Advisors' three cards).
ON_GAIN: dict[str, Callable[[Ctx, int], None]] = {}


#: civilizations whose mid-game rule lets the seat give them back and draw another (« you may
#: discard it to draw another »), by key: what keeping one does (``(ctx, seat)``, or ``None``
#: for nothing). Decision :data:`KEEP_GAINED`.
RETURNABLE: dict[str, Callable[[Ctx, int], None] | None] = {}
#: the decision on a civilization of :data:`RETURNABLE` just gained: ``Choose(index=0)``
#: keeps it, ``Choose(index=1)`` gives it back (out of the game) and draws another.
KEEP_GAINED = "keep_gained_civilization"


def _gain_civ(ctx: Ctx, seat: int, civ: int) -> None:
    ctx.emit(ev.CivilizationGained(seat=seat, civilization=civ))
    key = C.CIVILIZATIONS[civ].key
    if key == "entertainers":
        ctx.push(Frame(kind="civ_choice", seat=seat, token="entertainers", ints=(1,)))
    if key in RETURNABLE:
        ctx.push(Frame(kind=KEEP_GAINED, seat=seat, ints=(civ,), source=f"civ:{key}"))
    elif key in ON_GAIN:
        ON_GAIN[key](ctx, seat)


def _keep_gained_options(state: TapestryState, top: Frame) -> list[Command]:
    """Keep the civilization just gained (0) or give it back and draw another (1)."""
    return [Choose(index=0), Choose(index=1)]


def _keep_gained_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    seat, civ = top.seat, top.ints[0]
    key = C.CIVILIZATIONS[civ].key
    if command.index == 1:
        ctx.emit(ev.CivilizationReturned(seat=seat, civilization=civ))
        ctx.push(expr_frame(seat, gain("gain_random_civilization"), f"civ:{key}"))
        return
    kept = RETURNABLE[key]
    if kept is not None:
        kept(ctx, seat)


DECISIONS[KEEP_GAINED] = (_keep_gained_options, _keep_gained_answer)


TOKENS["gain_random_civilization"] = _random_civ


def _keep_civ_options(state: TapestryState, top: Frame) -> list[Command]:
    """``tapestry/2`` variant: keep one of the civilizations drawn (its id)."""
    return [Choose(index=civ) for civ in state.seats[top.seat].civ_offer]


def _keep_civ_answer(ctx: Ctx, top: Frame, command: Command) -> None:
    assert isinstance(command, Choose)
    _gain_civ(ctx, top.seat, command.index)


DECISIONS["keep_civilization"] = (_keep_civ_options, _keep_civ_answer)

__all__ = ["BOX_CIVILIZATIONS", "IMPLEMENTED_CIVILIZATIONS", "dump"]

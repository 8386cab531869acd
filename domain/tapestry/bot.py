"""A Tapestry bot that plays sensibly: a heuristic evaluation and a one-ply lookahead.

:class:`TapestryBot` answers every decision through ``legal_actions`` only, like the
game-agnostic bots of :mod:`domain.bots`:

* for each legal action it decides on a private copy of the state, with a
  :class:`~domain.core.Chance` drawn from **its own seed** (never the game's: the draws and
  rolls it imagines are samples, not the real ones), and folds the events — the same
  :class:`~domain.tapestry.engine.Ctx` path as ``decide``;
* it scores the resulting state with :func:`evaluate` (VP-equivalents for the seat: VP now,
  resources, the income its income mat will still pay, track progress, cards, tiles, tech,
  landmarks, territories, the packing of its capital, and the benefits still waiting on its
  agenda) and keeps the best action; ties are broken by its seed;
* on its turn it advances on the track whose best advance raises the evaluation the most, and
  takes an income turn when no advance is worth clearly more than the resources it costs
  (:data:`INCOME_MARGIN`; resources are worth less as the game nears its end, so the last era
  spends them);
* placements in the capital are scored without deciding, explorations are first ranked by the
  VP of their matching edges, and of the ways to pay an advance only the one leaving the most
  even resources is looked at — so a decision takes about a millisecond (tens at worst).

The weights were tuned by self-play (variants against the current bot over fixed seeds).

Its evaluation reads public information and its own hand only (other hands are counted, not
read). Deterministic: the same seed and the same states give the same choices (no
``random``, no clock).

>>> from domain.core import Chance
>>> from domain.tapestry.game import TapestryGame
>>> game = TapestryGame()
>>> state = game.initial(game.decode_options({}), 2)
>>> for event in game.setup(state, Chance(b"doc", 0)):
...     state = game.evolve(state, event)
>>> bot = TapestryBot(b"seat-0")
>>> type(bot.choose(game, state, 0)).__name__ in ("ChooseCapital", "ChooseCivilization")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from domain.bots import Bot
from domain.core import Chance, Command, Game
from domain.tapestry import capital as cap
from domain.tapestry import civ_collectors as collectors
from domain.tapestry import civ_urban_planners as urban_planners
from domain.tapestry import content as C
from domain.tapestry.bot_values import (
    CARD,
    CIV_PREFERENCE,
    INCOME_MARGIN,
    INCOME_VALUE,
    LANDMARK,
    LOOP_GUARD,
    MAX_ACTIONS,
    MAX_EXPLORATIONS,
    PACKING,
    PENDING_VALUE,
    RESOURCE_VALUE,
    RIVAL,
    SPACE_VALUE,
    TECH,
    TECH_ROW,
    TERRITORY,
    TILE,
    TOKEN_VALUE,
)
from domain.tapestry.civs import BOT_VALUES, has_civ
from domain.tapestry.commands import (
    Advance,
    Choose,
    ChooseCapital,
    ChooseCivilization,
    Explore,
    PlaceBuilding,
    TakeIncome,
)
from domain.tapestry.engine import Ctx, answer_top, run
from domain.tapestry.events import AgendaSet
from domain.tapestry.rules import (
    exploration_vp,
    footprints,
    hex_at,
    load,
    tapestry_count,
    visible_spaces,
)
from domain.tapestry.state import (
    BUILDINGS,
    OVER,
    PLAY,
    RESOURCES,
    SETUP,
    TRACK_IDS,
    SeatState,
    TapestryState,
)


def _era(player: Any) -> int:
    return min(5, max(0, int(player.income_turns)))


def token_value(
    state: TapestryState, seat: int, token: str, count: int, known: Facts | None = None
) -> float:
    """VP-equivalent of gaining ``count`` times the benefit ``token`` now (an estimate)."""
    player = state.seats[seat]
    era = _era(player)
    if token == "vp":
        return float(count)
    name = token.removeprefix("gain_")
    if name in RESOURCES or token == "gain_any_resource":
        return RESOURCE_VALUE[era] * count
    if token.startswith("vp_per_"):
        what = token.removeprefix("vp_per_")
        if what.endswith("_space"):
            track = what.removesuffix("_space")
            per = player.position(TRACK_IDS.index(track)) if track in TRACK_IDS else 1
        elif what in BUILDINGS:
            per = player.taken[BUILDINGS.index(what)]
        elif what == "tech_card":
            per = len(player.tech)
        elif what == "controlled_territory":
            per = (known or facts(state, seat)).territories
        elif what == "tapestry_card":
            per = tapestry_count(player)
        elif what == "territory_tile_in_supply":
            per = len(player.territory)
        else:
            per = 1
        return float(per * count)
    if token == "score_capital":
        return float((known or facts(state, seat)).capital_vp * count)
    if token == "vp_3_per_landmark":
        return 3.0 * len(player.landmarks) * count
    if token.startswith("gain_landmark_"):
        return LANDMARK * 2 * count
    if token.startswith("advance_"):
        return (SPACE_VALUE[era] + (0.0 if "no_benefit" in token else 1.0)) * count
    if token.startswith("regress_"):
        return -SPACE_VALUE[era] * count
    return TOKEN_VALUE.get(token, 1.0) * count


def benefit_value(
    state: TapestryState, seat: int, benefit: C.Benefit, known: Facts | None = None
) -> float:
    """VP-equivalent of resolving a benefit expression (best option of a choice)."""
    if isinstance(benefit, C.Gain):
        return token_value(state, seat, benefit.token, benefit.count, known)
    if isinstance(benefit, C.AllOf | C.AnyOrder):
        return sum(benefit_value(state, seat, item, known) for item in benefit.items)
    if isinstance(benefit, C.OneOf):
        items = benefit.items
        return max((benefit_value(state, seat, item, known) for item in items), default=0.0)
    if isinstance(benefit, C.Exchange):
        cost = len(benefit.pay) * RESOURCE_VALUE[_era(state.seats[seat])]
        return max(0.0, benefit_value(state, seat, benefit.gain, known) - cost)
    return 0.0


def agenda_value(state: TapestryState, seat: int, known: Facts | None = None) -> float:
    """VP-equivalent of what still waits on the agenda for ``seat`` (benefits, bonuses,
    decisions), so that states stopped at different decisions compare fairly."""
    total = 0.0
    known = known or facts(state, seat)
    for frame in state.agenda:
        if frame.seat != seat:
            continue
        if frame.kind == "expr" and frame.expr:
            total += benefit_value(state, seat, load(frame.expr), known)
        elif frame.kind == "bonus" and frame.expr:
            cost = len(frame.options) * RESOURCE_VALUE[_era(state.seats[seat])]
            total += 0.5 * max(0.0, benefit_value(state, seat, load(frame.expr), known) - cost)
        elif frame.kind in ("choose", "order") and frame.options:
            values = [benefit_value(state, seat, load(option), known) for option in frame.options]
            total += max(values) if frame.kind == "choose" else sum(values)
        elif frame.kind == "advance":
            total += SPACE_VALUE[_era(state.seats[seat])] + 1.0
        else:
            total += PENDING_VALUE.get(frame.kind, 0.0)
    return total


@lru_cache(maxsize=256)
def _income_rates(
    shown: tuple[tuple[int, ...], ...],
) -> tuple[float, tuple[tuple[str, int], ...]]:
    """What the visible income-mat spaces (``shown``: per track, the spaces that show) pay per
    collection: resource-like value, VP tokens."""
    value = 0.0
    vp: list[tuple[str, int]] = []
    for track, spaces in zip(C.INCOME_TRACKS, shown, strict=True):
        for space in (track.spaces[i] for i in spaces):
            for item in space.income:
                if not isinstance(item, C.Gain):
                    value += TILE
                elif item.token.removeprefix("gain_") in RESOURCES:
                    value += INCOME_VALUE * item.count
                elif item.token == "gain_tapestry_card":
                    value += CARD * item.count
                else:
                    value += TILE * item.count
            vp.extend((item.token, item.count) for item in space.vp if isinstance(item, C.Gain))
    return value, tuple(vp)


def _shown(player: SeatState) -> tuple[tuple[int, ...], ...]:
    """The spaces of each income track that show (gaps left by the Artificers included)."""
    return tuple(tuple(visible_spaces(player, t.building)) for t in C.INCOME_TRACKS)


_SIDE = range(cap.SIZE)
_ROWS = tuple(sum(1 << (r * cap.SIZE + c) for c in _SIDE) for r in _SIDE)
_COLS = tuple(sum(1 << (r * cap.SIZE + c) for r in _SIDE) for c in _SIDE)
_DISTRICTS = tuple(sum(1 << (r * cap.SIZE + c) for r, c in cap.district_cells(d)) for d in range(9))


@lru_cache(maxsize=512)
def _occupied(blocked: tuple[str, ...], filled: tuple[str, ...]) -> int:
    """The capital's filled or impassable plots as a bit mask (bit ``row * 9 + col``)."""
    mask = 0
    for r in _SIDE:
        for c in _SIDE:
            if blocked[r][c] == cap.IMPASSABLE or filled[r][c] != cap.EMPTY:
                mask |= 1 << (r * cap.SIZE + c)
    return mask


@lru_cache(maxsize=8192)
def capital_terms(mask: int) -> tuple[int, float, int]:
    """For a capital's occupied plots: complete rows + columns (its VP when scored), the
    packing value (convex in the plots filled per district, row and column) and complete
    districts."""
    lines = sum(1 for m in (*_ROWS, *_COLS) if mask & m == m)
    total = 0.0
    for m in _DISTRICTS:
        k = (mask & m).bit_count()
        total += k * k / 9.0
    for m in (*_ROWS, *_COLS):
        k = (mask & m).bit_count()
        total += k * k / 27.0
    districts = sum(1 for m in _DISTRICTS if mask & m == m)
    return lines, PACKING * total, districts


def _mask_of(player: SeatState) -> int:
    if not player.grid_filled or not player.grid_blocked:
        return 0
    return _occupied(tuple(player.grid_blocked), tuple(player.grid_filled))


class Facts(NamedTuple):
    """Counts an evaluation reads several times: territories controlled, the capital's
    complete rows + columns and its packing value."""

    territories: int
    capital_vp: int
    packing: float


def facts(state: TapestryState, seat: int) -> Facts:
    """The :class:`Facts` of ``seat`` now."""
    territories = sum(1 for cell in state.hexes if cell.outposts and cell.controller() == seat)
    lines, packing, _ = capital_terms(_mask_of(state.seats[seat]))
    return Facts(territories, lines, packing)


def seat_value(state: TapestryState, seat: int) -> float:
    """The heuristic worth of ``seat``'s position, in VP-equivalents."""
    player = state.seats[seat]
    if player.finished or state.phase == OVER:
        return float(player.vp)
    known = facts(state, seat)
    era = _era(player)
    value = float(player.vp)
    resources = player.resources
    value += RESOURCE_VALUE[era] * sum(resources) - 0.05 * sum(r * r for r in resources)
    collections = max(0, 4 - era)
    vp_turns = sum(1 for e in range(era + 1, 6) if e >= 2)
    income, vp_tokens = _income_rates(_shown(player))
    value += collections * income
    if vp_turns:
        value += vp_turns * sum(token_value(state, seat, t, n, known) for t, n in vp_tokens)
    value += SPACE_VALUE[era] * sum(player.position(t) for t in range(len(TRACK_IDS)))
    value += CARD * len(player.hand) + TILE * (len(player.territory) + len(player.space))
    value += sum(TECH + TECH_ROW * owned.row for owned in player.tech)
    value += LANDMARK * len(player.landmarks) + TERRITORY * known.territories
    value += known.packing + civ_mat_value(state, seat)
    return value + agenda_value(state, seat, known)


def civ_mat_value(state: TapestryState, seat: int) -> float:
    """The VP a civilization mat will score at the end as it stands now: the Collectors'
    spaces filled (and their rewards), the Urban Planners' largest group of landmarks; then what
    the mats registered in ``civs.BOT_VALUES`` estimate (the Utilitarians'); 0 for other mats."""
    player = state.seats[seat]
    value = 0.0
    if has_civ(state, seat, collectors.KEY):  # with each space's reward (a resource), which
        filled = collectors.filled(state, seat)  # waits as a decision the agenda does not value
        value += collectors.FINAL_VP[filled] + RESOURCE_VALUE[_era(player)] * filled
    if has_civ(state, seat, urban_planners.KEY):
        value += urban_planners.group_vp(urban_planners.largest_group(player))
    for civ_value in BOT_VALUES:  # other mats' own estimates (the Utilitarians' abilities)
        value += civ_value(state, seat)
    return value


def evaluate(state: TapestryState, seat: int) -> float:
    """The bot's score of a state for ``seat``: its worth minus a share of the best rival's VP
    (a won game is worth far more than any lead)."""
    rivals = [s.vp for i, s in enumerate(state.seats) if i != seat]
    best_rival = max(rivals, default=0)
    if state.phase == OVER:
        scores = state.final_scores or [s.vp for s in state.seats]
        mine = scores[seat]
        others = max((v for i, v in enumerate(scores) if i != seat), default=0)
        return 1000.0 * (mine > others) + mine - others
    return seat_value(state, seat) - RIVAL * best_rival


def after(state: TapestryState, seat: int, command: Command, chance: Chance) -> TapestryState:
    """The state after ``seat`` plays ``command`` (a legal action of the decision on top of the
    agenda), decided on a private copy with ``chance`` — as ``decide`` then ``evolve`` would."""
    ctx = Ctx(state, chance)
    answer_top(ctx, command)
    run(ctx)
    if ctx.state.phase != SETUP:
        ctx.emit(AgendaSet(frames=tuple(ctx.state.agenda)))
    return ctx.state


class TapestryBot(Bot):
    """Heuristic one-ply Tapestry player (see the module docstring)."""

    name = "tapestry"

    def __init__(self, seed: bytes, max_actions: int = MAX_ACTIONS) -> None:
        super().__init__(seed)
        self.max_actions = max_actions
        self._turn_key = ""
        self._in_turn = 0

    def choose(self, game: Game[Any], state: Any, seat: int) -> Command:
        """One of ``game.legal_actions(state, seat)``: the best by the evaluation."""
        actions = game.legal_actions(state, seat)
        chance = self._chance()
        if len(actions) == 1:
            return actions[0]
        if state.phase != PLAY:
            return self._setup(actions)
        key = f"{game.turn_key(state)}/{seat}"
        self._in_turn = self._in_turn + 1 if key == self._turn_key else 1
        self._turn_key = key
        if self._in_turn > LOOP_GUARD:
            return chance.choice(actions)
        lookahead = Chance(self.seed + b"/lookahead", self._step)
        top = state.agenda[-1]
        if top.kind == "turn" and not any(isinstance(a, Choose) for a in actions):
            return self._turn(state, seat, actions, chance, lookahead)
        if top.kind == "turn":  # landmarks parked by the Urban Planners: built first
            return min((a for a in actions if isinstance(a, Choose)), key=lambda a: a.index)
        return self._best(state, seat, actions, chance, lookahead)[0]

    @staticmethod
    def _setup(actions: list[Command]) -> Command:
        """Keep the preferred civilization first, then the capital with most buildable plots."""
        civs = [a for a in actions if isinstance(a, ChooseCivilization)]
        if civs:
            keys = {c.id: c.key for c in C.CIVILIZATIONS.values()}

            def rank(action: ChooseCivilization) -> tuple[int, int]:
                key = keys.get(action.civilization, "")
                order = CIV_PREFERENCE.index(key) if key in CIV_PREFERENCE else len(CIV_PREFERENCE)
                return order, action.civilization

            return min(civs, key=rank)
        capitals = [a for a in actions if isinstance(a, ChooseCapital)]

        def open_plots(action: ChooseCapital) -> tuple[int, int]:
            grid = C.CAPITALS[action.capital].grid
            return -sum(row.count(cap.BUILDABLE) for row in grid), action.capital

        return min(capitals, key=open_plots) if capitals else actions[0]

    def _candidates(self, actions: Sequence[Command], chance: Chance) -> Sequence[Command]:
        if len(actions) <= self.max_actions:
            return actions
        return [actions[i] for i in sorted(chance.permutation(len(actions))[: self.max_actions])]

    def _best(
        self,
        state: TapestryState,
        seat: int,
        actions: Sequence[Command],
        chance: Chance,
        lookahead: Chance,
    ) -> tuple[Command, float]:
        """The action with the best evaluation one ply ahead (seeded tie-break).

        Placements in the capital are scored without deciding (their only effects are the
        plots filled and the districts completed); explorations are first ranked by the VP of
        their matching edges and only the best are looked at.
        """
        top = state.agenda[-1]
        if top.kind == "explore":
            actions = _best_explorations(state, actions)
        static = _placements(state, seat, top.token, top.ints) if top.kind == "build" else None
        base = evaluate(state, seat) if static is not None else 0.0
        best: list[Command] = []
        best_value = float("-inf")
        for action in self._candidates(actions, chance):
            gain = static(action) if static is not None else None
            if gain is not None:
                value = base + gain
            else:
                value = evaluate(after(state, seat, action, lookahead), seat)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value >= best_value - 1e-9:
                best.append(action)
        return chance.choice(best), best_value

    def _turn(
        self,
        state: TapestryState,
        seat: int,
        actions: list[Command],
        chance: Chance,
        lookahead: Chance,
    ) -> Command:
        """Advance while an advance is worth its cost; otherwise take an income turn.

        Of the ways to pay one advance, only the one leaving the most balanced resources is
        looked at (the benefit does not depend on the payment)."""
        advances = _cheapest_payments(state.seats[seat].resources, actions)
        income = next((a for a in actions if isinstance(a, TakeIncome)), None)
        if not advances:  # a seat playing on with turns of its own (the Merfolk's cards)
            if income is not None:
                return income
            return self._best(state, seat, actions, chance, lookahead)[0]
        action, value = self._best(state, seat, advances, chance, lookahead)
        if income is None or value > evaluate(state, seat) + INCOME_MARGIN:
            return action
        return income


def _cheapest_payments(resources: list[int], actions: Sequence[Command]) -> list[Command]:
    """One :class:`Advance` per track and token: the payment leaving the resources most even."""
    kept: dict[tuple[str, int], tuple[int, Advance]] = {}
    for action in actions:
        if not isinstance(action, Advance):
            continue
        left = list(resources)
        for unit in action.payment:
            left[RESOURCES.index(unit)] -= 1
        spread = sum(r * r for r in left)
        key = (action.track, action.token)
        if key not in kept or spread < kept[key][0]:
            kept[key] = (spread, action)
    return [action for _, action in kept.values()]


def _best_explorations(state: TapestryState, actions: Sequence[Command]) -> list[Command]:
    """The :data:`MAX_EXPLORATIONS` explorations with the most VP for matching edges (other
    commands of the decision are kept)."""
    scored: list[tuple[int, int, Command]] = []
    others: list[Command] = []
    for order, action in enumerate(actions):
        if isinstance(action, Explore):
            index = hex_at(state, action.q, action.r)
            vp = exploration_vp(state, index, action.tile, action.rotation) if index >= 0 else 0
            scored.append((-vp, order, action))
        else:
            others.append(action)
    scored.sort(key=lambda item: (item[0], item[1]))
    return [action for _, _, action in scored[:MAX_EXPLORATIONS]] + others


def _placements(
    state: TapestryState, seat: int, building: str, ints: tuple[int, ...]
) -> Callable[[Command], float | None]:
    """Score a placement in the capital without deciding: the change of the capital's terms
    (packing, rows and columns it scores in income turns) and a resource per district it
    completes. Anything else (beside the capital, a civilization's mat or the map) returns
    ``None``: it is looked at one ply ahead."""
    player = state.seats[seat]
    mask = _mask_of(player)
    if not player.grid_filled or (
        building == "landmark" and has_civ(state, seat, urban_planners.KEY)
    ):  # the Urban Planners' landmarks: their group is scored one ply ahead
        return lambda action: None
    lines, packing, districts = capital_terms(mask)
    era = _era(player)
    vp_turns = sum(1 for e in range(era + 1, 6) if e >= 2)
    houses = sum(n for t, n in _income_rates(_shown(player))[1] if t == "score_capital")
    shapes = footprints(building, ints[0] if ints else 0)

    def score(action: Command) -> float | None:
        if not isinstance(action, PlaceBuilding) or action.row < -9 or action.col < -9:
            return None
        placed = (action.row, action.col, action.orientation)
        if not 0 <= action.orientation < len(shapes):
            return None
        cells = [c for c in cap.footprint_at(shapes, placed) if cap.on_grid(c)]
        if not cells:
            return None
        after_mask = mask
        for r, c in cells:
            after_mask |= 1 << (r * cap.SIZE + c)
        new_lines, new_packing, new_districts = capital_terms(after_mask)
        return (
            new_packing
            - packing
            + (new_districts - districts) * RESOURCE_VALUE[era]
            + (new_lines - lines) * houses * vp_turns
        )

    return score


__all__ = ["TapestryBot", "after", "capital_terms", "evaluate", "facts", "seat_value"]

"""Bots that play through the API: they only ever send back an action the server listed.

* :class:`RandomApiBot` picks uniformly among the listed actions (seeded
  :class:`domain.core.Chance`, so a seed replays the same choices against the same game).
* :class:`GreedyApiBot` is a *heuristic* one-ply greedy. A real look-ahead needs the game
  state, which a seat may not see (other hands, sealed choices, the secret seed), so it does
  not simulate: it reads each listed action as its domain command and ranks it with a fixed
  table of immediate gains computed from the seat's view (Rise & Fall: building and income
  actions first, then growth and training, moves towards high-VP terrain last; cards whose
  pieces score most; decline the cards with fewest pieces; buy back when the card's pieces
  outweigh its price; Tapestry: :func:`annales_client.tapestry.tapestry_value` — advance
  where the space reached gives most (VP, resources, buildings, a free landmark), take the
  best offered benefit, buy a bonus worth more than its price, build where rows and
  districts are fullest, gain the scarcest resource; income when nothing better). Ties — and
  any game it has no table for — fall back to the seeded random choice, and one choice in
  four (``EXPLORE``) is uniform: a pure greedy stalls Rise & Fall (every seat taxing
  forever, nobody completing a trophy). Deterministic for a seed.

:func:`play_seats` drives one or more seats until the game ends: ListLegalActions → bot →
SubmitAction with ``expected_version`` and an idempotency key; a version conflict (ABORTED:
another seat moved first) just lists again; with nothing to do it waits on the game's stream.
Bots approve undo requests addressed to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import grpc
from annales.v1 import annales_pb2 as pb

from annales_client.client import AnnalesClient, Seat, new_key, next_listing
from annales_client.errors import AnnalesError
from annales_client.games import action_data, game_of_action, view_data
from annales_client.tapestry import tapestry_value
from domain.core.chance import Chance

#: VP per cell of each terrain (sea, plain, forest, mountain, glacier as mountain).
_TERRAIN_VP = (2, 1, 3, 4, 4)
_PIECES = ("nomad", "city", "ship", "mountaineer", "merchant", "temple")
_ACTION_VALUE = {
    "grow": 9,
    "build_city": 8,
    "build_temple": 8,
    "convert": 7,
    "build_ship": 6,
    "train_merchant": 6,
    "train_mountaineer": 6,
    "become_merchant": 5,
    "become_nomad": 4,
    "tax": 4,
    "trade": 4,
    "tithe": 4,
    "sell_wood": 3,
    "sell_stone": 3,
    "produce": 3,
    "buy_wood": 1,
    "buy_stone": 1,
    "move": 1,
}
#: one choice in EXPLORE is uniform among the listed actions (a pure greedy can stall a game).
EXPLORE = 4


class ApiBot(Protocol):
    """A player that chooses one of the listed actions."""

    name: str
    needs_view: bool

    def choose(
        self, listed: pb.ListLegalActionsResponse, view: pb.GetViewResponse | None
    ) -> pb.Action:
        """One of ``listed.actions`` (never empty)."""
        ...


class RandomApiBot:
    """Uniform over the listed actions, seeded.

    >>> listed = pb.ListLegalActionsResponse(actions=[pb.Action(), pb.Action()])
    >>> RandomApiBot(b"s").choose(listed, None) in listed.actions
    True
    """

    name = "random"
    needs_view = False

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self._step = 0

    def _chance(self) -> Chance:
        self._step += 1
        return Chance(self.seed, self._step)

    def choose(
        self, listed: pb.ListLegalActionsResponse, view: pb.GetViewResponse | None
    ) -> pb.Action:
        """A uniformly drawn listed action."""
        return self._chance().choice(list(listed.actions))


class GreedyApiBot(RandomApiBot):
    """Heuristic greedy over the listed actions (see the module docstring); seeded ties."""

    name = "greedy"
    needs_view = True

    def choose(
        self, listed: pb.ListLegalActionsResponse, view: pb.GetViewResponse | None
    ) -> pb.Action:
        """The listed action with the best heuristic value; random among the best."""
        actions = list(listed.actions)
        chance = self._chance()
        valuer = VALUERS.get(game_of_action(actions[0]).name) if actions else None
        if len(actions) == 1 or view is None or valuer is None:
            return chance.choice(actions)
        if chance.below(EXPLORE) == 0:
            return chance.choice(actions)
        data = view_data(view.view)
        values = [valuer(action_data(a), data, view.seat) for a in actions]
        best = max(values)
        return chance.choice([a for a, v in zip(actions, values, strict=True) if v == best])


def _riseandfall_value(command: dict[str, Any], view: dict[str, Any], seat: int) -> float:
    kind = command["type"]
    terrain: list[int] = view.get("world", {}).get("terrain", [])
    me: dict[str, Any] = view["seats"][seat]
    pieces: list[int] = me.get("pieces", [0] * len(_PIECES))

    def terrain_vp(cell: int) -> int:
        value = terrain[cell] if 0 <= cell < len(terrain) else -1
        return _TERRAIN_VP[value] if 0 <= value < len(_TERRAIN_VP) else 0

    def count(card: str) -> int:
        return pieces[_PIECES.index(card)] if card in _PIECES else 0

    if kind == "Activate":
        value = float(_ACTION_VALUE.get(command["action"], 0))
        target = int(command.get("target", -1))
        if command["action"] == "move" and target >= 0:
            value += terrain_vp(target) / 2 - terrain_vp(int(command["cell"])) / 2
        return value
    if kind == "EndActions":
        return 0.0
    if kind == "ChooseCard":
        return float(count(command["card"]))
    if kind == "DeclineCards":
        return -float(sum(count(card) for card in command.get("cards", [])))
    if kind == "BuyBack":
        return count(command["card"]) + 1 - float(view.get("buy_back_price", 0)) / 2
    if kind == "Deploy":
        return float(terrain_vp(int(command["cell"])))
    return 0.0


#: the greedy bot's heuristic per game: (action data, view data, seat) -> expected gain.
VALUERS: dict[str, Callable[[dict[str, Any], dict[str, Any], int], float]] = {
    "riseandfall": _riseandfall_value,
    "tapestry": tapestry_value,
}

BOTS: dict[str, type[RandomApiBot]] = {"random": RandomApiBot, "greedy": GreedyApiBot}


def make_api_bot(kind: str, seed: bytes) -> ApiBot:
    """An API bot by name (``random`` or ``greedy``).

    >>> make_api_bot("greedy", b"s").name
    'greedy'
    """
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; known: {sorted(BOTS)}") from None


@dataclass
class PlayResult:
    """What :func:`play_seats` did."""

    submitted: int = 0
    conflicts: int = 0
    finished: bool = False
    version: int = 0
    per_seat: dict[int, int] = field(default_factory=dict)


Progress = Callable[[int, pb.SubmitActionResponse], None]


def _is_over(response: pb.SubmitActionResponse) -> bool:
    return any(
        e.WhichOneof("payload") == "kernel" and e.kernel.WhichOneof("event") == "seed_revealed"
        for e in response.events
    )


def play_seats(
    client: AnnalesClient,
    bots: Mapping[Seat, ApiBot],
    *,
    on_submit: Progress | None = None,
    max_actions: int | None = None,
    wait_seconds: float = 5.0,
    should_stop: Callable[[], bool] | None = None,
) -> PlayResult:
    """Play ``bots`` for their seats (all of one game) until the game ends.

    Each round of the loop asks every seat for its legal actions and plays one action for
    each seat that has some; when no seat can act it waits for another client's move on the
    game's stream. ``on_submit(seat, response)`` is called after each accepted action.
    Stops after ``max_actions`` submissions, or as soon as ``should_stop()`` is true, when
    given (``PlayResult.finished`` then says whether the game ended).
    """
    if not bots:
        raise ValueError("no seat to play")
    game_ids = {seat.game_id for seat in bots}
    if len(game_ids) != 1:
        raise ValueError("play_seats plays seats of one game")
    game_id = game_ids.pop()
    result = PlayResult(per_seat={seat.seat: 0 for seat in bots})
    version = 0
    #: legal actions a SubmitAction answer already gave (saves a ListLegalActions call)
    ready: dict[int, pb.ListLegalActionsResponse] = {}
    while max_actions is None or result.submitted < max_actions:
        if should_stop is not None and should_stop():
            break
        acted = False
        for seat, bot in bots.items():
            listed = ready.pop(seat.seat, None) or client.list_legal_actions(seat)
            version = max(version, listed.version)
            if listed.undo_answer_expected:
                client.respond_undo(seat, approve=True)
                acted = True
                continue
            if not listed.actions:
                continue
            view = client.get_view(seat) if bot.needs_view else None
            action = bot.choose(listed, view)
            try:
                response = client.submit_action(
                    seat,
                    action,
                    expected_version=listed.version,
                    idempotency_key=new_key(bot.name),
                    include_next_actions=True,
                )
            except AnnalesError as error:
                if error.code == grpc.StatusCode.ABORTED:
                    result.conflicts += 1
                    acted = True
                    continue
                raise
            acted = True
            result.submitted += 1
            result.per_seat[seat.seat] += 1
            version = response.version
            following = next_listing(seat, response)
            if following is not None:
                ready[seat.seat] = following
            if on_submit is not None:
                on_submit(seat.seat, response)
            if _is_over(response):
                result.finished, result.version = True, version
                return result
            if max_actions is not None and result.submitted >= max_actions:
                break
        if acted:
            continue
        summary = client.get_game(game_id).game
        if summary.status == pb.GAME_STATUS_FINISHED:
            result.finished, result.version = True, summary.head_version
            return result
        client.wait_for_change(game_id, summary.head_version, timeout=wait_seconds)
    result.version = version
    return result


def play_seat(client: AnnalesClient, seat: Seat, bot: ApiBot, **kwargs: Any) -> PlayResult:
    """Play one seat with ``bot`` until the game ends (see :func:`play_seats`)."""
    return play_seats(client, {seat: bot}, **kwargs)

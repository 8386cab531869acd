"""Whole games driven only through ``legal_actions`` and the kernel's ``Match``.

* random-bot games for 2, 3 and 4 players finish, and folding the stored log again
  (``replay_events``) rebuilds an equal state;
* ``legal_actions`` is sound (every listed command is accepted) and complete on sampled
  states (commands built from neighbouring values, other cells and other pieces are refused
  when they are not listed);
* a game where the seats build the world ("Création du Monde") reaches the deployment.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import pytest

from domain.core import (
    Chance,
    Command,
    GameCreated,
    Match,
    RuleViolation,
    StoredEvent,
    replay_events,
    seed_commitment,
)
from domain.riseandfall.actions import ALL_ACTIONS
from domain.riseandfall.commands import (
    Activate,
    BuyBack,
    ChooseCard,
    DeclineCards,
    Deploy,
    EndActions,
    SkipBuyBack,
)
from domain.riseandfall.content import PIECES
from domain.riseandfall.state import RiseFallState
from domain.riseandfall.world import GRID, geometry
from tests.riseandfall.helpers import GAME


class Table:
    """A match with its stored log, as the service keeps it."""

    def __init__(self, seats: int, seed: bytes, options: dict[str, Any] | None = None) -> None:
        self.seed = seed
        self.options = options or {}
        self.match = Match(GAME, GAME.initial(GAME.decode_options(self.options), seats))
        self.log: list[StoredEvent] = []
        header = GameCreated(
            game_type="riseandfall",
            ruleset=GAME.ruleset_version,
            options=self.options,
            seat_names=tuple(f"s{i}" for i in range(seats)),
            seed_commitment=seed_commitment(seed),
        )
        self._record("setup", [header])
        self._record("setup", GAME.setup(self.match.state, Chance(seed, 1)))
        self.count = 0

    def _record(self, command_id: str, events: list[Any]) -> None:
        for event in events:
            seq = self.match.version + 1
            self.match.apply(event, seq=seq, command_id=command_id, seat=-1, state_at=self._no_undo)
            self.log.append(StoredEvent(seq, command_id, -1, event))

    @staticmethod
    def _no_undo(version: int) -> Any:
        raise AssertionError("no undo in these games")

    def play(self, seat: int, command: Command) -> None:
        self.count += 1
        before = self.match.version
        cid = f"c{self.count}"
        events = self.match.execute(seat, command, cid, self.seed, self._no_undo)
        for offset, event in enumerate(events):
            self.log.append(StoredEvent(before + offset + 1, cid, seat, event))

    @property
    def state(self) -> RiseFallState:
        return self.match.state  # type: ignore[no-any-return]


def bot_pick(chance: Chance, commands: list[Command]) -> Command:
    """A random bot that prefers doing something over ending its turn."""
    busy = [c for c in commands if not isinstance(c, EndActions | SkipBuyBack)]
    if busy and chance.below(10) < 8:
        building = [c for c in busy if isinstance(c, Activate) and c.action != "move"]
        if building and chance.below(3) < 2:
            return chance.choice(building)
        return chance.choice(busy)
    return chance.choice(commands)


def neighbours_of_command(state: RiseFallState, seat: int, command: Command) -> list[Command]:
    """Commands close to ``command``: nearby cells and targets, other actions and pieces."""
    out: list[Command] = []
    if isinstance(command, Activate):
        for delta in (-1, 1, -GRID, GRID, 2, -2 * GRID):
            out.append(
                Activate(cell=command.cell, action=command.action, target=command.target + delta)
            )
            out.append(
                Activate(cell=command.cell + delta, action=command.action, target=command.target)
            )
        for action in sorted(ALL_ACTIONS):
            out.append(Activate(cell=command.cell, action=action, target=command.target))  # type: ignore[arg-type]
            out.append(Activate(cell=command.cell, action=action, target=-1))  # type: ignore[arg-type]
    elif isinstance(command, Deploy):
        for piece in PIECES:
            for delta in (0, -1, 1, -GRID, GRID):
                out.append(Deploy(piece=piece, cell=command.cell + delta))
    return out


def family(state: RiseFallState, seat: int) -> list[Command]:
    """Commands of every kind for ``seat``, regardless of the phase."""
    out: list[Command] = [EndActions(), SkipBuyBack()]
    out += [ChooseCard(card=p) for p in PIECES] + [BuyBack(card=p) for p in PIECES]
    out += [DeclineCards(cards=(p,)) for p in PIECES]
    out += [DeclineCards(cards=pair) for pair in permutations(PIECES[:4], 2)]
    cells = [c for c in range(len(state.owner)) if state.owner[c] == seat or state.rider[c] == seat]
    geo = geometry(state.world)
    for cell in cells[:4]:
        for action in ("move", "produce", "build_city", "convert", "trade", "tax", "sell_wood"):
            for target in (-1, *geo.neighbours_of(cell)[:2]):
                out.append(Activate(cell=cell, action=action, target=target))
    out += [Deploy(piece="ship", cell=c) for c in geo.cells[:3]]
    return out


def check_legal(state: RiseFallState, seat: int, legal: list[Command]) -> None:
    """Sound: each listed command is accepted; complete: close unlisted ones are refused."""
    chance = Chance(b"check", 0)
    for command in legal[:40]:
        GAME.decide(state, seat, command, chance)
    listed = set(legal)
    probes = [p for c in legal[:25] for p in neighbours_of_command(state, seat, c)]
    probes += family(state, seat)
    for probe in probes:
        if probe in listed:
            continue
        with pytest.raises(RuleViolation):
            GAME.decide(state, seat, probe, chance)
    for other in range(state.n):
        if other != seat and not GAME.legal_actions(state, other):
            for probe in family(state, other)[:30]:
                with pytest.raises(RuleViolation):
                    GAME.decide(state, other, probe, chance)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_finish_and_replay(seats: int) -> None:
    """Tour de jeu to Décompte: a whole game for 2, 3 and 4 players, checked all along."""
    seed = f"smoke-{seats}".encode()
    table = Table(seats, seed)
    bot = Chance(seed + b"/bot", 0)
    step = 0
    while not GAME.is_over(table.state):
        pending = GAME.pending(table.state)
        assert pending.seats, pending
        seat = pending.seats[bot.below(len(pending.seats))]
        legal = GAME.legal_actions(table.state, seat)
        assert legal, (pending, table.state.phase)
        if step % 9 == 0:
            check_legal(table.state, seat, legal)
        table.play(seat, bot_pick(bot, legal))
        step += 1
        assert step < 6000, "the game should end"
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.winners
    assert outcome.scores == GAME.scores(table.state)
    assert table.match.kernel.seed == seed.hex()
    rebuilt = replay_events(GAME, table.log)
    assert GAME.encode_state(rebuilt.state) == GAME.encode_state(table.state)


def test_players_build_the_world() -> None:
    """Création du Monde (option world="players"): tiles placed in turn, then deployment."""
    table = Table(2, b"players-world", {"world": "players"})
    bot = Chance(b"players-bot", 0)
    assert GAME.pending(table.state).decision == "place_tile"
    placed = 0
    while table.state.phase == "world":
        seat = GAME.pending(table.state).seats[0]
        legal = GAME.legal_actions(table.state, seat)
        if placed % 10 == 0:
            check_legal(table.state, seat, legal[:5])
            other = 1 - seat
            assert GAME.legal_actions(table.state, other) == []
            with pytest.raises(RuleViolation):
                GAME.decide(table.state, other, legal[0], Chance(b"x", 0))
        table.play(seat, bot.choice(legal))
        placed += 1
    assert table.state.phase == "deploy"
    view = GAME.view(table.state, 0)
    assert view.next_tile is None and len(view.world.tiles) == len(table.state.world.tiles)


def test_stalemate_ends_the_game() -> None:
    """Assumed rule "stalemate" (content/decisions.json): seed 10385 with 3 random seats used
    to loop forever (each seat left with one card whose pieces cannot progress); the game now
    ends after 100 rounds in a row without a trophy, scored normally."""
    from tests.harness import random_game

    table = random_game("riseandfall", 3, 10_385, ruleset="riseandfall/1")
    state = table.match.state
    assert table.game.is_over(state)
    last = table.decode(table.envelopes[-2])
    assert type(last).__name__ == "GameEnded" and last.reason == "stalemate"  # type: ignore[attr-defined]
    assert state.quiet_rounds >= 99

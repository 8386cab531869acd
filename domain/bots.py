"""Game-agnostic bots that play through ``legal_actions`` only — deterministic given a seed.

* :class:`RandomBot` picks uniformly among the legal actions;
* :class:`GreedyBot` looks one ply ahead: it applies each legal action to a copy of the state
  (with its own private randomness, never the game's secret seed) and keeps the one that
  maximises its score lead (own score minus the best other score); ties are broken by its seed.
  For a game with a bot of its own (:data:`GAME_BOTS`, e.g. Tapestry) it hands the decision to
  that bot, built with the same seed.

``make_bot`` also builds a game's own bot by the game's name (``make_bot("tapestry", seed)``).

>>> bot = RandomBot(seed=b"bot")
>>> bot.name
'random'
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any

from domain.core.chance import Chance
from domain.core.game import Command, Game


class Bot(ABC):
    """A player that picks one of the legal actions for a seat."""

    name = "bot"

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self._step = 0

    def _chance(self) -> Chance:
        self._step += 1
        return Chance(self.seed, self._step)

    @abstractmethod
    def choose(self, game: Game[Any], state: Any, seat: int) -> Command:
        """One of ``game.legal_actions(state, seat)`` (which must not be empty)."""


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, game: Game[Any], state: Any, seat: int) -> Command:
        """A uniformly drawn legal action."""
        actions = game.legal_actions(state, seat)
        return self._chance().choice(actions)


#: games with a bot of their own: game name -> ``"module:Class"`` (imported when first used, so
#: that this module stays free of any game's code).
GAME_BOTS: dict[str, str] = {"tapestry": "domain.tapestry.bot:TapestryBot"}


def game_bot(game: str, seed: bytes) -> Bot | None:
    """The bot of its own that ``game`` provides (``None`` when it has none).

    >>> game_bot("riseandfall", b"s") is None
    True
    """
    where = GAME_BOTS.get(game)
    if where is None:
        return None
    module, _, cls = where.partition(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(seed)
    return bot


class GreedyBot(Bot):
    """One-ply search on ``game.scores``: maximise own score minus the best other score.

    A game listed in :data:`GAME_BOTS` gets its own bot instead (same seed).
    """

    name = "greedy"

    def __init__(self, seed: bytes, max_actions: int = 400) -> None:
        super().__init__(seed)
        self.max_actions = max_actions
        self._delegates: dict[str, Bot | None] = {}

    def choose(self, game: Game[Any], state: Any, seat: int) -> Command:
        """The legal action with the best score lead after it (seeded tie-break)."""
        if game.name not in self._delegates:
            self._delegates[game.name] = game_bot(game.name, self.seed)
        delegate = self._delegates[game.name]
        if delegate is not None:
            return delegate.choose(game, state, seat)
        chance = self._chance()
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        candidates = actions
        if len(actions) > self.max_actions:
            candidates = [actions[i] for i in chance.permutation(len(actions))[: self.max_actions]]
        best: list[Command] = []
        best_value: int | None = None
        lookahead = Chance(self.seed + b"/lookahead", self._step)
        for action in candidates:
            trial = game.copy_state(state)
            for event in game.decide(trial, seat, action, lookahead):
                trial = game.evolve(trial, event)
            scores = game.scores(trial)
            others = [s for i, s in enumerate(scores) if i != seat]
            value = scores[seat] - (max(others) if others else 0)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return chance.choice(best)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(kind: str, seed: bytes) -> Bot:
    """A bot by name: ``random``, ``greedy`` or a game's own bot (``tapestry``).

    >>> make_bot("greedy", b"s").name
    'greedy'
    >>> make_bot("tapestry", b"s").name
    'tapestry'
    """
    if kind in BOTS:
        return BOTS[kind](seed)
    bot = game_bot(kind, seed)
    if bot is None:
        known = sorted([*BOTS, *GAME_BOTS])
        raise ValueError(f"unknown bot {kind!r}; known: {known}")
    return bot

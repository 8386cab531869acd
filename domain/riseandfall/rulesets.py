"""What differs between the Rise & Fall rulesets, as data carried by the game state.

* ``riseandfall/1`` — the square world; at most 2 plains moved to lay a plain (beyond, the
  plain is set aside); the buy-back price follows the number of decline phases so far.
* ``riseandfall/2`` — the hexagonal world (:mod:`domain.riseandfall.hexgrid`); "TOUTES les
  tuiles de Plaine doivent être posées": the minimum number of plains to move is searched
  exactly, with no limit; the buy-back price "dépend du nombre des Trophées déjà obtenus" (rule
  "D - Rachat d'une carte en Déclin"); the rulebook's "VARIANTE : DÉCOMPTE RAPIDE" may be
  chosen (option ``scoring="quick"``).

The rules code reads these parameters from ``state.rules``; the geometry comes from the
world's grid (``state.world.grid``), never from tests on the ruleset's name.

>>> RULES_1.grid, RULES_2.grid, RULES_2.max_moves is None
('square', 'hex', True)
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec


class RiseFallRules(msgspec.Struct, frozen=True, kw_only=True):
    """The rule parameters of a ruleset (stored in the state at creation).

    Attributes:
        ruleset: the ruleset's name.
        grid: the geometry of the world's cells (``"square"`` or ``"hex"``).
        max_moves: the most plains moved to lay one plain; ``None``: no limit (exact search).
        buy_back_by: what the buy-back price follows: ``"declines"`` (decline phases so far,
            ``riseandfall/1``) or ``"trophies"`` (trophies won so far, ``riseandfall/2``).
        quick_scoring: the "VARIANTE : DÉCOMPTE RAPIDE" was chosen at creation.
    """

    ruleset: str = "riseandfall/1"
    grid: str = "square"
    max_moves: int | None = 2
    buy_back_by: Literal["declines", "trophies"] = "declines"
    quick_scoring: bool = False


RULES_1 = RiseFallRules()
RULES_2 = RiseFallRules(ruleset="riseandfall/2", grid="hex", max_moves=None, buy_back_by="trophies")


class RiseFallOptions2(msgspec.Struct, frozen=True, kw_only=True):
    """Options of a ``riseandfall/2`` game (those of ``riseandfall/1`` plus ``scoring``).

    Attributes:
        world: ``"random"`` (built from the seed) or ``"players"`` (the seats build it).
        trophies: trophies needed to end the game: 4, 5 or 6 ("Durée de la partie").
        scoring: ``"full"`` (the score sheet) or ``"quick"`` ("VARIANTE : DÉCOMPTE RAPIDE":
            half the coins, rounded down, go back to the box before counting, so the economy
            scores the other half coin for coin instead of 1 VP per 2 coins).
    """

    world: Literal["random", "players"] = "random"
    trophies: Annotated[int, msgspec.Meta(ge=4, le=6)] = 4
    scoring: Literal["full", "quick"] = "full"

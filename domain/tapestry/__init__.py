"""Tapestry (base game, 2-5 players) as a pure decider.

Modules: ``content`` (data, CONTENT helper), ``capital`` and ``hexmap`` (geometry, GEOMETRY
helper); the engine: ``state``, ``commands``, ``events``, ``evolve`` (fold), ``rules`` (pure
helpers), ``engine`` (agenda loop and benefit interpreter), ``gains``, ``tracks``, ``mapping``,
``tech``, ``scoring``, ``turns``, ``cards`` (tapestry cards), ``civs`` (civilizations),
``setup``, ``view`` and ``game`` (:class:`~domain.tapestry.game.TapestryGame`).
"""

from domain.tapestry import handlers as _handlers  # noqa: F401  (one order for every program)

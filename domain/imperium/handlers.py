"""Every module that registers Imperium handlers, imported once, in one fixed order.

The engine's tables (frame kinds, decisions, step handlers, pick actions, reactions, the
collapse hook, the nations' special rules) are filled by the modules that define the
handlers. So that no program finds a table half filled whichever module it imports first, the
package imports this module before any of its own (``__init__``), and it imports the
registering modules below: the multiplayer rules, the nations, then the solo mode's frames.
"""

from __future__ import annotations

from domain.imperium import (  # noqa: F401
    ending,
    journey,
    market,
    masks,
    nations,
    ops,
    picks,
    piles,
    quests,
    reactions,
    scoring,
    special,
    steps,
    turns,
)
from domain.imperium.civ import hooks  # noqa: F401

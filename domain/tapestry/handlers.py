"""Every module that registers Tapestry handlers, imported once, in one fixed order.

The engine's tables (frame kinds, tokens, decisions, ``AFTER_EMIT`` hooks, card effects) are
filled by the modules that define the handlers, and a module that wraps another's handler
must be imported after it. The order of the hooks is part of the rules (two hooks answering
the same event emit in that order), so it must not depend on which module a program happens
to import first: the package imports this module before any of its own (``__init__``), and
it imports the registering modules in the order below — the base box's cards and
civilizations, then the expansion boxes, then the solo mode's hooks.
"""

from __future__ import annotations

from domain.tapestry import (  # noqa: F401
    cards,
    cards_era,
    cards_played,
    civ_architects,
    civ_artificers,
    civ_celestials,
    civ_collectors,
    civ_craftsmen,
    civ_elder_ones,
    civ_faefolk,
    civ_gamblers,
    civ_genies,
    civ_heralds,
    civ_historians,
    civ_illuminati,
    civ_inventors,
    civ_isolationists,
    civ_merfolk,
    civ_militants,
    civ_mystics,
    civ_nomads,
    civ_psionics,
    civ_relentless,
    civ_renegades,
    civ_traders,
    civ_urban_planners,
    civ_weefolk,
    civ_werefolk,
    civs,
    gains,
    mapping,
    offers,
    scoring,
    setup,
    tech,
    tracks,
    turns,
)
from domain.tapestry.expansions import (  # noqa: F401
    civ_advisors,
    civ_aliens,
    civ_infiltrators,
    civ_islanders,
    civ_recyclers,
    civ_riverfolk,
    civ_spies,
    civ_tinkerers,
    civ_treasure_hunters,
    civ_utilitarians,
    inventory,
)
from domain.tapestry.solo import hooks  # noqa: F401

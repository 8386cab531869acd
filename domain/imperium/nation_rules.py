"""Nation special rules that the effect notation cannot express: a small hook registry.

Each nation with such rules has a module ``domain/imperium/nations/<key>.py`` defining a
:class:`NationRules` subclass and registering one instance in :data:`RULES` under the nation
key. The engine calls each hook from exactly one place through :func:`rules_for`; a nation
without a module gets the base class, whose hooks are no-ops (the general rules apply).

Hooks receive the engine context (``Ctx``) or the state; they may emit events and push frames
like any step handler, and must stay deterministic (no ``random``, no clock, no ``hash()``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domain.imperium.engine import Ctx
    from domain.imperium.state import ImperiumState


class NationRules:
    """The general rules: every hook keeps the rulebook's default behaviour."""

    #: exhaust tokens placed on the state card at setup and at each cleanup ("Nettoyage").
    exhaust_tokens: int = 5
    #: whether the nation keeps a submerged pile ("Submergée": the Atlanteans); for any other
    #: nation, cards it would submerge are discarded instead ("Engloutissez").
    submerges: bool = False

    def setup(self, ctx: Ctx, seat: int) -> None:
        """Extra setup events for ``seat``, after its ``SeatPrepared`` event."""

    def may_develop(self, state: ImperiumState, seat: int) -> bool:
        """Whether ``seat`` may develop cards at all ("Développer")."""
        return True

    def movable(self, state: ImperiumState, seat: int, card: str) -> bool:
        """Whether an effect may move ``card`` of ``seat`` (abandon, recall, exile...)."""
        return True

    def solstice_cards(self, state: ImperiumState, seat: int, cards: list[str]) -> list[str]:
        """The cards whose Solstice effect ``seat`` resolves this round (``cards``: those of
        its play area with a Solstice block whose condition holds)."""
        return cards


#: nation key -> its special rules (filled by the ``domain.imperium.nations`` modules).
RULES: dict[str, NationRules] = {}
_DEFAULT = NationRules()


def rules_for(nation: str) -> NationRules:
    """The special rules of ``nation`` (the base class when it has none)."""
    return RULES.get(nation, _DEFAULT)

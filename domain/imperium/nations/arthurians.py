"""Arthurians ("Nations : Arthuriens", "Les Arthuriens et leurs quêtes", "Mise en place",
"Mélanger votre deck", "Empire", "Développer", "Fin de partie").

* No empire: the state card is never turned over (the accession slot holds a nadir card:
  :func:`domain.imperium.ops.take_nation_top` puts Gwaith Camlan straight into play; a
  ``flip_state_card`` step does nothing: :mod:`domain.imperium.journey`).
* No development: the development area holds the impending quests; the develop keyword can
  never be used (:meth:`Arthurians.may_develop`), so moving the last quest out never ends the
  game ("Fin de partie", 2).
* One active quest at a time, garrisoned under King Arthur's Court by its Solstice effect
  (``no_active_quest`` condition, :func:`domain.imperium.cards.active_quest`); the Graal may
  not become the active quest while other quests wait (:meth:`Arthurians.movable`).
* Morgan (Morigena) sends the active quest to the discard pile, Myrddin Wyllt to the hand
  (``move``/``recover`` with the ``active_quest`` zone); the card is then no longer active.
* Gwaith Camlan can be neither abandoned nor recalled (its static rule).
* Playing the Graal ends the game (its ``trigger_game_end`` step; "Fin de partie", 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.imperium import cards as K
from domain.imperium.nation_rules import RULES, NationRules

if TYPE_CHECKING:
    from domain.imperium.state import ImperiumState


def _rule(card: str, name: str) -> object:
    """The value of static rule ``name`` on ``card`` (``None`` when absent)."""
    for rule in K.static_rules(card):
        if rule == name:
            return True
        value = getattr(rule, name, None)
        if value is not None:
            return value
    return None


class Arthurians(NationRules):
    """The Arthurians' quests and their nadir card."""

    def may_develop(self, state: ImperiumState, seat: int) -> bool:
        """Never: "vous ne pouvez pas constituer un empire et développer de cartes"."""
        return False

    def movable(self, state: ImperiumState, seat: int, card: str) -> bool:
        """Gwaith Camlan never leaves play; the Graal stays an impending quest while other
        quests wait ("Le Graal ne peut pas être une quête active tant qu'il y a d'autres
        quêtes en attente")."""
        if _rule(card, "cannot_be_abandoned_or_recalled"):
            return False
        owner = state.seats[seat]
        last_only = _rule(card, "quest_restriction") == "only_when_last_impending_quest"
        return not (last_only and card in owner.dev and len(owner.dev) > 1)


RULES["arthurians"] = Arthurians()

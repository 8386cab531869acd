"""Atlanteans ("Nations : Atlantes", "Mots-clefs : Engloutissez, Submergée").

* They start as an empire (the state card on its Empire side: "Mise en place des joueurs"),
  so their barbarian cards can never be played; the content has no accession card and no
  nation deck.
* Instead of a history they keep a submerged pile under the power card (``SeatState
  .submerged``): submerged cards are out of play, nobody interacts with them, they still
  score, and only their owner may look at them. A card sent to the history is discarded
  instead (the power card's ``redirect`` passive); a card scoring in the history scores
  nothing when submerged (it is not in the history).
* ``submerge`` ("Engloutissez") puts cards into that pile; triggered by any other nation it
  discards them instead (:func:`domain.imperium.picks` action ``submerge``).
"""

from __future__ import annotations

from domain.imperium.nation_rules import RULES, NationRules


class Atlanteans(NationRules):
    """The Atlanteans keep a submerged pile."""

    submerges = True


RULES["atlanteans"] = Atlanteans()

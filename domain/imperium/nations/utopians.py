"""Utopians ("Nations : Utopiens", "Les Utopiens et leur voyage", "Mise en place").

* 3 exhaust tokens instead of 5, at setup and at every cleanup ("Mise en place générale",
  "Nettoyage").
* The journey stack: Visions of Shangri-La (UTO2A) lies on Gates of Shangri-La (UTO3A) under
  the power card; only the visible face of the top card is in play (UTO3A waits in the
  ``journey`` zone). Turning over and replacing are card steps (:mod:`domain.imperium.journey`).
* No nation deck, no accession card, no development area: the content has none, so the
  reshuffle procedure skips its step 1 ("Mélanger votre deck").
* The power card's passive fires whenever the deck runs out, even without a reshuffle
  (``deck_empty``: :func:`domain.imperium.ops.deck_emptied`).
* Shangri-La ends the game when its Solstice effect is resolved with at least 24 population
  (a card condition; "Fin de partie", 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.imperium import events as ev
from domain.imperium.nation_rules import RULES, NationRules

if TYPE_CHECKING:
    from domain.imperium.engine import Ctx
    from domain.imperium.state import ImperiumState

#: the journey cards below the top one at setup (the top card, UTO2A, starts in play).
JOURNEY_BELOW = ("UTO3A",)
#: every face of the journey cards.
JOURNEY_CARDS = frozenset({"UTO2A", "UTO2B", "UTO3A", "UTO3B"})


class Utopians(NationRules):
    """The Utopians' setup and clean-up rules."""

    exhaust_tokens = 3

    def setup(self, ctx: Ctx, seat: int) -> None:
        """Put Gates of Shangri-La under Visions of Shangri-La (only the top card is in play)."""
        for card in JOURNEY_BELOW:
            if card in ctx.state.seats[seat].play:
                ctx.emit(ev.CardMoved(seat=seat, card=card, src=f"{seat}:play",
                                      dst=f"{seat}:journey"))  # fmt: skip

    def movable(self, state: ImperiumState, seat: int, card: str) -> bool:
        """A journey card leaves play only through its own Solstice effect ("Une carte
        Voyage ne peut être retirée du jeu qu'en utilisant son mot-clef Solstice")."""
        return card not in JOURNEY_CARDS


RULES["utopians"] = Utopians()

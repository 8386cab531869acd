"""The deck change offered after a won campaign game (pure).

« Choisissez une carte, non Renommée, de votre Histoire, de votre deck, de votre défausse ou de
votre main que vous avez gagnée au cours de la partie [...] ou » remove a card of the starting
deck (MODE CAMPAGNE, « Si vous gagnez une partie en mode campagne »). The candidates:

* to add: the cards in the human's History, deck, discard and hand that did not come with its
  nation (starting deck, nation deck, accession card, developments, cards in play at setup,
  power card), are not fame cards and were not added by an earlier win. After a game of
  ``imperium/5`` the play area, which the rule does not list, is not searched, and the
  Atlanteans' submerged pile is, as their History (« Au lieu d'une pile Histoire, les
  Atlantes ont une pile Submersion »); after a game of an earlier ruleset the play area is
  and the submerged pile is not. Unrest cards are not offered (**assumed**: an unrest card is
  taken, « récupérée », not gained, and the Maître suprême mode manages the unrest cards
  itself);
* to remove: the starting deck of that game (the nation's, less the cards removed, plus the
  cards added by earlier wins; from ``imperium/5`` less those of them removed since, which
  may then be gained and added again).
"""

from __future__ import annotations

from domain.campaign.engine import CampaignState
from domain.imperium import content as C
from domain.imperium.state import SeatState


def deck_change_candidates(
    state: CampaignState, human: SeatState, revision: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(gained, starting)`` for the human seat ``human`` of the campaign's finished game,
    played under rules revision ``revision``: the cards it may add (sorted) and the
    starting-deck cards it may remove (sorted)."""
    nation = C.NATIONS[state.info.nation]
    added = list(state.deck_added)
    if revision >= 5:  # a card added, then removed, left the deck (civ.setup.campaign_added)
        added = [c for c in added if c not in state.deck_removed]
    starting = [c for c in nation.starting_deck if c not in state.deck_removed] + added
    own = set(nation.starting_deck) | set(nation.nation_deck) | set(nation.accession)
    own |= set(nation.development) | set(nation.in_play) | {f.id for f in nation.power}
    held = [*human.history, *human.deck, *human.deck_top, *human.discard, *human.hand]
    if revision < 5:
        held += human.play
    else:  # the Atlanteans' submerged pile is their History (rulings.py, collapse count)
        held += human.submerged
    gained = sorted(
        {
            c
            for c in held
            if c not in own and c not in added and not {"fame", "unrest"} & set(C.CARDS[c].suits)
        }
    )
    return tuple(gained), tuple(sorted(set(starting)))

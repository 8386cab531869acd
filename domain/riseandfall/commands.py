"""Rise & Fall commands: what a seat can send.

One command answers one decision point (see ``RiseAndFall.pending``):

* :class:`PlaceTile` — build the world (option ``world="players"``, "Création du Monde");
* :class:`Deploy` — place one starting piece ("Déploiement initial");
* :class:`ChooseCard` — A: the sealed card choice;
* :class:`Activate` — B: activate one piece of the played type: ``cell`` names the piece,
  ``action`` the action of its card, ``target`` the cell it acts on (``-1`` for actions
  without a target);
* :class:`EndActions` — B: end one's actions (required, even with nothing left to do);
* :class:`DeclineCards` — C: the sealed cards put in decline;
* :class:`BuyBack` / :class:`SkipBuyBack` — D: buy one card back, or not.

Actions per piece type (``action`` values, "Explication détaillée des cartes"):

==============  ==================================================================
nomad           move (target), produce, build_city, build_temple, build_ship (target)
city            grow (target), train_merchant (target), train_mountaineer (target), tax
ship            move (target), build_city (target), build_temple (target),
                become_nomad (target), become_merchant (target), trade
temple          convert (target), tithe
mountaineer     move (target), produce, build_city
merchant        move (target), trade, sell_wood, sell_stone, buy_wood, buy_stone,
                build_ship (target)
==============  ==================================================================
"""

from __future__ import annotations

from typing import Literal

from domain.core import Command
from domain.riseandfall.content import PieceName
from domain.riseandfall.worldbuild import TilePlacement

ActionName = Literal[
    "move",
    "produce",
    "build_city",
    "build_temple",
    "build_ship",
    "grow",
    "train_merchant",
    "train_mountaineer",
    "tax",
    "become_nomad",
    "become_merchant",
    "trade",
    "convert",
    "tithe",
    "sell_wood",
    "sell_stone",
    "buy_wood",
    "buy_stone",
]


class PlaceTile(Command, frozen=True, kw_only=True):
    """Place the next terrain tile of the supply ("Création du Monde")."""

    placement: TilePlacement


class Deploy(Command, frozen=True, kw_only=True):
    """Place one of one's starting pieces on ``cell`` ("Déploiement initial")."""

    piece: PieceName
    cell: int


class ChooseCard(Command, frozen=True, kw_only=True):
    """A: play ``card`` from one's hand, face down (sealed until everyone has chosen)."""

    card: PieceName


class Activate(Command, frozen=True, kw_only=True):
    """B: activate the piece on ``cell`` (of the type of the card played) for ``action``."""

    cell: int
    action: ActionName
    target: int = -1


class EndActions(Command, frozen=True, kw_only=True):
    """B: end one's actions for this round."""


class DeclineCards(Command, frozen=True, kw_only=True):
    """C: put ``cards`` (from hand or discard, in card order) in decline, face down."""

    cards: tuple[PieceName, ...]


class BuyBack(Command, frozen=True, kw_only=True):
    """D: buy ``card`` back from the decline zone at the current price."""

    card: PieceName


class SkipBuyBack(Command, frozen=True, kw_only=True):
    """D: buy nothing back this round."""


RiseFallCommand = (
    PlaceTile | Deploy | ChooseCard | Activate | EndActions | DeclineCards | BuyBack | SkipBuyBack
)

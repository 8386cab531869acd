"""Tapestry commands: what a seat can send. Each answers the decision on top of the agenda.

* setup: :class:`ChooseCivilization`, :class:`ChooseCapital`;
* a turn: :class:`TakeIncome` or :class:`Advance` ("Déroulement du jeu");
* benefits: :class:`Choose` (one of several options, an order, yes/no, a die, a track...),
  :class:`ChooseResource`, :class:`PayBonus` / :class:`Decline`, :class:`PlaceBuilding`,
  :class:`Explore`, :class:`ExploreSpace`, :class:`Conquer`, :class:`PlayTrap`,
  :class:`Invent`, :class:`Upgrade`, :class:`PlayTapestry`, :class:`ChooseTech`.

``payment`` lists the resources paid for the "any resource" units of a cost, sorted in
``RESOURCES`` order (coin, worker, food, culture); fixed units are paid automatically.
``discard`` lists the card or tile ids given up for cost units such as "discard 2 territory
tiles", ascending. Every accepted command is listed by ``legal_actions``.
"""

from __future__ import annotations

from domain.core import Command


class ChooseCivilization(Command, frozen=True, kw_only=True):
    """Keep one of the civilizations dealt ("Mise en place des joueurs", A)."""

    civilization: int


class ChooseCapital(Command, frozen=True, kw_only=True):
    """Keep one capital of the pair dealt (1-3 players, "Mise en place des joueurs", A)."""

    capital: int


class TakeIncome(Command, frozen=True, kw_only=True):
    """Take an income turn and start a new era ("Tours de revenus")."""


class Advance(Command, frozen=True, kw_only=True):
    """Pay the cost and advance one space on ``track`` ("Tours de développement").

    ``token`` names which of several tokens on the track moves (its index in the seat's
    ``tracks``, "Plusieurs pions par piste"); ``-1`` when only one token can move.
    """

    track: str
    payment: tuple[str, ...] = ()
    token: int = -1


class Choose(Command, frozen=True, kw_only=True):
    """Pick option ``index`` of the current decision (its options are listed in the view)."""

    index: int


class ChooseResource(Command, frozen=True, kw_only=True):
    """Take one resource of your choice (or lose one, when the decision says so)."""

    resource: str


class PayBonus(Command, frozen=True, kw_only=True):
    """Pay for the bonus of the space just reached (at most once, "Tours de développement")."""

    payment: tuple[str, ...] = ()
    discard: tuple[int, ...] = ()


class Decline(Command, frozen=True, kw_only=True):
    """Decline an optional gain (a bonus, an optional upgrade, a trap, an optional exchange)."""


class PlaceBuilding(Command, frozen=True, kw_only=True):
    """Place the building just gained in the capital at ``(row, col)`` in ``orientation``.

    ``row == col == -99`` sets it beside the capital, allowed only when it fits nowhere
    ("Bâtiments & Capitales").
    """

    row: int
    col: int
    orientation: int = 0


class Explore(Command, frozen=True, kw_only=True):
    """Place territory ``tile`` from your supply on hex ``(q, r)`` turned ``rotation`` sixths."""

    q: int
    r: int
    tile: int
    rotation: int


class ExploreSpace(Command, frozen=True, kw_only=True):
    """Explore space ``tile`` from your supply ("Exploration de l'espace")."""

    tile: int


class Conquer(Command, frozen=True, kw_only=True):
    """Put an outpost on hex ``(q, r)`` ("Conquête")."""

    q: int
    r: int


class PlayTrap(Command, frozen=True, kw_only=True):
    """Defender: discard a Trap card against the conquest under way ("Cartes riposte")."""


class Invent(Command, frozen=True, kw_only=True):
    """Take face-up tech ``card`` (``card == 0``: the top of the deck) ("Invention")."""

    card: int


class Upgrade(Command, frozen=True, kw_only=True):
    """Move your tech ``card`` up one row and gain its circle or square ("Amélioration")."""

    card: int


class ChooseTech(Command, frozen=True, kw_only=True):
    """Pick one of your tech cards (e.g. to gain its circle or square benefit again)."""

    card: int


class PlayTapestry(Command, frozen=True, kw_only=True):
    """Play tapestry ``card`` from your hand ("Jouer 1 carte Fresque")."""

    card: int


class BuildOnMap(Command, frozen=True, kw_only=True):
    """Nomads: put the building or landmark just gained on the territory at hex ``(q, r)``
    instead of the capital."""

    q: int
    r: int


TapestryCommand = (
    ChooseCivilization
    | ChooseCapital
    | TakeIncome
    | Advance
    | Choose
    | ChooseResource
    | PayBonus
    | Decline
    | PlaceBuilding
    | Explore
    | ExploreSpace
    | Conquer
    | PlayTrap
    | Invent
    | Upgrade
    | ChooseTech
    | PlayTapestry
    | BuildOnMap
)

"""Imperium commands: what a seat can send. Each answers the decision on top of the agenda.

* :class:`ChooseOrder` — the order of the turn: ``activate``, ``innovate`` or ``pacify``;
* :class:`PlayCard` / :class:`Exhaust` / :class:`EndActivate` — during Activate;
* :class:`Pick` — choose a card (from hand, the market, the development area...) or a pseudo
  card such as ``"deck:region"`` (innovate from the top of the region deck);
* :class:`Choose` — option ``index`` of the current decision (a ``choose`` step, a payment,
  yes/no for ``may`` steps: 0 = yes, 1 = no);
* :class:`Pass` — decline an optional decision or stop a "any number" choice.

Every accepted command is listed by ``legal_actions``.
"""

from __future__ import annotations

from domain.core import Command


class ChooseOrder(Command, frozen=True, kw_only=True):
    """Choose the order of the turn ("Comment jouer")."""

    order: str


class PlayCard(Command, frozen=True, kw_only=True):
    """Play ``card`` from your hand (an action, or a free action) ("Effectuer des actions")."""

    card: str


class Exhaust(Command, frozen=True, kw_only=True):
    """Use the exhaust effect of ``card`` in your play area ("Utiliser des effets épuisables")."""

    card: str


class EndActivate(Command, frozen=True, kw_only=True):
    """Stop taking actions and go to cleanup ("Activer")."""


class Pick(Command, frozen=True, kw_only=True):
    """Choose ``card`` for the pending decision."""

    card: str


class Choose(Command, frozen=True, kw_only=True):
    """Choose option ``index`` of the pending decision."""

    index: int


class Pass(Command, frozen=True, kw_only=True):
    """Decline the pending optional decision (or stop choosing more cards)."""


ImperiumCommand = ChooseOrder | PlayCard | Exhaust | EndActivate | Pick | Choose | Pass

COMMAND_TYPES: tuple[type[Command], ...] = (
    ChooseOrder,
    PlayCard,
    Exhaust,
    EndActivate,
    Pick,
    Choose,
    Pass,
)

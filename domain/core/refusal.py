"""The refusal of a command that the decision on top of an agenda does not accept.

Tapestry and Imperium ask each decision through a list of legal commands. A command outside
that list from the seat that must decide is refused with one of two reasons (``errors.proto``):
``NOT_OFFERED`` when the decision accepts commands of its kind but not with these values (a
die that does not exist, a card not on offer), ``ILLEGAL_CHOICE`` when it accepts no command of
its kind at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from domain.core.errors import RuleViolation
from domain.core.game import Command, Pending


def refuse_choice(
    command: Command, legal: Sequence[Command], pending: Pending, rule: str
) -> NoReturn:
    """Raise the ``RuleViolation`` for ``command``, which is not among ``legal``.

    >>> from domain.core.game import Command
    >>> class Pick(Command, frozen=True):
    ...     index: int
    >>> class Stop(Command, frozen=True):
    ...     pass
    >>> due = Pending(seats=(0,), decision="choose", prompt="Pick one.")
    >>> try:
    ...     refuse_choice(Pick(index=9), [Pick(index=0), Pick(index=1)], due, "")
    ... except RuleViolation as refused:
    ...     print(refused.code)
    NOT_OFFERED
    >>> try:
    ...     refuse_choice(Stop(), [Pick(index=0)], due, "")
    ... except RuleViolation as refused:
    ...     print(refused.code)
    ILLEGAL_CHOICE
    """
    kind = type(command).__name__
    if any(type(option) is type(command) for option in legal):
        raise RuleViolation(
            "NOT_OFFERED",
            f"This {kind} is not one of the options of the current decision "
            f"({pending.decision}): {pending.prompt}",
            rule,
        )
    raise RuleViolation(
        "ILLEGAL_CHOICE",
        f"{kind} does not answer the current decision ({pending.decision}): {pending.prompt}",
        rule,
    )

"""Typed rule violations raised by deciders.

A :class:`RuleViolation` names the rule that forbids a command, in a machine-readable ``code``
and in words a player understands. It never changes any state: deciders raise it before any
event is produced.

>>> err = RuleViolation("NOT_YOUR_TURN", "It is not seat 1's turn.", rule="Tour de jeu / B")
>>> err.code
'NOT_YOUR_TURN'
"""

from __future__ import annotations


class RuleViolation(Exception):
    """A command refused by the rules.

    Attributes:
        code: a stable, machine-readable reason (UPPER_SNAKE_CASE), e.g. ``"CLIFF"``.
        message: a sentence for a player, e.g. ``"A nomad cannot cross a cliff."``.
        rule: the rulebook section that states the rule (free text), empty if generic.
    """

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.rule = rule


class MalformedCommand(RuleViolation):
    """A command that is not well formed for this game (unknown type, bad field values).

    Raised instead of a plain :class:`RuleViolation` when the input could never be legal,
    so that the transport can answer INVALID_ARGUMENT rather than FAILED_PRECONDITION.
    """

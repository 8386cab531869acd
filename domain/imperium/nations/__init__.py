"""Per-nation special-rule modules (see :mod:`domain.imperium.nation_rules`).

Importing this package registers every module's rules in ``nation_rules.RULES``.
"""

from domain.imperium.nations import arthurians, atlanteans, utopians  # noqa: F401

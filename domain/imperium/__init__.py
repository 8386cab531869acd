"""Imperium: Classics and Imperium: Legends (the 16 nations of both boxes): content data and
rules, rulesets ``imperium-classics/1``, ``imperium/2``, ``imperium/3`` and ``imperium/4``."""

from domain.imperium import handlers as _handlers  # noqa: F401  (one order for every program)

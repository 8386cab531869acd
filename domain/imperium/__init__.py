"""Imperium: Classics and Imperium: Legends (the 16 nations of both boxes): content data and
rules, rulesets ``imperium-classics/1``, ``imperium/2``, ``imperium/3`` and ``imperium/4``."""

"""Imperium solo campaigns on the event store (see :mod:`service.campaigns.service`)."""

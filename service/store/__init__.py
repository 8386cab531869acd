"""Persistence: the event store over eventsourcing's recorders, its configuration, group commit."""

"""Seeded tournaments: the application service, bot games, and tournament records."""

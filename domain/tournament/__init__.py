"""Seeded tournaments — the pure, game-agnostic part (no I/O, no clock, no ``random``).

* :mod:`domain.tournament.events` — the tournament's events (past tense, msgspec Structs);
* :mod:`domain.tournament.seeds` — master-seed commitment and every derived seed;
* :mod:`domain.tournament.pairing` — round robin, Swiss (byes, no repeat pairings while
  avoidable) and the table layout of the duplicate format;
* :mod:`domain.tournament.standings` — match points and tiebreaks;
* :mod:`domain.tournament.engine` — the state fold and the decisions (what events a
  registration, a start or a game result produce).

The service (:mod:`service.tournaments.service`) stores the events and creates the games; the
offline verifier (:mod:`service.tournaments.record`) re-runs this very engine on a record.
"""

"""Reliability suite: the crash harness (``crash.py``), the soak (``soak.py``, ``make soak``)
and the checks they share, run against real ``annales serve`` processes on SQLite and
PostgreSQL."""

"""Read models that follow the event log.

Everything across games — lists, score timelines, leaderboards, balance statistics — is read
from tables kept in their own SQLite file (``data/annales.readmodels.db``, named after the
event store, by default), written with sqlite-utils and maintained from the store's
notification log with the eventsourcing tracking mechanism, exactly once:

* :mod:`projections.schema` — the tables and the tracking recorder;
* :mod:`projections.projector` — folds notifications into rows (one transaction per batch,
  tracking row included);
* :mod:`projections.runner` — the polling runner (inside ``annales serve`` or standalone as
  ``annales projections run``) and :func:`~projections.runner.rebuild`;
* :mod:`projections.queries` — what the gRPC ``ReadModelService`` and the CLI read;
* :mod:`projections.plots` — matplotlib charts (balance win rates, score timelines).

The read models only ever hold what a spectator may see (see :mod:`projections.projector`).
"""

"""Fuzzing of every RPC against a real ``annales serve`` subprocess (issue "Scale-out on
PostgreSQL and a reliability suite", item 4).

* :mod:`tests.fuzz.values` — hypothesis strategies for adversarial scalars and for whole
  protobuf messages built from their descriptors (so every request type is covered);
* :mod:`tests.fuzz.cases` — the symbolic cases (which RPC, which game, which token, which
  version, which idempotency key, which action or raw bytes) drawn by hypothesis;
* :mod:`tests.fuzz.oracle` — what the fuzzer knows of the server's state (versions, events
  acknowledged, seat tokens, keys used) and the checks made after every call;
* :mod:`tests.fuzz.runner` — resolves a symbolic case against the live games, sends it as
  bytes through a generic channel call, and checks the answer.
"""

"""The application layer of Annales: event store, command handling, undo, audit (and, later, gRPC).

It depends on :mod:`domain` and the storage libraries; :mod:`domain` never imports it.
"""

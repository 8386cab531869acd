"""The application layer: commands, undo, snapshots, the ledger of envelopes, typed errors."""

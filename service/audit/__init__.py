"""Game records: export as canonical JSON lines and offline verification by re-execution."""

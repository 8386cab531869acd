"""Benchmarks run by ``make bench``: printed with ratios against raw operations, never asserted."""

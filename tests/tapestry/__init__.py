"""Tests of the Tapestry game (base game)."""
